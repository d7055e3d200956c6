// run_scenario and expectations: the thin layer the CLI, sweeps and tests share (the
// overrides a front end applies are in overrides.cpp).
#include <algorithm>
#include <utility>

#include "sim/assert.h"
#include "src/orders/order_key.h"
#include "src/world/world.h"

namespace lab {

eosim::Status run_scenario(const Scenario& scenario, const WorldOptions& options, RunSummary& out,
                           std::vector<sim::TraceEvent>* trace, std::vector<DbTable>* tables) {
  return run_scenario(Scenario(scenario), options, out, trace, tables);
}

namespace {

// Runs a built world to its end and reads what the caller asked for.
eosim::Status finish(World& world, RunSummary& out, std::vector<sim::TraceEvent>* trace,
                     std::vector<DbTable>* tables) {
  world.run();
  if (world.failed()) return world.failure();
  out = world.summary();
  if (world.failed()) return world.failure();
  if (trace) *trace = world.kernel().trace.events();
  if (tables) *tables = world.tables();
  return eosim::Status::success();
}

}  // namespace

eosim::Status run_scenario(Scenario&& scenario, const WorldOptions& options, RunSummary& out,
                           std::vector<sim::TraceEvent>* trace, std::vector<DbTable>* tables) {
  WorldOptions effective = options;
  effective.keep_trace = options.keep_trace || trace != nullptr;
  eosim::Result<std::unique_ptr<World>> created = World::create(std::move(scenario), effective);
  if (!created.ok()) return created.status();
  return finish(*created.value(), out, trace, tables);
}

eosim::Status ReusedWorld::run(const Scenario& base, std::uint64_t seed,
                               const WorldOptions& options, RunSummary& out,
                               std::vector<DbTable>* tables) {
  if (world_ != nullptr && world_->reusable_for(options)) {
    ++resets_;
    if (eosim::Status reset = world_->reset(base, seed, options); !reset.ok()) {
      world_.reset();
      return reset;
    }
  } else {
    world_.reset();  // first: its warm claim and connections go back before the new world's
    Scenario scenario = base;
    scenario.seed = seed;
    eosim::Result<std::unique_ptr<World>> created = World::create(std::move(scenario), options);
    if (!created.ok()) return created.status();
    world_ = std::move(created.value());
  }
  return finish(*world_, out, nullptr, tables);
}

std::vector<std::string> diagram_lanes(const Scenario& scenario) {
  std::vector<std::string> lanes = {"producer", "orders", "relay", "broker"};
  for (std::int64_t i = 1; i <= scenario.consumer.instances; ++i) {
    lanes.push_back("consumer" + std::to_string(i));
  }
  // The separate dedup store is a store of its own, drawn as its own lane.
  if (scenario.consumer.choices().dedup == consumer::Dedup::kSeparateStore) {
    lanes.push_back("dedup");
  }
  lanes.push_back("ledger");
  if (scenario.consumer.side_effect != consumer::SideEffect::kNone) lanes.push_back("mail");
  return lanes;
}

namespace {

using orders::list_text;

void expect_list(const char* name, const std::optional<std::vector<std::int64_t>>& want,
                 std::vector<std::int64_t> got, std::vector<std::string>& unmet) {
  if (!want) return;
  std::vector<std::int64_t> expected = *want;
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  if (expected != got) {
    unmet.push_back(std::string(name) + ": expected " + list_text(expected) + ", got " +
                    list_text(got));
  }
}

}  // namespace

std::vector<std::string> unmet_by(const Expect& expect, const Violations& violations) {
  std::vector<std::string> unmet;
  if (expect.verdict && *expect.verdict != violations.verdict) {
    unmet.push_back("verdict: expected " + std::string(verdict_name(*expect.verdict)) + ", got " +
                    std::string(verdict_name(violations.verdict)));
  }
  expect_list("lost", expect.lost, violations.lost, unmet);
  expect_list("duplicated", expect.duplicated, violations.duplicated, unmet);
  expect_list("phantom", expect.phantom, violations.phantom, unmet);
  expect_list("stuck", expect.stuck, violations.stuck, unmet);
  expect_list("effects_duplicated", expect.effects_duplicated, violations.effect_duplicated, unmet);
  return unmet;
}

std::string unfired_text(const UnfiredRule& unfired) {
  const sim::FaultRule& r = unfired.rule;
  std::string keys = r.site;
  const auto add = [&keys](const char* key, const std::string& value) {
    keys += ", " + std::string(key) + " " + value;
  };
  if (r.frame) add("frame", *r.frame);
  if (r.key[orders::kOrder]) add("order", std::to_string(*r.key[orders::kOrder]));
  if (r.key[orders::kAttempt]) add("attempt", std::to_string(*r.key[orders::kAttempt]));
  if (r.nth) add("nth", std::to_string(*r.nth));
  if (r.key[orders::kInstance]) add("instance", std::to_string(*r.key[orders::kInstance]));
  if (r.tick) add("tick", std::to_string(*r.tick));
  if (r.step) add("step", std::to_string(*r.step));
  if (r.after_step) add("after_step", std::to_string(*r.after_step));
  return "scripted fault #" + std::to_string(unfired.number) + " (" + keys + ") never fired" +
         (r.optional ? " (optional)" : "");
}

std::size_t required_unfired(const RunSummary& run) {
  return static_cast<std::size_t>(
      std::count_if(run.unfired.begin(), run.unfired.end(),
                    [](const UnfiredRule& u) { return !u.rule.optional; }));
}

std::vector<std::string> unmet_expectations(const Scenario& scenario, const RunSummary& run) {
  std::vector<std::string> unmet;
  const Expect& e = scenario.expect;
  const Report& r = run.report;
  // A live run stopped at its timeout: never success, whatever the file expects.
  if (r.verdict == lab::Verdict::kIncomplete && !run.cut_short.empty()) {
    unmet.push_back("the run was cut short (" + run.cut_short +
                    "): nothing but a duplicate "
                    "or a phantom can be judged before it settles");
    return unmet;
  }
  if (r.verdict == lab::Verdict::kIncomplete && !(e == Expect{})) {
    // Nothing about the design can be checked on a workload that was not produced.
    unmet.push_back("the run is incomplete: the step bound (" + std::to_string(run.step_bound) +
                    ") ended it with " + std::to_string(run.orders_never_produced) +
                    " orders never produced; raise max_steps");
    return unmet;
  }
  unmet = unmet_by(e, r);
  if (e.balance && *e.balance != r.balance_actual) {
    unmet.push_back("balance: expected " + std::to_string(*e.balance) + ", got " +
                    std::to_string(r.balance_actual));
  }
  expect_list("dead_lettered", e.dead_lettered, r.dead_lettered, unmet);
  expect_list("rejected", e.rejected, r.rejected, unmet);
  expect_list("effects_lost", e.effects_lost, r.effect_lost, unmet);
  expect_list("effects_phantom", e.effects_phantom, r.effect_phantom, unmet);
  for (const UnfiredRule& u : run.unfired) {
    if (!u.rule.optional) unmet.push_back(unfired_text(u));
  }
  return unmet;
}

}  // namespace lab
