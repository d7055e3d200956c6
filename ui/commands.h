#pragma once
// What a panel may ask for. Panels only queue commands; the app applies them after the
// frame is drawn, so one frame always shows one consistent state (ImGui demo's
// "CloseQueue" pattern). In compare mode the transport commands drive both sessions.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "src/session/session.h"

namespace ui {

struct StepCmd {};
struct StepBackCmd {};
struct SeekCmd {
  std::uint64_t step = 0;
  bool scrub = false;  // from the slider: asynchronous, settled by pump over frames
};
struct ToEndCmd {};
struct RestartCmd {};  // back to step 0 of the same run
struct LoadCmd {
  std::string path;  // a scenario file, or a recorded run's trace (*.jsonl, read-only)
};
struct ConfigureCmd {
  lab::ScenarioOverrides overrides;  // seed, strategy, producer
};
struct InjectCmd {
  lab::HandFault fault;
};
struct RemoveFaultCmd {
  std::size_t index = 0;
};
struct ExportCmd {
  std::string path;
  bool replace = false;  // the user said yes to replacing the file there
};
struct CompareCmd {
  std::string left, right;  // strategies
};
struct GeneralsResetCmd {
  int couriers = 4;
  int loss_percent = 25;
  std::uint64_t seed = 1;
};
struct CloseTraceCmd {};  // back from a recording to the simulated scenario
struct GeneralsStepCmd {};
struct GeneralsCaptureCmd {};
struct GeneralsRunCmd {};

using Command = std::variant<StepCmd, StepBackCmd, SeekCmd, ToEndCmd, RestartCmd, LoadCmd,
                             ConfigureCmd, InjectCmd, RemoveFaultCmd, ExportCmd, CompareCmd,
                             CloseTraceCmd, GeneralsResetCmd, GeneralsStepCmd, GeneralsCaptureCmd,
                             GeneralsRunCmd>;
using Commands = std::vector<Command>;

}  // namespace ui
