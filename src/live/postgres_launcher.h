#pragma once
// A private PostgreSQL on loopback for `eosim live --store postgres` and its tests: Debian's
// postgresql (15), a cluster made with initdb in a folder of its own, started as a child of
// this process, so several can run at once and none touches a system cluster.
// Why this way: PostgreSQL refuses to run as root, so when eosim is root the server tools
// run as the package's system user `postgres` (process.h, ChildSpec::user) in a folder that
// user owns; the postmaster is started directly (not through pg_ctl, which detaches it), so
// the PID held here is the server itself, its backends share its process group, and
// PDEATHSIG reaches it if eosim dies.
//
// Contract:
//  - start() returns only when the server accepts a login with the generated password
//    (libpq's PQping says so), or with an error; a failed start is tried again (3 attempts
//    in all, each on a new port). Without the package the error is one line saying what
//    to install.
//  - The server listens on 127.0.0.1 only, on a port of its own below the ephemeral range,
//    with its socket in the folder (never /var/run/postgresql). One role `eosim` with a
//    random password (scram-sha-256), kept in `password` (0600) and in `pgpass` (0600,
//    libpq's passfile format), so no password appears on a command line.
//  - restart_immediate() is a crash (`-m immediate`: SIGQUIT, no shutdown checkpoint, WAL
//    replay at the next start), same folder and port: committed work survives.
//  - stop() (and the destructor) end the server by PID (SIGINT, a fast shutdown; SIGKILL to
//    its group if it has not gone in 30 s) and remove the folder - unless keep() was
//    called, which leaves the stopped cluster for the user to start again
//    (how_to_start()). Also on a failed test or an interruption: process.h.
//
// Invariants: while a PrivatePostgres exists and is not stopped, exactly one postmaster runs
// for it, registered for cleanup on a fatal signal.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "src/live/status.h"

namespace live {

struct PostgresOptions {
  std::string bin_dir = "/usr/lib/postgresql/15/bin";
  // The cluster's folder: "" = a new temporary one (eosim-pg-*), removed at stop; else a
  // folder of the user's (--keep-db), which must not hold a cluster yet.
  std::string dir;
  int ready_timeout_ms = 60000;
};

class PrivatePostgres {
 public:
  static Status start(const PostgresOptions& options, std::unique_ptr<PrivatePostgres>& out);
  ~PrivatePostgres();
  PrivatePostgres(const PrivatePostgres&) = delete;
  PrivatePostgres& operator=(const PrivatePostgres&) = delete;

  // A postgres:// URL for database `eosim` as role `eosim`; libpq reads the password from
  // the pgpass file (it is never part of the URL or of a command line).
  std::string url() const;
  int port() const { return port_; }
  // How long start() took, initdb and every attempt included (ms).
  std::int64_t start_ms() const { return start_ms_; }
  pid_t pid() const { return pid_; }  // 0 while down
  const std::string& dir() const { return dir_; }

  // A crash and a start on the same folder and port (db.restart).
  Status restart_immediate();
  // The folder survives stop(): the cluster is stopped cleanly and left for the user.
  void keep() { keep_ = true; }
  bool kept() const { return keep_; }
  // Idempotent. Returns false if the server's process group had to be SIGKILLed.
  bool stop();
  // The commands that start a kept cluster again and open it with psql.
  std::string how_to_start() const;
  // The last lines of the server's log, to explain a failed start.
  std::string log_tail() const;

 private:
  PrivatePostgres() = default;
  Status start_once(const PostgresOptions& options);
  std::string url_of(const std::string& database) const;
  Status make_folder();
  Status write_secrets();
  Status init_cluster();
  Status start_server();
  Status wait_ready();

  PostgresOptions options_;
  std::string dir_;
  bool temporary_ = false;  // dir_ is ours to remove
  bool keep_ = false;
  std::string run_as_;  // "postgres" when eosim is root, else ""
  std::string password_;
  int port_ = 0;
  pid_t pid_ = 0;
  std::int64_t start_ms_ = 0;
};

// "" if PostgreSQL's server programs are installed; otherwise the one line saying how to
// install them.
std::string missing_postgres(const PostgresOptions& options);

}  // namespace live
