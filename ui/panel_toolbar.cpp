// The toolbar: mode switch, transport (back, step, play with a speed, to the end), the
// scrub slider over the whole run, and one line of status.

#include <cstdio>
#include <string>

#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

namespace {

// `why_not`: the mode cannot be entered now, and why (a tooltip on the greyed button).
void mode_button(const char* label, Mode mode, ViewState& view, const char* why_not = nullptr) {
  const bool active = view.mode == mode;
  if (active)
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
  const bool pressed = button_if(why_not == nullptr, label);
  if (why_not != nullptr && ImGui::IsItemHovered()) {
    ImGui::SetTooltip("%s", why_not);
  }
  if (pressed) {
    view.mode = mode;
    view.playing = false;
  }
  if (active) ImGui::PopStyleColor();
  ImGui::SameLine();
}

bool key_pressed(ImGuiKey key) {
  return !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(ImGui::GetKeyIndex(key));
}

// `other`: compare mode's second session, whose end verdict is shown too.
void transport(const SessionModel& m, const SessionModel* other, ViewState& view,
               Commands& commands) {
  const std::uint64_t step = m.view->step;
  const bool over = m.view->over;
  if (button_if(step > 0, "|<")) commands.push_back(RestartCmd{});
  ImGui::SameLine();
  if (button_if(step > 0, "< Back") || (step > 0 && key_pressed(ImGuiKey_LeftArrow))) {
    commands.push_back(StepBackCmd{});
  }
  ImGui::SameLine();
  if (button_if(!over, "Step >") || (!over && key_pressed(ImGuiKey_RightArrow))) {
    commands.push_back(StepCmd{});
  }
  ImGui::SameLine();
  if (button(view.playing ? "Pause" : "Play", ImVec2(60, 0)) || key_pressed(ImGuiKey_Space)) {
    view.playing = !view.playing && !over;
    view.play_credit = 0;
  }
  ImGui::SameLine();
  if (button_if(!over, "End >|")) commands.push_back(ToEndCmd{});
  ImGui::SameLine();
  ImGui::SetNextItemWidth(150);
  ImGui::SliderFloat("##speed", &view.steps_per_second, 1.0f, 2000.0f, "%.0f steps/s",
                     ImGuiSliderFlags_Logarithmic);
  probe_last_item("speed");
  ImGui::SameLine();

  // The slider spans the whole run; while a replay is under way it shows the target.
  const std::int64_t end = static_cast<std::int64_t>(m.end->steps);
  if (!view.scrubbing) view.scrub_step = static_cast<std::int64_t>(m.target);
  const std::int64_t zero = 0;
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 420);
  const std::string format = "step %lld of " + std::to_string(end);
  if (ImGui::SliderScalar("##scrub", ImGuiDataType_S64, &view.scrub_step, &zero, &end,
                          format.c_str())) {
    commands.push_back(SeekCmd{static_cast<std::uint64_t>(view.scrub_step), true});
  }
  view.scrubbing = ImGui::IsItemActive();
  probe_last_item("scrub");
  ImGui::SameLine();
  ImGui::Text("tick %llu", static_cast<unsigned long long>(m.view->time));
  ImGui::SameLine();
  ImGui::Checkbox("show the end", &view.show_outcome);
  probe_last_item("show the end");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip("For teachers: show how the run ends before it has ended.");
  }
  ImGui::SameLine();
  if (!m.settled) {
    text_colored(palette::kWarn, "replaying...");
  } else if (!over && !view.show_outcome) {
    text_colored(palette::kMuted, "in progress");
  } else if (other == nullptr) {
    text_colored(verdict_color(m.end->report.verdict),
                 (over ? "ended " : "will end ") + std::string(lab::verdict_name(m.end->report.verdict)));
  } else {
    text_colored(verdict_color(m.end->report.verdict), "ends " + std::string(lab::verdict_name(m.end->report.verdict)));
    ImGui::SameLine();
    text_colored(verdict_color(other->end->report.verdict), "| " + std::string(lab::verdict_name(other->end->report.verdict)));
  }
}

// What the run on screen is, after the mode buttons: the recording, the Explore or Compare
// scenario, or the lesson. Two Generals runs no scenario, so it names none. Probed under
// "context: " and the text, so a test reads what the user reads.
std::string context_line(const Model& model, const ViewState& view,
                         const std::string& lesson_line) {
  if (view.mode == Mode::kLessons) return lesson_line;
  if (view.mode == Mode::kGenerals) return "";
  char line[512];
  if (model.recorded.valid()) {
    const lab::RunSummary& r = model.recorded.recording->end();
    std::snprintf(line, sizeof line, "%s: %s   seed %llu   %s / %s",
                  model.recorded.recording->live() ? "recorded live run" : "recorded run",
                  r.scenario.c_str(), static_cast<unsigned long long>(r.seed),
                  r.producer.c_str(), r.strategy.c_str());
    return line;
  }
  if (!model.main.valid()) return "";
  const lab::Scenario& s = model.main.session->scenario();
  std::snprintf(line, sizeof line, "%s   seed %llu   %s / %s", s.name.c_str(),
                static_cast<unsigned long long>(s.seed), s.producer.pattern.c_str(),
                view.mode == Mode::kCompare ? "two strategies" : s.consumer.strategy.c_str());
  return line;
}

}  // namespace

void draw_toolbar(const Model& model, ViewState& view, Commands& commands,
                  const std::string& lesson_line) {
  mode_button("Explore", Mode::kExplore, view);
  const bool recorded = model.recorded.valid();
  mode_button("Compare", Mode::kCompare, view,
              recorded ? "A recording is one run, with the strategy it ran with: compare runs "
                         "the model (close the recording first)."
                       : nullptr);
  mode_button("Two Generals", Mode::kGenerals, view);
  mode_button("Lessons", Mode::kLessons, view);
  const std::string context = context_line(model, view, lesson_line);
  if (!context.empty()) {
    ImGui::TextUnformatted("|");
    ImGui::SameLine();
    ImGui::TextUnformatted(context.c_str());
    probe_last_item(("context: " + context).c_str());
  }
  if (!view.status.empty()) {
    ImGui::SameLine();
    text_colored(view.status_is_error ? palette::kBad : palette::kGood, "   " + view.status);
  }
  if (view.mode == Mode::kLessons) {
    // The lesson's own panel steps its run; the end stays hidden until the answer.
    ImGui::TextDisabled("Lessons: answer the question, then step through the run.");
    return;
  }
  if (view.mode == Mode::kGenerals) {
    ImGui::TextDisabled(
        "Two Generals: whoever sends the last courier can never know it "
        "arrived. A broker and its consumer are the same two generals.");
    return;
  }
  const bool compare = view.mode == Mode::kCompare;
  const SessionModel& driven = compare ? model.compare[0] : recorded ? model.recorded : model.main;
  const SessionModel* other = compare && model.compare[1].valid() ? &model.compare[1] : nullptr;
  if (driven.valid()) transport(driven, other, view, commands);
}

}  // namespace ui
