#pragma once
// A run stepped through by hand, whatever holds it: a Session replays a scenario in a World
// (going back is a replay, faults can be made by hand), a Recording shows a recorded trace
// (going back shows fewer recorded events). The GUI's transport - step, back, seek, play,
// to the end - works on this interface, so one code path moves either.
//
// Invariants:
//  (1) seek(k) returns with step() == min(k, end().steps) and settled() true.
//  (2) request(k) asks for step k; pump() moves step() towards it and says whether it has
//      more to do. A run that seeks at once (a recording) is there when request returns.
//  (3) over() is true exactly when the shown step is settled and is the run's last.
//  (4) revision() changes whenever the same step could show something else (another file,
//      another configuration, a fault made by hand): views built from a run compare it.

#include <cstdint>
#include <vector>

#include "src/broker/views.h"
#include "src/world/world.h"

namespace lab {

// Everything the panels show about a run at one step, read once per step.
struct StepView {
  std::uint64_t step = 0;
  sim::Tick time = 0;
  bool over = false;
  std::vector<DbTable> tables;
  std::vector<ActorStatus> actors;
  std::vector<broker::ReadyView> ready;         // the work queue, in delivery order
  std::vector<broker::ChannelView> channels;    // with their unacked deliveries
  std::vector<broker::ReadyView> dead_letters;  // the dead-letter queue, if any
  broker::Counters counters;
  RunSummary summary;  // the checker's verdict if the run stopped here
};

class SteppedRun {
 public:
  virtual ~SteppedRun() = default;

  virtual bool is_open() const = 0;
  virtual std::uint64_t revision() const = 0;
  virtual std::uint64_t step() const = 0;
  virtual std::uint64_t target() const = 0;
  virtual bool settled() const = 0;
  virtual bool over() const = 0;
  // The whole run's outcome and length; the views at the shown step.
  virtual const RunSummary& end() = 0;
  virtual const StepView& view() = 0;

  virtual bool step_forward() = 0;  // false when the run is over
  virtual void step_back() = 0;
  virtual void seek(std::uint64_t step) = 0;
  virtual void request(std::uint64_t step) = 0;
  virtual bool pump(std::uint64_t max_steps) = 0;
};

}  // namespace lab
