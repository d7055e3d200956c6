// `eosim explore`: the exhaustive search of search/explore.h over a small workload - every
// placement of up to K faults, plus up to D changed scheduler decisions - with a report
// of the tree's size, the distinct outcomes and the first counterexample, written as a
// scenario file (through shrink) when a file can carry it.

#include <chrono>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/cli/progress_line.h"
#include "src/catalog/catalog.h"
#include "src/catalog/fault_sites.h"
#include "src/orders/order_key.h"
#include "src/search/explore.h"
#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/search/sweep.h"

namespace cli {

namespace {

using orders::list_text;

std::string outcome_text(const lab::OutcomeClass& c) {
  std::string text(verdict_name(c.verdict));
  const std::pair<const char*, const std::vector<std::int64_t>*> lists[] = {
      {"lost", &c.lost}, {"duplicated", &c.duplicated}, {"phantom", &c.phantom},
      {"stuck", &c.stuck}, {"effects_duplicated", &c.effect_duplicated}};
  for (const auto& [name, list] : lists) {
    if (!list->empty()) text += ", " + std::string(name) + " " + list_text(*list);
  }
  return text + ", balance " + std::to_string(c.balance);
}

bool parse_kinds(const std::string& text, std::set<sim::FaultAction>& kinds,
                 std::ostream& err) {
  std::stringstream in(text);
  for (std::string kind; std::getline(in, kind, ',');) {
    const std::optional<lab::Action> action = lab::parse_action(kind);
    if (!action) {
      err << "eosim: --kinds: unknown fault kind '" << kind
          << "'; valid kinds: " << lab::join_names(lab::fault_kinds()) << '\n';
      return false;
    }
    kinds.insert(*action);
  }
  return true;
}

struct Counterexample {
  lab::ShrinkStatus status = lab::ShrinkStatus::kNoViolation;
  lab::ShrinkResult file;
  std::string why;  // when it could not be written as a file
};

// --compare: the same search without merging, for the reduction factor and a check that
// both reach the same outcome classes.
struct Comparison {
  bool done = false;
  std::uint64_t runs = 0;     // schedules the search without merging ran
  bool same_outcomes = false; // the same outcome classes (verdict, balance, order lists)
  double seconds = 0;
};

std::set<std::string> outcome_classes(const lab::ExploreResult& r) {
  std::set<std::string> out;
  for (const auto& c : r.outcomes) out.insert(outcome_text(c));
  return out;
}

double reduction(const lab::ExploreResult& r, const Comparison& cmp) {
  return r.runs > 0 ? static_cast<double>(cmp.runs) / static_cast<double>(r.runs) : 0.0;
}

void write_merge_text(const ExploreCommandOptions& o, const lab::ExploreResult& r,
                      const Comparison& cmp, std::ostream& out) {
  if (o.no_merge) return;
  out << "state merging: " << r.merged
      << " fault placement(s) not run: an earlier one went on from the same run state "
         "(tables, broker, actors, frames, pending events, draws to come, rules) with the "
         "same fault budget\n";
  if (r.pruned > 0) {
    out << "pruned: " << r.pruned
        << " fault placement(s) before a schedule change not run, nor anything placed after "
           "them: they end nowhere the fault alone or the change alone does not (keyed "
           "draws)\n";
  }
  if (r.merge_abandoned) {
    out << "  (off after all: a run reached the step bound, where merging is not exact, so "
           "the search ran again without it; the first pass's "
        << r.merge_first_pass_runs << " runs were discarded)\n";
  }
  if (cmp.done) {
    out << std::fixed << std::setprecision(2) << "  without merging (--compare): " << cmp.runs
        << " schedules in " << cmp.seconds << " s, reduction " << reduction(r, cmp)
        << "x, outcome classes " << (cmp.same_outcomes ? "the same" : "DIFFERENT") << "\n"
        << std::defaultfloat;
  }
}

void write_text(const ExploreCommandOptions& o, const lab::Scenario& s,
                const lab::ExploreResult& r, const Counterexample& ce, const Comparison& cmp,
                const std::string& expect_line, std::ostream& out) {
  out << "explore of " << lab::printable(s.name) << " (" << lab::printable(o.file) << ")\n";
  out << "  " << s.workload.orders << " order(s), strategy " << s.consumer.label()
      << ", producer " << s.producer.label() << ", " << s.consumer.instances
      << " consumer(s), seed " << s.seed << ", draws " << sim::name_of(s.draws) << "\n";
  out << "  up to " << o.max_faults << " fault(s) of kinds "
      << (o.kinds.empty() ? "every kind" : o.kinds) << ", up to " << o.max_deviations
      << " changed scheduler decision(s), at most " << o.max_runs << " runs\n";
  out << "the fault-free run passes " << r.base_opportunities << " fault opportunities and "
      << r.base_choice_points << " scheduler choice points (" << r.base_alternatives
      << " other options)\n\n";
  out << "schedules explored: " << r.runs << " (" << r.distinct << " distinct executions, "
      << r.duplicates << " duplicates not expanded)\n";
  write_merge_text(o, r, cmp, out);
  for (std::size_t k = 0; k < r.runs_by_faults.size(); ++k) {
    out << "  with " << k << " added fault(s): " << r.runs_by_faults[k] << "\n";
  }
  for (std::size_t d = 1; d < r.runs_by_changes.size(); ++d) {
    out << "  with " << d << " changed decision(s): " << r.runs_by_changes[d] << "\n";
  }
  if (!s.script.empty()) {
    // The file's own rules are in every run; a written counterexample counts them too.
    out << "  (every run also has the file's " << s.script.size() << " scripted fault(s))\n";
  }
  if (r.truncated) {
    out << "  TRUNCATED at --max-runs: the tree is larger; raise --max-runs or lower "
           "--max-faults / --max-deviations\n";
  }
  out << "distinct outcomes: " << r.outcomes.size() << "\n";
  for (const auto& c : r.outcomes) {
    out << "  " << c.executions << " x " << outcome_text(c) << "\n";
    if (c.verdict != lab::Verdict::kExactlyOnce) {
      out << "      e.g. " << lab::path_text(c.example) << "\n";
    }
  }
  out << "violations: " << r.violations << "\n";
  if (r.incomplete > 0) {
    out << "incomplete (ended at the step bound): " << r.incomplete << "\n";
  }
  if (r.first_violation) {
    out << "first counterexample: " << lab::path_text(*r.first_violation) << "\n";
    if (ce.status == lab::ShrinkStatus::kShrunk) {
      out << "  as a scenario (" << ce.file.minimal.size() << " fault(s), seed " << ce.file.seed
          << "): "
          << (o.output.empty() ? "run with -o FILE to write it"
                               : "written to " + o.output + "; replay it with: " +
                                     as_invoked(lab::replay_command(o.output, ce.file.seed, "", "")))
          << "\n";
    } else {
      out << "  not expressible as a scenario file: " << ce.why << "\n";
    }
  }
  if (!expect_line.empty()) out << expect_line << "\n";
  out << std::fixed << std::setprecision(2) << "time: " << r.seconds << " s on " << r.jobs
      << " job(s), " << std::setprecision(0)
      << (r.seconds > 0 ? static_cast<double>(r.runs) / r.seconds : 0.0) << " runs/s\n";
}

void write_json(const ExploreCommandOptions& o, const lab::Scenario& s,
                const lab::ExploreResult& r, const Counterexample& ce, const Comparison& cmp,
                bool met, std::ostream& out) {
  nlohmann::ordered_json j;
  j["scenario"] = s.name;
  j["file"] = o.file;
  j["max_faults"] = o.max_faults;
  j["max_deviations"] = o.max_deviations;
  j["kinds"] = o.kinds;
  j["base_opportunities"] = r.base_opportunities;
  j["base_choice_points"] = r.base_choice_points;
  j["base_alternatives"] = r.base_alternatives;
  j["schedules"] = r.runs;
  j["distinct"] = r.distinct;
  j["duplicates"] = r.duplicates;
  if (!o.no_merge) {  // --no-merge prints exactly what explore printed before merging
    j["merge_states"] = true;
    j["merged"] = r.merged;
    j["pruned"] = r.pruned;
    j["merge_abandoned"] = r.merge_abandoned;
    j["merge_first_pass_runs"] = r.merge_first_pass_runs;
  }
  if (s.draws != sim::Draws::kSequence) j["draws"] = sim::name_of(s.draws);
  if (cmp.done) {
    j["unmerged_schedules"] = cmp.runs;
    j["reduction"] = reduction(r, cmp);
    j["same_outcomes"] = cmp.same_outcomes;
    j["unmerged_seconds"] = cmp.seconds;
  }
  j["runs_by_faults"] = r.runs_by_faults;
  j["runs_by_changes"] = r.runs_by_changes;
  j["truncated"] = r.truncated;
  j["outcomes"] = nlohmann::ordered_json::array();
  for (const auto& c : r.outcomes) {
    nlohmann::ordered_json outcome;
    lab::put_violations(outcome, c);
    outcome["balance"] = c.balance;
    outcome["executions"] = c.executions;
    outcome["example"] = lab::path_text(c.example);
    j["outcomes"].push_back(std::move(outcome));
  }
  j["violations"] = r.violations;
  j["incomplete"] = r.incomplete;
  j["first_counterexample"] =
      r.first_violation ? nlohmann::ordered_json(lab::path_text(*r.first_violation))
                        : nlohmann::ordered_json(nullptr);
  j["counterexample_toml"] = ce.status == lab::ShrinkStatus::kShrunk
                                 ? nlohmann::ordered_json(ce.file.toml)
                                 : nlohmann::ordered_json(nullptr);
  j["expect"] = o.expect.empty() ? nlohmann::ordered_json(nullptr)
                                 : nlohmann::ordered_json(o.expect);
  j["expect_met"] = met;
  j["jobs"] = r.jobs;
  j["seconds"] = r.seconds;
  out << j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
}

}  // namespace

int explore_command(const ExploreCommandOptions& options, std::ostream& out,
                    std::ostream& err) {
  if (options.max_faults < 0 || options.max_faults > 6 || options.max_deviations < 0 ||
      options.max_deviations > 4) {
    err << "eosim: --max-faults must be 0..6 and --max-deviations 0..4 (the tree grows as "
           "opportunities^K)\n";
    return kExitBadInput;
  }
  const std::optional<lab::Expectation> expect = lab::parse_expectation(options.expect);
  if (!options.expect.empty() &&
      (!expect || !(expect->violation || expect->verdict == lab::Verdict::kExactlyOnce))) {
    err << "eosim: --expect must be exactly-once or violation, got '" << options.expect
        << "'\n";
    return kExitBadInput;
  }
  lab::ExploreOptions explore;
  if (!parse_kinds(options.kinds, explore.kinds, err)) return kExitBadInput;
  lab::Scenario scenario;
  lab::SweepOptions unused;
  if (!load_for_seeds(options.file, options.overrides, "", scenario, unused, err)) {
    return kExitBadInput;
  }
  if (!options.draws.empty()) {
    const std::optional<sim::Draws> draws = sim::value_named<sim::Draws>(options.draws);
    if (!draws) {
      err << "eosim: --draws must be one of: " << sim::names_list<sim::Draws>() << ", got '"
          << lab::printable(options.draws) << "'\n";
      return kExitBadInput;
    }
    scenario.draws = *draws;  // the root, every run and a written counterexample
  }
  if (const eosim::Status checked = check_output_file(options.output, {options.file}, options.force);
      !checked.ok()) {
    err << "eosim: " << lab::printable(checked.message) << '\n';
    return kExitBadInput;
  }
  explore.max_faults = options.max_faults;
  explore.max_deviations = options.max_deviations;
  explore.max_runs = options.max_runs;
  explore.merge_states = !options.no_merge;
  explore.jobs = options.jobs;
  ProgressLine progress(err, options.progress, options.terminal);
  if (progress.on()) {
    explore.progress = [&progress](std::uint64_t runs, std::uint64_t known) {
      progress.show(std::to_string(runs) + " runs, " + std::to_string(known) +
                    " schedules known");
    };
  }

  lab::ExploreResult result;
  const auto started = std::chrono::steady_clock::now();
  const eosim::Status explored = lab::explore(scenario, explore, result);
  progress.clear();
  if (!explored.ok()) return report_failure(err, explored);
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  Comparison cmp;
  if (options.compare && explore.merge_states) {
    lab::ExploreOptions plain = explore;
    plain.merge_states = false;
    lab::ExploreResult unmerged;
    const auto begun = std::chrono::steady_clock::now();
    const eosim::Status plain_explored = lab::explore(scenario, plain, unmerged);
    progress.clear();
    if (!plain_explored.ok()) return report_failure(err, plain_explored);
    cmp.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begun).count();
    cmp.done = true;
    cmp.runs = unmerged.runs;
    cmp.same_outcomes = outcome_classes(unmerged) == outcome_classes(result);
  }

  Counterexample ce;
  if (result.first_violation) {
    const eosim::Result<lab::ShrinkStatus> shrunk =
        lab::counterexample(scenario, *result.first_violation, ce.file);
    if (!shrunk.ok()) {
      return report_failure(err, shrunk.status());
    }
    ce.status = shrunk.value();
    ce.why = ce.file.why;
    if (ce.status == lab::ShrinkStatus::kShrunk && !options.output.empty()) {
      if (const eosim::Status written =
              write_output_file(options.output, ce.file.toml, options.force);
          !written.ok()) {
        err << "eosim: " << lab::printable(written.message) << '\n';
        return kExitBadInput;
      }
    }
  }
  bool met = true;
  std::string expect_line;
  if (expect) {
    std::string why;
    met = lab::explore_expectation_met(result, *expect, why);
    expect_line = "expect " + options.expect + ": " + (met ? "met" : "NOT met") + " (" + why + ")";
  }
  if (options.format == "json") {
    write_json(options, scenario, result, ce, cmp, met, out);
  } else {
    write_text(options, scenario, result, ce, cmp, expect_line, out);
  }
  out.flush();
  return met ? kExitOk : kExitExpectFailed;
}

}  // namespace cli
