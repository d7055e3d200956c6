#include "src/search/shrink.h"
#include "src/orders/order_key.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

#include <catch2/catch.hpp>

namespace {

sim::FaultRule rule(const std::string& site, sim::FaultAction action) {
  sim::FaultRule r;
  r.site = site;
  r.action = action;
  return r;
}

sim::FiredFault fired(const std::string& site, sim::FaultAction action, std::int64_t order,
                      std::int64_t attempt, const std::string& frame, std::int64_t nth,
                      std::int64_t instance) {
  sim::FiredFault f;
  f.site = site;
  f.action = action;
  f.key[orders::kOrder] = order;
  f.key[orders::kAttempt] = attempt;
  f.frame = frame;
  f.nth = nth;
  f.key[orders::kInstance] = instance;
  f.time = 42;
  return f;
}

// scenario 03's story (no dedup, crash between commit and ack) plus two faults that do
// not matter to it.
lab::Scenario crash_and_noise() {
  lab::Scenario s;
  s.name = "crash and noise";
  s.seed = 3;
  s.consumer.strategy = "no-dedup";
  sim::FaultRule crash = rule("consumer.after_commit", sim::FaultAction::kCrash);
  crash.key[orders::kOrder] = 2;
  crash.key[orders::kAttempt] = 1;
  sim::FaultRule reorder = rule("broker.reorder", sim::FaultAction::kReorder);
  reorder.key[orders::kOrder] = 3;
  sim::FaultRule qos = rule("net.consumer->broker", sim::FaultAction::kDrop);
  qos.frame = "basic.qos";
  qos.nth = 1;
  s.script = {reorder, crash, qos};
  return s;
}

}  // namespace

TEST_CASE("shrink: rule_from_fired names each fault by what identifies its moment", "[shrink]") {
  // A delivery is named by order and attempt; nth only when asked for.
  const auto consumer = fired("consumer.after_commit", sim::FaultAction::kCrash, 2, 1, "", 5, 1);
  sim::FaultRule r = lab::rule_from_fired(consumer, false, 1);
  CHECK(r.site == "consumer.after_commit");
  CHECK(r.key[orders::kOrder] == 2);
  CHECK(r.key[orders::kAttempt] == 1);
  CHECK_FALSE(r.nth);
  CHECK_FALSE(r.key[orders::kInstance]);  // one consumer: the instance says nothing
  CHECK(lab::rule_from_fired(consumer, true, 1).nth == 5);
  CHECK(lab::rule_from_fired(consumer, false, 3).key[orders::kInstance] == 1);
  // A publish has no delivery attempt: its occurrence pins it.
  const auto publish =
      fired("net.relay->broker", sim::FaultAction::kDrop, 3, 0, "basic.publish", 4, 0);
  r = lab::rule_from_fired(publish, false, 1);
  CHECK(r.frame == "basic.publish");
  CHECK(r.key[orders::kOrder] == 3);
  CHECK(r.nth == 4);
  // A timed fault (logged with neither order nor frame) keeps its moment as a tick.
  r = lab::rule_from_fired(fired("broker.restart", sim::FaultAction::kRestart, 0, 0, "", 1, 0),
                           false, 1);
  CHECK(r.tick == 42);
  CHECK_FALSE(r.nth);
  CHECK(lab::story_line(r) == "broker.restart: restart (at tick 42)");
  CHECK(lab::story_line(lab::rule_from_fired(consumer, false, 1)) ==
        "consumer.after_commit: crash (order 2, delivery attempt 1)");
}

TEST_CASE("shrink: keeps only the fault the violation needs", "[shrink]") {
  const lab::Scenario s = crash_and_noise();
  lab::ShrinkResult r;
  const eosim::Result<lab::ShrinkStatus> status = lab::shrink(s, {}, r);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(status.value() == lab::ShrinkStatus::kShrunk);
  CHECK(r.original.report.verdict == lab::Verdict::kDuplicated);
  CHECK(r.candidates.size() == 3);
  REQUIRE(r.minimal.size() == 1);
  CHECK(r.minimal[0].site == "consumer.after_commit");
  CHECK(r.minimal[0].key[orders::kOrder] == 2);
  CHECK(r.seed == 3);
  CHECK(r.reproduced.report.duplicated == std::vector<std::int64_t>{2});
  CHECK(r.minimal_scenario.script == r.minimal);
  CHECK(r.minimal_scenario.expect.verdict == lab::Verdict::kDuplicated);
  CHECK(r.minimal_scenario.expect.duplicated == std::vector<std::int64_t>{2});
  CHECK(r.minimal_scenario.about.find("consumer.after_commit: crash (order 2") !=
        std::string::npos);
  CHECK(r.runs < 20);
  // The TOML is the scenario, and running it meets its own [expect].
  lab::Scenario parsed = test_support::loaded(lab::parse_scenario(r.toml, "shrunk"));
  parsed.path.clear();  // where it was read from: not part of its content
  CHECK(parsed == r.minimal_scenario);
  lab::RunSummary replay;
  REQUIRE_OK(lab::run_scenario(parsed, {}, replay, nullptr));
  CHECK(lab::unmet_expectations(parsed, replay).empty());
  CHECK(replay.trace_hash == r.reproduced.trace_hash);
}

TEST_CASE("shrink: an exactly-once run has nothing to shrink", "[shrink]") {
  lab::Scenario s = crash_and_noise();
  s.consumer.strategy = "atomic";  // the same faults, the right design
  lab::ShrinkResult r;
  const eosim::Result<lab::ShrinkStatus> status = lab::shrink(s, {}, r);
  REQUIRE(status.ok());  // a finding, not an error
  CHECK(status.value() == lab::ShrinkStatus::kNoViolation);
  CHECK(r.why.find("exactly-once") != std::string::npos);
}

TEST_CASE("shrink: a violation without faults shrinks to none", "[shrink]") {
  lab::Scenario s;
  s.name = "poison";
  s.consumer.strategy = "requeue-poison";
  s.workload.amounts = {150, 5000, 150};
  s.max_steps = 400;
  s.script = {rule("broker.reorder", sim::FaultAction::kReorder)};
  s.script[0].key[orders::kOrder] = 1;
  lab::ShrinkResult r;
  const eosim::Result<lab::ShrinkStatus> status = lab::shrink(s, {}, r);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(status.value() == lab::ShrinkStatus::kShrunk);
  CHECK(r.original.report.verdict == lab::Verdict::kStuck);
  CHECK(r.minimal.empty());
  CHECK(r.minimal_scenario.expect.stuck == std::vector<std::int64_t>{2});
}
