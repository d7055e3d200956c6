#pragma once
// The GUI application without its window: the sessions, the scenario list, the view
// state, the diagram layouts, and the frame loop's two halves. main.cpp adds GLFW and
// OpenGL around it; the headless tests drive it with ImGui alone.
//
// A frame is: frame() draws every panel from const views, panels queue commands;
// update() then applies them, advances play, and pumps replays within a time budget.
// So the picture of one frame is always one consistent state, and everything that
// changes a run goes through lab::Session, which the CLI can replay.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/session/recording.h"
#include "src/session/session.h"
#include "ui/commands.h"
#include "ui/layout.h"
#include "ui/model.h"
#include "src/diagram/placement.h"
#include "src/diagram/sequence.h"
#include "ui/lessons_mode.h"
#include "ui/view_state.h"

namespace generals {
class TwoGenerals;
}

namespace ui {

struct AppOptions {
  std::string file;           // scenario to open; "" = the first one in the directory
  std::string trace;          // a recorded run's JSON Lines trace to show, read-only ("" = none)
  std::string scenarios_dir;  // "" = the file's directory, else eosim's own (files/data_dir.h)
  std::uint64_t step = 0;     // start at this step
  Mode mode = Mode::kExplore;
  std::optional<std::uint64_t> seed;  // overrides, as on the command line
  std::string strategy;
  std::optional<std::int64_t> max_steps;  // replaces the file's step bound (long runs)
  std::string compare_left = "atomic";
  std::string compare_right = "no-dedup";
  std::string layout_file;  // where panel sizes are remembered; "" = not remembered
  std::string lesson;       // lessons mode at this lesson: a number from 1, or a file
};

class App {
 public:
  App();
  ~App();
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  eosim::Status init(const AppOptions& options);
  // Between ImGui::NewFrame() and ImGui::Render(): draws every panel, queues commands.
  void frame();
  // After the frame is drawn: applies the queued commands, plays, and spends at most
  // about `budget_ms` of wall time pumping replays (the rest of a long replay goes on
  // in the next frames, so scrubbing never freezes the window).
  void update(float delta_seconds, double budget_ms);
  bool busy() const;  // a replay or seek is still under way

  lab::Session& session() { return main_; }
  // The recorded run opened with AppOptions::trace or a LoadCmd of a *.jsonl file.
  const lab::Recording& recording() const { return recording_; }
  // A recording is shown (explore mode): transport commands move through it, and the
  // commands that would change a run are refused.
  bool recorded() const { return recorded_ && view_.mode == Mode::kExplore; }
  lab::Session& compare(int side) { return compare_[side]; }
  ViewState& view() { return view_; }
  const ViewState& view() const { return view_; }
  const std::vector<ScenarioEntry>& scenarios() const { return scenarios_; }
  const Commands& last_commands() const { return last_; }  // applied by the last update()
  // The diagram layouts, one per Slot (ui/view_state.h).
  const diagram::SequenceLayout& layout(Slot slot) const { return layouts_[slot]; }
  const diagram::Placement& placement(Slot slot) const { return placements_[slot]; }
  const generals::TwoGenerals* generals() const { return generals_.get(); }
  LessonsMode& lessons() { return lessons_; }  // the Lessons mode (ui/lessons_mode.h)
  // `eosim generals ...` replaying the exchange, captures by hand included (app_generals.cpp).
  std::string generals_replay() const;
  // Applies one command now (update() does this for the queued ones).
  void apply(const Command& command);

 private:
  void refresh();  // brings views, end summaries and layouts up to date for this frame
  void refresh_session(lab::Session& session, Slot slot, SessionModel& out);
  void refresh_recording();
  eosim::Status init_scenario(const AppOptions& options);
  eosim::Status open_trace(const std::string& path);
  void load(const std::string& path);
  void play(float delta_seconds);
  void ensure_compare();
  void set_compare(const std::string& left, const std::string& right);
  void for_driven(const std::function<void(lab::Session&)>& fn);
  // The run(s) the transport moves: the recording when one is shown, else for_driven's.
  void for_moved(const std::function<void(lab::SteppedRun&)>& fn);
  void status(std::string text, bool error);
  void load_scenario_list(const std::string& dir);
  void draw_explore(float top, float height);
  void draw_right_column(const SessionModel& shown, float top, float height, const Columns& c);
  void splitters(float top, float height, float width, const Columns& columns);
  void ensure_generals();                       // app_generals.cpp
  void apply_generals(const Command& command);  // app_generals.cpp

  lab::Session main_;
  lab::Session compare_[2];
  bool compare_stale_ = true;
  std::vector<ScenarioEntry> scenarios_;
  std::string scenarios_dir_;
  PerSlot<diagram::SequenceLayout> layouts_;
  PerSlot<diagram::Placement> placements_;
  lab::Recording recording_;
  bool recorded_ = false;
  Model model_;
  ViewState view_;
  Commands queued_, last_;
  std::unique_ptr<generals::TwoGenerals> generals_;
  LessonsMode lessons_;
  std::vector<int> generals_captures_;
  std::string layout_file_;  // couriers captured by hand, in order
};

}  // namespace ui
