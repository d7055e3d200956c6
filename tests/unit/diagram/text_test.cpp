#include "src/diagram/text.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "src/orders/order_key.h"
#include "src/world/world.h"
#include "tests/support/status_support.h"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("text diagram: lanes stay in their columns and every labelled row is drawn",
          "[diagram]") {
  lab::Scenario s;
  s.name = "text diagram";
  s.workload.orders = 2;
  s.consumer.strategy = "no-dedup";
  sim::FaultRule crash;
  crash.site = "consumer.after_commit";
  crash.action = sim::FaultAction::kCrash;
  crash.key[orders::kOrder] = 1;
  s.script = {crash};
  lab::RunSummary run;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, &trace));
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  const diagram::TextDiagramOptions options{10, 0};
  const std::vector<std::string> lines = lines_of(diagram::format_text_diagram(layout, options));

  std::size_t labelled = 0;
  for (const auto& row : layout.rows()) labelled += row.label.text.empty() ? 0 : 1;
  REQUIRE(lines.size() == labelled + 1);  // a header, then one line per labelled row
  const std::size_t lanes = layout.lanes().size();
  bool crossed_down = false;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const std::size_t x = 7 + lane * 10 + 5;  // " step  " then the lane's centre
      REQUIRE(lines[i].size() > x);
      const char c = lines[i][x];
      CHECK((c == '|' || c == ':' || c == '*' || c == '<' || c == '>' || c == '-'));
      crossed_down = crossed_down || c == ':';
    }
  }
  CHECK(crossed_down);  // the crashed consumer's lifeline is drawn broken
  const std::string all = diagram::format_text_diagram(layout, options);
  CHECK(all.find("CRASH") != std::string::npos);
  CHECK(all.find("AGAIN commit: debit") != std::string::npos);  // the double debit

  const diagram::TextDiagramOptions short_one{10, 5};
  const std::vector<std::string> cut = lines_of(diagram::format_text_diagram(layout, short_one));
  CHECK(cut.size() == 7);
  CHECK(cut.back().find(std::to_string(labelled - 5) + " more rows") != std::string::npos);
}

TEST_CASE("text diagram: with max_width every line fits, lanes headed by short titles",
          "[diagram]") {
  // Two consumers and the mail lane's neighbours: the widest lesson diagram (7 lanes).
  lab::Scenario s;
  s.name = "narrow text diagram";
  s.consumer.instances = 2;
  lab::RunSummary run;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, &trace));
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  diagram::TextDiagramOptions options;
  const std::string wide = diagram::format_text_diagram(layout, options);
  std::size_t widest = 0;
  for (const std::string& line : lines_of(wide)) widest = std::max(widest, line.size());
  CHECK(widest > 100);  // without a limit the lanes and labels run past 100 columns
  options.max_width = 100;
  const std::string text = diagram::format_text_diagram(layout, options);
  const std::vector<std::string> lines = lines_of(text);
  REQUIRE(lines.size() == lines_of(wide).size());
  for (const std::string& line : lines) CHECK(line.size() <= 100);
  CHECK(lines[0].find("Cons 1") != std::string::npos);
  CHECK(lines[0].find("Cons 2") != std::string::npos);
  CHECK(text.find("...") != std::string::npos);  // a long label, cut
}
