// `eosim lesson`: list the lessons, or play one in the terminal. The question comes first,
// with nothing of the run's outcome; the run's report, its diagram and the explanation
// only after an answer. Whether the answer is right comes from the run itself
// (lab::answers_shown), not from the lesson file's key.

#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/files.h"
#include "src/diagram/sequence.h"
#include "src/diagram/text.h"
#include "src/lesson/lesson.h"
#include "src/report/report_format.h"

namespace cli {
namespace {

bool all_digits(const std::string& text) {
  return !text.empty() && text.size() < 6 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int list_lessons(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
  int code = kExitOk;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const eosim::Result<lab::Lesson> lesson = lab::load_lesson(files[i]);
    if (!lesson.ok()) {
      err << lesson.message() << '\n';
      code = kExitBadInput;
      continue;
    }
    // The topic only: the rest of a title is the lesson's claim, the answer to its question.
    out << (i + 1 < 10 ? " " : "") << i + 1 << "  " << lab::lesson_topic(lesson.value()) << '\n';
  }
  out << "\nRun one with `eosim lesson N` (add --answer K to answer without a prompt).\n";
  return code;
}

// The learner's answer: --answer, or a number read from `in`. 0 when none was given.
std::int64_t read_answer(const LessonCommandOptions& options, std::size_t count,
                         std::istream& in, std::ostream& out) {
  if (options.answer) return *options.answer;
  std::string line;
  while (true) {
    out << "Your answer (1-" << count << "): " << std::flush;
    if (!std::getline(in, line)) return 0;
    if (all_digits(line) && std::stoi(line) >= 1 && static_cast<std::size_t>(std::stoi(line)) <= count) {
      return std::stoi(line);
    }
  }
}

// The text diagram's width: 100 columns, or the terminal's when $COLUMNS says it is
// narrower (but never under 60: below that the lanes cannot be told apart).
std::size_t diagram_width() {
  std::size_t width = 100;
  if (const char* columns = std::getenv("COLUMNS"); columns != nullptr && all_digits(columns)) {
    width = std::clamp<std::size_t>(std::stoul(columns), 60, 100);
  }
  return width;
}

void print_runs(const lab::Lesson& lesson, const std::vector<lab::LessonRunResult>& results,
                const LessonCommandOptions& options, std::ostream& out) {
  for (std::size_t i = 0; i < results.size(); ++i) {
    const lab::LessonRun& run = lesson.runs[i];
    const std::vector<std::string> unmet = lab::unmet_expectations(run.scenario, results[i].summary);
    const lab::RunRecord record{run.scenario, results[i].summary, unmet,
                                as_invoked(lab::lesson_replay(lesson, i))};
    out << "\n" << std::string(kWidth, '-') << "\nThe run" << (results.size() > 1 ? " " + std::to_string(i + 1) : "")
        << ":\n\n";
    diagram::SequenceLayout layout;
    layout.reset(lab::diagram_lanes(run.scenario));
    layout.update(results[i].trace, 1);
    diagram::TextDiagramOptions text;
    text.max_width = diagram_width();
    out << diagram::format_text_diagram(layout, text) << '\n';
    std::string report = lab::format_report_text(record, lab::TextStyle{options.colour, kWidth});
    out << report;
  }
}

}  // namespace

int lesson_command(const LessonCommandOptions& options, std::istream& in, std::ostream& out,
                   std::ostream& err) {
  std::vector<std::string> files;
  std::string dir;
  if (const eosim::Status listed = data_files(options.dir, "lessons", dir, files); !listed.ok()) {
    err << "eosim: " << listed.message << '\n';
    return kExitBadInput;
  }
  if (options.course) return course_command(options, files, out, err);
  if (options.lesson.empty()) return list_lessons(files, out, err);
  std::string file = options.lesson;
  std::size_t number = 0;
  if (all_digits(options.lesson)) {
    number = static_cast<std::size_t>(std::stoul(options.lesson));
    if (number < 1 || number > files.size()) {
      err << "eosim: no lesson " << options.lesson << " in " << dir << " (1-"
          << files.size() << "; `eosim lesson` lists them)\n";
      return kExitBadInput;
    }
    file = files[number - 1];
  }
  eosim::Result<lab::Lesson> loaded = lab::load_lesson(file);
  if (!loaded.ok()) {
    err << loaded.message() << '\n';
    return kExitBadInput;
  }
  const lab::Lesson& lesson = loaded.value();
  if (options.answer && (*options.answer < 1 ||
                         *options.answer > static_cast<std::int64_t>(lesson.answers.size()))) {
    err << "eosim: --answer must be 1-" << lesson.answers.size() << '\n';
    return kExitBadInput;
  }
  std::vector<lab::LessonRunResult> results;
  if (const eosim::Status ran = lab::run_lesson(lesson, results); !ran.ok()) {
    return report_failure(err, ran);
  }
  // The question first: the title and the claim say what the run shows, so they follow
  // the answer (lab::question_text).
  out << lab::question_text(lesson, number, kWidth);
  const std::int64_t answer = read_answer(options, lesson.answers.size(), in, out);
  if (answer == 0) {
    err << "\neosim: no answer given\n";
    return kExitBadInput;
  }
  const std::vector<std::int64_t> shown = lab::answers_shown(lesson, results);
  const bool right = shown.size() == 1 && shown.front() == answer;
  out << '\n' << lab::answer_text(lesson, shown, answer, kWidth);
  print_runs(lesson, results, options, out);
  out << "\nWhy:\n" << lab::wrap_text(lesson.explanation, kWidth, "  ") << "\nTry next:\n"
      << lab::wrap_text(lesson.try_next, kWidth, "  ");
  if (const std::string fixed = lab::fixed_replay(lesson); !fixed.empty()) {
    out << "  The corrected design beside this one:\n    " << as_invoked(fixed) << '\n';
  }
  return right ? kExitOk : kExitExpectFailed;
}

}  // namespace cli
