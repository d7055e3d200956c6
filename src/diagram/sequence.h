#pragma once
// The sequence diagram's structure in rows and lanes, built from trace events with no
// drawing and no pixels at all. One row per trace event, one lane per actor, database or
// store; a frame is an arrow from the row it was sent in to the row it arrived in. Both
// renderers (the GUI's ImGui draw list and the SVG writer) draw from this, through the
// pixel placement of placement.h.
//
// Invariants:
//  (1) rows()[i] is event i of the trace it was built from; rows are in trace order.
//  (2) Every "send" becomes one arrow: delivered (ends at its "recv"), lost (ends at its
//      "lost" event) or in flight (no end yet; to_row is the last row). Frames on one
//      direction arrive in order (TCP), so a send matches the oldest unmatched send with
//      the same (from, to, summary).
//  (3) arrows() are sorted by from_row, and no arrow spans more than max_span() rows: a
//      view that shows rows [a, b] needs only the arrows with from_row in
//      [a - max_span(), b] (how long runs stay cheap to draw).
//  (4) update() extends the layout when the trace only grew; any other change rebuilds
//      and bumps generation().
//  (5) Each row carries at most one label (RowLabel), fixed when the row is added: the
//      label of the arrow sent in it, the reason a frame was lost in it, or its note. One
//      label per row is what lets placement.h keep labels from ever overlapping.

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace diagram {

// What a colour means; each renderer maps a tone to its own colour.
enum class Tone {
  kText, kMuted, kGood, kBad, kWarn, kInfo, kConfirm, kDuplicate, kSkipped, kRestart,
  kTrouble, kNote
};

struct Lane {
  std::string actor;  // "consumer1", "ledger", "dedup"
  std::string title;  // "Consumer 1", "ledger DB", "dedup store"
  std::string short_title;  // "Cons 1", "ledger", "dedup": when the lanes are close
  bool store = false;  // a database or a store: drawn in another colour
};

enum class ArrowKind { kDelivered, kLost, kInFlight, kCommit, kConnect, kBroken };
enum class NoteKind {
  kPlain, kCommit, kCrash, kFault, kDuplicate, kSkipped, kRestart, kEnqueue, kWarn
};

struct Arrow {
  std::size_t from_row = 0, to_row = 0;
  int from_lane = 0, to_lane = 0;
  ArrowKind kind = ArrowKind::kDelivered;
  std::string label;  // the frame's summary, as the trace says it
  std::int64_t order = 0;
  bool redelivered = false;  // a basic.deliver with redelivered=true
  bool again = false;  // a debit for an order already debited, or a second email (DUP)
};

struct Note {
  std::size_t row = 0;
  int lane = 0;
  NoteKind kind = NoteKind::kPlain;
  std::string text;
};

// A stretch where an actor was down (crash .. restart): its lifeline is drawn broken.
struct Downtime {
  int lane = 0;
  std::size_t from_row = 0, to_row = 0;  // to_row = last row while still down
  bool open = false;
};

// The one label of a row (invariant 5), anchored to a lane.
struct RowLabel {
  std::string text;  // "" = the row has no label
  Tone tone = Tone::kText;
  int lane = 0;      // where the label is anchored
  int toward = -1;   // an arrow label: the arrow's other lane; -1 for a note
  bool lost = false;  // a lost frame's reason: anchored half-way, at the cross
};

struct Row {
  std::uint64_t step = 0;
  std::uint64_t time = 0;
  bool first_of_step = false;
  RowLabel label;
};

class SequenceLayout {
 public:
  // Lanes in the order they are drawn (lab::diagram_lanes). Clears everything.
  void reset(const std::vector<std::string>& lane_actors);
  // Brings the layout to `events`. `revision` names the run they come from: a different
  // revision always rebuilds; the same one with more events appends.
  void update(const std::vector<sim::TraceEvent>& events, std::uint64_t revision);

  const std::vector<Lane>& lanes() const { return lanes_; }
  const std::vector<Row>& rows() const { return rows_; }
  const std::vector<Arrow>& arrows() const { return arrows_; }
  const std::vector<Note>& notes() const { return notes_; }  // sorted by row
  const std::vector<Downtime>& downtimes() const { return downtimes_; }
  std::size_t max_span() const { return max_span_; }
  std::uint64_t revision() const { return revision_; }  // of the run last built from
  std::uint64_t generation() const { return generation_; }  // bumped by every rebuild
  // The first row of `step` (rows().size() if none), by binary search.
  std::size_t first_row_of_step(std::uint64_t step) const;
  int lane_of(const std::string& actor);  // adds a lane for an actor not seen before

 private:
  void add(const sim::TraceEvent& event);
  void add_arrow(const sim::TraceEvent& event, ArrowKind kind, const std::string& target,
                 std::string label);
  bool finish_frame(const sim::TraceEvent& event);
  void add_note(const sim::TraceEvent& event, int lane);
  void close_in_flight();

  std::vector<Lane> lanes_;
  std::vector<Row> rows_;
  std::vector<Arrow> arrows_;
  std::vector<Note> notes_;
  std::vector<Downtime> downtimes_;
  // Sends not yet received or lost, oldest first, by (from, to, summary).
  std::map<std::string, std::deque<std::size_t>> pending_;
  std::map<std::int64_t, int> debits_;  // ledger commits seen per order
  std::map<std::int64_t, int> emails_;  // emails the mail server kept, per order
  std::size_t max_span_ = 0;
  std::uint64_t revision_ = 0;
  std::uint64_t generation_ = 0;
  bool built_ = false;
  sim::TraceEvent last_;  // the last event added, to check that a longer trace extends it
};

// A lane title for people: "consumer2" -> "Consumer 2", "ledger" -> "ledger DB",
// "dedup" -> "dedup store".
std::string lane_title(const std::string& actor);
// The same, short enough for lanes packed at the minimum spacing: "consumer2" -> "Cons 2",
// "ledger" -> "ledger", "producer" -> "Prod".
std::string lane_short_title(const std::string& actor);
bool is_store(const std::string& actor);

// The colour of an arrow and of a note, by what they mean.
Tone arrow_tone(const Arrow& arrow);
Tone note_tone(NoteKind kind);

}  // namespace diagram
