// eosim_bench: the figures of docs/performance.md, measured in one process.
//
//   eosim_bench throughput [--scenario FILE] [--runs N] [--jobs J] [--rounds R]
//       a sweep of FILE without faults and with its random faults, beside the SQLite-only
//       cost of the same statements (schema parsed per run, cloned, warm connections),
//       on J threads; R alternating rounds, the best of each kept (machines are noisy).
//   eosim_bench anti-patterns [--seeds N]
//       for every anti-pattern (lab/patterns.h): the first seed of N that shows its
//       violation, and how long shrinking it takes and to how many faults.
//
// Timing uses the wall clock; nothing timed here decides anything in a run.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/sqlite_baseline.h"
#include "src/scenario/patterns.h"
#include "src/search/shrink.h"
#include "src/search/sweep.h"
#include "src/store/warm.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

const char* arg(int argc, char** argv, const char* name, const char* fallback) {
  for (int i = 2; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  }
  return fallback;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

struct Rate {
  double runs_per_s = 0;
  double steps_per_s = 0;
};

Rate sweep_rate(const lab::Scenario& s, std::uint64_t runs, unsigned jobs, bool faults) {
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = runs;
  options.jobs = jobs;
  if (!faults) options.ratios = std::map<std::string, sim::Ratio>{};
  if (!faults) options.ratios->emplace("drop", sim::Ratio::never());
  lab::SweepSummary summary;
  std::string error;
  const auto started = Clock::now();
  if (!lab::sweep(s, options, summary, error)) {
    std::fprintf(stderr, "sweep failed: %s\n", error.c_str());
    std::exit(3);
  }
  summary.seconds = seconds_since(started);
  if (summary.verdicts.at("exactly-once") != summary.runs) {
    std::fprintf(stderr, "the benchmark scenario was not exactly-once on every seed\n");
    std::exit(1);
  }
  return {summary.runs_per_second(), summary.steps_per_second()};
}

double sqlite_rate(const lab::Scenario& s, std::uint64_t runs, unsigned jobs,
                   bench::SchemaSetup setup) {
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> run_ids{0};
  const auto start = Clock::now();
  auto work = [&] {
    std::optional<store::WarmScope> warm;
    if (setup == bench::SchemaSetup::kWarm) warm.emplace();
    for (std::uint64_t i = next++; i < runs; i = next++) {
      const std::int64_t balance =
          bench::sqlite_only_run(s.workload.orders, s.workload.amount,
                                 s.workload.initial_balance, setup, ++run_ids);
      if (balance != s.workload.initial_balance - s.workload.orders * s.workload.amount) {
        std::fprintf(stderr, "sqlite-only run ended with balance %lld\n",
                     static_cast<long long>(balance));
        std::exit(3);
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  return static_cast<double>(runs) / seconds_since(start);
}

int throughput(int argc, char** argv) {
  const std::string file = arg(argc, argv, "--scenario", "bench/ten-orders.toml");
  const std::uint64_t runs = std::strtoull(arg(argc, argv, "--runs", "2000"), nullptr, 10);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = static_cast<unsigned>(
      std::strtoul(arg(argc, argv, "--jobs", std::to_string(cores).c_str()), nullptr, 10));
  const int rounds = std::atoi(arg(argc, argv, "--rounds", "3"));
  lab::Scenario s;
  lab::LoadError error;
  if (!lab::load_scenario(file, s, error)) {
    std::fprintf(stderr, "%s\n", error.to_string().c_str());
    return 2;
  }
  std::printf("machine: %u x %s; %u job(s); %llu runs per measurement, best of %d rounds\n",
              cores, cpu_model().c_str(), jobs, static_cast<unsigned long long>(runs), rounds);
  std::printf("scenario: %s (%lld orders)\n", s.name.c_str(),
              static_cast<long long>(s.workload.orders));
  Rate clean, faulty;
  double parsed = 0, cloned = 0, warm = 0;
  for (int round = 0; round < rounds; ++round) {
    const Rate c = sweep_rate(s, runs, jobs, false);
    const Rate f = sweep_rate(s, runs, jobs, true);
    if (c.runs_per_s > clean.runs_per_s) clean = c;
    if (f.runs_per_s > faulty.runs_per_s) faulty = f;
    parsed = std::max(parsed, sqlite_rate(s, runs, jobs, bench::SchemaSetup::kParsed));
    cloned = std::max(cloned, sqlite_rate(s, runs, jobs, bench::SchemaSetup::kCloned));
    warm = std::max(warm, sqlite_rate(s, runs, jobs, bench::SchemaSetup::kWarm));
  }
  auto per_run_us = [&](double rate) { return rate > 0 ? 1e6 * jobs / rate : 0.0; };
  std::printf("%-44s %9.0f runs/s %10.0f steps/s  %6.0f us/run/core\n",
              "sweep, no faults:", clean.runs_per_s, clean.steps_per_s,
              per_run_us(clean.runs_per_s));
  std::printf("%-44s %9.0f runs/s %10.0f steps/s  %6.0f us/run/core\n",
              "sweep, the file's random faults:", faulty.runs_per_s, faulty.steps_per_s,
              per_run_us(faulty.runs_per_s));
  std::printf("%-44s %9.0f runs/s %21s %6.0f us/run/core\n",
              "sqlite only, schema parsed per run:", parsed, "", per_run_us(parsed));
  std::printf("%-44s %9.0f runs/s %21s %6.0f us/run/core\n",
              "sqlite only, schema cloned (a cold World):", cloned, "", per_run_us(cloned));
  std::printf("%-44s %9.0f runs/s %21s %6.0f us/run/core\n",
              "sqlite only, warm connections (the ceiling):", warm, "", per_run_us(warm));
  std::printf("ratio = sweep runs/s / sqlite-only runs/s on warm connections: %.2f (no "
              "faults), %.2f (the file's random faults); target >= 0.60 with faults\n",
              clean.runs_per_s / warm, faulty.runs_per_s / warm);
  return 0;
}

int anti_patterns(int argc, char** argv) {
  const std::uint64_t seeds = std::strtoull(arg(argc, argv, "--seeds", "500"), nullptr, 10);
  std::printf("%-34s %-11s %10s %12s %10s %10s\n", "strategy / producer", "verdict",
              "first seed", "faults", "shrink ms", "shrink runs");
  int worst = 0;
  for (const auto& p : lab::anti_patterns()) {
    const lab::Scenario s = lab::anti_pattern_scenario(p);
    lab::SweepOptions options;
    options.first_seed = 1;
    options.last_seed = seeds;
    options.keep_failures = 100;
    lab::SweepSummary summary;
    std::string error;
    if (!lab::sweep(s, options, summary, error)) return 3;
    std::uint64_t seed = 0;
    for (const auto& f : summary.failures) {
      if (f.verdict == p.verdict && seed == 0) seed = f.seed;
    }
    const std::string name = p.strategy + " / " + p.producer;
    if (seed == 0) {
      std::printf("%-34s %-11s %10s\n", name.c_str(), std::string(lab::verdict_name(p.verdict)).c_str(), "NOT FOUND");
      worst = 1;
      continue;
    }
    const auto start = Clock::now();
    lab::ShrinkResult r;
    const auto status = lab::shrink(lab::sweep_scenario(s, options, seed), {}, r, error);
    const double ms = 1000 * seconds_since(start);
    if (status != lab::ShrinkStatus::kShrunk) {
      std::printf("%-34s %-11s %10llu  shrink failed: %s\n", name.c_str(), std::string(lab::verdict_name(p.verdict)).c_str(),
                  static_cast<unsigned long long>(seed), error.c_str());
      worst = 1;
      continue;
    }
    const std::string faults =
        std::to_string(r.candidates.size()) + " -> " + std::to_string(r.minimal.size());
    std::printf("%-34s %-11s %10llu %12s %10.0f %10zu\n", name.c_str(), std::string(lab::verdict_name(p.verdict)).c_str(),
                static_cast<unsigned long long>(seed), faults.c_str(), ms, r.runs);
    if (r.minimal.size() > 2 || ms > 2000) worst = 1;
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "throughput") return throughput(argc, argv);
  if (command == "anti-patterns") return anti_patterns(argc, argv);
  std::fprintf(stderr,
               "usage: eosim_bench throughput [--scenario FILE] [--runs N] [--jobs J] "
               "[--rounds R]\n       eosim_bench anti-patterns [--seeds N]\n");
  return 2;
}
