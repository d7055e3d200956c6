#pragma once
// The correlation key: what a frame, a fault opportunity or a trace event is about, as a
// few numbers. sim/ carries, compares, hashes and prints them, and gives them no meaning:
// the layer that wires the actors says what each part is and the name it prints under.
//
// Invariants:
//  (1) A part left at 0 does not apply (0 is never a meaningful value).
//  (2) Part 0 is the key's subject: the one number a trace event is filed under.
//  (3) A KeyMatch matches a key when every part it sets equals that part of the key.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace sim {

inline constexpr std::size_t kKeyParts = 3;

struct Key {
  std::array<std::int64_t, kKeyParts> parts{};

  std::int64_t subject() const { return parts[0]; }  // invariant (2)
  std::int64_t& operator[](std::size_t part) { return parts[part]; }
  std::int64_t operator[](std::size_t part) const { return parts[part]; }
  friend bool operator==(const Key&, const Key&) = default;
};

// What a fault rule asks of a key: the parts it sets must be equal, the rest are free.
struct KeyMatch {
  std::array<std::optional<std::int64_t>, kKeyParts> parts{};

  std::optional<std::int64_t>& operator[](std::size_t part) { return parts[part]; }
  const std::optional<std::int64_t>& operator[](std::size_t part) const { return parts[part]; }
  bool matches(const Key& key) const {
    for (std::size_t i = 0; i < kKeyParts; ++i) {
      if (parts[i] && *parts[i] != key.parts[i]) return false;
    }
    return true;
  }
  friend bool operator==(const KeyMatch&, const KeyMatch&) = default;
};

// The names the parts print under, given by the layer that gives them their meaning.
struct KeyNames {
  std::array<std::string_view, kKeyParts> parts{};

  std::string_view subject() const { return parts[0]; }
};

}  // namespace sim
