// `eosim lesson --course`: every lesson as one Markdown page (docs/course.md, written by
// scripts/course.sh), the question first and the answer, the run's picture and the
// explanation folded away. With --pictures DIR each run's sequence diagram is written to
// DIR as an SVG (the renderer `eosim run --format svg` uses) and the page shows it;
// without, the page carries the diagram as Mermaid.

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "src/cli/commands.h"
#include "src/files/input_file.h"
#include "src/files/output_file.h"
#include "src/diagram/svg.h"
#include "src/lesson/lesson.h"
#include "src/report/report_format.h"

namespace cli {
namespace {

namespace fs = std::filesystem;

std::string prose(const std::string& text) { return lab::wrap_text(text, 92, ""); }

std::string verdict_line(const lab::Report& r) {
  std::string line = "verdict **" + std::string(lab::verdict_name(r.verdict)) + "**";
  const std::pair<const char*, const std::vector<std::int64_t>*> lists[] = {
      {"lost", &r.lost},   {"duplicated", &r.duplicated}, {"phantom", &r.phantom},
      {"stuck", &r.stuck}, {"dead-lettered", &r.dead_lettered}};
  for (const auto& [name, list] : lists) {
    if (list->empty()) continue;
    line += ", " + std::string(name);
    for (std::size_t i = 0; i < list->size(); ++i) {
      line += (i == 0 ? " " : ", ") + std::to_string((*list)[i]);
    }
  }
  return line + "; balance " + std::to_string(r.balance_actual) + " (expected " +
         std::to_string(r.balance_expected) + ")";
}

// Writes `text` to `path` (src/files/output_file.h) unless the same picture is there
// already; a different one is replaced with --force only, and a lesson file never.
eosim::Status write_picture(const fs::path& path, const std::string& text, bool force,
                            const std::vector<std::string>& inputs) {
  if (!force && files::output_exists(path.string())) {
    std::string old;
    const files::InputLimit limit{"picture", std::int64_t{64} << 20, "eosim draws smaller ones"};
    if (files::read_input_file(path.string(), limit, old).ok() && old == text) {
      return eosim::Status::success();
    }
  }
  if (eosim::Status checked = files::check_output_file(path.string(), inputs, force); !checked.ok()) {
    return checked;
  }
  return files::write_output_file(path.string(), text, force);
}

struct Picture {
  std::string dir;  // "" = Mermaid in the page
  bool force = false;
  std::vector<std::string> inputs;  // the lesson files, never replaced
};

eosim::Status write_run(std::ostream& out, const lab::Lesson& lesson, std::size_t number,
                        std::size_t index, const lab::LessonRunResult& result,
                        const Picture& picture) {
  const lab::LessonRun& run = lesson.runs[index];
  const std::vector<std::string> unmet = lab::unmet_expectations(run.scenario, result.summary);
  const lab::RunRecord record{run.scenario, result.summary, unmet,
                              lab::lesson_replay(lesson, index)};
  out << "The run, `" << record.replay << "`: " << verdict_line(result.summary.report)
      << ".\n\n";
  if (picture.dir.empty()) {
    out << "```mermaid\n";
    lab::write_report_mermaid(out, record, result.trace);
    out << "```\n\n";
    return eosim::Status::success();
  }
  const std::string name = (number < 10 ? "0" : "") + std::to_string(number) + "-run" +
                           std::to_string(index + 1) + ".svg";
  diagram::SvgOptions options;
  options.title = lesson.title;
  const std::string svg =
      diagram::sequence_svg(result.trace, lab::diagram_lanes(run.scenario), options);
  if (eosim::Status written = write_picture(fs::path(picture.dir) / name, svg, picture.force,
                                               picture.inputs);
      !written.ok()) {
    return written;
  }
  out << "![the run of lesson " << number << "](" << fs::path(picture.dir).filename().string()
      << "/" << name << ")\n\n";
  return eosim::Status::success();
}

eosim::Status write_lesson(std::ostream& out, const lab::Lesson& lesson, std::size_t number,
                           const std::vector<lab::LessonRunResult>& results,
                           const Picture& picture) {
  out << "<a id=\"lesson-" << number << "\"></a>\n\n## " << number << ". " << lesson.title
      << "\n\n"
      << prose(lesson.claim) << "\n**What happens.** " << prose(lesson.setup) << "\n**"
      << lesson.question << "**\n\n";
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    out << i + 1 << ". " << lesson.answers[i].text << "\n";
  }
  const auto right = static_cast<std::size_t>(lesson.right);
  out << "\n<details><summary>The answer, the run and why</summary>\n\n**Answer " << right
      << ":** " << lesson.answers[right - 1].text << "\n\n"
      << prose(lesson.explanation) << "\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    if (eosim::Status written = write_run(out, lesson, number, i, results[i], picture);
        !written.ok()) {
      return written;
    }
  }
  out << "**Try next.** " << prose(lesson.try_next) << "\n</details>\n\n";
  return eosim::Status::success();
}

}  // namespace

int course_command(const LessonCommandOptions& options, const std::vector<std::string>& files,
                   std::ostream& out, std::ostream& err) {
  std::vector<lab::Lesson> lessons;
  for (const std::string& file : files) {
    eosim::Result<lab::Lesson> lesson = lab::load_lesson(file);
    if (!lesson.ok()) {
      err << lesson.message() << '\n';
      return kExitBadInput;
    }
    lessons.push_back(std::move(lesson.value()));
  }
  std::error_code ec;
  if (!options.pictures.empty()) fs::create_directories(options.pictures, ec);
  std::ostringstream page;
  page << "# The eosim course\n\n"
       << prose("Generated by `scripts/course.sh` from scenarios/lessons/; "
                "tests/scenarios/cli_lesson_test.cpp checks that it is current. Each lesson "
                "states a claim, tells what its run does and asks what will happen. Answer "
                "before you open the fold: it holds the answer the run shows, the run's "
                "sequence diagram and the explanation. `eosim lesson N` asks the same "
                "question in a terminal, and the GUI's Lessons mode steps through the run. "
                "The same course as web pages that step through each run: "
                "[docs/course-site/](course-site/index.html), made by `eosim course --html "
                "DIR` (docs/browser.md).")
       << "\n";
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    page << i + 1 << ". [" << lessons[i].title << "](#lesson-" << i + 1 << ")\n";
  }
  page << "\n";
  const Picture picture{options.pictures, options.force, files};
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    std::vector<lab::LessonRunResult> results;
    if (const eosim::Status ran = lab::run_lesson(lessons[i], results); !ran.ok()) {
      return report_failure(err, ran);
    }
    if (const eosim::Status written = write_lesson(page, lessons[i], i + 1, results, picture);
        !written.ok()) {
      err << "eosim: " << written.message << '\n';
      return kExitBadInput;
    }
  }
  out << page.str();
  return kExitOk;
}

}  // namespace cli
