#pragma once
// A private Redis on loopback for `eosim live --dedup-store redis` and its tests: Debian's
// redis-server, started as a child of this process with a configuration of its own, so
// several can run at once and none touches a system one (port 6379, /var/lib/redis).
//
// Contract:
//  - start() returns only when the server answers PING after AUTH with the generated
//    password, or with an error; a failed start is tried again (3 attempts in all, each on
//    a new port). Without the package the error is one line saying what to install.
//  - The server listens on 127.0.0.1 only (protected mode on), on a port of its own below
//    the ephemeral range, and asks every client for its password (requirepass). The
//    password is in `redis.conf` and `password`, both mode 0600, never on a command line.
//  - It keeps nothing on disk: no snapshots (save ""), no append-only file. A dedup store
//    that forgets its keys when it stops is what a cache is; the ledger is the record.
//  - stop() (and the destructor) end the server by PID (SIGTERM, Redis's own shutdown;
//    SIGKILL to its group if it has not gone in 10 s) and remove the folder. Also on a
//    failed test or an interruption: process.h.
//
// Invariants: while a PrivateRedis exists and is not stopped, exactly one redis-server runs
// for it, registered for cleanup on a fatal signal; PDEATHSIG ends it if eosim dies.

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>

#include "src/live/status.h"

namespace live {

struct RedisOptions {
  std::string server = "/usr/bin/redis-server";
  int ready_timeout_ms = 30000;
};

class PrivateRedis {
 public:
  static Status start(const RedisOptions& options, std::unique_ptr<PrivateRedis>& out);
  ~PrivateRedis();
  PrivateRedis(const PrivateRedis&) = delete;
  PrivateRedis& operator=(const PrivateRedis&) = delete;

  // redis://127.0.0.1:PORT/0?passfile=DIR/password: the password stays in its file.
  std::string url() const;
  int port() const { return port_; }
  // How long start() took, every attempt included (ms).
  std::int64_t start_ms() const { return start_ms_; }
  pid_t pid() const { return pid_; }  // 0 once stopped
  const std::string& dir() const { return dir_; }

  // Idempotent. Returns false if the server's process group had to be SIGKILLed.
  bool stop();
  // The last lines of the server's log, to explain a failed start.
  std::string log_tail() const;

 private:
  PrivateRedis() = default;
  Status start_once();
  Status wait_ready();

  RedisOptions options_;
  std::string dir_;
  std::string password_;
  int port_ = 0;
  pid_t pid_ = 0;
  std::int64_t start_ms_ = 0;
};

// "" if redis-server is installed; otherwise the one line saying how to install it.
std::string missing_redis(const RedisOptions& options);

}  // namespace live
