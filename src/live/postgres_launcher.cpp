#include "src/live/postgres_launcher.h"

#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "src/live/launcher.h"  // pick_broker_ports, loopback_port_open
#include "src/live/process.h"
#include "src/live/temp_folders.h"

namespace live {

namespace fs = std::filesystem;

namespace {

constexpr int kPgStopTimeoutMs = 30000;
constexpr int kPgStartAttempts = 3;
constexpr const char* kRole = "eosim";
constexpr const char* kDatabase = "eosim";

std::string random_password() {
  std::random_device random;  // live/ only: a secret, never part of a run's outcome
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 32; ++i) out += kHex[random() % 16];
  return out;
}

// Makes `user` ("" = us) the owner of `path`.
Status give_to(const fs::path& path, const std::string& user) {
  if (user.empty()) return Status::success();
  const passwd* pw = ::getpwnam(user.c_str());
  if (pw == nullptr || ::chown(path.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
    return Status::error("cannot give " + path.string() + " to user " + user);
  }
  return Status::success();
}

// Writes `text` to `path` (mode `mode`), owned by `user`.
Status write_owned(const fs::path& path, const std::string& text, const std::string& user,
                   fs::perms mode) {
  {
    std::ofstream out(path);
    out << text;
    if (!out) return Status::error("cannot write " + path.string());
  }
  std::error_code ec;
  fs::permissions(path, mode, ec);
  return give_to(path, user);
}

constexpr fs::perms kSecret = fs::perms::owner_read | fs::perms::owner_write;

// A folder the server's user owns, mode 0700 (initdb insists on it for the data folder).
Status make_owned_folder(const fs::path& path, const std::string& user) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::error("cannot create " + path.string() + ": " + ec.message());
  ::chmod(path.c_str(), 0700);
  return give_to(path, user);
}

}  // namespace

std::string missing_postgres(const PostgresOptions& options) {
  for (const char* program : {"initdb", "postgres"}) {
    const fs::path path = fs::path(options.bin_dir) / program;
    if (::access(path.c_str(), X_OK) != 0) {
      return "PostgreSQL 15 is not installed (" + path.string() +
             " missing): run `sudo bash scripts/setup.sh` (or `sudo apt-get install postgresql "
             "libpq-dev`), or use a server of yours (eosim live --store "
             "postgres://user:pass@host:port/db)";
    }
  }
  if (::geteuid() == 0 && ::getpwnam("postgres") == nullptr) {
    return "PostgreSQL refuses to run as root and this machine has no user `postgres` (the "
           "postgresql package makes it): run `sudo apt-get install postgresql`, or run "
           "eosim as another user";
  }
  return "";
}

Status PrivatePostgres::start(const PostgresOptions& options,
                              std::unique_ptr<PrivatePostgres>& out) {
  if (std::string missing = missing_postgres(options); !missing.empty()) {
    return Status::error(missing);
  }
  // Another server starting at the same moment can take the port picked here before the
  // postmaster binds it; the next attempt picks a new one. A failed attempt leaves nothing
  // running and, in a temporary folder, nothing on disk.
  const auto began = std::chrono::steady_clock::now();
  Status last;
  for (int attempt = 1; attempt <= kPgStartAttempts; ++attempt) {
    std::unique_ptr<PrivatePostgres> server(new PrivatePostgres());
    last = server->start_once(options);
    if (last.ok()) {
      server->start_ms_ = elapsed_ms(began);
      out = std::move(server);
      return last;
    }
    if (!options.dir.empty() || interrupted() != 0) return last;  // a kept folder: no retry
  }
  return Status::error("PostgreSQL did not start in " + std::to_string(kPgStartAttempts) +
                       " attempts; the last: " + last.message);
}

Status PrivatePostgres::start_once(const PostgresOptions& options) {
  options_ = options;
  run_as_ = ::geteuid() == 0 ? "postgres" : "";
  if (Status s = make_folder(); !s.ok()) return s;
  std::array<int, 3> ports{};  // one is needed; the picker hands out three distinct ones
  if (Status s = pick_broker_ports(ports); !s.ok()) return s;
  port_ = ports[0];
  if (Status s = write_secrets(); !s.ok()) return s;
  if (Status s = init_cluster(); !s.ok()) return s;
  return start_server();
}

Status PrivatePostgres::make_folder() {
  std::error_code ec;
  if (options_.dir.empty()) {
    std::string tmpl = (fs::temp_directory_path(ec) / "eosim-pg-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) return Status::error("mkdtemp failed for " + tmpl);
    dir_ = tmpl;
    temporary_ = true;
    // Removed by the next `eosim live` if this process is SIGKILLed (temp_folders.h).
    if (Status s = claim_folder(dir_); !s.ok()) return s;
  } else {
    dir_ = fs::absolute(options_.dir, ec).string();
    if (fs::exists(fs::path(dir_) / "data", ec)) {
      return Status::error(dir_ +
                           "/data is already there (a used folder); eosim does not "
                           "replace it");
    }
    fs::create_directories(dir_, ec);
    if (ec) return Status::error("cannot create " + dir_ + ": " + ec.message());
  }
  // The server's user must pass through the folder to its own data and socket folders.
  ::chmod(dir_.c_str(), 0711);
  if (Status s = make_owned_folder(fs::path(dir_) / "data", run_as_); !s.ok()) return s;
  return make_owned_folder(fs::path(dir_) / "socket", run_as_);
}

Status PrivatePostgres::write_secrets() {
  password_ = random_password();
  const fs::path dir(dir_);
  // `password` is initdb's --pwfile, so the server's user reads it; `pgpass` is libpq's.
  if (Status s = write_owned(dir / "password", password_ + "\n", run_as_, kSecret); !s.ok()) {
    return s;
  }
  // The second line: a run's actors reach the server through the fault proxy, on ports
  // of its own (postgres_store.h, via_proxy).
  const std::string line = "127.0.0.1:" + std::to_string(port_) + ":*:" + kRole + ":" + password_ +
                           "\n" + "127.0.0.1:*:*:" + kRole + ":" + password_ + "\n";
  if (Status s = write_owned(dir / "pgpass", line, "", kSecret); !s.ok()) return s;
  // The server's log belongs to its user, so that pg_ctl -l can write it again when a kept
  // cluster is started by hand (how_to_start).
  return write_owned(dir / "server.log", "", run_as_,
                     kSecret | fs::perms::group_read | fs::perms::others_read);
}

Status PrivatePostgres::init_cluster() {
  ChildSpec spec;
  spec.argv = {options_.bin_dir + "/initdb",
               "-D",
               dir_ + "/data",
               "-A",
               "scram-sha-256",
               "--pwfile=" + dir_ + "/password",
               "-U",
               kRole,
               "-E",
               "UTF8",
               "--no-sync",
               "--no-instructions"};
  spec.output_path = dir_ + "/initdb.log";
  spec.user = run_as_;
  int code = 0;
  if (Status s = run_to_end(spec, 120000, code); !s.ok()) return s;
  if (code != 0) {
    // Its last line says why (a folder the server's user cannot reach, ...).
    std::string why = last_lines(spec.output_path, 1);
    if (!why.empty() && why.back() == '\n') why.pop_back();
    return Status::error("initdb failed (exit " + std::to_string(code) + "): " + why + " (see " +
                         spec.output_path + ")");
  }
  return Status::success();
}

Status PrivatePostgres::start_server() {
  ChildSpec spec;
  // fsync=off: a lab's server is never power-cut; a crash (db.restart) is a process
  // crash, and committed work is recovered from the WAL in the page cache.
  spec.argv = {options_.bin_dir + "/postgres",
               "-D",
               dir_ + "/data",
               "-c",
               "listen_addresses=127.0.0.1",
               "-p",
               std::to_string(port_),
               "-k",
               dir_ + "/socket",
               "-c",
               "fsync=off",
               "-c",
               "max_connections=60"};
  spec.output_path = dir_ + "/server.log";
  spec.user = run_as_;
  if (Status s = spawn(spec, pid_); !s.ok()) return s;
  register_group(pid_);
  return wait_ready();
}

std::string PrivatePostgres::url() const { return url_of(kDatabase); }

std::string PrivatePostgres::url_of(const std::string& database) const {
  return std::string("postgresql://") + kRole + "@127.0.0.1:" + std::to_string(port_) + "/" +
         database + "?passfile=" + dir_ + "/pgpass&sslmode=disable&connect_timeout=10";
}

Status PrivatePostgres::wait_ready() {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(options_.ready_timeout_ms);
  // initdb made only the databases postgres and template*: the first login goes to
  // `postgres`, which then creates `eosim`.
  const std::string admin = url_of("postgres");
  while (PQping(admin.c_str()) != PQPING_OK) {
    if (interrupted() != 0) return Status::error("interrupted while PostgreSQL started");
    if (!group_alive(pid_)) {
      return Status::error("PostgreSQL exited while starting; its log:\n" + log_tail());
    }
    if (Clock::now() > deadline) {
      return Status::error("PostgreSQL did not accept connections within " +
                           std::to_string(options_.ready_timeout_ms / 1000) + " s; its log:\n" +
                           log_tail());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  PGconn* conn = PQconnectdb(admin.c_str());
  Status result;
  if (PQstatus(conn) != CONNECTION_OK) {
    result = Status::error(std::string("cannot log in to the private PostgreSQL: ") +
                           PQerrorMessage(conn));
  } else {
    // After a restart the database exists already.
    PGresult* r = PQexec(conn, "SELECT 1 FROM pg_database WHERE datname = 'eosim'");
    const bool exists = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1;
    PQclear(r);
    if (!exists) {
      r = PQexec(conn, "CREATE DATABASE eosim");
      if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        result =
            Status::error(std::string("CREATE DATABASE eosim failed: ") + PQresultErrorMessage(r));
      }
      PQclear(r);
    }
  }
  PQfinish(conn);
  return result;
}

Status PrivatePostgres::restart_immediate() {
  // The postmaster's "immediate shutdown": no checkpoint, a crash.
  stop_group(pid_, SIGQUIT, kPgStopTimeoutMs);
  return start_server();
}

PrivatePostgres::~PrivatePostgres() { stop(); }

bool PrivatePostgres::stop() {
  // SIGINT is the postmaster's fast shutdown: clients disconnected, then a checkpoint.
  const bool clean = stop_group(pid_, SIGINT, kPgStopTimeoutMs);
  if (temporary_ && !keep_ && !dir_.empty()) {
    release_folder(dir_);
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  } else if (temporary_ && keep_) {
    release_folder(dir_);
  }
  return clean;
}

std::string PrivatePostgres::how_to_start() const {
  const std::string prefix = run_as_.empty() ? "" : "runuser -u " + run_as_ + " -- ";
  return prefix + options_.bin_dir + "/pg_ctl -D " + dir_ + "/data -l " + dir_ +
         "/server.log -o \"-c listen_addresses=127.0.0.1 -p " + std::to_string(port_) + " -k " +
         dir_ + "/socket\" start\n" + "PGPASSFILE=" + dir_ + "/pgpass psql -h " + "127.0.0.1 -p " +
         std::to_string(port_) + " -U " + kRole + " " + kDatabase + "\n" + prefix +
         options_.bin_dir + "/pg_ctl -D " + dir_ + "/data stop";
}

std::string PrivatePostgres::log_tail() const { return last_lines(dir_ + "/server.log", 20); }

}  // namespace live
