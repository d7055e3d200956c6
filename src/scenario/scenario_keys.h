#pragma once
// Every key a scenario file may hold, per table, with its type, default, range and meaning:
// the loader accepts exactly these names (TableReader::only_keys reads keys_of), and
// docs/scenario-format.md is generated from this table (a test compares), so the reference
// cannot name a key the loader refuses or miss one it accepts.
//
// Invariants: (table, key) pairs are unique; tables appear in document order; the types,
// defaults and ranges say what scenario_load.cpp checks (its read_* calls).

#include <span>
#include <string_view>
#include <vector>

namespace lab {

struct ScenarioKey {
  std::string_view table;          // "" for the top level, "workload", "faults.script", ...
  std::string_view key;
  std::string_view type;           // "integer", "string", "boolean", "array of integers", ...
  std::string_view default_value;  // "" when the key is required
  std::string_view range;          // allowed values, "" when any value of the type is
  std::string_view meaning;
};

std::span<const ScenarioKey> scenario_keys();
// The keys of one table, in document order.
std::vector<std::string_view> keys_of(std::string_view table);

}  // namespace lab
