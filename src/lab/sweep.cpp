#include "src/lab/sweep.h"

#include <algorithm>
#include <thread>

#include "sim/assert.h"
#include "src/lab/catalog.h"
#include "src/lab/parallel.h"
#include "src/lab/world.h"

namespace lab {

const char* const kDefaultSweepFaults = "drop=1/20,crash=1/20,fail=1/20,reorder=1/10,restart=1/100";

namespace {

// Seeds are handed out in blocks: workers claim seeds of the block one by one, then the
// calling thread reduces the block in seed order. A block bounds memory for huge ranges.
constexpr std::uint64_t kBlockSeeds = 512;

struct SeedResult {
  bool built = false;
  std::string error;  // when the world could not be built
  RunSummary run;     // only the report, counters and hash are kept (see trim)
};

// Drops what the reduction never reads, so a block of results stays small.
void trim(RunSummary& run) {
  run.tape.clear();
  run.tape.shrink_to_fit();
  run.report.orders.clear();
  run.report.orders.shrink_to_fit();
}

std::uint64_t fold(std::uint64_t hash, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) {
    hash ^= (value >> (8 * i)) & 0xff;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

unsigned worker_count(unsigned jobs, std::uint64_t runs) {
  unsigned n = jobs != 0 ? jobs : std::max(1u, std::thread::hardware_concurrency());
  return static_cast<unsigned>(std::min<std::uint64_t>(n, runs));
}

void run_block(const Scenario& scenario, const SweepOptions& options, std::uint64_t first,
               std::vector<SeedResult>& results, unsigned workers) {
  parallel_for(results.size(), workers, [&](std::size_t i) {
    SeedResult& r = results[i];
    const Scenario s = sweep_scenario(scenario, options, first + i);
    WorldOptions world;
    world.keep_trace = false;
    r.built = run_scenario(s, world, r.run, nullptr, r.error);
    trim(r.run);
  });
}

void reduce(const SeedResult& r, std::uint64_t seed, std::size_t keep, SweepSummary& out) {
  const Report& report = r.run.report;
  ++out.runs;
  ++out.verdicts[report.verdict];
  out.steps += r.run.steps;
  out.faults_fired += r.run.faults.size();
  for (const auto& f : r.run.faults) ++out.faults_by_action[f.action];
  out.step_bound_hits += r.run.step_bound_hit ? 1 : 0;
  out.digest = fold(fold(out.digest, seed), r.run.trace_hash);
  if (report.verdict == "exactly-once") return;
  ++out.failing_runs;
  if (out.failures.size() >= keep) return;
  SweepFailure f;
  f.seed = seed;
  f.verdict = report.verdict;
  f.lost = report.lost;
  f.duplicated = report.duplicated;
  f.phantom = report.phantom;
  f.stuck = report.stuck;
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
         faults_by_action == o.faults_by_action &&
         step_bound_hits == o.step_bound_hits && digest == o.digest;
}

Scenario sweep_scenario(const Scenario& scenario, const SweepOptions& options,
                        std::uint64_t seed) {
  Scenario s = scenario;
  s.seed = seed;
  if (options.ratios) {
    s.random.ratios = *options.ratios;
  } else if (s.random.ratios.empty()) {
    std::string error;
    const bool ok = parse_fault_spec(kDefaultSweepFaults, s.random.ratios, error);
    EOSIM_ASSERT(ok);
  }
  return s;
}

bool sweep(const Scenario& scenario, const SweepOptions& options, SweepSummary& out,
           std::string& error) {
  EOSIM_ASSERT(options.first_seed <= options.last_seed);
  out = SweepSummary{};
  const Scenario shown = sweep_scenario(scenario, options, options.first_seed);
  out.scenario = scenario.name;
  out.first_seed = options.first_seed;
  out.last_seed = options.last_seed;
  out.ratios = shown.random.ratios;
  out.budget = shown.random.budget;
  out.horizon = shown.random.horizon;
  out.digest = 0xcbf29ce484222325ULL;
  for (const auto& v : verdicts()) out.verdicts[std::string(v.name)] = 0;

  // last - first + 1 cannot overflow unless the range is all 2^64 seeds; cap it there.
  const std::uint64_t span = options.last_seed - options.first_seed;
  const std::uint64_t total = span == UINT64_MAX ? UINT64_MAX : span + 1;
  out.jobs = worker_count(options.jobs, total);
  std::vector<SeedResult> results;
  for (std::uint64_t done = 0; done < total;) {
    const std::uint64_t count = std::min(kBlockSeeds, total - done);
    const std::uint64_t first = options.first_seed + done;
    results.assign(static_cast<std::size_t>(count), SeedResult{});
    run_block(scenario, options, first, results, out.jobs);
    for (std::size_t i = 0; i < results.size(); ++i) {
      if (!results[i].built) {
        error = "seed " + std::to_string(first + i) + ": " + results[i].error;
        return false;
      }
      reduce(results[i], first + i, options.keep_failures, out);
    }
    done += count;
    if (options.progress) options.progress(done, total);
  }
  return true;
}

std::string fault_spec_text(const std::map<std::string, sim::Ratio>& ratios) {
  std::string text;
  for (const auto& [kind, ratio] : ratios) {
    text += (text.empty() ? "" : ",") + kind + "=" + ratio.to_string();
  }
  return text;
}

bool valid_sweep_expectation(const std::string& expect) {
  return expect == "violation" || find_verdict(expect) != nullptr;
}

bool sweep_expectation_met(const SweepSummary& summary, const std::string& expect,
                           std::string& why) {
  EOSIM_ASSERT(valid_sweep_expectation(expect));
  const std::uint64_t clean = summary.verdicts.count("exactly-once") != 0
                                  ? summary.verdicts.at("exactly-once")
                                  : 0;
  const std::string first =
      summary.failures.empty()
          ? ""
          : " (first: seed " + std::to_string(summary.failures.front().seed) + ", " +
                summary.failures.front().verdict + ")";
  if (expect == "exactly-once") {
    why = clean == summary.runs
              ? "every run was exactly-once"
              : std::to_string(summary.runs - clean) + " of " + std::to_string(summary.runs) +
                    " runs were not exactly-once" + first;
    return clean == summary.runs;
  }
  if (expect == "violation") {
    why = clean < summary.runs ? std::to_string(summary.runs - clean) + " of " +
                                     std::to_string(summary.runs) + " runs violated" + first
                               : "no run violated exactly-once";
    return clean < summary.runs;
  }
  const auto it = summary.verdicts.find(expect);
  const std::uint64_t hits = it == summary.verdicts.end() ? 0 : it->second;
  why = hits > 0 ? std::to_string(hits) + " runs ended " + expect
                 : "no run ended " + expect;
  return hits > 0;
}

}  // namespace lab
