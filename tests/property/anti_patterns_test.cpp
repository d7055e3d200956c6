// Every anti-pattern of the article is found by a random sweep within a bounded number of
// seeds, with a violation of the kind it teaches, and shrinking turns the first such run
// into a scenario of at most two faults that `eosim run` reproduces.
#include "tests/property/property_support.h"

#include "src/lab/shrink.h"
#include "src/lab/world.h"

namespace {

struct AntiPattern {
  const char* strategy;
  const char* producer;
  const char* verdict;  // the violation it teaches
};

lab::Scenario scenario_for(const AntiPattern& p) {
  lab::Scenario s = property::workload(3, p.strategy, p.producer);
  if (std::string(p.strategy) == "check-then-act") {
    // The race needs competing consumers that take their time (scenario 16).
    s.consumer.instances = 2;
    s.consumer.work_ticks = 10;
  }
  if (std::string(p.strategy) == "requeue-poison") {
    s.workload.amounts = {150, 5000, 150};  // order 2 can never be paid: a poison message
    s.max_steps = 600;  // it loops until the step bound; a short bound keeps the test quick
  }
  return s;
}

}  // namespace

TEST_CASE("anti-patterns: a sweep finds the violation and shrink keeps at most two faults",
          "[property]") {
  const AntiPattern patterns[] = {
      {"auto-ack", "outbox", "lost"},
      {"ack-before-commit", "outbox", "lost"},
      {"no-dedup", "outbox", "duplicated"},
      {"separate-dedup-store", "outbox", "lost"},
      {"check-then-act", "outbox", "duplicated"},
      {"naive-errors", "outbox", "lost"},
      {"requeue-poison", "outbox", "stuck"},
      {"atomic", "dual-write", "lost"},
      {"atomic", "publish-then-commit", "phantom"},
      {"atomic", "outbox-no-confirm", "lost"},
  };
  constexpr std::uint64_t kSeeds = 500;  // the bound the issue sets
  for (const auto& p : patterns) {
    SECTION(std::string(p.strategy) + " / " + p.producer) {
      const lab::Scenario s = scenario_for(p);
      const lab::SweepSummary summary = property::sweep(s, 1, kSeeds, 0, 50);
      REQUIRE(summary.verdicts.at(p.verdict) > 0);
      // The first failing seed with the right kind of violation, shrunk.
      std::uint64_t seed = 0;
      for (const auto& f : summary.failures) {
        if (f.verdict == p.verdict && seed == 0) seed = f.seed;
      }
      REQUIRE(seed != 0);
      lab::SweepOptions options;
      lab::ShrinkResult shrunk;
      std::string error;
      INFO("seed " << seed << " " << error);
      REQUIRE(lab::shrink(lab::sweep_scenario(s, options, seed), {}, shrunk, error) ==
              lab::ShrinkStatus::kShrunk);
      CHECK(shrunk.minimal.size() <= 2);
      CHECK(shrunk.minimal.size() <= shrunk.candidates.size());
      CHECK(shrunk.reproduced.report.verdict == p.verdict);
      // The written file alone reproduces it.
      lab::Scenario parsed;
      lab::LoadError load_error;
      REQUIRE(lab::parse_scenario(shrunk.toml, "shrunk.toml", parsed, load_error));
      CHECK(parsed.random.ratios.empty());
      CHECK(parsed.script.size() == shrunk.minimal.size());
      lab::RunSummary replay;
      REQUIRE(lab::run_scenario(parsed, {}, replay, nullptr, error));
      CHECK(replay.report.verdict == p.verdict);
      CHECK(lab::unmet_expectations(parsed, replay).empty());
    }
  }
}
