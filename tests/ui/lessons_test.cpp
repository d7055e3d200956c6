// The GUI's Lessons mode, clicked through headless: the question hides the run's end and
// verdict until it is answered; then the run can be stepped to its end beside the
// explanation.

#include <imgui_internal.h>

#include <catch2/catch.hpp>
#include <string>

#include "tests/support/status_support.h"
#include "tests/ui/headless.h"

namespace {

using uitest::Headless;

bool window_shown(const char* name) {
  const ImGuiWindow* window = ImGui::FindWindowByName(name);
  return window != nullptr && window->Active;  // drawn in the last frame
}

}  // namespace

TEST_CASE("Lessons mode hides the outcome until the learner answers", "[ui][lesson]") {
  Headless ui;
  ui::App app;
  ui::AppOptions options;
  options.file = uitest::scenario("01-happy-path.toml");
  REQUIRE_OK(app.init(options));
  ui.frame(app);
  REQUIRE(ui.click(app, "Lessons"));
  CHECK(app.view().mode == ui::Mode::kLessons);
  REQUIRE(app.lessons().lessons().size() >= 10);

  REQUIRE(ui.click(app, "lesson 2"));  // at-least-once: the no-dedup double debit
  ui::LessonsMode& lesson = app.lessons();
  REQUIRE(lesson.selected() == 1);
  CHECK_FALSE(lesson.answered());
  const std::uint64_t hold = lesson.hold_step();
  CHECK(hold > 0);  // the setup runs up to the crash...
  CHECK(lesson.session().step() == hold);
  ui.frame(app);
  CHECK_FALSE(window_shown("Verdict##lesson"));  // ...and nothing of how it ends shows
  CHECK_FALSE(ui.has("To end##lesson"));
  REQUIRE(ui.click(app, "Step >##lesson"));  // greyed: no stepping past the setup
  ui.frame(app);
  CHECK(lesson.session().step() == hold);

  REQUIRE(ui.click(app, "answer 1"));  // "debited once": not what the run shows
  CHECK(lesson.answer() == 1);
  CHECK(lesson.shown() == std::vector<std::int64_t>{2});
  ui.frame(app);
  CHECK(window_shown("Verdict##lesson"));
  REQUIRE(ui.click(app, "To end##lesson"));
  ui.frame(app);
  CHECK(lesson.session().world().over());
  const std::uint64_t end = lesson.session().step();
  CHECK(end > hold);
  REQUIRE(ui.click(app, "< Back##lesson"));
  CHECK(lesson.session().step() + 1 == end);

  REQUIRE(ui.click(app, "lesson 4"));  // picking another lesson asks again
  CHECK_FALSE(app.lessons().answered());
  CHECK(app.lessons().selected() == 3);
}

TEST_CASE("The toolbar names the lesson in Lessons mode, not the Explore scenario",
          "[ui][lesson]") {
  Headless ui;
  ui::App app;
  ui::AppOptions options;
  options.file = uitest::scenario("01-happy-path.toml");
  REQUIRE_OK(app.init(options));
  ui.frame(app);
  const std::string explore = "context: happy path   seed 1   outbox / atomic";
  CHECK(ui.has(explore));
  REQUIRE(ui.click(app, "Lessons"));
  CHECK(ui.has("context: no lesson open"));
  REQUIRE(ui.click(app, "lesson 2"));  // the no-dedup double debit, not happy path's atomic
  ui.frame(app);
  CHECK(ui.has("context: lesson 2: At-least-once"));
  CHECK_FALSE(ui.has(explore));
  REQUIRE(ui.click(app, "Two Generals"));  // runs no scenario: names none
  CHECK_FALSE(ui.has(explore));
  CHECK_FALSE(ui.has("context: lesson 2: At-least-once"));
  REQUIRE(ui.click(app, "Explore"));
  CHECK(ui.has(explore));
}
