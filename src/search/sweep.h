#pragma once
// Property sweeps: one scenario, run once per seed of a range, with random faults drawn
// from each seed, on several worker threads.
//
// Every seed gets a World of its own (own kernel, own in-memory databases), so workers
// share nothing but the read-only Scenario. Results are collected per seed and reduced in
// seed order, which is what makes the summary independent of the thread count.
//
// Invariants:
//  (1) Everything in SweepSummary except `seconds` is a function of (scenario, options
//      minus jobs and progress): any `jobs` gives the same counts, failures and digest.
//  (2) `failures` holds the first `keep_failures` failing seeds in ascending seed order;
//      a failing run is one whose verdict is not "exactly-once".
//  (3) `digest` adds up a mix of (seed, trace hash) over every run, so two sweeps with
//      equal digests ran byte-identical traces (up to a 64-bit collision); a sum, so the
//      digests of disjoint slices of a seed range add up to the digest of the whole.
// REQUIRES: first_seed <= last_seed.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/rng.h"
#include "src/checker/violations.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"

namespace lab {

// The fault mix a sweep uses when neither the scenario's [faults.random] nor --faults
// gives one: a sweep without faults would run the same story for every seed.
extern const char* const kDefaultSweepFaults;

struct SweepOptions {
  std::uint64_t first_seed = 1;
  std::uint64_t last_seed = 100;  // inclusive
  // Replaces the scenario's [faults.random] ratios (budget and horizon stay).
  std::optional<std::map<std::string, sim::Ratio>> ratios;
  unsigned jobs = 0;                // worker threads; 0 = every hardware thread
  std::size_t keep_failures = 10;   // how many failing seeds to describe
  // Workers keep their SQLite connections across runs (store/warm.h). Results are the
  // same either way; off only to check exactly that.
  bool warm = true;
  // Called on the calling thread after each block of seeds: (runs done, runs in total).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
};

// A run that was not exactly-once: its Violations, and what finds it again.
struct SweepFailure : Violations {
  std::uint64_t seed = 0;
  std::int64_t balance_expected = 0;
  std::int64_t balance_actual = 0;
  std::size_t faults = 0;  // faults fired in that run
  std::uint64_t steps = 0;
  std::uint64_t trace_hash = 0;
  friend bool operator==(const SweepFailure&, const SweepFailure&) = default;
};

struct SweepSummary {
  std::string scenario;  // its name
  std::uint64_t first_seed = 0;
  std::uint64_t last_seed = 0;
  std::map<std::string, sim::Ratio> ratios;  // the fault mix actually used
  std::int64_t budget = 0;
  std::int64_t horizon = 0;
  std::uint64_t runs = 0;
  std::map<std::string, std::uint64_t> verdicts;  // every verdict of the catalog, even at 0
  std::uint64_t failing_runs = 0;
  std::vector<SweepFailure> failures;
  std::uint64_t steps = 0;         // scheduler steps over all runs
  std::uint64_t faults_fired = 0;  // over all runs
  std::map<std::string, std::uint64_t> faults_by_action;  // "crash" -> how often, ...
  std::uint64_t step_bound_hits = 0;
  // Runs in which a scripted rule (not `optional`) never fired, and the first of them:
  // as with `eosim run`, such a run did not test what the file says it tests.
  std::uint64_t unfired_runs = 0;
  std::uint64_t first_unfired_seed = 0;
  std::string first_unfired;  // unfired_text of that run's first such rule
  std::uint64_t digest = 0;
  // Wall-clock time, filled in by the caller that measured it (the CLI, the benchmark):
  // src/search reads no clock. The one field that varies between equal sweeps.
  double seconds = 0;
  unsigned jobs = 0;   // threads used (not part of the result either)

  double runs_per_second() const;
  double steps_per_second() const;
  // Equal in every field that (1) promises is independent of jobs and timing.
  bool same_result(const SweepSummary& other) const;
};

// The scenario a sweep runs for `seed`: the given one with that seed and, when the
// options carry ratios, those ratios (or kDefaultSweepFaults when it has none at all).
Scenario sweep_scenario(const Scenario& scenario, const SweepOptions& options,
                        std::uint64_t seed);

// Runs the sweep. An error only when a world could not be built, which is an internal
// error rather than a finding.
eosim::Status sweep(const Scenario& scenario, const SweepOptions& options, SweepSummary& out);

// The `index`-th (0-based) of `count` contiguous, disjoint slices of [first, last] that
// together cover it; sizes differ by at most one. False when count is 0, index >= count,
// or the range has fewer seeds than count (a slice would be empty).
bool shard_range(std::uint64_t first, std::uint64_t last, std::uint64_t index,
                 std::uint64_t count, std::uint64_t& slice_first, std::uint64_t& slice_last);

// Combines sweeps of adjacent seed ranges of one scenario (same fault mix, budget and
// horizon) into the summary one sweep over the whole range gives, keeping the first
// `keep_failures` failures. Each part must list its first min(keep_failures, its failing
// runs) failures. `seconds` and `jobs` are the parts' sums (machine time, not wall time).
// An error saying why when the parts do not fit together.
eosim::Status merge_sweeps(std::vector<SweepSummary> parts, std::size_t keep_failures,
                           SweepSummary& out);

// "drop=1/20,crash=1/30": the inverse of parse_fault_spec ("" for no ratios).
std::string fault_spec_text(const std::map<std::string, sim::Ratio>& ratios);

// What `--expect V` demands of a sweep (`eosim sweep --help`): "exactly-once" = every run has it;
// "violation" = at least one run does not; any other verdict = at least one run has it.
// Returns whether it holds, with a one-line explanation in `why`. A sweep with unfired
// runs (SweepSummary::unfired_runs) meets no expectation.
bool sweep_expectation_met(const SweepSummary& summary, const Expectation& expect,
                           std::string& why);
// Whether `expect` is a value sweep_expectation_met understands (parse_expectation).
bool valid_sweep_expectation(const std::string& expect);

}  // namespace lab
