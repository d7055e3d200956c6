#pragma once
// A lesson: one claim about exactly-once processing, a run (or a few) that tests it, and a
// question the learner answers before seeing the run. Lessons live in
// scenarios/lessons/, one strict TOML file each (format: docs/course.md, "Writing a
// lesson"); `eosim lesson` and the GUI's Lessons mode play them.
//
// What makes an answer right is not the lesson's say-so: every answer carries `shows`, a
// statement about the runs (a verdict, an order's outcome or debit count, whether anything
// was redelivered), and answers_shown() checks each statement against the actual runs.
// The lesson's `right` must be the one answer whose statement holds; the tests check
// that for every lesson.
//
// Invariants of a Lesson filled by load_lesson:
//  (1) 1..4 runs, each with a loaded Scenario (its file resolved against the lesson's
//      folder, overrides and --fault rules applied and checked); 2..4 answers;
//      1 <= right <= answers.size().
//  (2) Every `shows` says something (at least one of verdict, outcome, debits,
//      redelivered); `outcome` and `debits` come with an `order` in 1..orders of its run;
//      `run` is in 1..runs.size(); names (verdict, outcome) are the checker's.
// REQUIRES: run_lesson gets a Lesson from load_lesson.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"

namespace lab {

// A statement about a lesson's runs; every field given must hold.
struct LessonShows {
  std::int64_t run = 1;  // 1-based index into Lesson::runs
  std::optional<Verdict> verdict;
  std::optional<std::int64_t> order;
  std::optional<Outcome> outcome;  // the checker's outcome of `order`
  std::optional<std::int64_t> debits;  // rows in `debits` for `order`
  std::optional<bool> redelivered;     // the run redelivered at least one message
};

struct LessonAnswer {
  std::string text;
  LessonShows shows;
  // One line for a learner who picked this answer and was wrong: what they missed.
  // Required for every answer but the right one.
  std::string feedback;
};

struct LessonRun {
  std::string file;      // as written in the lesson (relative to the lesson's folder)
  std::string strategy;  // overrides as `eosim run` takes them ("" = the file's)
  std::string producer;
  std::vector<std::string> faults;  // --fault specs replacing the file's script
  // `max_steps` (optional) lowers the file's step bound so a looping run stays small
  // enough to draw; lesson_replay() cannot carry it (eosim run has no such option).
  Scenario scenario;     // loaded, with the overrides applied
};

struct Lesson {
  std::string path;
  std::string title;
  std::string claim;
  std::string setup;     // what the run does, told without its outcome
  std::string question;
  std::vector<LessonAnswer> answers;
  std::int64_t right = 1;  // 1-based
  std::string explanation;
  std::string try_next;
  std::vector<LessonRun> runs;
};

// Strict: an unknown key, a wrong type, a bad value names the file, line and key.
// The error's one line is LoadError::to_string, as for a scenario.
eosim::Result<Lesson> load_lesson(const std::string& path);
eosim::Result<Lesson> parse_lesson(std::string_view toml_text, const std::string& path);

struct LessonRunResult {
  RunSummary summary;
  std::vector<sim::TraceEvent> trace;
};

// Runs every run of the lesson (traces kept). An error when a world could not be built.
eosim::Status run_lesson(const Lesson& lesson, std::vector<LessonRunResult>& out);

// Whether a statement holds of the runs.
bool shows_holds(const LessonShows& shows, const std::vector<LessonRunResult>& runs);
// The 1-based numbers of the answers whose statement holds (for a good lesson: {right}).
std::vector<std::int64_t> answers_shown(const Lesson& lesson,
                                        const std::vector<LessonRunResult>& runs);
// `eosim run ...` that replays run `index` (0-based) of the lesson.
std::string lesson_replay(const Lesson& lesson, std::size_t index);

// `eosim run FILE --fixed` for the lesson's first run when its scenario has a corrected
// twin (`fixed`), else "".
std::string fixed_replay(const Lesson& lesson);

// The lesson's topic for a list to choose from: its title's words before the colon. The
// rest of a title states the lesson's claim, which is the answer to its question.
std::string lesson_topic(const Lesson& lesson);

// The screen a learner answers from, `width` columns wide: the lesson's number, what
// happens (its setup), the question and the answers. Never the title, the claim or the
// explanation: each of those states what the run will show, so they come after the answer
// (answer_text).
std::string question_text(const Lesson& lesson, std::size_t number, int width);
// After answer `answer` (1-based): right or not, and the feedback line of a wrong one;
// then the lesson's title and claim.
std::string answer_text(const Lesson& lesson, const std::vector<std::int64_t>& shown,
                        std::int64_t answer, int width);

}  // namespace lab
