// The course as a static site (see course_site.h).
#include "src/web/course_site.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include "src/prose/printable.h"
#include "src/report/report_format.h"
#include "src/web/run_page.h"

namespace web {

namespace {

using lab::xml_escape;

std::string two_digits(std::size_t n) { return (n < 10 ? "0" : "") + std::to_string(n); }
std::string lesson_page(std::size_t n) { return "lesson-" + two_digits(n) + ".html"; }

// What the runs show about one statement's order, verdict and redeliveries, each
// clause compared with what the statement says ("order 2 ends lost, not debited").
std::vector<std::string> clauses(const lab::LessonShows& shows,
                                 const std::vector<lab::LessonRunResult>& runs, bool holding) {
  const lab::RunSummary& run = runs.at(static_cast<std::size_t>(shows.run - 1)).summary;
  std::vector<std::string> out;
  const auto add = [&](bool holds, const std::string& is, const std::string& said) {
    if (holds == holding) out.push_back(holds ? is : is + ", not " + said);
  };
  if (shows.verdict) {
    add(*shows.verdict == run.report.verdict,
        "the run ends " + std::string(lab::verdict_name(run.report.verdict)),
        std::string(lab::verdict_name(*shows.verdict)));
  }
  if (shows.redelivered) {
    const bool redelivered = run.redeliveries > 0;
    add(*shows.redelivered == redelivered,
        redelivered ? "the broker redelivers" : "nothing is redelivered",
        redelivered ? "nothing redelivered" : "a redelivery");
  }
  if (!shows.order) return out;
  const auto& orders = run.report.orders;
  const auto it = std::find_if(orders.begin(), orders.end(),
                               [&](const lab::OrderOutcome& o) { return o.order == *shows.order; });
  const std::string order = "order " + std::to_string(*shows.order);
  if (shows.outcome) {
    const std::string is = it == orders.end() ? "has no outcome" : std::string(lab::outcome_name(it->outcome));
    add(it != orders.end() && it->outcome == *shows.outcome, order + " ends " + is,
        std::string(lab::outcome_name(*shows.outcome)));
  }
  if (shows.debits) {
    const std::int64_t debits = it == orders.end() ? 0 : it->debits;
    const auto rows = [](std::int64_t n) { return std::to_string(n) + (n == 1 ? " debit" : " debits"); };
    add(debits == *shows.debits, order + " has " + rows(debits), rows(*shows.debits));
  }
  return out;
}

std::string sentence(const std::vector<std::string>& parts, bool capital) {
  std::string text;
  for (std::size_t i = 0; i < parts.size(); ++i) text += (i == 0 ? "" : "; ") + parts[i];
  if (capital && !text.empty()) {
    text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  }
  return text + ".";
}

struct LessonRuns {
  std::vector<lab::LessonRunResult> results;
  std::vector<StepStates> steps;  // per run
};

eosim::Status run_all(const lab::Lesson& lesson, LessonRuns& out) {
  if (eosim::Status ran = lab::run_lesson(lesson, out.results); !ran.ok()) return ran;
  out.steps.resize(lesson.runs.size());
  for (std::size_t i = 0; i < lesson.runs.size(); ++i) {
    if (eosim::Status walked = walk_steps(lesson.runs[i].scenario, out.steps[i]); !walked.ok()) {
      return walked;
    }
    if (out.steps[i].steps != out.results[i].summary.steps) {
      return eosim::Status::error(lesson.path + ": the stepped run of run " + std::to_string(i + 1) +
                                  " differs from the run");
    }
  }
  return eosim::Status::success();
}

// A run's report and stepper (run_page.h) for a run of a lesson; with `picture`, also
// its diagram as the picture the page's blocks are cut from.
std::string run_part(const lab::Scenario& scenario, const lab::RunSummary& summary,
                     const StepStates& steps, const std::string& replay,
                     std::string* picture = nullptr) {
  const std::vector<std::string> unmet = lab::unmet_expectations(scenario, summary);
  const lab::RunRecord record{scenario, summary, unmet, replay};
  diagram::SvgOptions svg;
  svg.title = scenario.name;
  svg.width = kDiagramWidth;
  if (picture != nullptr) *picture = run_picture(record, steps, svg);
  return run_sections(record, steps, svg);
}

void write_question(std::ostream& out, const lab::Lesson& lesson, std::size_t n,
                    const std::vector<lab::LessonRunResult>& results) {
  out << "<section class=\"question\">\n<h1>Lesson " << n << "</h1>\n<p class=\"about\">"
      << xml_escape(lesson.setup) << "</p>\n<p class=\"ask\"><b>" << xml_escape(lesson.question)
      << "</b></p>\n<ol class=\"options\">\n";
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    const bool right = static_cast<std::int64_t>(i + 1) == lesson.right;
    out << "<li><button class=\"option\" data-right=\"" << (right ? 1 : 0) << "\" data-feedback=\""
        << xml_escape(answer_feedback(lesson.answers[i], right, results)) << "\">"
        << xml_escape(lesson.answers[i].text) << "</button></li>\n";
  }
  out << "</ol>\n<p id=\"feedback\" hidden></p>\n</section>\n";
}

// The course's links. Whether a lesson has a fixed design says its design is broken, so
// the lesson page links it only inside the answer (fixed_link).
std::string nav(std::size_t n, std::size_t count) {
  std::ostringstream out;
  out << "<nav class=\"course\"><a href=\"index.html\">The eosim course</a> &middot; lesson " << n
      << " of " << count;
  if (n < count) out << " &middot; <a href=\"" << lesson_page(n + 1) << "\">next lesson</a>";
  out << "</nav>\n";
  return out.str();
}

std::string fixed_link(std::size_t n) {
  return "<p class=\"fixed\"><a href=\"lesson-" + two_digits(n) +
         "-fixed.html\">Try the fixed design</a>: the same run, the design fixed, step by step.</p>\n";
}

// The first run's fixed twin on the same seed, as a page; "" when the run has no twin.
eosim::Status fixed_page(const lab::Lesson& lesson, std::size_t n, std::size_t count,
                         const lab::RunSummary& broken, std::string& page) {
  page.clear();
  const lab::Scenario& scenario = lesson.runs.front().scenario;
  if (scenario.fixed.empty()) return eosim::Status::success();
  eosim::Result<lab::Scenario> built = lab::fixed_twin(scenario);
  if (!built.ok()) return built.status();
  lab::Scenario& twin = built.value();
  twin.seed = broken.seed;
  lab::RunSummary run;
  if (eosim::Status ran = lab::run_scenario(twin, lab::WorldOptions{}, run, nullptr); !ran.ok()) return ran;
  StepStates steps;
  if (eosim::Status walked = walk_steps(twin, steps); !walked.ok()) return walked;
  page = page_head("Lesson " + std::to_string(n) + ", the fixed design - eosim course") +
         nav(n, count) + "<p class=\"about\">The same run with the design fixed (" +
         xml_escape(twin.path) + ", seed " + std::to_string(twin.seed) + "). <a href=\"" +
         lesson_page(n) + "\">Back to the lesson</a>.</p>\n" +
         run_part(twin, run, steps, lab::replay_command(twin.path, twin.seed, "", "")) + page_tail();
  return eosim::Status::success();
}

eosim::Status lesson_pages(const lab::Lesson& lesson, std::size_t n, std::size_t count,
                           std::vector<SitePage>& out, std::vector<SitePage>& pictures) {
  pictures.resize(pictures.size() + lesson.runs.size());
  SitePage* picture = &pictures[pictures.size() - lesson.runs.size()];
  for (std::size_t i = 0; i < lesson.runs.size(); ++i) picture[i].name = picture_name(n, i + 1);
  LessonRuns runs;
  if (eosim::Status ran = run_all(lesson, runs); !ran.ok()) return ran;
  std::string fixed;
  if (eosim::Status made = fixed_page(lesson, n, count, runs.results.front().summary, fixed);
      !made.ok()) {
    return made;
  }
  std::ostringstream page;
  page << page_head("Lesson " + std::to_string(n) + " - eosim course") << nav(n, count);
  write_question(page, lesson, n, runs.results);
  const auto right = static_cast<std::size_t>(lesson.right);
  page << "<details id=\"answer\"><summary>The answer, the run and why</summary>\n<h2>"
       << xml_escape(lesson.title) << "</h2>\n<p class=\"about\">" << xml_escape(lesson.claim)
       << "</p>\n<p><b>Answer " << right << ":</b> " << xml_escape(lesson.answers[right - 1].text)
       << "</p>\n<p class=\"about\">" << xml_escape(lesson.explanation) << "</p>\n<p class=\"about\">"
       << "<b>Try next.</b> " << xml_escape(lesson.try_next) << "</p>\n"
       << (fixed.empty() ? "" : fixed_link(n));
  for (std::size_t i = 1; i < lesson.runs.size(); ++i) {
    page << "<p>Run " << i + 1 << " of this lesson: <a href=\"lesson-" << two_digits(n) << "-run"
         << i + 1 << ".html\">its page</a></p>\n";
  }
  page << run_part(lesson.runs[0].scenario, runs.results[0].summary, runs.steps[0],
                   lab::lesson_replay(lesson, 0), &picture[0].html)
       << "</details>\n" << nav(n, count) << page_tail();
  out.push_back({lesson_page(n), page.str()});
  for (std::size_t i = 1; i < lesson.runs.size(); ++i) {
    out.push_back({"lesson-" + two_digits(n) + "-run" + std::to_string(i + 1) + ".html",
                   page_head("Lesson " + std::to_string(n) + ", run " + std::to_string(i + 1) +
                             " - eosim course") +
                       nav(n, count) +
                       run_part(lesson.runs[i].scenario, runs.results[i].summary, runs.steps[i],
                                lab::lesson_replay(lesson, i), &picture[i].html) +
                       page_tail()});
  }
  if (!fixed.empty()) out.push_back({"lesson-" + two_digits(n) + "-fixed.html", fixed});
  return eosim::Status::success();
}

std::string index_page(const std::vector<lab::Lesson>& lessons) {
  std::ostringstream out;
  out << page_head("The eosim course") << "<header><h1>The eosim course</h1>\n<p class=\"about\">"
      << "Each lesson describes a run and asks what will happen. Choose an answer first: "
         "then the page shows what the run did, step by step, and why.</p></header>\n<ol class=\"lessons\">\n";
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    out << "<li><a href=\"" << lesson_page(i + 1) << "\">Lesson " << i + 1 << "</a>: "
        << xml_escape(lessons[i].question) << "</li>\n";
  }
  out << "</ol>\n" << page_tail();
  return out.str();
}

}  // namespace

std::string answer_feedback(const lab::LessonAnswer& a, bool right,
                            const std::vector<lab::LessonRunResult>& runs) {
  const std::vector<std::string> parts = clauses(a.shows, runs, right);
  if (right) return "The run shows it: " + sentence(parts, false);
  return parts.empty() ? "The run shows otherwise." : sentence(parts, true);
}

std::string picture_name(std::size_t lesson, std::size_t run) {
  return two_digits(lesson) + "-run" + std::to_string(run) + ".svg";
}

eosim::Status course_site(const std::vector<lab::Lesson>& lessons, std::vector<SitePage>& out,
                          std::vector<SitePage>* pictures) {
  out.clear();
  out.push_back({"index.html", index_page(lessons)});
  std::vector<SitePage> drawn;
  for (std::size_t i = 0; i < lessons.size(); ++i) {
    if (eosim::Status made = lesson_pages(lessons[i], i + 1, lessons.size(), out, drawn);
        !made.ok()) {
      return made;
    }
  }
  if (pictures != nullptr) *pictures = std::move(drawn);
  return eosim::Status::success();
}

}  // namespace web
