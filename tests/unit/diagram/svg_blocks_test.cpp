// The diagram in blocks (svg.h, sequence_svg_blocks): one block is the picture
// sequence_svg draws, byte for byte; cut into blocks, every label is drawn once, in the
// block of its row, the lane titles in the first, and the blocks' slices tile the picture.

#include <catch2/catch.hpp>
#include <string>

#include "src/diagram/svg.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

diagram::SequenceLayout run_layout(const std::string& name) {
  lab::Scenario s = test_support::loaded(
      lab::load_scenario(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name));
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  return layout;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("diagram: SVG blocks tile the picture and draw each label once", "[diagram][svg]") {
  for (const char* name : {"16-competing-consumers-check-then-act.toml", "10-poison-requeue-forever.toml"}) {
    INFO(name);
    const diagram::SequenceLayout layout = run_layout(name);
    const diagram::SvgOptions options;
    const std::string whole = diagram::sequence_svg(layout, options);
    const auto one = diagram::sequence_svg_blocks(layout, options, layout.rows().size() + 1);
    REQUIRE(one.size() == 1);
    CHECK(one.front().svg == whole);

    const auto blocks = diagram::sequence_svg_blocks(layout, options, 7);
    CHECK(blocks.size() == (layout.rows().size() + 6) / 7);
    std::size_t labels = 0, titles = 0;
    float bottom = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      labels += occurrences(blocks[i].svg, "<text class=\"label\"");
      titles += occurrences(blocks[i].svg, "<text class=\"lane\"");
      CHECK(blocks[i].top == Approx(bottom));
      bottom = blocks[i].top + blocks[i].height;
      if (i > 0) CHECK(occurrences(blocks[i].svg, "<text class=\"lane\"") == 0);
    }
    CHECK(labels == occurrences(whole, "<text class=\"label\""));
    CHECK(titles == layout.lanes().size());
    CHECK(bottom == Approx(std::stof(whole.substr(whole.find("height=\"") + 8))));
  }
}
