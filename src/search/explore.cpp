#include "src/search/explore.h"

#include <algorithm>
#include <map>
#include <thread>

#include "sim/assert.h"
#include "sim/state_hash.h"
#include "src/search/parallel.h"

namespace lab {

namespace {

// Nodes of one level are run in chunks: workers take nodes of the chunk one by one, then
// the calling thread reduces the chunk in node order (as sweeps do with seeds).
constexpr std::size_t kChunkNodes = 256;

struct Node {
  ExplorePath path;
  std::size_t first_opportunity = 0;  // children place faults at this index or later
  std::size_t first_position = 0;     // children change decisions at this position or later
  std::uint64_t state_key = 0;        // state merging (explore.h); 0 = never merged
  std::uint64_t state_step = 0;       // the step of the parent's run that key was taken at
};

struct NodeRun {
  bool built = false;
  eosim::Status error;
  RunSummary summary;
  std::vector<Node> children;
  std::uint64_t opportunities = 0;  // offered to children (the root's count is reported)
  std::uint64_t choice_points = 0;  // tape decisions with more than one option
  std::uint64_t alternatives = 0;   // sum of (options - 1) over them
  std::uint64_t changes_pending = 0;  // a hash of the in-state changes that never applied
  std::uint64_t pruned = 0;         // fault children pruned (explore.h)
  std::uint64_t pruned_changes = 0; // the changes of the node that pruned them
  std::vector<ExplorePath> pruned_paths;  // their paths, when ExploreOptions::on_prune asks
};

std::uint64_t fold(std::uint64_t hash, std::uint64_t value) {
  for (int i = 0; i < 8; ++i) {
    hash ^= (value >> (8 * i)) & 0xff;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

bool same_moment(const sim::FiredFault& a, const sim::FiredFault& b) {
  return a.site == b.site && a.frame == b.frame && a.nth == b.nth;
}

// How a world runs `path` of the tree whose root scenario has `own_rules` scripted rules.
WorldOptions world_options(const ExplorePath& path, std::size_t own_rules) {
  WorldOptions world;
  world.keep_trace = false;
  if (!path.tape.empty()) world.tape = path.tape;
  world.own_rules = own_rules;
  for (const Deviation& d : path.deviations) {
    if (d.in_state) world.changes.push_back({d.state, d.in_step, d.value});
  }
  return world;
}

class Search {
 public:
  // `merge`: hash run states and key fault children for state merging (explore.h).
  Search(const Scenario& scenario, const ExploreOptions& options, bool merge)
      : root_(explore_root(scenario)), options_(options), merge_(merge) {}

  Scenario scenario_for(const ExplorePath& path) const {
    Scenario s = root_;
    s.script.insert(s.script.end(), path.faults.begin(), path.faults.end());
    return s;
  }

  bool wants(sim::FaultAction kind) const {
    return options_.kinds.empty() || options_.kinds.count(kind) != 0;
  }

  bool may_add_fault(const Node& n) const {
    return static_cast<int>(n.path.faults.size()) < options_.max_faults;
  }
  bool may_add_deviation(const Node& n) const {
    return n.path.faults.empty() &&
           static_cast<int>(n.path.deviations.size()) < options_.max_deviations;
  }

  void run(const Node& node, NodeRun& out) const {
    WorldOptions world = world_options(node.path, root_.script.size());
    world.log_opportunities = may_add_fault(node);
    // Keyed schedule children are defined by the states their decisions are drawn in.
    world.hash_states = (merge_ && may_add_fault(node)) || (keyed() && may_add_deviation(node));
    eosim::Result<std::unique_ptr<World>> created = World::create(scenario_for(node.path), world);
    if (!created.ok()) {
      out.error = created.status();
      return;
    }
    const std::unique_ptr<World>& w = created.value();
    w->run();
    out.summary = w->summary();
    if (w->failed()) {  // the machine's trouble: no verdict to explore from
      out.error = w->failure();
      return;
    }
    out.built = true;
    out.changes_pending = pending_changes(world, *w);
    if (may_add_fault(node)) add_fault_children(node, *w, prune_before(node, *w), out);
    if (may_add_deviation(node)) add_schedule_children(node, *w, out);
    for (const auto& choice : out.summary.tape) {
      out.choice_points += choice.bound > 1 ? 1 : 0;
      out.alternatives += choice.bound - 1;
    }
    out.summary.tape.clear();
  }

 private:
  // A hash of the in-state changes `world` never applied (0: none).
  static std::uint64_t pending_changes(const WorldOptions& options, const World& world) {
    std::uint64_t hash = 0;
    for (std::size_t i = 0; i < options.changes.size(); ++i) {
      if (world.change_applied(i)) continue;
      hash = fold(hash == 0 ? 0xcbf29ce484222325ULL : hash, options.changes[i].state);
      hash = fold(hash, options.changes[i].index);
      hash = fold(hash, options.changes[i].value);
    }
    return hash;
  }

  bool keyed() const { return root_.draws == sim::Draws::kKeyed; }

  // Pruning (explore.h): fault children at an opportunity of a step before the returned
  // one are not made (0: none). The node's in-state changes, at most two, must each have
  // applied in its run in the step of its parent's run it was drawn in, in order.
  std::uint64_t prune_before(const Node& node, const World& world) const {
    const std::vector<Deviation>& changes = node.path.deviations;
    if (!merge_ || changes.empty() || changes.size() > 2) return 0;
    std::uint64_t last = 0;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      const Deviation& d = changes[i];
      if (!d.in_state || d.step < last || world.change_step(i) != d.step) return 0;
      last = d.step;
    }
    return last;
  }

  // The state merging key of a fault placed at opportunity `o`, the `place`-th of its step.
  std::uint64_t state_key(const World& world, const sim::FiredFault& o, std::uint64_t place,
                          std::size_t faults_after) const {
    const auto& states = world.state_hashes();
    // Not merging (the states may be hashed for keyed schedule children all the same), or
    // not at a step: never merged.
    if (!merge_ || o.step == 0 || o.step > states.size()) return 0;
    sim::StateHash key;
    key.add(states[o.step - 1]);
    key.add(std::string_view(o.site));
    key.add(sim::fault_action_name(o.action));
    key.add(std::string_view(o.frame));
    for (const std::int64_t part : o.key.parts) key.add(part);
    key.add(place);
    key.add(static_cast<std::uint64_t>(faults_after));
    return key.value() | 1;  // never 0
  }

  void add_fault_children(const Node& node, const World& world, std::uint64_t prune_step,
                          NodeRun& out) const {
    const sim::FaultPlan& plan = world.kernel().faults;
    const auto& opportunities = plan.opportunities();
    std::uint64_t place = 0;  // opportunities before this one in the same step
    for (std::size_t i = 0; i < opportunities.size(); ++i) {
      const sim::FiredFault& o = opportunities[i];
      place = i > 0 && opportunities[i - 1].step == o.step ? place + 1 : 0;
      if (i < node.first_opportunity || !wants(o.action)) continue;
      // Where a rule already fires, another one would never be asked.
      bool taken = false;
      for (const auto& f : plan.fired()) taken = taken || same_moment(f, o);
      if (taken) continue;
      ++out.opportunities;
      if (o.step < prune_step) {
        ++out.pruned;
        out.pruned_changes = node.path.deviations.size();
        if (options_.on_prune) {
          ExplorePath path = node.path;
          path.faults.push_back(rule_from_fired(o, true, root_.consumer.instances));
          out.pruned_paths.push_back(std::move(path));
        }
        continue;
      }
      Node child;
      child.path = node.path;
      child.path.faults.push_back(rule_from_fired(o, true, root_.consumer.instances));
      child.first_opportunity = i + 1;
      child.state_key = state_key(world, o, place,
                                  static_cast<std::size_t>(options_.max_faults) - child.path.faults.size());
      child.state_step = o.step;
      out.children.push_back(std::move(child));
    }
  }

  // Keyed draws give the parent's decisions again wherever its state recurs, so a tape
  // need only force what was changed: the other entries are freed (drawn keyed). A fault
  // placed before a change then meets keyed draws, not values meant for other decisions,
  // and once the changes are replayed the chooser holds nothing a run without them lacks,
  // so their subtrees merge with the rest of the tree (explore.h).
  static void free_unchanged(ExplorePath& path) {
    for (std::size_t j = 0; j < path.tape.size(); ++j) {
      bool changed = false;
      for (const Deviation& d : path.deviations) changed = changed || (!d.in_state && d.position == j);
      if (!changed) path.tape[j] = sim::Choice{0, 0};
    }
  }

  // The step (0-based index into the run's per-step records) decision `j` was drawn in;
  // false when it was drawn before the first step (then it is changed by position).
  static bool step_of(const World& world, std::size_t j, std::size_t& step) {
    const auto& before = world.decisions_before();
    const auto after = std::upper_bound(before.begin(), before.end(), j);
    if (after == before.begin()) return false;
    step = static_cast<std::size_t>(after - before.begin()) - 1;
    return true;
  }

  void add_schedule_children(const Node& node, const World& world, NodeRun& out) const {
    const sim::ChoiceTape& tape = out.summary.tape;
    for (std::size_t j = node.first_position; j < tape.size(); ++j) {
      std::size_t step = 0;
      const bool in_state = keyed() && step_of(world, j, step);
      for (std::uint64_t v = 0; v < tape[j].bound; ++v) {
        if (v == tape[j].value) continue;
        Node child;
        child.path.deviations = node.path.deviations;
        child.first_position = j + 1;
        if (in_state) {
          // Defined by the state it is drawn in: nothing to replay by position.
          child.path.deviations.push_back({j, v, true, world.change_states()[step],
                                           j - world.decisions_before()[step], step + 1});
          child.path.tape = node.path.tape;
        } else {
          child.path.deviations.push_back({j, v});
          child.path.tape.assign(tape.begin(), tape.begin() + static_cast<std::ptrdiff_t>(j));
          if (keyed()) free_unchanged(child.path);
          child.path.tape.push_back({tape[j].bound, v});
        }
        out.children.push_back(std::move(child));
      }
    }
  }

  Scenario root_;
  const ExploreOptions& options_;
  bool merge_;
};

eosim::Status run_chunk(const Search& search, const std::vector<Node>& level, std::size_t begin,
                        std::vector<NodeRun>& runs, unsigned workers) {
  return parallel_for(runs.size(), workers, /*warm=*/true,
                      [&](std::size_t i) { search.run(level[begin + i], runs[i]); });
}

std::string outcome_key(const Report& r) {
  std::string key = std::string(verdict_name(r.verdict)) + "|" + std::to_string(r.balance_actual);
  for (const auto* list : {&r.lost, &r.duplicated, &r.phantom, &r.stuck, &r.effect_duplicated}) {
    key += "|";
    for (const auto n : *list) key += std::to_string(n) + ",";
  }
  return key;
}

// Reduces one run into the result; returns whether its children are to be explored.
bool reduce(const Node& node, NodeRun& run, std::map<std::uint64_t, bool>& seen,
            std::map<std::string, std::size_t>& classes, ExploreResult& out) {
  ++out.runs;
  const std::size_t faults = node.path.faults.size();
  if (out.runs_by_faults.size() <= faults) out.runs_by_faults.resize(faults + 1, 0);
  ++out.runs_by_faults[faults];
  const std::size_t changes = node.path.deviations.size();
  if (out.runs_by_changes.size() <= changes) out.runs_by_changes.resize(changes + 1, 0);
  ++out.runs_by_changes[changes];
  std::uint64_t key = fold(0xcbf29ce484222325ULL, run.summary.trace_hash);
  key = fold(key, node.path.tape.size());
  key = fold(key, node.first_opportunity);
  key = fold(key, node.first_position);
  key = fold(key, run.changes_pending);  // a change still to come: another subtree
  if (!seen.emplace(key, true).second) {
    ++out.duplicates;
    return false;
  }
  ++out.distinct;
  const Report& r = run.summary.report;
  const auto [it, fresh] = classes.emplace(outcome_key(r), out.outcomes.size());
  if (fresh) {
    OutcomeClass c;
    static_cast<Violations&>(c) = r;
    c.balance = r.balance_actual;
    c.example = node.path;
    out.outcomes.push_back(std::move(c));
  }
  ++out.outcomes[it->second].executions;
  if (r.verdict == Verdict::kIncomplete) {
    ++out.incomplete;  // the step bound ended it: no claim either way
  } else if (r.verdict != Verdict::kExactlyOnce) {
    ++out.violations;
    if (!out.first_violation) out.first_violation = node.path;
  }
  return true;
}

}  // namespace

Scenario explore_root(const Scenario& scenario) {
  Scenario s = scenario;
  s.random.ratios.clear();
  return s;
}

namespace {

// What one pass of the search saw, beyond the result: for the step bound check.
struct MergeCheck {
  std::uint64_t max_steps = 0;  // steps of the longest run
  bool bound_hit = false;       // a run ended at the step bound
  std::uint64_t max_shift = 0;  // most steps a cut child was behind the child it merged into
  // (cut, kept) paths, for ExploreOptions::on_merge once the pass is the one kept.
  std::vector<std::pair<ExplorePath, ExplorePath>> pairs;
  std::vector<ExplorePath> pruned;  // for ExploreOptions::on_prune, likewise
  std::uint64_t pruned_changes = 0;  // most changes of a node that pruned
};

// A queued fault child's key: the step it was taken at, and its path when a test asks.
struct KeptChild {
  std::uint64_t step = 0;
  std::optional<ExplorePath> path;
};

// Queues `run`'s children, cutting those whose state key was queued before.
void queue_children(NodeRun& run, const ExploreOptions& options,
                    std::map<std::uint64_t, KeptChild>& states, std::vector<Node>& next_level,
                    MergeCheck& check, ExploreResult& out) {
  out.pruned += run.pruned;
  check.pruned_changes = std::max(check.pruned_changes, run.pruned_changes);
  for (auto& path : run.pruned_paths) check.pruned.push_back(std::move(path));
  for (auto& child : run.children) {
    if (child.state_key != 0) {
      const auto [it, fresh] = states.emplace(child.state_key, KeptChild{child.state_step, {}});
      if (fresh && options.on_merge) it->second.path = child.path;
      if (!fresh) {
        ++out.merged;  // an earlier child goes on from the same state with the same budget
        if (child.state_step > it->second.step) {
          check.max_shift = std::max(check.max_shift, child.state_step - it->second.step);
        }
        if (options.on_merge) check.pairs.emplace_back(child.path, *it->second.path);
        continue;
      }
    }
    next_level.push_back(std::move(child));
  }
}

eosim::Status search(const Scenario& scenario, const ExploreOptions& options, bool merge,
                     ExploreResult& out, MergeCheck& check) {
  const Search tree(scenario, options, merge);
  std::map<std::uint64_t, bool> seen;
  std::map<std::string, std::size_t> classes;
  std::map<std::uint64_t, KeptChild> states;  // state key -> the child kept with it

  std::vector<Node> level(1);  // the root
  std::vector<NodeRun> runs;
  bool root = true;
  while (!level.empty() && !out.truncated) {
    std::vector<Node> next_level;
    for (std::size_t begin = 0; begin < level.size(); begin += kChunkNodes) {
      const std::uint64_t room = options.max_runs - out.runs;
      if (room == 0) {
        out.truncated = true;
        break;
      }
      const std::size_t count = static_cast<std::size_t>(
          std::min<std::uint64_t>({kChunkNodes, level.size() - begin, room}));
      runs.assign(count, NodeRun{});
      if (eosim::Status ran = run_chunk(tree, level, begin, runs,
                                        std::min<unsigned>(out.jobs, static_cast<unsigned>(count)));
          !ran.ok()) {
        return ran;
      }
      for (std::size_t i = 0; i < count; ++i) {
        if (!runs[i].built) return runs[i].error;
        if (root) {
          out.base_opportunities = runs[i].opportunities;
          out.base_choice_points = runs[i].choice_points;
          out.base_alternatives = runs[i].alternatives;
          root = false;
        }
        check.max_steps = std::max(check.max_steps, runs[i].summary.steps);
        check.bound_hit = check.bound_hit || runs[i].summary.step_bound_hit;
        if (!reduce(level[begin + i], runs[i], seen, classes, out)) continue;
        queue_children(runs[i], options, states, next_level, check, out);
      }
      if (options.progress) options.progress(out.runs, out.runs + next_level.size());
      // Merging is exact only if no run reaches the step bound (explore()): once one
      // does, this pass is thrown away, so stop it now.
      if (merge && check.bound_hit) return eosim::Status::success();
    }
    level = std::move(next_level);
  }
  if (!level.empty()) out.truncated = true;
  return eosim::Status::success();
}

}  // namespace

eosim::Status explore(const Scenario& scenario, const ExploreOptions& options,
                      ExploreResult& out) {
  EOSIM_ASSERT(options.max_faults >= 0);
  EOSIM_ASSERT(options.max_deviations >= 0);
  const unsigned jobs = std::min(
      kMaxJobs, options.jobs != 0 ? options.jobs : std::max(1u, std::thread::hardware_concurrency()));
  out = ExploreResult{};
  out.jobs = jobs;
  MergeCheck check;
  if (eosim::Status searched = search(scenario, options, options.merge_states, out, check);
      !searched.ok() || !options.merge_states) {
    return searched;
  }
  // A state key leaves out the step count, so a cut child stands for the child it merged
  // into shifted by up to max_shift steps per fault (a chain of merges adds them up). That
  // is exact while every run ends quiescent and even the longest, shifted that far, stays
  // below the step bound. Otherwise the search runs again without merging (keying by the
  // steps left too would be exact, but a run that reaches the bound is long, and hashing
  // its every step costs more than merging saves).
  // A pruned run is a prefix of a kept run up to where a change applies, then the rest of
  // another kept run, one more for each further change (explore.h): at most the longest
  // run once per piece, shifted likewise.
  const std::uint64_t pieces = 1 + check.pruned_changes;
  const std::uint64_t shifted =
      pieces * (check.max_steps + check.max_shift * static_cast<std::uint64_t>(options.max_faults));
  out.merge_shift = check.max_shift;
  if (!check.bound_hit && shifted < static_cast<std::uint64_t>(step_bound(explore_root(scenario)))) {
    for (const auto& [cut, kept] : check.pairs) options.on_merge(cut, kept);
    for (const auto& path : check.pruned) options.on_prune(path);
    return eosim::Status::success();
  }
  const std::uint64_t first_runs = out.runs;
  out = ExploreResult{};
  out.jobs = jobs;
  check = MergeCheck{};
  if (eosim::Status searched = search(scenario, options, /*merge=*/false, out, check);
      !searched.ok()) {
    return searched;
  }
  out.merge_abandoned = true;
  out.merge_first_pass_runs = first_runs;
  return eosim::Status::success();
}

bool explore_expectation_met(const ExploreResult& result, const Expectation& expect,
                             std::string& why) {
  EOSIM_ASSERT(expect.violation || expect.verdict == Verdict::kExactlyOnce);
  const std::string found = std::to_string(result.violations) + " violating execution(s) in " +
                            std::to_string(result.runs) + " runs";
  if (expect.violation) {
    why = result.violations > 0 ? found : "no violation found in " + std::to_string(result.runs) + " runs";
    return result.violations > 0;
  }
  if (result.violations > 0) {
    why = found;
  } else if (result.runs == 0) {
    why = "nothing was explored (--max-runs 0)";
  } else if (result.truncated) {
    why = "the search was truncated after " + std::to_string(result.runs) +
          " runs: the rest of the tree was not checked";
  } else if (result.incomplete > 0) {
    why = std::to_string(result.incomplete) +
          " execution(s) ended at the step bound before the workload was produced";
  } else {
    why = "no violation in the whole tree (" + std::to_string(result.runs) + " runs)";
    return true;
  }
  return false;
}

WorldOptions path_world_options(const Scenario& scenario, const ExplorePath& path) {
  return world_options(path, explore_root(scenario).script.size());
}

eosim::Status run_path(const Scenario& scenario, const ExplorePath& path, RunSummary& out) {
  Scenario s = explore_root(scenario);
  s.script.insert(s.script.end(), path.faults.begin(), path.faults.end());
  return run_scenario(s, path_world_options(scenario, path), out, nullptr);
}

eosim::Result<ShrinkStatus> counterexample(const Scenario& scenario, const ExplorePath& path,
                                           ShrinkResult& out) {
  // How many seeds' schedules may stand in for a path's changed decisions.
  constexpr std::uint64_t kScheduleSeeds = 64;
  RunSummary found;
  if (eosim::Status ran = run_path(scenario, path, found); !ran.ok()) return ran;
  Scenario file = explore_root(scenario);
  file.script.insert(file.script.end(), path.faults.begin(), path.faults.end());
  ShrinkOptions options;
  options.found_by = "Found by `eosim explore` in";
  if (path.deviations.empty()) return shrink(file, options, out);
  for (std::uint64_t i = 0; i < kScheduleSeeds; ++i) {
    Scenario candidate = file;
    candidate.seed = scenario.seed + i;
    RunSummary r;
    if (eosim::Status ran = run_scenario(candidate, {}, r, nullptr); !ran.ok()) return ran;
    if (r.report.verdict == found.report.verdict) return shrink(candidate, options, out);
  }
  out = ShrinkResult{};
  out.why = "the violation needs the changed scheduler decision(s) (" + path_text(path) +
            "); no seed from " + std::to_string(scenario.seed) + " to " +
            std::to_string(scenario.seed + kScheduleSeeds - 1) +
            " schedules it that way, and a scenario file carries a seed, not a tape";
  return ShrinkStatus::kNotReproducible;
}

std::string path_text(const ExplorePath& path) {
  std::string text;
  for (const auto& rule : path.faults) text += (text.empty() ? "" : "; ") + story_line(rule);
  for (const auto& d : path.deviations) {
    text += (text.empty() ? "" : "; ") + std::string("schedule: decision ") +
            std::to_string(d.position + 1) + " takes option " + std::to_string(d.value + 1);
  }
  return text.empty() ? "no fault, the seed's own schedule" : text;
}

}  // namespace lab
