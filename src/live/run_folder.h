#pragma once
// The folder of a live run, on disk: made before the run (a temporary one, or the kept one
// the user named, refused if a file the run writes is already there), its SQLite files
// created with the lab's schema, and read back afterwards - a number out of a table, the
// actors' trace files merged, the checker's report over the tables.
//
// The actors write these files while the run goes on (WAL, so a reader never blocks them);
// everything here reads a file once and closes it again.

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/checker/checker.h"
#include "src/live/status.h"
#include "src/scenario/scenario.h"
#include "src/store/db.h"

namespace live {

// Sets `dir` to the run's folder: a new temporary one when `keep_db` is "", else `keep_db`
// (created if missing). An error, touching nothing, when a file the run writes exists there.
Status prepare_run_dir(const lab::Scenario& s, const std::string& keep_db, std::string& dir);

// An error, naming the first one, when `keep_db` already holds a file a run of `s` writes:
// asked before anything starts, so a used folder is refused before the broker is.
Status check_keep_dir(const lab::Scenario& s, const std::string& keep_db);

// orders.db, ledger.db, deliveries.db, and dedup.db / effects.db when the design has them.
// With `store_url` (a postgres:// URL, --store postgres) the four stores of the design are
// tables in a new schema of that server instead (its name in `schema`), and the run folder
// keeps the URL that reaches them in `store.url` (0600: a user's URL may hold a password);
// deliveries.db, the supervisor's own count, stays an SQLite file.
Status create_databases(const lab::Scenario& s, const std::string& dir,
                        const std::string& store_url, std::string& schema);

// With `base` (a redis:// URL, --dedup-store redis) and a design with a separate dedup
// store: `url` is the run's own place there (a key prefix of its own, and dedup_retention
// as the keys' TTL, ticks x tick_ms), kept in `dir`/dedup.url (0600) for every process of
// the run; create_databases then makes no dedup.db. Else `url` is "" and nothing is written.
Status use_dedup_server(const lab::Scenario& s, const std::string& dir, const std::string& base,
                        std::int64_t tick_ms, std::string& url);

// Where the run's database `name` ("orders.db", "ledger.db", "dedup.db", "effects.db")
// lives: the file in `dir`, or the server's URL from `dir`/dedup.url (dedup.db only) or
// `dir`/store.url. Every process of a
// run (supervisor, actors, checker) finds its stores through this.
std::string store_uri(const std::string& dir, const std::string& name);

// The URL an actor (`node`) reaches the database server by when its link goes through the
// fault proxy: `dir`/store-<node>.url, written by set_actor_store_url; "" when it has none
// (SQLite, or a server the proxy cannot front).
std::string actor_store_url(const std::string& dir, const std::string& node);
Status set_actor_store_url(const std::string& dir, const std::string& node, const std::string& url);
// The URL of the user's consumer's ledger on the database server (`dir`/consumer-ledger.url,
// 0600; user_consumer.h), "" when its ledger is the SQLite file.
std::string user_ledger_url(const std::string& dir);
Status set_user_ledger_url(const std::string& dir, const std::string& url);
// The separate dedup store's URL (Redis) of `node` when its link goes through the fault
// proxy: `dir`/dedup-<node>.url; "" when it has none.
std::string actor_dedup_url(const std::string& dir, const std::string& node);
Status set_actor_dedup_url(const std::string& dir, const std::string& node, const std::string& url);
// store_uri as `node` sees it: the server's stores through its own URL when it has one.
std::string actor_store_uri(const std::string& dir, const std::string& name,
                            const std::string& node);

// The first column of the first row `sql` gives in the database at `path` (a file or a
// store_uri); -1 when the database or the query cannot be read.
std::int64_t read_number(const std::string& path, const char* sql);
// The same on a database already open (-1 when `db` is not open or the query fails): a
// reader of several numbers opens a server's store once (each connection costs the server
// a process and a login).
std::int64_t read_number(store::Db& db, const char* sql);

// The actors' trace files and the supervisor's events, merged by wall tick (the events of
// one process keep their order) and numbered again from step 1.
std::vector<sim::TraceEvent> merged_trace(const std::string& dir,
                                          std::vector<sim::TraceEvent> supervisor);

// The checker over the run's tables and what was left in the broker's queues.
Status judge(const lab::Scenario& s, const std::string& dir, const lab::BrokerLeftovers& left,
             lab::Report& report);

}  // namespace live
