#pragma once
// A session: one scenario explored step by step, the model behind eosim-gui (and anything
// else that wants to step, scrub and inject by hand). It never draws: the GUI reads its
// const views and sends it commands.
//
// The run is fixed by scenario(): the loaded file, the seed/strategy/producer overrides,
// and the faults made by hand, each a scripted rule with a step trigger (FaultRule::step
// or after_step). So export_toml() is a scenario file that `eosim run` replays to the same
// trace hash, and going back is a replay: a fresh World stepped to the wanted step.
//
// Invariants:
//  (1) world() is always at step() and was built from scenario(): the state shown at step
//      k is exactly the state a fresh run of scenario() has after k steps, however k was
//      reached (forward, back, scrubbing).
//  (2) A fault made at step k rewrites the future: hand faults made at later steps (in a
//      timeline that no longer exists) are dropped.
//  (3) Seeking is double-buffered: while a replay towards target() is under way (pump),
//      world() keeps showing the last settled state; it never shows a half-way state.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/broker/views.h"
#include "src/scenario/scenario.h"
#include "src/session/stepped_run.h"
#include "src/store/warm.h"
#include "src/world/overrides.h"
#include "src/world/world.h"

namespace lab {

// The faults a person can make by hand at the current step.
enum class HandFaultKind {
  kDropNext,          // lose the next frame of `frame` on `link` (its connection dies)
  kBreakConnection,   // break the connections on `link` now
  kCrashNow,          // crash consumer `instance` now
  kCrashAfterCommit,  // crash consumer `instance` right after its next commit
  kRestartBroker,     // restart the broker now
  kFailNextCommit,    // the next ledger commit (of consumer `instance`, 0 = any) fails
};

struct HandFault {
  HandFaultKind kind = HandFaultKind::kCrashNow;
  std::string link;           // "net.consumer->broker" (kDropNext, kBreakConnection)
  std::string frame;          // "basic.ack" (kDropNext)
  std::int64_t instance = 0;  // consumer instance, 1-based; 0 = any
};

// The rule that makes `fault` happen at step `step`, in a live world or from a file.
sim::FaultRule rule_for(const HandFault& fault, std::uint64_t step);
// One line for people: "step 20: crash consumer1 now".
std::string describe_rule(const sim::FaultRule& rule);

// A message as the broker panels name it: its message_id, or "(no message_id)".
std::string message_label(const broker::Message& message);
// Its x-death entries in one line: "delivery_limit from orders x2; ...".
std::string x_death_text(const broker::Message& message);

// Where two traces part: the first event that differs.
struct Divergence {
  bool diverged = false;
  std::size_t event = 0;   // index of the first differing event (or the shorter length)
  std::uint64_t step = 0;  // the step of that event
};
Divergence first_divergence(const std::vector<sim::TraceEvent>& a,
                            const std::vector<sim::TraceEvent>& b);

class Session final : public SteppedRun {
 public:
  Session() = default;
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Starts over on `base` with no overrides and no hand faults. An error if the world
  // cannot be built; the session is then unchanged.
  eosim::Status open(const Scenario& base);
  eosim::Status load(const std::string& path);
  // Replaces the overrides (empty / nullopt = the file's value) and starts over at step 0.
  // Hand faults belong to the old run and are dropped. An error when the overrides do not
  // apply (lab::check_overrides, a fault rule) or the world cannot be built.
  eosim::Status configure(const ScenarioOverrides& overrides);
  bool is_open() const override { return world_ != nullptr; }
  // Changes whenever scenario() does (open, configure, a fault made or removed): views
  // derived from a trace can tell "the run grew" from "this is another run".
  std::uint64_t revision() const override { return revision_; }

  const Scenario& base() const { return base_; }
  const Scenario& scenario() const { return scenario_; }
  const std::vector<sim::FaultRule>& hand_rules() const { return hand_; }
  const World& world() const { return *world_; }
  std::uint64_t step() const override { return world_->steps(); }
  std::uint64_t target() const override { return target_; }
  bool settled() const override { return pending_ == nullptr && target_ == step(); }
  bool over() const override { return is_open() && settled() && world_->over(); }

  // The whole run's outcome and length (a full run of scenario(), cached until it changes).
  const RunSummary& end() override;
  // The views at the current step (cached until the world changes).
  const StepView& view() override;

  // --- commands ---
  bool step_forward() override;               // false when the run is over
  void step_back() override;                  // replay to step() - 1
  void seek(std::uint64_t step) override;     // synchronous: world() is at min(step, end) after it
  void request(std::uint64_t step) override;  // asynchronous: pump() gets there
  // Advances a replay or seek by at most `max_steps` events. True while not yet settled.
  bool pump(std::uint64_t max_steps) override;
  void inject(const HandFault& fault);  // at the current step; see invariant (2)
  void remove_hand_rule(std::size_t index);
  // scenario() as a file: the hand faults as [[faults.script]] rules and an [expect]
  // block with the whole run's verdict and balance, so `eosim run` checks the replay.
  std::string export_toml();
  // Writes export_toml() to `path` (src/files/output_file.h): never onto the scenario file
  // it came from, and onto any other existing file only with `replace` (the GUI asks).
  eosim::Status export_to(const std::string& path, bool replace);

 private:
  eosim::Status rebuild();  // world_ at step 0 of scenario_
  std::unique_ptr<World> fresh_world() const;
  void changed();  // the world moved or the run changed: views are stale

  // The thread's warm databases (store/warm.h), shared by every session on it: a replay,
  // a re-run and the whole run's end() take back connections and prepared statements an
  // earlier world of this thread parked. First, so it outlives every world below.
  std::shared_ptr<store::WarmScope> warm_ = store::shared_warm_scope();
  Scenario base_;
  Scenario configured_;  // base_ with the overrides applied, before the hand faults
  std::vector<sim::FaultRule> hand_;
  Scenario scenario_;
  std::unique_ptr<World> world_;
  std::unique_ptr<World> pending_;  // a replay towards target_ under way
  std::uint64_t target_ = 0;
  std::optional<RunSummary> end_;
  std::optional<StepView> view_;
  std::uint64_t revision_ = 0;
};

}  // namespace lab
