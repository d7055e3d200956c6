// `eosim live FILE --seeds A..B --faults SPEC`: the live sweep (live_sweep.h).

#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_sweep.h"

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "src/checker/violations.h"
#include "src/live/actor_process.h"
#include "src/live/broker_probe.h"
#include "src/live/live_schedule.h"
#include "src/live/process.h"
#include "src/live/run_rules.h"
#include "src/live/temp_folders.h"
#include "src/prose/printable.h"
#include "src/world/world.h"

namespace cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kDefaultLiveFaults = "kill=1/3,drop=1/3";

// One seed's run, as the summary needs it.
struct SeedRun {
  std::uint64_t seed = 0;
  std::string error;         // the run failed: no verdict
  int error_code = kExitOk;  // then its exit code (2 or 3)
  lab::Violations verdict;
  bool failed = false;  // expectations unmet, or timed out
  std::size_t faults = 0;
  std::string run_dir;
  std::string replay;
  std::string replay_file;   // the run folder's replay.toml: the schedule as a scenario file
  std::size_t left_out = 0;  // drawn faults it cannot hold
};

struct SweepTally {
  std::map<std::string, int> verdicts;  // by name; "error" for runs without one
  std::map<std::string, int> faults;    // fired, by action
  std::vector<SeedRun> failing;         // failed or no verdict
  int runs = 0;
};

std::string orders_text(const std::vector<std::int64_t>* orders) {
  std::string text;
  for (std::size_t i = 0; orders != nullptr && i < orders->size(); ++i) {
    text += (i == 0 ? "[" : ", ") + std::to_string((*orders)[i]);
  }
  return text.empty() ? "" : " " + text + "]";
}

// The folder a sweep without --keep-db keeps failing runs in: eosim-live-sweep-XXXXXX of
// the temporary directory (no eosim.lock in it: the stale-folder cleaner leaves it alone).
live::Status make_sweep_dir(const LiveCommandOptions& o, std::string& dir) {
  if (!o.keep_db.empty()) {
    dir = o.keep_db;
    return live::Status::success();
  }
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "eosim-live-sweep-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return live::Status::error("cannot create a folder for the sweep's runs");
  }
  dir = pattern;
  return live::Status::success();
}

// Runs seed `seed` of the sweep in `dir`/seed-N.
SeedRun run_seed(const LiveCommandOptions& o, const Loaded& base, std::uint64_t seed,
                 const std::string& dir, const live::Endpoint& endpoint, live::PrivateBroker* own,
                 const LiveStore& store, std::ostream& err) {
  const Loaded l = with_schedule(o, base, seed);
  SeedRun r;
  r.seed = seed;
  r.run_dir = (fs::path(dir) / ("seed-" + std::to_string(seed))).string();
  LiveCommandOptions one = o;
  one.seeds = std::to_string(seed);
  r.replay = replay_of(one, l.file);
  r.replay_file = (fs::path(r.run_dir) / "replay.toml").string();
  r.left_out = l.left_out;
  const live::LiveOptions lo = make_live_options(o, l, r.run_dir, own, store, err);
  live::LiveResult result;
  const live::Status st = live::run_live(l.scenario, endpoint, lo, result);
  if (o.progress) err << "\r\x1b[K" << std::flush;
  if (!st.ok()) {
    r.error = st.message;
    r.error_code = live::is_access_error(st) || st.bad_input ? kExitBadInput : kExitInternal;
    r.failed = true;
    return r;
  }
  r.verdict = result.summary.report;
  r.faults = result.summary.faults.size();
  r.failed = result.timed_out || !lab::unmet_expectations(l.scenario, result.summary).empty();
  return r;
}

std::string seed_line(const SeedRun& r) {
  if (!r.error.empty()) return "seed " + std::to_string(r.seed) + ": no verdict: " + r.error;
  return "seed " + std::to_string(r.seed) + ": " +
         std::string(lab::verdict_name(r.verdict.verdict)) +
         orders_text(lab::orders_named(r.verdict)) + " after " + std::to_string(r.faults) +
         " fault(s)" + (r.failed ? " (expectations failed)" : "");
}

void count(const SeedRun& r, const std::string& run_dir, SweepTally& t) {
  ++t.runs;
  ++t.verdicts[r.error.empty() ? std::string(lab::verdict_name(r.verdict.verdict)) : "error"];
  for (const sim::FiredFault& f : live::read_fired(run_dir)) {
    ++t.faults[std::string(sim::fault_action_name(f.action))];
  }
  if (r.failed) t.failing.push_back(r);
}

std::string faults_text(const std::map<std::string, int>& faults) {
  int total = 0;
  std::string parts;
  for (const auto& [action, n] : faults) {
    total += n;
    parts += (parts.empty() ? "" : ", ") + action + " " + std::to_string(n);
  }
  return std::to_string(total) + (parts.empty() ? "" : " (" + parts + ")");
}

// What the replay file leaves out of the seed's schedule, if anything.
std::string file_note(const SeedRun& r) {
  if (r.left_out == 0) return "";
  return " (without " + std::to_string(r.left_out) + " of its faults: see its opening comment)";
}

void print_text(const LiveCommandOptions& o, const Loaded& l, const SweepTally& t,
                std::ostream& out) {
  out << "live sweep of " << l.scenario.name << " (" << l.file << ")\n"
      << "  seeds " << o.seeds << ", "
      << (l.scenario.consumer.command.empty() ? "eosim's consumer " + l.scenario.consumer.label()
                                              : "your consumer: " + l.scenario.consumer.command)
      << "\n  faults " << live_faults_spec(o) << " (at most " << l.scenario.random.budget
      << " per run, on the consumers' links)\n"
      << "  each seed draws the same faults every time it runs; timing may differ\n\n"
      << "verdicts over " << t.runs << " live runs:\n";
  for (const auto& [name, n] : t.verdicts) out << "  " << name << " " << n << '\n';
  out << "faults fired: " << faults_text(t.faults) << "\n";
  if (t.failing.empty()) {
    out << "\nevery run met the scenario's expectations\n";
    return;
  }
  out << "\nfailing seeds (" << t.failing.size() << " of " << t.runs << "):\n";
  for (const SeedRun& r : t.failing) {
    out << "  " << lab::printable(seed_line(r)) << "\n    run folder " << r.run_dir
        << " (schedule.txt)\n    same faults, timing may differ: " << r.replay << '\n';
    if (!r.error.empty()) continue;
    out << "    as a scenario file to keep" << file_note(r) << ": " << r.replay_file << '\n';
  }
}

void print_json(const LiveCommandOptions& o, const SweepTally& t, std::ostream& out) {
  nlohmann::ordered_json j;
  j["mode"] = "live-sweep";
  j["seeds"] = o.seeds;
  j["faults"] = live_faults_spec(o);
  j["runs"] = t.runs;
  j["verdicts"] = t.verdicts;
  j["faults_fired"] = t.faults;
  nlohmann::ordered_json failing = nlohmann::ordered_json::array();
  for (const SeedRun& r : t.failing) {
    nlohmann::ordered_json f;
    f["seed"] = r.seed;
    if (r.error.empty()) {
      lab::put_violations(f, r.verdict);
    } else {
      f["error"] = r.error;
    }
    f["run_dir"] = r.run_dir;
    f["replay"] = r.replay;
    if (r.error.empty()) {
      f["replay_file"] = r.replay_file;
      f["replay_file_left_out"] = r.left_out;
    }
    failing.push_back(f);
  }
  j["failing"] = failing;
  out << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

// A passing run's folder goes, unless --keep-db asked for every one.
void tidy(const LiveCommandOptions& o, const SeedRun& r) {
  if (!o.keep_db.empty() || r.failed) return;
  std::error_code ec;
  fs::remove_all(r.run_dir, ec);
}

}  // namespace

std::string live_faults_spec(const LiveCommandOptions& o) {
  return o.faults.empty() ? kDefaultLiveFaults : o.faults;
}

Loaded with_schedule(const LiveCommandOptions& o, const Loaded& l, std::uint64_t seed) {
  std::map<std::string, sim::Ratio> ratios;
  (void)live::parse_live_faults(live_faults_spec(o), ratios);  // REQUIRES: it parses
  Loaded scheduled = l;
  scheduled.scenario.seed = seed;
  const std::vector<live::ScheduledFault> faults = live::draw_schedule(l.scenario, ratios, seed);
  scheduled.kill_delays_ms.assign(scheduled.scenario.script.size(), 0);
  for (const live::ScheduledFault& f : faults) {
    scheduled.scenario.script.push_back(f.rule);
    scheduled.kill_delays_ms.push_back(f.delay_ms);
  }
  LiveCommandOptions one = o;
  one.seeds = std::to_string(seed);
  scheduled.schedule =
      live::schedule_text(seed, live_faults_spec(o), replay_of(one, l.file), faults);
  LiveCommandOptions file = o;  // the file holds the faults
  file.seeds.clear();
  scheduled.schedule_scenario =
      live::schedule_scenario(l.scenario, seed, live_faults_spec(o), replay_of(file, "replay.toml"),
                              faults, scheduled.left_out);
  return scheduled;
}

std::string jobs_refusal(const LiveCommandOptions& o, const lab::Scenario& s, std::size_t files) {
  if (o.jobs <= 1) return "";
  if (o.seeds.empty() || o.seeds.find("..") == std::string::npos) {
    // Several files: those that cannot run beside others run alone (live_batch.h).
    if (files > 1) return "";
    return "--jobs runs the seeds of a live sweep (--seeds A..B) or several scenario files at "
           "once";
  }
  if (!live::runs_alongside(s)) {
    return "--jobs " + std::to_string(o.jobs) +
           ": the scenario restarts the broker or the database, or sets the broker's "
           "consumer_timeout, which every run at once would share; run its seeds one at a time";
  }
  return "";
}

namespace {

// Runs seeds first..last, o.jobs at a time (each worker takes the next seed), counting each
// run into `tally` and printing its line as it ends; the sweep's exit code so far.
int run_seeds(const LiveCommandOptions& o, const Loaded& l, std::uint64_t first, std::uint64_t last,
              const std::string& dir, const live::Endpoint& endpoint, live::PrivateBroker* own,
              const LiveStore& store, SweepTally& tally, std::ostream& err) {
  // Several runs at once share the terminal: no progress line of their own.
  LiveCommandOptions each = o;
  each.progress = o.progress && o.jobs <= 1;
  int exit_code = kExitOk;
  std::mutex done;  // guards tally, exit_code and err
  std::atomic<std::uint64_t> taken{0};
  const std::uint64_t span = last - first;  // the seeds first + 0 .. first + span
  auto worker = [&] {
    for (;;) {
      const std::uint64_t i = taken.fetch_add(1);
      if (i > span || live::interrupted() != 0) return;
      const SeedRun r = run_seed(each, l, first + i, dir, endpoint, own, store, err);
      if (live::interrupted() != 0) return;  // the caller ends the command
      const std::lock_guard<std::mutex> lock(done);
      count(r, r.run_dir, tally);
      err << "live sweep: " << lab::printable(seed_line(r)) << " (" << tally.runs << " of "
          << span + 1 << ")\n";
      exit_code = worse(exit_code, !r.error.empty() ? r.error_code
                                   : r.failed       ? kExitExpectFailed
                                                    : kExitOk);
      tidy(o, r);
    }
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < o.jobs && static_cast<std::uint64_t>(j) <= span; ++j) {
    workers.emplace_back(worker);
  }
  worker();
  for (std::thread& t : workers) t.join();
  // The summary lists failing seeds in order, whichever run ended first.
  std::sort(tally.failing.begin(), tally.failing.end(),
            [](const SeedRun& a, const SeedRun& b) { return a.seed < b.seed; });
  return exit_code;
}

}  // namespace

int live_sweep(const LiveCommandOptions& o, const Loaded& l, const live::Endpoint& endpoint,
               live::PrivateBroker* own, const LiveStore& store, std::ostream& out,
               std::ostream& err) {
  std::uint64_t first = 0, last = 0;
  (void)parse_seed_range(o.seeds, first, last);  // checked before anything started
  std::string dir;
  if (live::Status st = make_sweep_dir(o, dir); !st.ok()) {
    err << "eosim: live: " << st.message << '\n';
    return kExitInternal;
  }
  SweepTally tally;
  const int exit_code = run_seeds(o, l, first, last, dir, endpoint, own, store, tally, err);
  std::error_code ec;
  if (o.keep_db.empty() && (tally.failing.empty() || live::interrupted() != 0)) {
    fs::remove_all(dir, ec);
  }
  if (live::interrupted() != 0) return exit_code;
  if (o.format == "json") {
    print_json(o, tally, out);
  } else {
    print_text(o, l, tally, out);
  }
  return exit_code;
}

}  // namespace cli

#endif  // EOSIM_HAVE_LIVE
