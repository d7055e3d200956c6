// Every teaching scenario in scenarios/ meets its [expect] block for every seed in 1..200,
// unless it declares `seed_sensitive = true` and says why in its `about` text: `--seed` is
// an invitation, and a lesson that holds only for the file's own seed teaches by accident.
// New scenario files are picked up here without any change to this test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "src/world/world.h"
#include "tests/support/scenario_files.h"
#include "tests/support/scenario_load.h"
#include "tests/support/seed_budget.h"
#include "tests/support/status_support.h"

namespace fs = std::filesystem;

namespace {

// 1..200; 1..50 under the sanitizers (tests/support/seed_budget.h).
constexpr std::uint64_t kAllSeeds = 200;

using test_support::scenario_files;

// The seeds (of 1..kAllSeeds) whose run misses the expectations, with the first miss.
std::vector<std::uint64_t> failing_seeds(const lab::Scenario& scenario, std::string& first) {
  std::vector<std::uint64_t> failing;
  lab::WorldOptions options;
  options.keep_trace = false;
  for (std::uint64_t seed = 1; seed <= test_support::last_seed(kAllSeeds); ++seed) {
    lab::Scenario s = scenario;
    s.seed = seed;
    lab::RunSummary run;
    REQUIRE_OK(lab::run_scenario(s, options, run, nullptr));
    const std::vector<std::string> unmet = lab::unmet_expectations(s, run);
    if (unmet.empty()) continue;
    if (failing.empty()) first = "seed " + std::to_string(seed) + ": " + unmet.front();
    failing.push_back(seed);
  }
  return failing;
}

}  // namespace

TEST_CASE("scenarios: every file meets its expectations for seeds 1..200, or says why not",
          "[scenarios][seeds]") {
  const auto files = scenario_files();
  REQUIRE(files.size() >= 19);
  for (const auto& path : files) {
    INFO(path);
    const lab::Scenario scenario = test_support::load_scenario_file(path);
    if (scenario.seed_sensitive) {
      // The reason is for people: the about text must be there to say it.
      CHECK(scenario.about.find("seed") != std::string::npos);
      continue;
    }
    std::string first;
    const std::vector<std::uint64_t> failing = failing_seeds(scenario, first);
    INFO(failing.size() << " of " << test_support::last_seed(kAllSeeds)
                        << " seeds miss the expectations; " << first);
    CHECK(failing.empty());
  }
}
