#pragma once
// The GUI's Lessons mode: pick a lesson, read its claim and question, answer, then step
// through the run with the explanation beside it.
//
// What the learner sees before answering is only the setup: the sequence diagram up to
// the step where the run's first scripted fault fires (step 0 when it has none), with no
// verdict, no tables, no broker state and no end of run. Answering unlocks the whole run
// and the verdict. Whether the answer was right comes from the run (lab::answers_shown).
//
// Like the panels, the mode draws from its state and queues what a click asks for; the
// app calls update() after the frame, which applies the queue. It owns its own session
// and diagram, so it leaves the Explore mode's run alone.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "src/diagram/placement.h"
#include "src/diagram/sequence.h"
#include "src/lesson/lesson.h"
#include "src/session/session.h"
#include "ui/model.h"
#include "ui/view_state.h"

namespace ui {

struct LessonEntry {
  std::string path;
  lab::Lesson lesson;  // valid when error is empty
  std::string error;
};

class LessonsMode {
 public:
  // Reads every lesson in `dir` (errors are listed, not fatal).
  void load(const std::string& dir);
  // Draws the mode into the area below the toolbar.
  void frame(float top, ViewState& view);
  // Applies what the last frame's clicks asked for.
  void update(ViewState& view);
  // Opens lesson `number` (1-based) of the folder, or the lesson file `path` (as
  // `eosim-gui --lesson N|FILE`): at its question, not yet answered.
  eosim::Status open(const std::string& number_or_path, ViewState& view);

  const std::vector<LessonEntry>& lessons() const { return lessons_; }
  int selected() const { return selected_; }
  std::int64_t answer() const { return answer_; }  // 0 = not answered yet
  bool answered() const { return answer_ != 0; }
  // The answers the run shows to be true (for a good lesson exactly one).
  const std::vector<std::int64_t>& shown() const { return shown_; }
  // How far the learner may step before answering.
  std::uint64_t hold_step() const { return hold_; }
  const lab::Session& session() const { return session_; }
  // What the toolbar names in this mode: "lesson 2: At-least-once" (the topic only, as
  // the list shows it), or "no lesson open".
  std::string toolbar_line() const;
  const std::string& error() const { return error_; }

 private:
  struct Pick { int index; };
  struct Answer { std::int64_t number; };
  struct Seek { std::uint64_t step; };
  using Cmd = std::variant<Pick, Answer, Seek>;

  void pick(int index, ViewState& view);
  SessionModel session_model();
  void draw_list(float width, float height);
  void draw_question(float width);
  void draw_transport();
  void draw_after_answer(float width);

  std::vector<LessonEntry> lessons_;
  int selected_ = -1;
  std::int64_t answer_ = 0;
  std::vector<std::int64_t> shown_;
  std::uint64_t hold_ = 0;
  lab::Session session_;
  diagram::SequenceLayout layout_;
  diagram::Placement placement_;
  std::vector<Cmd> queued_;
  std::string error_;
};

}  // namespace ui
