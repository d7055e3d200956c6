// Warm worlds (store/warm.h) change nothing a run does: over every scenario file and
// every consumer strategy, 40 seeds each, a warm sweep and a cold one give the same
// summary and digest, and every seed the same trace hash (fewer seeds under the
// sanitizers: tests/support/seed_budget.h).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "src/catalog/catalog.h"
#include "src/scenario/scenario.h"
#include "src/search/sweep.h"
#include "src/store/warm.h"
#include "src/world/world.h"
#include "tests/support/scenario_files.h"
#include "tests/support/scenario_load.h"
#include "tests/support/seed_budget.h"
#include "tests/support/status_support.h"

namespace {

std::vector<std::uint64_t> trace_hashes(const lab::Scenario& s, const lab::SweepOptions& o) {
  std::vector<std::uint64_t> hashes;
  lab::WorldOptions world;
  world.keep_trace = false;
  for (std::uint64_t seed = o.first_seed; seed <= o.last_seed; ++seed) {
    lab::RunSummary run;
    REQUIRE_OK(lab::run_scenario(lab::sweep_scenario(s, o, seed), world, run, nullptr));
    hashes.push_back(run.trace_hash);
  }
  return hashes;
}

}  // namespace

TEST_CASE("warm vs cold: every scenario x strategy x 40 seeds, identical results",
          "[property][warm]") {
  const std::vector<std::string> files = test_support::scenario_files();
  REQUIRE(files.size() >= 10);
  std::uint64_t compared = 0;
  for (const auto& file : files) {
    lab::Scenario base = test_support::loaded(lab::load_scenario(file));
    for (const auto& strategy : lab::strategies()) {
      INFO(file << " with " << strategy.name);
      const lab::Scenario s = test_support::overridden(base, {.strategy = std::string(strategy.name)});
      lab::SweepOptions options;
      options.first_seed = 1;
      options.last_seed = test_support::last_seed(40);  // 10 under the sanitizers
      options.jobs = 1;
      lab::SweepSummary warm, cold;
      REQUIRE(lab::sweep(s, options, warm).ok());
      options.warm = false;
      REQUIRE(lab::sweep(s, options, cold).ok());
      CHECK(warm.same_result(cold));
      CHECK(warm.digest == cold.digest);
      const std::vector<std::uint64_t> cold_hashes = trace_hashes(s, options);
      std::vector<std::uint64_t> warm_hashes;
      {
        store::WarmScope scope;
        warm_hashes = trace_hashes(s, options);
        CHECK(scope.reused() > 0);
      }
      CHECK(warm_hashes == cold_hashes);
      ++compared;
    }
  }
  CHECK(compared == files.size() * lab::strategies().size());
}
