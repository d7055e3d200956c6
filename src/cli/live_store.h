#pragma once
// `eosim live --store`: where a live run's stores (orders, ledger, dedup, effects) live.
//   sqlite               SQLite files in the run folder (the default)
//   postgres             a private PostgreSQL 15 started for the command (postgres_launcher.h),
//                        in a temporary folder, or in DIR/postgres with --keep-db DIR, where
//                        it is left stopped and the command says how to start it again
//   postgres://...       the user's server: each run makes a schema of its own there and
//                        drops it afterwards (kept with --keep-db); nothing else is touched
// Built only with the live side (EOSIM_HAVE_LIVE).

#include <memory>
#include <ostream>
#include <string>

#include "src/cli/commands.h"
#include "src/live/postgres_launcher.h"

namespace cli {

struct LiveStore {
  std::string url;  // passed to each run (LiveOptions::store_url); "" = SQLite
  bool drop_schema = false;
  std::unique_ptr<live::PrivatePostgres> own;
  std::string label;  // "SQLite", "a private PostgreSQL", "your PostgreSQL"
};

// "" when --store is one of the three forms; else the one line saying what is expected.
std::string store_option_error(const std::string& store);

// Starts or probes the server --store names. kExitOk, or 2 with one line on `err`.
int open_store(const LiveCommandOptions& o, LiveStore& store, std::ostream& err);

// Stops a private server; a kept one (--keep-db) is left stopped and `out` says how to
// start it and open the runs' schemas with psql.
void close_store(LiveStore& store, std::ostream& out);

}  // namespace cli
