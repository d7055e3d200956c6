// `eosim run`: load each scenario file, apply the command-line overrides, run it, print it
// in the chosen format, and turn the outcome into an exit code. A bad file does not stop
// the others: its error is printed, remembered in the exit code, and the suite goes on.

#include <filesystem>
#include <iostream>
#include <set>
#include <system_error>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/diagram/svg.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/report/trace_format.h"
#include "src/scenario/scenario.h"
#include "src/web/run_page.h"
#include "src/world/world.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

bool wants_trace(const std::string& format) {
  return format == "jsonl" || format == "mermaid" || format == "svg";
}

// A picture is one document: svg and html take one scenario file.
bool one_document(const std::string& format) { return format == "svg" || format == "html"; }

// Where --keep-db puts one file's databases: DIR itself for a single file, else one
// subfolder per file stem, unique within the invocation even when stems repeat or collide
// with a numbered one ("x", "x-2", then "x-2" again becomes "x-2-2").
class KeepDbDirs {
 public:
  KeepDbDirs(std::string root, bool per_file, bool force)
      : root_(std::move(root)), per_file_(per_file), force_(force) {}

  // "" when --keep-db was not given. An error when the folder cannot take the
  // run's databases (files.h: nothing is replaced without --force).
  eosim::Status next(const std::string& file, const lab::Scenario& scenario, std::string& dir) {
    dir.clear();
    if (root_.empty()) return eosim::Status::success();
    fs::path path(root_);
    if (per_file_) path /= unique_folder_name(fs::path(file).stem().string(), used_);
    if (eosim::Status prepared =
            prepare_keep_db_dir(path.string(), lab::database_files(scenario), force_);
        !prepared.ok()) {
      return prepared;
    }
    dir = path.string();
    return eosim::Status::success();
  }

 private:
  std::string root_;
  bool per_file_;
  bool force_;
  std::set<std::string> used_;
};

// The interactive page: the run again, step by step, through the session the GUI uses.
// It must be the run just made (same scenario, same seed): a different length would mean
// the page shows another run than the report, which is eosim's bug, not the user's.
eosim::Status print_page(const lab::RunRecord& record, const diagram::SvgOptions& svg,
                         std::ostream& out) {
  web::StepStates steps;
  if (eosim::Status walked = web::walk_steps(record.scenario, steps); !walked.ok()) return walked;
  if (steps.steps != record.run.steps) {
    return eosim::Status::error("the stepped run took " + std::to_string(steps.steps) +
                                " steps, the run " + std::to_string(record.run.steps));
  }
  out << web::run_page(record, steps, svg);
  return eosim::Status::success();
}

void print_record(const RunOptions& options, const lab::RunRecord& record,
                  const std::vector<sim::TraceEvent>& trace, bool first, std::ostream& out) {
  const lab::TextStyle style{options.colour, 88};
  diagram::SvgOptions svg;
  svg.title = record.scenario.name;
  if (options.format == "svg") {
    out << diagram::sequence_svg(trace, lab::diagram_lanes(record.scenario), svg);
  } else if (options.format == "json") {
    out << lab::report_json_line(record) << '\n';
  } else if (options.format == "jsonl") {
    lab::write_report_jsonl(out, record, trace);
  } else if (options.format == "mermaid") {
    if (!first) out << '\n';
    lab::write_report_mermaid(out, record, trace);
  } else if (options.quiet) {
    out << lab::format_verdict_line(record, style);
  } else {
    if (!first) out << '\n' << std::string(88, '-') << "\n\n";
    if (options.trace) {
      out << "trace of " << lab::printable(record.scenario.name) << " (step, virtual time, actor, event):\n";
      lab::write_trace_text(out, trace, orders::kKeyNames);
      out << '\n';
    }
    out << lab::format_report_text(record, style);
  }
  out.flush();
}

// The command that replays a run of `file`: on the terminal with the program as the user
// invoked it, in a page or JSON as `eosim` (they are read elsewhere).
std::string replay_line(const RunOptions& options, const std::string& file, std::uint64_t seed) {
  const std::string replay =
      lab::replay_command(file, seed, options.overrides.strategy, options.overrides.producer,
                          options.overrides.choices, lab::fault_option_args(options.overrides));
  return options.format == "text" ? as_invoked(replay) : replay;
}

// --fixed: runs the scenario's fixed twin on the same seed and prints the two side by
// side (JSON: the twin's summary as one more line). Returns the exit code it adds.
int run_fixed_twin(const RunOptions& options, const std::string& file,
                   const lab::RunRecord& written, std::vector<lab::SuiteRow>& rows,
                   std::ostream& out, std::ostream& err) {
  eosim::Result<lab::Scenario> built = lab::fixed_twin(written.scenario);
  if (!built.ok()) {
    err << built.message() << '\n';
    return kExitBadInput;
  }
  lab::Scenario& twin = built.value();
  twin.seed = written.run.seed;
  lab::RunSummary run;
  if (const eosim::Status ran = lab::run_scenario(twin, lab::WorldOptions{}, run, nullptr);
      !ran.ok()) {
    return report_failure(err, ran.prefixed(file + ": the fixed twin: "));
  }
  const std::vector<std::string> unmet = lab::unmet_expectations(twin, run);
  const lab::RunRecord record{twin, run, unmet, written.replay + " --fixed"};
  if (options.format == "json") {
    out << lab::report_json_line(record) << '\n';
  } else if (options.format == "text" && !options.quiet) {
    out << lab::format_side_by_side(written, record, lab::TextStyle{options.colour, 88});
    if (!unmet.empty()) {
      out << "fixed twin: expectation NOT met: " << unmet.front() << '\n';
    }
  }
  rows.push_back({twin.name, run.report.verdict, true, unmet.empty(), lab::set_aside_text(run.report)});
  return unmet.empty() ? kExitOk : kExitExpectFailed;
}

}  // namespace

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  if (const eosim::Status checked = lab::check_overrides(options.overrides); !checked.ok()) {
    err << "eosim: " << lab::printable(checked.message) << '\n';
    return kExitBadInput;
  }
  std::vector<std::string> files;
  if (const eosim::Status expanded = expand_inputs(options.inputs, files); !expanded.ok()) {
    err << "eosim: " << lab::printable(expanded.message) << '\n';
    return kExitBadInput;
  }

  if (one_document(options.format) && files.size() != 1) {
    err << "eosim: --format " << options.format << " draws one run: give exactly one scenario "
        << "file (got " << files.size() << ")\n";
    return kExitBadInput;
  }
  int exit_code = kExitOk;
  std::vector<lab::SuiteRow> rows;
  KeepDbDirs keep_db(options.keep_db, files.size() > 1, options.force);
  bool first = true;
  int twins = 0;
  for (const auto& file : files) {
    eosim::Result<lab::Scenario> loaded = lab::load_scenario(file);
    if (!loaded.ok()) {
      err << loaded.message() << '\n';
      exit_code = worse(exit_code, kExitBadInput);
      rows.push_back({file, lab::Verdict::kExactlyOnce, false, false});
      continue;
    }
    lab::Scenario scenario = std::move(loaded.value());
    eosim::Result<lab::Scenario> applied = lab::apply_overrides(scenario, options.overrides);
    if (!applied.ok()) {
      err << "eosim: " << file << ": " << applied.message() << '\n';
      exit_code = worse(exit_code, kExitBadInput);
      rows.push_back({scenario.name, lab::Verdict::kExactlyOnce, false, false});
      continue;
    }
    scenario = std::move(applied.value());
    if (eosim::Status checked = lab::check_script(scenario); !checked.ok()) {
      err << checked.message << '\n';
      exit_code = worse(exit_code, kExitBadInput);
      rows.push_back({scenario.name, lab::Verdict::kExactlyOnce, false, false});
      continue;
    }
    if (options.overrides.seed && scenario.seed_sensitive) {
      err << "eosim: note: " << file << " is seed_sensitive: its lesson shows only for some "
          << "seeds (its about text says why), so seed " << *options.overrides.seed
          << " may not show it\n";
    }

    lab::WorldOptions world;
    world.keep_trace = wants_trace(options.format) || options.trace;
    world.record_tape = false;
    world.storage =
        sim::value_named<lab::DbStorage>(options.db).value_or(lab::auto_storage(scenario));
    if (const eosim::Status kept = keep_db.next(file, scenario, world.keep_db_dir); !kept.ok()) {
      err << "eosim: " << lab::printable(kept.message) << '\n';
      exit_code = worse(exit_code, kExitBadInput);
      rows.push_back({scenario.name, lab::Verdict::kExactlyOnce, false, false});
      continue;
    }

    lab::RunSummary run;
    std::vector<sim::TraceEvent> trace;
    if (const eosim::Status ran =
            lab::run_scenario(scenario, world, run, world.keep_trace ? &trace : nullptr);
        !ran.ok()) {
      exit_code = worse(exit_code, report_failure(err, ran.prefixed(file + ": ")));
      rows.push_back({scenario.name, lab::Verdict::kExactlyOnce, false, false});
      continue;
    }

    const std::vector<std::string> unmet = lab::unmet_expectations(scenario, run);
    const lab::RunRecord record{scenario, run, unmet, replay_line(options, file, run.seed)};
    // Quiet text with several files: the suite table alone says it, one line per file.
    const bool table_only = options.quiet && options.format == "text" && files.size() > 1;
    if (options.format == "html") {
      diagram::SvgOptions svg;
      svg.title = record.scenario.name;
      svg.width = web::kDiagramWidth;
      if (const eosim::Status printed = print_page(record, svg, out); !printed.ok()) {
        err << "eosim: " << file << ": internal error: " << printed.message << '\n';
        exit_code = worse(exit_code, kExitInternal);
        continue;
      }
    } else if (!table_only) {
      print_record(options, record, trace, first, out);
    }
    first = false;
    if (!unmet.empty()) exit_code = worse(exit_code, kExitExpectFailed);
    rows.push_back({scenario.name, run.report.verdict, true, unmet.empty(),
                    lab::set_aside_text(run.report)});
    if (options.fixed && !scenario.fixed.empty()) {
      ++twins;
      exit_code = worse(exit_code, run_fixed_twin(options, file, record, rows, out, err));
    }
  }
  if (options.fixed && twins == 0) {
    err << "eosim: --fixed: no scenario given has a `fixed` key (a fixed twin); `eosim list "
           "scenarios` marks the ones that do\n";
    exit_code = worse(exit_code, kExitBadInput);
  }

  // The suite table is for people; machine formats stay one kind of line each.
  if (options.format == "text" && rows.size() > 1) {
    if (!options.quiet) out << '\n' << std::string(88, '=') << '\n';
    out << lab::format_suite_text(rows, lab::TextStyle{options.colour, 88});
  }
  return exit_code;
}

}  // namespace cli
