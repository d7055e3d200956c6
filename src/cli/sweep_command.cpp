// `eosim sweep`: run one scenario over a range of seeds with random faults (search/sweep.h),
// print the count per verdict, the first failing seeds (each with the command that shrinks
// it), runs/s and steps/s, and turn --expect into the exit code.
//
// The report is identical for any --jobs except its last line (timing), which is also the
// only place the thread count appears. With --shard I/N it covers one slice of the range,
// and `eosim merge` (merge_command.cpp) adds the slices' JSON results back up.

#include <charconv>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/sweep_report.h"
#include "src/files/output_file.h"
#include "src/report/report_format.h"
#include "src/search/sweep.h"

namespace cli {

namespace {

bool parse_u64(std::string_view text, std::uint64_t& out) {
  const char* end = text.data() + text.size();
  const auto [stop, ec] = std::from_chars(text.data(), end, out);
  return !text.empty() && ec == std::errc() && stop == end;
}

// `eosim shrink 'FILE' --seed N ...` with the same overrides as the sweep.
std::string shrink_command_line(const SweepCommandOptions& o, std::uint64_t seed) {
  std::string line = lab::replay_command(o.file, seed, o.strategy, o.producer, o.choices);
  line.replace(0, std::string("eosim run").size(), "eosim shrink");
  if (!o.faults.empty()) line += " --faults " + o.faults;
  return line;
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

eosim::Status parse_seed_range(const std::string& text, std::uint64_t& first, std::uint64_t& last) {
  const auto dots = text.find("..");
  const bool ok = dots == std::string::npos
                      ? parse_u64(text, first) && (last = first, true)
                      : parse_u64(std::string_view(text).substr(0, dots), first) &&
                            parse_u64(std::string_view(text).substr(dots + 2), last);
  if (!ok || first > last) {
    return eosim::Status::error("--seeds must be A..B with A <= B (or one seed N), got '" + text +
                                "'");
  }
  return eosim::Status::success();
}

bool load_for_seeds(const std::string& file, const std::string& strategy,
                    const std::string& producer, const lab::ChoiceFlags& choices,
                    const std::string& faults, lab::Scenario& scenario,
                    lab::SweepOptions& sweep, std::ostream& err) {
  eosim::Status checked = check_overrides(strategy, producer);
  if (checked.ok()) checked = lab::check_choice_flags(choices);
  if (!checked.ok()) {
    err << "eosim: " << checked.message << '\n';
    return false;
  }
  if (!faults.empty()) {
    std::map<std::string, sim::Ratio> ratios;
    if (const eosim::Status parsed = lab::parse_fault_spec(faults, ratios); !parsed.ok()) {
      err << "eosim: --faults: " << parsed.message << '\n';
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
  lab::apply_choice_flags(choices, scenario);
  if (!lab::check_script(scenario, load_error)) {
    err << load_error.to_string() << '\n';
    return false;
  }
  return true;
}

eosim::Status parse_shard(const std::string& text, std::uint64_t& index, std::uint64_t& count) {
  const auto slash = text.find('/');
  const bool ok = slash != std::string::npos &&
                  parse_u64(std::string_view(text).substr(0, slash), index) &&
                  parse_u64(std::string_view(text).substr(slash + 1), count) && count > 0 &&
                  index < count;
  if (!ok) return eosim::Status::error("--shard must be I/N with 0 <= I < N, got '" + text + "'");
  return eosim::Status::success();
}

namespace {

// Narrows `sweep` to the shard's slice; false (with `error`) when the range has fewer
// seeds than shards.
eosim::Status apply_shard(const std::string& text, lab::SweepOptions& sweep,
                          std::optional<SweepShard>& shard) {
  if (text.empty()) return eosim::Status::success();
  SweepShard s{0, 1, sweep.first_seed, sweep.last_seed};
  if (eosim::Status parsed = parse_shard(text, s.index, s.count); !parsed.ok()) return parsed;
  if (!lab::shard_range(s.first_seed, s.last_seed, s.index, s.count, sweep.first_seed,
                        sweep.last_seed)) {
    return eosim::Status::error("--shard " + text + ": seeds " + std::to_string(s.first_seed) +
                                ".." + std::to_string(s.last_seed) + " are fewer than " +
                                std::to_string(s.count) + " shards");
  }
  shard = s;
  return eosim::Status::success();
}

}  // namespace

int sweep_command(const SweepCommandOptions& options, std::ostream& out, std::ostream& err) {
  lab::SweepOptions sweep;
  SweepReport report;
  eosim::Status parsed = parse_seed_range(options.seeds, sweep.first_seed, sweep.last_seed);
  if (parsed.ok()) parsed = apply_shard(options.shard, sweep, report.shard);
  if (!parsed.ok()) {
    err << "eosim: " << parsed.message << '\n';
    return kExitBadInput;
  }
  if (!options.expect.empty() && !lab::valid_sweep_expectation(options.expect)) {
    err << "eosim: --expect must be a verdict (exactly-once, duplicated, lost, phantom, "
           "stuck) or `violation`, got '"
        << options.expect << "'\n";
    return kExitBadInput;
  }
  if (const eosim::Status checked =
          files::check_output_file(options.plot, {options.file}, options.force);
      !checked.ok()) {
    err << "eosim: --plot: " << checked.message << '\n';
    return kExitBadInput;
  }
  if (options.plot_x != "ratio" && options.plot_x != "seeds") {
    err << "eosim: --plot-x must be ratio or seeds, got '" << options.plot_x << "'\n";
    return kExitBadInput;
  }
  if (!options.plot.empty() && options.plot_x == "seeds" &&
      sweep.last_seed - sweep.first_seed < 4) {
    err << "eosim: --plot-x seeds draws 5 points: --seeds needs at least 5 seeds\n";
    return kExitBadInput;
  }
  lab::Scenario scenario;
  if (!load_for_seeds(options.file, options.strategy, options.producer, options.choices,
                      options.faults,
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

  const auto started = std::chrono::steady_clock::now();
  if (const eosim::Status swept = lab::sweep(scenario, sweep, report.summary); !swept.ok()) {
    return report_failure(err, swept);
  }
  report.summary.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  report.file = options.file;
  report.strategy = scenario.consumer.label();
  report.producer = scenario.producer.label();
  report.max_steps = lab::step_bound(scenario);
  report.expect = options.expect;
  for (const auto& f : report.summary.failures) {
    report.shrink_lines[f.seed] = shrink_command_line(options, f.seed);
  }
  std::string expect_line;
  const bool met = sweep_expectation(report, expect_line);
  if (options.format == "json") {
    write_sweep_json(report, out);
  } else {
    write_sweep_text(report, out);
  }
  out.flush();
  if (!options.plot.empty()) {
    const int plotted = write_sweep_plot(options, scenario, sweep, err);
    if (plotted != kExitOk) return plotted;
    err << "eosim: wrote " << options.plot << '\n';
  }
  // A run whose scripted fault never fired fails as `eosim run` would, --expect or not.
  return met && report.summary.unfired_runs == 0 ? kExitOk : kExitExpectFailed;
}

}  // namespace cli
