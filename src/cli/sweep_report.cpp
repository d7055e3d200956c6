#include "src/cli/sweep_report.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "sim/assert.h"
#include "sim/trace.h"
#include "src/orders/order_key.h"
#include "src/prose/printable.h"
#include "src/scenario/scenario.h"

namespace cli {

namespace {

using Json = nlohmann::ordered_json;

using orders::list_text;

// "seed 4: duplicated [1, 3], stuck [5] after 4 fault(s), 109 steps": the verdict with
// its own orders first, then any other list that is not empty.
std::string failure_text(const lab::SweepFailure& f) {
  using lab::Verdict;
  const std::pair<Verdict, const std::vector<std::int64_t>*> lists[] = {
      {Verdict::kDuplicated, &f.duplicated}, {Verdict::kLost, &f.lost},
      {Verdict::kPhantom, &f.phantom}, {Verdict::kStuck, &f.stuck}};
  std::string text = "seed " + std::to_string(f.seed) + ": " + std::string(verdict_name(f.verdict));
  if (const std::vector<std::int64_t>* named = lab::orders_named(f)) {
    text += " " + list_text(*named);
  }
  for (const auto& [verdict, list] : lists) {
    if (verdict != f.verdict && !list->empty()) {
      text += ", " + std::string(verdict_name(verdict)) + " " + list_text(*list);
    }
  }
  return text + " after " + std::to_string(f.faults) + " fault(s), " +
         std::to_string(f.steps) + " steps";
}

std::string shrink_line(const SweepReport& r, std::uint64_t seed) {
  const auto it = r.shrink_lines.find(seed);
  return it == r.shrink_lines.end() ? "" : it->second;
}

void write_counts_text(const lab::SweepSummary& s, std::int64_t max_steps, std::ostream& out) {
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
  if (s.unfired_runs > 0) {
    out << "WARNING: in " << s.unfired_runs << " of " << s.runs
        << " runs a scripted fault never fired (first: seed " << s.first_unfired_seed << ", "
        << s.first_unfired << ")\n";
  }
  if (s.step_bound_hits > 0) {
    out << "runs that hit max_steps (" << max_steps << "): " << s.step_bound_hits << "\n";
  }
}

Json failure_json(const SweepReport& r, const lab::SweepFailure& f) {
  Json j;
  j["seed"] = f.seed;
  lab::put_violations(j, f);
  j["balance_expected"] = f.balance_expected;
  j["balance_actual"] = f.balance_actual;
  j["faults_fired"] = f.faults;
  j["steps"] = f.steps;
  j["trace_hash"] = sim::hash_hex(f.trace_hash);
  j["shrink"] = shrink_line(r, f.seed);
  return j;
}

}  // namespace

bool sweep_expectation(const SweepReport& r, std::string& line) {
  line.clear();
  if (r.expect.empty()) return true;
  std::string why;
  const std::optional<lab::Expectation> expect = lab::parse_expectation(r.expect);
  EOSIM_ASSERT(expect);  // the command checked --expect (valid_sweep_expectation)
  const bool met = lab::sweep_expectation_met(r.summary, *expect, why);
  line = "expect " + r.expect + ": " + (met ? "met" : "NOT met") + " (" + why + ")";
  return met;
}

void write_sweep_text(const SweepReport& r, std::ostream& out) {
  const lab::SweepSummary& s = r.summary;
  out << "sweep of " << lab::printable(s.scenario) << " (" << lab::printable(r.file) << ")\n";
  out << "  seeds " << s.first_seed << ".." << s.last_seed << ", strategy " << r.strategy
      << ", producer " << r.producer << "\n";
  if (r.shard) {
    out << "  shard " << r.shard->index << "/" << r.shard->count << " of seeds "
        << r.shard->first_seed << ".." << r.shard->last_seed << "\n";
  }
  if (s.ratios.empty()) {
    out << "  random faults none\n\n";
  } else {
    out << "  random faults " << lab::fault_spec_text(s.ratios) << " (at most " << s.budget
        << " per run, none after tick " << s.horizon << ")\n\n";
  }
  write_counts_text(s, r.max_steps, out);
  if (!s.failures.empty()) {
    out << "\nfirst failing seeds (" << s.failures.size() << " of " << s.failing_runs
        << "):\n";
    for (const auto& f : s.failures) {
      out << "  " << failure_text(f) << "\n    " << shrink_line(r, f.seed) << "\n";
    }
  }
  out << "\ndigest " << sim::hash_hex(s.digest) << " (equal digests: identical traces)\n";
  std::string expect_line;
  sweep_expectation(r, expect_line);
  if (!expect_line.empty()) out << expect_line << "\n";
  out << std::fixed << std::setprecision(2) << "time: " << s.seconds << " s on " << s.jobs
      << " job(s), " << std::setprecision(0) << s.runs_per_second() << " runs/s, "
      << s.steps_per_second() << " steps/s\n";
}

void write_sweep_json(const SweepReport& r, std::ostream& out) {
  const lab::SweepSummary& s = r.summary;
  Json j;
  j["scenario"] = s.scenario;
  j["file"] = r.file;
  j["seeds"] = {{"first", s.first_seed}, {"last", s.last_seed}};
  if (r.shard) {
    j["shard"] = {{"index", r.shard->index},
                  {"count", r.shard->count},
                  {"seeds", {{"first", r.shard->first_seed}, {"last", r.shard->last_seed}}},
                  {"scenario_hash", r.shard->scenario_hash},
                  {"eosim_version", r.shard->eosim_version}};
  }
  j["strategy"] = r.strategy;
  j["producer"] = r.producer;
  j["faults"] = lab::fault_spec_text(s.ratios);
  j["budget"] = s.budget;
  j["horizon"] = s.horizon;
  j["max_steps"] = r.max_steps;
  j["runs"] = s.runs;
  j["verdicts"] = s.verdicts;
  j["failing_runs"] = s.failing_runs;
  j["first_failure"] = s.failures.empty() ? Json(nullptr)
                                          : Json{{"seed", s.failures.front().seed},
                                                 {"verdict", s.failures.front().verdict}};
  j["failures"] = Json::array();
  for (const auto& f : s.failures) j["failures"].push_back(failure_json(r, f));
  j["faults_fired"] = s.faults_fired;
  j["faults_by_action"] = s.faults_by_action;
  j["steps"] = s.steps;
  j["step_bound_hits"] = s.step_bound_hits;
  j["unfired_runs"] = s.unfired_runs;
  j["first_unfired"] = s.unfired_runs == 0 ? Json(nullptr)
                                           : Json{{"seed", s.first_unfired_seed},
                                                  {"text", s.first_unfired}};
  j["digest"] = sim::hash_hex(s.digest);
  j["expect"] = r.expect.empty() ? Json(nullptr) : Json(r.expect);
  std::string unused;
  j["expect_met"] = sweep_expectation(r, unused);
  // Timing last: everything above is the same for any --jobs.
  j["jobs"] = s.jobs;
  j["seconds"] = s.seconds;
  j["runs_per_s"] = s.runs_per_second();
  j["steps_per_s"] = s.steps_per_second();
  out << j.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace cli
