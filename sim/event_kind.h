#pragma once
// What a trace event says happened, one word each. The kernel never interprets a kind
// beyond the network's own (sim/network.h writes the first group); the rest are written by
// the actors above it and listed here so that a trace holds one closed vocabulary: a
// misspelt kind does not compile, and readers of a trace (diagrams, reports, the GUI)
// switch on the enum instead of comparing text.
//
// Invariants:
//  (1) event_kind_name and parse_event_kind are inverse on every EventKind.
//  (2) The names are part of every trace's bytes and hash (sim/trace.h): renaming one
//      changes every pinned hash; adding one changes none.
// Extending: add the enumerator and its name in kEventKindNames (event_kind.cpp), in the
// same position.

#include <cstdint>
#include <optional>
#include <string_view>

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
  // The broker's queues.
  kEnqueue,
  kReorder,
  kDeadLetter,
  kRequeue,
  kDiscard,
  // A database commit (producer, consumer) and the relay's bookkeeping.
  kCommit,
  kSent,
  // A consumer's steps and findings.
  kHandle,
  kChecked,
  kDuplicate,
  kSkipped,
  kRejected,
  kMisclassified,
  kDbError,
  kAckFailed,
  kChannelError,
  kDedupStore,
  kDedupExpired,
  kEffect,
  // The Two Generals' knowledge.
  kLearn,
};

std::string_view event_kind_name(EventKind kind);  // "send", "dead-letter", ...
std::optional<EventKind> parse_event_kind(std::string_view name);

}  // namespace sim
