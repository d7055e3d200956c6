#pragma once
// What a trace event says happened, one word each. The kernel names its own kinds: the
// network's (sim/network.h writes them) and a process's life. A layer above adds its
// kinds as ids from kFirstAbove on and hands their names in (EventKindNames), as KeyNames
// names a key's parts, so the kernel carries, hashes and writes a kind it does not know.
// A trace still holds one closed vocabulary: a misspelt kind does not compile, and
// readers of a trace (diagrams, reports, the GUI) compare ids instead of text.
//
// Invariants:
//  (1) EventKindNames::name and ::parse are inverse on every kind the names cover.
//  (2) The names are part of every trace's bytes and hash (sim/trace.h): renaming one
//      changes every pinned hash; adding one changes none. The ids are not: they are
//      never written.
// Extending: a kernel kind is added before kFirstAbove, with its name in
// kKernelEventKindNames in the same position.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/assert.h"

namespace sim {

enum class EventKind : std::uint8_t {
  // The network's (sim/network.h).
  kSend,
  kRecv,
  kLost,
  kConnect,
  kRefused,
  kDisconnected,
  kBroken,
  kFrozen,
  kSilentPeer,
  // A process's life and the faults done to it.
  kStart,
  kCrash,
  kRestart,
  kUp,
  kFault,
  // The first id a layer above gives its own kinds (names_above_kernel).
  kFirstAbove,
};

// In the enum's order (invariant 1).
inline constexpr std::array<std::string_view, static_cast<std::size_t>(EventKind::kFirstAbove)>
    kKernelEventKindNames = {"send",         "recv",    "lost",   "connect",     "refused",
                             "disconnected", "broken",  "frozen", "silent-peer", "start",
                             "crash",        "restart", "up",     "fault"};

// The `index`-th kind of the layer above.
constexpr EventKind kind_above(std::size_t index) {
  return static_cast<EventKind>(static_cast<std::size_t>(EventKind::kFirstAbove) + index);
}

// The kernel's names followed by `above`, the names of kind_above(0), kind_above(1), ...:
// the table a layer hands in (EventKindNames::all).
template <std::size_t N>
constexpr std::array<std::string_view, kKernelEventKindNames.size() + N> names_above_kernel(
    const std::array<std::string_view, N>& above) {
  std::array<std::string_view, kKernelEventKindNames.size() + N> all{};
  for (std::size_t i = 0; i < kKernelEventKindNames.size(); ++i) all[i] = kKernelEventKindNames[i];
  for (std::size_t i = 0; i < N; ++i) all[kKernelEventKindNames.size() + i] = above[i];
  return all;
}

// The names of a trace's kinds by id. One table, the kernel's names first, so that naming
// a kind is one bounds-checked index: it is done for every event a run records and hashes.
// REQUIRES: `all` begins with kKernelEventKindNames (names_above_kernel builds it so).
struct EventKindNames {
  std::span<const std::string_view> all = kKernelEventKindNames;

  std::string_view name(EventKind kind) const {
    const auto id = static_cast<std::size_t>(kind);
    EOSIM_ASSERT(id < all.size());  // a kind above the kernel's is named by its layer
    return all[id];
  }
  std::optional<EventKind> parse(std::string_view name) const {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (all[i] == name) return static_cast<EventKind>(i);
    }
    return std::nullopt;
  }
};

}  // namespace sim
