// The GUI's panels driven headless, with the mouse: each button queues the command it
// says and the session ends up where stepping by hand would; an exported session replays
// under the real `eosim run` to the same trace hash.

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <string>

#include "src/generals/generals.h"
#include "src/orders/event_kinds.h"
#include "src/world/world.h"
#include "tests/support/cli_runner.h"
#include "tests/support/run_support.h"
#include "tests/support/status_support.h"
#include "tests/support/temp_dir.h"
#include "tests/ui/headless.h"

namespace {

using uitest::Headless;
using uitest::scenario;

ui::App& open_app(ui::App& app, const std::string& file, std::uint64_t step = 0,
                  ui::Mode mode = ui::Mode::kExplore) {
  ui::AppOptions options;
  options.file = scenario(file);
  options.step = step;
  options.mode = mode;
  REQUIRE_OK(app.init(options));
  return app;
}

template <class T>
const T* last_command(const Headless& ui) {
  for (const ui::Command& c : ui.commands()) {
    if (const T* t = std::get_if<T>(&c)) return t;
  }
  return nullptr;
}

// Types `path` into the Faults panel's export field.
void set_export_path(ui::App& app, const std::string& path) {
  std::fill(std::begin(app.view().export_path), std::end(app.view().export_path), '\0');
  path.copy(app.view().export_path, sizeof app.view().export_path - 1);
}

// The trace hash of a fresh run of `s` after `steps` steps.
std::uint64_t hash_at(const lab::Scenario& s, std::uint64_t steps) {
  auto world = run_support::world(s, lab::WorldOptions{});
  REQUIRE(world);
  while (world->steps() < steps && world->step()) {
  }
  return world->kernel().trace.hash();
}

}  // namespace

TEST_CASE("clicking Step advances the world exactly one step", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "02-crash-between-commit-and-ack.toml");
  ui.frame(app);
  REQUIRE(app.session().step() == 0);
  for (std::uint64_t expected = 1; expected <= 5; ++expected) {
    REQUIRE(ui.click(app, "Step >"));
    REQUIRE(last_command<ui::StepCmd>(ui) != nullptr);
    CHECK(app.session().step() == expected);
  }
  CHECK(app.session().world().kernel().trace.hash() == hash_at(app.session().scenario(), 5));
}

TEST_CASE("Back and the scrub slider show the states stepping forward showed", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "02-crash-between-commit-and-ack.toml", 30);
  ui.frame(app);
  REQUIRE(ui.click(app, "< Back"));
  REQUIRE(last_command<ui::StepBackCmd>(ui) != nullptr);
  ui.settle(app);
  CHECK(app.session().step() == 29);
  CHECK(app.session().world().kernel().trace.hash() == hash_at(app.session().scenario(), 29));

  // A click near the left end of the slider asks for an early step.
  REQUIRE(ui.click(app, "scrub", 0.02f));
  const auto* seek = last_command<ui::SeekCmd>(ui);
  REQUIRE(seek != nullptr);
  CHECK(seek->scrub);
  ui.settle(app);
  CHECK(app.session().step() == seek->step);
  CHECK(app.session().step() < 5);
  CHECK(app.session().world().kernel().trace.hash() ==
        hash_at(app.session().scenario(), app.session().step()));

  REQUIRE(ui.click(app, "End >|"));
  ui.settle(app);
  CHECK(app.session().step() == app.session().end().steps);
  CHECK(app.session().world().kernel().trace.hash() == app.session().end().trace_hash);
}

TEST_CASE("Play steps the run on its own and stops at the end", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "01-happy-path.toml");
  ui.frame(app);
  app.view().steps_per_second = 600.0f;  // 10 steps per 1/60 s frame
  REQUIRE(ui.click(app, "Play"));
  CHECK(app.view().playing);
  for (int i = 0; i < 200 && app.view().playing; ++i) ui.frame(app);
  CHECK_FALSE(app.view().playing);
  CHECK(app.session().step() == app.session().end().steps);
}

TEST_CASE("each fault button queues its fault and the session records the rule", "[ui]") {
  using K = lab::HandFaultKind;
  struct Case {
    const char* label;
    lab::HandFault fault;
  };
  const Case c =
      GENERATE(Case{"Crash consumer now", {K::kCrashNow, "", "", 1}},
               Case{"Crash after next commit", {K::kCrashAfterCommit, "", "", 1}},
               Case{"Fail next commit", {K::kFailNextCommit, "", "", 1}},
               Case{"Restart broker", {K::kRestartBroker, "", "", 0}},
               Case{"Drop next", {K::kDropNext, "net.relay->broker", "basic.publish", 0}},
               Case{"Break connection", {K::kBreakConnection, "net.relay->broker", "", 0}});
  INFO(c.label);
  Headless ui;
  ui::App app;
  open_app(app, "01-happy-path.toml", 12);
  ui.frame(app);
  REQUIRE(ui.click(app, c.label));
  const auto* inject = last_command<ui::InjectCmd>(ui);
  REQUIRE(inject != nullptr);
  CHECK(inject->fault.kind == c.fault.kind);
  CHECK(inject->fault.link == c.fault.link);
  CHECK(inject->fault.frame == c.fault.frame);
  CHECK(inject->fault.instance == c.fault.instance);
  REQUIRE(app.session().hand_rules().size() == 1);
  CHECK(app.session().hand_rules()[0] == lab::rule_for(c.fault, 12));
  CHECK(app.session().step() == 12);
  // The row of the list has a remove button.
  ui.frame(app);
  REQUIRE(ui.click(app, "x"));
  CHECK(app.session().hand_rules().empty());
}

TEST_CASE("export, then `eosim run` on the file, reproduces the session's trace hash", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "01-happy-path.toml", 8);
  ui.frame(app);
  REQUIRE(ui.click(app, "Crash after next commit"));
  ui.frame(app);
  REQUIRE(ui.click(app, "Drop next"));  // relay->broker basic.publish
  REQUIRE(app.session().hand_rules().size() == 2);

  const test_support::TempDir tmp("ui-export");
  const std::string path = tmp / "exported.toml";
  set_export_path(app, path);
  ui.frame(app);
  REQUIRE(ui.click(app, "Export"));
  REQUIRE(last_command<ui::ExportCmd>(ui) != nullptr);
  REQUIRE(std::filesystem::exists(path));

  const std::string expected = sim::hash_hex(app.session().end().trace_hash);
  const cli_runner::Output run = cli_runner::run("run '" + path + "' --format json", "2>&1");
  INFO(run.text);
  CHECK(run.exit_code == 0);  // the exported [expect] block holds
  CHECK(run.text.find("\"trace_hash\":\"" + expected + "\"") != std::string::npos);
  // The faults made by hand changed the run: it is not the untouched scenario's hash.
  const cli_runner::Output plain =
      cli_runner::run("run '" + scenario("01-happy-path.toml") + "' --format json", "2>&1");
  CHECK(plain.text.find("\"trace_hash\":\"" + expected + "\"") == std::string::npos);
  // Stepping the GUI to the end shows that same hash.
  REQUIRE(ui.click(app, "End >|"));
  ui.settle(app);
  CHECK(sim::hash_hex(app.session().world().kernel().trace.hash()) == expected);
}

TEST_CASE("Export asks before it replaces a file, and never replaces the scenario", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "01-happy-path.toml", 8);
  const test_support::TempDir tmp("ui-export-ask");
  const std::string path = tmp / "mine.toml";
  std::FILE* mine = std::fopen(path.c_str(), "w");
  REQUIRE(mine != nullptr);
  std::fputs("a file of the user's", mine);
  std::fclose(mine);
  const auto content = [&path] {
    std::FILE* f = std::fopen(path.c_str(), "r");
    char buffer[64] = {};
    const std::size_t n = f ? std::fread(buffer, 1, sizeof buffer - 1, f) : 0;
    if (f) std::fclose(f);
    return std::string(buffer, n);
  };
  set_export_path(app, path);
  ui.frame(app);
  REQUIRE(ui.click(app, "Export"));  // before: replaced at once
  ui.frame(app);
  CHECK(content() == "a file of the user's");
  CHECK(app.view().replace_asked == path);
  REQUIRE(ui.click(app, "Replace"));
  ui.frame(app);
  CHECK(content().rfind("name", 0) == 0);  // now the exported scenario
  CHECK(app.view().replace_asked.empty());

  // The scenario the session came from: refused, even when the user says Replace.
  const std::string own = scenario("01-happy-path.toml");
  set_export_path(app, own);
  ui.frame(app);
  REQUIRE(ui.click(app, "Export"));
  ui.frame(app);
  REQUIRE(ui.click(app, "Replace"));
  ui.frame(app);
  CHECK(app.session().export_to(own, true).message.find("the input file") != std::string::npos);
}

TEST_CASE("the browser opens a scenario and the overrides start it over", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "01-happy-path.toml", 10);
  ui.frame(app);
  REQUIRE(ui.click(app, "03-crash-between-commit-and-ack-no-dedup.toml"));
  REQUIRE(last_command<ui::LoadCmd>(ui) != nullptr);
  CHECK(app.session().base().name == "crash between commit and ack (no dedup)");
  CHECK(app.session().step() == 0);

  app.view().strategy_index = 1;  // lab::strategies()[0]: atomic
  std::string("9").copy(app.view().seed_text, 1);
  ui.frame(app);
  REQUIRE(ui.click(app, "Apply and reset"));
  const auto* configure = last_command<ui::ConfigureCmd>(ui);
  REQUIRE(configure != nullptr);
  CHECK(configure->overrides.strategy == "atomic");
  CHECK(configure->overrides.seed == 9u);
  CHECK(app.session().scenario().consumer.strategy == "atomic");
  CHECK(app.session().scenario().seed == 9u);
  CHECK(app.session().end().report.verdict == lab::Verdict::kExactlyOnce);

  // A scenario with two consumers gets a lane for each, between the broker and the ledger.
  app.apply(ui::LoadCmd{scenario("17-competing-consumers-atomic.toml")});
  app.apply(ui::ToEndCmd{});
  ui.settle(app);
  std::vector<std::string> lanes;
  for (const diagram::Lane& lane : app.layout(ui::Slot::kExplore).lanes()) {
    lanes.push_back(lane.actor);
  }
  CHECK(lanes == std::vector<std::string>{"producer", "orders", "relay", "broker", "consumer1",
                                          "consumer2", "ledger"});
}

TEST_CASE("the browser describes the design the scenario runs, check inside the transaction too",
          "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "50-check-in-transaction-serializable.toml");
  ui.frame(app);
  CHECK(ui.has(
      "check-then-act: SELECTs the order's debit inside the debit's own transaction and debits "
      "a step later in that same transaction; with no unique key, whether two consumers racing "
      "on one message both debit is the isolation level's to decide (read committed lets both "
      "through, serializable refuses one with 40001)"));
  // The preset's own line, the check outside any transaction, is not what 50 runs.
  CHECK_FALSE(
      ui.has("check-then-act: SELECTs the dedup table, then debits in another "
             "transaction; two consumers both pass the check and debit twice"));
  app.apply(ui::LoadCmd{scenario("16-competing-consumers-check-then-act.toml")});
  ui.frame(app);
  CHECK(
      ui.has("check-then-act: SELECTs the dedup table, then debits in another "
             "transaction; two consumers both pass the check and debit twice"));
}

TEST_CASE("compare mode steps both strategies together and finds where they part", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "02-crash-between-commit-and-ack.toml");
  ui.frame(app);
  REQUIRE(ui.click(app, "Compare"));
  CHECK(app.view().mode == ui::Mode::kCompare);
  ui.frame(app);  // the frame after the switch draws compare mode's transport
  REQUIRE(ui.click(app, "Step >"));
  CHECK(app.compare(0).step() == 1);
  CHECK(app.compare(1).step() == 1);
  CHECK(app.session().step() == 0);  // the explored session is left alone
  REQUIRE(ui.click(app, "End >|"));
  ui.settle(app);
  CHECK(app.compare(0).scenario().consumer.strategy == "atomic");
  CHECK(app.compare(1).scenario().consumer.strategy == "no-dedup");
  CHECK(app.compare(0).view().summary.report.verdict == lab::Verdict::kExactlyOnce);
  CHECK(app.compare(1).view().summary.report.verdict == lab::Verdict::kDuplicated);
  CHECK(app.compare(1).view().summary.report.balance_actual == 400);
  const auto d = lab::first_divergence(app.compare(0).world().kernel().trace.events(),
                                       app.compare(1).world().kernel().trace.events());
  REQUIRE(d.diverged);
  CHECK(app.compare(0).world().kernel().trace.events()[d.event].kind == orders::event::kDuplicate);
}

TEST_CASE("Two Generals mode: a captured courier, and the last one is never confirmed", "[ui]") {
  Headless ui;
  ui::App app;
  open_app(app, "02-crash-between-commit-and-ack.toml");
  ui.frame(app);
  REQUIRE(ui.click(app, "Two Generals"));
  ui.frame(app);
  REQUIRE(app.generals() != nullptr);
  // Without loss, couriers 1 and 2 get through; the 3rd is captured by hand.
  app.view().generals_loss_percent = 0;
  ui.frame(app);
  REQUIRE(ui.click(app, "New exchange"));
  const generals::TwoGenerals* g = app.generals();
  REQUIRE(g != nullptr);
  // Courier 2 goes out as courier 1 arrives; arm the capture while it is on its way, so
  // A's reply to it (courier 3) is the one taken.
  while (g->last_sent() < 2) {
    REQUIRE(ui.click(app, "Next event >"));
    CHECK(g->last_courier_unconfirmed());
  }
  REQUIRE(ui.click(app, "Capture the next courier"));
  CHECK(g->capture_armed());
  REQUIRE(ui.click(app, "Run to the end"));
  g = app.generals();
  CHECK(g->done());
  CHECK(g->couriers()[2].status == generals::CourierStatus::kCaptured);
  CHECK(g->couriers()[2].scripted);
  CHECK(g->last_courier_unconfirmed());
  CHECK(g->ladder()[2].known);
  CHECK_FALSE(g->ladder()[3].known);
  // The capture by hand replays from the command line as a scripted capture.
  const std::string replay = app.generals_replay();
  CHECK(replay.find("--capture 3") != std::string::npos);
  const cli_runner::Output run = cli_runner::run(replay.substr(replay.find(' ') + 1), "2>&1");
  INFO(run.text);
  CHECK(run.text.find("trace_hash=" + sim::hash_hex(g->trace_hash())) != std::string::npos);
}

TEST_CASE("every scenario draws in every mode, at its start and its end", "[ui]") {
  Headless ui;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(EOSIM_SOURCE_DIR) + "/scenarios")) {
    if (entry.path().extension() != ".toml") continue;  // scenarios/lessons/ is a folder
    const std::string file = entry.path().filename().string();
    INFO(file);
    ui::App app;
    open_app(app, file);
    for (const ui::Mode mode : {ui::Mode::kExplore, ui::Mode::kCompare, ui::Mode::kGenerals}) {
      app.view().mode = mode;
      ui.frame(app);
      app.apply(ui::ToEndCmd{});
      ui.settle(app);
      CHECK_FALSE(app.busy());
    }
    CHECK(app.session().step() == app.session().end().steps);
  }
}
