// The course as a static site (src/web/course_site.h): every lesson gets a page that asks
// its question before anything that gives the answer away, feedback for each option that
// agrees with the run, and links only to pages of the site.

#include "src/web/course_site.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "src/prose/printable.h"
#include "src/scenario/scenario.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

std::vector<lab::Lesson> all_lessons() {
  std::vector<std::string> files;
  REQUIRE_OK(lab::scenario_files_in(std::string(EOSIM_SOURCE_DIR) + "/scenarios/lessons", files));
  std::vector<lab::Lesson> lessons;
  for (const std::string& file : files)
    lessons.push_back(test_support::loaded(lab::load_lesson(file)));
  return lessons;
}

}  // namespace

TEST_CASE("web: the course site asks each question before its answer", "[web][course]") {
  const std::vector<lab::Lesson> lessons = all_lessons();
  std::vector<web::SitePage> pages;
  REQUIRE_OK(web::course_site(lessons, pages));
  REQUIRE(pages.front().name == "index.html");
  std::set<std::string> names;
  for (const web::SitePage& p : pages) names.insert(p.name);
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    const std::string name = std::string("lesson-") + (i + 1 < 10 ? "0" : "") + std::to_string(i + 1) + ".html";
    INFO(name);
    REQUIRE(names.count(name) == 1);
    const std::string& html =
        std::find_if(pages.begin(), pages.end(), [&](const web::SitePage& p) { return p.name == name; })->html;
    const std::size_t fold = html.find("<details id=\"answer\">");
    REQUIRE(fold != std::string::npos);
    CHECK(html.find("class=\"option\"") < fold);
    CHECK(html.find(lab::xml_escape(lessons[i].title)) > fold);        // the title names the claim
    CHECK(html.find(lab::xml_escape(lessons[i].explanation)) > fold);
    const std::size_t fixed = html.find("-fixed.html");
    CHECK((fixed == std::string::npos || fixed > fold));
    // Every link of the page is a page of the site.
    for (std::size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1)) {
      const std::string target = html.substr(at + 6, html.find('"', at + 6) - at - 6);
      if (target.rfind("#step-", 0) == 0) continue;
      CHECK(names.count(target) == 1);
    }
  }
}

TEST_CASE("web: an option's feedback says what the run shows", "[web][course]") {
  const std::vector<lab::Lesson> lessons = all_lessons();
  const lab::Lesson& lesson = lessons.at(1);  // lesson 2: no-dedup debits order 2 twice
  std::vector<lab::LessonRunResult> runs;
  REQUIRE_OK(lab::run_lesson(lesson, runs));
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    const bool right = static_cast<std::int64_t>(i + 1) == lesson.right;
    const std::string line = web::answer_feedback(lesson.answers[i], right, runs);
    INFO(line);
    CHECK(line.find(right ? "The run shows it: " : ", not ") != std::string::npos);
    CHECK(line.find('\n') == std::string::npos);
  }
}
