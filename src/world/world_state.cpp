// World::run_state: what explore's state merging compares (src/search/explore.h). Two
// worlds of one scenario whose hashes are equal have the same future, step for step, so
// everything a future step can read is in it, as it is:
//  - every row of every table of every database, with its rowid (AUTOINCREMENT counters
//    included: the relay reads rows in id order); tick columns only where a decision
//    reads them (column_kind below);
//  - the model broker (queues, channels, unacked deliveries with their tags, publish
//    sequence numbers, consumers and the round-robin cursor, the sync generation), the
//    broker node, the order service, its relay and publisher, each consumer (the
//    deliveries it holds, its connection, its generation);
//  - the network: connections, frames in flight with their payloads, partitions;
//  - the scheduler: every pending event in the order it would run (time from now,
//    priority, label, and a tag for what its closure captured: a generation, an order, a
//    connection); absolute time is history, and every time is fed relative to now;
//  - the chooser: the tape entries still to replay and the generator's state, so the draws
//    to come are the same;
//  - the fault plan: every rule that may still fire, counted from now;
//  - explore's schedule changes still pending (WorldOptions::changes).
// change_state() is the same hash without the rules explore placed and without the
// pending changes: the world as a change finds it (a change is defined by that state,
// explore.h says why).
// Left out, because nothing decides by them: the trace, the fired-fault and opportunity
// logs, statistics and counters, the recorded tape — and the step count, which only the
// step bound reads: explore checks that bound on its own (explore.cpp, exact_merging).

#include <algorithm>
#include <string>
#include <vector>

#include "sim/assert.h"
#include "sim/state_hash.h"
#include "src/world/world.h"
#include "src/world/world_impl.h"

namespace lab {

namespace {

// What a column of `table` is to the state: most are fed as they are; tick columns are
// history (when a row was written) except where a decision reads them: dedup retention
// deletes keys by `tick` against now (consumer_work.cpp, expire_dedup_keys), so those are
// fed relative to now - and only while retention is on. No other statement of an actor
// reads a tick column.
enum class Column { kValue, kAgeNow, kHistory };

Column column_kind(const std::string& table, const std::string& column, std::int64_t retention) {
  const bool tick = column.size() >= 4 && column.compare(column.size() - 4, 4, "tick") == 0;
  if (!tick) return Column::kValue;
  return retention > 0 && column == "tick" && (table == "processed_messages" || table == "seen")
             ? Column::kAgeNow
             : Column::kHistory;
}

// Every row of `table`, in rowid order, with its rowid. `retention`: the consumers' dedup
// retention (0 = keys kept forever). A key older than it goes at the next cleanup however
// much older it is, so ages are fed up to retention + 1.
void add_rows(sim::StateHash& hash, store::Db& db, const std::string& table, sim::Tick now,
              std::int64_t retention) {
  store::Stmt& st = db.statement("SELECT rowid, * FROM \"" + table + "\" ORDER BY rowid");
  std::vector<Column> kinds;
  bool has_row = false;
  std::uint64_t rows = 0;
  while (true) {
    const store::Status s = st.step(has_row);
    // Between steps no transaction is open and the schema is the lab's own.
    EOSIM_ASSERT(s.ok());
    if (!has_row) break;
    ++rows;
    if (kinds.empty()) {
      for (int c = 0; c < st.column_count(); ++c) {
        kinds.push_back(column_kind(table, st.column_name(c), retention));
      }
    }
    for (int c = 0; c < st.column_count(); ++c) {
      if (kinds[static_cast<std::size_t>(c)] == Column::kHistory) continue;
      hash.add(st.column_is_null(c));
      if (kinds[static_cast<std::size_t>(c)] == Column::kAgeNow && !st.column_is_null(c)) {
        hash.add(std::min(static_cast<std::int64_t>(now) - st.column_int64(c), retention + 1));
      } else {
        hash.add(std::string_view(st.column_text(c)));
      }
    }
  }
  st.reset();
  hash.add(rows);
}

void add_database(sim::StateHash& hash, store::Db& db, sim::Tick now, std::int64_t retention) {
  hash.add(db.is_open());
  if (!db.is_open()) return;
  std::vector<std::string> tables;
  store::Stmt& list = db.statement("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  bool has_row = false;
  while (true) {
    const store::Status s = list.step(has_row);
    EOSIM_ASSERT(s.ok());
    if (!has_row) break;
    tables.push_back(list.column_text(0));
  }
  list.reset();
  for (const std::string& table : tables) {
    hash.add(std::string_view(table));
    add_rows(hash, db, table, now, retention);
  }
}

}  // namespace

std::uint64_t World::change_state() {
  WorldImpl& w = *impl_;
  sim::StateHash hash;
  for (store::Db* db : {&w.orders_anchor_, &w.ledger_anchor_, &w.dedup_anchor_, &w.effects_anchor_}) {
    add_database(hash, *db, w.kernel_->scheduler.now(), w.scenario_.consumer.dedup_retention);
  }
  w.broker_->add_state(hash);
  w.producer_->add_state(hash);
  hash.add(static_cast<std::uint64_t>(w.consumers_.size()));
  for (const auto& c : w.consumers_) c->add_state(hash);
  w.kernel_->network.add_state(hash);
  w.kernel_->scheduler.add_state(hash);
  w.kernel_->chooser.add_state(hash);
  w.kernel_->faults.add_rules_state(hash, 0, w.options_.own_rules);
  w.kernel_->faults.add_random_state(hash);
  return hash.value();
}

std::uint64_t World::run_state_from(std::uint64_t change_state) {
  const WorldImpl& w = *impl_;
  sim::StateHash hash;
  hash.add(change_state);
  w.kernel_->faults.add_rules_state(hash, w.options_.own_rules, SIZE_MAX);
  for (std::size_t i = 0; i < w.options_.changes.size(); ++i) {
    if (w.change_steps_[i] != 0) continue;
    const StateChange& c = w.options_.changes[i];
    hash.add(c.state);
    hash.add(static_cast<std::uint64_t>(c.index));
    hash.add(c.value);
  }
  return hash.value();
}

std::uint64_t World::run_state() { return run_state_from(change_state()); }

// World::step calls it only with hash_states or a change pending, after begin_step().
void World::before_step() {
  WorldImpl& w = *impl_;
  sim::Chooser& chooser = w.kernel_->chooser;
  const std::uint64_t state = change_state();
  if (w.options_.hash_states) {
    w.state_hashes_.push_back(run_state_from(state));
    w.change_states_.push_back(state);
    w.decisions_before_.push_back(chooser.tape().size());
  }
  for (std::size_t i = 0; i < w.options_.changes.size(); ++i) {
    const StateChange& c = w.options_.changes[i];
    if (w.change_steps_[i] != 0 || c.state != state) continue;
    chooser.force(c.index, c.value);
    w.change_steps_[i] = w.kernel_->scheduler.steps() + 1;
    ++w.changes_applied_;
  }
}

}  // namespace lab
