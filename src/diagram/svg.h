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

// A coordinate with one decimal ("12.5"), the same bytes in every locale.
std::string svg_number(float value);
// Its short name in the SVG writers (chart.cpp, svg.cpp), where every coordinate takes one.
inline std::string num(float value) { return svg_number(value); }

// A colour for `tone` on a light background ("#1a7f37").
const char* tone_hex(Tone tone);

}  // namespace diagram
