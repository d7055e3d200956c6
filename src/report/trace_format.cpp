#include "src/report/trace_format.h"

#include <cstdio>
#include <map>
#include <ostream>

#include "sim/escape.h"
#include "src/diagram/sequence.h"
#include "src/orders/event_kinds.h"

namespace lab {

std::string format_trace_line(const sim::TraceEvent& e, const sim::KeyNames& names) {
  char head[64];
  std::snprintf(head, sizeof head, "%6llu t=%-6llu ", static_cast<unsigned long long>(e.step),
                static_cast<unsigned long long>(e.time));
  std::string line = head;
  line += e.actor;
  line.append(e.actor.size() < 10 ? 10 - e.actor.size() : 1, ' ');
  line += orders::event_kind_name(e.kind);
  if (!e.target.empty()) line += (e.kind == sim::EventKind::kRecv ? " <- " : " -> ") + e.target;
  if (e.subject != 0) {
    line += ' ';
    line += names.subject();
    line += '=' + std::to_string(e.subject);
  }
  if (!e.detail.empty()) line += "  " + e.detail;
  return line;
}

void write_trace_text(std::ostream& out, const std::vector<sim::TraceEvent>& events,
                      const sim::KeyNames& names) {
  for (const auto& e : events) out << format_trace_line(e, names) << '\n';
}

namespace {

// Mermaid participant ids must be plain words; labels must not contain ';' or '#'.
std::string mermaid_id(const std::string& actor) {
  const std::string id = sim::escape(actor, sim::escapes::kMermaidId);
  return id.empty() ? "unknown" : id;
}

std::string mermaid_label(const sim::TraceEvent& e, const sim::KeyNames& names, bool with_kind) {
  const std::string kind(orders::event_kind_name(e.kind));
  std::string label = with_kind ? kind : "";
  if (!e.detail.empty()) label += (label.empty() ? "" : ": ") + e.detail;
  if (with_kind && !e.target.empty()) label += " (" + e.target + ")";
  if (e.subject != 0) {
    label += " [";
    label += names.subject();
    label += ' ' + std::to_string(e.subject) + "]";
  }
  return label.empty() ? kind : sim::escape(label, sim::escapes::kMermaidText);
}

// Where each frame is drawn: in the row it was sent in, as the sequence diagram draws it
// (diagram::SequenceLayout matches each send with its "recv" or "lost"). Drawn where it
// arrived, a publish would come after the crash of the relay that had sent it.
struct FrameRows {
  std::vector<const diagram::Arrow*> sent_in;  // per event: the frame sent in it, or null
  std::vector<bool> ends_frame;                // per event: a recv/lost drawn at its send
};

FrameRows frame_rows(const std::vector<sim::TraceEvent>& events,
                     const std::vector<std::string>& lanes, diagram::SequenceLayout& layout) {
  layout.reset(lanes);
  layout.update(events, 1);
  FrameRows rows{std::vector<const diagram::Arrow*>(events.size(), nullptr),
                 std::vector<bool>(events.size(), false)};
  for (const diagram::Arrow& a : layout.arrows()) {
    if (events[a.from_row].kind != sim::EventKind::kSend) continue;
    rows.sent_in[a.from_row] = &a;
    if (a.kind != diagram::ArrowKind::kInFlight) rows.ends_frame[a.to_row] = true;
  }
  return rows;
}

void write_frame(std::ostream& out, const std::vector<sim::TraceEvent>& events,
                 const diagram::Arrow& a, const sim::KeyNames& names) {
  const sim::TraceEvent& sent = events[a.from_row];
  const std::string from = mermaid_id(sent.actor), to = mermaid_id(sent.target);
  if (a.kind == diagram::ArrowKind::kDelivered) {
    out << "  " << from << "->>" << to << ": " << mermaid_label(sent, names, false) << '\n';
  } else if (a.kind == diagram::ArrowKind::kLost) {
    // The lost event's detail says why ("... (dropped by rule 1)").
    out << "  " << from << "-x" << to << ": " << mermaid_label(events[a.to_row], names, false)
        << '\n';
  } else {
    out << "  " << from << "-)" << to << ": " << mermaid_label(sent, names, false)
        << " (still in flight)\n";
  }
}

}  // namespace

void write_trace_mermaid(std::ostream& out, const std::vector<sim::TraceEvent>& events,
                         const sim::KeyNames& names, const std::vector<std::string>& lanes) {
  out << "sequenceDiagram\n";
  // Participants in order of first appearance, so the diagram reads left to right.
  std::map<std::string, bool> seen;
  auto declare = [&](const std::string& actor) {
    if (actor.empty() || seen.count(actor)) return;
    seen[actor] = true;
    out << "  participant " << mermaid_id(actor) << " as " << actor << '\n';
  };
  std::map<std::string, bool> used;
  for (const auto& e : events) {
    used[e.actor] = true;
    used[e.target] = true;
  }
  for (const auto& lane : lanes) {
    if (used.count(lane)) declare(lane);
  }
  for (const auto& e : events) {
    declare(e.actor);
    declare(e.target);
  }
  diagram::SequenceLayout layout;
  const FrameRows frames = frame_rows(events, lanes, layout);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const sim::TraceEvent& e = events[i];
    const std::string self = mermaid_id(e.actor);
    if (frames.sent_in[i]) {
      write_frame(out, events, *frames.sent_in[i], names);
      continue;
    }
    if (frames.ends_frame[i] || e.kind == sim::EventKind::kSend) continue;
    if (e.kind == sim::EventKind::kRecv) {
      out << "  " << mermaid_id(e.target) << "->>" << self << ": " << mermaid_label(e, names, false)
          << '\n';
    } else if (e.kind == sim::EventKind::kLost) {
      out << "  " << self << "-x" << mermaid_id(e.target) << ": " << mermaid_label(e, names, false)
          << '\n';
    } else if (e.kind == sim::EventKind::kConnect) {
      out << "  " << self << "-->>" << mermaid_id(e.target) << ": connect\n";
    } else if (!e.target.empty() && e.kind != sim::EventKind::kBroken &&
               e.kind != sim::EventKind::kDisconnected && e.kind != sim::EventKind::kRefused) {
      out << "  " << self << "->>" << mermaid_id(e.target) << ": " << mermaid_label(e, names, false)
          << '\n';
    } else {
      out << "  Note over " << self << ": " << mermaid_label(e, names, true) << '\n';
    }
  }
}

}  // namespace lab
