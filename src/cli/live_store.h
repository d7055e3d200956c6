#pragma once
// `eosim live --store`: where a live run's stores (orders, ledger, dedup, effects) live.
//   sqlite               SQLite files in the run folder (the default)
//   postgres             a private PostgreSQL 15 started for the command (postgres_launcher.h),
//                        in a temporary folder, or in DIR/postgres with --keep-db DIR, where
//                        it is left stopped and the command says how to start it again
//   postgres://...       the user's server: each run makes a schema of its own there and
//                        drops it afterwards (kept with --keep-db); nothing else is touched
// `eosim live --dedup-store redis`: the separate dedup store (dedup = "separate-store") on a
// private redis-server started for the command (redis_launcher.h); without it the `seen`
// table is where --store puts the others.
// Built only with the live side (EOSIM_HAVE_LIVE).

#include <memory>
#include <ostream>
#include <string>

#include "src/cli/commands.h"
#include "src/live/postgres_launcher.h"
#include "src/live/redis_launcher.h"

namespace cli {

struct LiveStore {
  std::string url;  // passed to each run (LiveOptions::store_url); "" = SQLite
  bool drop_schema = false;
  std::unique_ptr<live::PrivatePostgres> own;
  std::string label;                          // "SQLite", "a private PostgreSQL", "your PostgreSQL"
  std::unique_ptr<live::PrivateRedis> redis;  // --dedup-store redis
  std::string dedup_url;  // passed to each run (LiveOptions::dedup_url); "" = beside the rest
};

// "" when --store is one of the three forms and --dedup-store "" or redis; else the one
// line saying what is expected.
std::string store_option_error(const LiveCommandOptions& o);

// Starts or probes the server --store names, and the Redis --dedup-store asks for. kExitOk,
// or 2 with one line on `err` (nothing left running).
int open_store(const LiveCommandOptions& o, LiveStore& store, std::ostream& err);

// Stops the private servers; a kept one (--keep-db) is left stopped and `out` says how to
// start it and open the runs' schemas with psql.
void close_store(LiveStore& store, std::ostream& out);

}  // namespace cli
