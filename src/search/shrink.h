#pragma once
// Shrinking: from a run that violates exactly-once, find a small set of faults that still
// produces the same kind of violation, and write it as a scenario file a person can read,
// edit and replay with `eosim run`.
//
// How:
//  1. Run the scenario as given (its seed, its random faults) and note the verdict.
//  2. Turn every fault that fired into an explicit FaultRule (site, action and what
//     identifies the moment: order and delivery attempt, or frame and occurrence `nth`;
//     a timed fault keeps its tick). Random faults are switched off from here on.
//  3. Check that these rules alone, with the same seed, give the same verdict. Without
//     the random draws the scheduler breaks ties differently; when the violation is a
//     race that needs a particular schedule, the next 15 seeds' schedules are tried too,
//     and the file carries the seed that shows it.
//  4. Delta-debug (ddmin) the rule list to a 1-minimal one: removing any single rule
//     loses the verdict. Then drop `nth` from rules that name an order, where that keeps
//     the verdict, so the story reads "the first ... of order 2".
//  5. Run the minimal scenario and write its result as the [expect] block; the scenario
//     is parsed back from its TOML text and run again to prove the file reproduces it.
//
// Invariants of a successful ShrinkResult:
//  (1) minimal_scenario.script == minimal, minimal_scenario has no random ratios, and
//      `toml` parses back to minimal_scenario (all but `path`).
//  (2) Running minimal_scenario gives verdict == original.report.verdict and meets every
//      line of its [expect] block (unmet_expectations is empty).
//  (3) minimal.size() <= candidates.size().

#include <cstddef>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"
#include "src/world/world.h"

namespace lab {

struct ShrinkOptions {
  std::size_t max_runs = 5000;  // worlds the search may run before it gives up refining
  // How the `about` story starts: who found the run, before the scenario's name.
  std::string found_by = "Shrunk by `eosim shrink` from";
};

struct ShrinkResult {
  RunSummary original;                     // the failing run as given
  std::vector<sim::FaultRule> candidates;  // one rule per fault that fired in it
  std::vector<sim::FaultRule> minimal;
  std::uint64_t seed = 0;  // minimal_scenario's seed: the failing one, unless the story
                           // needs another schedule (see shrink())
  Scenario minimal_scenario;
  RunSummary reproduced;  // minimal_scenario's run
  std::string toml;       // to_toml(minimal_scenario)
  std::size_t runs = 0;   // worlds run by the search, the final check included
  // Why there is no file (kNoViolation, kNotReproducible): a finding a user can act on.
  std::string why;
};

// The rule that makes `fault` fire again at the same moment of an equivalent run.
// `with_nth` pins it to the site's nth occurrence even where order/attempt identify it.
// `instances` is the scenario's consumer count (instance is only written when > 1).
sim::FaultRule rule_from_fired(const sim::FiredFault& fault, bool with_nth,
                               std::int64_t instances);

// One line per rule, e.g. "consumer.after_commit: crash (order 2, delivery attempt 1)".
std::string story_line(const sim::FaultRule& rule);

// What came of a shrink that ran: findings, not errors.
enum class ShrinkStatus {
  kShrunk,           // out is complete
  kNoViolation,      // the run is exactly-once: nothing to shrink (out.why says so)
  kNotReproducible,  // its faults, as rules, do not give the verdict under any schedule
                     // tried (out.why says which)
};

// Shrinks the run of `scenario` (seed and random faults as given). An error when a world
// could not be built or the file did not reproduce (a bug); otherwise what came of it.
eosim::Result<ShrinkStatus> shrink(const Scenario& scenario, const ShrinkOptions& options,
                                   ShrinkResult& out);

}  // namespace lab
