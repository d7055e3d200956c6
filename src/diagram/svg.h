#pragma once
// The sequence diagram as a standalone SVG, drawn from the same layout and placement the
// GUI draws (one layout, two renderers). Text is a monospace font whose advance the
// placement assumes (monospace_metrics), so labels fit in a browser as they do on screen.
// A shortened label carries its full text as an SVG <title> (a browser's hover tooltip).
//
// Invariants:
//  (1) Output depends only on the trace, the lanes and the options: no clock, no locale.
//  (2) Every lane title is a <text class="lane"> element; every label a <text class="label">.

#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/diagram/placement.h"
#include "src/diagram/sequence.h"

namespace diagram {

struct SvgOptions {
  float width = 1100;     // the panel width the placement fills (the SVG may be wider)
  float font_px = 12;     // monospace text size
  std::string title;      // an SVG <title> for the whole picture ("" = none)
};

// The diagram of `events` with lanes `lane_actors` (lab::diagram_lanes).
std::string sequence_svg(const std::vector<sim::TraceEvent>& events,
                         const std::vector<std::string>& lane_actors, const SvgOptions& options);

// The same from a layout already built.
std::string sequence_svg(const SequenceLayout& layout, const SvgOptions& options);

// The same diagram cut into blocks of at most `rows_per_block` rows, each an <svg> of its
// own whose viewBox is its slice of the one picture (same coordinates: block k shows
// y from row_top(first row) to row_top(last row + 1); the first block also the lane
// titles, the last one the room below the last row). An arrow that crosses blocks is
// drawn in each, clipped by its viewBox, so the blocks stacked show exactly the picture
// sequence_svg draws. A page can then leave off-screen blocks unlaid (HTML's
// content-visibility). One block when the rows fit in one.
struct SvgBlock {
  float top = 0, height = 0;  // the slice, in the picture's coordinates
  std::string svg;
};
std::vector<SvgBlock> sequence_svg_blocks(const SequenceLayout& layout, const SvgOptions& options,
                                          std::size_t rows_per_block);

// A coordinate with one decimal ("12.5"), the same bytes in every locale.
std::string svg_number(float value);
// Its short name in the SVG writers (chart.cpp, svg.cpp), where every coordinate takes one.
inline std::string num(float value) { return svg_number(value); }

// A colour for `tone` on a light background ("#1a7f37").
const char* tone_hex(Tone tone);

}  // namespace diagram
