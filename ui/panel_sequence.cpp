// The sequence diagram: one lane per actor, one row per trace event, an arrow per frame.
// Only the rows on screen are drawn (ImGuiListClipper), and only the arrows that can
// reach them (SequenceLayout invariant 3), so a 10,000-step run draws as fast as a short one.

#include <algorithm>
#include <cmath>
#include <string>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

struct Geometry {
  ImVec2 origin;  // screen position of row 0, lane area's left edge
  float gutter = 0;
  float lane_width = 0;
  float row_height = 0;
  float lane_x(int lane) const {
    return origin.x + gutter + (static_cast<float>(lane) + 0.5f) * lane_width;
  }
  float row_y(std::size_t row) const {
    return origin.y + (static_cast<float>(row) + 0.5f) * row_height;
  }
};

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }

ImU32 arrow_color(const Arrow& a) {
  switch (a.kind) {
    case ArrowKind::kLost:
    case ArrowKind::kBroken:
      return palette::kBad;
    case ArrowKind::kCommit:
      return a.again ? palette::kBad : palette::kGood;
    case ArrowKind::kConnect:
      return palette::kMuted;
    case ArrowKind::kInFlight:
    case ArrowKind::kDelivered:
      break;
  }
  if (a.redelivered) return palette::kWarn;
  if (starts_with(a.label, "deliver")) return palette::kInfo;
  if (starts_with(a.label, "ack")) return palette::kGood;
  if (starts_with(a.label, "nack") || starts_with(a.label, "reject")) return palette::kWarn;
  if (starts_with(a.label, "publish")) return palette::kText;
  if (starts_with(a.label, "confirm ")) return IM_COL32(120, 190, 150, 255);
  return palette::kMuted;  // qos, consume, confirm.select: connection setup
}

ImU32 note_color(NoteKind kind) {
  switch (kind) {
    case NoteKind::kCrash:
      return palette::kBad;
    case NoteKind::kFault:
      return palette::kWarn;
    case NoteKind::kDuplicate:
      return IM_COL32(255, 220, 90, 255);
    case NoteKind::kRestart:
      return IM_COL32(170, 200, 255, 255);
    case NoteKind::kCommit:
      return palette::kGood;
    case NoteKind::kEnqueue:
      return palette::kMuted;
    case NoteKind::kWarn:
      return IM_COL32(255, 150, 110, 255);
    case NoteKind::kPlain:
      break;
  }
  return IM_COL32(200, 200, 205, 255);
}

void dashed_line(ImDrawList* draw, ImVec2 a, ImVec2 b, ImU32 color, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float length = std::sqrt(dx * dx + dy * dy);
  if (length < 1.0f) return;
  const float dash = 6.0f;
  for (float t = 0; t < length; t += 2 * dash) {
    const float t2 = std::min(t + dash, length);
    draw->AddLine(ImVec2(a.x + dx * t / length, a.y + dy * t / length),
                  ImVec2(a.x + dx * t2 / length, a.y + dy * t2 / length), color, thickness);
  }
}

void arrow_head(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color) {
  const float dx = to.x - from.x, dy = to.y - from.y;
  const float length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
  const float ux = dx / length, uy = dy / length;
  const float size = 7.0f;
  draw->AddTriangleFilled(
      to, ImVec2(to.x - ux * size - uy * size * 0.5f, to.y - uy * size + ux * size * 0.5f),
      ImVec2(to.x - ux * size + uy * size * 0.5f, to.y - uy * size - ux * size * 0.5f), color);
}

void label_box(ImDrawList* draw, ImVec2 pos, const std::string& text, ImU32 color) {
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  draw->AddRectFilled(ImVec2(pos.x - 2, pos.y), ImVec2(pos.x + size.x + 2, pos.y + size.y),
                      IM_COL32(24, 26, 32, 215), 3.0f);
  draw->AddText(pos, color, text.c_str());
}

void draw_arrow(ImDrawList* draw, const Geometry& g, const Arrow& a, float right_edge) {
  const ImU32 color = arrow_color(a);
  const float half = g.row_height * 0.5f;
  ImVec2 from(g.lane_x(a.from_lane), g.row_y(a.from_row));
  ImVec2 to(g.lane_x(a.to_lane), g.row_y(a.to_row));
  const float thickness = a.redelivered || a.kind == ArrowKind::kCommit ? 2.5f : 1.5f;
  const ImVec2 text_size = ImGui::CalcTextSize(a.label.c_str());
  const float direction = to.x >= from.x ? 1.0f : -1.0f;
  if (a.kind == ArrowKind::kLost) {
    // The frame dies half-way: a red line to the middle, then a cross.
    const ImVec2 mid((from.x + to.x) * 0.5f, (from.y + to.y) * 0.5f);
    dashed_line(draw, from, mid, color, 2.0f);
    const float s = 5.0f;
    draw->AddLine(ImVec2(mid.x - s, mid.y - s), ImVec2(mid.x + s, mid.y + s), color, 2.5f);
    draw->AddLine(ImVec2(mid.x - s, mid.y + s), ImVec2(mid.x + s, mid.y - s), color, 2.5f);
    label_box(draw, ImVec2(mid.x + 8, mid.y - half), "LOST: " + a.label, color);
    return;
  }
  if (a.kind == ArrowKind::kInFlight || a.kind == ArrowKind::kConnect ||
      a.kind == ArrowKind::kBroken) {
    if (a.kind == ArrowKind::kInFlight) to.y += half;  // still travelling: open-ended
    dashed_line(draw, from, to, color, thickness);
  } else {
    draw->AddLine(from, to, color, thickness);
  }
  arrow_head(draw, from, to, color);
  // The label sits just above the arrow's start, towards its receiver, as in Mermaid.
  float x = direction > 0 ? from.x + 6 : from.x - 6 - text_size.x;
  x = std::max(g.origin.x + g.gutter, std::min(x, right_edge - text_size.x));
  const std::string text = a.kind == ArrowKind::kInFlight ? a.label + " ..." : a.label;
  label_box(draw, ImVec2(x, from.y - text_size.y + 1), text, color);
}

}  // namespace

void draw_sequence(const SessionModel& m, ViewState& v, int slot, std::size_t divergence_event) {
  const SequenceLayout& layout = *m.layout;
  const auto& lanes = layout.lanes();
  const auto& rows = layout.rows();
  const std::uint64_t current = m.view->step;
  const float gutter = ImGui::CalcTextSize("s 00000 t 00000").x + 8;
  const float avail = ImGui::GetContentRegionAvail().x;
  const float lane_width =
      std::max(96.0f, (avail - gutter - ImGui::GetStyle().ScrollbarSize) /
                          static_cast<float>(std::max<std::size_t>(1, lanes.size())));

  // Lane titles stay put above the scrolling rows.
  {
    const ImVec2 top = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      const float cx = top.x + gutter + (static_cast<float>(i) + 0.5f) * lane_width;
      const std::string& title = lanes[i].title;
      const ImVec2 size = ImGui::CalcTextSize(title.c_str());
      const bool db = lanes[i].actor == "orders" || lanes[i].actor == "ledger";
      draw->AddRectFilled(ImVec2(cx - size.x * 0.5f - 6, top.y),
                          ImVec2(cx + size.x * 0.5f + 6, top.y + size.y + 6),
                          db ? IM_COL32(60, 70, 50, 255) : IM_COL32(45, 60, 90, 255), 4.0f);
      draw->AddText(ImVec2(cx - size.x * 0.5f, top.y + 3), palette::kText, title.c_str());
    }
    ImGui::Dummy(ImVec2(avail, ImGui::GetTextLineHeight() + 10));
  }

  const std::string child_id = "rows" + std::to_string(slot);
  ImGui::BeginChild(child_id.c_str(), ImVec2(0, 0), false);
  // Rows are exactly row_height apart: the clipper's arithmetic and the drawing agree.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  const float row_height = ImGui::GetTextLineHeight() + 6;
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  Geometry g;
  g.origin = ImGui::GetCursorScreenPos();
  g.gutter = gutter;
  g.lane_width = lane_width;
  g.row_height = row_height;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const auto& events = m.session->world().kernel().trace.events();

  std::size_t first = rows.size(), last = 0;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()), row_height);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto row = static_cast<std::size_t>(i);
      first = std::min(first, row);
      last = std::max(last, row);
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const ImVec2 end(pos.x + gutter + lane_width * static_cast<float>(lanes.size()),
                       pos.y + row_height);
      if (rows[row].step == current) draw->AddRectFilled(pos, end, palette::kHighlight);
      if (row == divergence_event) draw->AddRectFilled(pos, end, palette::kDiverge);
      if (rows[row].first_of_step) {
        const std::string stamp =
            "s " + std::to_string(rows[row].step) + " t " + std::to_string(rows[row].time);
        draw->AddText(ImVec2(pos.x + 2, pos.y + 3),
                      rows[row].step == current ? palette::kText : palette::kMuted, stamp.c_str());
        draw->AddLine(ImVec2(pos.x + gutter, pos.y), ImVec2(end.x, pos.y),
                      IM_COL32(255, 255, 255, 14));
      }
      ImGui::Dummy(ImVec2(end.x - pos.x, row_height));
      if (ImGui::IsItemHovered() && row < events.size()) {
        ImGui::SetTooltip("%s", sim::format_text(events[row]).c_str());
      }
    }
  }
  clipper.End();
  // Room below the last row, so the current step can sit above the panel's bottom edge.
  ImGui::Dummy(ImVec2(1, ImGui::GetWindowHeight() * 0.25f));

  if (first <= last && !rows.empty()) {
    // Lifelines, broken where the actor was down.
    const float top = g.row_y(first) - row_height, bottom = g.row_y(last) + row_height;
    for (std::size_t i = 0; i < lanes.size(); ++i) {
      const float x = g.lane_x(static_cast<int>(i));
      draw->AddLine(ImVec2(x, top), ImVec2(x, bottom), IM_COL32(255, 255, 255, 40), 1.0f);
    }
    for (const Downtime& d : layout.downtimes()) {
      if (d.to_row < first || d.from_row > last) continue;
      const float x = g.lane_x(d.lane);
      dashed_line(draw, ImVec2(x, std::max(top, g.row_y(d.from_row))),
                  ImVec2(x, std::min(bottom, g.row_y(d.to_row))), palette::kBad, 3.0f);
    }
    // Arrows that can reach the visible rows (invariant 3 of SequenceLayout).
    const auto& arrows = layout.arrows();
    const std::size_t from_min = first > layout.max_span() ? first - layout.max_span() : 0;
    auto it = std::lower_bound(arrows.begin(), arrows.end(), from_min,
                               [](const Arrow& a, std::size_t r) { return a.from_row < r; });
    for (; it != arrows.end() && it->from_row <= last; ++it) {
      if (it->to_row >= first) draw_arrow(draw, g, *it, right_edge);
    }
    // Notes on their lane.
    const auto& notes = layout.notes();
    auto n = std::lower_bound(notes.begin(), notes.end(), first,
                              [](const Note& note, std::size_t r) { return note.row < r; });
    for (; n != notes.end() && n->row <= last; ++n) {
      const float x = g.lane_x(n->lane);
      const float y = g.row_y(n->row) - ImGui::GetTextLineHeight() * 0.5f;
      const ImU32 color = note_color(n->kind);
      draw->AddCircleFilled(ImVec2(x, g.row_y(n->row)), 3.5f, color);
      // Right of the lifeline, or left of it when that would run off the panel.
      const float width = ImGui::CalcTextSize(n->text.c_str()).x;
      const float text_x =
          x + 8 + width > right_edge ? std::max(g.origin.x + gutter, x - 8 - width) : x + 8;
      label_box(draw, ImVec2(text_x, y), n->text, color);
    }
  }
  if (divergence_event < rows.size() && divergence_event >= first && divergence_event <= last) {
    const float y = g.row_y(divergence_event) - ImGui::GetTextLineHeight() * 0.5f;
    label_box(draw, ImVec2(g.origin.x + 2, y), "differs", IM_COL32(255, 120, 220, 255));
  }

  // Follow the current step: scroll so its rows sit near the bottom of the view.
  // ImGui clamps a scroll to the previous frame's content height, so the scroll is
  // repeated for a few frames after the step changes.
  std::uint64_t& followed = v.followed_step[slot];
  int& frames = v.follow_frames[slot];
  if (v.follow && followed != current) {
    followed = current;
    frames = 3;
  }
  if (frames > 0) {
    --frames;
    const std::size_t end_row = layout.first_row_of_step(current + 1);
    const float want = static_cast<float>(end_row) * row_height - ImGui::GetWindowHeight() * 0.92f;
    ImGui::SetScrollY(std::max(0.0f, want));
  }
  ImGui::PopStyleVar();
  ImGui::EndChild();
}

}  // namespace ui
