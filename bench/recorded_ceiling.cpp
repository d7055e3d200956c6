#include "bench/recorded_ceiling.h"

#include "sim/assert.h"
#include "src/store/recorder.h"
#include "src/store/warm.h"

namespace bench {

eosim::Status record_sweep(const lab::Scenario& scenario, lab::SweepOptions options,
                           RecordedSweep& out) {
  EOSIM_ASSERT(store::WarmScope::current() != nullptr);
  options.jobs = 1;  // the recorder is process-wide and not thread-safe
  lab::SweepOptions warm_up = options;
  warm_up.last_seed = warm_up.first_seed;
  lab::SweepSummary summary;
  if (eosim::Status warmed = lab::sweep(scenario, warm_up, summary); !warmed.ok()) {
    return warmed;
  }
  store::Recorder recorder;
  store::Recorder* previous = store::Recorder::install(&recorder);
  EOSIM_ASSERT(previous == nullptr);
  const eosim::Status swept = lab::sweep(scenario, options, summary);
  store::Recorder::install(nullptr);
  if (!swept.ok()) return swept;
  out.runs = summary.runs;
  out.steps = recorder.count(store::Recorder::Kind::kStep);
  out.connections = recorder.count(store::Recorder::Kind::kOpen);
  const store::Status compiled = out.replay.compile(recorder);
  if (!compiled.ok()) {
    return eosim::Status::error("the recorded SQL does not replay: " + compiled.to_string());
  }
  return eosim::Status::success();
}

}  // namespace bench
