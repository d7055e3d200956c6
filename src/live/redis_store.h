#pragma once
// The Redis side of the store layer's backend seam (src/store/remote.h), over hiredis: the
// separate dedup store of dedup = "separate-store" (`eosim live --dedup-store redis`). Two
// stores, no shared transaction: the key is in Redis, the debit in the ledger's database,
// and nothing makes the two one step. A crash or a failed commit between them loses the
// order (key first) or debits it twice (key after the commit): the anti-pattern, for real.
//
// Redis is no SQL database. A store::Db opened on a redis:// URL answers the three
// statements the consumer writes to its separate store (src/consumer/consumer_work.cpp),
// each as one Redis command on the key PREFIX + "seen:" + message_id:
//   SELECT 1 FROM seen WHERE message_id = ?1                         EXISTS key
//   INSERT INTO seen(message_id, order_id, tick) VALUES(?1, ?2, ?3)  SET key "ORDER TICK" NX
//                                                                    [PX ttl_ms]
//   DELETE FROM seen WHERE tick < ?1                                 nothing: keys expire
// SET NX on a key that exists is a unique violation (SQLSTATE 23505), as the table's
// primary key is; dedup_retention is the key's TTL (ticks x tick_ms), so Redis expires a
// key itself where the model's cleanup job deletes it. PRAGMAs do nothing; any other
// statement is an error that ends the run (eosim's trouble, never a verdict).
//
// The URL: redis://[[user]:password@]host:port[/db][?passfile=PATH][&prefix=P][&ttl_ms=N].
// passfile names a file whose first line is the password (the private server's, so it is
// never in a URL or on a command line).
//
// Invariants:
//  - A connection that broke (no reply) is an error of kind connection-lost (08006) and is
//    opened again by the next command (remote.h (3)).
//  - Only keys under the run's prefix are read or written.

#include <cstdint>
#include <memory>
#include <string>

#include "src/live/status.h"
#include "src/store/remote.h"

namespace live {

struct RedisUrl {
  std::string host;
  int port = 6379;
  std::string user;      // "" = Redis's default user
  std::string password;  // from the URL, or the passfile's first line
  int db = 0;
  std::string prefix;       // the run's keys start with it
  std::int64_t ttl_ms = 0;  // 0 = keys never expire
};

bool is_redis_url(const std::string& url);
// Reads `url` (and its passfile); an error names what is wrong, never the password.
Status parse_redis_url(const std::string& url, RedisUrl& out);

// Opens a connection for the store layer (the opener for redis:// URLs).
store::Status open_redis(const std::string& url, std::unique_ptr<store::RemoteConn>& out);

// Registers the live side's opener with the store layer (idempotent): postgres:// URLs go
// to PostgreSQL (postgres_store.h), redis:// URLs here. Every process of `eosim live` that
// opens a run's databases calls it first.
void install_server_stores();

// Logs in and PINGs: "" when the server answers PONG, else one line saying why.
std::string ping_redis(const std::string& url);

// `url` reaching 127.0.0.1:`port` (the fault proxy's listener) instead of its own host
// and port; the rest (user, database, passfile, prefix, TTL) unchanged.
std::string redis_via_proxy(const std::string& url, int port);

// `base` with the run's key prefix and the keys' TTL (0: none).
std::string run_dedup_url(const std::string& base, const std::string& prefix, std::int64_t ttl_ms);
// A prefix of this run's own: eosim-run-<pid>-<ms>-<n>:
std::string new_run_prefix();

// How many keys under the URL's prefix the server holds now.
Status count_run_keys(const std::string& url, std::int64_t& count);

}  // namespace live
