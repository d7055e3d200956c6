#pragma once
// The state of a run at every step, for the HTML page's stepper (run_page.h): the same
// lab::Session the GUI steps with walks the run from step 0 to its end, and at each step
// its StepView (the GUI's panels' view) is written down as what changed since the step
// before. The page replays these changes; it never reads the trace to work out a state,
// so the browser and the GUI cannot disagree about what a step shows.
//
// One state per step k = 0..steps: the world after k events, as Session::view() gives it.
// A state holds only the parts that differ from state k-1 (state 0 holds every part):
//   "t"  virtual time                        "e"  the trace events of step k, as text
//   "tb" [[table, rows, [[row, cells]...]]]  rows changed or added, then the new count
//   "bk" {"r": ready, "u": unacked per consumer, "d": dead letters}
//   "ac" [[actor, up, holding, delivered, applied, duplicates, crashes]]
//   "c"  [published, delivered, redelivered, acked, requeued]
//   "v"  [verdict so far, known, balance initial, expected, actual, redeliveries, faults]
//   "o"  [[order, amount, committed, debits, rejections, dead letters, effects, outcome,
//          pending]...] orders changed or new; "O" the whole list when one went away
//
// Invariants:
//  (1) Applying states 0..k in order gives exactly Session::view() at step k.
//  (2) The walk ends where `eosim run` ends: steps == RunSummary::steps of the same
//      scenario (same trace, by the determinism rules).

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/trace.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"
#include "src/world/world.h"

namespace web {

struct StepStates {
  std::uint64_t steps = 0;
  nlohmann::json tables = nlohmann::json::array();  // [[database, name, [columns]]...]
  nlohmann::json states = nlohmann::json::array();  // steps + 1 entries, as above
  std::vector<sim::TraceEvent> trace;               // the whole run's, from the session
  std::vector<lab::DbTable> final_tables;           // the rows at the last step
};

// Walks `scenario` step by step. An error when its world cannot be built.
eosim::Status walk_steps(const lab::Scenario& scenario, StepStates& out);

}  // namespace web
