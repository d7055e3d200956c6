#include "ui/lessons_mode.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "src/scenario/scenario.h"
#include "ui/panels.h"
#include "ui/widgets.h"

namespace ui {

void LessonsMode::load(const std::string& dir) {
  lessons_.clear();
  std::vector<std::string> files;
  // An unreadable folder: no lessons to pick.
  if (!lab::scenario_files_in(dir, files).ok()) return;
  for (const std::string& path : files) {
    LessonEntry e;
    e.path = path;
    eosim::Result<lab::Lesson> lesson = lab::load_lesson(path);
    if (lesson.ok()) {
      e.lesson = std::move(lesson.value());
    } else {
      e.error = lesson.message();
    }
    lessons_.push_back(std::move(e));
  }
}

void LessonsMode::pick(int index, ViewState& view) {
  error_.clear();
  selected_ = -1;
  answer_ = 0;
  shown_.clear();
  hold_ = 0;
  if (index < 0 || index >= static_cast<int>(lessons_.size())) return;
  const LessonEntry& entry = lessons_[static_cast<std::size_t>(index)];
  if (!entry.error.empty()) {
    error_ = entry.error;
    return;
  }
  std::vector<lab::LessonRunResult> results;
  eosim::Status ready = lab::run_lesson(entry.lesson, results);
  if (ready.ok()) ready = session_.open(entry.lesson.runs.front().scenario);
  if (!ready.ok()) {
    error_ = std::move(ready.message);
    return;
  }
  shown_ = lab::answers_shown(entry.lesson, results);
  // The setup ends where the story's first fault strikes: the learner sees it happen,
  // not what follows.
  const auto& faults = results.front().summary.faults;
  hold_ = faults.empty() ? 0 : faults.front().step;
  selected_ = index;
  layout_ = diagram::SequenceLayout{};
  placement_ = diagram::Placement{};
  view.followed_step[Slot::kExplore] = UINT64_MAX;
  session_.seek(hold_);
}

eosim::Status LessonsMode::open(const std::string& number_or_path, ViewState& view) {
  namespace fs = std::filesystem;
  int index = -1;
  const bool number = !number_or_path.empty() &&
                      number_or_path.find_first_not_of("0123456789") == std::string::npos;
  if (number) {
    index = std::stoi(number_or_path.substr(0, 6)) - 1;
  } else {
    std::error_code ec;
    load(fs::path(number_or_path).parent_path().string());
    for (std::size_t i = 0; i < lessons_.size(); ++i) {
      if (fs::equivalent(lessons_[i].path, number_or_path, ec)) index = static_cast<int>(i);
    }
  }
  if (index < 0 || index >= static_cast<int>(lessons_.size())) {
    return eosim::Status::error("--lesson " + number_or_path + ": no such lesson (" +
                                std::to_string(lessons_.size()) + " lessons found; " +
                                "give a number from 1 or a lesson file)");
  }
  pick(index, view);
  if (!error_.empty()) return eosim::Status::error(error_);
  view.mode = Mode::kLessons;
  return eosim::Status::success();
}

void LessonsMode::update(ViewState& view) {
  std::vector<Cmd> queued;
  queued.swap(queued_);
  for (const Cmd& cmd : queued) {
    if (const auto* p = std::get_if<Pick>(&cmd)) {
      pick(p->index, view);
    } else if (const auto* a = std::get_if<Answer>(&cmd)) {
      if (selected_ >= 0) answer_ = a->number;
    } else if (const auto* s = std::get_if<Seek>(&cmd)) {
      if (selected_ >= 0) session_.seek(answered() ? s->step : std::min(s->step, hold_));
    }
  }
}

SessionModel LessonsMode::session_model() {
  SessionModel m;
  if (!session_.is_open()) return m;
  if (layout_.lanes().empty() || layout_.revision() != session_.revision()) {
    layout_.reset(lab::diagram_lanes(session_.scenario()));
  }
  layout_.update(session_.world().kernel().trace.events(), session_.revision());
  m.session = &session_;
  m.events = &session_.world().kernel().trace.events();
  m.target = session_.target();
  m.settled = session_.settled();
  m.view = &session_.view();
  // The whole run's end is only handed to panels once the learner has answered.
  m.end = answered() ? &session_.end() : nullptr;
  m.layout = &layout_;
  m.placement = &placement_;
  return m;
}

std::string LessonsMode::toolbar_line() const {
  if (selected_ < 0 || static_cast<std::size_t>(selected_) >= lessons_.size()) {
    return "no lesson open";
  }
  const LessonEntry& e = lessons_[static_cast<std::size_t>(selected_)];
  return "lesson " + std::to_string(selected_ + 1) + ": " +
         (e.error.empty() ? lab::lesson_topic(e.lesson) : e.path);
}

void LessonsMode::draw_list(float width, float height) {
  ImGui::BeginChild("lesson list", ImVec2(width, height), false);
  for (std::size_t i = 0; i < lessons_.size(); ++i) {
    const LessonEntry& e = lessons_[i];
    // The topic only: the rest of the title states the lesson's claim, the answer.
    const std::string label = std::to_string(i + 1) + ". " +
                              (e.error.empty() ? lab::lesson_topic(e.lesson)
                                               : e.path + " (does not load)");
    // A title wider than the list is cut with "..." and shown whole on hover.
    const std::string shown = fit_text(label, ImGui::GetContentRegionAvail().x);
    const std::string id = "##lesson" + std::to_string(i + 1);
    if (ImGui::Selectable((shown + id).c_str(), selected_ == static_cast<int>(i))) {
      queued_.push_back(Pick{static_cast<int>(i)});
    }
    if (shown != label && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
    probe_last_item(("lesson " + std::to_string(i + 1)).c_str());
  }
  ImGui::EndChild();
}

void LessonsMode::draw_question(float width) {
  const lab::Lesson& lesson = lessons_[static_cast<std::size_t>(selected_)].lesson;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  // The question first: the title and the claim say what the run will show, so they
  // come with the answer (draw_after_answer), as in `eosim lesson`.
  heading(("Lesson " + std::to_string(selected_ + 1)).c_str());
  ImGui::TextDisabled("What happens");
  ImGui::TextUnformatted(lesson.setup.c_str());
  ImGui::Separator();
  text_colored(palette::kWarn, lesson.question);
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    const auto number = static_cast<std::int64_t>(i + 1);
    const std::string label = std::to_string(number) + ") " + lesson.answers[i].text;
    if (!answered()) {
      if (button(("answer " + std::to_string(number)).c_str())) queued_.push_back(Answer{number});
      ImGui::SameLine();
      ImGui::TextUnformatted(label.c_str());
      continue;
    }
    const bool true_one = std::find(shown_.begin(), shown_.end(), number) != shown_.end();
    const ImU32 colour = true_one ? palette::kGood : (number == answer_ ? palette::kBad
                                                                        : palette::kMuted);
    text_colored(colour, (number == answer_ ? "> " : "  ") + label);
  }
  ImGui::PopTextWrapPos();
}

void LessonsMode::draw_transport() {
  const std::uint64_t limit = answered() ? session_.end().steps : hold_;
  const std::uint64_t now = session_.step();
  if (button_if(now > 0, "< Back##lesson")) queued_.push_back(Seek{now - 1});
  ImGui::SameLine();
  if (button_if(now < limit, "Step >##lesson")) queued_.push_back(Seek{now + 1});
  ImGui::SameLine();
  if (button_if(now < limit, answered() ? "To end##lesson" : "To the question##lesson")) {
    queued_.push_back(Seek{limit});
  }
  ImGui::SameLine();
  if (answered()) {
    ImGui::Text("step %llu of %llu", static_cast<unsigned long long>(now),
                static_cast<unsigned long long>(limit));
  } else {
    ImGui::TextDisabled("step %llu: answer to see what happens next",
                        static_cast<unsigned long long>(now));
  }
}

void LessonsMode::draw_after_answer(float width) {
  const lab::Lesson& lesson = lessons_[static_cast<std::size_t>(selected_)].lesson;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  const bool right = shown_.size() == 1 && shown_.front() == answer_;
  text_colored(right ? palette::kGood : palette::kBad,
               right ? "Right." : "Not what the run shows: see the green answer.");
  const auto picked = static_cast<std::size_t>(answer_ - 1);
  if (!right && picked < lesson.answers.size()) {
    text_wrapped_colored(palette::kWarn, lesson.answers[picked].feedback);
  }
  heading(lesson.title.c_str());
  ImGui::TextUnformatted(lesson.claim.c_str());
  ImGui::TextDisabled("Why");
  ImGui::TextUnformatted(lesson.explanation.c_str());
  ImGui::TextDisabled("Try next");
  ImGui::TextUnformatted(lesson.try_next.c_str());
  if (const std::string fixed = lab::fixed_replay(lesson); !fixed.empty()) {
    ImGui::TextUnformatted(("The corrected design beside this one: " + fixed).c_str());
  }
  ImGui::TextDisabled("Replay in a terminal");
  ImGui::TextUnformatted(lab::lesson_replay(lesson, 0).c_str());
  ImGui::PopTextWrapPos();
}

void LessonsMode::frame(float top, ViewState& view) {
  const ImVec2 d = ImGui::GetIO().DisplaySize;
  const float height = d.y - top;
  const float left = std::clamp(d.x * 0.3f, 320.0f, 520.0f);
  begin_panel("Lessons", ImVec2(0, top), ImVec2(left, height));
  draw_list(0, std::min(height * 0.3f, 24.0f * static_cast<float>(lessons_.size() + 1)));
  if (!error_.empty()) text_colored(palette::kBad, error_);
  if (selected_ >= 0) {
    ImGui::Separator();
    draw_question(ImGui::GetContentRegionAvail().x);
    if (answered()) {
      ImGui::Separator();
      draw_after_answer(ImGui::GetContentRegionAvail().x);
    }
  } else {
    ImGui::TextDisabled("Pick a lesson: each asks a question before it shows the run.");
  }
  end_panel();
  if (selected_ < 0) return;
  const SessionModel model = session_model();
  const float right = answered() ? std::clamp(d.x * 0.25f, 280.0f, 440.0f) : 0.0f;
  begin_panel("Lesson run", ImVec2(left, top), ImVec2(d.x - left - right, height));
  draw_transport();
  draw_sequence(model, view, Slot::kExplore);
  end_panel();
  if (!answered()) return;
  begin_panel("Verdict##lesson", ImVec2(d.x - right, top), ImVec2(right, height));
  draw_verdict(model, false);
  end_panel();
}

}  // namespace ui
