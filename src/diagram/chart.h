#pragma once
// A line chart as a standalone SVG: one line per series over a shared x axis, the y axis
// a rate from 0 to 1 (drawn as 0-100 %). Used by `eosim sweep --plot` for the violation
// rate of each strategy against the fault ratio or the number of seeds.
//
// Invariants: the output depends only on the chart (no clock, no locale); every series
// name appears as a <text class="legend"> element; x ticks are the points' labels, evenly
// spaced in point order (the x values are categories, e.g. "x1/8", "x1", "100 seeds").

#include <string>
#include <vector>

namespace diagram {

struct Series {
  std::string name;
  std::vector<double> rates;  // one per x tick, each in [0, 1]
};

struct Chart {
  std::string title;
  std::string x_label;
  std::string y_label = "runs that violate exactly-once";
  std::vector<std::string> x_ticks;
  std::vector<Series> series;
  std::string caption;  // a line under the chart (how it was made)
};

std::string chart_svg(const Chart& chart);

}  // namespace diagram
