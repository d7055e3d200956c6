#include "sim/event_kind.h"

#include <array>

namespace sim {

namespace {

// In the enum's order (event_kind.h invariant 1).
constexpr std::array<std::string_view, 34> kEventKindNames = {
    "send",    "recv",    "lost",        "connect",  "refused",       "disconnected",
    "broken",  "frozen",  "silent-peer", "start",    "crash",         "restart",
    "up",      "fault",   "enqueue",     "reorder",  "dead-letter",   "requeue",
    "discard", "commit",  "sent",        "handle",   "checked",       "duplicate",
    "skipped", "rejected", "misclassified", "db-error", "ack-failed", "channel-error",
    "dedup-store", "dedup-expired", "effect", "learn"};
static_assert(kEventKindNames.size() == static_cast<std::size_t>(EventKind::kLearn) + 1);

}  // namespace

std::string_view event_kind_name(EventKind kind) {
  return kEventKindNames.at(static_cast<std::size_t>(kind));
}

std::optional<EventKind> parse_event_kind(std::string_view name) {
  for (std::size_t i = 0; i < kEventKindNames.size(); ++i) {
    if (kEventKindNames[i] == name) return static_cast<EventKind>(i);
  }
  return std::nullopt;
}

}  // namespace sim
