// A recorded live run in the GUI, driven headless with the mouse: Step and Back move
// through the recorded events, the controls that would change a run are greyed and their
// commands refused, the browser opens a trace and a malformed one is an error in the
// status line, and closing the recording goes back to the scenario.

#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "tests/support/status_support.h"
#include "tests/ui/headless.h"

namespace {

using uitest::Headless;
using uitest::scenario;

const std::string kTrace =
    std::string(EOSIM_SOURCE_DIR) + "/tests/data/live/recorded-02-no-dedup.jsonl";

template <class T>
bool queued(const Headless& ui) {
  for (const ui::Command& c : ui.commands()) {
    if (std::holds_alternative<T>(c)) return true;
  }
  return false;
}

void open_trace(ui::App& app, std::uint64_t step = 0) {
  ui::AppOptions options;
  options.trace = kTrace;
  options.file = scenario("02-crash-between-commit-and-ack.toml");
  options.step = step;
  REQUIRE_OK(app.init(options));
}

}  // namespace

TEST_CASE("a recorded live run steps forward and back with the toolbar", "[ui][recording]") {
  Headless ui;
  ui::App app;
  open_trace(app);
  ui.frame(app);
  REQUIRE(app.recorded());
  CHECK(app.recording().step() == 0);
  for (std::uint64_t expected = 1; expected <= 4; ++expected) {
    REQUIRE(ui.click(app, "Step >"));
    CHECK(app.recording().step() == expected);
    CHECK(app.recording().events().size() == expected);  // one event per step in a live trace
  }
  REQUIRE(ui.click(app, "< Back"));
  CHECK(app.recording().step() == 3);
  REQUIRE(ui.click(app, "End >|"));
  CHECK(app.recording().over());
  ui.frame(app);
  // The diagram has one row per recorded event shown.
  CHECK(app.layout(ui::Slot::kRecording).rows().size() == app.recording().all_events().size());
  CHECK(app.session().step() == 0);  // the scenario behind it did not move
}

TEST_CASE("a recording greys what would change a run and refuses its commands",
          "[ui][recording]") {
  Headless ui;
  ui::App app;
  open_trace(app, 10);
  ui.frame(app);
  for (const char* label : {"Inject a fault", "Change strategy", "Re-run"}) {
    REQUIRE(ui.has(label));
    REQUIRE(ui.click(app, label));
    CHECK(ui.commands().empty());
  }
  CHECK_FALSE(ui.has("Crash consumer now"));  // the fault buttons are not drawn at all
  CHECK_FALSE(ui.has("Apply and reset"));
  REQUIRE(ui.click(app, "Compare"));  // greyed: the mode stays
  CHECK(app.view().mode == ui::Mode::kExplore);

  // The same commands from anywhere else are refused, and nothing moves.
  app.apply(ui::InjectCmd{{lab::HandFaultKind::kCrashNow, "", "", 1}});
  CHECK(app.view().status_is_error);
  CHECK(app.view().status.find("read-only") == 0);
  CHECK(app.session().hand_rules().empty());
  app.apply(ui::ConfigureCmd{{.seed = 9, .strategy = "atomic"}});
  CHECK(app.view().status.find("read-only") == 0);
  CHECK(app.session().scenario().seed != 9);
  CHECK(app.recording().step() == 10);
}

TEST_CASE("the browser opens a trace, a malformed one is an error naming file and line",
          "[ui][recording]") {
  Headless ui;
  ui::App app;
  ui::AppOptions options;
  options.file = scenario("01-happy-path.toml");
  REQUIRE_OK(app.init(options));
  ui.frame(app);
  REQUIRE_FALSE(app.recorded());

  const std::string bad = "recording_test_bad.jsonl";
  {
    std::ofstream out(bad);
    out << R"({"step":1,"time":1,"actor":"producer","kind":"start"})" << "\n{\"step\":2,\"ti\n";
  }
  kTrace.copy(app.view().trace_path, sizeof app.view().trace_path - 1);
  bad.copy(app.view().trace_path, sizeof app.view().trace_path - 1);
  app.view().trace_path[bad.size()] = '\0';
  REQUIRE(ui.click(app, "Open trace"));
  CHECK(queued<ui::LoadCmd>(ui));
  CHECK_FALSE(app.recorded());
  CHECK(app.view().status_is_error);
  CHECK(app.view().status.find(bad + ":2: not a JSON object") == 0);
  std::remove(bad.c_str());

  std::fill(std::begin(app.view().trace_path), std::end(app.view().trace_path), '\0');
  kTrace.copy(app.view().trace_path, sizeof app.view().trace_path - 1);
  REQUIRE(ui.click(app, "Open trace"));
  CHECK(app.recorded());
  CHECK(app.recording().path() == kTrace);
  ui.frame(app);

  REQUIRE(ui.click(app, "Close the recording"));
  CHECK_FALSE(app.recorded());
  ui.frame(app);
  CHECK(ui.has("Crash consumer now"));  // the scenario's fault buttons are back
}
