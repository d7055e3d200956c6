#pragma once
// ScenarioOverrides: what a front end may change in a loaded scenario, and the one place
// it is applied. The command line (run, sweep, shrink, explore, matrix, compare, live), a
// lesson's run, the GUI's session and a live actor process each fill one and call
// apply_overrides, so "--strategy X" means the same wherever it is typed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/catalog/choice_flags.h"
#include "src/status/status.h"

namespace lab {

struct Scenario;

struct ScenarioOverrides {
  std::optional<std::uint64_t> seed;     // replaces the file's seed
  std::string strategy;                  // "" keeps the file's [consumer] strategy
  std::string producer;                  // "" keeps the file's [producer] pattern
  ChoiceFlags choices;                   // each given choice replaces the preset's
  std::vector<std::string> fault_rules;  // replace [[faults.script]]; {"none"} clears it
  std::optional<std::string> faults;     // replace [faults.random]; "none" clears it
};

// An error naming the value and listing the valid ones when the strategy, the producer or
// a choice flag names nothing in the catalog. "" (no override) is always valid.
eosim::Status check_overrides(const ScenarioOverrides& overrides);

// `scenario` with the overrides applied: the seed; a strategy or producer replaces the
// whole design, keys given beside the file's preset included; the choice flags go on top;
// fault rules are read against the new design (its order count and consumer instances)
// and replace the file's script only when given, as --faults replaces the ratios. An
// error when a rule or the ratio spec does not parse.
// REQUIRES: check_overrides(overrides).ok().
eosim::Result<Scenario> apply_overrides(Scenario scenario, const ScenarioOverrides& overrides);

// The fault overrides as command-line words (--fault RULE..., --faults SPEC), for a line
// that replays the run.
std::vector<std::string> fault_option_args(const ScenarioOverrides& overrides);

}  // namespace lab
