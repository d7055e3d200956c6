// `eosim shrink`: take the failing run of one seed (with the same random faults a sweep
// gives it), shrink its faults to a minimal set (search/shrink.h) and write the result as a
// scenario file with explicit [[faults.script]] rules, [expect] and an `about` story.
//
// With -o the file is written there and the report goes to stdout; without it the TOML
// goes to stdout (so `> minimal.toml` works) and the report to stderr.

#include <chrono>
#include <iomanip>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/search/shrink.h"
#include "src/search/sweep.h"

namespace cli {

namespace {

void write_report(const ShrinkCommandOptions& o, const lab::Scenario& run,
                  const lab::ShrinkResult& r, double seconds, std::ostream& out) {
  const lab::Report& original = r.original.report;
  out << "shrink of " << lab::printable(run.name) << " (" << lab::printable(o.file) << "), seed " << run.seed << "\n";
  out << "  strategy " << run.consumer.label() << ", producer " << run.producer.label()
      << ", random faults "
      << (run.random.ratios.empty() ? "none" : lab::fault_spec_text(run.random.ratios)) << "\n";
  // The minimal file keeps only faults that fired; say which of the file's did not.
  for (const lab::UnfiredRule& u : r.original.unfired) {
    out << "WARNING: " << lab::unfired_text(u) << " in the original run\n";
  }
  out << "original run: " << original.verdict << " with " << r.original.faults.size()
      << " fault(s):\n";
  for (const auto& rule : r.candidates) out << "  - " << lab::story_line(rule) << "\n";
  out << "minimal: " << r.minimal.size() << " fault(s) give "
      << r.reproduced.report.verdict << " (balance expected "
      << r.reproduced.report.balance_expected << ", actual "
      << r.reproduced.report.balance_actual << ")";
  out << (r.seed == run.seed ? ", same seed\n"
                             : ", with seed " + std::to_string(r.seed) +
                                   " (the violation is a race: it needs that schedule)\n");
  for (const auto& rule : r.minimal) out << "  - " << lab::story_line(rule) << "\n";
  out << std::fixed << std::setprecision(2) << "searched " << r.runs << " runs in " << seconds
      << " s\n";
}

}  // namespace

int shrink_command(const ShrinkCommandOptions& options, std::ostream& out, std::ostream& err) {
  lab::Scenario scenario;
  lab::SweepOptions sweep;
  if (!load_for_seeds(options.file, options.overrides, options.faults, scenario, sweep, err)) {
    return kExitBadInput;
  }
  if (const eosim::Status checked = check_output_file(options.output, {options.file}, options.force);
      !checked.ok()) {
    err << "eosim: " << lab::printable(checked.message) << '\n';
    return kExitBadInput;
  }
  // Exactly the run `eosim sweep` gave this seed - or, with --as-run, `eosim run`.
  const lab::Scenario run =
      options.as_run ? lab::apply_overrides(scenario, {.seed = options.seed}).value()
                     : lab::sweep_scenario(scenario, sweep, options.seed);

  const auto started = std::chrono::steady_clock::now();
  lab::ShrinkResult result;
  const eosim::Result<lab::ShrinkStatus> status = lab::shrink(run, {}, result);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!status.ok()) {
    return report_failure(err, status.status());
  }
  if (status.value() != lab::ShrinkStatus::kShrunk) {
    err << "eosim shrink: " << result.why << '\n';
    return kExitExpectFailed;
  }

  std::ostream& report = options.output.empty() ? err : out;
  write_report(options, run, result, seconds, report);
  if (options.output.empty()) {
    out << result.toml;
    out.flush();
    return kExitOk;
  }
  if (const eosim::Status written = write_output_file(options.output, result.toml, options.force);
      !written.ok()) {
    err << "eosim: " << lab::printable(written.message) << '\n';
    return kExitBadInput;
  }
  report << "wrote " << options.output << "; replay it with: "
         << as_invoked(lab::replay_command(options.output, result.seed, "", "")) << "\n";
  report.flush();
  return kExitOk;
}

}  // namespace cli
