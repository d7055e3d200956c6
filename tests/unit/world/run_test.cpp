// run_scenario's report of scripted rules (src/world/run.cpp): a rule that never fired is
// listed, is an unmet expectation unless optional, and a rule that fired is not listed.

#include <catch2/catch.hpp>

#include <string>

#include "src/orders/order_key.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_load.h"

namespace {

using run_support::run;

sim::FaultRule crash_after_commit() {
  sim::FaultRule r;
  r.site = "consumer.after_commit";
  r.action = sim::FaultAction::kCrash;
  return r;
}

}  // namespace

TEST_CASE("run: a scripted rule that never fires is reported and fails the run",
          "[run][unfired]") {
  lab::Scenario s;
  s.name = "unfired";
  sim::FaultRule late = crash_after_commit();
  late.nth = 99;  // three orders: three commits
  sim::FaultRule fires = crash_after_commit();
  fires.key[orders::kOrder] = 2;
  fires.key[orders::kAttempt] = 1;
  sim::FaultRule never_armed = crash_after_commit();
  never_armed.after_step = 5000;
  never_armed.optional = true;
  s.script = {late, fires, never_armed};
  const lab::RunSummary r = run(s);
  REQUIRE(r.unfired.size() == 2);
  CHECK(r.unfired[0].number == 1);
  CHECK(r.unfired[1].number == 3);
  CHECK(lab::unfired_text(r.unfired[0]) ==
        "scripted fault #1 (consumer.after_commit, nth 99) never fired");
  CHECK(lab::unfired_text(r.unfired[1]) ==
        "scripted fault #3 (consumer.after_commit, after_step 5000) never fired (optional)");
  CHECK(lab::required_unfired(r) == 1);
  const std::vector<std::string> unmet = lab::unmet_expectations(s, r);
  REQUIRE(unmet.size() == 1);
  CHECK(unmet[0] == lab::unfired_text(r.unfired[0]));
}

TEST_CASE("run: timed and step rules count as fired when the world fires them",
          "[run][unfired]") {
  lab::Scenario s;
  s.name = "timed";
  sim::FaultRule restart;
  restart.site = "broker.restart";
  restart.action = sim::FaultAction::kRestart;
  restart.tick = 24;
  sim::FaultRule crash;
  crash.site = "consumer.process";
  crash.action = sim::FaultAction::kCrash;
  crash.step = 3;
  s.script = {restart, crash};
  const lab::RunSummary r = run(s);
  CHECK(r.faults.size() == 2);
  CHECK(r.unfired.empty());
  // A step after the run has ended never comes (a tick would: it keeps the run going).
  s.script[1].step = 100000;
  const lab::RunSummary late = run(s);
  REQUIRE(late.unfired.size() == 1);
  CHECK(late.unfired[0].number == 2);
}

TEST_CASE("run: [expect] states the emails' outcome (effects_duplicated, _lost, _phantom)",
          "[run][expect]") {
  lab::Scenario s = test_support::load_example("31-side-effect-before-commit.toml");
  REQUIRE(s.expect.effects_duplicated == std::vector<std::int64_t>{2});
  const lab::RunSummary r = run(s);
  CHECK(lab::unmet_expectations(s, r).empty());
  s.expect.effects_duplicated = std::vector<std::int64_t>{};
  s.expect.effects_lost = std::vector<std::int64_t>{2};
  const std::vector<std::string> unmet = lab::unmet_expectations(s, r);
  REQUIRE(unmet.size() == 2);
  CHECK(unmet[0] == "effects_duplicated: expected [], got [2]");
  CHECK(unmet[1] == "effects_lost: expected [2], got []");
}
