// `eosim lesson` as a learner meets it: the question before any outcome, the answer by
// number (from stdin or --answer), then the run, and an exit code that says whether the
// answer matched the run.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

using cli_runner::contains;
using cli_runner::quoted;

std::string dir() {
  return " --dir " + quoted(std::string(EOSIM_SOURCE_DIR) + "/scenarios/lessons");
}

}  // namespace

TEST_CASE("eosim lesson: lists the lessons, asks first, tells after", "[cli][lesson]") {
  auto out = cli_runner::run("lesson" + dir(), "2>&1");
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, " 1  Two Generals"));
  CHECK(contains(out.text, "10  "));
  // The list names each lesson's topic, never the claim its question asks about.
  CHECK(contains(out.text, " 3  The commit/ack window\n"));
  CHECK_FALSE(contains(out.text, "ack first and a crash loses the work"));
  CHECK_FALSE(contains(out.text, "the last message is never confirmed"));

  out = cli_runner::run("lesson 2 --answer 2" + dir(), "2>&1");
  CHECK(out.exit_code == 0);
  const std::size_t question = out.text.find("Question:");
  const std::size_t answered = out.text.find("You answered 2: right.");
  const std::size_t verdict = out.text.find("verdict: DUPLICATED");
  REQUIRE(question != std::string::npos);
  REQUIRE(answered != std::string::npos);
  REQUIRE(verdict != std::string::npos);
  CHECK(question < answered);
  CHECK(answered < verdict);
  CHECK(out.text.substr(0, answered).find("DUPLICATED") == std::string::npos);
  CHECK(contains(out.text, "Why:"));
  CHECK(contains(out.text, "AGAIN commit: debit"));  // the text diagram

  out = cli_runner::run("lesson 2 --answer 1" + dir(), "2>&1");
  CHECK(out.exit_code == 1);
  CHECK(contains(out.text, "The run shows answer 2."));
}

TEST_CASE("lesson 1's run shows order 3 delivered before it is redelivered", "[cli][lesson]") {
  // Lesson 1 (scenarios/lessons/01-two-generals.toml) runs scenario 04. The broker delivers
  // order 3 on the consumer's connection after the lost ack broke it and before the broker
  // noticed; that delivery was traced nowhere, so the trace showed only a "redelivered" one.
  const std::string file = std::string(EOSIM_SOURCE_DIR) + "/scenarios/04-ack-lost-on-the-wire.toml";
  const auto out = cli_runner::run("run " + quoted(file) + " --trace", "2>&1");
  REQUIRE(out.exit_code == 0);
  std::istringstream lines(out.text);
  std::string line;
  int n = 0, first = 0, again = 0;
  while (std::getline(lines, line)) {
    ++n;
    if (!contains(line, " broker ") || !contains(line, "deliver tag=") || !contains(line, "order-3")) {
      continue;
    }
    if (contains(line, "redelivered")) {
      if (again == 0) again = n;
    } else if (first == 0) {
      first = n;
      CHECK(contains(line, "lost -> consumer1"));  // on the broken connection
    }
  }
  REQUIRE(again > 0);
  CHECK(first > 0);
  CHECK(first < again);
}

TEST_CASE("eosim run on a lesson file says to run it with eosim lesson", "[cli][lesson]") {
  const std::string file = std::string(EOSIM_SOURCE_DIR) + "/scenarios/lessons/01-two-generals.toml";
  const auto out = cli_runner::run("run " + quoted(file), "2>&1");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "this is a lesson, not a scenario: eosim lesson " + file));
  CHECK_FALSE(contains(out.text, "unknown key"));
}

TEST_CASE("eosim lesson: answers from stdin, bad input exits 2", "[cli][lesson]") {
  const test_support::TempDir tmp("lesson-answers");
  const std::string input = tmp / "answers.txt";
  {
    std::ofstream answers(input);
    answers << "9\nx\n2\n";
  }
  auto out = cli_runner::run("lesson 4" + dir(), "< " + quoted(input) + " 2>&1");
  CHECK(out.exit_code == 0);  // 9 and x are asked again, 2 is right
  CHECK(contains(out.text, "You answered 2: right."));
  out = cli_runner::run("lesson 4" + dir(), "< /dev/null 2>&1");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "no answer given"));
  out = cli_runner::run("lesson 4 --answer 7" + dir(), "2>&1");
  CHECK(out.exit_code == 2);
  out = cli_runner::run("lesson 99" + dir(), "2>&1");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "no lesson 99"));
}

// The course's pictures come from the course site: `eosim course --html SITE --pictures
// DIR` draws each lesson run's diagram as its page does, and `eosim lesson --course
// --pictures DIR` only shows them.
TEST_CASE("docs/course/ holds the course site's pictures and docs/course.md shows them",
          "[cli][lesson]") {
  namespace fs = std::filesystem;
  const fs::path source(EOSIM_SOURCE_DIR);
  const test_support::TempDir tmp("course");
  const fs::path pictures = tmp.path / "course", site = tmp.path / "site";
  const auto slurp = [](const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  // Run from the source folder, so the page names files as scripts/course.sh does.
  const fs::path here = fs::current_path();
  fs::current_path(source);
  const auto missing = cli_runner::run(
      "lesson --course --dir scenarios/lessons --pictures " + quoted(pictures.string()), "2>&1");
  const auto drawn = cli_runner::run("course --html " + quoted(site.string()) + " --pictures " +
                                         quoted(pictures.string()) + " --dir scenarios/lessons",
                                     "2>&1");
  const auto out = cli_runner::run(
      "lesson --course --dir scenarios/lessons --pictures " + quoted(pictures.string()), "2>&1");
  fs::current_path(here);
  CHECK(missing.exit_code == 2);  // no pictures yet: an error that says who draws them
  CHECK(contains(missing.text, "eosim course --html SITE --pictures"));
  REQUIRE(drawn.exit_code == 0);
  REQUIRE(out.exit_code == 0);
  INFO("regenerate with: bash scripts/course.sh");
  CHECK(out.text == slurp(source / "docs/course.md"));
  std::size_t pictures_seen = 0;
  for (const auto& entry : fs::directory_iterator(pictures)) {
    const std::string name = entry.path().filename().string();
    INFO(name);
    const std::string made = slurp(entry.path());
    CHECK(made == slurp(source / "docs/course" / name));
    CHECK(contains(made, "<svg"));
    CHECK(contains(out.text, "(course/" + name + ")"));
    // The picture is the diagram of its lesson's page: a short run's one block is the
    // picture without the line breaks between its elements; a longer run's blocks hold
    // each of its texts (lane titles, labels) as the picture draws it.
    const std::string run = name.substr(6, name.size() - 6 - 4);  // "NN-runK.svg"
    const std::string page =
        slurp(site / ("lesson-" + name.substr(0, 2) + (run == "1" ? "" : "-run" + run) + ".html"));
    std::string compact;
    for (std::size_t i = 0; i < made.size(); ++i) {
      if (made[i] == '\n' && i > 0 && made[i - 1] == '>' && i + 1 < made.size() && made[i + 1] == '<') continue;
      compact += made[i];
    }
    if (!contains(page, compact)) {
      std::size_t texts = 0;
      for (std::size_t at = made.find("<text "); at != std::string::npos; at = made.find("<text ", at + 1)) {
        const std::string text = made.substr(at, made.find("</text>", at) + 7 - at);
        if (!contains(page, text)) FAIL_CHECK("the page lacks the picture's " << text);
        ++texts;
      }
      CHECK(texts > 10);
    }
    ++pictures_seen;
  }
  CHECK(pictures_seen >= 12);
  // Pictures that differ are not replaced without --force.
  std::ofstream(pictures / "01-run1.svg") << "mine";
  fs::current_path(source);
  const auto again = cli_runner::run("course --html " + quoted(site.string()) + " --pictures " +
                                         quoted(pictures.string()) + " --dir scenarios/lessons",
                                     "2>&1");
  fs::current_path(here);
  CHECK(again.exit_code == 2);
  CHECK(contains(again.text, "--force"));
  CHECK(slurp(pictures / "01-run1.svg") == "mine");
}

TEST_CASE("docs/course-site/ is what eosim course --html makes now, and no page is replaced "
          "without --force",
          "[cli][lesson][web]") {
  namespace fs = std::filesystem;
  const fs::path source(EOSIM_SOURCE_DIR);
  const test_support::TempDir tmp("course-site");
  const fs::path site = tmp.path / "site";
  // Run from the source folder, as scripts/course.sh does: the replay lines name files.
  const fs::path here = fs::current_path();
  fs::current_path(source);
  const auto out = cli_runner::run(
      "course --html " + quoted(site.string()) + " --dir scenarios/lessons", "2>&1");
  fs::current_path(here);
  REQUIRE(out.exit_code == 0);
  INFO("regenerate with: bash scripts/course.sh");
  std::size_t pages = 0;
  for (const auto& entry : fs::directory_iterator(site)) {
    INFO(entry.path().filename().string());
    std::ifstream made(entry.path(), std::ios::binary),
        kept(source / "docs/course-site" / entry.path().filename(), std::ios::binary);
    std::stringstream a, b;
    a << made.rdbuf();
    b << kept.rdbuf();
    CHECK(a.str() == b.str());
    ++pages;
  }
  CHECK(pages >= 13);  // the index and every lesson
  std::ofstream(site / "lesson-01.html") << "mine";
  fs::current_path(source);
  const auto again = cli_runner::run(
      "course --html " + quoted(site.string()) + " --dir scenarios/lessons", "2>&1");
  fs::current_path(here);
  CHECK(again.exit_code == 2);
  CHECK(contains(again.text, "--force"));
  std::ifstream mine(site / "lesson-01.html");
  std::stringstream kept;
  kept << mine.rdbuf();
  CHECK(kept.str() == "mine");
}

TEST_CASE("eosim lesson and list scenarios work from any folder, and replay lines name the "
          "program and the file as the user gave them",
          "[cli][lesson]") {
  namespace fs = std::filesystem;
  const test_support::TempDir tmp("elsewhere");
  const fs::path program(EOSIM_BINARY);
  const std::string here = "cd " + quoted(tmp.path.string()) + " && ";

  // No scenarios here: eosim finds its own beside the program (build/../scenarios).
  auto out = cli_runner::run("list scenarios", "2>&1", here);
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "scenario files in "));
  CHECK(contains(out.text, "02-crash-between-commit-and-ack.toml"));
  out = cli_runner::run("lesson", "2>&1", here);
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, " 1  Two Generals"));
  CHECK(contains(out.text, "12  "));

  // Invoked through a relative path, from the program's folder: the replay line says so,
  // and names the lesson's scenario as the lesson file's folder leads to it.
  const std::string from_build = "cd " + quoted(program.parent_path().string()) + " && ";
  out = cli_runner::run_shell(from_build + "./" + program.filename().string() +
                              " lesson 1 --answer 2 2>&1");
  CHECK(out.exit_code == 0);
  const std::string source = fs::path(EOSIM_SOURCE_DIR).lexically_normal().string();
  INFO(out.text);
  CHECK(contains(out.text, "replay: ./" + program.filename().string() + " run "));
  CHECK(contains(out.text, "/04-ack-lost-on-the-wire.toml --seed "));
  CHECK_FALSE(contains(out.text, "lessons/../"));

  // `eosim run` keeps the path the user typed, and names the program as invoked.
  const std::string file =
      fs::relative(fs::path(source) / "scenarios/01-happy-path.toml", program.parent_path())
          .string();
  out = cli_runner::run_shell(from_build + "./" + program.filename().string() + " run " +
                              quoted(file) + " --seed 3 2>&1");
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "replay: ./" + program.filename().string() + " run " + file +
                               " --seed 3"));

  // --dir chooses, relative to where eosim runs.
  fs::create_directories(tmp.path / "mine");
  fs::copy_file(fs::path(source) / "scenarios/01-happy-path.toml", tmp.path / "mine/a.toml");
  out = cli_runner::run("list scenarios --dir mine", "2>&1", here);
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "1 scenario file in mine:"));
}
