#include "src/search/sweep.h"

#include <algorithm>
#include <array>
#include <thread>
#include <utility>

#include "sim/assert.h"
#include "src/catalog/catalog.h"
#include "src/search/parallel.h"
#include "src/world/world.h"

namespace lab {

const char* const kDefaultSweepFaults = "drop=1/20,crash=1/20,fail=1/20,reorder=1/10,restart=1/100";

namespace {

// Seeds are handed out in blocks: workers claim seeds of the block one by one, then the
// calling thread reduces the block in seed order. A block bounds memory for huge ranges.
constexpr std::uint64_t kBlockSeeds = 512;

struct SeedResult {
  bool built = false;
  eosim::Status error;  // when the world could not be built or the machine failed the run
  RunSummary run;       // only the report, counters and hash are kept (see trim)
};

// Drops what the reduction never reads, so a block of results stays small.
void trim(RunSummary& run) {
  run.tape.clear();
  run.tape.shrink_to_fit();
  run.report.orders.clear();
  run.report.orders.shrink_to_fit();
}

// splitmix64's finaliser: every input bit moves about half of the output bits.
std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// One run's share of the digest (invariant 3): summed, so slices of a range add up.
std::uint64_t digest_term(std::uint64_t seed, std::uint64_t trace_hash) {
  return mix(trace_hash ^ mix(seed + 0x9e3779b97f4a7c15ULL));
}

eosim::Status run_block(const Scenario& scenario, const SweepOptions& options, std::uint64_t first,
                        std::vector<SeedResult>& results, unsigned workers) {
  // The fault ratios are parsed once per block (a scenario without [faults.random] takes
  // the default spec); each run hands the result and its seed to its worker's world, which
  // copies it into the storage of its own (no Scenario is built or destroyed per run).
  const Scenario base = sweep_scenario(scenario, options, first);
  // Each worker keeps one world and resets it in place for its next seed.
  const auto run_seed = [&](ReusedWorld& reused, std::size_t i) {
    SeedResult& r = results[i];
    WorldOptions world;
    world.keep_trace = false;
    world.record_tape = false;
    const eosim::Status ran = reused.run(base, first + i, world, r.run);
    r.built = ran.ok();
    r.error = ran;
    trim(r.run);
  };
  return parallel_for_each_worker<ReusedWorld>(results.size(), workers, options.warm, run_seed);
}

// The runs of each verdict and the faults of each action, counted by enum value while the
// sweep runs and added to SweepSummary's maps by name once at its end (add_to): a run then
// builds no name and searches no map.
struct Tally {
  std::array<std::uint64_t, 256> verdicts{};  // by the Verdict's value
  std::array<std::uint64_t, 256> actions{};   // by the FaultAction's value

  void add_to(SweepSummary& out) const {
    for (std::size_t i = 0; i < verdicts.size(); ++i) {
      if (verdicts[i] == 0) continue;
      out.verdicts[std::string(verdict_name(static_cast<Verdict>(i)))] += verdicts[i];
    }
    for (std::size_t i = 0; i < actions.size(); ++i) {
      if (actions[i] == 0) continue;
      out.faults_by_action[std::string(sim::fault_action_name(static_cast<sim::FaultAction>(i)))] +=
          actions[i];
    }
  }
};

void reduce(const SeedResult& r, std::uint64_t seed, std::size_t keep, Tally& tally,
            SweepSummary& out) {
  const Report& report = r.run.report;
  ++out.runs;
  ++tally.verdicts[static_cast<std::size_t>(report.verdict)];
  out.steps += r.run.steps;
  out.faults_fired += r.run.faults.size();
  for (const auto& f : r.run.faults) ++tally.actions[static_cast<std::size_t>(f.action)];
  out.step_bound_hits += r.run.step_bound_hit ? 1 : 0;
  out.digest += digest_term(seed, r.run.trace_hash);
  if (required_unfired(r.run) > 0) {
    if (out.unfired_runs++ == 0) {
      out.first_unfired_seed = seed;
      for (const UnfiredRule& u : r.run.unfired) {
        if (!u.rule.optional && out.first_unfired.empty()) out.first_unfired = unfired_text(u);
      }
    }
  }
  if (report.verdict == lab::Verdict::kExactlyOnce) return;
  ++out.failing_runs;
  if (out.failures.size() >= keep) return;
  SweepFailure f;
  static_cast<Violations&>(f) = report;
  f.seed = seed;
  f.balance_expected = report.balance_expected;
  f.balance_actual = report.balance_actual;
  f.faults = r.run.faults.size();
  f.steps = r.run.steps;
  f.trace_hash = r.run.trace_hash;
  out.failures.push_back(std::move(f));
}

}  // namespace

double SweepSummary::runs_per_second() const {
  return seconds > 0 ? static_cast<double>(runs) / seconds : 0.0;
}

double SweepSummary::steps_per_second() const {
  return seconds > 0 ? static_cast<double>(steps) / seconds : 0.0;
}

bool SweepSummary::same_result(const SweepSummary& o) const {
  return scenario == o.scenario && first_seed == o.first_seed && last_seed == o.last_seed &&
         ratios == o.ratios && budget == o.budget && horizon == o.horizon && runs == o.runs &&
         verdicts == o.verdicts && failing_runs == o.failing_runs && failures == o.failures &&
         steps == o.steps && faults_fired == o.faults_fired &&
         faults_by_action == o.faults_by_action && step_bound_hits == o.step_bound_hits &&
         unfired_runs == o.unfired_runs && first_unfired_seed == o.first_unfired_seed &&
         first_unfired == o.first_unfired && digest == o.digest;
}

Scenario sweep_scenario(const Scenario& scenario, const SweepOptions& options, std::uint64_t seed) {
  Scenario s = scenario;
  s.seed = seed;
  if (options.ratios) {
    s.random.ratios = *options.ratios;
  } else if (s.random.ratios.empty()) {
    const eosim::Status parsed = parse_fault_spec(kDefaultSweepFaults, s.random.ratios);
    EOSIM_ASSERT(parsed.ok());
  }
  return s;
}

eosim::Status sweep(const Scenario& scenario, const SweepOptions& options, SweepSummary& out) {
  EOSIM_ASSERT(options.first_seed <= options.last_seed);
  out = SweepSummary{};
  const Scenario shown = sweep_scenario(scenario, options, options.first_seed);
  out.scenario = scenario.name;
  out.first_seed = options.first_seed;
  out.last_seed = options.last_seed;
  out.ratios = shown.random.ratios;
  out.budget = shown.random.budget;
  out.horizon = shown.random.horizon;
  for (const auto& v : verdicts()) out.verdicts[std::string(v.name)] = 0;

  // last - first + 1 cannot overflow unless the range is all 2^64 seeds; cap it there.
  const std::uint64_t span = options.last_seed - options.first_seed;
  const std::uint64_t total = span == UINT64_MAX ? UINT64_MAX : span + 1;
  out.jobs = worker_count(options.jobs, total);
  std::vector<SeedResult> results;
  Tally tally;
  for (std::uint64_t done = 0; done < total;) {
    const std::uint64_t count = std::min(kBlockSeeds, total - done);
    const std::uint64_t first = options.first_seed + done;
    results.assign(static_cast<std::size_t>(count), SeedResult{});
    if (eosim::Status ran = run_block(scenario, options, first, results, out.jobs); !ran.ok()) {
      return ran;
    }
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (!results[i].built) {
        return results[i].error.prefixed("seed " + std::to_string(first + i) + ": ");
      }
      reduce(results[i], first + i, options.keep_failures, tally, out);
    }
    done += count;
    if (options.progress) options.progress(done, total);
  }
  tally.add_to(out);
  return eosim::Status::success();
}

bool shard_range(std::uint64_t first, std::uint64_t last, std::uint64_t index, std::uint64_t count,
                 std::uint64_t& slice_first, std::uint64_t& slice_last) {
  EOSIM_ASSERT(first <= last);
  const std::uint64_t span = last - first;  // seeds - 1: all 2^64 seeds do not overflow
  if (count == 0 || index >= count || span < count - 1) return false;
  // seeds = base * count + extra, the first `extra` slices one seed longer; written in
  // terms of span = seeds - 1 so that no step overflows.
  const std::uint64_t extra = (span % count + 1) % count;
  const std::uint64_t base = span / count + (extra == 0 ? 1 : 0);
  slice_first = first + index * base + std::min(index, extra);
  slice_last = slice_first + base - (index < extra ? 0 : 1);
  return true;
}

namespace {

bool same_setup(const SweepSummary& a, const SweepSummary& b) {
  return a.scenario == b.scenario && a.ratios == b.ratios && a.budget == b.budget &&
         a.horizon == b.horizon && a.verdicts.size() == b.verdicts.size();
}

void add_counts(const SweepSummary& part, SweepSummary& out) {
  out.runs += part.runs;
  for (const auto& [verdict, count] : part.verdicts) out.verdicts[verdict] += count;
  out.failing_runs += part.failing_runs;
  out.steps += part.steps;
  out.faults_fired += part.faults_fired;
  for (const auto& [action, count] : part.faults_by_action) out.faults_by_action[action] += count;
  out.step_bound_hits += part.step_bound_hits;
  if (out.unfired_runs == 0 && part.unfired_runs > 0) {  // parts come in seed order
    out.first_unfired_seed = part.first_unfired_seed;
    out.first_unfired = part.first_unfired;
  }
  out.unfired_runs += part.unfired_runs;
  out.digest += part.digest;
  out.seconds += part.seconds;
  out.jobs += part.jobs;
}

}  // namespace

eosim::Status merge_sweeps(std::vector<SweepSummary> parts, std::size_t keep_failures,
                           SweepSummary& out) {
  if (parts.empty()) return eosim::Status::error("nothing to merge");
  std::sort(parts.begin(), parts.end(), [](const SweepSummary& a, const SweepSummary& b) {
    return a.first_seed < b.first_seed;
  });
  out = parts.front();
  out.runs = out.failing_runs = out.steps = out.faults_fired = out.step_bound_hits = 0;
  out.unfired_runs = out.first_unfired_seed = 0;
  out.first_unfired.clear();
  out.digest = 0;
  out.seconds = 0;
  out.jobs = 0;
  out.failures.clear();
  out.faults_by_action.clear();
  for (auto& [verdict, count] : out.verdicts) count = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const SweepSummary& part = parts[i];
    const std::string seeds =
        "seeds " + std::to_string(part.first_seed) + ".." + std::to_string(part.last_seed);
    if (!same_setup(part, out)) {
      return eosim::Status::error(seeds +
                                  " come from another scenario, fault mix, budget or horizon");
    }
    if (i > 0 && part.first_seed != parts[i - 1].last_seed + 1) {
      return eosim::Status::error("seeds " + std::to_string(parts[i - 1].last_seed) + " and " +
                                  std::to_string(part.first_seed) +
                                  " are not adjacent (a gap or an overlap)");
    }
    if (part.failures.size() < std::min<std::uint64_t>(keep_failures, part.failing_runs)) {
      return eosim::Status::error(seeds + " list " + std::to_string(part.failures.size()) +
                                  " failures, fewer than the " + std::to_string(keep_failures) +
                                  " to show");
    }
    add_counts(part, out);
    for (const auto& f : part.failures) {
      if (out.failures.size() < keep_failures) out.failures.push_back(f);
    }
  }
  out.last_seed = parts.back().last_seed;
  return eosim::Status::success();
}

std::string fault_spec_text(const std::map<std::string, sim::Ratio>& ratios) {
  std::string text;
  for (const auto& [kind, ratio] : ratios) {
    text += (text.empty() ? "" : ",") + kind + "=" + ratio.to_string();
  }
  return text;
}

bool valid_sweep_expectation(const std::string& expect) {
  return parse_expectation(expect).has_value();
}

bool sweep_expectation_met(const SweepSummary& summary, const Expectation& expect,
                           std::string& why) {
  if (summary.unfired_runs > 0) {
    why = std::to_string(summary.unfired_runs) + " of " + std::to_string(summary.runs) +
          " runs did not fire every scripted fault (first: seed " +
          std::to_string(summary.first_unfired_seed) + ", " + summary.first_unfired + ")";
    return false;
  }
  const auto count_of = [&summary](Verdict verdict) {
    const auto it = summary.verdicts.find(std::string(verdict_name(verdict)));
    return it == summary.verdicts.end() ? std::uint64_t{0} : it->second;
  };
  const std::uint64_t clean = count_of(Verdict::kExactlyOnce);
  // A run the step bound cut short before its workload was produced is neither.
  const std::uint64_t incomplete = count_of(Verdict::kIncomplete);
  const std::uint64_t violating = summary.runs - clean - incomplete;
  const std::string first =
      summary.failures.empty()
          ? ""
          : " (first: seed " + std::to_string(summary.failures.front().seed) + ", " +
                std::string(verdict_name(summary.failures.front().verdict)) + ")";
  if (expect.violation) {
    why = violating > 0 ? std::to_string(violating) + " of " + std::to_string(summary.runs) +
                              " runs violated" + first
                        : "no run violated exactly-once";
    return violating > 0;
  }
  if (expect.verdict == Verdict::kExactlyOnce) {
    why = clean == summary.runs
              ? "every run was exactly-once"
              : std::to_string(summary.runs - clean) + " of " + std::to_string(summary.runs) +
                    " runs were not exactly-once" + first;
    if (incomplete > 0) {
      why += "; " + std::to_string(incomplete) +
             " ended at the step bound before the workload was produced";
    }
    return clean == summary.runs;
  }
  const std::uint64_t hits = count_of(expect.verdict);
  const std::string name(verdict_name(expect.verdict));
  why = hits > 0 ? std::to_string(hits) + " runs ended " + name : "no run ended " + name;
  return hits > 0;
}

}  // namespace lab
