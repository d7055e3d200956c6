// The sequence diagram, drawn with ImGui from the GUI-free placement (src/diagram/): the
// same lanes, rows and label boxes the SVG writer draws. Only the rows on screen are
// drawn (ImGuiListClipper), and only the arrows that can reach them (SequenceLayout
// invariant 3), so a 10,000-step run draws as fast as a short one. When the lanes need
// more room than the panel has, the canvas is wider and the view scrolls sideways.

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui_internal.h>  // the child window's inner rectangle, for what is on screen

#include "src/orders/order_key.h"
#include "src/report/trace_format.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

using diagram::Arrow;
using diagram::ArrowKind;

// Maps canvas coordinates (placement.h) to the screen.
struct Screen {
  ImVec2 origin;
  float scroll_y = 0;  // the child window's scroll when origin was taken
  const diagram::Canvas* canvas = nullptr;
  ImVec2 at(float x, float y) const { return ImVec2(origin.x + x, origin.y + y); }
  float lane_x(int lane) const { return origin.x + canvas->lane_x(lane); }
  float line_y(std::size_t row) const { return origin.y + canvas->line_y(row); }
};

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

void draw_arrow(ImDrawList* draw, const Screen& s, const Arrow& a) {
  const ImU32 color = tone_color(diagram::arrow_tone(a));
  ImVec2 from(s.lane_x(a.from_lane), s.line_y(a.from_row));
  ImVec2 to(s.lane_x(a.to_lane), s.line_y(a.to_row));
  const float thickness = a.redelivered || a.kind == ArrowKind::kCommit ? 2.5f : 1.5f;
  if (a.kind == ArrowKind::kLost) {
    // The frame dies half-way, in the row it was lost in: a red line, then a cross.
    const ImVec2 mid((from.x + to.x) * 0.5f, to.y);
    dashed_line(draw, from, mid, color, 2.0f);
    const float c = 5.0f;
    draw->AddLine(ImVec2(mid.x - c, mid.y - c), ImVec2(mid.x + c, mid.y + c), color, 2.5f);
    draw->AddLine(ImVec2(mid.x - c, mid.y + c), ImVec2(mid.x + c, mid.y - c), color, 2.5f);
    return;
  }
  if (a.kind == ArrowKind::kInFlight) to.y += s.canvas->row_height * 0.5f;  // open-ended
  if (a.kind == ArrowKind::kInFlight || a.kind == ArrowKind::kConnect ||
      a.kind == ArrowKind::kBroken) {
    dashed_line(draw, from, to, color, thickness);
  } else {
    draw->AddLine(from, to, color, thickness);
  }
  arrow_head(draw, from, to, color);
}

void draw_label(ImDrawList* draw, const Screen& s, const diagram::PlacedLabel& l, bool current) {
  if (l.text.empty()) return;
  const ImVec2 a = s.at(l.box.x0, l.box.y0), b = s.at(l.box.x1, l.box.y1);
  if (l.kind != diagram::LabelKind::kStamp) {
    draw->AddRectFilled(a, b, IM_COL32(24, 26, 32, 225), 3.0f);
  }
  const ImU32 color = l.kind == diagram::LabelKind::kStamp && current ? palette::kText
                                                                      : tone_color(l.tone);
  draw->AddText(ImVec2(a.x + 3, a.y + 1), color, l.text.c_str());
}

// Lane titles stay at the top of the view while the rows scroll under them.
void draw_titles(ImDrawList* draw, const diagram::SequenceLayout& layout,
                 const diagram::Placement& p, ImVec2 origin, float top) {
  const diagram::Canvas& c = p.canvas();
  const ImVec2 window = ImGui::GetWindowPos();
  ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  background.w = 1.0f;  // opaque: the rows scroll under it
  draw->AddRectFilled(ImVec2(window.x, top),
                      ImVec2(window.x + ImGui::GetWindowWidth(), top + c.header),
                      ImGui::ColorConvertFloat4ToU32(background));
  for (std::size_t i = 0; i < p.titles(); ++i) {
    const diagram::PlacedLabel& l = p.labels()[i];
    const ImVec2 a(origin.x + l.box.x0, top + l.box.y0), b(origin.x + l.box.x1, top + l.box.y1);
    const bool store = layout.lanes()[i].store;
    draw->AddRectFilled(a, b, store ? IM_COL32(60, 70, 50, 255) : IM_COL32(45, 60, 90, 255), 4.0f);
    draw->AddText(ImVec2(a.x + 3, a.y + 1), palette::kText, l.text.c_str());
    if (ImGui::IsMouseHoveringRect(a, b) && l.shortened) ImGui::SetTooltip("%s", l.full.c_str());
  }
}

// Lifelines of the visible rows, broken where the actor was down.
void draw_lifelines(ImDrawList* draw, const Screen& s, const diagram::SequenceLayout& layout,
                    std::size_t first, std::size_t last) {
  const float top = s.line_y(first) - s.canvas->row_height;
  const float bottom = s.line_y(last) + s.canvas->row_height;
  for (std::size_t i = 0; i < layout.lanes().size(); ++i) {
    const float x = s.lane_x(static_cast<int>(i));
    draw->AddLine(ImVec2(x, top), ImVec2(x, bottom), IM_COL32(255, 255, 255, 40), 1.0f);
  }
  for (const diagram::Downtime& d : layout.downtimes()) {
    if (d.to_row < first || d.from_row > last) continue;
    const float x = s.lane_x(d.lane);
    dashed_line(draw, ImVec2(x, std::max(top, s.line_y(d.from_row))),
                ImVec2(x, std::min(bottom, s.line_y(d.to_row))), palette::kBad, 3.0f);
  }
}

// Arrows, notes' dots and labels of rows [first, last]; the tooltip of a hovered label.
void draw_rows_content(ImDrawList* draw, const Screen& s, const SessionModel& m,
                       std::size_t first, std::size_t last) {
  const diagram::SequenceLayout& layout = *m.layout;
  const diagram::Placement& p = *m.placement;
  draw_lifelines(draw, s, layout, first, last);
  const auto& arrows = layout.arrows();
  const std::size_t from_min = first > layout.max_span() ? first - layout.max_span() : 0;
  auto it = std::lower_bound(arrows.begin(), arrows.end(), from_min,
                             [](const Arrow& a, std::size_t r) { return a.from_row < r; });
  for (; it != arrows.end() && it->from_row <= last; ++it) {
    if (it->to_row >= first) draw_arrow(draw, s, *it);
  }
  const auto& notes = layout.notes();
  auto n = std::lower_bound(notes.begin(), notes.end(), first,
                            [](const diagram::Note& note, std::size_t r) { return note.row < r; });
  for (; n != notes.end() && n->row <= last; ++n) {
    draw->AddCircleFilled(ImVec2(s.lane_x(n->lane), s.line_y(n->row)), 3.5f,
                          tone_color(diagram::note_tone(n->kind)));
  }
  const std::uint64_t current = m.view->step;
  for (std::size_t i = p.first_label_at(first); i < p.labels().size(); ++i) {
    const diagram::PlacedLabel& l = p.labels()[i];
    if (l.row > last) break;
    draw_label(draw, s, l, layout.rows()[l.row].step == current);
    const ImVec2 a = s.at(l.box.x0, l.box.y0), b = s.at(l.box.x1, l.box.y1);
    if (l.shortened && ImGui::IsMouseHoveringRect(a, b) && ImGui::IsWindowHovered()) {
      ImGui::SetTooltip("%s", l.full.c_str());
    }
  }
}

// The lanes a row's event touches: its label's lane and, for an arrow, the other end.
std::pair<int, int> row_lanes(const diagram::Row& row) {
  const int a = row.label.lane, b = row.label.toward < 0 ? a : row.label.toward;
  return {std::min(a, b), std::max(a, b)};
}

// Follow the current step: scroll so its rows sit near the bottom of the view, and,
// when the lanes are wider than the panel, sideways to the lanes of its last event. ImGui
// clamps a scroll to the previous frame's content size, so the scroll is repeated for a
// few frames after the step changes.
void follow_current(const SessionModel& m, ViewState& v, Slot slot) {
  const std::uint64_t current = m.view->step;
  std::uint64_t& followed = v.followed_step[slot];
  int& frames = v.follow_frames[slot];
  if (v.follow && followed != current) {
    followed = current;
    frames = 3;
  }
  if (frames <= 0) return;
  --frames;
  const diagram::Canvas& c = m.placement->canvas();
  const std::size_t end_row = m.layout->first_row_of_step(current + 1);
  const float want = c.row_top(end_row) - ImGui::GetWindowHeight() * 0.9f;
  ImGui::SetScrollY(std::max(0.0f, want));
  if (end_row == 0 || end_row > m.layout->rows().size()) return;
  const auto [lo, hi] = row_lanes(m.layout->rows()[end_row - 1]);
  const float view = ImGui::GetCurrentWindow()->InnerRect.GetWidth();
  const float left = c.lane_x(lo) - c.spacing * 0.5f, right = c.lane_x(hi) + c.spacing * 0.5f;
  const float x = ImGui::GetScrollX();
  if (left < x) ImGui::SetScrollX(std::max(0.0f, left));
  if (right > x + view) ImGui::SetScrollX(std::min(left, right - view));
}

// What the panel showed of the diagram (ViewState::DiagramSeen), from the child window's
// inner rectangle, after the scroll of this frame.
void record_seen(const SessionModel& m, const Screen& s, DiagramSeen& seen) {
  const diagram::Placement& p = *m.placement;
  const diagram::Canvas& c = p.canvas();
  const ImRect inner = ImGui::GetCurrentWindow()->InnerRect;
  seen = DiagramSeen{};
  seen.drawn = true;
  seen.placement = &p;
  seen.rows = m.layout->rows().size();
  seen.lanes = p.titles();
  const auto inside_x = [&](float x0, float x1) {
    return s.origin.x + x0 >= inner.Min.x - 0.5f && s.origin.x + x1 <= inner.Max.x + 0.5f;
  };
  for (std::size_t i = 0; i < p.titles(); ++i) {
    const diagram::PlacedLabel& l = p.labels()[i];
    if (!inside_x(l.box.x0, l.box.x1)) seen.hidden_lanes.push_back(l.full);
  }
  const std::size_t end_row = m.layout->first_row_of_step(m.view->step + 1);
  if (end_row == 0 || end_row > seen.rows || m.layout->rows()[end_row - 1].step != m.view->step) {
    return;
  }
  const diagram::Row& row = m.layout->rows()[end_row - 1];
  seen.has_current = true;
  seen.current = row.label.text;
  const auto [lo, hi] = row_lanes(row);
  // The scroll set this frame is what the next frame draws with.
  const float dy = ImGui::GetScrollY() - s.scroll_y;
  const float top = s.origin.y - dy + c.row_top(end_row - 1), bottom = top + c.row_height;
  const bool in_y = top >= inner.Min.y + c.header - 0.5f && bottom <= inner.Max.y + 0.5f;
  const float x_lo = c.lane_x(lo) - 4, x_hi = c.lane_x(hi) + 4;
  seen.current_in_view = in_y && inside_x(x_lo, x_hi);
}

// The rows the clipper put on screen, [first, last]; first > last when none.
struct VisibleRows {
  std::size_t first = 0, last = 0;
};

// One band per visible row: the current step's highlight, where two runs part, the line
// between steps, and the row's event as a tooltip. Only the rows on screen (the clipper).
VisibleRows draw_row_bands(ImDrawList* draw, const Screen& s, const SessionModel& m,
                           std::size_t divergence_event) {
  const auto& rows = m.layout->rows();
  const auto& events = *m.events;
  const diagram::Canvas& c = *s.canvas;
  VisibleRows visible{rows.size(), 0};
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(rows.size()), c.row_height);
  while (clipper.Step()) {
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const auto row = static_cast<std::size_t>(i);
      visible.first = std::min(visible.first, row);
      visible.last = std::max(visible.last, row);
      const ImVec2 a = s.at(0, c.row_top(row)), b = s.at(c.width, c.row_top(row + 1));
      if (rows[row].step == m.view->step) draw->AddRectFilled(a, b, palette::kHighlight);
      if (row == divergence_event) draw->AddRectFilled(a, b, palette::kDiverge);
      if (rows[row].first_of_step) {
        draw->AddLine(ImVec2(a.x + c.gutter, a.y), ImVec2(b.x, a.y), IM_COL32(255, 255, 255, 14));
      }
      ImGui::Dummy(ImVec2(c.width, c.row_height));
      if (ImGui::IsItemHovered() && row < events.size()) {
        ImGui::SetTooltip("%s", lab::format_trace_line(events[row], orders::kKeyNames).c_str());
      }
    }
  }
  clipper.End();
  return visible;
}

// "differs" takes the gutter of the row where two runs part, over its stamp.
void draw_divergence_tag(ImDrawList* draw, const Screen& s, std::size_t row) {
  const diagram::Canvas& c = *s.canvas;
  const float y = s.origin.y + c.row_top(row) + 1;
  draw->AddRectFilled(ImVec2(s.origin.x, y), ImVec2(s.origin.x + c.gutter - 2, y + c.label_height),
                      IM_COL32(120, 30, 100, 255), 3.0f);
  draw->AddText(ImVec2(s.origin.x + 3, y + 1), palette::kText, "differs");
}

}  // namespace

ImU32 tone_color(diagram::Tone tone) {
  switch (tone) {
    case diagram::Tone::kText: return palette::kText;
    case diagram::Tone::kMuted: return palette::kMuted;
    case diagram::Tone::kGood: return palette::kGood;
    case diagram::Tone::kBad: return palette::kBad;
    case diagram::Tone::kWarn: return palette::kWarn;
    case diagram::Tone::kInfo: return palette::kInfo;
    case diagram::Tone::kConfirm: return IM_COL32(120, 190, 150, 255);
    case diagram::Tone::kDuplicate: return IM_COL32(255, 220, 90, 255);
    case diagram::Tone::kSkipped: return IM_COL32(230, 120, 230, 255);
    case diagram::Tone::kRestart: return IM_COL32(170, 200, 255, 255);
    case diagram::Tone::kTrouble: return IM_COL32(255, 150, 110, 255);
    case diagram::Tone::kNote: break;
  }
  return IM_COL32(200, 200, 205, 255);
}

void draw_sequence(const SessionModel& m, ViewState& v, Slot slot, std::size_t divergence_event) {
  const diagram::SequenceLayout& layout = *m.layout;
  const std::string child_id = "rows" + std::to_string(slot_number(slot));
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  ImGui::BeginChild(child_id.c_str(), ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  m.placement->update(layout, width, imgui_metrics());
  const diagram::Placement& p = *m.placement;
  // Rows are exactly row_height apart: the clipper's arithmetic and the placement agree.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  const Screen s{ImGui::GetCursorScreenPos(), ImGui::GetScrollY(), &p.canvas()};
  ImDrawList* draw = ImGui::GetWindowDrawList();
  ImGui::Dummy(ImVec2(p.canvas().width, p.canvas().header));
  const VisibleRows rows = draw_row_bands(draw, s, m, divergence_event);
  // Room below the last row, so the current step can sit above the panel's bottom edge.
  ImGui::Dummy(ImVec2(1, ImGui::GetWindowHeight() * 0.25f));
  if (!layout.rows().empty() && rows.first <= rows.last) {
    draw_rows_content(draw, s, m, rows.first, rows.last);
  }
  if (divergence_event < layout.rows().size()) draw_divergence_tag(draw, s, divergence_event);
  draw_titles(draw, layout, p, s.origin, ImGui::GetWindowPos().y);
  follow_current(m, v, slot);
  record_seen(m, s, v.seen[slot]);
  ImGui::PopStyleVar();
  ImGui::EndChild();
}

}  // namespace ui
