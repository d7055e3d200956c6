// Every anti-pattern is found by a random sweep within a bounded number of
// seeds, with a violation of the kind it teaches, and shrinking turns the first such run
// into a scenario of at most two faults that `eosim run` reproduces.
#include "tests/property/property_support.h"

#include <set>

#include "src/catalog/catalog.h"
#include "src/scenario/patterns.h"
#include "src/search/shrink.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

TEST_CASE("anti-patterns: the list covers every strategy and producer but the right ones",
          "[property]") {
  std::set<std::string> strategies, producers;
  for (const auto& p : lab::anti_patterns()) {
    const std::string strategy(sim::name_of(p.strategy));
    CHECK(lab::find_strategy(strategy) != nullptr);
    CHECK(lab::find_producer(p.producer) != nullptr);
    CHECK(lab::find_verdict(lab::verdict_name(p.verdict)) != nullptr);
    CHECK(p.verdict != lab::Verdict::kExactlyOnce);
    const lab::Scenario s = lab::anti_pattern_scenario(p);
    CHECK(s.script.empty());
    CHECK(s.random.ratios.empty());
    if (p.producer == "outbox") strategies.insert(strategy);
    if (p.strategy == consumer::PresetId::kAtomic) producers.insert(p.producer);
  }
  for (const auto& s : lab::strategies()) {
    CHECK((strategies.count(std::string(s.name)) == 1) == (s.name != "atomic"));
  }
  for (const auto& p : lab::producers()) {
    CHECK((producers.count(std::string(p.name)) == 1) == (p.name != "outbox"));
  }
}

TEST_CASE("anti-patterns: a sweep finds the violation and shrink keeps at most two faults",
          "[property]") {
  constexpr std::uint64_t kSeeds = 500;  // the bound the issue sets
  for (const auto& p : lab::anti_patterns()) {
    SECTION(std::string(sim::name_of(p.strategy)) + " / " + p.producer) {
      const lab::Scenario s = lab::anti_pattern_scenario(p);
      const lab::SweepSummary summary = property::sweep(s, 1, kSeeds, 0, 50);
      REQUIRE(summary.verdicts.at(std::string(lab::verdict_name(p.verdict))) > 0);
      // The first failing seed with the right kind of violation, shrunk.
      std::uint64_t seed = 0;
      for (const auto& f : summary.failures) {
        if (f.verdict == p.verdict && seed == 0) seed = f.seed;
      }
      REQUIRE(seed != 0);
      lab::SweepOptions options;
      lab::ShrinkResult shrunk;
      const eosim::Result<lab::ShrinkStatus> status =
          lab::shrink(lab::sweep_scenario(s, options, seed), {}, shrunk);
      INFO("seed " << seed << " " << (status.ok() ? shrunk.why : status.message()));
      REQUIRE(status.ok());
      REQUIRE(status.value() == lab::ShrinkStatus::kShrunk);
      CHECK(shrunk.minimal.size() <= 2);
      CHECK(shrunk.minimal.size() <= shrunk.candidates.size());
      CHECK(shrunk.reproduced.report.verdict == p.verdict);
      // The written file alone reproduces it.
      lab::Scenario parsed = test_support::loaded(lab::parse_scenario(shrunk.toml, "shrunk.toml"));
      CHECK(parsed.random.ratios.empty());
      CHECK(parsed.script.size() == shrunk.minimal.size());
      lab::RunSummary replay;
      REQUIRE_OK(lab::run_scenario(parsed, {}, replay, nullptr));
      CHECK(replay.report.verdict == p.verdict);
      CHECK(lab::unmet_expectations(parsed, replay).empty());
    }
  }
}
