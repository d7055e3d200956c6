#pragma once
// The trace: structured events, a stable 64-bit hash, and its recording format.
//
// Every event is stamped with the scheduler's step and time. The hash is FNV-1a 64 over
// a canonical encoding of each event's fields (decimal numbers, fields separated by 0x1f,
// events by 0x1e), so it does not depend on build type, platform or exporter.
//
// Keeping events is optional: long runs and sweeps set keep(false) and still get the
// same hash and count, so memory does not grow with the run (sinks can stream events).

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sim/event_kind.h"
#include "sim/key.h"
#include "sim/scheduler.h"

namespace sim {

struct TraceEvent {
  std::uint64_t step = 0;
  Tick time = 0;
  std::string actor;   // the node it happened at: "server", "client1", ...
  EventKind kind = EventKind::kSend;  // hashed and written as its name (EventKindNames)
  std::string target;  // the other actor of a message ("" when none)
  std::int64_t subject = 0;  // the subject of its key (sim/key.h), 0 = none
  std::string detail;  // human-readable, part of the hash
};

// One piece of an event's detail text: a string or a decimal number. A detail given in
// pieces is hashed piece by piece (FNV-1a is a stream, so that is the hash of the joined
// text) and joined into a string only when the event is kept or a sink wants it: a sweep,
// which keeps no events, formats and allocates nothing for it.
struct DetailPart {
  DetailPart(std::string_view piece) : text(piece) {}  // NOLINT: implicit on purpose
  DetailPart(const std::string& piece) : text(piece) {}
  DetailPart(const char* piece) : text(piece) {}
  template <class T>
    requires std::is_integral_v<T> && (!std::is_same_v<T, bool>) && (!std::is_same_v<T, char>)
  DetailPart(T value)  // NOLINT: implicit on purpose
      : is_number(true), is_signed(std::is_signed_v<T>),
        number(static_cast<std::uint64_t>(value)) {}

  std::string_view text;
  bool is_number = false;
  bool is_signed = false;
  std::uint64_t number = 0;  // the value's bits; read as signed when is_signed
};

// The parts joined into one string with a single allocation (a frame's summary, which
// travels with the frame and is traced when it is sent and when it arrives).
std::string concat(std::span<const DetailPart> parts);
inline std::string concat(std::initializer_list<DetailPart> parts) {
  return concat(std::span<const DetailPart>(parts.begin(), parts.size()));
}

class FoldTable;  // sim/fold.h

// Who, what and to whom, for events recorded over and over with the same three (a
// connection's frames sent and arrived): the fold of their text (sim/fold.h) is found once,
// when the head is made (Trace::head), and not again for every event. The views must
// outlive the head; the fold lives as long as the head, on any thread.
struct TraceHead {
  std::string_view actor;
  EventKind kind = EventKind::kSend;
  std::string_view target;
  std::shared_ptr<const FoldTable> fold;  // nullptr: folded byte by byte, as without a head
};

// The names a trace is hashed and written with, handed in by the layer that gives its key
// parts and its event kinds above the kernel's their meaning.
struct TraceNames {
  KeyNames key;
  EventKindNames kinds;
};

class Trace {
 public:
  explicit Trace(const Scheduler& scheduler) : scheduler_(scheduler) {}

  // The names of the kinds above the kernel's that this trace records (none until named).
  // REQUIRES: called before the first event of such a kind.
  void name_kinds(EventKindNames names) { kinds_ = names; }

  // Records one event stamped with the scheduler's step and time. `subject` is part 0
  // of the key of what it is about (0 = none); `detail` is the concatenation of its parts.
  void record(std::string_view actor, EventKind kind, std::string_view target, std::int64_t subject,
              std::span<const DetailPart> detail);
  void record(std::string_view actor, EventKind kind, std::string_view target, std::int64_t subject,
              std::initializer_list<DetailPart> detail) {
    record(actor, kind, target, subject, std::span<const DetailPart>(detail.begin(), detail.size()));
  }
  void record(std::string_view actor, EventKind kind, std::string_view target, std::int64_t subject,
              std::string_view detail) {
    record(actor, kind, target, subject, {DetailPart(detail)});
  }

  // The head of events of (actor, kind, target). REQUIRES: `kind` is named (name_kinds).
  TraceHead head(std::string_view actor, EventKind kind, std::string_view target) const;
  // Records the same event as record(head.actor, head.kind, head.target, ...) does.
  void record(const TraceHead& head, std::int64_t subject, std::span<const DetailPart> detail);

  void keep(bool keep_events) { keep_ = keep_events; }
  void add_sink(std::function<void(const TraceEvent&)> sink) {
    sinks_.push_back(std::move(sink));
  }

  std::uint64_t hash() const { return hash_; }
  std::uint64_t size() const { return count_; }
  const std::vector<TraceEvent>& events() const { return events_; }

 private:
  // Hashes one event whose middle is folded by `fold` (nullptr: byte by byte). One copy
  // of the hot path, which both record()s call.
  [[gnu::noinline]] void record_with(std::string_view actor, EventKind kind,
                                     std::string_view target, const FoldTable* fold,
                                     std::int64_t subject, std::span<const DetailPart> detail);
  // The event for the sinks and the kept list: only traces that keep or stream events.
  [[gnu::cold, gnu::noinline]] void keep_event(std::uint64_t step, Tick time,
                                               std::string_view actor, EventKind kind,
                                               std::string_view target, std::int64_t subject,
                                               std::span<const DetailPart> detail);

  const Scheduler& scheduler_;
  EventKindNames kinds_;
  bool keep_ = true;
  std::vector<TraceEvent> events_;
  std::vector<std::function<void(const TraceEvent&)>> sinks_;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;  // FNV-1a offset basis
  std::uint64_t count_ = 0;
};

// FNV-1a 64 of one event folded into `hash` (exposed for tests and replays).
std::uint64_t hash_event(std::uint64_t hash, const TraceEvent& event, const EventKindNames& kinds);
std::string hash_hex(std::uint64_t hash);

// The recording format, JSON Lines: one object per event, its kind by name and a subject
// under `names.key.subject()` (the layer above names both). Views of a trace for people
// (aligned text, Mermaid) are the report layer's (src/report/trace_format.h).
std::string format_jsonl(const TraceEvent& event, const TraceNames& names);
std::string json_escape(const std::string& text);
void write_jsonl(std::ostream& out, const std::vector<TraceEvent>& events, const TraceNames& names);

}  // namespace sim
