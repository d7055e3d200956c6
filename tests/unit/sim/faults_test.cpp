#include <catch2/catch.hpp>

#include "sim/faults.h"

using sim::FaultAction;
using sim::FaultPlan;
using sim::FaultPoint;
using sim::FaultRule;

namespace {

struct Fixture {
  sim::Chooser chooser{1};
  sim::Scheduler scheduler{chooser};
  FaultPlan plan{chooser, scheduler};
};

// A key of three parts; what they mean is the layer above's business, not the plan's.
sim::Key key(std::int64_t a, std::int64_t b = 0, std::int64_t c = 0) {
  sim::Key k;
  k[0] = a;
  k[1] = b;
  k[2] = c;
  return k;
}

// A point named by text, as the layer above hands the plan its names.
FaultPoint point(FaultPlan& plan, std::string_view site, FaultAction kind, sim::Key k = {},
                 std::string_view frame = "") {
  return {plan.sites().id(site), kind, k, plan.frames().id(frame)};
}

FaultRule crash_at(const char* site) {
  FaultRule r;
  r.site = site;
  r.action = FaultAction::kCrash;
  return r;
}

}  // namespace

TEST_CASE("faults: a scripted rule matches on site and the parts of the key it sets", "[faults]") {
  Fixture f;
  FaultRule rule = crash_at("consumer.after_commit");
  rule.key[0] = 2;
  rule.key[1] = 1;
  f.plan.set_rules({rule});
  CHECK_FALSE(f.plan.check(point(f.plan, "consumer.after_commit", FaultAction::kCrash, key(1, 1))));
  CHECK_FALSE(
      f.plan.check(point(f.plan, "consumer.before_commit", FaultAction::kCrash, key(2, 1))));
  CHECK_FALSE(f.plan.check(point(f.plan, "consumer.after_commit", FaultAction::kCrash, key(2, 2))));
  const auto hit =
      f.plan.check(point(f.plan, "consumer.after_commit", FaultAction::kCrash, key(2, 1)));
  REQUIRE(hit);
  CHECK(*hit == FaultAction::kCrash);
  // times = 1
  CHECK_FALSE(f.plan.check(point(f.plan, "consumer.after_commit", FaultAction::kCrash, key(2, 1))));
  REQUIRE(f.plan.fired().size() == 1);
  CHECK(f.plan.fired()[0].key == key(2, 1));
  CHECK(f.plan.fired()[0].scripted);
}

TEST_CASE("faults: nth counts occurrences of one frame kind at one site", "[faults]") {
  Fixture f;
  FaultRule rule;
  rule.site = "net.consumer->broker";
  rule.action = FaultAction::kDrop;
  rule.frame = "basic.ack";
  rule.nth = 2;
  f.plan.set_rules({rule});
  const FaultPoint ack = point(f.plan, "net.consumer->broker", FaultAction::kDrop, {}, "basic.ack");
  const FaultPoint nack =
      point(f.plan, "net.consumer->broker", FaultAction::kDrop, {}, "basic.nack");
  CHECK_FALSE(f.plan.check(ack));
  CHECK_FALSE(f.plan.check(nack));  // another frame kind does not count
  CHECK(f.plan.check(ack));
  CHECK_FALSE(f.plan.check(ack));
  REQUIRE(f.plan.fired().size() == 1);
  CHECK(f.plan.fired()[0].nth == 2);
  CHECK(f.plan.fired()[0].frame == "basic.ack");
}

TEST_CASE("faults: sites that differ only in their middle are counted apart", "[faults]") {
  // Sites are ids: two names of one length that agree at both ends are two sites (the plan
  // once told them apart by a fingerprint of a few bytes of each text).
  Fixture f;
  FaultRule rule = crash_at("site.aaaaaaaa-one-zzzzzzzz");
  rule.nth = 2;
  f.plan.set_rules({rule});
  const FaultPoint one =
      point(f.plan, "site.aaaaaaaa-one-zzzzzzzz", sim::FaultAction::kCrash, {}, "");
  const FaultPoint two =
      point(f.plan, "site.aaaaaaaa-two-zzzzzzzz", sim::FaultAction::kCrash, {}, "");
  CHECK_FALSE(f.plan.check(two));
  CHECK_FALSE(f.plan.check(two));
  CHECK_FALSE(f.plan.check(one));  // the 1st of its own site, whatever the other's count
  CHECK(f.plan.check(one));
  REQUIRE(f.plan.fired().size() == 1);
  CHECK(f.plan.fired()[0].site == "site.aaaaaaaa-one-zzzzzzzz");
  CHECK(f.plan.fired()[0].nth == 2);
}

TEST_CASE("faults: an instance and a repeat count narrow and widen a rule", "[faults]") {
  Fixture f;
  FaultRule rule = crash_at("consumer.on_deliver");
  rule.key[2] = 2;
  rule.times = 2;
  f.plan.set_rules({rule});
  CHECK_FALSE(
      f.plan.check(point(f.plan, "consumer.on_deliver", FaultAction::kCrash, key(1, 1, 1))));
  CHECK(f.plan.check(point(f.plan, "consumer.on_deliver", FaultAction::kCrash, key(1, 1, 2))));
  CHECK(f.plan.check(point(f.plan, "consumer.on_deliver", FaultAction::kCrash, key(2, 1, 2))));
  CHECK_FALSE(
      f.plan.check(point(f.plan, "consumer.on_deliver", FaultAction::kCrash, key(3, 1, 2))));
}

TEST_CASE("faults: random faults respect ratio, budget and horizon", "[faults]") {
  Fixture f;
  sim::RandomFaultOptions options;
  options.ratios["crash"] = {1, 1};
  options.budget = 3;
  options.horizon = 100;
  f.plan.set_random(options);
  int fired = 0;
  for (int i = 0; i < 10; ++i) {
    fired += f.plan.check(point(f.plan, "consumer.after_ack", FaultAction::kCrash)) ? 1 : 0;
  }
  CHECK(fired == 3);  // the budget caps it
  CHECK(f.plan.random_fired() == 3);
  CHECK_FALSE(f.plan.check(
      point(f.plan, "net.consumer->broker", FaultAction::kDrop)));  // no ratio for drop
  CHECK_FALSE(f.plan.fired()[0].scripted);

  Fixture late;
  late.plan.set_random(options);
  late.scheduler.at(100, "t", [] {});
  late.scheduler.run(1);
  CHECK_FALSE(late.plan.check(
      point(late.plan, "consumer.after_ack", FaultAction::kCrash)));  // past the horizon
}

TEST_CASE("faults: every fault is logged with its step and reported to the hook", "[faults]") {
  Fixture f;
  f.plan.set_rules({crash_at("relay.after_publish")});
  std::vector<std::string> seen;
  f.plan.set_on_fire([&](const sim::FiredFault& ff) { seen.push_back(ff.site); });
  f.scheduler.at(7, "x", [&] {
    f.plan.check(point(f.plan, "relay.after_publish", FaultAction::kCrash, key(1)));
  });
  f.scheduler.run(10);
  REQUIRE(f.plan.fired().size() == 1);
  CHECK(f.plan.fired()[0].step == 1);
  CHECK(f.plan.fired()[0].time == 7);
  CHECK(seen == std::vector<std::string>{"relay.after_publish"});
}

TEST_CASE("faults: a zeroed tape turns every random fault off", "[faults][tape]") {
  sim::Chooser chooser(1, {}, sim::TapeEnd::kZero);
  sim::Scheduler scheduler(chooser);
  FaultPlan plan(chooser, scheduler);
  sim::RandomFaultOptions options;
  options.ratios["drop"] = {1, 2};
  options.budget = 100;
  options.horizon = 1000;
  plan.set_random(options);
  for (int i = 0; i < 50; ++i)
    REQUIRE_FALSE(plan.check(point(plan, "net.a->b", FaultAction::kDrop)));
  CHECK(chooser.tape().size() == 50);  // still decisions: a shrinker could flip each
}

TEST_CASE("faults: timed rules are left for the world to schedule", "[faults]") {
  Fixture f;
  FaultRule restart;
  restart.site = "broker.restart";
  restart.action = FaultAction::kRestart;
  restart.tick = 40;
  f.plan.set_rules({restart});
  CHECK_FALSE(f.plan.check(point(f.plan, "broker.restart", FaultAction::kRestart)));
  REQUIRE(f.plan.timed_rules().size() == 1);
  CHECK(*f.plan.timed_rules()[0].tick == 40);
}

TEST_CASE("faults: a rule added mid-run and a log turned on later are both checked", "[faults]") {
  // A plan with neither rules nor a log answers from the random faults alone; what turns
  // the rules and the log on later must reach check.
  Fixture f;
  const auto crash = [&f] {
    return f.plan.check(point(f.plan, "consumer.after_ack", FaultAction::kCrash));
  };
  std::vector<bool> fired;
  f.scheduler.at(1, "one", [&] { fired.push_back(crash().has_value()); });
  f.scheduler.at(2, "two", [&] {
    FaultRule rule = crash_at("consumer.after_ack");
    rule.after_step = 2;  // armed from step 3 on
    f.plan.add_rule(rule);
    fired.push_back(crash().has_value());
  });
  f.scheduler.at(3, "three", [&] { fired.push_back(crash().has_value()); });
  f.scheduler.run(10);
  CHECK(fired == std::vector<bool>{false, false, true});
  CHECK(f.plan.opportunities().empty());
  f.plan.log_opportunities(true);
  CHECK_FALSE(f.plan.check(point(f.plan, "consumer.after_ack", FaultAction::kCrash)));
  REQUIRE(f.plan.opportunities().size() == 1);
  CHECK(f.plan.opportunities()[0].nth == 4);
}
