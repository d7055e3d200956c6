// The SVG renderer of the sequence diagram (see svg.h).
#include "src/diagram/svg.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "src/prose/printable.h"

namespace diagram {

namespace {

void line(std::ostream& out, float x1, float y1, float x2, float y2, const char* colour,
          float width, bool dashed, bool head) {
  out << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2)
      << "\" y2=\"" << num(y2) << "\" stroke=\"" << colour << "\" stroke-width=\"" << num(width)
      << '"';
  if (dashed) out << " stroke-dasharray=\"6 6\"";
  out << "/>\n";
  if (!head) return;
  // The head as a triangle: markers that take the line's colour are not everywhere yet.
  const float dx = x2 - x1, dy = y2 - y1;
  const float length = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
  const float ux = dx / length * 7, uy = dy / length * 7;
  out << "<polygon points=\"" << num(x2) << ',' << num(y2) << ' '
      << num(x2 - ux - uy * 0.5f) << ',' << num(y2 - uy + ux * 0.5f) << ' '
      << num(x2 - ux + uy * 0.5f) << ',' << num(y2 - uy - ux * 0.5f) << "\" fill=\"" << colour
      << "\"/>\n";
}

void draw_arrow(std::ostream& out, const Canvas& c, const Arrow& a) {
  const char* colour = tone_hex(arrow_tone(a));
  const float x1 = c.lane_x(a.from_lane), y1 = c.line_y(a.from_row);
  const float x2 = c.lane_x(a.to_lane), y2 = c.line_y(a.to_row);
  const float width = a.redelivered || a.kind == ArrowKind::kCommit ? 2.5f : 1.5f;
  if (a.kind == ArrowKind::kLost) {
    const float mx = (x1 + x2) * 0.5f;
    line(out, x1, y1, mx, y2, colour, 2, true, false);
    line(out, mx - 5, y2 - 5, mx + 5, y2 + 5, colour, 2.5f, false, false);
    line(out, mx - 5, y2 + 5, mx + 5, y2 - 5, colour, 2.5f, false, false);
    return;
  }
  const bool dashed = a.kind == ArrowKind::kInFlight || a.kind == ArrowKind::kConnect ||
                      a.kind == ArrowKind::kBroken;
  const float end_y = a.kind == ArrowKind::kInFlight ? y2 + c.row_height * 0.5f : y2;
  line(out, x1, y1, x2, end_y, colour, width, dashed, true);
}

void draw_label(std::ostream& out, const PlacedLabel& l, bool title_box, bool store) {
  if (l.text.empty()) return;
  const float height = l.box.y1 - l.box.y0;
  if (title_box) {
    out << "<rect x=\"" << num(l.box.x0) << "\" y=\"" << num(l.box.y0) << "\" width=\""
        << num(l.box.x1 - l.box.x0) << "\" height=\"" << num(height) << "\" rx=\"4\" fill=\""
        << (store ? "#e3efd9" : "#dde6f5") << "\" stroke=\"#8894a8\"/>\n";
  } else if (l.kind != LabelKind::kStamp) {
    out << "<rect x=\"" << num(l.box.x0) << "\" y=\"" << num(l.box.y0) << "\" width=\""
        << num(l.box.x1 - l.box.x0) << "\" height=\"" << num(height)
        << "\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.85\"/>\n";
  }
  out << "<text class=\"" << (title_box ? "lane" : "label") << "\" x=\"" << num(l.box.x0 + 3)
      << "\" y=\"" << num(l.box.y1 - height * 0.25f) << "\" fill=\""
      << (title_box ? "#1f2430" : tone_hex(l.tone)) << "\">";
  if (l.shortened) out << "<title>" << lab::xml_escape(l.full) << "</title>";
  out << lab::xml_escape(l.text) << "</text>\n";
}

}  // namespace

std::string svg_number(float value) {
  char buffer[32];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 1);
  return std::string(buffer, result.ptr);
}

const char* tone_hex(Tone tone) {
  switch (tone) {
    case Tone::kText: return "#1f2430";
    case Tone::kMuted: return "#6b7280";
    case Tone::kGood: return "#1a7f37";
    case Tone::kBad: return "#c62828";
    case Tone::kWarn: return "#b26a00";
    case Tone::kInfo: return "#1d5fbf";
    case Tone::kConfirm: return "#3a8a63";
    case Tone::kDuplicate: return "#8a6d00";
    case Tone::kSkipped: return "#a21caf";
    case Tone::kRestart: return "#4a5fc1";
    case Tone::kTrouble: return "#c2410c";
    case Tone::kNote: break;
  }
  return "#374151";
}

std::string sequence_svg(const std::vector<sim::TraceEvent>& events,
                         const std::vector<std::string>& lane_actors, const SvgOptions& options) {
  SequenceLayout layout;
  layout.reset(lane_actors);
  layout.update(events, 1);
  return sequence_svg(layout, options);
}

// Rows [from, to) of the picture as one <svg>: the whole picture when they are all the
// rows. What lies partly in the slice (a lifeline, a downtime, an arrow from an earlier
// row) is drawn whole and clipped by the viewBox.
std::string draw_rows(const SequenceLayout& layout, const Placement& p, const SvgOptions& options,
                      std::size_t from, std::size_t to) {
  const Canvas& c = p.canvas();
  const std::size_t rows = layout.rows().size();
  const float height = c.height(rows) + c.row_height;
  const float top = from == 0 ? 0 : c.row_top(from);
  const float bottom = to >= rows ? height : c.row_top(to);
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"sequence\" width=\"" << num(c.width)
      << "\" height=\"" << num(bottom - top) << "\" viewBox=\"0 " << (from == 0 ? "0" : num(top)) << ' ' << num(c.width)
      << ' ' << num(bottom - top) << "\" font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" "
      << "font-size=\"" << num(options.font_px) << "\">\n";
  if (!options.title.empty()) out << "<title>" << lab::xml_escape(options.title) << "</title>\n";
  if (from == 0) {
    out << "<rect width=\"100%\" height=\"100%\" fill=\"#fbfbfd\"/>\n";
  } else {
    out << "<rect y=\"" << num(top) << "\" width=\"100%\" height=\"100%\" fill=\"#fbfbfd\"/>\n";
  }
  for (std::size_t r = from; r < std::min(to, rows); ++r) {
    if (layout.rows()[r].first_of_step && r > 0) {
      line(out, c.gutter, c.row_top(r), c.width, c.row_top(r), "#e5e7eb", 1, false, false);
    }
  }
  for (std::size_t i = 0; i < layout.lanes().size(); ++i) {
    const float x = c.lane_x(static_cast<int>(i));
    line(out, x, std::max(c.header, top), x, bottom, "#c3c8d2", 1, false, false);
  }
  for (const Downtime& d : layout.downtimes()) {
    if (d.to_row < from || d.from_row >= to) continue;
    const float x = c.lane_x(d.lane);
    line(out, x, c.line_y(d.from_row), x, c.line_y(d.to_row), tone_hex(Tone::kBad), 3, true, false);
  }
  // arrows() are sorted by from_row and span at most max_span() rows (sequence.h, (3)).
  const std::size_t first_from = from > layout.max_span() ? from - layout.max_span() : 0;
  for (const Arrow& a : layout.arrows()) {
    if (a.from_row < first_from || a.from_row >= to || std::max(a.from_row, a.to_row) < from) continue;
    draw_arrow(out, c, a);
  }
  for (const Note& n : layout.notes()) {
    if (n.row < from || n.row >= to) continue;
    out << "<circle cx=\"" << num(c.lane_x(n.lane)) << "\" cy=\"" << num(c.line_y(n.row))
        << "\" r=\"3.5\" fill=\"" << tone_hex(note_tone(n.kind)) << "\"/>\n";
  }
  if (from == 0) {
    for (std::size_t i = 0; i < p.titles(); ++i) draw_label(out, p.labels()[i], true, layout.lanes()[i].store);
  }
  const std::size_t last = to >= rows ? p.labels().size() : p.first_label_at(to);
  for (std::size_t i = std::max(p.titles(), p.first_label_at(from)); i < last; ++i) {
    draw_label(out, p.labels()[i], false, false);
  }
  out << "</svg>\n";
  return out.str();
}

std::string sequence_svg(const SequenceLayout& layout, const SvgOptions& options) {
  Placement p;
  p.update(layout, options.width, monospace_metrics(options.font_px));
  return draw_rows(layout, p, options, 0, layout.rows().size());
}

std::vector<SvgBlock> sequence_svg_blocks(const SequenceLayout& layout, const SvgOptions& options,
                                          std::size_t rows_per_block) {
  Placement p;
  p.update(layout, options.width, monospace_metrics(options.font_px));
  const Canvas& c = p.canvas();
  const std::size_t rows = layout.rows().size();
  const std::size_t size = std::max<std::size_t>(1, rows_per_block);
  std::vector<SvgBlock> blocks;
  for (std::size_t from = 0; from == 0 || from < rows; from += size) {
    const std::size_t to = from + size >= rows ? rows : from + size;
    const float top = from == 0 ? 0 : c.row_top(from);
    const float bottom = to >= rows ? c.height(rows) + c.row_height : c.row_top(to);
    blocks.push_back({top, bottom - top, draw_rows(layout, p, options, from, to)});
  }
  return blocks;
}

}  // namespace diagram
