// The placement's promises, for every scenario of scenarios/ at the window sizes the GUI
// is shown at: no two label boxes intersect, none crosses the canvas's edge, lanes keep
// their minimum spacing (the canvas grows and scrolls instead), long labels are
// shortened with their full text kept, and growing row by row places as building at once.

#include "src/diagram/placement.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

std::vector<std::string> scenario_files() {
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(std::string(EOSIM_SOURCE_DIR) +
                                                           "/scenarios")) {
    if (e.path().extension() == ".toml") files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

diagram::SequenceLayout layout_of(const std::string& path) {
  lab::Scenario s = test_support::loaded(lab::load_scenario(path));
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  layout.update(trace, 1);
  return layout;
}

// A proportional font, like the GUI's DejaVu Sans: narrow and wide glyphs differ.
diagram::Metrics proportional_metrics() {
  diagram::Metrics m;
  m.text_width = [](std::string_view text) {
    float w = 0;
    for (const char c : text) w += (c == 'i' || c == 'l' || c == '.' || c == ' ') ? 4.0f
                                   : (c == 'm' || c == 'w' || (c >= 'A' && c <= 'Z')) ? 11.0f
                                                                                       : 8.0f;
    return w;
  };
  m.line_height = 17;
  m.font_id = 99;
  return m;
}

// The lane actors of the layout check_invariants looks at (for the short titles).
std::vector<std::string>& layout_lanes() {
  static std::vector<std::string> lanes;
  return lanes;
}

// (1) and (2) of placement.h; returns how many pairs were compared, so a test can tell
// that it looked at something.
std::size_t check_invariants(const diagram::Placement& p, std::size_t rows) {
  const diagram::Canvas& c = p.canvas();
  std::vector<const diagram::PlacedLabel*> labels;
  for (const auto& l : p.labels()) {
    if (l.text.empty()) continue;
    labels.push_back(&l);
    INFO(l.full);
    CHECK(l.box.x0 >= 0);
    CHECK(l.box.x1 <= c.width);
    CHECK(l.box.y1 <= c.height(rows));
    if (l.kind == diagram::LabelKind::kStamp) CHECK(l.box.x1 <= c.gutter);
    if (l.kind != diagram::LabelKind::kStamp && l.kind != diagram::LabelKind::kTitle) {
      CHECK(l.box.x0 >= c.gutter);
    }
    if (l.kind == diagram::LabelKind::kTitle && l.shortened) {
      // A lane too narrow for its title shows the short title, whole or cut.
      const std::string short_title = diagram::lane_short_title(layout_lanes()[l.row]);
      const bool cut = l.text.size() >= 3 && l.text.substr(l.text.size() - 3) == "...";
      CHECK((l.text == short_title ||
             (cut && short_title.rfind(l.text.substr(0, l.text.size() - 3), 0) == 0)));
    } else if (l.shortened && !l.text.empty()) {
      const std::string kept = l.text.substr(0, l.text.size() - 3);
      CHECK(l.full.rfind(kept, 0) == 0);
      CHECK(l.text.substr(kept.size()) == "...");
    }
  }
  std::sort(labels.begin(), labels.end(),
            [](const auto* a, const auto* b) { return a->box.y0 < b->box.y0; });
  std::size_t compared = 0;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    for (std::size_t j = i + 1; j < labels.size() && labels[j]->box.y0 < labels[i]->box.y1; ++j) {
      ++compared;
      INFO(labels[i]->full << " / " << labels[j]->full);
      CHECK_FALSE(labels[i]->box.intersects(labels[j]->box));
    }
  }
  return compared;
}

}  // namespace

TEST_CASE("no two labels intersect and none crosses the edge, every scenario, both sizes",
          "[diagram][placement]") {
  const auto files = scenario_files();
  REQUIRE(files.size() >= 19);
  // 1280x800 and 1600x960 windows: the whole width, and the diagram panel's default share.
  const float width = GENERATE(1280.0f, 1600.0f, 560.0f, 760.0f, 300.0f);
  const bool mono = GENERATE(true, false);
  const diagram::Metrics metrics =
      mono ? diagram::monospace_metrics(12) : proportional_metrics();
  for (const std::string& file : files) {
    INFO(file << " at width " << width << (mono ? " monospace" : " proportional"));
    const diagram::SequenceLayout layout = layout_of(file);
    diagram::Placement p;
    p.update(layout, width, metrics);
    layout_lanes().clear();
    for (const auto& lane : layout.lanes()) layout_lanes().push_back(lane.actor);
    CHECK(p.labels().size() > layout.lanes().size());
    CHECK(check_invariants(p, layout.rows().size()) > 0);
    // (4): lanes never closer than the minimum; a narrow panel scrolls instead.
    CHECK(p.canvas().spacing >= p.min_spacing());
    CHECK(p.canvas().width >= width);
    if (p.canvas().width > width) CHECK(p.canvas().spacing == p.min_spacing());
  }
}

TEST_CASE("lanes close up before they scroll: every lane fits a laptop's diagram panel",
          "[diagram][placement]") {
  // At 1280x800 the diagram's panel is about 560 px wide (ui/layout.h: the side columns
  // narrow to 230 and 300 px, less the panel's frame): every scenario's lanes fit there,
  // titles shortened where need be, the whole title kept for the tooltip.
  const diagram::Metrics metrics = proportional_metrics();
  std::size_t shortened = 0;
  for (const std::string& file : scenario_files()) {
    INFO(file);
    const diagram::SequenceLayout layout = layout_of(file);
    diagram::Placement p;
    p.update(layout, 560, metrics);
    CHECK(p.min_width() <= 560);
    CHECK(p.canvas().width == 560);
    CHECK(p.comfortable_width() >= p.min_width());
    for (std::size_t i = 0; i < p.titles(); ++i) {
      const diagram::PlacedLabel& title = p.labels()[i];
      CHECK(title.full == layout.lanes()[i].title);
      CHECK(title.box.x1 <= p.canvas().lane_x(static_cast<int>(i)) + p.canvas().spacing / 2);
      if (title.shortened) ++shortened;
    }
  }
  CHECK(shortened > 0);  // two consumers and a mail server do not fit whole in 560 px
  CHECK(diagram::lane_short_title("consumer2") == "Cons 2");
  CHECK(diagram::lane_short_title("ledger") == "ledger");
}

TEST_CASE("a label too long for its room is shortened and keeps its full text",
          "[diagram][placement]") {
  const diagram::Metrics m = diagram::monospace_metrics(10, 1.0f);  // 10 px a glyph
  CHECK(diagram::shorten("abcdef", 60, m) == "abcdef");
  CHECK(diagram::shorten("abcdefgh", 60, m) == "abc...");
  CHECK(diagram::shorten("abcdefgh", 20, m) == "");
  CHECK(diagram::shorten("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 40, m) == "\xc3\xa9...");

  // Scenario 08's db-error note is long; at 560 px it must be cut, never run off.
  const auto files = scenario_files();
  const auto it = std::find_if(files.begin(), files.end(), [](const std::string& f) {
    return f.find("08-naive-error") != std::string::npos;
  });
  REQUIRE(it != files.end());
  const diagram::SequenceLayout layout = layout_of(*it);
  diagram::Placement p;
  p.update(layout, 560, diagram::monospace_metrics(12));
  const auto cut = std::count_if(p.labels().begin(), p.labels().end(),
                                 [](const diagram::PlacedLabel& l) { return l.shortened; });
  CHECK(cut >= 1);
  for (const auto& l : p.labels()) {
    // (A title shows the lane's short title instead: checked by check_invariants.)
    if (l.shortened && l.kind != diagram::LabelKind::kTitle) {
      CHECK(l.text.substr(l.text.size() - 3) == "...");
    }
  }
}

TEST_CASE("placing row by row gives what placing at once gives", "[diagram][placement]") {
  const auto files = scenario_files();
  const diagram::SequenceLayout whole = layout_of(files[1]);
  diagram::Placement at_once, grown;
  const diagram::Metrics m = diagram::monospace_metrics(12);
  at_once.update(whole, 900, m);
  // The GUI grows its layout step by step; the placement follows without re-placing.
  lab::Scenario s = test_support::loaded(lab::load_scenario(files[1]));
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace, prefix;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));
  diagram::SequenceLayout layout;
  layout.reset(lab::diagram_lanes(s));
  for (const auto& e : trace) {
    prefix.push_back(e);
    layout.update(prefix, 1);
    grown.update(layout, 900, m);
  }
  REQUIRE(grown.labels().size() == at_once.labels().size());
  for (std::size_t i = 0; i < grown.labels().size(); ++i) {
    CHECK(grown.labels()[i].text == at_once.labels()[i].text);
    CHECK(grown.labels()[i].box.x0 == at_once.labels()[i].box.x0);
    CHECK(grown.labels()[i].box.y0 == at_once.labels()[i].box.y0);
  }
  // A narrower panel re-places everything: the same labels, other boxes.
  grown.update(layout, 400, m);
  CHECK(grown.labels().size() == at_once.labels().size());
  CHECK(grown.canvas().spacing < at_once.canvas().spacing);
}
