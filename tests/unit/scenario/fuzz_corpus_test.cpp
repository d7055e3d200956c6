// Replays the scenario fuzzer's stored corpus (tests/data/fuzz/scenario/) in the ordinary
// GCC build: every input is refused cleanly or round-trips through to_toml, exactly the
// oracle fuzz/scenario_fuzz.cpp applies under clang and libFuzzer.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/scenario_round_trip.h"

TEST_CASE("fuzz corpus: every stored input is refused cleanly or round-trips", "[fuzz]") {
  const std::filesystem::path dir =
      std::filesystem::path(EOSIM_SOURCE_DIR) / "tests/data/fuzz/scenario";
  int inputs = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::string why;
    const bool ok = fuzz::scenario_round_trip(text.str(), why);
    INFO(entry.path().filename().string() << ": " << why);
    CHECK(ok);
    accepted += lab::parse_scenario(text.str(), "corpus").ok() ? 1 : 0;
    ++inputs;
  }
  // Both sides are present: inputs the loader accepts and inputs it refuses.
  CHECK(inputs >= 30);
  CHECK(accepted >= 20);
  CHECK(accepted < inputs);
}
