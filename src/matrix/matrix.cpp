#include "src/matrix/matrix.h"

#include <algorithm>

#include "sim/assert.h"
#include "src/catalog/catalog.h"
#include "src/search/parallel.h"
#include "src/report/report_format.h"
#include "src/search/shrink.h"
#include "src/search/sweep.h"
#include "src/world/world.h"

namespace lab {
namespace {

// The design's scenario with no faults of its own: a cell adds exactly one.
Scenario design_scenario(const Scenario& file, const MatrixDesign& design) {
  Scenario s = file;
  s.consumer.strategy = design.strategy;
  s.producer.pattern = design.producer;
  s.script.clear();
  s.random.ratios.clear();
  return s;
}

// `eosim run FILE ...` for `scenario` (a design_scenario plus faults): the overrides that
// turn the file into it. `none` clears what the file has and the scenario has not.
std::string command_for(const Scenario& file, const std::string& path, const Scenario& s) {
  std::vector<std::string> extra;
  for (const sim::FaultRule& rule : s.script) {
    extra.push_back("--fault");
    extra.push_back(fault_rule_text(rule));
  }
  if (s.script.empty() && !file.script.empty()) extra.insert(extra.end(), {"--fault", "none"});
  if (!s.random.ratios.empty()) {
    extra.insert(extra.end(), {"--faults", fault_spec_text(s.random.ratios)});
  } else if (!file.random.ratios.empty()) {
    extra.insert(extra.end(), {"--faults", "none"});
  }
  const auto differs = [](const std::string& mine, const std::string& files) {
    return mine == files ? std::string() : mine;
  };
  return replay_command(path, s.seed, differs(s.consumer.strategy, file.consumer.strategy),
                        differs(s.producer.pattern, file.producer.pattern), {}, extra);
}

void fill_cell(const RunSummary& run, MatrixCell& cell) {
  const Report& r = run.report;
  cell.fired = !run.faults.empty();
  static_cast<Violations&>(cell) = r;
  cell.dead_lettered = r.dead_lettered;
}

// The rows: every (site, frame) that some design's fault-free run passes, in catalog
// order. Sites that fire only at a moment (a tick or a step) have no opportunity to pin.
std::vector<MatrixFault> fault_rows(const std::vector<std::vector<sim::FiredFault>>& seen) {
  std::vector<MatrixFault> rows;
  for (const FaultSite& site : fault_sites()) {
    std::vector<std::string> frames;
    for (const SiteFrame& frame : site.frames) frames.emplace_back(frame.kind);
    if (frames.empty()) frames.emplace_back();
    for (const std::string& frame : frames) {
      const bool passed = std::any_of(seen.begin(), seen.end(), [&](const auto& list) {
        return std::any_of(list.begin(), list.end(), [&](const sim::FiredFault& f) {
          return f.site == site.name && f.frame == frame;
        });
      });
      if (!passed) continue;
      const std::string site_name(site.name);
      rows.push_back({site_name, frame, frame.empty() ? site_name : site_name + " " + frame});
    }
  }
  return rows;
}

// One run of the matrix, to be done by a worker into its own slot.
struct Task {
  Scenario scenario;
  bool log_opportunities = false;
  bool built = false;
  eosim::Status error;
  RunSummary run;
  std::vector<sim::FiredFault> opportunities;
};

eosim::Status run_tasks(std::vector<Task>& tasks, unsigned jobs, std::uint64_t& runs) {
  const auto run_one = [&](std::size_t i) {
    Task& t = tasks[i];
    WorldOptions world;
    world.keep_trace = false;
    world.record_tape = false;
    world.log_opportunities = t.log_opportunities;
    if (!t.log_opportunities) {
      const eosim::Status ran = run_scenario(t.scenario, world, t.run, nullptr);
      t.built = ran.ok();
      t.error = ran;
      return;
    }
    eosim::Result<std::unique_ptr<World>> created = World::create(t.scenario, world);
    if (!created.ok()) {
      t.error = created.status();
      return;
    }
    const std::unique_ptr<World>& w = created.value();
    w->run();
    t.run = w->summary();
    if (w->failed()) {  // the machine's trouble: no verdict
      t.error = w->failure();
      return;
    }
    t.opportunities = w->kernel().faults.opportunities();
    t.built = true;
  };
  // Warm workers reuse connections across runs; the results are the same either way.
  if (eosim::Status ran = parallel_for(tasks.size(), worker_count(jobs, tasks.size()), true,
                                      run_one);
      !ran.ok()) {
    return ran;
  }
  runs += tasks.size();
  for (const Task& t : tasks) {
    if (!t.built) {
      return t.error;
    }
  }
  return eosim::Status::success();
}

void reduce_random(const std::vector<Task>& tasks, std::size_t first, const Scenario& file,
                   const MatrixOptions& options, MatrixRandom& out) {
  for (std::uint64_t k = 0; k + options.first_seed <= options.last_seed; ++k) {
    const RunSummary& run = tasks[first + k].run;
    ++out.runs;
    ++out.verdicts[std::string(verdict_name(run.report.verdict))];
    if (run.report.verdict == Verdict::kExactlyOnce) continue;
    ++out.violations;
    if (out.first_failing_seed) continue;
    out.first_failing_seed = options.first_seed + k;
    out.first_verdict = run.report.verdict;
  }
  const std::size_t shown =
      first + (out.first_failing_seed ? *out.first_failing_seed - options.first_seed : 0);
  out.command = command_for(file, options.path, tasks[shown].scenario);
}

}  // namespace

std::vector<MatrixDesign> matrix_designs(const Scenario& s) {
  std::vector<MatrixDesign> designs;
  for (const CatalogEntry& strategy : strategies()) {
    const std::string name(strategy.name);
    designs.push_back({name, s.producer.pattern, name, false});
  }
  for (const CatalogEntry& producer : producers()) {
    const std::string name(producer.name);
    if (name != s.producer.pattern) designs.push_back({s.consumer.strategy, name, name, true});
  }
  return designs;
}

eosim::Status build_matrix(const Scenario& scenario, const MatrixOptions& options, Matrix& out) {
  EOSIM_ASSERT(!options.seeds || options.first_seed <= options.last_seed);
  EOSIM_ASSERT(!options.seeds || options.last_seed - options.first_seed < kMatrixMaxSeeds);
  out = Matrix{};
  out.scenario = scenario.name;
  out.path = options.path;
  out.designs = matrix_designs(scenario);
  const std::size_t n = out.designs.size();

  // 1. Each design without faults, logging where a fault could go.
  std::vector<Task> first(n);
  for (std::size_t d = 0; d < n; ++d) {
    first[d].scenario = design_scenario(scenario, out.designs[d]);
    first[d].log_opportunities = true;
  }
  if (eosim::Status ran = run_tasks(first, options.jobs, out.runs); !ran.ok()) return ran;
  std::vector<std::vector<sim::FiredFault>> seen(n);
  out.baseline.resize(n);
  for (std::size_t d = 0; d < n; ++d) {
    seen[d] = first[d].opportunities;
    out.baseline[d].applies = true;
    fill_cell(first[d].run, out.baseline[d]);
    out.baseline[d].fired = true;  // nothing was to fire: the cell is not "not fired"
    out.baseline[d].command = command_for(scenario, options.path, first[d].scenario);
  }

  // 2. One task per applicable cell, then the random seeds of each design.
  out.faults = fault_rows(seen);
  out.cells.assign(out.faults.size(), std::vector<MatrixCell>(n));
  std::vector<Task> tasks;
  std::vector<MatrixCell*> slots;
  for (std::size_t f = 0; f < out.faults.size(); ++f) {
    for (std::size_t d = 0; d < n; ++d) {
      const auto& list = seen[d];
      const auto op = std::find_if(list.begin(), list.end(), [&](const sim::FiredFault& o) {
        return o.site == out.faults[f].site && o.frame == out.faults[f].frame;
      });
      if (op == list.end()) continue;
      MatrixCell& cell = out.cells[f][d];
      cell.applies = true;
      cell.rule = rule_from_fired(*op, false, scenario.consumer.instances);
      Task task;
      task.scenario = first[d].scenario;
      task.scenario.script = {cell.rule};
      cell.command = command_for(scenario, options.path, task.scenario);
      tasks.push_back(std::move(task));
      slots.push_back(&cell);
    }
  }
  const std::size_t random_first = tasks.size();
  SweepOptions sweep;
  sweep.ratios = options.ratios;
  if (!sweep.ratios && !scenario.random.ratios.empty()) sweep.ratios = scenario.random.ratios;
  if (options.seeds) {
    for (std::size_t d = 0; d < n; ++d) {
      for (std::uint64_t seed = options.first_seed; seed <= options.last_seed; ++seed) {
        Task task;
        task.scenario = sweep_scenario(first[d].scenario, sweep, seed);
        tasks.push_back(std::move(task));
      }
    }
    out.first_seed = options.first_seed;
    out.last_seed = options.last_seed;
    out.random_spec = fault_spec_text(tasks.back().scenario.random.ratios);
  }
  if (eosim::Status ran = run_tasks(tasks, options.jobs, out.runs); !ran.ok()) return ran;
  for (std::size_t i = 0; i < slots.size(); ++i) fill_cell(tasks[i].run, *slots[i]);
  out.random.resize(n);
  if (!options.seeds) return eosim::Status::success();
  const std::size_t per_design = (tasks.size() - random_first) / n;
  for (std::size_t d = 0; d < n; ++d) {
    reduce_random(tasks, random_first + d * per_design, scenario, options, out.random[d]);
  }
  return eosim::Status::success();
}

namespace {

std::string orders_text(const std::vector<std::int64_t>& orders) {
  std::string out;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    out += (i == 0 ? "" : ",") + std::to_string(orders[i]);
  }
  return out;
}

}  // namespace

std::string matrix_verdict_word(Verdict verdict) {
  if (verdict == Verdict::kExactlyOnce) return "ok";
  if (verdict == Verdict::kDuplicated) return "DUP";
  if (verdict == Verdict::kBalanceMismatch) return "BALANCE";  // a cell is narrow
  std::string out(verdict_name(verdict));
  for (char& c : out) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return out;
}

std::string matrix_cell_text(const MatrixCell& cell) {
  if (!cell.applies) return "n/a";
  if (!cell.fired) return "not fired";
  const std::string word = matrix_verdict_word(cell.verdict);
  const std::vector<std::int64_t>* list = orders_named(cell);
  return list == nullptr || list->empty() ? word : word + " " + orders_text(*list);
}

std::string matrix_random_text(const MatrixRandom& random) {
  std::string out = std::to_string(random.violations) + "/" + std::to_string(random.runs);
  if (random.first_failing_seed) out += " " + matrix_verdict_word(random.first_verdict);
  return out;
}

}  // namespace lab
