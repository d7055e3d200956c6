#pragma once
// The SQLite-only cost of a fault-free outbox + atomic-consumer run: the same connections
// a World opens (an anchor per database, the order service, the relay, one consumer) and
// the same statements the actors and the checker run, in the same order, with nothing
// else - no scheduler, no network, no broker, no trace. The benchmark runs it beside a
// sweep of the same workload, so the simulation's own cost shows as a ratio.
//
// REQUIRES: orders >= 1; the account balance covers every order (no rejections).

#include <cstdint>

namespace bench {

enum class SchemaSetup {
  kParsed,  // CREATE TABLE ... for every run (lab::create_*_schema)
  kCloned,  // copied from a per-thread template (lab::clone_*_schema, a cold World)
  kWarm,    // the thread's warm connections kept across runs, tables emptied per run
            // (store/warm.h, lab::ready_*_db: what a sweep worker's World does)
};

// One run: `orders` orders of `amount` through every statement. Returns the final balance
// (so the work cannot be optimised away, and a caller can check it).
// REQUIRES: for kWarm, a store::WarmScope on the calling thread.
std::int64_t sqlite_only_run(std::int64_t orders, std::int64_t amount,
                             std::int64_t initial_balance, SchemaSetup setup,
                             std::uint64_t run_id);

}  // namespace bench
