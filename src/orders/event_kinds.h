#pragma once
// The lab's trace event kinds above the kernel's (sim/event_kind.h): what the broker, the
// producer and relay, the consumer and the Two Generals say happened. They sit beside the
// order key because every actor above the kernel writes them; the kernel is handed their
// names through kTraceNames and never reads them.
//
// Invariants:
//  (1) kEventKindNames[i] names kind_above(i), in the order of the constants below.
//  (2) The names are part of every trace's bytes and hash (sim/event_kind.h (2)).
// Extending: add the constant with the next index and its name at that index.

#include <array>
#include <optional>
#include <string_view>

#include "sim/event_kind.h"
#include "sim/trace.h"
#include "src/orders/order_key.h"

namespace orders {

namespace event {
// The broker's queues.
inline constexpr sim::EventKind kEnqueue = sim::kind_above(0);
inline constexpr sim::EventKind kReorder = sim::kind_above(1);
inline constexpr sim::EventKind kDeadLetter = sim::kind_above(2);
inline constexpr sim::EventKind kRequeue = sim::kind_above(3);
inline constexpr sim::EventKind kDiscard = sim::kind_above(4);
// A database commit (producer, consumer) and the relay's bookkeeping.
inline constexpr sim::EventKind kCommit = sim::kind_above(5);
inline constexpr sim::EventKind kSent = sim::kind_above(6);
// A consumer's steps and findings.
inline constexpr sim::EventKind kHandle = sim::kind_above(7);
inline constexpr sim::EventKind kChecked = sim::kind_above(8);
inline constexpr sim::EventKind kDuplicate = sim::kind_above(9);
inline constexpr sim::EventKind kSkipped = sim::kind_above(10);
inline constexpr sim::EventKind kRejected = sim::kind_above(11);
inline constexpr sim::EventKind kMisclassified = sim::kind_above(12);
inline constexpr sim::EventKind kDbError = sim::kind_above(13);
inline constexpr sim::EventKind kAckFailed = sim::kind_above(14);
inline constexpr sim::EventKind kChannelError = sim::kind_above(15);
inline constexpr sim::EventKind kDedupStore = sim::kind_above(16);
inline constexpr sim::EventKind kDedupExpired = sim::kind_above(17);
inline constexpr sim::EventKind kEffect = sim::kind_above(18);
// The Two Generals' knowledge.
inline constexpr sim::EventKind kLearn = sim::kind_above(19);
}  // namespace event

// Invariant (1).
inline constexpr std::array<std::string_view, 20> kEventKindNames = {
    "enqueue",       "reorder",     "dead-letter",   "requeue",  "discard",
    "commit",        "sent",        "handle",        "checked",  "duplicate",
    "skipped",       "rejected",    "misclassified", "db-error", "ack-failed",
    "channel-error", "dedup-store", "dedup-expired", "effect",   "learn"};
static_assert(sim::kind_above(kEventKindNames.size() - 1) == event::kLearn);

// Every kind of a lab trace by id, the kernel's first (sim::EventKindNames::all).
inline constexpr auto kAllEventKindNames = sim::names_above_kernel(kEventKindNames);

// How the lab's traces are written and hashed: its key parts and its event kinds.
inline constexpr sim::TraceNames kTraceNames{kKeyNames, sim::EventKindNames{kAllEventKindNames}};

// "send", "dead-letter", ...: any kind of a lab trace, the kernel's included.
inline std::string_view event_kind_name(sim::EventKind kind) {
  return kTraceNames.kinds.name(kind);
}
inline std::optional<sim::EventKind> parse_event_kind(std::string_view name) {
  return kTraceNames.kinds.parse(name);
}

}  // namespace orders
