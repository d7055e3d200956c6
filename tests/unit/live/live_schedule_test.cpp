// A live sweep's fault schedule (live/live_schedule.h): the spec's errors, and a seed that
// draws the same rules every time, on the consumers' links only, within the budget.

#include "src/live/live_schedule.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

namespace {

lab::Scenario three_orders() {
  lab::Scenario s;
  s.workload.orders = 3;
  s.random.budget = 3;
  return s;
}

}  // namespace

TEST_CASE("live schedule: --faults takes kill, drop and freeze ratios", "[live-unit]") {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(live::parse_live_faults("kill=1/3,drop=1/4", ratios).ok());
  CHECK(live::live_faults_text(ratios) == "kill=1/3,drop=1/4");
  for (const char* bad : {"", "crash=1/3", "kill", "kill=2/1", "kill=1/3,kill=1/2"}) {
    INFO(bad);
    const live::Status st = live::parse_live_faults(bad, ratios);
    CHECK_FALSE(st.ok());
    CHECK(st.bad_input);
    CHECK(st.message.rfind("--faults", 0) == 0);
  }
}

TEST_CASE("live schedule: a seed draws the same rules every time", "[live-unit]") {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(live::parse_live_faults("kill=1/2,drop=1/2,freeze=1/4", ratios).ok());
  const lab::Scenario s = three_orders();
  std::size_t drawn = 0;
  bool seeds_differ = false;
  const std::vector<live::ScheduledFault> first = live::draw_schedule(s, ratios, 1);
  bool delayed = false;
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    const std::vector<live::ScheduledFault> rules = live::draw_schedule(s, ratios, seed);
    CHECK(rules == live::draw_schedule(s, ratios, seed));
    CHECK(rules.size() <= 3);  // the scenario's budget
    seeds_differ = seeds_differ || rules != first;
    drawn += rules.size();
    for (const live::ScheduledFault& fault : rules) {
      const sim::FaultRule& rule = fault.rule;
      // Only a kill waits, and only after a delivery.
      if (fault.delay_ms > 0) {
        delayed = true;
        CHECK(rule.action == sim::FaultAction::kCrash);
        CHECK(*rule.frame == "basic.deliver");
        CHECK(fault.delay_ms <= live::kMaxKillDelayMs);
      }
      CHECK((rule.site == "net.broker->consumer" || rule.site == "net.consumer->broker"));
      CHECK(rule.optional);
      REQUIRE(rule.nth);
      CHECK(*rule.nth >= 1);
      CHECK(*rule.nth <= 3);
      CHECK_FALSE(live::schedule_line(fault).empty());
    }
  }
  CHECK(seeds_differ);
  CHECK(delayed);
  CHECK(drawn > 0);
  std::map<std::string, sim::Ratio> never;
  REQUIRE(live::parse_live_faults("kill=0", never).ok());
  CHECK(live::draw_schedule(s, never, 7).empty());
}

TEST_CASE("live schedule: the run folder's text names the seed, the replay and each rule",
          "[live-unit]") {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(live::parse_live_faults("drop=1", ratios).ok());
  const std::vector<live::ScheduledFault> rules = live::draw_schedule(three_orders(), ratios, 4);
  REQUIRE(rules.size() == 3);
  const std::string text = live::schedule_text(4, "drop=1", "eosim live f.toml --seeds 4", rules);
  CHECK(text.find("seed 4") != std::string::npos);
  CHECK(text.find("same faults, timing may differ") != std::string::npos);
  CHECK(text.find("eosim live f.toml --seeds 4") != std::string::npos);
  CHECK(text.find("the 1st ") != std::string::npos);
  CHECK(text.find("nth=3") != std::string::npos);
}

// replay.toml: the schedule as a scenario file that loads back with every drawn rule a
// file can hold - kills at a frame included (they have a model meaning) - and names the
// kills at a delay it leaves out.
TEST_CASE("live schedule: the scenario file holds every fault but a kill at a delay",
          "[live-unit]") {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(live::parse_live_faults("kill=1,drop=1/2", ratios).ok());
  lab::Scenario s = three_orders();
  s.name = "three orders";
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<live::ScheduledFault> faults = live::draw_schedule(s, ratios, seed);
    std::size_t left_out = 99;
    const std::string text = live::schedule_scenario(s, seed, "kill=1,drop=1/2",
                                                     "eosim live replay.toml", faults, left_out);
    INFO(text);
    const eosim::Result<lab::Scenario> loaded = lab::parse_scenario(text, "replay.toml");
    REQUIRE(loaded.ok());
    CHECK(loaded.value().seed == seed);
    std::vector<sim::FaultRule> kept;
    std::size_t delayed = 0;
    for (const live::ScheduledFault& f : faults) {
      if (f.delay_ms > 0) {
        ++delayed;
        CHECK(text.find("# Left out") != std::string::npos);
        CHECK(text.find("#   " + live::schedule_line(f) + ": a delay") != std::string::npos);
      } else {
        kept.push_back(f.rule);
      }
    }
    CHECK(left_out == delayed);
    CHECK(loaded.value().script == kept);
    CHECK(text.find("eosim live replay.toml") != std::string::npos);
  }
}
