#pragma once
// Every key a scenario file may hold, per table, with its type, default, range and meaning:
// the loader accepts exactly these names (TableReader::only_keys reads keys_of), and
// docs/scenario-format.md is generated from this table (a test compares), so the reference
// cannot name a key the loader refuses or miss one it accepts.
//
// Invariants: (table, key) pairs are unique; tables appear in document order; the types,
// defaults and ranges say what scenario_load.cpp checks (its read_* calls). An integer
// key's bounds are numbers here, which the loader reads (scenario_load.cpp) and the
// reference prints (range_text), so the two cannot drift apart.

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lab {

// The integers an integer key accepts (each element's, for a list of them): min..max,
// where max may be the value of a key the loader read before (the orders, the consumer
// instances). The default accepts every integer.
struct IntBounds {
  enum class Max : std::uint8_t { kNumber, kOrders, kInstances };
  std::int64_t min = std::numeric_limits<std::int64_t>::min();
  std::int64_t max = std::numeric_limits<std::int64_t>::max();  // with Max::kNumber
  Max max_is = Max::kNumber;
};

struct ScenarioKey {
  std::string_view table;          // "" for the top level, "workload", "faults.script", ...
  std::string_view key;
  std::string_view type;           // "integer", "string", "boolean", "array of integers", ...
  std::string_view default_value;  // "" when the key is required
  // Allowed values, "" when any value of the type is; "{}" stands for `bounds` as
  // range_text writes them ("1..16", "0..10^9", ">= 1", "1..orders").
  std::string_view range;
  std::string_view meaning;
  IntBounds bounds{};  // integer keys and lists of integers
};

std::span<const ScenarioKey> scenario_keys();
// The keys of one table, in document order.
std::vector<std::string_view> keys_of(std::string_view table);
// The entry of `key` in `table`. REQUIRES: it is one (a loader's call names a listed key).
const ScenarioKey& scenario_key(std::string_view table, std::string_view key);
// `key.range` with its bounds written in place of "{}".
std::string range_text(const ScenarioKey& key);

}  // namespace lab
