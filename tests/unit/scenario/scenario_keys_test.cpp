// The key table's integer bounds against the loader and the reference: a file at each
// bound loads, one past either bound is refused naming the key, and the reference prints
// the same numbers (scenario_keys.h).

#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <string>

#include "src/scenario/scenario.h"
#include "src/scenario/scenario_keys.h"
#include "tests/support/scenario_load.h"

namespace {

constexpr std::int64_t kOrders = 3;     // the files' orders
constexpr std::int64_t kInstances = 2;  // and consumer instances

bool bounded(const lab::ScenarioKey& k) {
  return k.bounds.min != std::numeric_limits<std::int64_t>::min() ||
         k.bounds.max != std::numeric_limits<std::int64_t>::max() ||
         k.bounds.max_is != lab::IntBounds::Max::kNumber;
}

std::int64_t max_of(const lab::ScenarioKey& k) {
  switch (k.bounds.max_is) {
    case lab::IntBounds::Max::kOrders: return kOrders;
    case lab::IntBounds::Max::kInstances: return kInstances;
    case lab::IntBounds::Max::kNumber: break;
  }
  return k.bounds.max;
}

// A file that sets `k` to `value`, with what the key needs beside it: orders and instances
// for the bounds that are their values, latencies that leave room, heartbeats for
// client_timeout, a quorum queue for delivery_limit, a rule for the rule's keys.
std::string file_setting(const lab::ScenarioKey& k, std::int64_t value) {
  const std::string number = std::to_string(value);
  const bool list = k.type.find("array") != std::string_view::npos;
  const std::string assignment =
      std::string(k.key) + " = " + (list ? "[" + number + "]" : number) + "\n";
  std::map<std::string, std::map<std::string, std::string>> tables;
  tables["workload"]["orders"] = std::to_string(kOrders);
  tables["consumer"]["instances"] = std::to_string(kInstances);
  tables["network"]["latency_min"] = "0";
  tables["network"]["latency_max"] = "1000000000";
  if (k.key == "amounts") tables["workload"]["orders"] = "1";
  if (k.key == "client_timeout") tables["network"]["heartbeat"] = "10";
  if (k.key == "delivery_limit") tables["broker"]["queue"] = "\"quorum\"";
  std::string text = "name = \"bounds\"\n";
  if (k.table.empty()) text += assignment;
  for (const std::string table :
       {"workload", "producer", "consumer", "network", "broker", "faults", "expect"}) {
    auto& keys = tables[table];
    if (k.table == table) keys.erase(std::string(k.key));
    if (keys.empty() && k.table != table) continue;
    text += "[" + table + "]\n";
    for (const auto& [key, value_text] : keys) text += key + " = " + value_text + "\n";
    if (k.table == table) text += assignment;
  }
  if (k.table == "faults.script") {
    const bool timed = k.key == "tick" || k.key == "step";
    text += timed ? "[[faults.script]]\nat = \"broker.restart\"\ndo = \"restart\"\n"
                  : "[[faults.script]]\nat = \"consumer.on_deliver\"\ndo = \"crash\"\n";
    text += assignment;
  }
  return text;
}

void check_loads(const lab::ScenarioKey& k, std::int64_t value) {
  const std::string text = file_setting(k, value);
  INFO(text);
  const eosim::Result<lab::Scenario> result = lab::parse_scenario(text, "bounds.toml");
  CHECK(result.ok());
  if (!result.ok()) UNSCOPED_INFO(result.message());
}

void check_refused(const lab::ScenarioKey& k, std::int64_t value) {
  const std::string text = file_setting(k, value);
  INFO(text);
  const std::string message = test_support::refused(lab::parse_scenario(text, "bounds.toml"));
  const lab::LoadError parts = test_support::error_parts(message, "bounds.toml");
  CHECK(parts.key.size() >= k.key.size());
  CHECK(parts.key.substr(parts.key.size() - k.key.size()) == k.key);
}

}  // namespace

TEST_CASE("scenario keys: the loader takes exactly the bounds of the key table",
          "[scenario][keys]") {
  int checked = 0;
  for (const lab::ScenarioKey& k : lab::scenario_keys()) {
    if (!bounded(k)) continue;
    INFO(k.table << "." << k.key << ": " << lab::range_text(k));
    check_loads(k, k.bounds.min);
    check_refused(k, k.bounds.min - 1);
    if (max_of(k) != std::numeric_limits<std::int64_t>::max()) {
      check_loads(k, max_of(k));
      check_refused(k, max_of(k) + 1);
    } else {
      check_loads(k, std::numeric_limits<std::int64_t>::max());  // ">= min" means any above
    }
    ++checked;
  }
  CHECK(checked == 42);
}

TEST_CASE("scenario keys: the reference prints each key's bounds", "[scenario][keys]") {
  for (const lab::ScenarioKey& k : lab::scenario_keys()) {
    INFO(k.table << "." << k.key);
    const std::string range = lab::range_text(k);
    CHECK(range.find("{}") == std::string::npos);
    // Bounds the reference would not print are bounds nobody can read.
    CHECK(bounded(k) == (k.range.find("{}") != std::string_view::npos));
  }
  CHECK(lab::range_text(lab::scenario_key("", "seed")) == ">= 0");
  CHECK(lab::range_text(lab::scenario_key("", "max_steps")) == "1..10^9");
  CHECK(lab::range_text(lab::scenario_key("broker", "prefetch")) == "0..65535 (0 = unlimited)");
  CHECK(lab::range_text(lab::scenario_key("workload", "amounts")) ==
        "one per order, each 0..10^12");
  CHECK(lab::range_text(lab::scenario_key("faults.script", "attempt")) ==
        "1..1000000, if the site takes it");
  CHECK(lab::range_text(lab::scenario_key("faults.script", "instance")) ==
        "1..instances, if the site takes it");
  CHECK(lab::range_text(lab::scenario_key("expect", "lost")) == "1..orders, each once");
  CHECK(lab::range_text(lab::scenario_key("expect", "balance")).empty());
}
