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
  const eosim::Result<lab::Scenario> parsed = lab::parse_scenario(text, "fuzz.toml");
  if (!parsed.ok()) {
    if (parsed.message().empty()) {
      why = "refused without a message";
      return false;
    }
    return true;
  }
  const std::string written = lab::to_toml(parsed.value());
  const eosim::Result<lab::Scenario> second = lab::parse_scenario(written, "fuzz.toml");
  if (!second.ok()) {
    why = "to_toml wrote a file the loader refuses: " + second.message() + "\n" + written;
    return false;
  }
  if (!(second.value() == parsed.value())) {
    why = "to_toml -> load changed the scenario:\n" + written;
    return false;
  }
  return true;
}

}  // namespace fuzz
