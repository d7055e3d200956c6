#pragma once
// Where everything of a sequence diagram goes in pixels, for a panel of a given width:
// lane spacing, row bands, and a rectangle for every label (lane titles, step stamps,
// arrow labels, notes). A pure function of (layout, width, metrics); the GUI and the SVG
// writer draw the same placement, each with its own font metrics.
//
// Geometry, top to bottom: a header band with the lane titles, then one band per row.
// A row's band holds its one label (SequenceLayout invariant 5) on top and its arrows'
// line below the label, so labels of different rows never share a band.
//
// Invariants (checked by tests/unit/diagram/placement_test.cpp for every scenario):
//  (1) No two label boxes intersect.
//  (2) Every label box lies inside [0, canvas().width] horizontally; step stamps stay in
//      the gutter, every other label right of it.
//  (3) A label too long for the room it may take is shortened (ending in "..."); `full`
//      keeps the whole text for a tooltip.
//  (4) Lanes are canvas().spacing apart, never less than min_spacing(): when the panel is
//      narrower than that, the canvas is wider than the panel and the view scrolls. Lanes
//      closer than their titles need show short titles ("Cons 1"), the whole one in `full`.
//  (5) update() on a grown layout places only the new rows; a new layout generation, a new
//      width or new metrics re-place everything.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "src/diagram/sequence.h"

namespace diagram {

struct Metrics {
  std::function<float(std::string_view)> text_width;  // pixels of one line of text
  float line_height = 15;                             // pixels of one line of text
  std::uint64_t font_id = 0;  // changes when text_width would measure differently
};

// Metrics of a monospace font `size_px` high whose glyphs are `advance` em wide (the SVG
// writer uses one, so its widths are known without a font engine).
Metrics monospace_metrics(float size_px, float advance = 0.62f);

struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool intersects(const Box& o) const { return x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1; }
};

enum class LabelKind { kTitle, kStamp, kArrow, kLost, kNote };

struct PlacedLabel {
  LabelKind kind = LabelKind::kArrow;
  std::size_t row = 0;  // kTitle: the lane index
  Box box;              // text box, padding included
  std::string text;     // as drawn, shortened when it did not fit
  std::string full;     // the whole text (a tooltip's)
  Tone tone = Tone::kText;
  bool shortened = false;  // text is a cut of full
};

struct Canvas {
  float width = 0;      // >= the panel's width; wider when the lanes need more room
  float gutter = 0;     // left column of step stamps
  float spacing = 0;    // between two lanes' lifelines
  float header = 0;     // height of the lane title band
  float row_height = 0;
  float label_height = 0;
  float lane_x(int lane) const { return gutter + (static_cast<float>(lane) + 0.5f) * spacing; }
  float row_top(std::size_t row) const { return header + static_cast<float>(row) * row_height; }
  // The y of a row's arrows and lifeline dots: below the row's label.
  float line_y(std::size_t row) const { return row_top(row) + label_height + 3; }
  float height(std::size_t rows) const { return row_top(rows); }
};

class Placement {
 public:
  void update(const SequenceLayout& layout, float width, const Metrics& metrics);

  const Canvas& canvas() const { return canvas_; }
  // Lane titles first (one per lane), then stamps and row labels in row order.
  const std::vector<PlacedLabel>& labels() const { return labels_; }
  std::size_t titles() const { return titles_; }
  // Index into labels() of the first label of `row` or later (labels().size() if none).
  std::size_t first_label_at(std::size_t row) const;
  float min_spacing() const { return min_spacing_; }
  // The narrowest panel that shows every lane without scrolling sideways.
  float min_width() const { return min_width_; }
  // The narrowest panel that shows every lane with its whole title.
  float comfortable_width() const { return comfortable_width_; }

 private:
  void place_titles(const SequenceLayout& layout, const Metrics& metrics);
  void place_row(const SequenceLayout& layout, std::size_t row, const Metrics& metrics);

  Canvas canvas_;
  std::vector<PlacedLabel> labels_;
  std::size_t titles_ = 0;
  std::size_t placed_rows_ = 0;
  float min_spacing_ = 0, min_width_ = 0, comfortable_width_ = 0;
  float width_ = -1;
  std::uint64_t generation_ = 0, font_id_ = 0;
  std::size_t lanes_ = 0;
};

// `text` cut to at most `max_width` pixels, ending in "..." when cut ("" if even that
// does not fit). Cuts at UTF-8 character boundaries.
std::string shorten(const std::string& text, float max_width, const Metrics& metrics);

// What breaks invariants (1) and (2) for the first `rows` rows, one line each ("" = none
// found, so an empty vector means the placement keeps its promises).
std::vector<std::string> placement_problems(const Placement& placement, std::size_t rows);

// "s 12 t 340": the stamp in the gutter at a step's first row.
std::string step_stamp(std::uint64_t step, std::uint64_t time);

}  // namespace diagram
