// eosim_bench: the figures of docs/performance.md, measured in one process.
//
//   eosim_bench throughput [--scenario FILE] [--runs N] [--jobs J] [--rounds R]
//       a sweep of FILE without faults and with its random faults, each beside a replay
//       of the SQL that very sweep ran (recorded by store::Recorder) on warm prepared
//       connections - the ceiling - and beside a fault-free list of the actors'
//       statements (schema parsed per run, cloned, warm connections); on J threads (the
//       replays on one). R rounds (default 5); in each, every sweep and the replay of its
//       SQL run back to back (replay first in every other round) and the round's ratios
//       are printed; then each measurement's least and median CPU time per run, and per
//       ratio the median of the rounds' ratios beside the ratio of the best times.
//   eosim_bench instructions [--scenario FILE] [--runs N] [--faults on|off]
//       for callgrind (bench/instructions.sh): records the sweep of N seeds (one job),
//       then runs the sweep once and the replay of its SQL once, each between a reset of
//       callgrind's counters and a dump named "sweep" / "replay", so that each dump holds
//       the instructions of that part alone. Outside valgrind the requests do nothing.
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

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else  // no valgrind headers: the client requests are no-ops, as outside valgrind
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(name) static_cast<void>(name)
#endif

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

// One measurement: `runs` runs in `cpu` CPU seconds and `wall` seconds.
struct Rate {
  double runs = 0;
  double cpu = 0;
  double wall = 0;
  double per_cpu_s() const { return cpu > 0 ? runs / cpu : 0; }
  double per_wall_s() const { return wall > 0 ? runs / wall : 0; }
  double cpu_us_per_run() const { return runs > 0 ? 1e6 * cpu / runs : 0; }
};

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// The rounds of one measurement. Best = least CPU time: on a shared machine a round can
// only be slowed down by other work, never sped up.
struct Series {
  std::vector<Rate> rounds;
  Rate best() const {
    Rate b;
    for (const Rate& r : rounds) {
      if (b.cpu == 0 || r.cpu < b.cpu) b = r;
    }
    return b;
  }
  double median_per_cpu_s() const {
    std::vector<double> rates;
    for (const Rate& r : rounds) rates.push_back(r.per_cpu_s());
    return median(rates);
  }
};

// A sweep and the replay of its SQL, measured one right after the other in each round.
// The round's ratio compares two measurements that saw the same load; the median of
// those ratios is the summary least moved by one disturbed round.
struct Pair {
  Series sweep;
  Series replay;
  std::vector<double> ratios() const {
    std::vector<double> r;
    for (std::size_t i = 0; i < sweep.rounds.size(); ++i) {
      r.push_back(sweep.rounds[i].per_cpu_s() / replay.rounds[i].per_cpu_s());
    }
    return r;
  }
  double best_ratio() const { return sweep.best().per_cpu_s() / replay.best().per_cpu_s(); }
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
  const Rate rate =
      measure(static_cast<double>(recorded.runs), [&] { mismatches = recorded.replay.play(); });
  if (mismatches != 0) {
    std::fprintf(stderr,
                 "the replay did other work than the sweep it recorded: %llu steps "
                 "returned another code\n",
                 static_cast<unsigned long long>(mismatches));
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
      const std::int64_t balance = bench::sqlite_only_run(
          s.workload.orders, s.workload.amount, s.workload.initial_balance, setup, ++run_ids);
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
  if (const eosim::Status recorded = bench::record_sweep(s, options, out); !recorded.ok()) {
    std::fprintf(stderr, "recording the sweep (%s) failed: %s\n", what, recorded.message.c_str());
    std::exit(3);
  }
  static_cast<void>(out.replay.play());  // untimed: the replay's pages and caches warm up
  std::printf(
      "recorded %s: %llu runs, %.1f connections, %.1f statement steps, %.1f calls "
      "into SQLite per run\n",
      what, static_cast<unsigned long long>(out.runs),
      static_cast<double>(out.connections) / static_cast<double>(out.runs),
      static_cast<double>(out.steps) / static_cast<double>(out.runs),
      static_cast<double>(out.replay.calls()) / static_cast<double>(out.runs));
}

void print_series(const char* what, const Series& series) {
  const Rate best = series.best();
  std::printf("%-50s %8.0f %8.0f %8.0f %10.0f\n", what, best.per_cpu_s(), best.cpu_us_per_run(),
              1e6 / series.median_per_cpu_s(), best.per_wall_s());
}

// One round of a pair: the sweep and the replay of its SQL back to back, in alternating
// order from round to round so that a drift in the machine's speed favours neither.
void measure_pair(const lab::Scenario& s, const lab::SweepOptions& options,
                  bench::RecordedSweep& sql, bool replay_first, Pair& pair) {
  if (replay_first) pair.replay.rounds.push_back(replay_rate(sql));
  pair.sweep.rounds.push_back(sweep_rate(s, options));
  if (!replay_first) pair.replay.rounds.push_back(replay_rate(sql));
}

void print_ratio(const char* what, const Pair& pair) {
  const std::vector<double> ratios = pair.ratios();
  std::printf(
      "ratio %s: median of the rounds %.2f (rounds %.2f-%.2f), best sweep / best "
      "replay %.2f\n",
      what, median(ratios), *std::min_element(ratios.begin(), ratios.end()),
      *std::max_element(ratios.begin(), ratios.end()), pair.best_ratio());
}

struct Throughput {
  Pair clean, faulty;
  Series parsed, cloned, warm;
};

void print_throughput(const Throughput& t) {
  std::printf("load average after: %s\n", load_average().c_str());
  std::printf("%-50s %8s %8s %8s %10s\n", "", "runs per", "CPU us", "CPU us", "runs/s");
  std::printf("%-50s %8s %8s %8s %10s\n", "", "CPU s", "per run", "median", "(wall)");
  print_series("sweep, no faults", t.clean.sweep);
  print_series("  its SQL replayed on warm connections (ceiling)", t.clean.replay);
  print_series("sweep, the file's random faults", t.faulty.sweep);
  print_series("  its SQL replayed on warm connections (ceiling)", t.faulty.replay);
  print_series("fault-free statement list, schema parsed per run", t.parsed);
  print_series("fault-free statement list, schema cloned per run", t.cloned);
  print_series("fault-free statement list, warm connections", t.warm);
  std::printf(
      "ratio = sweep / the replay of its own SQL, runs per CPU second; target >= 0.75 "
      "with faults (issue 31; 0.60 for issue 13)\n");
  print_ratio("without faults", t.clean);
  print_ratio("with the file's random faults", t.faulty);
}

int throughput(int argc, char** argv) {
  const std::string file = arg(argc, argv, "--scenario", "bench/ten-orders.toml");
  const std::uint64_t runs = std::strtoull(arg(argc, argv, "--runs", "2000"), nullptr, 10);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = static_cast<unsigned>(
      std::strtoul(arg(argc, argv, "--jobs", std::to_string(cores).c_str()), nullptr, 10));
  const int rounds = std::max(1, std::atoi(arg(argc, argv, "--rounds", "5")));
  const eosim::Result<lab::Scenario> loaded = lab::load_scenario(file);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.message().c_str());
    return 2;
  }
  const lab::Scenario& s = loaded.value();
  std::printf(
      "machine: %u x %s; load average %s; %u job(s); %llu runs per measurement, "
      "%d rounds\n",
      cores, cpu_model().c_str(), load_average().c_str(), jobs,
      static_cast<unsigned long long>(runs), rounds);
  std::printf("scenario: %s (%lld orders)\n", s.name.c_str(),
              static_cast<long long>(s.workload.orders));
  // The recorded databases live in this scope; the one-job sweeps below use it too.
  store::WarmScope scope;
  const lab::SweepOptions clean_options = sweep_options(runs, jobs, false);
  const lab::SweepOptions faulty_options = sweep_options(runs, jobs, true);
  bench::RecordedSweep clean_sql, faulty_sql;
  record_or_exit(s, clean_options, clean_sql, "sweep without faults");
  record_or_exit(s, faulty_options, faulty_sql, "sweep with the file's faults");
  Throughput t;
  for (int round = 0; round < rounds; ++round) {
    measure_pair(s, clean_options, clean_sql, round % 2 == 1, t.clean);
    measure_pair(s, faulty_options, faulty_sql, round % 2 == 1, t.faulty);
    // Every round is printed, not only the summary: on a shared machine the spread
    // between rounds says how far to trust the ratio.
    const Rate& c = t.clean.sweep.rounds.back();
    const Rate& cr = t.clean.replay.rounds.back();
    const Rate& f = t.faulty.sweep.rounds.back();
    const Rate& fr = t.faulty.replay.rounds.back();
    std::printf(
        "round %d (load %s): CPU us per run, sweep / replay: %.0f / %.0f no faults "
        "(ratio %.2f), %.0f / %.0f with faults (ratio %.2f)\n",
        round + 1, load_average().c_str(), c.cpu_us_per_run(), cr.cpu_us_per_run(),
        c.per_cpu_s() / cr.per_cpu_s(), f.cpu_us_per_run(), fr.cpu_us_per_run(),
        f.per_cpu_s() / fr.per_cpu_s());
    std::fflush(stdout);
    t.parsed.rounds.push_back(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kParsed));
    t.cloned.rounds.push_back(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kCloned));
    t.warm.rounds.push_back(sqlite_rate(s, runs, jobs, bench::SchemaSetup::kWarm));
  }
  print_throughput(t);
  return 0;
}

// One sweep and one replay of its SQL, each alone in a callgrind dump (see the top).
int instructions(int argc, char** argv) {
  const std::string file = arg(argc, argv, "--scenario", "bench/ten-orders.toml");
  const std::uint64_t runs = std::strtoull(arg(argc, argv, "--runs", "300"), nullptr, 10);
  const bool faults = std::strcmp(arg(argc, argv, "--faults", "on"), "off") != 0;
  const eosim::Result<lab::Scenario> loaded = lab::load_scenario(file);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s\n", loaded.message().c_str());
    return 2;
  }
  store::WarmScope scope;
  const lab::SweepOptions options = sweep_options(runs, 1, faults);
  bench::RecordedSweep sql;
  record_or_exit(loaded.value(), options, sql,
                 faults ? "sweep with the file's faults" : "sweep without faults");
  CALLGRIND_ZERO_STATS;
  const Rate sweep = sweep_rate(loaded.value(), options);
  CALLGRIND_DUMP_STATS_AT("sweep");
  CALLGRIND_ZERO_STATS;
  const Rate replay = replay_rate(sql);
  CALLGRIND_DUMP_STATS_AT("replay");
  std::printf(
      "CPU us per run, sweep / replay: %.0f / %.0f (ratio %.2f); under callgrind "
      "the dumps \"sweep\" and \"replay\" hold each part's instructions\n",
      sweep.cpu_us_per_run(), replay.cpu_us_per_run(), sweep.per_cpu_s() / replay.per_cpu_s());
  return 0;
}

int anti_patterns(int argc, char** argv) {
  const std::uint64_t seeds = std::strtoull(arg(argc, argv, "--seeds", "500"), nullptr, 10);
  std::printf("%-34s %-11s %10s %12s %10s %10s\n", "strategy / producer", "verdict", "first seed",
              "faults", "shrink ms", "shrink runs");
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
      std::printf("%-34s %-11s %10s\n", name.c_str(),
                  std::string(lab::verdict_name(p.verdict)).c_str(), "NOT FOUND");
      worst = 1;
      continue;
    }
    const auto start = Clock::now();
    lab::ShrinkResult r;
    const auto status = lab::shrink(lab::sweep_scenario(s, options, seed), {}, r);
    const double ms = 1000 * seconds_since(start);
    if (!status.ok() || status.value() != lab::ShrinkStatus::kShrunk) {
      const std::string why = status.ok() ? r.why : status.message();
      std::printf("%-34s %-11s %10llu  shrink failed: %s\n", name.c_str(),
                  std::string(lab::verdict_name(p.verdict)).c_str(),
                  static_cast<unsigned long long>(seed), why.c_str());
      worst = 1;
      continue;
    }
    const std::string faults =
        std::to_string(r.candidates.size()) + " -> " + std::to_string(r.minimal.size());
    std::printf("%-34s %-11s %10llu %12s %10.0f %10zu\n", name.c_str(),
                std::string(lab::verdict_name(p.verdict)).c_str(),
                static_cast<unsigned long long>(seed), faults.c_str(), ms, r.runs);
    if (r.minimal.size() > 2 || ms > 2000) worst = 1;
  }
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  if (command == "throughput") return throughput(argc, argv);
  if (command == "instructions") return instructions(argc, argv);
  if (command == "anti-patterns") return anti_patterns(argc, argv);
  std::fprintf(stderr,
               "usage: eosim_bench throughput [--scenario FILE] [--runs N] [--jobs J] "
               "[--rounds R]\n       eosim_bench instructions [--scenario FILE] [--runs N] "
               "[--faults on|off]\n       eosim_bench anti-patterns [--seeds N]\n");
  return 2;
}
