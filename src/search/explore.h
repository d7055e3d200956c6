#pragma once
// Exhaustive exploration of a small workload: every placement of up to K faults over every
// fault opportunity a run passes, plus up to D changed scheduler decisions, breadth first.
//
// The search tree:
//  - The root is the scenario's own run (its seed, its scripted rules, no random faults),
//    with the fault plan's opportunity log on.
//  - A fault child adds one rule that fires at an opportunity of its parent's run that
//    comes after the parent's last placed fault (so each set of faults is enumerated once,
//    in the order they fire). The rule pins the opportunity by site, frame and occurrence
//    (nth); the run up to it is the parent's, byte for byte, because rules draw nothing.
//  - A schedule child changes one decision of its parent's choice tape (a tie between
//    events due at the same instant, a frame's latency, a broker sync's split) at a
//    position after the parent's last change. Schedule children are only taken before any
//    fault is placed, so each (schedule, faults) pair is reached by one path only. Under
//    sequential draws the change is replayed by tape position and the decisions after it
//    are drawn afresh. Under keyed draws a change is defined by where the parent drew it:
//    the n-th decision of the first step that starts in world state S (World::change_state:
//    the run state without the faults explore placed and without changes still pending;
//    a Deviation with in_state). A fault placed before it meets it only if its run comes
//    back to S exactly; otherwise the change never applies.
//  - Two nodes whose runs have the same trace hash, the same replayed tape length and the
//    same starting points for their children have identical subtrees: the later one is
//    counted as a duplicate and not expanded.
//  - State merging (ExploreOptions::merge_states): a parent that may place faults hashes
//    its world's run state (World::run_state: every table row, the broker, the actors,
//    frames in flight with their payloads, pending events, the chooser's tape and
//    generator, the fault rules still live, the schedule changes still pending) before
//    every step. A fault child is keyed by that hash before the step its opportunity is
//    in, the opportunity (site, kind, frame,
//    order, attempt, instance, its place in the step) and the faults it may still add. A
//    child whose key an earlier child had is cut (counted in `merged`): the two go on from
//    the same state, with the same rules and the same draws to come, so their subtrees
//    are the same executions. Faults that converge on one state (a crash before the commit
//    at any of three sites of one step) are explored once this way.
//    The key leaves out the step count, which only the step bound reads: a cut child is
//    its match shifted by some steps. When every run ended quiescent and the longest one,
//    shifted by the largest shift once per fault, stays below the bound, nothing differs;
//    otherwise explore() runs the search again without merging (merge_abandoned).
//  - Pruning (keyed draws, with merge_states): a fault child of a node C with one change,
//    in-state and drawn in step s of the root's run, at an opportunity of an earlier step,
//    is not made (counted in `pruned`). Why its subtree holds nothing the kept tree lacks:
//    let F be that fault, N = C + F + G (G: the faults N adds after F) any node of the
//    pruned subtree and R its run. Up to step s, C's run is the root's, so F is an
//    opportunity of the root's run, at the same place, and the root's run starts no step
//    in S before s (it would then repeat itself forever and reach the step bound, and the
//    search would run again unmerged). (i) If R never starts a step in S, the change never
//    applies and R is the run of root + F + G: each fault of G sits at an opportunity of
//    its parent's run before any point where the change applied there (placed after it,
//    the fault leaves the world state the change matched as it was, so the change would
//    apply in R too), so every parent run agrees with its change-free twin up to each
//    placement, and root + F + G is a node of the tree with the same rules. (ii) If R
//    starts step p in S (after F's step), then from p on R is in world state S, with the
//    scenario's own rules as in S (they are part of it), the change applying, and the
//    faults B still to fire; C's run from step s is the same world, so R's rest is the
//    rest of C + B, B placed where R fires them, in step s or later, where C's fault
//    children are made. Either way R ends in the final state of a node of the kept tree
//    (or of one merged into it): the same verdict and outcome class. R is a prefix of one
//    kept run and the rest of another, so the step bound check counts the longest run
//    twice. Sequential drawing prunes nothing: a positional change hits whatever decision
//    comes at its position after the fault.
//    Two changes (c1 in state S1, drawn in step s1 of the root's run; c2 in S2, drawn in
//    step s2 >= s1 of c1's run): a node C = {c1, c2} whose own run applied each change in
//    the step it was drawn in prunes its fault children before step s2. Up to s2, C's run
//    is c1's run, and up to s1 the root's. A fault F in steps s1..s2-1 is the case above
//    with c1's node as the root: R ends like c1 + F + G (never in S2) or like C + B. A
//    fault F before s1: R never starts a step in S1 nor S2, and ends like root + F + G; or
//    starts one in S1 first, and goes on as C's run from s1 (c2 still pending): C + B,
//    with B's faults in step s1 or later (those before s2 pruned in turn, the case
//    before); or starts one in S2 first, then goes on as C's run from s2 (c1 pending, which
//    C's run no longer needs) until it starts a step in S1, if ever, and from there as c1's
//    own run with nothing pending: C + B or c1 + B'', kept. R is then up to three pieces of
//    kept runs, and the step bound check counts the longest run three times. A node whose
//    changes applied elsewhere than drawn (its run met S2 before s1, say) prunes nothing,
//    nor does one with more than two changes.
// Levels are run in parallel and reduced in tree order, so the result is the same for any
// number of jobs.
//
// Invariants of an ExploreResult:
//  (1) runs == distinct + duplicates <= max_runs; truncated when nodes were left unrun.
//      Merged children are neither run nor counted in runs.
//  (2) Outcome classes are listed in the order they were first seen (breadth first), each
//      with the count of distinct executions that ended in it.
//  (3) first_violation is the first violating node in breadth-first order: no violation
//      needs fewer faults + schedule changes.

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "src/checker/violations.h"
#include "src/scenario/scenario.h"
#include "src/search/shrink.h"
#include "src/status/status.h"
#include "src/world/world.h"

namespace lab {

struct ExplorePath;

struct ExploreOptions {
  int max_faults = 2;         // K: faults placed on top of the scenario's own
  int max_deviations = 1;     // D: scheduler decisions changed
  std::set<sim::FaultAction> kinds;  // fault kinds to place; empty = every kind
  std::uint64_t max_runs = 200000;
  bool merge_states = true;   // cut fault children whose state was explored (see above)
  unsigned jobs = 0;          // 0 = every hardware thread
  // Called on the calling thread after each chunk: (runs so far, nodes known so far).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  // Called on the calling thread for each fault child cut by state merging: (its path, the
  // path of the earlier child it merged into). For tests that run both and compare.
  std::function<void(const ExplorePath&, const ExplorePath&)> on_merge;
  // Called on the calling thread for each fault child pruned because it fires before its
  // parent's schedule change (explore.h, "Pruning"): its path. For tests.
  std::function<void(const ExplorePath&)> on_prune;
};

// A changed scheduler decision: the value taken instead of the parent's at its decision
// `position` (index on the parent's tape). Under sequential draws the change is replayed
// by position. Under keyed draws (in_state) it is defined by where it was drawn: the
// `in_step`-th decision of the step that starts in world state `state`
// (World::change_state), the step `step` of the parent's run.
struct Deviation {
  std::size_t position = 0;
  std::uint64_t value = 0;
  bool in_state = false;
  std::uint64_t state = 0;
  std::size_t in_step = 0;
  std::uint64_t step = 0;
  friend bool operator==(const Deviation&, const Deviation&) = default;
};

// One run's place in the tree: what was added to the scenario to get it.
struct ExplorePath {
  std::vector<sim::FaultRule> faults;   // placed faults, in firing order
  std::vector<Deviation> deviations;    // changed decisions, by position
  sim::ChoiceTape tape;                 // the tape replayed (empty: the seed's own run)
};

// Executions that ended alike: the same Violations and balance.
struct OutcomeClass : Violations {
  std::int64_t balance = 0;
  std::uint64_t executions = 0;  // distinct executions that ended here
  ExplorePath example;           // the first (fewest changes) that did
};

struct ExploreResult {
  std::uint64_t base_opportunities = 0;   // in the root run, of the kinds explored
  std::uint64_t base_choice_points = 0;   // tape decisions with more than one option
  std::uint64_t base_alternatives = 0;    // sum over them of (options - 1)
  std::uint64_t runs = 0;                 // worlds run
  std::uint64_t distinct = 0;             // runs that were new executions
  std::uint64_t duplicates = 0;           // runs pruned as identical to an earlier one
  std::uint64_t merged = 0;               // fault children never run: their state and
                                          // budget had been reached before
  std::uint64_t pruned = 0;               // fault children never made: they fire before
                                          // their parent's schedule change (keyed draws)
  std::uint64_t merge_shift = 0;          // most steps a cut child was behind its match
  bool merge_abandoned = false;           // a run reached the step bound: the search ran
                                          // again without merging
  std::uint64_t merge_first_pass_runs = 0;  // runs of the pass that was thrown away
  std::vector<std::uint64_t> runs_by_faults;  // index = faults placed
  std::vector<std::uint64_t> runs_by_changes;  // index = scheduler decisions changed
  std::uint64_t violations = 0;           // distinct executions that were not exactly-once
                                          // (nor incomplete)
  std::uint64_t incomplete = 0;           // distinct executions the step bound cut short
  std::vector<OutcomeClass> outcomes;
  std::optional<ExplorePath> first_violation;
  bool truncated = false;                 // max_runs stopped it before the tree ended
  double seconds = 0;  // wall-clock time, filled in by the caller that measured it
  unsigned jobs = 0;
};

// The scenario the root runs: random faults off, everything else as given.
Scenario explore_root(const Scenario& scenario);

// Runs the search. An error only when a world cannot be built.
eosim::Status explore(const Scenario& scenario, const ExploreOptions& options,
                      ExploreResult& out);

// Whether the search supports `expect` ("exactly-once" or "violation"), with the reason
// in `why`. A violation found is evidence whatever else happened; "exactly-once" needs
// the whole tree: a truncated or empty search, or an execution the step bound cut short,
// is not met (an absence of violations nobody looked for proves nothing).
bool explore_expectation_met(const ExploreResult& result, const Expectation& expect,
                             std::string& why);

// The world options explore runs `path` with (keep_trace off), for a test that steps it.
WorldOptions path_world_options(const Scenario& scenario, const ExplorePath& path);

// Runs one path of the tree again (as explore did), for a report or a test.
eosim::Status run_path(const Scenario& scenario, const ExplorePath& path, RunSummary& out);

// A path as a scenario file, through shrink (so it is minimal and tells its story). When
// the path changed scheduler decisions, a file cannot carry them: the seeds after the
// scenario's are tried for one whose own schedule shows the same verdict with the path's
// faults; kNotReproducible (out.why says so) when none of them does.
eosim::Result<ShrinkStatus> counterexample(const Scenario& scenario, const ExplorePath& path,
                                           ShrinkResult& out);

// "net.consumer->broker: drop (...); schedule: decision 7 -> 1": one line for people.
std::string path_text(const ExplorePath& path);

}  // namespace lab
