#include "ui/app.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>

#include "src/generals/generals.h"
#include "src/generals/report.h"
#include "src/catalog/catalog.h"
#include "src/files/data_dir.h"
#include "src/files/output_file.h"
#include "src/scenario/scenario.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

// Where the scenario files are when no directory was given: the file's folder, else
// eosim's own scenarios found from here (src/files/data_dir.h: ./scenarios, beside the
// program, under the install prefix).
std::string default_scenarios_dir(const std::string& file) {
  namespace fs = std::filesystem;
  if (!file.empty()) {
    const fs::path parent = fs::path(file).parent_path();
    return parent.empty() ? "." : parent.string();
  }
  const std::string found = files::find_scenarios_dir();
  return found.empty() ? "scenarios" : found;
}

// The lessons beside the browser's scenarios, else eosim's own found from here (a
// scenario opened from the user's folder still has the course behind it).
std::string lessons_dir(const std::string& scenarios_dir) {
  std::error_code ec;
  const std::string beside = scenarios_dir + "/lessons";
  if (std::filesystem::is_directory(beside, ec)) return beside;
  const std::string found = files::find_scenarios_dir("lessons");
  return found.empty() ? beside : found;
}

int index_of(const std::vector<lab::CatalogEntry>& entries, const std::string& name) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].name == name) return static_cast<int>(i);
  }
  return 0;
}

}  // namespace

App::App() = default;
App::~App() = default;

void App::load_scenario_list(const std::string& dir) {
  namespace fs = std::filesystem;
  scenarios_.clear();
  std::vector<std::string> files;
  // An unreadable folder: the browser is empty, the run still opens.
  if (!lab::scenario_files_in(dir, files).ok()) return;
  for (const std::string& path : files) {
    ScenarioEntry e;
    e.path = path;
    e.file = fs::path(path).filename().string();
    if (const eosim::Result<lab::Scenario> s = lab::load_scenario(path); s.ok()) {
      e.name = s.value().name;
      e.about = s.value().about;
    } else {
      e.error = s.message();
    }
    scenarios_.push_back(std::move(e));
  }
}

eosim::Status App::init(const AppOptions& options) {
  layout_file_ = options.layout_file;
  if (!layout_file_.empty()) view_.panels = load_layout(layout_file_);
  scenarios_dir_ =
      options.scenarios_dir.empty() ? default_scenarios_dir(options.file) : options.scenarios_dir;
  load_scenario_list(scenarios_dir_);
  lessons_.load(lessons_dir(scenarios_dir_));
  if (!options.lesson.empty()) {
    // The explore view behind the lesson opens the folder's first scenario.
    if (eosim::Status opened = lessons_.open(options.lesson, view_); !opened.ok()) return opened;
    AppOptions behind = options;
    behind.mode = Mode::kLessons;
    return init_scenario(behind);
  }
  if (options.trace.empty()) return init_scenario(options);
  if (eosim::Status opened = open_trace(options.trace); !opened.ok()) return opened;
  recording_.seek(options.step);
  // A scenario stays open behind the recording, for when it is closed; none is fine too,
  // so a failure here is no failure of init: dropped on purpose.
  AppOptions behind = options;
  behind.step = 0;
  behind.mode = Mode::kExplore;
  (void)init_scenario(behind);
  view_.mode = Mode::kExplore;
  return eosim::Status::success();
}

eosim::Status App::init_scenario(const AppOptions& options) {
  std::string file = options.file;
  if (file.empty()) {
    for (const auto& e : scenarios_) {
      if (e.error.empty()) {
        file = e.path;
        break;
      }
    }
  }
  if (file.empty()) {
    return eosim::Status::error("no scenario file given and none loads in " + scenarios_dir_);
  }
  eosim::Result<lab::Scenario> loaded = lab::load_scenario(file);
  if (!loaded.ok()) return loaded.status();
  lab::Scenario& scenario = loaded.value();
  if (options.max_steps) scenario.max_steps = *options.max_steps;
  if (eosim::Status opened = main_.open(scenario); !opened.ok()) return opened;
  if (options.seed || !options.strategy.empty()) {
    if (eosim::Status configured =
            main_.configure({.seed = options.seed, .strategy = options.strategy});
        !configured.ok()) {
      return configured;
    }
    if (options.seed) {
      const std::string seed = std::to_string(*options.seed);
      seed.copy(view_.seed_text, sizeof view_.seed_text - 1);
    }
    if (!options.strategy.empty()) {
      view_.strategy_index = index_of(lab::strategies(), options.strategy) + 1;
    }
  }
  view_.mode = options.mode;
  view_.compare_left = index_of(lab::strategies(), options.compare_left);
  view_.compare_right = index_of(lab::strategies(), options.compare_right);
  if (view_.mode == Mode::kCompare) {
    ensure_compare();
    for (auto& side : compare_) side.seek(options.step);
  }
  if (view_.mode == Mode::kGenerals) {
    // The exchange is seeded like the run and stepped as far as --step asks.
    if (options.seed) view_.generals_seed = static_cast<int>(*options.seed % 1000000);
    ensure_generals();
    for (std::uint64_t i = 0; i < options.step && generals_->step(); ++i) {
    }
  }
  main_.seek(options.step);
  const std::string stem = std::filesystem::path(file).stem().string();
  (stem + "-session.toml").copy(view_.export_path, sizeof view_.export_path - 1);
  return eosim::Status::success();
}

// Shows the recorded run in `path` (read-only); the open scenario stays behind it.
eosim::Status App::open_trace(const std::string& path) {
  if (eosim::Status loaded = recording_.load(path); !loaded.ok()) return loaded;
  recorded_ = true;
  view_.mode = Mode::kExplore;
  view_.playing = false;
  view_.followed_step[Slot::kRecording] = UINT64_MAX;
  std::fill(std::begin(view_.trace_path), std::end(view_.trace_path), '\0');
  path.copy(view_.trace_path, sizeof view_.trace_path - 1);
  return eosim::Status::success();
}

void App::refresh_session(lab::Session& session, Slot slot, SessionModel& out) {
  out = SessionModel{};
  diagram::SequenceLayout& layout = layouts_[slot];
  if (!session.is_open()) return;
  // Another run may have other actors (two consumers): lanes come from its scenario.
  if (layout.lanes().empty() || layout.revision() != session.revision()) {
    layout.reset(lab::diagram_lanes(session.scenario()));
  }
  layout.update(session.world().kernel().trace.events(), session.revision());
  out.session = &session;
  out.events = &session.world().kernel().trace.events();
  out.target = session.target();
  out.settled = session.settled();
  out.view = &session.view();
  out.end = &session.end();
  out.layout = &layout;
  out.placement = &placements_[slot];
}

void App::refresh_recording() {
  SessionModel& out = model_.recorded;
  out = SessionModel{};
  if (!recorded()) return;
  diagram::SequenceLayout& layout = layouts_[Slot::kRecording];
  if (layout.lanes().empty() || layout.revision() != recording_.revision()) {
    layout.reset(recording_.lanes());
  }
  layout.update(recording_.events(), recording_.revision());
  out.recording = &recording_;
  out.events = &recording_.events();
  out.target = recording_.target();
  out.view = &recording_.view();
  out.end = &recording_.end();
  out.layout = &layout;
  out.placement = &placements_[Slot::kRecording];
}

void App::refresh() {
  model_.scenarios = &scenarios_;
  model_.scenarios_dir = scenarios_dir_;
  if (view_.mode == Mode::kGenerals) ensure_generals();
  model_.generals = generals_.get();
  model_.generals_replay = generals_replay();
  model_.deliveries.clear();
  model_.generals_split.clear();
  if (view_.mode == Mode::kGenerals && generals_) {
    model_.generals_split =
        generals::split_sentence(generals_->options(), generals::find_split(generals_->options()));
    if (main_.is_open()) model_.deliveries = generals::deliveries(main_.world().kernel().trace.events());
  }
  refresh_session(main_, Slot::kExplore, model_.main);
  refresh_recording();
  if (view_.mode == Mode::kCompare) ensure_compare();
  for (int i = 0; i < 2; ++i) refresh_session(compare_[i], compare_slot(i), model_.compare[i]);
  if (model_.compare[0].valid() && model_.compare[1].valid()) {
    model_.divergence = lab::first_divergence(compare_[0].world().kernel().trace.events(),
                                              compare_[1].world().kernel().trace.events());
  }
}

void App::frame() {
  refresh();
  for (DiagramSeen& seen : view_.seen.items) seen.drawn = false;
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float toolbar = ImGui::GetFrameHeightWithSpacing() * 2 + style.WindowPadding.y * 2;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(d.x, toolbar), ImGuiCond_Always);
  ImGui::Begin("toolbar", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoScrollbar);
  draw_toolbar(model_, view_, queued_, lessons_.toolbar_line());
  ImGui::End();

  const float top = toolbar, height = d.y - toolbar;
  if (view_.mode == Mode::kCompare) {
    begin_panel("Compare two strategies: same scenario, same seed", ImVec2(0, top),
                ImVec2(d.x, height));
    draw_compare(model_, view_, queued_);
    end_panel();
    return;
  }
  if (view_.mode == Mode::kGenerals) {
    begin_panel("Two Generals", ImVec2(0, top), ImVec2(d.x, height));
    draw_generals(model_, view_, queued_);
    end_panel();
    return;
  }
  if (view_.mode == Mode::kLessons) {
    lessons_.frame(top, view_);
    return;
  }
  draw_explore(top, height);
}

// The explore view: a session with its fault buttons, broker and tables, or a recording
// with what it cannot do and why; the same columns and diagram for both.
void App::draw_explore(float top, float height) {
  const bool recorded = model_.recorded.valid();
  const SessionModel& shown = recorded ? model_.recorded : model_.main;
  if (!shown.valid()) return;
  const Slot slot = recorded ? Slot::kRecording : Slot::kExplore;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetIO().DisplaySize.x;
  // The diagram's panel is as wide as its lanes want (placement of the last frame), and
  // never so narrow that a lane is off screen.
  const float frame = style.ScrollbarSize + 2 * style.WindowPadding.x + 2;
  const float wants = placements_[slot].comfortable_width() + frame;
  const float needs = placements_[slot].min_width() + frame;
  // The left column as wide as the export file's name (Faults by hand), within limits.
  const float left_wants = ImGui::CalcTextSize(view_.export_path).x +
                           2 * (style.FramePadding.x + style.WindowPadding.x) + 2;
  const Columns c = columns(view_.panels, width, wants, left_wants, needs);
  const float browser = height * view_.panels.browser;
  begin_panel("Scenarios", ImVec2(0, top), ImVec2(c.left, browser));
  draw_browser(model_, view_, queued_);
  end_panel();
  begin_panel(recorded ? "Recorded run" : "Faults by hand", ImVec2(0, top + browser),
              ImVec2(c.left, height - browser));
  if (recorded) {
    draw_recording(model_, queued_);
  } else {
    draw_faults(model_, view_, queued_);
  }
  end_panel();
  begin_panel("Sequence diagram", ImVec2(c.left, top), ImVec2(c.center, height));
  draw_sequence(shown, view_, slot);
  end_panel();
  draw_right_column(shown, top, height, c);
  splitters(top, height, width, c);
}

// Verdict, broker and tables of a session; verdict and a note on what a trace holds for a
// recording.
void App::draw_right_column(const SessionModel& shown, float top, float height,
                            const Columns& c) {
  const float verdict = height * view_.panels.verdict, broker = height * view_.panels.broker;
  const float right = c.left + c.center;
  begin_panel("Verdict", ImVec2(right, top), ImVec2(c.right, verdict));
  if (shown.recording != nullptr) {
    draw_recorded_verdict(shown, view_.show_outcome);
  } else {
    draw_verdict(shown, view_.show_outcome);
  }
  end_panel();
  if (shown.recording != nullptr) {
    begin_panel("Broker and tables", ImVec2(right, top + verdict),
                ImVec2(c.right, height - verdict));
    draw_recorded_state(shown);
    end_panel();
    return;
  }
  begin_panel("Broker", ImVec2(right, top + verdict), ImVec2(c.right, broker));
  draw_broker(shown);
  end_panel();
  begin_panel("Database tables (live)", ImVec2(right, top + verdict + broker),
              ImVec2(c.right, height - verdict - broker));
  draw_tables(shown, Slot::kExplore);
  end_panel();
}

// Bars between the panels; a drag moves the border, a release remembers the layout.
void App::splitters(float top, float height, float width, const Columns& c) {
  PanelLayout& p = view_.panels;
  constexpr float kBar = 6;
  bool released = false, any = false;
  ImVec2 m = splitter("##split left", ImVec2(c.left - kBar / 2, top), ImVec2(kBar, height), released);
  any = any || released;
  if (m.x != 0) {
    p.left = std::clamp((c.left + m.x) / width, 0.05f, 0.6f);
    if (p.right == 0) p.right = c.right / width;  // the other border stays where it is
  }
  const float right = c.left + c.center;
  m = splitter("##split right", ImVec2(right - kBar / 2, top), ImVec2(kBar, height), released);
  any = any || released;
  if (m.x != 0) {
    p.right = std::clamp((c.right - m.x) / width, 0.05f, 0.7f);
    if (p.left == 0) p.left = c.left / width;
  }
  const float browser = height * p.browser;
  m = splitter("##split browser", ImVec2(0, top + browser - kBar / 2), ImVec2(c.left, kBar), released);
  any = any || released;
  if (m.y != 0) p.browser = std::clamp(p.browser + m.y / height, 0.15f, 0.85f);
  const float verdict = height * p.verdict;
  m = splitter("##split verdict", ImVec2(right, top + verdict - kBar / 2), ImVec2(c.right, kBar),
               released);
  any = any || released;
  if (m.y != 0) p.verdict = std::clamp(p.verdict + m.y / height, 0.1f, 0.85f - p.broker);
  const float broker = height * p.broker;
  m = splitter("##split broker", ImVec2(right, top + verdict + broker - kBar / 2),
               ImVec2(c.right, kBar), released);
  any = any || released;
  if (m.y != 0) p.broker = std::clamp(p.broker + m.y / height, 0.08f, 0.9f - p.verdict);
  if (any && !layout_file_.empty()) {
    if (const eosim::Status saved = save_layout(layout_file_, p); !saved.ok()) {
      status(saved.message, true);
    }
  }
}

void App::for_driven(const std::function<void(lab::Session&)>& fn) {
  if (view_.mode == Mode::kCompare) {
    ensure_compare();
    for (auto& side : compare_) fn(side);
  } else {
    fn(main_);
  }
}

void App::for_moved(const std::function<void(lab::SteppedRun&)>& fn) {
  if (recorded()) return fn(recording_);
  for_driven([&](lab::Session& s) { fn(s); });
}

void App::status(std::string text, bool error) {
  view_.status = std::move(text);
  view_.status_is_error = error;
}

void App::ensure_compare() {
  if (!compare_stale_ && compare_[0].is_open() && compare_[1].is_open()) return;
  const auto& all = lab::strategies();
  set_compare(std::string(all[static_cast<std::size_t>(view_.compare_left)].name),
              std::string(all[static_cast<std::size_t>(view_.compare_right)].name));
}

void App::set_compare(const std::string& left, const std::string& right) {
  compare_stale_ = false;
  const lab::Scenario& now = main_.scenario();
  const std::string strategies[2] = {left, right};
  for (int i = 0; i < 2; ++i) {
    eosim::Result<lab::Scenario> s = lab::apply_overrides(
        main_.base(),
        {.seed = now.seed, .strategy = strategies[i], .producer = now.producer.pattern});
    const eosim::Status opened = s.ok() ? compare_[i].open(s.value()) : s.status();
    if (!opened.ok()) status(opened.message, true);
    layouts_[compare_slot(i)] = diagram::SequenceLayout{};
    placements_[compare_slot(i)] = diagram::Placement{};
    view_.followed_step[compare_slot(i)] = UINT64_MAX;
  }
  view_.compare_left = index_of(lab::strategies(), left);
  view_.compare_right = index_of(lab::strategies(), right);
}

namespace {

bool is_transport(const Command& c) {
  return std::holds_alternative<StepCmd>(c) || std::holds_alternative<StepBackCmd>(c) ||
         std::holds_alternative<SeekCmd>(c) || std::holds_alternative<ToEndCmd>(c) ||
         std::holds_alternative<RestartCmd>(c);
}

// A transport command on a session or a recording alike.
void move(lab::SteppedRun& run, const Command& c) {
  if (std::holds_alternative<StepCmd>(c)) {
    run.step_forward();
  } else if (std::holds_alternative<StepBackCmd>(c)) {
    if (run.target() > 0) run.request(run.target() - 1);
  } else if (const auto* seek = std::get_if<SeekCmd>(&c)) {
    run.request(seek->step);
  } else if (std::holds_alternative<ToEndCmd>(c)) {
    run.request(run.end().steps);
  } else if (std::holds_alternative<RestartCmd>(c)) {
    run.request(0);  // back to step 0 of the same run: a replay, never a re-run
  }
}

// Why a recording refuses a command that would change or re-run a run; nullptr if it
// does not refuse it.
const char* refusal(const Command& c) {
  if (std::holds_alternative<ConfigureCmd>(c)) {
    return "a recording keeps the seed and strategy its processes ran with";
  }
  if (std::holds_alternative<InjectCmd>(c) || std::holds_alternative<RemoveFaultCmd>(c)) {
    return "a fault cannot be added to a run that is over (a new live run can have it)";
  }
  if (std::holds_alternative<ExportCmd>(c)) return "a recording has no faults made by hand to export";
  if (std::holds_alternative<CompareCmd>(c)) return "a recording is one run; compare runs the model";
  return nullptr;
}

}  // namespace

void App::apply(const Command& command) {
  if (is_transport(command)) {
    for_moved([&](lab::SteppedRun& run) { move(run, command); });
  } else if (const char* why = recorded() ? refusal(command) : nullptr) {
    status(std::string("read-only: ") + why, true);
  } else if (const auto* load = std::get_if<LoadCmd>(&command)) {
    this->load(load->path);
  } else if (std::holds_alternative<CloseTraceCmd>(command)) {
    recorded_ = false;
    status("closed the recording", false);
  } else if (const auto* c = std::get_if<ConfigureCmd>(&command)) {
    if (const eosim::Status configured = main_.configure(c->overrides);
        configured.ok()) {
      compare_stale_ = true;
      status("started over with the new choices", false);
    } else {
      status(configured.message, true);
    }
  } else if (const auto* inject = std::get_if<InjectCmd>(&command)) {
    main_.inject(inject->fault);
    status("fault made by hand: " + lab::describe_rule(main_.hand_rules().back()), false);
  } else if (const auto* remove = std::get_if<RemoveFaultCmd>(&command)) {
    if (remove->index < main_.hand_rules().size()) main_.remove_hand_rule(remove->index);
  } else if (const auto* out = std::get_if<ExportCmd>(&command)) {
    view_.replace_asked.clear();
    if (!out->replace && files::output_exists(out->path)) {
      view_.replace_asked = out->path;  // the Faults panel asks before replacing it
      status(out->path + " exists: Replace it, or change the name", false);
    } else if (const eosim::Status exported = main_.export_to(out->path, out->replace);
               exported.ok()) {
      status("exported: eosim run " + out->path + " replays trace hash " +
                 sim::hash_hex(main_.end().trace_hash),
             false);
    } else {
      status(exported.message, true);
    }
  } else if (const auto* compare = std::get_if<CompareCmd>(&command)) {
    set_compare(compare->left, compare->right);
  } else {
    apply_generals(command);
  }
}

// A scenario file becomes the explored session; a *.jsonl trace is shown as a recording.
void App::load(const std::string& path) {
  if (std::filesystem::path(path).extension() == ".jsonl") {
    if (const eosim::Status opened = open_trace(path); opened.ok()) {
      status("opened the recording " + path + " (read-only)", false);
    } else {
      status(opened.message, true);
    }
    return;
  }
  if (const eosim::Status loaded = main_.load(path); !loaded.ok()) {
    status(loaded.message, true);
    return;
  }
  recorded_ = false;
  view_.seed_text[0] = '\0';
  view_.strategy_index = view_.producer_index = 0;
  view_.followed_step[Slot::kExplore] = UINT64_MAX;
  compare_stale_ = true;
  const std::string stem = std::filesystem::path(path).stem().string();
  std::fill(std::begin(view_.export_path), std::end(view_.export_path), '\0');
  (stem + "-session.toml").copy(view_.export_path, sizeof view_.export_path - 1);
  status("opened " + path, false);
}

// Play: steps owed to the play clock, requested from the shown run(s).
void App::play(float delta_seconds) {
  if (!view_.playing || view_.mode == Mode::kGenerals) return;
  lab::SteppedRun* shown = &main_;
  if (recorded()) {
    shown = &recording_;
  } else if (view_.mode == Mode::kCompare) {
    shown = &compare_[0];
  }
  if (!shown->is_open()) return;
  if (shown->over()) {
    view_.playing = false;
    return;
  }
  view_.play_credit += static_cast<double>(delta_seconds) * view_.steps_per_second;
  const auto steps = static_cast<std::uint64_t>(std::min(view_.play_credit, 20000.0));
  view_.play_credit -= static_cast<double>(steps);
  for_moved([&](lab::SteppedRun& run) { run.request(run.target() + steps); });
}

void App::update(float delta_seconds, double budget_ms) {
  last_ = std::move(queued_);
  queued_.clear();
  for (const Command& c : last_) apply(c);
  lessons_.update(view_);

  play(delta_seconds);

  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::microseconds(static_cast<long>(budget_ms * 1000));
  bool more = true;
  while (more && std::chrono::steady_clock::now() < deadline) {
    more = false;
    for_driven([&](lab::Session& s) { more = (s.is_open() && s.pump(64)) || more; });
  }
}

bool App::busy() const {
  if (recorded()) return false;  // a recording seeks at once
  if (!main_.is_open()) return false;
  if (view_.mode == Mode::kCompare) return !compare_[0].settled() || !compare_[1].settled();
  return !main_.settled();
}

}  // namespace ui
