// The sweep chart: a series never hides under another with the same rates.
#include "src/diagram/chart.h"

#include <string>

#include <catch2/catch.hpp>

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

diagram::Chart three_at_zero() {
  diagram::Chart chart;
  chart.title = "violations";
  chart.x_ticks = {"x1/2", "x1", "x2"};
  chart.series = {{"atomic", {0, 0, 0}},
                  {"no-dedup", {0.1, 0.3, 0.6}},
                  {"check-then-act", {0, 0, 0}},
                  {"requeue-poison", {0, 0, 0}}};
  return chart;
}

}  // namespace

TEST_CASE("chart: series with the same rates are drawn as nested bands, widest first", "[chart]") {
  const std::string svg = diagram::chart_svg(three_at_zero());
  // atomic lies under two identical series, check-then-act under one, the rest under none.
  CHECK(count(svg, "stroke-width=\"8\" points=") == 1);
  CHECK(count(svg, "stroke-width=\"5\" points=") == 1);
  CHECK(count(svg, "stroke-width=\"2\" points=") == 2);
  CHECK(svg.find("stroke-width=\"8\"") < svg.find("stroke-width=\"5\" points="));
}

TEST_CASE("chart: a series at 0 % everywhere says so in its legend", "[chart]") {
  const std::string svg = diagram::chart_svg(three_at_zero());
  CHECK(count(svg, "<tspan> (0 %)</tspan></text>") == 3);
  CHECK(svg.find(">no-dedup</text>") != std::string::npos);
}
