#pragma once
// How many seeds the heaviest property tests walk. Normally all of them (the count the
// test names); under the sanitizers scripts/sanitize.sh sets EOSIM_TEST_SEED_DIVISOR=8,
// and a test walks the first eighth (at least one seed). The sanitizers look for memory
// and undefined-behaviour errors, which the same code paths show on 10 seeds as on 40,
// at 2-3x the cost per run; the Release ctest keeps the full counts and so the property
// itself (docs/testing.md, "CI"). A value that is not a whole number from 1 to 1000 fails
// the test instead of being guessed at.

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace test_support {

// The divisor EOSIM_TEST_SEED_DIVISOR asks for (1 when unset).
inline std::uint64_t seed_divisor() {
  const char* text = std::getenv("EOSIM_TEST_SEED_DIVISOR");
  if (text == nullptr || *text == '\0') return 1;
  std::uint64_t value = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9' || value > 1000) {
      value = 0;
      break;
    }
    value = value * 10 + static_cast<std::uint64_t>(*c - '0');
  }
  if (value < 1 || value > 1000) {
    throw std::invalid_argument(
        "EOSIM_TEST_SEED_DIVISOR must be a whole number from 1 to 1000, got '" + std::string(text) +
        "'");
  }
  return value;
}

// The last seed of 1..`full` a test walks: `full`, or `full` / the divisor (at least 1).
inline std::uint64_t last_seed(std::uint64_t full) {
  const std::uint64_t scaled = full / seed_divisor();
  return scaled < 1 ? 1 : scaled;
}

}  // namespace test_support
