#include "src/report/trace_format.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <ostream>

namespace lab {

std::string format_trace_line(const sim::TraceEvent& e, const sim::KeyNames& names) {
  char head[64];
  std::snprintf(head, sizeof head, "%6llu t=%-6llu ", static_cast<unsigned long long>(e.step),
                static_cast<unsigned long long>(e.time));
  std::string line = head;
  line += e.actor;
  line.append(e.actor.size() < 10 ? 10 - e.actor.size() : 1, ' ');
  line += sim::event_kind_name(e.kind);
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
  std::string id;
  for (const char c : actor) id += (std::isalnum(static_cast<unsigned char>(c)) ? c : '_');
  return id.empty() ? "unknown" : id;
}

std::string mermaid_label(const sim::TraceEvent& e, const sim::KeyNames& names, bool with_kind) {
  const std::string kind(sim::event_kind_name(e.kind));
  std::string label = with_kind ? kind : "";
  if (!e.detail.empty()) label += (label.empty() ? "" : ": ") + e.detail;
  if (with_kind && !e.target.empty()) label += " (" + e.target + ")";
  if (e.subject != 0) {
    label += " [";
    label += names.subject();
    label += ' ' + std::to_string(e.subject) + "]";
  }
  for (char& c : label) {
    if (c == ';' || c == '#' || c == '\n') c = ' ';
  }
  return label.empty() ? kind : label;
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
  // A frame is drawn when it arrives (an arrow from sender to receiver) or when it is
  // lost (a crossed arrow); "send" events would draw it twice.
  for (const auto& e : events) {
    const std::string self = mermaid_id(e.actor);
    if (e.kind == sim::EventKind::kSend) continue;
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
