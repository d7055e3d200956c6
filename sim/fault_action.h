#pragma once
// What a fault does where it fires: the closed vocabulary of the fault plan (sim/faults.h).
// A rule's action, the random kind an opportunity may draw and the action a fired fault
// took are all a FaultAction, so the actors that act on a fault compare enums and a
// misspelt action does not compile. Text appears only where a plan crosses the edge
// (scenario files, the command line, traces and reports), through the one name table
// below (sim/named.h; fault_action_name and parse_fault_action are its short-hands).
//
// Invariants:
//  (1) fault_action_name and parse_fault_action are inverse on every FaultAction.
//  (2) The names are part of traces, reports and scenario files: renaming one changes
//      pinned hashes and breaks files people wrote.
// Extending: add the enumerator and its row in kFaultActionNames, in the same position.
// Which actions a scenario may script, and where, is the catalog's (src/catalog).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/named.h"

namespace sim {

enum class FaultAction : std::uint8_t {
  kDrop,       // a network frame (or a datagram) is lost
  kCrash,      // an actor crashes at a crash site
  kFail,       // the operation at the site fails with a transient error
  kReorder,    // a server reorders what it holds ready
  kRestart,    // a server restarts
  kKill,       // a server is killed (an unclean crash)
  kFreeze,     // a connection goes silent both ways
  kDuplicate,  // a datagram arrives twice (the datagram channel only)
};

// In the enum's order (invariant 1). The meanings a scenario's reader sees are the
// catalog's, which knows what each action does to whom.
inline constexpr std::array<Named<FaultAction>, 8> kFaultActionNames{{
    {FaultAction::kDrop, "drop", ""},
    {FaultAction::kCrash, "crash", ""},
    {FaultAction::kFail, "fail", ""},
    {FaultAction::kReorder, "reorder", ""},
    {FaultAction::kRestart, "restart", ""},
    {FaultAction::kKill, "kill", ""},
    {FaultAction::kFreeze, "freeze", ""},
    {FaultAction::kDuplicate, "duplicate", ""},
}};
static_assert(names_every_value(kFaultActionNames));
inline constexpr std::size_t kFaultActionCount = kFaultActionNames.size();

template <>
constexpr std::span<const Named<FaultAction>> enum_names<FaultAction>() {
  return kFaultActionNames;
}

constexpr std::string_view fault_action_name(FaultAction action) { return name_of(action); }

// nullopt for a name no action has.
constexpr std::optional<FaultAction> parse_fault_action(std::string_view name) {
  return value_named<FaultAction>(name);
}

}  // namespace sim
