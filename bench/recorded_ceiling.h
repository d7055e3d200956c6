#pragma once
// The SQL-only ceiling of a sweep, measured on the sweep's own SQL: the sweep is run once
// with a store::Recorder installed (every open, close, statement, binding, step, reset and
// column read of every run, checker and table resets included), then the record is
// replayed on warm prepared connections (store::Replay). Timing that replay beside the
// same sweep gives a ratio of equal work: a run with faults replays its redeliveries,
// rollbacks, failed commits and reconnections too.
//
// REQUIRES: a store::WarmScope on the calling thread, alive for as long as the replay is
//   played (the recorded in-memory databases live in it); sweeps with one job.

#include <cstdint>

#include "src/scenario/scenario.h"
#include "src/search/sweep.h"
#include "src/status/status.h"
#include "src/store/replay.h"

namespace bench {

struct RecordedSweep {
  store::Replay replay;
  std::uint64_t runs = 0;
  std::uint64_t steps = 0;        // store-level statement steps recorded
  std::uint64_t connections = 0;  // opens recorded
};

// Records a one-job sweep of `scenario` with `options` (its first seed swept once
// beforehand, unrecorded, so that every recorded run finds warm connections, as every
// run but the first of a real sweep does) and compiles the replay into `out`. An error
// when the sweep fails or the record does not compile into a replay.
eosim::Status record_sweep(const lab::Scenario& scenario, lab::SweepOptions options,
                           RecordedSweep& out);

}  // namespace bench
