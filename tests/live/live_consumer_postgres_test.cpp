// `eosim live --store postgres --consumer CMD`: the user's consumer keeps its ledger on the
// private PostgreSQL (examples/consumers/python/atomic_pg.py, psycopg2), in a schema of its
// own that EOSIM_LEDGER_URL names, through the database's fault proxy. Scenario 42 restarts
// the server at the consumer's before_commit failpoint of order 2 (the transaction open);
// scenario 40 drops the reply to order 2's COMMIT on the wire. Either way the consumer cannot
// know whether its COMMIT took effect, gives the message back, and the redelivery applies
// it once. Asserts outcomes only - verdicts, debits per order, the faults that fired, that
// nothing the runs started is left - never how long anything took.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>

#include "tests/live/live_cli.h"

namespace {

namespace fs = std::filesystem;

// Debian's python3, which has python3-pika and python3-psycopg2.
const std::string kAtomicPg =
    "/usr/bin/python3 " + live_test::kSource + "/examples/consumers/python/atomic_pg.py";

std::string fired_site(const nlohmann::json& run) {
  return run["faults_fired"].size() == 1 ? run["faults_fired"][0]["site"].get<std::string>() : "";
}

}  // namespace

TEST_CASE(
    "live --store postgres --consumer: the psycopg2 example survives a database restart "
    "and a lost COMMIT reply",
    "[live-consumer-pg]") {
  live_test::TempDir dir;
  ::chmod(dir.path.c_str(), 0711);  // the private PostgreSQL runs as user postgres
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};
  // One command: one broker and one server for both runs.
  const auto r =
      live_test::eosim({"live", "--store", "postgres", "--consumer", kAtomicPg, "--format", "json",
                        live_test::kSource + "/scenarios/42-database-restart-atomic.toml",
                        live_test::kSource + "/scenarios/40-commit-reply-lost-atomic.toml"},
                       dir, env);
  INFO(r.out);
  CHECK(r.exit_code == 0);  // both files' [expect] met: every scripted fault fired
  auto runs = live_test::reports_by_scenario(r.out);
  REQUIRE(runs.size() == 2);
  const std::map<int, int> once{{1, 1}, {2, 1}, {3, 1}};

  const nlohmann::json& restart = runs["database restart (atomic)"];
  CHECK(restart["store"] == "postgres");
  CHECK(restart["strategy"].get<std::string>().find("your consumer") != std::string::npos);
  CHECK(restart["verdict"] == "exactly-once");
  CHECK(live_test::reported_debits_of(restart) == once);
  CHECK(fired_site(restart) == "db.restart");
  CHECK(restart["redeliveries"].get<int>() >= 1);  // order 2 came back after the restart

  const nlohmann::json& reply = runs["commit reply lost (atomic)"];
  CHECK(reply["verdict"] == "exactly-once");
  CHECK(live_test::reported_debits_of(reply) == once);
  CHECK(reply["database_link"]["proxied"] == true);
  CHECK(reply["database_link"]["commit_replies_dropped"] == 1);

  CHECK(live_test::processes_with_env("TMPDIR=" + tmp) == 0);
  std::error_code ec;
  CHECK(fs::is_empty(tmp, ec));
}

TEST_CASE("live --consumer: db.restart without a database server is refused", "[live-db-refuse]") {
  live_test::TempDir dir;
  const auto r =
      live_test::eosim({"live", "--consumer", kAtomicPg,
                        live_test::kSource + "/scenarios/42-database-restart-atomic.toml"},
                       dir);
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("run it with --store postgres") != std::string::npos);
}
