#pragma once
// The user's own consumer in a live run (`eosim live FILE --consumer 'CMD'`, or
// `[consumer] command` in the scenario): what eosim hands the command, and how it reads
// back what the command did. docs/your-consumer.md is the contract a user reads; this
// file is where it lives in code.
//
// The command runs under /bin/sh -c in the working folder of `eosim live`, in a process
// group of its own (process.h), its stdout and stderr appended to the run folder's
// consumer<N>.log. Its environment is eosim's with these added:
//   EOSIM_BROKER_URL        amqp://user:password@127.0.0.1:PORT/%2f - the fault proxy's
//                           port for this instance, never the broker's own
//   EOSIM_QUEUE             the queue to consume from (declared by eosim; do not declare
//                           it with other arguments)
//   EOSIM_PREFETCH          the scenario's [broker] prefetch (0 = unlimited)
//   EOSIM_LEDGER            the consumer's SQLite file, shared by every instance; the
//                           consumer makes its own tables there
//   EOSIM_LEDGER_URL        in its place with --store postgres: a postgresql:// URL (through
//                           the database's fault proxy when it fronts the server) whose
//                           search_path is a schema of the consumer's own, <run schema>_yours,
//                           beside the run's; the consumer makes its tables there
//   EOSIM_INSTANCE          1..N
//   EOSIM_FAILPOINT_SOCKET  the Unix socket of this instance's failpoints (failpoints.h)
//   EOSIM_RUN_DIR           the run folder
//
// The effects: after the run, eosim runs one query on EOSIM_LEDGER (or EOSIM_LEDGER_URL) (by
// default kDefaultEffectsQuery) that must give one row per applied effect, the order number in its
// first column. They are written into the run's own ledger.db as debits of each order's amount, and
// the checker judges that ledger as it judges its own consumer's.
//
// Invariants:
//  (1) A query that fails, or gives a first column that is not an integer order number,
//      is an error naming the query and the row: never a verdict.
//  (2) The run's ledger.db holds, after import_effects, exactly one debit per row the
//      query gave, and the account's balance is the initial one less those debits.

#include <cstdint>
#include <string>
#include <vector>

#include "src/live/status.h"
#include "src/scenario/scenario.h"

namespace live {

constexpr const char* kQueueEnv = "EOSIM_QUEUE";
constexpr const char* kPrefetchEnv = "EOSIM_PREFETCH";
constexpr const char* kLedgerEnv = "EOSIM_LEDGER";
constexpr const char* kLedgerUrlEnv = "EOSIM_LEDGER_URL";
// The consumer's own schema on the database server: the run's schema's name and this.
constexpr const char* kUserSchemaSuffix = "_yours";
constexpr const char* kInstanceEnv = "EOSIM_INSTANCE";
constexpr const char* kFailpointEnv = "EOSIM_FAILPOINT_SOCKET";
constexpr const char* kRunDirEnv = "EOSIM_RUN_DIR";

constexpr const char* kDefaultEffectsQuery = "SELECT order_id FROM debits";

// The consumer's ledger (EOSIM_LEDGER) in the run folder `dir`.
std::string user_ledger_path(const std::string& dir);
// The failpoint socket of consumer `instance` in the run folder `dir`.
std::string failpoint_socket_path(const std::string& dir, int instance);

// The environment of consumer `instance` (all but EOSIM_BROKER_URL, which the fault proxy's
// port decides): KEY=VALUE lines.
std::vector<std::string> user_consumer_env(const lab::Scenario& s, const std::string& dir,
                                           const std::string& queue, int instance);

// With `store_url` (--store postgres): the consumer's own schema beside the run's `schema`
// made on that server, and its URL kept in the run folder (user_ledger_url), which
// user_consumer_env then hands out as EOSIM_LEDGER_URL. Nothing with SQLite ("").
Status make_user_ledger(const std::string& dir, const std::string& store_url,
                        const std::string& schema);

// Why a scenario cannot run with the user's consumer, or "": the faults and designs only
// eosim's own consumer can carry out (a failed commit inside it, an email it sends), and
// db.restart without a database server (`postgres`: --store postgres or a URL).
std::string user_consumer_refusal(const lab::Scenario& s, bool postgres);

// The number of effects `query` gives on the consumer's ledger now (the SQLite file, or its
// schema on the server); -1 when it cannot be read yet (the consumer has not made its
// tables) or fails.
std::int64_t count_effects(const std::string& dir, const std::string& query);
// The same, counting each order once: how many orders have at least one effect.
std::int64_t count_effect_orders(const std::string& dir, const std::string& query);

// Invariant (2): the consumer's effects, read with `query`, written into the run's ledger.db.
// An error (invariant (1)) when the query fails or gives something other than order numbers.
Status import_effects(const lab::Scenario& s, const std::string& dir, const std::string& query);

}  // namespace live
