#pragma once
// One scenario loaded in a test: a load that must succeed (the test fails, showing the
// loader's error with its file, line and key, when it does not), an example of scenarios/
// by name, inline text the loader must refuse, and the parts of a refusal's message.
// REQUIRES: the compile definition EOSIM_SOURCE_DIR (for load_example).

#include <catch2/catch.hpp>

#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "src/scenario/scenario.h"
#include "src/status/status.h"
#include "src/world/overrides.h"

namespace test_support {

// The value of a load (a scenario, a lesson, a fixed twin) that must succeed.
template <class T>
T loaded(eosim::Result<T> result) {
  INFO((result.ok() ? std::string() : result.message()));
  REQUIRE(result.ok());
  return std::move(result.value());
}

// The error message of a load that must fail.
template <class T>
std::string refused(const eosim::Result<T>& result) {
  REQUIRE_FALSE(result.ok());
  return result.message();
}

// The parts of a loader's one-line error "FILE:LINE: key `K`: MESSAGE" (LoadError::to_string:
// no LINE part when no line applies, no key part when no key does), read back from the text
// a user sees so that a test checks each. `file` is the name the test gave the loader.
inline lab::LoadError error_parts(const std::string& text, const std::string& file) {
  INFO(text);
  REQUIRE(text.rfind(file + ":", 0) == 0);
  lab::LoadError parts;
  parts.file = file;
  std::string_view rest = std::string_view(text).substr(file.size() + 1);
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
  if (digits > 0 && digits < rest.size() && rest[digits] == ':') {
    parts.line = std::stoll(std::string(rest.substr(0, digits)));
    rest.remove_prefix(digits + 1);
  }
  REQUIRE(rest.substr(0, 1) == " ");
  rest.remove_prefix(1);
  if (rest.rfind("key `", 0) == 0) {
    const std::size_t end = rest.find("`: ");
    REQUIRE(end != std::string_view::npos);
    parts.key = std::string(rest.substr(5, end - 5));
    rest.remove_prefix(end + 3);
  }
  parts.message = std::string(rest);
  return parts;
}

inline lab::Scenario load_scenario_file(const std::string& path) {
  return loaded(lab::load_scenario(path));
}

// scenarios/NAME of the source tree.
inline lab::Scenario load_example(const std::string& name) {
  return load_scenario_file(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name);
}

// `s` with `overrides` applied as a front end applies them; fails the test when they do
// not apply.
inline lab::Scenario overridden(const lab::Scenario& s, const lab::ScenarioOverrides& overrides) {
  return loaded(lab::apply_overrides(s, overrides));
}

// The error for `text`, parsed as a file named "inline.toml", in its parts; fails the test
// when it loads.
inline lab::LoadError parse_bad(const std::string& text) {
  INFO(text);
  return error_parts(refused(lab::parse_scenario(text, "inline.toml")), "inline.toml");
}

}  // namespace test_support
