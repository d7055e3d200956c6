#pragma once
// The consumer's four choices as command-line flags (--ack, --dedup, --errors, --poison),
// part of lab::ScenarioOverrides (src/world/overrides.h). Strings here, because this is
// the edge where the user types them; apply_choice_flags (defined beside apply_overrides)
// turns them into the scenario's typed choices.

#include <string>

#include "src/status/status.h"

namespace lab {

struct Scenario;

struct ChoiceFlags {
  std::string ack, dedup, errors, poison;  // "" = leave the scenario's choice alone
  bool empty() const { return ack.empty() && dedup.empty() && errors.empty() && poison.empty(); }
};

// An error naming the flag and its valid values when a flag names no value.
eosim::Status check_choice_flags(const ChoiceFlags& flags);
// Each given flag replaces that choice, on top of the scenario's (or --strategy's) preset.
// REQUIRES: check_choice_flags(flags) holds.
void apply_choice_flags(const ChoiceFlags& flags, Scenario& scenario);
// " --ack X --dedup Y": the given flags, for a command line that replays a run.
std::string choice_flags_text(const ChoiceFlags& flags);

}  // namespace lab
