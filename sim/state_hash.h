#pragma once
// A hash of a run's state, for exhaustive search (explore's state merging): two runs in
// states with the same hash have the same futures, so everything a future step can read
// must be fed in (see src/world/world_state.cpp). FNV-1a, fed field by field; a string is
// fed with its length first, so ("ab", "c") and ("a", "bc") differ. 64 bits: a collision
// among the ~10^6 states of a large search has a chance of about 10^-8.

#include <cstdint>
#include <string_view>

namespace sim {

class StateHash {
 public:
  void add(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) byte(static_cast<unsigned char>(value >> (8 * i)));
  }
  void add(std::int64_t value) { add(static_cast<std::uint64_t>(value)); }
  void add(std::uint32_t value) { add(static_cast<std::uint64_t>(value)); }
  void add(std::int32_t value) { add(static_cast<std::int64_t>(value)); }
  void add(std::uint16_t value) { add(static_cast<std::uint64_t>(value)); }
  void add(bool value) { byte(value ? 1 : 0); }
  void add(std::string_view text) {
    add(static_cast<std::uint64_t>(text.size()));
    for (const char c : text) byte(static_cast<unsigned char>(c));
  }
  std::uint64_t value() const { return hash_; }

 private:
  void byte(unsigned char b) {
    hash_ ^= b;
    hash_ *= 0x100000001b3ULL;
  }
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

}  // namespace sim
