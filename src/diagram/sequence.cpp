// Trace events -> rows, lanes, arrows and notes (see sequence.h for the invariants).
#include "src/diagram/sequence.h"
#include "src/orders/event_kinds.h"

#include <algorithm>

namespace diagram {

namespace {

bool same_event(const sim::TraceEvent& a, const sim::TraceEvent& b) {
  return a.step == b.step && a.time == b.time && a.actor == b.actor && a.kind == b.kind &&
         a.target == b.target && a.subject == b.subject && a.detail == b.detail;
}

// "deliver tag=1 order-1 (connection broken)" -> "deliver tag=1 order-1": a lost event
// carries the frame's summary plus why it was lost.
std::string summary_of_lost(const std::string& detail) {
  const std::size_t open = detail.rfind(" (");
  return open == std::string::npos ? detail : detail.substr(0, open);
}

std::string pending_key(const std::string& from, const std::string& to,
                        const std::string& summary) {
  return from + '\x1f' + to + '\x1f' + summary;
}

struct KindOfNote {
  sim::EventKind kind;
  NoteKind note;
};
constexpr KindOfNote kNoteKinds[] = {{sim::EventKind::kCrash, NoteKind::kCrash},
                                     {sim::EventKind::kFault, NoteKind::kFault},
                                     {orders::event::kDuplicate, NoteKind::kDuplicate},
                                     {orders::event::kSkipped, NoteKind::kSkipped},
                                     {sim::EventKind::kRestart, NoteKind::kRestart},
                                     {sim::EventKind::kUp, NoteKind::kRestart},
                                     {orders::event::kEnqueue, NoteKind::kEnqueue},
                                     {orders::event::kCommit, NoteKind::kCommit},
                                     {sim::EventKind::kRefused, NoteKind::kWarn},
                                     {orders::event::kRejected, NoteKind::kWarn},
                                     {orders::event::kDbError, NoteKind::kWarn},
                                     {orders::event::kMisclassified, NoteKind::kWarn},
                                     {orders::event::kAckFailed, NoteKind::kWarn},
                                     {orders::event::kChannelError, NoteKind::kWarn},
                                     {orders::event::kDeadLetter, NoteKind::kWarn},
                                     {orders::event::kDiscard, NoteKind::kWarn},
                                     {sim::EventKind::kDisconnected, NoteKind::kWarn},
                                     {sim::EventKind::kFrozen, NoteKind::kWarn},
                                     {sim::EventKind::kSilentPeer, NoteKind::kWarn},
                                     {sim::EventKind::kLost, NoteKind::kWarn}};

NoteKind note_kind(sim::EventKind kind) {
  for (const KindOfNote& k : kNoteKinds) {
    if (kind == k.kind) return k.note;
  }
  return NoteKind::kPlain;
}

std::string note_text(const sim::TraceEvent& e) {
  std::string label(orders::event_kind_name(e.kind));
  switch (note_kind(e.kind)) {
    case NoteKind::kCrash:
    case NoteKind::kFault:
    case NoteKind::kDuplicate:
    case NoteKind::kSkipped:
    case NoteKind::kRestart:
      for (char& c : label) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
      break;
    default:
      break;
  }
  if (e.kind == sim::EventKind::kDisconnected) {
    return "disconnected from " + e.target + " (" + e.detail + ")";
  }
  return e.detail.empty() ? label : label + ": " + e.detail;
}

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

}  // namespace

bool is_store(const std::string& actor) {
  return actor == "orders" || actor == "ledger" || actor == "dedup" || actor == "mail";
}

std::string lane_title(const std::string& actor) {
  if (actor == "orders" || actor == "ledger") return actor + " DB";
  if (actor == "dedup") return "dedup store";
  if (actor == "mail") return "mail server";
  if (actor.empty()) return actor;
  std::size_t digits = actor.size();
  while (digits > 0 && actor[digits - 1] >= '0' && actor[digits - 1] <= '9') --digits;
  std::string title = actor.substr(0, digits);
  if (!title.empty() && title[0] >= 'a' && title[0] <= 'z') {
    title[0] = static_cast<char>(title[0] - 32);
  }
  if (digits < actor.size()) title += " " + actor.substr(digits);
  return title;
}

std::string lane_short_title(const std::string& actor) {
  if (actor == "orders" || actor == "ledger" || actor == "dedup" || actor == "mail") return actor;
  const std::string title = lane_title(actor);
  const std::size_t space = title.find(' ');
  const std::string word = title.substr(0, space), number =
                                                     space == std::string::npos ? "" : title.substr(space);
  return (word.size() > 6 ? word.substr(0, 4) : word) + number;
}

Tone arrow_tone(const Arrow& a) {
  switch (a.kind) {
    case ArrowKind::kLost:
    case ArrowKind::kBroken:
      return Tone::kBad;
    case ArrowKind::kCommit:
      return a.again ? Tone::kBad : Tone::kGood;
    case ArrowKind::kConnect:
      return Tone::kMuted;
    case ArrowKind::kInFlight:
    case ArrowKind::kDelivered:
      break;
  }
  if (a.redelivered) return Tone::kWarn;
  if (starts_with(a.label, "deliver")) return Tone::kInfo;
  if (starts_with(a.label, "ack")) return Tone::kGood;
  if (starts_with(a.label, "nack") || starts_with(a.label, "reject")) return Tone::kWarn;
  if (starts_with(a.label, "publish")) return Tone::kText;
  if (starts_with(a.label, "confirm ")) return Tone::kConfirm;
  return Tone::kMuted;  // qos, consume, confirm.select: connection setup
}

Tone note_tone(NoteKind kind) {
  switch (kind) {
    case NoteKind::kCrash:
      return Tone::kBad;
    case NoteKind::kFault:
      return Tone::kWarn;
    case NoteKind::kDuplicate:
      return Tone::kDuplicate;
    case NoteKind::kSkipped:
      return Tone::kSkipped;
    case NoteKind::kRestart:
      return Tone::kRestart;
    case NoteKind::kCommit:
      return Tone::kGood;
    case NoteKind::kEnqueue:
      return Tone::kMuted;
    case NoteKind::kWarn:
      return Tone::kTrouble;
    case NoteKind::kPlain:
      break;
  }
  return Tone::kNote;
}

void SequenceLayout::reset(const std::vector<std::string>& lane_actors) {
  const std::uint64_t generation = generation_ + 1;
  *this = SequenceLayout{};
  generation_ = generation;
  for (auto& actor : lane_actors) lanes_.push_back({actor, lane_title(actor), lane_short_title(actor), is_store(actor)});
}

int SequenceLayout::lane_of(const std::string& actor) {
  for (std::size_t i = 0; i < lanes_.size(); ++i) {
    if (lanes_[i].actor == actor) return static_cast<int>(i);
  }
  lanes_.push_back({actor, lane_title(actor), lane_short_title(actor), is_store(actor)});
  return static_cast<int>(lanes_.size() - 1);
}

std::size_t SequenceLayout::first_row_of_step(std::uint64_t step) const {
  const auto it = std::lower_bound(rows_.begin(), rows_.end(), step,
                                   [](const Row& r, std::uint64_t s) { return r.step < s; });
  return static_cast<std::size_t>(it - rows_.begin());
}

void SequenceLayout::update(const std::vector<sim::TraceEvent>& events, std::uint64_t revision) {
  const bool extends = built_ && revision == revision_ && events.size() >= rows_.size() &&
                       (rows_.empty() || same_event(events[rows_.size() - 1], last_));
  if (!extends) {
    std::vector<std::string> actors;
    for (const Lane& lane : lanes_) actors.push_back(lane.actor);
    reset(actors);
    built_ = true;
    revision_ = revision;
  }
  if (events.size() == rows_.size()) return;
  for (std::size_t i = rows_.size(); i < events.size(); ++i) add(events[i]);
  last_ = events.back();
  close_in_flight();
}

void SequenceLayout::add_arrow(const sim::TraceEvent& e, ArrowKind kind, const std::string& target,
                               std::string label) {
  Arrow a;
  a.from_row = a.to_row = rows_.size() - 1;
  a.from_lane = lane_of(e.actor);
  a.to_lane = lane_of(target);
  a.kind = kind;
  a.label = std::move(label);
  a.order = e.subject;
  a.redelivered = kind == ArrowKind::kInFlight && e.detail.find("redelivered") != std::string::npos;
  a.again =
      kind == ArrowKind::kCommit && target == "ledger" && e.subject > 0 && debits_[e.subject]++ > 0;
  // A second email the mail server kept for one order: the duplicate a ledger cannot see.
  const bool dup = e.kind == orders::event::kEffect && e.subject > 0 &&
                   e.detail.rfind("email sent", 0) == 0 && emails_[e.subject]++ > 0;
  a.again = a.again || dup;
  RowLabel& label_of_row = rows_.back().label;
  label_of_row.text = dup ? "DUP " + a.label : a.again ? "AGAIN " + a.label : a.label;
  label_of_row.lane = a.from_lane;
  label_of_row.toward = a.to_lane;
  label_of_row.lost = kind == ArrowKind::kLost;
  if (label_of_row.lost) label_of_row.text = "LOST: " + label_of_row.text;
  label_of_row.tone = arrow_tone(a);
  arrows_.push_back(std::move(a));
}

// A "recv" or "lost" event ends the oldest matching frame in flight. False when none does.
bool SequenceLayout::finish_frame(const sim::TraceEvent& e) {
  // recv: this actor received from target. lost: this actor's frame to target is gone.
  const bool recv = e.kind == sim::EventKind::kRecv;
  const std::string key = recv ? pending_key(e.target, e.actor, e.detail)
                               : pending_key(e.actor, e.target, summary_of_lost(e.detail));
  auto it = pending_.find(key);
  if (it == pending_.end() || it->second.empty()) return false;
  Arrow& a = arrows_[it->second.front()];
  it->second.pop_front();
  if (it->second.empty()) pending_.erase(it);
  a.to_row = rows_.size() - 1;
  a.kind = recv ? ArrowKind::kDelivered : ArrowKind::kLost;
  max_span_ = std::max(max_span_, a.to_row - a.from_row);
  if (!recv) {
    // The reason sits at the cross, half-way along the arrow, in the row it was lost in.
    rows_.back().label = {"LOST: " + e.detail, Tone::kBad, a.from_lane, a.to_lane, true};
  }
  return true;
}

void SequenceLayout::add(const sim::TraceEvent& e) {
  rows_.push_back({e.step, e.time, rows_.empty() || rows_.back().step != e.step, {}});
  const int lane = lane_of(e.actor);
  if (e.kind == sim::EventKind::kSend && !e.target.empty()) {
    add_arrow(e, ArrowKind::kInFlight, e.target, e.detail);
    pending_[pending_key(e.actor, e.target, e.detail)].push_back(arrows_.size() - 1);
    return;
  }
  if (e.kind == sim::EventKind::kRecv || (e.kind == sim::EventKind::kLost && !e.target.empty())) {
    if (finish_frame(e)) return;
    // Dropped as it was sent: no send event came before it.
    if (e.kind == sim::EventKind::kLost) return add_arrow(e, ArrowKind::kLost, e.target, e.detail);
  }
  if (e.kind == orders::event::kCommit && !e.target.empty()) {
    return add_arrow(e, ArrowKind::kCommit, e.target, "commit: " + e.detail);
  }
  if (e.kind == orders::event::kEffect && !e.target.empty()) {
    // An email is an effect outside every transaction: an arrow into the mail server.
    return add_arrow(e, ArrowKind::kCommit, e.target, e.detail);
  }
  if (e.kind == orders::event::kDedupStore) {
    // The separate store is a lane of its own, so the write that outlives a rollback shows.
    const std::string what = e.subject > 0 ? "order-" + std::to_string(e.subject) : e.detail;
    return add_arrow(e, ArrowKind::kCommit, "dedup", "mark seen: " + what);
  }
  if (e.kind == sim::EventKind::kConnect && !e.target.empty()) {
    return add_arrow(e, ArrowKind::kConnect, e.target, "connect (" + e.detail + ")");
  }
  if (e.kind == sim::EventKind::kBroken && !e.target.empty()) {
    return add_arrow(e, ArrowKind::kBroken, e.target, "connection broken: " + e.detail);
  }
  add_note(e, lane);
}

void SequenceLayout::add_note(const sim::TraceEvent& e, int lane) {
  const std::size_t row = rows_.size() - 1;
  notes_.push_back({row, lane, note_kind(e.kind), note_text(e)});
  rows_.back().label = {notes_.back().text, note_tone(notes_.back().kind), lane, -1, false};
  // Lifelines: a consumer or relay is down from its crash to its restart; the broker from
  // its restart to "up".
  const bool goes_down = e.kind == sim::EventKind::kCrash || (e.kind == sim::EventKind::kRestart && e.actor == "broker");
  const bool comes_up = (e.kind == sim::EventKind::kRestart && e.actor != "broker") || e.kind == sim::EventKind::kUp;
  if (goes_down) downtimes_.push_back({lane, row, row, true});
  if (comes_up) {
    for (auto& d : downtimes_) {
      if (d.open && d.lane == lane) {
        d.open = false;
        d.to_row = row;
      }
    }
  }
}

void SequenceLayout::close_in_flight() {
  const std::size_t last = rows_.empty() ? 0 : rows_.size() - 1;
  for (const auto& [key, queue] : pending_) {
    for (const std::size_t index : queue) {
      arrows_[index].to_row = last;
      max_span_ = std::max(max_span_, last - arrows_[index].from_row);
    }
  }
  for (auto& d : downtimes_) {
    if (d.open) d.to_row = last;
  }
}

}  // namespace diagram
