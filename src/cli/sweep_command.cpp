// `eosim sweep`: run one scenario over a range of seeds with random faults (lab/sweep.h),
// print the count per verdict, the first failing seeds (each with the command that shrinks
// it), runs/s and steps/s, and turn --expect into the exit code.
//
// The report is identical for any --jobs except its last line (timing), which is also the
// only place the thread count appears.

#include <charconv>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/cli/commands.h"
#include "src/lab/report_format.h"
#include "src/lab/sweep.h"

namespace cli {

namespace {

bool parse_u64(std::string_view text, std::uint64_t& out) {
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc() && stop == end;
}

std::string list_text(const std::vector<std::int64_t>& orders) {
  std::string s = "[";
  for (std::size_t i = 0; i < orders.size(); ++i) s += (i ? ", " : "") + std::to_string(orders[i]);
  return s + "]";
}

// `eosim shrink 'FILE' --seed N ...` with the same overrides as the sweep.
std::string shrink_command_line(const SweepCommandOptions& o, std::uint64_t seed) {
  std::string line = lab::replay_command(o.file, seed, o.strategy, o.producer);
  line.replace(0, std::string("eosim run").size(), "eosim shrink");
  if (!o.faults.empty()) line += " --faults " + o.faults;
  return line;
}

// "seed 4: duplicated [1, 3], stuck [5] after 4 fault(s), 109 steps": the verdict with
// its own orders first, then any other list that is not empty.
std::string failure_text(const lab::SweepFailure& f) {
  const std::pair<const char*, const std::vector<std::int64_t>*> lists[] = {
      {"duplicated", &f.duplicated}, {"lost", &f.lost}, {"phantom", &f.phantom},
      {"stuck", &f.stuck}};
  std::string text = "seed " + std::to_string(f.seed) + ": " + f.verdict;
  for (const auto& [name, list] : lists) {
    if (name == f.verdict) text += " " + list_text(*list);
  }
  for (const auto& [name, list] : lists) {
    if (name != f.verdict && !list->empty()) {
      text += ", " + std::string(name) + " " + list_text(*list);
    }
  }
  return text + " after " + std::to_string(f.faults) + " fault(s), " +
         std::to_string(f.steps) + " steps";
}

void write_text(const SweepCommandOptions& o, const lab::Scenario& scenario,
                const lab::SweepSummary& s, const std::string& expect_line, std::ostream& out) {
  out << "sweep of " << scenario.name << " (" << o.file << ")\n";
  out << "  seeds " << s.first_seed << ".." << s.last_seed << ", strategy "
      << scenario.consumer.strategy << ", producer " << scenario.producer.pattern << "\n";
  out << "  random faults " << lab::fault_spec_text(s.ratios) << " (at most " << s.budget
      << " per run, none after tick " << s.horizon << ")\n\n";
  out << "verdicts over " << s.runs << " runs:\n";
  for (const auto& [verdict, count] : s.verdicts) {
    out << "  " << std::left << std::setw(14) << verdict << std::right << std::setw(10)
        << count << "\n";
  }
  out << "faults fired: " << s.faults_fired;
  std::string sep = " (";
  for (const auto& [action, count] : s.faults_by_action) {
    out << sep << action << " " << count;
    sep = ", ";
  }
  out << (s.faults_by_action.empty() ? "" : ")") << "\n";
  if (s.step_bound_hits > 0) {
    out << "runs that hit max_steps (" << scenario.max_steps << "): " << s.step_bound_hits
        << "\n";
  }
  if (!s.failures.empty()) {
    out << "\nfirst failing seeds (" << s.failures.size() << " of " << s.failing_runs
        << "):\n";
    for (const auto& f : s.failures) {
      out << "  " << failure_text(f) << "\n    " << shrink_command_line(o, f.seed) << "\n";
    }
  }
  out << "\ndigest " << sim::hash_hex(s.digest) << " (equal digests: identical traces)\n";
  if (!expect_line.empty()) out << expect_line << "\n";
  out << std::fixed << std::setprecision(2) << "time: " << s.seconds << " s on " << s.jobs
      << " job(s), " << std::setprecision(0) << s.runs_per_second() << " runs/s, "
      << s.steps_per_second() << " steps/s\n";
}

nlohmann::ordered_json failure_json(const SweepCommandOptions& o, const lab::SweepFailure& f) {
  nlohmann::ordered_json j;
  j["seed"] = f.seed;
  j["verdict"] = f.verdict;
  j["lost"] = f.lost;
  j["duplicated"] = f.duplicated;
  j["phantom"] = f.phantom;
  j["stuck"] = f.stuck;
  j["balance_expected"] = f.balance_expected;
  j["balance_actual"] = f.balance_actual;
  j["faults_fired"] = f.faults;
  j["steps"] = f.steps;
  j["trace_hash"] = sim::hash_hex(f.trace_hash);
  j["shrink"] = shrink_command_line(o, f.seed);
  return j;
}

void write_json(const SweepCommandOptions& o, const lab::Scenario& scenario,
                const lab::SweepSummary& s, bool expect_met, std::ostream& out) {
  nlohmann::ordered_json j;
  j["scenario"] = scenario.name;
  j["file"] = o.file;
  j["seeds"] = {{"first", s.first_seed}, {"last", s.last_seed}};
  j["strategy"] = scenario.consumer.strategy;
  j["producer"] = scenario.producer.pattern;
  j["faults"] = lab::fault_spec_text(s.ratios);
  j["budget"] = s.budget;
  j["horizon"] = s.horizon;
  j["runs"] = s.runs;
  j["verdicts"] = s.verdicts;
  j["failing_runs"] = s.failing_runs;
  j["first_failure"] = s.failures.empty()
                           ? nlohmann::ordered_json(nullptr)
                           : nlohmann::ordered_json{{"seed", s.failures.front().seed},
                                                    {"verdict", s.failures.front().verdict}};
  j["failures"] = nlohmann::ordered_json::array();
  for (const auto& f : s.failures) j["failures"].push_back(failure_json(o, f));
  j["faults_fired"] = s.faults_fired;
  j["faults_by_action"] = s.faults_by_action;
  j["steps"] = s.steps;
  j["step_bound_hits"] = s.step_bound_hits;
  j["digest"] = sim::hash_hex(s.digest);
  j["expect"] =
      o.expect.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(o.expect);
  j["expect_met"] = expect_met;
  // Timing last: everything above is the same for any --jobs.
  j["jobs"] = s.jobs;
  j["seconds"] = s.seconds;
  j["runs_per_s"] = s.runs_per_second();
  j["steps_per_s"] = s.steps_per_second();
  out << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

// A one-line bar on a terminal's stderr, redrawn in place and wiped at the end.
void draw_progress(std::ostream& err, std::uint64_t done, std::uint64_t total) {
  constexpr int kWidth = 30;
  const int filled = total == 0 ? kWidth : static_cast<int>(kWidth * done / total);
  err << "\r[" << std::string(static_cast<std::size_t>(filled), '#')
      << std::string(static_cast<std::size_t>(kWidth - filled), '.') << "] " << done << "/"
      << total << " seeds" << std::flush;
  if (done == total) err << "\r" << std::string(kWidth + 40, ' ') << "\r" << std::flush;
}

}  // namespace

bool parse_seed_range(const std::string& text, std::uint64_t& first, std::uint64_t& last,
                      std::string& error) {
  const auto dots = text.find("..");
  const bool ok = dots == std::string::npos
                      ? parse_u64(text, first) && (last = first, true)
                      : parse_u64(std::string_view(text).substr(0, dots), first) &&
                            parse_u64(std::string_view(text).substr(dots + 2), last);
  if (!ok || first > last) {
    error = "--seeds must be A..B with A <= B (or one seed N), got '" + text + "'";
    return false;
  }
  return true;
}

bool load_for_seeds(const std::string& file, const std::string& strategy,
                    const std::string& producer, const std::string& faults,
                    lab::Scenario& scenario, lab::SweepOptions& sweep, std::ostream& err) {
  std::string error;
  if (!check_overrides(strategy, producer, error)) {
    err << "eosim: " << error << '\n';
    return false;
  }
  if (!faults.empty()) {
    std::map<std::string, sim::Ratio> ratios;
    if (!lab::parse_fault_spec(faults, ratios, error)) {
      err << "eosim: --faults: " << error << '\n';
      return false;
    }
    sweep.ratios = std::move(ratios);
  }
  lab::LoadError load_error;
  if (!lab::load_scenario(file, scenario, load_error)) {
    err << load_error.to_string() << '\n';
    return false;
  }
  scenario = lab::with_overrides(std::move(scenario), std::nullopt, strategy, producer);
  return true;
}

int sweep_command(const SweepCommandOptions& options, std::ostream& out, std::ostream& err) {
  lab::SweepOptions sweep;
  std::string error;
  if (!parse_seed_range(options.seeds, sweep.first_seed, sweep.last_seed, error)) {
    err << "eosim: " << error << '\n';
    return kExitBadInput;
  }
  if (!options.expect.empty() && !lab::valid_sweep_expectation(options.expect)) {
    err << "eosim: --expect must be a verdict (exactly-once, duplicated, lost, phantom, "
           "stuck) or `violation`, got '"
        << options.expect << "'\n";
    return kExitBadInput;
  }
  lab::Scenario scenario;
  if (!load_for_seeds(options.file, options.strategy, options.producer, options.faults,
                      scenario, sweep, err)) {
    return kExitBadInput;
  }
  sweep.jobs = options.jobs;
  sweep.keep_failures = options.show_failures;
  if (options.progress) {
    sweep.progress = [&err](std::uint64_t done, std::uint64_t total) {
      draw_progress(err, done, total);
    };
  }

  lab::SweepSummary summary;
  const auto started = std::chrono::steady_clock::now();
  if (!lab::sweep(scenario, sweep, summary, error)) {
    err << "eosim: internal error: " << error << '\n';
    return kExitInternal;
  }
  summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  bool met = true;
  std::string expect_line;
  if (!options.expect.empty()) {
    std::string why;
    met = lab::sweep_expectation_met(summary, options.expect, why);
    expect_line = "expect " + options.expect + ": " + (met ? "met" : "NOT met") + " (" + why + ")";
  }
  if (options.format == "json") {
    write_json(options, scenario, summary, met, out);
  } else {
    write_text(options, scenario, summary, expect_line, out);
  }
  out.flush();
  return met ? kExitOk : kExitExpectFailed;
}

}  // namespace cli
