// `eosim compare`: two runs of the model side by side - two scenario files, or one file
// under two consumer strategies (--strategy X --vs Y), as the GUI's compare mode - and
// where their traces part. Text says it in a few lines; html is one page with both runs
// on one slider (web/compare_page.h).

#include <iostream>

#include "src/cli/commands.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/scenario/scenario.h"
#include "src/session/session.h"
#include "src/web/compare_page.h"
#include "src/web/step_states.h"
#include "src/world/world.h"

namespace cli {
namespace {

// One side of the comparison: its scenario as run, the run, its trace.
struct Side {
  std::string file;
  lab::Scenario scenario;
  lab::RunSummary run;
  std::vector<std::string> unmet;
  std::vector<sim::TraceEvent> trace;
  lab::ScenarioOverrides overrides;  // the seed and strategy it ran with
  std::string replay;
};

// Loads and runs `side.file` with `side.overrides`. An exit code: 0, 2 (bad input) or 3.
int load_and_run(Side& side, std::ostream& err) {
  eosim::Result<lab::Scenario> loaded = lab::load_scenario(side.file);
  if (!loaded.ok()) {
    err << loaded.message() << '\n';
    return kExitBadInput;
  }
  const std::string file_strategy = loaded.value().consumer.strategy;
  // No fault rule to read: the overrides here cannot fail.
  side.scenario =
      std::move(lab::apply_overrides(std::move(loaded.value()), side.overrides).value());
  // A run under another strategy is not headed by the file's ("... (atomic)" run no-dedup).
  side.scenario.name =
      web::run_name(side.scenario.name, file_strategy, side.scenario.consumer.strategy);
  if (eosim::Status checked = lab::check_script(side.scenario); !checked.ok()) {
    err << checked.message << '\n';
    return kExitBadInput;
  }
  lab::WorldOptions world;
  world.keep_trace = true;
  world.record_tape = false;
  world.storage = lab::auto_storage(side.scenario);
  if (const eosim::Status ran = lab::run_scenario(side.scenario, world, side.run, &side.trace);
      !ran.ok()) {
    return report_failure(err, ran.prefixed(side.file + ": "));
  }
  side.unmet = lab::unmet_expectations(side.scenario, side.run);
  side.replay = lab::replay_command(side.file, side.run.seed, side.overrides.strategy, "");
  return kExitOk;
}

void print_text(const Side& left, const Side& right, std::ostream& out) {
  const lab::Divergence d = lab::first_divergence(left.trace, right.trace);
  for (const Side* side : {&left, &right}) {
    out << (side == &left ? "left:  " : "right: ") << lab::printable(side->scenario.name)
        << ", consumer " << side->run.strategy << ", seed " << side->run.seed << ": "
        << side->run.steps << " steps, verdict " << side->run.report.verdict << '\n';
  }
  out << web::parting_text(d) << '\n';
  if (d.diverged) {
    out << "  left:  " << web::parting_event(d, left.trace) << '\n'
        << "  right: " << web::parting_event(d, right.trace) << '\n';
  }
  out << "replay: " << as_invoked(left.replay) << "\n        " << as_invoked(right.replay) << '\n';
}

// The page, from the runs walked step by step through the session the GUI uses; each walk
// must be the run just made (eosim's bug otherwise, as for `run --format html`).
eosim::Status print_page(const Side& left, const Side& right, std::ostream& out) {
  web::StepStates steps[2];
  const Side* sides[] = {&left, &right};
  for (int i = 0; i < 2; ++i) {
    if (eosim::Status walked = web::walk_steps(sides[i]->scenario, steps[i]); !walked.ok()) {
      return walked;
    }
    if (steps[i].steps != sides[i]->run.steps) {
      return eosim::Status::error(sides[i]->file + ": the stepped run took " +
                                  std::to_string(steps[i].steps) + " steps, the run " +
                                  std::to_string(sides[i]->run.steps));
    }
  }
  const lab::RunRecord records[] = {{left.scenario, left.run, left.unmet, left.replay},
                                    {right.scenario, right.run, right.unmet, right.replay}};
  diagram::SvgOptions svg;
  svg.width = web::kCompareDiagramWidth;
  out << web::compare_page({records[0], steps[0]}, {records[1], steps[1]}, svg);
  return eosim::Status::success();
}

}  // namespace

int compare_command(const CompareOptions& options, std::ostream& out, std::ostream& err) {
  if (options.files.size() == 1 && options.vs.empty()) {
    err << "eosim: compare needs two runs: give two scenario files, or one file and --vs "
           "STRATEGY (its run under another consumer strategy)\n";
    return kExitBadInput;
  }
  for (const std::string* strategy : {&options.strategy, &options.vs}) {
    if (const eosim::Status checked = lab::check_overrides({.strategy = *strategy});
        !checked.ok()) {
      err << "eosim: " << lab::printable(checked.message) << '\n';
      return kExitBadInput;
    }
  }
  Side left, right;
  left.file = options.files.front();
  right.file = options.files.back();
  left.overrides = {.seed = options.seed, .strategy = options.strategy};
  right.overrides = {.seed = options.seed,
                     .strategy = options.vs.empty() ? options.strategy : options.vs};
  for (Side* side : {&left, &right}) {
    if (const int code = load_and_run(*side, err); code != kExitOk) return code;
  }
  if (options.format == "html") {
    if (const eosim::Status printed = print_page(left, right, out); !printed.ok()) {
      err << "eosim: internal error: " << printed.message << '\n';
      return kExitInternal;
    }
  } else {
    print_text(left, right, out);
  }
  out.flush();
  return out ? kExitOk : kExitInternal;
}

}  // namespace cli
