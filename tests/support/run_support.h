#pragma once
// Runs a scenario through lab::run_scenario, or builds its World, failing the test when the
// world cannot be built (and saying why).

#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "src/world/world.h"
#include "tests/support/status_support.h"

namespace run_support {

inline lab::RunSummary run(const lab::Scenario& s, const lab::WorldOptions& options = {}) {
  lab::RunSummary out;
  REQUIRE_OK(lab::run_scenario(s, options, out, nullptr));
  return out;
}

inline std::unique_ptr<lab::World> world(const lab::Scenario& s,
                                         const lab::WorldOptions& options = {}) {
  eosim::Result<std::unique_ptr<lab::World>> created = lab::World::create(s, options);
  REQUIRE_OK(created.status());
  return std::move(created.value());
}

}  // namespace run_support
