#include "src/search/sweep.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "src/world/world.h"
#include "tests/support/status_support.h"

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
  const eosim::Status swept = lab::sweep(s, options, summary);
  INFO(swept.message);
  REQUIRE(swept.ok());
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
  std::uint64_t by_action = 0;
  for (const auto& [action, count] : summary.faults_by_action) by_action += count;
  CHECK(summary.faults_fired > 0);
  CHECK(by_action == summary.faults_fired);
  REQUIRE(summary.failing_runs > 4);  // no-dedup under random faults double-debits often
  REQUIRE(summary.failures.size() == 4);
  std::uint64_t previous = 10;
  for (const auto& f : summary.failures) {
    CHECK(f.seed > previous);
    previous = f.seed;
    // Every failure is exactly what a single run of that seed gives.
    lab::RunSummary one;
    REQUIRE_OK(lab::run_scenario(lab::sweep_scenario(s, options, f.seed), {}, one, nullptr));
    CHECK(one.report.verdict == f.verdict);
    CHECK(one.trace_hash == f.trace_hash);
    CHECK(one.report.duplicated == f.duplicated);
    CHECK(one.faults.size() == f.faults);
  }
  // And no seed before the first listed failure fails.
  for (std::uint64_t seed = 11; seed < summary.failures.front().seed; ++seed) {
    lab::RunSummary one;
    REQUIRE_OK(lab::run_scenario(lab::sweep_scenario(s, options, seed), {}, one, nullptr));
    CHECK(one.report.verdict == lab::Verdict::kExactlyOnce);
  }
}

TEST_CASE("sweep: the fault mix comes from --faults, else the file, else the default",
          "[sweep]") {
  lab::Scenario s = small("atomic");
  lab::SweepOptions options;
  std::map<std::string, sim::Ratio> expected;
  REQUIRE(lab::parse_fault_spec(lab::kDefaultSweepFaults, expected).ok());
  CHECK(lab::sweep_scenario(s, options, 5).random.ratios == expected);
  CHECK(lab::sweep_scenario(s, options, 5).seed == 5);

  REQUIRE(lab::parse_fault_spec("crash=1/7", s.random.ratios).ok());
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
  dirty.failures.back().verdict = lab::Verdict::kLost;
  std::string why;
  CHECK(lab::sweep_expectation_met(clean, *lab::parse_expectation("exactly-once"), why));
  CHECK_FALSE(lab::sweep_expectation_met(dirty, *lab::parse_expectation("exactly-once"), why));
  CHECK(why == "3 of 10 runs were not exactly-once (first: seed 4, lost)");
  CHECK_FALSE(lab::sweep_expectation_met(clean, *lab::parse_expectation("violation"), why));
  CHECK(lab::sweep_expectation_met(dirty, *lab::parse_expectation("violation"), why));
  CHECK(lab::sweep_expectation_met(dirty, *lab::parse_expectation("lost"), why));
  CHECK_FALSE(lab::sweep_expectation_met(dirty, *lab::parse_expectation("duplicated"), why));
  CHECK(why == "no run ended duplicated");
  CHECK(lab::valid_sweep_expectation("violation"));
  CHECK(lab::valid_sweep_expectation("stuck"));
  CHECK_FALSE(lab::valid_sweep_expectation("exactly_once"));
}

TEST_CASE("sweep: shard_range cuts a range into adjacent slices that cover it", "[sweep]") {
  for (const std::uint64_t seeds : {1u, 2u, 7u, 10u, 100u}) {
    for (std::uint64_t count = 1; count <= seeds && count <= 12; ++count) {
      std::uint64_t next = 5;  // ranges start at seed 5
      for (std::uint64_t index = 0; index < count; ++index) {
        std::uint64_t first = 0, last = 0;
        REQUIRE(lab::shard_range(5, 5 + seeds - 1, index, count, first, last));
        CHECK(first == next);
        CHECK(last >= first);
        CHECK(last - first + 1 >= seeds / count);      // sizes differ by at most one
        CHECK(last - first + 1 <= seeds / count + 1);
        next = last + 1;
      }
      CHECK(next == 5 + seeds);
    }
  }
  std::uint64_t first = 0, last = 0;
  CHECK_FALSE(lab::shard_range(1, 3, 0, 4, first, last));  // 3 seeds, 4 shards
  CHECK_FALSE(lab::shard_range(1, 9, 3, 3, first, last));  // index out of range
  CHECK_FALSE(lab::shard_range(1, 9, 0, 0, first, last));
  // All 2^64 seeds: no overflow, the last slice ends at the last seed.
  REQUIRE(lab::shard_range(0, UINT64_MAX, 2, 3, first, last));
  CHECK(last == UINT64_MAX);
}

TEST_CASE("sweep: merging the sweeps of slices gives the sweep of the whole range",
          "[sweep]") {
  const lab::Scenario s = small("no-dedup");
  lab::SweepOptions options;
  options.first_seed = 3;
  options.last_seed = 52;
  options.keep_failures = 6;
  const lab::SweepSummary whole = run_sweep(s, options);
  REQUIRE(whole.failing_runs > 6);
  std::vector<lab::SweepSummary> parts;
  for (std::uint64_t index = 0; index < 4; ++index) {
    lab::SweepOptions slice = options;
    REQUIRE(lab::shard_range(3, 52, index, 4, slice.first_seed, slice.last_seed));
    parts.push_back(run_sweep(s, slice));
  }
  std::reverse(parts.begin(), parts.end());  // any order
  lab::SweepSummary merged;
  REQUIRE(lab::merge_sweeps(parts, 6, merged).ok());
  CHECK(merged.same_result(whole));
  CHECK(merged.digest == whole.digest);

  // A gap is refused, and so is a part that lists too few failures.
  std::vector<lab::SweepSummary> gap = {parts[0], parts[2]};
  const eosim::Status gapped = lab::merge_sweeps(gap, 6, merged);
  CHECK_FALSE(gapped.ok());
  CHECK(gapped.message.find("not adjacent") != std::string::npos);
  const eosim::Status too_few = lab::merge_sweeps(parts, 7, merged);
  CHECK_FALSE(too_few.ok());
  CHECK(too_few.message.find("fewer than the 7 to show") != std::string::npos);
}
