// The options of the course: `eosim lesson` and `eosim course --html`.

#include <iostream>

#include "src/cli/commands.h"
#include "src/cli/options.h"

namespace cli {

namespace {

constexpr const char* kLessonsDirHelp =
    "Where the lessons are (default: ./scenarios/lessons, else eosim's own beside the "
    "program or under PREFIX/share/eosim)";

constexpr const char* kLessonFooter =
    "Each lesson states a claim about exactly-once processing, tells what its run does\n"
    "(not how it ends) and asks a question. Answer by number; then eosim runs the\n"
    "scenario and shows the sequence diagram, the report with every order's outcome,\n"
    "and the explanation. Whether an answer is right is decided by the run itself.\n"
    "\n"
    "Examples:\n"
    "  eosim lesson\n"
    "  eosim lesson 2\n"
    "  eosim lesson 2 --answer 1\n"
    "  eosim lesson --course --pictures docs/course > docs/course.md   (scripts/course.sh,\n"
    "    after eosim course --html docs/course-site --pictures docs/course draws them)\n"
    "\n"
    "Exit codes: 0 right (or the list), 1 not what the run shows, 2 bad input, 3 internal "
    "error.";

constexpr const char* kCourseFooter =
    "Each lesson becomes a page that asks its question first and keeps the answer folded\n"
    "until an option is chosen; then it steps through the run (the page of `eosim run\n"
    "--format html`) and links the next lesson and the fixed design. Plain files: open\n"
    "DIR/index.html from disk or publish DIR on any static host.\n"
    "\n"
    "With --pictures DIR it also writes each lesson run's sequence diagram, the picture its\n"
    "page shows, to DIR/NN-runK.svg (docs/course/, which eosim lesson --course shows).\n"
    "\n"
    "Examples:\n"
    "  eosim course --html site/\n"
    "  eosim course --html docs/course-site --pictures docs/course   (scripts/course.sh)\n"
    "\n"
    "Exit codes: 0 written, 2 bad input, 3 internal error.";

CLI::App* lesson_options(CLI::App& app, LessonCommandOptions& o) {
  CLI::App* lesson = app.add_subcommand(
      "lesson", "The course: a question, your answer, then the run that settles it");
  lesson->add_option("lesson", o.lesson, "Lesson number (or file); none = list them")
      ->type_name("N");
  lesson->add_option("--dir", o.dir, kLessonsDirHelp)->type_name("DIR");
  add_optional(lesson, "--answer", o.answer, "Answer K without a prompt")->type_name("K");
  lesson->add_flag("--course", o.course, "Print every lesson as one Markdown page");
  lesson
      ->add_option("--pictures", o.pictures,
                   "--course: show each run's SVG diagram from DIR (eosim course --html "
                   "--pictures DIR draws them)")
      ->type_name("DIR");
  lesson->footer(kLessonFooter);
  return lesson;
}

CLI::App* course_options(CLI::App& app, CourseSiteOptions& o) {
  CLI::App* course = app.add_subcommand(
      "course", "The course as a static site: a page per lesson, question first");
  course->add_option("--html", o.html, "Write the site into DIR (index.html first)")
      ->required()
      ->type_name("DIR");
  course->add_option("--dir", o.lessons, kLessonsDirHelp)->type_name("DIR");
  course->add_option("--pictures", o.pictures, "Also write each run's diagram to DIR as SVG")
      ->type_name("DIR");
  course->add_flag("--force", o.force, "Replace pages (and pictures) in DIR that differ");
  course->footer(kCourseFooter);
  return course;
}

}  // namespace

Command add_lesson_command(CLI::App& app) {
  return make_command<LessonCommandOptions>(app, lesson_options, [](LessonCommandOptions& o) {
    o.colour = colour_wanted();
    return lesson_command(o, std::cin, std::cout, std::cerr);
  });
}

Command add_course_command(CLI::App& app) {
  return make_command<CourseSiteOptions>(app, course_options, [](CourseSiteOptions& o) {
    return course_site_command(o, std::cout, std::cerr);
  });
}

}  // namespace cli
