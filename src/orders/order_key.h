#pragma once
// The lab's correlation key: which part of a sim::Key (sim/key.h) holds the order, the
// delivery attempt and the actor instance, and the names they print under in traces,
// scenario files and reports. sim/ moves and compares keys without knowing any of this;
// every actor above it that builds a frame, a fault opportunity or a trace event uses
// this layout, so a rule written as `order = 2, attempt = 1` matches what they report.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/key.h"

namespace orders {

inline constexpr std::size_t kOrder = 0;     // 1-based order number (the key's subject)
inline constexpr std::size_t kAttempt = 1;   // delivery attempt of that order, 1 = first
inline constexpr std::size_t kInstance = 2;  // actor instance, 1-based (consumer n)

// How the parts print: " order=2" in a trace line, "order" in JSON and TOML.
inline constexpr sim::KeyNames kKeyNames{{"order", "attempt", "instance"}};

inline sim::Key order_key(std::int64_t order, std::int64_t attempt = 0, std::int64_t instance = 0) {
  sim::Key key;
  key[kOrder] = order;
  key[kAttempt] = attempt;
  key[kInstance] = instance;
  return key;
}

// A list of order numbers as reports print it: "[1, 3]", "[]" when empty.
inline std::string list_text(const std::vector<std::int64_t>& orders) {
  std::string s = "[";
  for (std::size_t i = 0; i < orders.size(); ++i) s += (i ? ", " : "") + std::to_string(orders[i]);
  return s + "]";
}

}  // namespace orders
