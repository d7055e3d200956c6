// Lessons: strict loading (through the scenario loader's TableReader, so a lesson's errors
// read like a scenario's), running, and checking answers against the runs.

#include "src/lesson/lesson.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>

#include "src/catalog/catalog.h"
#include "src/prose/wrap.h"
#include "src/report/report_format.h"
#include "src/scenario/toml_reader.h"
#include "src/world/overrides.h"

namespace lab {
namespace {

using toml_io::TableReader;

constexpr std::size_t kMaxRuns = 4;
constexpr std::size_t kMinAnswers = 2;
constexpr std::size_t kMaxAnswers = 4;

// The checker's outcomes of an order (checker.h), for `shows.outcome`.
const std::vector<CatalogEntry>& order_outcomes() {
  static const std::vector<CatalogEntry> list = {
      {"debited", ""}, {"rejected", ""}, {"dead-lettered", ""}, {"duplicated", ""},
      {"lost", ""},    {"stuck", ""},    {"phantom", ""},
  };
  return list;
}

bool read_run(const TableReader& t, const std::string& folder, LessonRun& run) {
  if (!t.only_keys({"scenario", "strategy", "producer", "seed", "max_steps", "faults"}) ||
      !t.require("scenario") || !t.read_string("scenario", run.file, false) ||
      !t.read_name("strategy", run.strategy, strategies(), "strategy") ||
      !t.read_name("producer", run.producer, producers(), "producer pattern") ||
      !t.read_string_list("faults", run.faults)) {
    return false;
  }
  const std::string path =
      (std::filesystem::path(folder) / run.file).lexically_normal().string();
  eosim::Result<Scenario> scenario = load_scenario(path);
  if (!scenario.ok()) return t.fail_at("scenario", "cannot load it: " + scenario.message());
  run.scenario = std::move(scenario.value());
  std::optional<std::int64_t> seed;
  if (!t.read_int("seed", seed, 0, toml_io::kIntMax)) return false;
  // A shorter step bound keeps a looping run (a poison message) small enough to draw.
  if (!t.read_int("max_steps", run.scenario.max_steps, 1, run.scenario.max_steps)) return false;
  ScenarioOverrides overrides{.strategy = run.strategy, .producer = run.producer};
  if (seed) overrides.seed = static_cast<std::uint64_t>(*seed);
  // A `faults` list replaces the file's script; an empty one clears it (`--fault none`).
  if (t.has("faults")) {
    overrides.fault_rules = run.faults.empty() ? std::vector<std::string>{"none"} : run.faults;
  }
  // The names were read against the catalog above; only a fault rule can be refused.
  eosim::Result<Scenario> applied = apply_overrides(std::move(run.scenario), overrides);
  if (!applied.ok()) return t.fail_at("faults", applied.message());
  run.scenario = std::move(applied.value());
  return true;
}

bool read_shows(const TableReader& t, const std::string& prefix, const Lesson& lesson,
                LessonShows& shows) {
  if (!t.only_keys({"run", "verdict", "order", "outcome", "debits", "redelivered"}) ||
      !t.read_int("run", shows.run, 1, static_cast<std::int64_t>(lesson.runs.size()))) {
    return false;
  }
  const Scenario& s = lesson.runs[static_cast<std::size_t>(shows.run - 1)].scenario;
  std::string verdict, outcome;
  bool redelivered = false;
  if (!t.read_name("verdict", verdict, verdicts(), "verdict") ||
      !t.read_name("outcome", outcome, order_outcomes(), "order outcome") ||
      !t.read_int("order", shows.order, 1, s.workload.orders) ||
      !t.read_int("debits", shows.debits, 0, 1000) || !t.read_bool("redelivered", redelivered)) {
    return false;
  }
  // read_name checked both names against their lists.
  if (t.has("verdict")) shows.verdict = parse_verdict(verdict);
  if (t.has("outcome")) shows.outcome = parse_outcome(outcome);
  if (t.has("redelivered")) shows.redelivered = redelivered;
  if (!shows.verdict && !shows.outcome && !shows.debits && !shows.redelivered) {
    return t.fail(t.table_line(), prefix,
                  "says nothing: give verdict, outcome, debits or redelivered");
  }
  if ((shows.outcome || shows.debits) && !shows.order) {
    return t.fail(t.table_line(), t.path("order"), "outcome and debits need an order");
  }
  return true;
}

bool read_answers(const TableReader& top, Lesson& lesson) {
  std::vector<TableReader::Element> elements;
  if (!top.require("answers") || !top.table_array("answers", elements)) return false;
  if (elements.size() < kMinAnswers || elements.size() > kMaxAnswers) {
    return top.fail_at("answers", "a lesson has 2 to 4 answers, not " +
                                      std::to_string(elements.size()));
  }
  for (const auto& element : elements) {
    const TableReader t(*element.table, element.prefix, top.file(), top.error());
    LessonAnswer answer;
    if (!t.only_keys({"text", "shows", "feedback"}) || !t.require("text") ||
        !t.require("shows") || !t.read_string("text", answer.text, false) ||
        !t.read_string("feedback", answer.feedback, false)) {
      return false;
    }
    bool ok = true;
    const toml::table* shows = t.sub_table("shows", ok);
    if (!ok) return false;
    const std::string prefix = t.path("shows");
    if (!read_shows(TableReader(*shows, prefix, top.file(), top.error()), prefix, lesson,
                    answer.shows)) {
      return false;
    }
    lesson.answers.push_back(std::move(answer));
  }
  if (!top.read_int("right", lesson.right, 1, static_cast<std::int64_t>(lesson.answers.size()))) {
    return false;
  }
  // A wrong answer is a chance to say what was missed: each needs its line.
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    if (static_cast<std::int64_t>(i + 1) != lesson.right && lesson.answers[i].feedback.empty()) {
      return top.fail(toml_io::line_of(*elements[i].table), elements[i].prefix + ".feedback",
                      "a wrong answer needs one line of feedback: what a learner who picks "
                      "it has missed");
    }
  }
  return true;
}

bool read_lesson(const toml::table& root, Lesson& lesson, LoadError& error) {
  const TableReader top(root, "", lesson.path, error);
  if (!top.only_keys({"title", "claim", "setup", "question", "right", "explanation",
                      "try_next", "runs", "answers"})) {
    return false;
  }
  for (const auto& [key, field] :
       {std::pair{"title", &lesson.title}, {"claim", &lesson.claim}, {"setup", &lesson.setup},
        {"question", &lesson.question}, {"explanation", &lesson.explanation},
        {"try_next", &lesson.try_next}}) {
    if (!top.require(key) || !top.read_string(key, *field, false)) return false;
  }
  if (!top.require("right")) return false;
  std::vector<TableReader::Element> elements;
  if (!top.require("runs") || !top.table_array("runs", elements)) return false;
  if (elements.empty() || elements.size() > kMaxRuns) {
    return top.fail_at("runs", "a lesson has 1 to 4 runs, not " + std::to_string(elements.size()));
  }
  const std::string folder = std::filesystem::path(lesson.path).parent_path().string();
  for (const auto& element : elements) {
    LessonRun run;
    if (!read_run(TableReader(*element.table, element.prefix, lesson.path, error), folder, run)) {
      return false;
    }
    lesson.runs.push_back(std::move(run));
  }
  return read_answers(top, lesson);
}

}  // namespace

eosim::Result<Lesson> parse_lesson(std::string_view toml_text, const std::string& path) {
  toml::table root;
  LoadError error;
  if (!toml_io::parse_toml(toml_text, path, root, error)) return error.status();
  Lesson lesson;
  lesson.path = path;
  if (!read_lesson(root, lesson, error)) return error.status();
  return lesson;
}

eosim::Result<Lesson> load_lesson(const std::string& path) {
  std::string text;
  // The same checks as for a scenario file.
  if (eosim::Status read = read_scenario_file(path, text); !read.ok()) {
    return LoadError{path, 0, "", std::move(read.message)}.status();
  }
  return parse_lesson(text, path);
}

eosim::Status run_lesson(const Lesson& lesson, std::vector<LessonRunResult>& out) {
  out.assign(lesson.runs.size(), LessonRunResult{});
  for (std::size_t i = 0; i < lesson.runs.size(); ++i) {
    eosim::Status ran =
        run_scenario(lesson.runs[i].scenario, WorldOptions{}, out[i].summary, &out[i].trace);
    if (!ran.ok()) return ran;
  }
  return eosim::Status::success();
}

bool shows_holds(const LessonShows& shows, const std::vector<LessonRunResult>& runs) {
  const RunSummary& run = runs.at(static_cast<std::size_t>(shows.run - 1)).summary;
  if (shows.verdict && *shows.verdict != run.report.verdict) return false;
  if (shows.redelivered && *shows.redelivered != (run.redeliveries > 0)) return false;
  if (!shows.order) return true;
  const auto& orders = run.report.orders;
  const auto it = std::find_if(orders.begin(), orders.end(),
                               [&](const OrderOutcome& o) { return o.order == *shows.order; });
  const std::int64_t debits = it == orders.end() ? 0 : it->debits;
  // No row: no outcome, so no `outcome` statement holds.
  if (shows.outcome && (it == orders.end() || *shows.outcome != it->outcome)) return false;
  return !shows.debits || *shows.debits == debits;
}

std::vector<std::int64_t> answers_shown(const Lesson& lesson,
                                        const std::vector<LessonRunResult>& runs) {
  std::vector<std::int64_t> shown;
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    if (shows_holds(lesson.answers[i].shows, runs)) shown.push_back(static_cast<std::int64_t>(i + 1));
  }
  return shown;
}

std::string lesson_topic(const Lesson& lesson) {
  return lesson.title.substr(0, lesson.title.find(':'));
}

std::string fixed_replay(const Lesson& lesson) {
  if (lesson.runs.empty() || lesson.runs.front().scenario.fixed.empty()) return "";
  return lesson_replay(lesson, 0) + " --fixed";
}

std::string question_text(const Lesson& lesson, std::size_t number, int width) {
  std::string out = "Lesson " + std::to_string(number) + "\n\nWhat happens:\n" +
                    wrap_text(lesson.setup, width, "  ") + "\nQuestion: " +
                    wrap_text(lesson.question, width - 10, "");
  for (std::size_t i = 0; i < lesson.answers.size(); ++i) {
    out += "  " + std::to_string(i + 1) + ") " + lesson.answers[i].text + "\n";
  }
  return out;
}

std::string answer_text(const Lesson& lesson, const std::vector<std::int64_t>& shown,
                        std::int64_t answer, int width) {
  const bool right = shown.size() == 1 && shown.front() == answer;
  std::string out = "You answered " + std::to_string(answer) + ": " +
                    (right ? "right." : "not what the run shows.");
  if (!right && shown.size() == 1) out += " The run shows answer " + std::to_string(shown.front()) + ".";
  out += "\n";
  const auto index = static_cast<std::size_t>(answer - 1);
  if (!right && index < lesson.answers.size() && !lesson.answers[index].feedback.empty()) {
    out += wrap_text(lesson.answers[index].feedback, width, "  ");
  }
  out += "\n" + lesson.title + "\n\n" + wrap_text(lesson.claim, width, "  ");
  return out;
}

std::string lesson_replay(const Lesson& lesson, std::size_t index) {
  const LessonRun& run = lesson.runs.at(index);
  std::vector<std::string> extra;
  for (const std::string& spec : run.faults) extra.insert(extra.end(), {"--fault", spec});
  return replay_command(run.scenario.path, run.scenario.seed, run.strategy, run.producer, {},
                        extra);
}

}  // namespace lab
