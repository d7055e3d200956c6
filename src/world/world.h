#pragma once
// The World: one run of a Scenario. It owns the kernel (scheduler, network, faults,
// trace), the model broker, the order service and relay, the consumers and the SQLite
// databases, and wires them together. Nothing in it reads a clock or the OS's randomness:
// a (scenario, seed) pair, or a (scenario, tape) pair, fixes the whole run.
//
// The GUI drives a World one step at a time through its const views; the CLI, sweeps and
// tests call run_scenario. Both see exactly the same behaviour.
//
// Invariants:
//  (1) The databases outlive every actor's connection: the World keeps one anchor
//      connection per database, so a crash (which closes an actor's connection) rolls back
//      that actor's transaction and loses nothing committed.
//  (2) finish() reads the verdict from the SQLite tables and the broker's leftovers only.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "sim/kernel.h"
#include "sim/named.h"
#include "src/checker/checker.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"

namespace broker {
class Broker;
}

namespace lab {

// Where a run's databases live when it keeps no files (keep_db_dir empty). Both give
// the same run, decision for decision (store/private_files.h); files keep the process
// small when the tables are large.
// Named (sim::name_of) as `eosim run --db` takes it; "auto" is auto_storage's.
enum class DbStorage {
  kMemory,     // in-memory databases (memdb): fastest for small runs
  kTempFiles,  // files in a private temporary folder, removed with the World
};
inline constexpr std::array<sim::Named<DbStorage>, 2> kDbStorageNames{{
    {DbStorage::kMemory, "memory", ""},
    {DbStorage::kTempFiles, "files", ""},
}};
static_assert(sim::names_every_value(kDbStorageNames));

// `eosim run --db auto`: files for a scenario of at least kTempFilesFromOrders orders,
// whose tables (~0.2 KB per order) would otherwise cost more memory than the rest of the
// run together; memory below, where it is faster.
constexpr std::int64_t kTempFilesFromOrders = 100000;
DbStorage auto_storage(const Scenario& scenario);

// A changed decision, defined by where it is drawn: in the first step that starts in
// world state `state` (World::change_state), the step's `index`-th decision (0-based)
// takes `value` (modulo its bound) instead of its draw. It is spent in that step even if
// the step ends before its decision (a fault earlier in the step).
struct StateChange {
  std::uint64_t state = 0;
  std::size_t index = 0;
  std::uint64_t value = 0;
};

struct WorldOptions {
  std::string keep_db_dir;  // "" = private databases (`storage`); else real files here
                            // (database_files(); an existing non-empty one is refused,
                            // never replaced)
  DbStorage storage = DbStorage::kMemory;  // without keep_db_dir
  bool keep_trace = true;                  // keep events for the exporters (sweeps turn it off)
  bool log_opportunities = false;          // every fault opportunity, for exhaustive search
                                           // (kernel().faults.opportunities())
  bool record_tape = true;                 // RunSummary::tape holds every decision (explore needs
                                           // it; a run nobody replays saves ~100 bytes per order)
  bool hash_states = false;                // World::state_hashes(): run_state() before each step
  std::optional<sim::ChoiceTape> tape;     // replay these decisions first
  // Explore's schedule changes under keyed draws (src/search/explore.h); each applies once.
  std::vector<StateChange> changes;
  // Rules of the fault plan from this index on are explore's placements: change_state()
  // leaves them out (the scenario's own rules come first).
  std::size_t own_rules = SIZE_MAX;
  sim::TapeEnd tape_end = sim::TapeEnd::kRandom;
};

// A scripted rule that never fired in the run.
struct UnfiredRule {
  std::int64_t number = 0;  // 1-based place in the fault plan ([[faults.script]] order)
  sim::FaultRule rule;
};

struct RunSummary {
  std::string scenario;  // its name
  std::uint64_t seed = 0;
  std::string strategy;
  std::string producer;
  Report report;
  std::vector<sim::FiredFault> faults;
  std::vector<UnfiredRule> unfired;  // scripted rules that could have fired and did not
  std::int64_t redeliveries = 0;     // deliveries with redelivered=true
  // Relay publishes of a row it had published before; unknown (nullopt) in a live run,
  // whose relay is a process of its own.
  std::optional<std::int64_t> republished;
  std::uint64_t steps = 0;
  sim::Tick time = 0;
  bool step_bound_hit = false;             // the run did not reach quiescence within step_bound
  std::uint64_t step_bound = 0;            // the bound in force (step_bound(scenario))
  std::int64_t orders_never_produced = 0;  // orders the producer had not created at the end;
                                           // > 0 with step_bound_hit: verdict "incomplete"
  // Why a live run was stopped before it settled (its timeout), "" otherwise; the report
  // then went through lab::cut_short (checker.h).
  std::string cut_short;
  std::uint64_t trace_hash = 0;
  std::uint64_t trace_events = 0;
  sim::ChoiceTape tape;  // every decision of the run, for replay and shrinking
                         // (empty when WorldOptions::record_tape was off)
};

// One table of a run's databases as text, for display: NULL reads "NULL".
struct DbTable {
  std::string database;  // "orders.db", "ledger.db", "dedup.db"
  std::string name;      // "outbox", "debits", ...
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // in rowid order
};

// What an actor process is doing, for display. Only what the actor itself knows.
struct ActorStatus {
  std::string name;          // "broker", "consumer1", ...
  bool up = true;            // false while crashed / restarting
  std::int64_t holding = 0;  // consumers: deliveries received and not yet finished
  std::int64_t deliveries = 0, applied = 0, duplicates = 0, crashes = 0;  // consumers
};

class WorldImpl;

class World {
 public:
  // Builds the world. On failure (a database could not be opened or created) the error
  // says why.
  static eosim::Result<std::unique_ptr<World>> create(const Scenario& scenario,
                                                      const WorldOptions& options);
  // The same, taking the scenario over instead of copying it (a sweep's run of its own).
  static eosim::Result<std::unique_ptr<World>> create(Scenario&& scenario,
                                                      const WorldOptions& options);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // Whether reset() can take this world for a run with `next`: it is on its thread's warm
  // databases (store/warm.h: a sweep worker's), the machine did not fail it, and `next`
  // asks for private in-memory databases too.
  bool reusable_for(const WorldOptions& next) const;
  // Makes this world the one create(scenario, options) would build, in place: the kernel
  // and the actors are built anew; the warm claim, the orders and ledger connections
  // (their tables emptied as for any warm world) and the containers' capacity are kept.
  // `scenario` is `base` with `seed`: copied into the world's own, whose strings, maps and
  // vectors keep their buffers (a sweep worker's runs differ in the seed alone).
  // On an error the world is unusable (destroy it). REQUIRES: reusable_for(options).
  eosim::Status reset(const Scenario& base, std::uint64_t seed, const WorldOptions& options);

  // Runs exactly one event. False when the run is over (quiescent, at max_steps, or
  // failed()).
  bool step();
  // Steps until over.
  void run();
  bool over() const;
  // Reads the verdict from the databases and the broker. Can be called at any step; its
  // verdict means nothing once failed().
  RunSummary summary();
  // The machine's own trouble (a full disk, an I/O error, no memory: store/failure.h) ended
  // the run: then failure() names the file and the operating system's reason, and the run
  // has no verdict. ok() otherwise.
  bool failed() const;
  eosim::Status failure() const;

  const Scenario& scenario() const;
  const sim::Kernel& kernel() const;
  const broker::Broker& broker() const;

  // --- views for the GUI (world_views.cpp); each reads, none changes the run ---
  // Events executed so far (the step the world is at).
  std::uint64_t steps() const;
  // The live tables, read through the anchor connections (between steps no transaction
  // is open): orders.db orders and outbox; ledger.db accounts, processed_messages, debits
  // and rejections; dedup.db seen (separate-dedup-store only).
  std::vector<DbTable> tables() const;
  // The broker, then each consumer.
  std::vector<ActorStatus> actors() const;

  // --- run states, for explore's state merging (world_state.cpp) ---
  // A hash of everything the rest of the run depends on but the step count: two worlds of
  // one scenario with equal hashes go on alike, step for step. Reads only.
  std::uint64_t run_state();
  // run_state() without the rules explore placed (WorldOptions::own_rules) and without the
  // schedule changes still pending: where a StateChange applies.
  std::uint64_t change_state();
  // With WorldOptions::hash_states, entry s is taken before step s + 1 ran: run_state(),
  // change_state(), and the number of decisions drawn before that step.
  const std::vector<std::uint64_t>& state_hashes() const;
  const std::vector<std::uint64_t>& change_states() const;
  const std::vector<std::uint64_t>& decisions_before() const;
  // Whether WorldOptions::changes[i] has applied so far.
  bool change_applied(std::size_t i) const;
  // The step (1-based, as sim::FiredFault::step) WorldOptions::changes[i] applied in; 0 when
  // it has not applied.
  std::uint64_t change_step(std::size_t i) const;

  // --- commands (world_commands.cpp) ---
  // Adds a scripted rule to the running world, as if the scenario had held it from the
  // start: a rule with `step` fires now, one with `after_step` is armed from now on.
  // This is how a fault made by hand is replayable from a scenario file.
  // REQUIRES: rule.step or rule.after_step equals steps().
  void add_fault(const sim::FaultRule& rule);

 private:
  explicit World(std::unique_ptr<WorldImpl> impl);
  // Builds what impl_ holds (its databases, kernel and actors) and starts the run.
  eosim::Status begin();
  // step() without its test of over() and its FailureWatch, which run() sets once for
  // the whole run. REQUIRES: !over(), the world's FailureWatch active.
  bool step_watched();
  // Fires the rules whose `step` trigger is the step just done (world_commands.cpp).
  void fire_step_rules();
  // Before a step: hashes the state (WorldOptions::hash_states) and arms the changes that
  // apply in it (world_state.cpp).
  void before_step();
  std::uint64_t run_state_from(std::uint64_t change_state);
  std::unique_ptr<WorldImpl> impl_;
};

// Builds, runs and checks one scenario. An error when the world could not be built or the
// machine failed the run (World::failure()): then there is no verdict.
// `tables`, when given, receives the databases' final rows.
eosim::Status run_scenario(const Scenario& scenario, const WorldOptions& options, RunSummary& out,
                           std::vector<sim::TraceEvent>* trace,
                           std::vector<DbTable>* tables = nullptr);
// The same, the world taking the scenario over (a sweep's per-seed copy): no copy of it.
eosim::Status run_scenario(Scenario&& scenario, const WorldOptions& options, RunSummary& out,
                           std::vector<sim::TraceEvent>* trace,
                           std::vector<DbTable>* tables = nullptr);

// One thread's world, reset in place for each run (World::reset) instead of built and
// destroyed: what a sweep worker holds. A run gives what run_scenario gives, byte for
// byte. A world that cannot be reused (no warm databases, a failed run, other storage) is
// replaced by a new one. REQUIRES: used on one thread, destroyed before its WarmScope.
class ReusedWorld {
 public:
  // Runs `base` with `seed` (a sweep's scenario is one for all its runs: no copy per run).
  eosim::Status run(const Scenario& base, std::uint64_t seed, const WorldOptions& options,
                    RunSummary& out, std::vector<DbTable>* tables = nullptr);
  // Runs that reused the world (for tests).
  std::uint64_t resets() const { return resets_; }

 private:
  std::unique_ptr<World> world_;
  std::uint64_t resets_ = 0;
};

// The database files a run of `scenario` writes into WorldOptions::keep_db_dir:
// orders.db and ledger.db, and dedup.db only when its strategy keeps a separate dedup store.
std::vector<std::string> database_files(const Scenario& scenario);

// The actors of a scenario's world in the order a sequence diagram should show them:
// producer, orders DB, relay, broker, consumer1..N, the dedup store (a separate-store
// only), ledger DB.
std::vector<std::string> diagram_lanes(const Scenario& scenario);

// The scenario's [expect] block against a run: one line per expectation that failed. A
// scripted rule that never fired is one too, unless it says `optional = true`.
std::vector<std::string> unmet_expectations(const Scenario& scenario, const RunSummary& run);
// The part of an [expect] table a run's Violations meet or not: its verdict, its lost,
// duplicated, phantom and stuck lists and effects_duplicated, one line for each that is
// unmet. (The balance, the orders set aside, the other effects and the unfired rules are
// the rest of unmet_expectations.)
std::vector<std::string> unmet_by(const Expect& expect, const Violations& violations);

// "scripted fault #2 (relay.after_publish, order 2, attempt 3) never fired".
std::string unfired_text(const UnfiredRule& unfired);
// How many of the run's unfired rules are not optional.
std::size_t required_unfired(const RunSummary& run);

}  // namespace lab

namespace sim {
template <>
constexpr std::span<const Named<lab::DbStorage>> enum_names<lab::DbStorage>() {
  return lab::kDbStorageNames;
}
}  // namespace sim
