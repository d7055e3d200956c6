// `eosim lesson` as a learner meets it: the question before any outcome, the answer by
// number (from stdin or --answer), then the run, and an exit code that says whether the
// answer matched the run.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli_runner.h"

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

TEST_CASE("eosim lesson: answers from stdin, bad input exits 2", "[cli][lesson]") {
  const std::string input =
      (std::filesystem::temp_directory_path() / "eosim-lesson-answers.txt").string();
  {
    std::ofstream answers(input);
    answers << "9\nx\n2\n";
  }
  auto out = cli_runner::run("lesson 4" + dir(), "< " + quoted(input) + " 2>&1");
  std::filesystem::remove(input);
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
