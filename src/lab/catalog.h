#pragma once
// The catalog: every name a scenario, the CLI (`eosim list`) or the GUI may use, each with
// one line of meaning. It is the single source of these names: the scenario loader
// validates against it and the listings print it, so they cannot drift apart.
//
// Invariants:
//  (1) Names are unique within each list; the lists keep a fixed teaching order.
//  (2) Every fault site allows at least one action, and every action it allows is a
//      random fault kind; only network sites (`net.*`) carry frames, and each frame a
//      network site carries is a frame kind.
//  (3) The lists are built once and never change; pointers returned by the find_*
//      functions stay valid for the life of the program.

#include <string>
#include <string_view>
#include <vector>

namespace lab {

struct CatalogEntry {
  std::string_view name;
  std::string_view meaning;
};

struct FaultSite {
  std::string_view name;
  std::vector<std::string_view> actions;  // what a [[faults.script]] rule may `do` here
  std::string_view meaning;
  // Frame kinds that travel on this link (network sites only; empty elsewhere). A rule's
  // `frame` must be one of them, since a rule for a frame that never crosses the link
  // could never fire.
  std::vector<std::string_view> frames;
  // Whether a rule here may fire at a moment: a virtual time (`tick`) or right after a
  // step (`step`, how the GUI's buttons are replayed).
  bool timed = false;
  // A site with no opportunities of its own (a process crash "now"): a rule here fires
  // only at a moment, so it needs `tick` or `step`.
  bool moment_only = false;

  bool is_network() const { return !frames.empty(); }
  bool allows(std::string_view action) const;
  bool carries(std::string_view frame) const;
};

// Consumer strategies (DESIGN.md's table), producer patterns, queue types.
const std::vector<CatalogEntry>& strategies();
const std::vector<CatalogEntry>& producers();
const std::vector<CatalogEntry>& queue_types();
// Fault sites with their allowed actions; random fault kinds; network frame kinds.
const std::vector<FaultSite>& fault_sites();
const std::vector<CatalogEntry>& fault_kinds();
const std::vector<CatalogEntry>& frame_kinds();
// The checker's verdicts, in DESIGN.md's order of precedence after `exactly-once`.
const std::vector<CatalogEntry>& verdicts();

// Lookups return nullptr for an unknown name.
const CatalogEntry* find_strategy(std::string_view name);
const CatalogEntry* find_producer(std::string_view name);
const CatalogEntry* find_queue_type(std::string_view name);
const FaultSite* find_fault_site(std::string_view name);
const CatalogEntry* find_fault_kind(std::string_view name);
const CatalogEntry* find_frame_kind(std::string_view name);
const CatalogEntry* find_verdict(std::string_view name);

// "a, b, c": the names of a list, for error messages that say what was expected.
std::string join_names(const std::vector<CatalogEntry>& entries);
std::string join_names(const std::vector<FaultSite>& sites);
std::string join_names(const std::vector<std::string_view>& names);

}  // namespace lab
