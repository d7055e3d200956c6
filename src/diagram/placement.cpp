// Pixel placement of a sequence diagram (see placement.h for the invariants).
#include "src/diagram/placement.h"

#include <algorithm>

namespace diagram {

namespace {

constexpr float kPad = 3;           // inside a label box, left and right
constexpr float kLabelGap = 6;      // between a lifeline and an arrow's label
constexpr float kNoteGap = 8;       // between a lifeline and a note
constexpr float kComfortable = 96;  // lanes this far apart show every title whole
constexpr float kMinSpacing = 62;   // lanes never closer than this: titles shorten instead
constexpr const char* kEllipsis = "...";

struct Room {
  float lo = 0, hi = 0;  // the label's box must stay inside [lo, hi]
  float preferred = 0;   // where its box would start if nothing were in the way
  bool right_aligned = false;  // `preferred` is where the box ends instead
};

// The box of `text` placed in `room` on the band starting at `top`, shortened to fit.
PlacedLabel fit(LabelKind kind, std::size_t row, const std::string& text, Tone tone,
                const Room& room, float top, float height, const Metrics& metrics) {
  PlacedLabel label;
  label.kind = kind;
  label.row = row;
  label.full = text;
  label.tone = tone;
  const float room_width = std::max(0.0f, room.hi - room.lo);
  float width = metrics.text_width(text) + 2 * kPad;
  label.text = text;
  if (width > room_width) {
    label.text = shorten(text, room_width - 2 * kPad, metrics);
    label.shortened = true;
    width = label.text.empty() ? 0 : metrics.text_width(label.text) + 2 * kPad;
  }
  float x0 = room.right_aligned ? room.preferred - width : room.preferred;
  x0 = std::clamp(x0, room.lo, std::max(room.lo, room.hi - width));
  label.box = {x0, top, x0 + width, top + height};
  return label;
}

}  // namespace

Metrics monospace_metrics(float size_px, float advance) {
  Metrics m;
  const float glyph = size_px * advance;
  m.text_width = [glyph](std::string_view text) {
    std::size_t glyphs = 0;
    for (const char c : text) glyphs += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    return glyph * static_cast<float>(glyphs);
  };
  m.line_height = size_px + 3;
  m.font_id = static_cast<std::uint64_t>(size_px * 1000 + advance * 100);
  return m;
}

std::string shorten(const std::string& text, float max_width, const Metrics& metrics) {
  if (metrics.text_width(text) <= max_width) return text;
  std::vector<std::size_t> cuts;  // UTF-8 character boundaries, shortest prefix first
  for (std::size_t i = 1; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
  }
  // The longest prefix that fits with the ellipsis, by binary search over the cuts.
  std::size_t lo = 0, hi = cuts.size();
  while (lo < hi) {
    const std::size_t mid = (lo + hi + 1) / 2;
    if (metrics.text_width(text.substr(0, cuts[mid - 1]) + kEllipsis) <= max_width) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  if (lo == 0) return metrics.text_width(kEllipsis) <= max_width ? kEllipsis : "";
  return text.substr(0, cuts[lo - 1]) + kEllipsis;
}

std::string step_stamp(std::uint64_t step, std::uint64_t time) {
  return "s " + std::to_string(step) + " t " + std::to_string(time);
}

std::vector<std::string> placement_problems(const Placement& p, std::size_t rows) {
  std::vector<std::string> problems;
  const Canvas& c = p.canvas();
  std::vector<const PlacedLabel*> labels;
  for (const PlacedLabel& l : p.labels()) {
    if (l.text.empty() || (l.kind != LabelKind::kTitle && l.row >= rows)) continue;
    labels.push_back(&l);
    const bool stamp = l.kind == LabelKind::kStamp, title = l.kind == LabelKind::kTitle;
    if (l.box.x0 < 0 || l.box.x1 > c.width || (stamp && l.box.x1 > c.gutter) ||
        (!stamp && !title && l.box.x0 < c.gutter)) {
      problems.push_back("\"" + l.text + "\" crosses an edge");
    }
  }
  std::sort(labels.begin(), labels.end(),
            [](const PlacedLabel* a, const PlacedLabel* b) { return a->box.y0 < b->box.y0; });
  for (std::size_t i = 0; i < labels.size(); ++i) {
    for (std::size_t j = i + 1; j < labels.size() && labels[j]->box.y0 < labels[i]->box.y1; ++j) {
      if (labels[i]->box.intersects(labels[j]->box)) {
        problems.push_back("\"" + labels[i]->text + "\" overlaps \"" + labels[j]->text + "\"");
      }
    }
  }
  return problems;
}

std::size_t Placement::first_label_at(std::size_t row) const {
  const auto it = std::lower_bound(labels_.begin() + static_cast<std::ptrdiff_t>(titles_),
                                   labels_.end(), row,
                                   [](const PlacedLabel& l, std::size_t r) { return l.row < r; });
  return static_cast<std::size_t>(it - labels_.begin());
}

void Placement::update(const SequenceLayout& layout, float width, const Metrics& metrics) {
  const bool same = width == width_ && layout.generation() == generation_ &&
                    metrics.font_id == font_id_ && layout.lanes().size() == lanes_ &&
                    layout.rows().size() >= placed_rows_;
  if (!same) {
    width_ = width;
    generation_ = layout.generation();
    font_id_ = metrics.font_id;
    lanes_ = layout.lanes().size();
    placed_rows_ = 0;
    labels_.clear();
    place_titles(layout, metrics);
  }
  for (; placed_rows_ < layout.rows().size(); ++placed_rows_) {
    place_row(layout, placed_rows_, metrics);
  }
}

void Placement::place_titles(const SequenceLayout& layout, const Metrics& metrics) {
  Canvas& c = canvas_;
  c.label_height = metrics.line_height + 2;
  c.row_height = c.label_height + 7;
  c.header = c.label_height + 10;
  // Room for the stamps of runs up to 9,999 steps; a longer run's stamps are shortened
  // (the row's tooltip has the whole trace line).
  c.gutter = metrics.text_width(step_stamp(9999, 99999)) + 2 * kPad + 6;
  float widest = 0;
  for (const Lane& lane : layout.lanes()) widest = std::max(widest, metrics.text_width(lane.title));
  // Lanes spread out to the panel's width; in a narrow panel they close up to
  // kMinSpacing, so that every lane stays on screen, and their titles shorten (the full
  // title on hover). Only a panel narrower than that scrolls sideways.
  min_spacing_ = kMinSpacing;
  const float comfortable = std::max(kComfortable, widest + 2 * kPad + 16);
  const float lanes = static_cast<float>(std::max<std::size_t>(1, layout.lanes().size()));
  min_width_ = c.gutter + min_spacing_ * lanes;
  comfortable_width_ = c.gutter + comfortable * lanes;
  c.spacing = std::max(min_spacing_, (width_ - c.gutter) / lanes);
  c.width = std::max(width_, c.gutter + c.spacing * lanes);
  titles_ = layout.lanes().size();
  for (std::size_t i = 0; i < layout.lanes().size(); ++i) {
    const Lane& lane = layout.lanes()[i];
    const float x = c.lane_x(static_cast<int>(i));
    const float half = c.spacing * 0.5f - 2;
    // The whole title when it fits, else the short one ("Cons 1"), cut only if need be.
    const bool whole = metrics.text_width(lane.title) + 2 * kPad <= 2 * half;
    const std::string& title = whole || lane.short_title.empty() ? lane.title : lane.short_title;
    const float text = metrics.text_width(title) + 2 * kPad;
    Room room{x - half, x + half, x - text * 0.5f, false};
    PlacedLabel label =
        fit(LabelKind::kTitle, i, title, Tone::kText, room, 4, c.label_height, metrics);
    label.shortened = label.shortened || !whole;
    label.full = lane.title;
    labels_.push_back(std::move(label));
  }
}

void Placement::place_row(const SequenceLayout& layout, std::size_t row, const Metrics& metrics) {
  const Canvas& c = canvas_;
  const Row& r = layout.rows()[row];
  const float top = c.row_top(row) + 1;
  if (r.first_of_step) {
    labels_.push_back(fit(LabelKind::kStamp, row, step_stamp(r.step, r.time), Tone::kMuted,
                          Room{0, c.gutter - 2, 0, false}, top, c.label_height, metrics));
  }
  const RowLabel& l = r.label;
  if (l.text.empty()) return;
  const float area_lo = c.gutter + 2, area_hi = c.width - 2;
  const float x = c.lane_x(l.lane);
  Room room{area_lo, area_hi, x + kLabelGap, false};
  LabelKind kind = LabelKind::kArrow;
  if (l.toward < 0) {
    // A note stays by its own lane: right of the lifeline, or left of it where the panel
    // ends, and never wider than two lanes.
    kind = LabelKind::kNote;
    const float reach = 2 * c.spacing - 2 * kNoteGap;
    if (area_hi - (x + kNoteGap) >= 1.2f * c.spacing) {
      room = {x + kNoteGap, std::min(area_hi, x + kNoteGap + reach), x + kNoteGap, false};
    } else {
      room = {std::max(area_lo, x - kNoteGap - reach), x - kNoteGap, x - kNoteGap, true};
    }
  } else if (l.lost) {
    kind = LabelKind::kLost;
    room.preferred = (x + c.lane_x(l.toward)) * 0.5f + 9;  // right of the cross
  } else if (c.lane_x(l.toward) < x) {
    room = {area_lo, area_hi, x - kLabelGap, true};  // towards a lane on the left
  }
  labels_.push_back(fit(kind, row, l.text, l.tone, room, top, c.label_height, metrics));
}

}  // namespace diagram
