// A Session and a Recording of the same run, moved by the same transport through
// lab::SteppedRun (src/session/stepped_run.h), show the same steps and events.

#include "src/session/stepped_run.h"

#include <catch2/catch.hpp>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "src/report/report_format.h"
#include "src/scenario/scenario.h"
#include "src/session/recording.h"
#include "src/session/session.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

// The transport as the GUI drives it: request, then pump until settled.
void go_to(lab::SteppedRun& run, std::uint64_t step) {
  run.request(step);
  while (run.pump(7)) {
  }
}

// What the run shows after each move of one fixed walk: its step and whether it is over.
std::vector<std::string> walk(lab::SteppedRun& run) {
  std::vector<std::string> shown;
  const auto note = [&] {
    shown.push_back(std::to_string(run.step()) + (run.over() ? " over" : "") + " view " +
                    std::to_string(run.view().step));
  };
  run.step_forward();
  run.step_forward();
  note();
  run.step_back();
  note();
  go_to(run, 12);
  note();
  run.seek(5);
  note();
  go_to(run, run.end().steps);
  note();
  CHECK_FALSE(run.step_forward());  // over
  note();
  run.seek(0);
  note();
  return shown;
}

}  // namespace

TEST_CASE("a session and a recording of its run step alike through SteppedRun",
          "[session][recording]") {
  const lab::Scenario s = test_support::loaded(lab::load_scenario(
      std::string(EOSIM_SOURCE_DIR) + "/scenarios/03-crash-between-commit-and-ack-no-dedup.toml"));
  lab::RunSummary run;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, &trace));
  std::ostringstream file;
  lab::write_report_jsonl(file, lab::RunRecord{s, run, {}, "eosim run"}, trace);

  lab::Session session;
  REQUIRE_OK(session.open(s));
  lab::Recording recording;
  std::istringstream in(file.str());
  REQUIRE_OK(recording.parse(in, "run.jsonl"));

  const std::vector<std::string> by_session = walk(session);
  CHECK(by_session.size() == 7);
  CHECK(by_session == walk(recording));
  CHECK(by_session[4] == std::to_string(run.steps) + " over view " + std::to_string(run.steps));
  CHECK(session.end().trace_hash == recording.end().trace_hash);
}
