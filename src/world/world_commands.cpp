// World's commands from outside the scenario file: faults made by hand (the GUI's
// buttons), recorded as scripted rules with a step trigger so that a scenario file
// holding the same rules replays the run exactly (same steps, same trace hash).

#include "sim/assert.h"
#include "src/world/world.h"
#include "src/world/world_impl.h"

namespace lab {

namespace {

// A rule with `step` fires as a timed fault would, at the current virtual time.
void fire_now(WorldImpl& w, const sim::FaultRule& rule, std::size_t index) {
  sim::FaultRule at = rule;
  at.tick = w.kernel_->scheduler.now();
  w.fire_timed(at, index);
}

}  // namespace

void World::add_fault(const sim::FaultRule& rule) {
  const auto now = static_cast<std::int64_t>(steps());
  EOSIM_ASSERT(rule.step || rule.after_step);
  EOSIM_ASSERT(!rule.step || *rule.step == now);
  EOSIM_ASSERT(!rule.after_step || *rule.after_step == now);
  impl_->kernel_->faults.add_rule(rule);
  // A world that has the rule from the start fires it at the end of this same step
  // (fire_step_rules after the step's event): firing it now is the same moment.
  if (rule.step) fire_now(*impl_, rule, impl_->kernel_->faults.rules().size() - 1);
}

// Called right after each step (and once after start, for step 0). The scheduler never
// sees a `step` rule, so the run takes the same steps with or without it in the file.
void World::fire_step_rules() {
  sim::FaultPlan& faults = impl_->kernel_->faults;
  if (!faults.has_step_rules()) return;
  const auto now = static_cast<std::int64_t>(steps());
  const std::vector<sim::FaultRule> rules = faults.rules();  // firing may log, never add
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].step && *rules[i].step == now) fire_now(*impl_, rules[i], i);
  }
}

}  // namespace lab
