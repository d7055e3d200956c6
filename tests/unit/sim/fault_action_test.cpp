#include "sim/fault_action.h"

#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "tests/support/named_check.h"

TEST_CASE("fault actions: names and parse are inverse, and every name is distinct",
          "[faults]") {
  std::set<std::string> names;
  for (std::size_t i = 0; i < sim::kFaultActionCount; ++i) {
    const auto action = static_cast<sim::FaultAction>(i);
    const std::string_view name = sim::fault_action_name(action);
    INFO(name);
    CHECK_FALSE(name.empty());
    CHECK(names.insert(std::string(name)).second);
    CHECK(sim::parse_fault_action(name) == action);
  }
  // The names scenario files and traces carry (fault_action.h invariant 2).
  CHECK(sim::fault_action_name(sim::FaultAction::kDrop) == "drop");
  CHECK(sim::fault_action_name(sim::FaultAction::kFreeze) == "freeze");
  CHECK(sim::fault_action_name(sim::FaultAction::kDuplicate) == "duplicate");
  CHECK_FALSE(sim::parse_fault_action("Drop"));
  CHECK_FALSE(sim::parse_fault_action(""));
}

TEST_CASE("fault actions are named by their table", "[faults]") {
  check_named_round_trip<sim::FaultAction>();
  STATIC_REQUIRE(sim::fault_action_name(sim::FaultAction::kKill) == "kill");
  STATIC_REQUIRE(sim::parse_fault_action("freeze") == sim::FaultAction::kFreeze);
}
