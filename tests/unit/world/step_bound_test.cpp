// The step bound (lab::step_bound, World::summary): a run it cuts short before the
// workload was produced is "incomplete", never a verdict about the design; a livelock over
// orders that exist stays "stuck" and says the bound ended it; the default scales with the
// workload; and no search that did not look passes an expectation.

#include <catch2/catch.hpp>

#include "src/scenario/scenario.h"
#include "src/search/explore.h"
#include "src/search/sweep.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

lab::Scenario workload(std::int64_t orders, const std::string& strategy = "atomic") {
  lab::Scenario s;
  s.name = "step bound test";
  s.workload.orders = orders;
  s.workload.initial_balance = 1'000'000'000;
  s.consumer.strategy = strategy;
  return s;
}

lab::RunSummary run_untraced(const lab::Scenario& s) {
  lab::WorldOptions options;
  options.keep_trace = false;
  return run_support::run(s, options);
}

}  // namespace

TEST_CASE("step bound: a workload not produced by the bound is incomplete, not stuck",
          "[step-bound]") {
  lab::Scenario s = workload(100);
  s.max_steps = 300;
  s.expect.verdict = lab::Verdict::kExactlyOnce;
  const lab::RunSummary r = run_untraced(s);
  CHECK(r.step_bound_hit);
  CHECK(r.step_bound == 300);
  CHECK(r.report.verdict == lab::Verdict::kIncomplete);
  CHECK(r.orders_never_produced > 0);
  CHECK(r.orders_never_produced < 100);
  const auto unmet = lab::unmet_expectations(s, r);
  REQUIRE(unmet.size() == 1);
  CHECK(unmet[0].find("incomplete") != std::string::npos);
  CHECK(unmet[0].find(std::to_string(r.orders_never_produced) + " orders never produced") !=
        std::string::npos);
}

TEST_CASE("step bound: a poison loop over an order that exists stays stuck", "[step-bound]") {
  lab::Scenario s = workload(3, "requeue-poison");
  s.workload.initial_balance = 1000;
  s.workload.amounts = {150, 5000, 150};  // order 2 is refused, and requeued forever
  s.max_steps = 2000;
  const lab::RunSummary r = run_untraced(s);
  CHECK(r.step_bound_hit);
  CHECK(r.orders_never_produced == 0);
  CHECK(r.report.verdict == lab::Verdict::kStuck);
}

TEST_CASE("step bound: the default scales with the workload", "[step-bound]") {
  lab::Scenario s = workload(3);
  CHECK(lab::step_bound(s) == 200'300);
  s.workload.orders = 1'000'000;
  CHECK(lab::step_bound(s) == 100'200'000);
  s.max_steps = 77;
  CHECK(lab::step_bound(s) == 77);
  // 25,000 orders take ~225,000 steps: beyond a fixed 200,000, within the default.
  const lab::RunSummary r = run_untraced(workload(25'000));
  CHECK_FALSE(r.step_bound_hit);
  CHECK(r.steps > 200'000);
  CHECK(r.report.verdict == lab::Verdict::kExactlyOnce);
}

TEST_CASE("step bound: an unset max_steps stays unset through a file", "[step-bound]") {
  const lab::Scenario s = workload(4);
  const std::string text = lab::to_toml(s);
  CHECK(text.find("max_steps") == std::string::npos);
  lab::Scenario back = test_support::loaded(lab::parse_scenario(text, "round trip"));
  CHECK(back.max_steps == 0);
}

TEST_CASE("step bound: explore passes exactly-once only over the whole tree", "[step-bound]") {
  lab::ExploreResult r;
  std::string why;
  CHECK_FALSE(lab::explore_expectation_met(r, *lab::parse_expectation("exactly-once"), why));  // nothing explored
  CHECK(why.find("nothing was explored") != std::string::npos);
  r.runs = 10;
  r.truncated = true;
  CHECK_FALSE(lab::explore_expectation_met(r, *lab::parse_expectation("exactly-once"), why));
  CHECK(why.find("truncated") != std::string::npos);
  r.truncated = false;
  r.incomplete = 1;
  CHECK_FALSE(lab::explore_expectation_met(r, *lab::parse_expectation("exactly-once"), why));
  r.incomplete = 0;
  CHECK(lab::explore_expectation_met(r, *lab::parse_expectation("exactly-once"), why));
  CHECK_FALSE(lab::explore_expectation_met(r, *lab::parse_expectation("violation"), why));
  r.violations = 1;
  r.truncated = true;  // a violation found is evidence even in a truncated search
  CHECK(lab::explore_expectation_met(r, *lab::parse_expectation("violation"), why));
  CHECK_FALSE(lab::explore_expectation_met(r, *lab::parse_expectation("exactly-once"), why));
}

TEST_CASE("step bound: incomplete sweep runs are neither exactly-once nor violations",
          "[step-bound]") {
  lab::Scenario s = workload(100);
  s.max_steps = 300;
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = 3;
  lab::SweepSummary summary;
  REQUIRE(lab::sweep(s, options, summary).ok());
  CHECK(summary.verdicts.at("incomplete") == 3);
  std::string why;
  CHECK_FALSE(lab::sweep_expectation_met(summary, *lab::parse_expectation("violation"), why));
  CHECK_FALSE(lab::sweep_expectation_met(summary, *lab::parse_expectation("exactly-once"), why));
  CHECK(why.find("step bound") != std::string::npos);
}
