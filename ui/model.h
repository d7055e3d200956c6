#pragma once
// The read-only model a frame is drawn from: const views of the sessions (refreshed by
// the app before the frame, so no panel ever runs SQL or steps a world), the scenario
// list, and the diagram layouts derived from the traces.

#include <cstdint>
#include <string>
#include <vector>

#include "src/session/recording.h"
#include "src/session/session.h"
#include "src/diagram/placement.h"
#include "src/diagram/sequence.h"
#include "src/generals/delivery.h"

namespace generals {
class TwoGenerals;
}

namespace ui {

struct ScenarioEntry {
  std::string path;  // as given to load_scenario
  std::string file;  // file name only, e.g. "02-crash-between-commit-and-ack.toml"
  std::string name;
  std::string about;
  std::string error;  // why it does not load ("" when it does)
};

// One run as the panels see it: a session (simulated, stepped and replayed) or a recording
// (a recorded trace stepped read-only; `session` is then null).
struct SessionModel {
  const lab::Session* session = nullptr;
  const lab::Recording* recording = nullptr;
  const std::vector<sim::TraceEvent>* events = nullptr;  // the trace up to the shown step
  std::uint64_t target = 0;  // where a replay or seek is heading (the shown step when settled)
  bool settled = true;
  const lab::StepView* view = nullptr;
  const lab::RunSummary* end = nullptr;  // the whole run
  const diagram::SequenceLayout* layout = nullptr;
  // The diagram's pixel placement: a cache the sequence panel brings up to date for its
  // width (it is derived from the layout, so drawing never changes the run).
  diagram::Placement* placement = nullptr;
  bool valid() const { return (session != nullptr && session->is_open()) || recording != nullptr; }
};

struct Model {
  SessionModel main;
  SessionModel compare[2];
  SessionModel recorded;  // the recording shown in explore mode, if one is open
  lab::Divergence divergence;  // of the two compare sessions' traces at their step
  const std::vector<ScenarioEntry>* scenarios = nullptr;
  const generals::TwoGenerals* generals = nullptr;
  std::string generals_replay;
  std::string generals_split;  // the "no finite N is safe" sentence the CLI prints
  std::vector<generals::Delivery> deliveries;  // of the explored run, for Two Generals  // the `eosim generals ...` command that replays the exchange
  std::string scenarios_dir;
};

}  // namespace ui
