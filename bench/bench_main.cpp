// eosim_bench: the figures of docs/performance.md, measured in one process.
//
//   eosim_bench throughput [--scenario FILE] [--runs N] [--jobs J] [--rounds R]
//       a sweep of FILE without faults and with its random faults, each beside a replay
//       of the SQL that very sweep ran (recorded by store::Recorder) on warm prepared
//       connections - the ceiling - and beside a fault-free list of the actors'
//       statements (schema parsed per run, cloned, warm connections); on J threads (the
//       replays on one); R alternating rounds, each round's sweep/replay ratios printed,
//       then the least CPU time of each measurement.
//   eosim_bench anti-patterns [--seeds N]
//       for every anti-pattern (lab/patterns.h): the first seed of N that shows its
//       violation, and how long shrinking it takes and to how many faults.
//
// Rates are per CPU second of the process (the wall-clock rate is printed beside them):
// on a shared machine the wall clock also counts waiting for a core. Nothing timed here
// decides anything in a run.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/recorded_ceiling.h"
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

// CPU seconds of the whole process (every thread): on a machine shared with other work
// the wall clock also counts the time this process waited for a core.
double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
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

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string one, five;
  in >> one >> five;
  return one + " " + five;
}

// One measurement: `runs` runs in `cpu` CPU seconds and `wall` seconds. Best = least CPU.
struct Rate {
  double runs = 0;
  double cpu = 0;
  double wall = 0;
  double per_cpu_s() const { return cpu > 0 ? runs / cpu : 0; }
  double per_wall_s() const { return wall > 0 ? runs / wall : 0; }
  void keep_best(const Rate& r) {
    if (cpu == 0 || r.cpu < cpu) *this = r;
  }
};

template <class Work>
Rate measure(double runs, Work work) {
  const double cpu = cpu_seconds();
  const auto wall = Clock::now();
  work();
  return {runs, cpu_seconds() - cpu, seconds_since(wall)};
}

lab::SweepOptions sweep_options(std::uint64_t runs, unsigned jobs, bool faults) {
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = runs;
  options.jobs = jobs;
  if (!faults) options.ratios = std::map<std::string, sim::Ratio>{};
  if (!faults) options.ratios->emplace("drop", sim::Ratio::never());
  return options;
}

Rate sweep_rate(const lab::Scenario& s, const lab::SweepOptions& options) {
  lab::SweepSummary summary;
  const Rate rate = measure(static_cast<double>(options.last_seed - options.first_seed + 1), [&] {
    if (const eosim::Status swept = lab::sweep(s, options, summary); !swept.ok()) {
      std::fprintf(stderr, "sweep failed: %s\n", swept.message.c_str());
      std::exit(3);
    }
  });
  if (summary.verdicts.at("exactly-once") != summary.runs) {
    std::fprintf(stderr, "the benchmark scenario was not exactly-once on every seed\n");
    std::exit(1);
  }
  return rate;
}

Rate replay_rate(bench::RecordedSweep& recorded) {
  std::uint64_t mismatches = 0;
  const Rate rate = measure(static_cast<double>(recorded.runs),
                            [&] { mismatches = recorded.replay.play(); });
  if (mismatches != 0) {
    std::fprintf(stderr, "the replay did other work than the sweep it recorded: %llu steps "
                 "returned another code\n", static_cast<unsigned long long>(mismatches));
    std::exit(3);
  }
  return rate;
}

Rate sqlite_rate(const lab::Scenario& s, std::uint64_t runs, unsigned jobs,
                 bench::SchemaSetup setup) {
  std::atomic<std::uint64_t> next{0};
  std::atomic<std::uint64_t> run_ids{0};
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
  // Its own threads, even for one job: the main thread's WarmScope is the recorded
  // sweeps', and a thread holds one scope at a time.
  return measure(static_cast<double>(runs), [&] {
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < jobs; ++t) threads.emplace_back(work);
    for (auto& t : threads) t.join();
  });
}

void record_or_exit(const lab::Scenario& s, const lab::SweepOptions& options,
                    bench::RecordedSweep& out, const char* what) {
  std::string error;
  if (!bench::record_sweep(s, options, out, error)) {
    std::fprintf(stderr, "recording the sweep (%s) failed: %s\n", what, error.c_str());
    std::exit(3);
  }
  static_cast<void>(out.replay.play());  // untimed: the replay's pages and caches warm up
  std::printf("recorded %s: %llu runs, %.1f connections, %.1f statement steps, %.1f calls "
              "into SQLite per run\n", what, static_cast<unsigned long long>(out.runs),
              static_cast<double>(out.connections) / static_cast<double>(out.runs),
              static_cast<double>(out.steps) / static_cast<double>(out.runs),
              static_cast<double>(out.replay.calls()) / static_cast<double>(out.runs));
}

void print_rate(const char* what, const Rate& r) {
  std::printf("%-50s %8.0f %8.0f %10.0f\n", what, r.per_cpu_s(), 1e6 / r.per_cpu_s(),
              r.per_wall_s());
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
  std::printf("machine: %u x %s; load average %s; %u job(s); %llu runs per measurement, "
              "best of %d rounds\n", cores, cpu_model().c_str(), load_average().c_str(),
              jobs, static_cast<unsigned long long>(runs), rounds);
  std::printf("scenario: %s (%lld orders)\n", s.name.c_str(),
              static_cast<long long>(s.workload.orders));
  // The recorded databases live in this scope; the one-job sweeps below use it too.
  store::WarmScope scope;
  const lab::SweepOptions clean_options = sweep_options(runs, jobs, false);
  const lab::SweepOptions faulty_options = sweep_options(runs, jobs, true);
  bench::RecordedSweep clean_sql, faulty_sql;
  record_or_exit(s, clean_options, clean_sql, "sweep without faults");
  record_or_exit(s, faulty_options, faulty_sql, "sweep with the file's faults");
  Rate clean, faulty, clean_replay, faulty_replay, parsed, cloned, warm;
  for (int round = 0; round < rounds; ++round) {
    // Every round is printed, not only the best: on a shared machine the spread between
    // rounds says how far to trust the ratio.
    const Rate round_clean = sweep_rate(s, clean_options);
    const Rate round_clean_replay = replay_rate(clean_sql);
    const Rate round_faulty = sweep_rate(s, faulty_options);
    const Rate round_faulty_replay = replay_rate(faulty_sql);
    std::printf("round %d (load %s): CPU us per run, sweep / replay: %.0f / %.0f no faults "
                "(ratio %.2f), %.0f / %.0f with faults (ratio %.2f)\n", round + 1,
                load_average().c_str(), 1e6 / round_clean.per_cpu_s(),
                1e6 / round_clean_replay.per_cpu_s(),
                round_clean.per_cpu_s() / round_clean_replay.per_cpu_s(),
                1e6 / round_faulty.per_cpu_s(), 1e6 / round_faulty_replay.per_cpu_s(),
                round_faulty.per_cpu_s() / round_faulty_replay.per_cpu_s());
    std::fflush(stdout);
    clean.keep_best(round_clean);
    clean_replay.keep_best(round_clean_replay);
    faulty.keep_best(round_faulty);
    faulty_replay.keep_best(round_faulty_replay);
    parsed.keep_best(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kParsed));
    cloned.keep_best(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kCloned));
    warm.keep_best(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kWarm));
  }
  std::printf("load average after: %s\n", load_average().c_str());
  std::printf("%-50s %8s %8s %10s\n", "", "runs per", "CPU us", "runs/s");
  std::printf("%-50s %8s %8s %10s\n", "", "CPU s", "per run", "(wall)");
  print_rate("sweep, no faults", clean);
  print_rate("  its SQL replayed on warm connections (ceiling)", clean_replay);
  print_rate("sweep, the file's random faults", faulty);
  print_rate("  its SQL replayed on warm connections (ceiling)", faulty_replay);
  print_rate("fault-free statement list, schema parsed per run", parsed);
  print_rate("fault-free statement list, schema cloned per run", cloned);
  print_rate("fault-free statement list, warm connections", warm);
  std::printf("ratio = sweep / the replay of its own SQL, per CPU second: %.2f (no faults), "
              "%.2f (the file's random faults); target >= 0.60 with faults\n",
              clean.per_cpu_s() / clean_replay.per_cpu_s(),
              faulty.per_cpu_s() / faulty_replay.per_cpu_s());
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
    if (!lab::sweep(s, options, summary).ok()) return 3;
    std::uint64_t seed = 0;
    for (const auto& f : summary.failures) {
      if (f.verdict == p.verdict && seed == 0) seed = f.seed;
    }
    const std::string name = std::string(sim::name_of(p.strategy)) + " / " + p.producer;
    if (seed == 0) {
      std::printf("%-34s %-11s %10s\n", name.c_str(), std::string(lab::verdict_name(p.verdict)).c_str(), "NOT FOUND");
      worst = 1;
      continue;
    }
    const auto start = Clock::now();
    lab::ShrinkResult r;
    const auto status = lab::shrink(lab::sweep_scenario(s, options, seed), {}, r);
    const double ms = 1000 * seconds_since(start);
    if (!status.ok() || status.value() != lab::ShrinkStatus::kShrunk) {
      const std::string why = status.ok() ? r.why : status.message();
      std::printf("%-34s %-11s %10llu  shrink failed: %s\n", name.c_str(), std::string(lab::verdict_name(p.verdict)).c_str(),
                  static_cast<unsigned long long>(seed), why.c_str());
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
