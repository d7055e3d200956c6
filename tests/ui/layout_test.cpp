// The explore view's panels: automatic columns that give the diagram its lanes' width,
// splitters a person drags, and the sizes remembered in a file of the user's.

#include "ui/layout.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "tests/support/named_check.h"
#include "tests/support/status_support.h"
#include "tests/support/temp_dir.h"
#include "tests/ui/headless.h"
#include "ui/view_state.h"

TEST_CASE("columns add up to the window and keep their minimum", "[ui][layout]") {
  for (const float width : {1280.0f, 1600.0f, 900.0f}) {
    for (const float wants : {0.0f, 600.0f, 2000.0f}) {
      const ui::Columns c = ui::columns(ui::PanelLayout{}, width, wants);
      CHECK(c.left + c.center + c.right == Approx(width));
      CHECK(c.left >= ui::kMinColumn);
      CHECK(c.center >= ui::kMinColumn);
      CHECK(c.right >= ui::kMinColumn);
    }
  }
  // The diagram gets what its lanes want when there is room for it.
  const ui::Columns fit = ui::columns(ui::PanelLayout{}, 1600, 800);
  CHECK(fit.center >= 800);
  // The left column widens for its longest line, up to a limit.
  CHECK(ui::columns(ui::PanelLayout{}, 1600, 800, 390).left == Approx(390));
  CHECK(ui::columns(ui::PanelLayout{}, 1600, 800, 900).left == Approx(ui::kMaxAutoLeft));
  CHECK(ui::columns(ui::PanelLayout{}, 1600, 800, 100).left == Approx(1600 * 0.23f));
  // A laptop: the automatic side columns narrow so that every lane of the diagram fits.
  const ui::Columns laptop = ui::columns(ui::PanelLayout{}, 1280, 800, 390, 600);
  CHECK(laptop.center >= 600);
  CHECK(laptop.left >= ui::kNarrowLeft);
  CHECK(laptop.right >= ui::kNarrowRight);
  CHECK(laptop.left + laptop.center + laptop.right == Approx(1280));
  // A dragged layout wins over the automatic one.
  ui::PanelLayout dragged;
  dragged.left = 0.25f;
  dragged.right = 0.25f;
  const ui::Columns d = ui::columns(dragged, 1600, 800);
  CHECK(d.left == Approx(400));
  CHECK(d.right == Approx(400));
}

TEST_CASE("a saved layout reads back, a damaged one gives the defaults", "[ui][layout]") {
  const test_support::TempDir tmp("layout");
  // In a folder that does not exist yet: save_layout makes it.
  const std::string path = (tmp.path / "config" / "gui-layout.ini").string();
  ui::PanelLayout layout;
  layout.left = 0.3f;
  layout.browser = 0.4f;
  REQUIRE_OK(ui::save_layout(path, layout));
  const ui::PanelLayout back = ui::load_layout(path);
  CHECK(back.left == Approx(0.3f));
  CHECK(back.browser == Approx(0.4f));
  CHECK(back.verdict == Approx(layout.verdict));
  {
    std::ofstream damaged(path, std::ios::trunc);
    damaged << "left=banana\nverdict=0.8\nbroker=0.8\n";
  }
  CHECK(ui::load_layout(path) == ui::PanelLayout{});
  CHECK(ui::load_layout(path + ".missing") == ui::PanelLayout{});
}

TEST_CASE("dragging a splitter resizes the panels and remembers it", "[ui][layout]") {
  const test_support::TempDir tmp("layout-drag");
  const std::string path = tmp / "gui-layout.ini";
  uitest::Headless h;
  ui::App app;
  ui::AppOptions options;
  options.file = uitest::scenario("16-competing-consumers-check-then-act.toml");
  options.layout_file = path;
  REQUIRE_OK(app.init(options));
  h.settle(app);
  h.frame(app);
  REQUIRE(h.has("##split left"));
  // The bar sits on the border: its middle is where the left column ends.
  const float before = h.center_x("##split left");
  REQUIRE(h.drag(app, "##split left", 60, 0));
  CHECK(app.view().panels.left * 1600 == Approx(before + 60).margin(2));
  CHECK(h.center_x("##split left") == Approx(before + 60).margin(2));
  REQUIRE(std::filesystem::exists(path));
  CHECK(ui::load_layout(path).left == Approx(app.view().panels.left));
  REQUIRE(h.drag(app, "##split verdict", 0, 40));
  CHECK(ui::load_layout(path).verdict == Approx(app.view().panels.verdict));
}

namespace {

// Opens `file` at 1280x800, steps to `step`, and returns what the diagram showed.
ui::DiagramSeen seen_at_1280(const std::string& file, std::uint64_t step,
                             const ui::PanelLayout& panels = ui::PanelLayout{}) {
  uitest::Headless h(1280, 800);
  ui::App app;
  ui::AppOptions options;
  options.file = file;
  options.step = step;
  REQUIRE_OK(app.init(options));
  app.view().panels = panels;
  h.settle(app);
  for (int i = 0; i < 6; ++i) h.frame(app);  // the columns and the scroll settle
  return app.view().seen[ui::Slot::kExplore];
}

}  // namespace

TEST_CASE("at 1280x800 every lane's title and the current event are on screen",
          "[ui][layout]") {
  std::size_t checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(EOSIM_SOURCE_DIR) +
                                                           "/scenarios")) {
    if (e.path().extension() != ".toml") continue;
    for (const std::uint64_t step : {std::uint64_t{12}, std::uint64_t{100000}}) {
      INFO(e.path().filename().string() << " at step " << step);
      const ui::DiagramSeen seen = seen_at_1280(e.path().string(), step);
      REQUIRE(seen.drawn);
      CHECK(seen.lanes >= 6);
      CHECK(seen.hidden_lanes.empty());
      if (seen.has_current) CHECK(seen.current_in_view);
      ++checked;
    }
  }
  CHECK(checked >= 40);
}

TEST_CASE("a diagram dragged narrower than its lanes scrolls to the current event's lanes",
          "[ui][layout]") {
  ui::PanelLayout narrow;
  narrow.left = 0.45f;
  narrow.right = 0.4f;  // the diagram keeps 15% of 1280 px: two or three lanes
  const std::string file = uitest::scenario("16-competing-consumers-check-then-act.toml");
  for (const std::uint64_t step : {std::uint64_t{3}, std::uint64_t{24}}) {
    INFO("step " << step);
    const ui::DiagramSeen seen = seen_at_1280(file, step, narrow);
    REQUIRE(seen.drawn);
    CHECK_FALSE(seen.hidden_lanes.empty());  // it does scroll
    REQUIRE(seen.has_current);
    CHECK(seen.current_in_view);
  }
}

TEST_CASE("the modes `eosim-gui --mode` names are Mode's table", "[ui]") {
  check_named_round_trip<ui::Mode>();
  CHECK(sim::name_of(ui::Mode::kGenerals) == "generals");
}
