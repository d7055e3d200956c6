#pragma once
// Runs a scenario through lab::run_scenario, failing the test when the world cannot be built.

#include <catch2/catch.hpp>

#include <string>

#include "src/world/world.h"

namespace run_support {

inline lab::RunSummary run(const lab::Scenario& s) {
  lab::RunSummary out;
  std::string error;
  const bool built = lab::run_scenario(s, {}, out, nullptr, error);
  INFO(error);
  REQUIRE(built);
  return out;
}

}  // namespace run_support
