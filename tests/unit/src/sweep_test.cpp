#include "src/lab/sweep.h"

#include <catch2/catch.hpp>

#include "src/lab/world.h"

namespace {

lab::Scenario small(const std::string& strategy, std::int64_t orders = 3) {
  lab::Scenario s;
  s.name = "sweep test";
  s.workload.orders = orders;
  s.consumer.strategy = strategy;
  return s;
}

lab::SweepSummary run_sweep(const lab::Scenario& s, lab::SweepOptions options) {
  lab::SweepSummary summary;
  std::string error;
  INFO(error);
  REQUIRE(lab::sweep(s, options, summary, error));
  return summary;
}

}  // namespace

TEST_CASE("sweep: counts add up and failures are the first failing seeds, re-runnable",
          "[sweep]") {
  lab::SweepOptions options;
  options.first_seed = 11;
  options.last_seed = 70;
  options.keep_failures = 4;
  const lab::Scenario s = small("no-dedup");
  const lab::SweepSummary summary = run_sweep(s, options);
  CHECK(summary.runs == 60);
  std::uint64_t total = 0;
  for (const auto& [verdict, count] : summary.verdicts) total += count;
  CHECK(total == 60);
  CHECK(summary.runs - summary.verdicts.at("exactly-once") == summary.failing_runs);
  REQUIRE(summary.failing_runs > 4);  // no-dedup under random faults double-debits often
  REQUIRE(summary.failures.size() == 4);
  std::uint64_t previous = 10;
  for (const auto& f : summary.failures) {
    CHECK(f.seed > previous);
    previous = f.seed;
    // Every failure is exactly what a single run of that seed gives.
    lab::RunSummary one;
    std::string error;
    REQUIRE(lab::run_scenario(lab::sweep_scenario(s, options, f.seed), {}, one, nullptr, error));
    CHECK(one.report.verdict == f.verdict);
    CHECK(one.trace_hash == f.trace_hash);
    CHECK(one.report.duplicated == f.duplicated);
    CHECK(one.faults.size() == f.faults);
  }
  // And no seed before the first listed failure fails.
  for (std::uint64_t seed = 11; seed < summary.failures.front().seed; ++seed) {
    lab::RunSummary one;
    std::string error;
    REQUIRE(lab::run_scenario(lab::sweep_scenario(s, options, seed), {}, one, nullptr, error));
    CHECK(one.report.verdict == "exactly-once");
  }
}

TEST_CASE("sweep: the fault mix comes from --faults, else the file, else the default",
          "[sweep]") {
  lab::Scenario s = small("atomic");
  lab::SweepOptions options;
  std::map<std::string, sim::Ratio> expected;
  std::string error;
  REQUIRE(lab::parse_fault_spec(lab::kDefaultSweepFaults, expected, error));
  CHECK(lab::sweep_scenario(s, options, 5).random.ratios == expected);
  CHECK(lab::sweep_scenario(s, options, 5).seed == 5);

  REQUIRE(lab::parse_fault_spec("crash=1/7", s.random.ratios, error));
  CHECK(lab::sweep_scenario(s, options, 5).random.ratios == s.random.ratios);

  options.ratios = std::map<std::string, sim::Ratio>{{"drop", sim::Ratio{1, 3}}};
  CHECK(lab::sweep_scenario(s, options, 5).random.ratios == *options.ratios);
  s.random.budget = 9;
  CHECK(lab::sweep_scenario(s, options, 5).random.budget == 9);  // budget stays the file's
}

TEST_CASE("sweep: zero ratios give fault-free runs, all exactly-once", "[sweep]") {
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = 20;
  options.ratios = std::map<std::string, sim::Ratio>{{"drop", sim::Ratio{0, 1}}};
  const lab::SweepSummary summary = run_sweep(small("no-dedup"), options);
  CHECK(summary.faults_fired == 0);
  CHECK(summary.faults_by_action.empty());
  CHECK(summary.verdicts.at("exactly-once") == 20);
  CHECK(summary.failures.empty());
}

TEST_CASE("sweep: progress is reported per block and ends at the total", "[sweep]") {
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = 600;
  options.jobs = 2;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    calls.emplace_back(done, total);
  };
  const lab::SweepSummary summary = run_sweep(small("atomic", 1), options);
  REQUIRE(calls.size() >= 2);
  for (std::size_t i = 1; i < calls.size(); ++i) CHECK(calls[i].first > calls[i - 1].first);
  CHECK(calls.back() == std::make_pair(std::uint64_t{600}, std::uint64_t{600}));
  CHECK(summary.runs == 600);
}

TEST_CASE("sweep: --expect exactly-once, violation and a named verdict", "[sweep]") {
  lab::SweepSummary clean;
  clean.runs = 10;
  clean.verdicts = {{"exactly-once", 10}, {"lost", 0}, {"duplicated", 0}};
  lab::SweepSummary dirty = clean;
  dirty.verdicts = {{"exactly-once", 7}, {"lost", 3}, {"duplicated", 0}};
  dirty.failing_runs = 3;
  dirty.failures.push_back({});
  dirty.failures.back().seed = 4;
  dirty.failures.back().verdict = "lost";
  std::string why;
  CHECK(lab::sweep_expectation_met(clean, "exactly-once", why));
  CHECK_FALSE(lab::sweep_expectation_met(dirty, "exactly-once", why));
  CHECK(why == "3 of 10 runs were not exactly-once (first: seed 4, lost)");
  CHECK_FALSE(lab::sweep_expectation_met(clean, "violation", why));
  CHECK(lab::sweep_expectation_met(dirty, "violation", why));
  CHECK(lab::sweep_expectation_met(dirty, "lost", why));
  CHECK_FALSE(lab::sweep_expectation_met(dirty, "duplicated", why));
  CHECK(why == "no run ended duplicated");
  CHECK(lab::valid_sweep_expectation("violation"));
  CHECK(lab::valid_sweep_expectation("stuck"));
  CHECK_FALSE(lab::valid_sweep_expectation("exactly_once"));
}
