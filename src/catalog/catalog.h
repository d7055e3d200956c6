#pragma once
// The catalog: every name a scenario, the CLI (`eosim list`) or the GUI may use, each with
// one line of meaning. It is the single source of these names: the scenario loader
// validates against it and the listings print it, so they cannot drift apart.
//
// Invariants:
//  (1) Names are unique within each list; the lists keep a fixed teaching order.
//  (2) The fault sites are in catalog/fault_sites.h (included here); every action a site
//      allows is a random fault kind, and each frame a network site carries is a frame
//      kind.
//  (3) The lists are built once and never change; pointers returned by the find_*
//      functions stay valid for the life of the program.

#include <string>
#include <string_view>
#include <vector>

#include "src/catalog/fault_sites.h"

namespace lab {

struct CatalogEntry {
  std::string_view name;
  std::string_view meaning;
};


// Consumer strategies (in teaching order), producer patterns, queue types.
const std::vector<CatalogEntry>& strategies();
const std::vector<CatalogEntry>& producers();
const std::vector<CatalogEntry>& queue_types();
// Random fault kinds (the actions of catalog/fault_sites.h); network frame kinds.
const std::vector<CatalogEntry>& fault_kinds();
const std::vector<CatalogEntry>& frame_kinds();
// The checker's verdicts, `exactly-once` then the others by precedence
// (docs/scenario-format.md, "How a run is judged").
const std::vector<CatalogEntry>& verdicts();

// Lookups return nullptr for an unknown name.
const CatalogEntry* find_strategy(std::string_view name);
const CatalogEntry* find_producer(std::string_view name);
const CatalogEntry* find_queue_type(std::string_view name);
const CatalogEntry* find_fault_kind(std::string_view name);
const CatalogEntry* find_frame_kind(std::string_view name);
const CatalogEntry* find_verdict(std::string_view name);

// "a, b, c": the names of a list, for error messages that say what was expected.
std::string join_names(const std::vector<CatalogEntry>& entries);
std::string join_names(const std::vector<std::string_view>& names);

}  // namespace lab
