#pragma once
// The property the scenario fuzzer checks on every input, shared with the Catch2 test that
// replays the stored corpus (tests/unit/scenario/fuzz_corpus_test.cpp) in ordinary builds:
//   - the loader never crashes, hangs or trips a sanitizer, whatever the bytes;
//   - an accepted scenario written back with to_toml loads again, to the same Scenario.

#include <string>
#include <string_view>

#include "src/scenario/scenario.h"

namespace fuzz {

// True when `text` is refused cleanly, or accepted and round-trips. Otherwise false with
// what broke in `why`.
inline bool scenario_round_trip(std::string_view text, std::string& why) {
  lab::Scenario first;
  lab::LoadError error;
  if (!lab::parse_scenario(text, "fuzz.toml", first, error)) {
    if (error.message.empty()) {
      why = "refused without a message";
      return false;
    }
    return true;
  }
  const std::string written = lab::to_toml(first);
  lab::Scenario second;
  if (!lab::parse_scenario(written, "fuzz.toml", second, error)) {
    why = "to_toml wrote a file the loader refuses: " + error.to_string() + "\n" + written;
    return false;
  }
  if (!(second == first)) {
    why = "to_toml -> load changed the scenario:\n" + written;
    return false;
  }
  return true;
}

}  // namespace fuzz
