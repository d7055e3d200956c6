// The private PostgreSQL's launcher (src/live/postgres_launcher.h): it starts on loopback
// with a password nobody else knows, a crash keeps committed work, a stop leaves no process
// and no folder, a kept folder holds a stopped cluster, a SIGKILLed owner takes its server
// with it, and a missing package is one line saying what to install.
#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "src/live/postgres_launcher.h"
#include "src/live/process.h"
#include "tests/live/owner_killed.h"

namespace {

namespace fs = std::filesystem;

// The one value `sql` returns, "" (and a failed check) on an error.
std::string value_of(const std::string& conninfo, const std::string& sql) {
  PGconn* conn = PQconnectdb(conninfo.c_str());
  INFO(PQerrorMessage(conn));
  REQUIRE(PQstatus(conn) == CONNECTION_OK);
  PGresult* r = PQexec(conn, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  const bool ok = PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK;
  std::string value = ok && PQntuples(r) > 0 ? PQgetvalue(r, 0, 0) : "";
  PQclear(r);
  PQfinish(conn);
  CHECK(ok);
  return value;
}

bool gone(pid_t pid) { return live_test::process_gone(pid); }

}  // namespace

TEST_CASE(
    "private PostgreSQL: loopback, a secret password, a crash keeps commits, stop "
    "leaves nothing",
    "[live-postgres]") {
  std::unique_ptr<live::PrivatePostgres> pg;
  const live::Status st = live::PrivatePostgres::start({}, pg);
  INFO(st.message);
  REQUIRE(st.ok());
  const std::string dir = pg->dir();
  const pid_t pid = pg->pid();
  CHECK(pid > 0);
  CHECK(value_of(pg->url(), "SHOW listen_addresses") == "127.0.0.1");
  CHECK(value_of(pg->url(), "SELECT current_database()") == "eosim");
  struct stat info {};
  REQUIRE(::stat((dir + "/pgpass").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  REQUIRE(::stat((dir + "/password").c_str(), &info) == 0);
  CHECK((info.st_mode & 0777) == 0600);
  // Without the password file the login is refused: the password is the only way in.
  const std::string no_password = "host=127.0.0.1 port=" + std::to_string(pg->port()) +
                                  " dbname=eosim user=eosim passfile=/dev/null sslmode=disable";
  PGconn* refused = PQconnectdb(no_password.c_str());
  CHECK(PQstatus(refused) != CONNECTION_OK);
  PQfinish(refused);

  value_of(pg->url(), "CREATE TABLE t(x int); INSERT INTO t VALUES (7)");
  REQUIRE(pg->restart_immediate().ok());
  CHECK(gone(pid));  // a crash ends the old postmaster; a new one serves the same folder
  CHECK(pg->pid() != pid);
  CHECK(value_of(pg->url(), "SELECT x FROM t") == "7");

  const pid_t second = pg->pid();
  CHECK(pg->stop());
  CHECK(gone(second));
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("private PostgreSQL: keep() leaves a stopped cluster that starts again",
          "[live-postgres]") {
  std::unique_ptr<live::PrivatePostgres> pg;
  REQUIRE(live::PrivatePostgres::start({}, pg).ok());
  const std::string dir = pg->dir();
  value_of(pg->url(), "CREATE TABLE kept(x int); INSERT INTO kept VALUES (3)");
  const pid_t pid = pg->pid();
  pg->keep();
  CHECK(pg->stop());
  CHECK(gone(pid));
  CHECK(fs::exists(dir + "/data/PG_VERSION"));
  CHECK_FALSE(fs::exists(dir + "/data/postmaster.pid"));  // stopped cleanly
  CHECK(pg->how_to_start().find("pg_ctl -D " + dir + "/data") != std::string::npos);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("private PostgreSQL: its owner SIGKILLed, the server goes too", "[live-postgres]") {
  // The child's server object is never destroyed: the child dies by SIGKILL.
  static std::unique_ptr<live::PrivatePostgres> pg;
  CHECK(live_test::server_dies_with_owner([](pid_t& pid, char* dir) {
    if (!live::PrivatePostgres::start({}, pg).ok()) return;
    pid = pg->pid();
    pg->dir().copy(dir, 255);
  }));
}

TEST_CASE("private PostgreSQL: without the package, one line saying what to install",
          "[live-postgres]") {
  live::PostgresOptions options;
  options.bin_dir = "/nonexistent/postgresql/bin";
  std::unique_ptr<live::PrivatePostgres> pg;
  const live::Status st = live::PrivatePostgres::start(options, pg);
  CHECK_FALSE(st.ok());
  CHECK(st.message.find("apt-get install postgresql libpq-dev") != std::string::npos);
  CHECK(st.message.find('\n') == std::string::npos);
  CHECK(pg == nullptr);
}
