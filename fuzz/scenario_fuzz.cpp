// libFuzzer target for the scenario loader (lab::parse_scenario, through the toml++ guard),
// with the to_toml round trip as its oracle. Built by -DEOSIM_FUZZ=ON with clang; run by
// scripts/fuzz.sh with fuzz/toml.dict and the stored corpus tests/data/fuzz/scenario/.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/scenario_round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Everything a user can hand the loader: read_scenario_file refuses files over the cap.
  if (size > static_cast<std::size_t>(lab::kMaxScenarioBytes)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (!fuzz::scenario_round_trip(text, why)) {
    std::fprintf(stderr, "scenario round trip failed: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
