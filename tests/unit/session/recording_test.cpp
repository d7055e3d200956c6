// A recorded run (src/session/recording.h): the JSON Lines trace of a real `eosim live` run
// (tests/data/live/recorded-02-no-dedup.jsonl, scenario 02 with --strategy no-dedup: the
// consumer process was SIGKILLed between its commit and its ack) loads and steps like a
// simulated run, read-only; a simulated run's trace steps exactly as its Session does; a
// malformed file is an error naming the file and the line, and changes nothing.

#include "src/session/recording.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/report/report_format.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

const std::string kLiveFixture =
    std::string(EOSIM_SOURCE_DIR) + "/tests/data/live/recorded-02-no-dedup.jsonl";

void load(lab::Recording& r, const std::string& path) { REQUIRE_OK(r.load(path)); }

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool same_events(const std::vector<sim::TraceEvent>& a, const std::vector<sim::TraceEvent>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (sim::format_jsonl(a[i], orders::kTraceNames) !=
        sim::format_jsonl(b[i], orders::kTraceNames))
      return false;
  }
  return true;
}

// Parses `text` as a file named "bad.jsonl"; returns the error ("" when it loaded).
std::string parse_error(lab::Recording& r, const std::string& text) {
  std::istringstream in(text);
  return r.parse(in, "bad.jsonl").message;
}

const std::string kEvent1 = R"({"step":1,"time":1,"actor":"producer","kind":"start","detail":"x"})";
const std::string kEvent2 =
    R"({"step":2,"time":4,"actor":"consumer1","kind":"commit","target":"ledger","order":1,"detail":"debit"})";

}  // namespace

TEST_CASE("a recorded live run loads with its summary and the lanes of its processes",
          "[recording]") {
  lab::Recording r;
  load(r, kLiveFixture);
  const auto lines = lines_of(kLiveFixture);
  REQUIRE(lines.size() > 2);
  CHECK(r.all_events().size() == lines.size() - 1);  // every line an event, then the summary
  CHECK(r.live());
  CHECK(r.has_summary());
  CHECK(r.replay().find("eosim live") == 0);
  CHECK(r.end().report.verdict == lab::Verdict::kDuplicated);
  CHECK(r.end().report.duplicated == std::vector<std::int64_t>{2});
  CHECK(r.end().report.balance_actual == 400);
  REQUIRE(r.end().report.orders.size() == 3);
  CHECK(r.end().report.orders[1].debits == 2);
  CHECK(r.end().steps == r.all_events().back().step);
  // A real process was killed and started again, and the trace says so.
  bool crashed = false, restarted = false;
  for (const auto& e : r.all_events()) {
    crashed = crashed || (e.actor == "consumer1" && e.kind == sim::EventKind::kCrash);
    restarted = restarted || (e.actor == "consumer1" && e.kind == sim::EventKind::kRestart);
  }
  CHECK(crashed);
  CHECK(restarted);
  CHECK(r.lanes() == std::vector<std::string>{"producer", "orders", "relay", "consumer1", "ledger"});
}

TEST_CASE("a recorded live run steps forward and back through its events", "[recording]") {
  lab::Recording r;
  load(r, kLiveFixture);
  const auto& all = r.all_events();
  CHECK(r.step() == 0);
  CHECK(r.events().empty());
  CHECK_FALSE(r.view().over);
  CHECK(r.view().summary.report.orders.empty());  // nothing known before the end
  std::uint64_t steps = 0;
  while (r.step_forward()) {
    ++steps;
    std::vector<sim::TraceEvent> want;
    for (const auto& e : all) {
      if (e.step <= r.step()) want.push_back(e);
    }
    CHECK(same_events(r.events(), want));
    CHECK(r.view().step == r.step());
    CHECK(r.view().time == (want.empty() ? 0 : want.back().time));
  }
  CHECK(steps == r.end().steps);
  CHECK(r.over());
  CHECK(r.view().over);
  CHECK(r.view().summary.report.verdict == lab::Verdict::kDuplicated);
  CHECK_FALSE(r.step_forward());

  r.step_back();
  CHECK(r.step() == r.end().steps - 1);
  CHECK(r.events().size() == all.size() - 1);
  CHECK(r.view().summary.report.orders.empty());
  r.seek(5);
  CHECK(r.events().size() == 5);
  r.seek(1000000);  // clamped to the last step
  CHECK(r.step() == r.end().steps);
  CHECK(same_events(r.events(), all));
  r.request(0);
  CHECK(r.events().empty());
}

TEST_CASE("a simulated run's JSON Lines trace steps exactly as its session does", "[recording]") {
  lab::Scenario s = test_support::loaded(lab::load_scenario(
      std::string(EOSIM_SOURCE_DIR) + "/scenarios/03-crash-between-commit-and-ack-no-dedup.toml"));
  lab::RunSummary run;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, &trace));
  const std::vector<std::string> unmet;
  std::ostringstream file;
  lab::write_report_jsonl(file, lab::RunRecord{s, run, unmet, "eosim run"}, trace);

  lab::Recording r;
  std::istringstream in(file.str());
  REQUIRE_OK(r.parse(in, "run.jsonl"));
  CHECK_FALSE(r.live());
  CHECK(r.end().report.verdict == run.report.verdict);
  CHECK(r.end().trace_hash == run.trace_hash);
  CHECK(r.end().steps == run.steps);
  lab::Session session;
  REQUIRE_OK(session.open(s));
  for (const std::uint64_t step : std::vector<std::uint64_t>{0, 1, 7, run.steps / 2, run.steps - 1, run.steps}) {
    session.seek(step);
    r.seek(step);
    INFO("step " << step);
    CHECK(same_events(r.events(), session.world().kernel().trace.events()));
  }
}

TEST_CASE("a malformed trace file is an error naming the file and the line", "[recording]") {
  lab::Recording r;
  load(r, kLiveFixture);
  const std::size_t events = r.all_events().size();
  r.seek(4);

  CHECK(parse_error(r, kEvent1 + "\n" + kEvent2 + "\n{\"step\":3,\"ti") ==
        "bad.jsonl:3: not a JSON object (cut short?): a trace line is one event "
        "{\"step\":..,\"time\":..,\"actor\":..,\"kind\":..}");
  CHECK(parse_error(r, kEvent1 + "\n" + R"({"step":2,"time":1,"actor":"relay"})") ==
        "bad.jsonl:2: key `kind` missing");
  CHECK(parse_error(r, R"({"step":"one","time":1,"actor":"relay","kind":"x"})") ==
        "bad.jsonl:1: key `step` is not a whole number");
  CHECK(parse_error(r, kEvent2 + "\n" + kEvent1) ==
        "bad.jsonl:2: step 1 after step 2: events must be in step order");
  CHECK(parse_error(r, kEvent1 + "\n{\"summary\":{}}\n" + kEvent2) ==
        "bad.jsonl:3: a line after the summary line (line 2)");
  CHECK(parse_error(r, kEvent1 + "\n{\"summary\":{\"scenario\":\"x\"}}") ==
        "bad.jsonl:2: summary: key `seed` missing");
  CHECK(parse_error(r, "") == "bad.jsonl: no trace events in it");
  CHECK(parse_error(r, "[1,2]") .find("bad.jsonl:1: not a JSON object") == 0);

  // A summary whose orders are damaged names the order's key.
  auto lines = lines_of(kLiveFixture);
  const std::size_t at = lines.back().find("\"debits\":2");
  REQUIRE(at != std::string::npos);
  lines.back().replace(at, 10, "\"debits\":\"two\"");
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  CHECK(parse_error(r, text) == "bad.jsonl:" + std::to_string(lines.size()) +
                                    ": summary: key `orders[2].debits` has the wrong type");

  const eosim::Status missing =
      r.load(std::string(EOSIM_SOURCE_DIR) + "/tests/data/live/no-such-trace.jsonl");
  CHECK_FALSE(missing.ok());
  CHECK(missing.message.find("no-such-trace.jsonl: cannot open the file: No such file or "
                             "directory") != std::string::npos);

  // None of that touched what was open.
  CHECK(r.path() == kLiveFixture);
  CHECK(r.all_events().size() == events);
  CHECK(r.step() == 4);
}

TEST_CASE("a trace's summary fields and the file itself are checked before use",
          "[recording]") {
  lab::Recording r;
  load(r, kLiveFixture);
  // Each of these summary fields of another JSON type threw from nlohmann's value(), which
  // nothing caught: the GUI aborted.
  auto lines = lines_of(kLiveFixture);
  const std::string summary = lines.back();
  REQUIRE(summary.substr(summary.size() - 2) == "}}");
  for (const char* field : {",\"mode\":5", ",\"replay\":[]", ",\"file\":{}", ",\"run_dir\":true"}) {
    lines.back() = summary;
    lines.back().insert(summary.size() - 2, field);  // last: a repeated key's last value counts
    std::string text;
    for (const auto& line : lines) text += line + "\n";
    INFO(field);
    CHECK(parse_error(r, text).find(": summary: key `") != std::string::npos);
  }
  // A number out of its field's range is no number of it.
  lines.back() = summary;
  const std::size_t at = lines.back().find("\"debits\":2");
  REQUIRE(at != std::string::npos);
  lines.back().replace(at, 10, "\"debits\":18446744073709551615");
  std::string text;
  for (const auto& line : lines) text += line + "\n";
  CHECK(parse_error(r, text).find("key `orders[2].debits` has the wrong type") != std::string::npos);
  // Not a regular file: refused at once (a FIFO hung the loader, /dev/zero was read until
  // memory ran out).
  for (const char* path : {"/dev/zero", "/dev/null"}) {
    const eosim::Status refused = r.load(path);
    CHECK(refused.message.find("is not a regular file") != std::string::npos);
  }
  CHECK(r.path() == kLiveFixture);
}
