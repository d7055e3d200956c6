#include "src/lesson/lesson.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "src/catalog/catalog.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

const std::string kLessons = std::string(EOSIM_SOURCE_DIR) + "/scenarios/lessons";

std::vector<std::string> lesson_files() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kLessons)) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Parses a lesson as if it were a file in scenarios/lessons (its runs resolve there).
eosim::Result<lab::Lesson> parse(const std::string& text) {
  return lab::parse_lesson(text, kLessons + "/test.toml");
}

// The parts of the error for a lesson `text` that must not load.
lab::LoadError parse_bad(const std::string& text) {
  return test_support::error_parts(test_support::refused(parse(text)), kLessons + "/test.toml");
}

const std::string kGood = R"(title = "t"
claim = "c"
setup = "s"
question = "q"
right = 2
explanation = "e"
try_next = "n"

[[runs]]
scenario = "../02-crash-between-commit-and-ack.toml"
strategy = "no-dedup"

[[answers]]
text = "once"
shows = { order = 2, debits = 1 }
feedback = "f"

[[answers]]
text = "twice"
shows = { order = 2, debits = 2 }
)";

}  // namespace

TEST_CASE("lessons: every lesson's right answer is the one its run shows", "[lesson]") {
  const std::vector<std::string> files = lesson_files();
  REQUIRE(files.size() >= 10);
  std::set<std::string> scenarios;
  for (const std::string& file : files) {
    INFO(file);
    const lab::Lesson lesson = test_support::loaded(lab::load_lesson(file));
    std::vector<lab::LessonRunResult> runs;
    REQUIRE_OK(lab::run_lesson(lesson, runs));
    // The statements are checked against the runs: exactly one holds, and it is the one
    // the lesson calls right. Every other answer is shown false by the same runs.
    CHECK(lab::answers_shown(lesson, runs) == std::vector<std::int64_t>{lesson.right});
    for (const auto& run : lesson.runs) scenarios.insert(run.scenario.name);
  }
  CHECK(scenarios.size() >= 10);  // the course runs many different stories
}

TEST_CASE("lessons: a statement about a run can be false", "[lesson]") {
  const lab::Lesson lesson = test_support::loaded(parse(kGood));
  std::vector<lab::LessonRunResult> runs;
  REQUIRE_OK(lab::run_lesson(lesson, runs));
  CHECK(lab::answers_shown(lesson, runs) == std::vector<std::int64_t>{2});
  lab::LessonShows shows;
  shows.verdict = lab::Verdict::kExactlyOnce;
  CHECK_FALSE(lab::shows_holds(shows, runs));
  shows.verdict = lab::Verdict::kDuplicated;
  CHECK(lab::shows_holds(shows, runs));
  shows.redelivered = false;
  CHECK_FALSE(lab::shows_holds(shows, runs));
  CHECK(lab::lesson_replay(lesson, 0).find("--strategy no-dedup") != std::string::npos);
}

TEST_CASE("lessons: the loader is strict and names file, line and key", "[lesson]") {
  struct Case {
    std::string from, to, key;
    std::int64_t line;
  };
  const Case cases[] = {
      {"title = \"t\"\n", "title = \"t\"\ncolour = 1\n", "colour", 2},
      {"right = 2", "right = 3", "right", 5},
      {"strategy = \"no-dedup\"", "strategy = \"no-dedupe\"", "runs[1].strategy", 11},
      {"../02-crash", "../99-crash", "runs[1].scenario", 10},
      {"{ order = 2, debits = 2 }", "{ order = 4, debits = 2 }", "answers[2].shows.order", 20},
      {"{ order = 2, debits = 1 }", "{ debits = 1 }", "answers[1].shows.order", 15},
      {"{ order = 2, debits = 1 }", "{ run = 2, order = 2 }", "answers[1].shows.run", 15},
      {"{ order = 2, debits = 1 }", "{ outcome = \"gone\", order = 1 }",
       "answers[1].shows.outcome", 15},
      {"question = \"q\"\n", "", "question", 0},
      // A wrong answer without its line of feedback.
      {"feedback = \"f\"\n", "", "answers[1].feedback", 13},
  };
  for (const Case& c : cases) {
    std::string text = kGood;
    const std::size_t at = text.find(c.from);
    REQUIRE(at != std::string::npos);
    text.replace(at, c.from.size(), c.to);
    INFO(text);
    const lab::LoadError error = parse_bad(text);
    CHECK(error.key == c.key);
    CHECK(error.line == c.line);
    CHECK(error.file == kLessons + "/test.toml");
  }
  // A bad --fault spec in a run names the run's key.
  std::string text = kGood;
  text.replace(text.find("strategy = \"no-dedup\""), 21,
               "faults = [\"consumer.after_commit:order=9\"]");
  const lab::LoadError error = parse_bad(text);
  CHECK(error.key == "runs[1].faults");
  CHECK(error.message.find("order") != std::string::npos);
}

TEST_CASE("lessons: the question screen gives away neither the claim nor the outcome",
          "[lesson]") {
  std::size_t number = 0;
  for (const std::string& file : lesson_files()) {
    ++number;
    const lab::Lesson lesson = test_support::loaded(lab::load_lesson(file));
    INFO(file);
    const std::string screen = lab::question_text(lesson, number, 88);
    CHECK(screen.find(lesson.question.substr(0, 20)) != std::string::npos);
    // The title states the claim; the claim, the explanation and the run's verdict state
    // the outcome: none of them before the answer.
    CHECK(screen.find(lesson.title) == std::string::npos);
    const std::string claim_words = lesson.claim.substr(0, lesson.claim.find_first_of(".:\n"));
    CHECK(screen.find(claim_words) == std::string::npos);
    const std::string why = lesson.explanation.substr(0, lesson.explanation.find_first_of(".\n"));
    CHECK(screen.find(why) == std::string::npos);
    std::vector<lab::LessonRunResult> runs;
    REQUIRE_OK(lab::run_lesson(lesson, runs));
    // Outside the answers, no verdict word of the run.
    std::string before_answers = screen.substr(0, screen.find("  1) "));
    for (char& c : before_answers) c = static_cast<char>(std::tolower(c));
    const std::string verdict(lab::verdict_name(runs.front().summary.report.verdict));
    if (verdict != "lost") CHECK(before_answers.find(verdict) == std::string::npos);
    // Each wrong answer has its line of feedback, shown after the answer with the title.
    for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
      const auto answer = static_cast<std::int64_t>(i + 1);
      if (answer == lesson.right) continue;
      const std::string after =
          lab::answer_text(lesson, lab::answers_shown(lesson, runs), answer, 88);
      CHECK(after.find("not what the run shows") != std::string::npos);
      CHECK(after.find(lesson.title) != std::string::npos);
      CHECK(after.find(lesson.answers[i].feedback.substr(0, 30)) != std::string::npos);
    }
  }
  CHECK(number == 13);
}
