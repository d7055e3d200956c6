#pragma once
// One scenario loaded in a test: a file that must load (the test fails, showing the
// loader's error with its file, line and key, when it does not), an example of scenarios/
// by name, and inline text the loader must refuse.
// REQUIRES: the compile definition EOSIM_SOURCE_DIR (for load_example).

#include <catch2/catch.hpp>

#include <string>

#include "src/scenario/scenario.h"
#include "src/world/overrides.h"

namespace test_support {

inline lab::Scenario load_scenario_file(const std::string& path) {
  lab::Scenario s;
  lab::LoadError error;
  const bool loaded = lab::load_scenario(path, s, error);
  INFO(error.to_string());
  REQUIRE(loaded);
  return s;
}

// scenarios/NAME of the source tree.
inline lab::Scenario load_example(const std::string& name) {
  return load_scenario_file(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name);
}

// `s` with `overrides` applied as a front end applies them; fails the test when they do
// not apply.
inline lab::Scenario overridden(const lab::Scenario& s, const lab::ScenarioOverrides& overrides) {
  eosim::Result<lab::Scenario> applied = lab::apply_overrides(s, overrides);
  INFO((applied.ok() ? std::string() : applied.message()));
  REQUIRE(applied.ok());
  return applied.value();
}

// The error for `text`, parsed as a file named "inline.toml"; fails the test when it loads.
inline lab::LoadError parse_bad(const std::string& text) {
  lab::Scenario s;
  lab::LoadError error;
  const bool loaded = lab::parse_scenario(text, "inline.toml", s, error);
  INFO(text);
  REQUIRE_FALSE(loaded);
  return error;
}

}  // namespace test_support
