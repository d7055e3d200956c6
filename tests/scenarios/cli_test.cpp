// The `eosim` command line, tested as a user meets it: the built binary is run through the
// shell, and each test checks the exit code AND what is printed (README.md's
// exit codes: 0 expectations met, 1 an expectation failed, 2 bad input, 3 internal error).

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "eosim_version.h"
#include "src/catalog/catalog.h"
#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

using cli_runner::contains;
using cli_runner::Output;
using cli_runner::quoted;

Output eosim_with(const std::string& args, const std::string& streams) {
  return cli_runner::run(args, streams);
}

using cli_runner::eosim;
Output eosim_stdout(const std::string& args) { return eosim_with(args, "2>/dev/null"); }

std::string source_path(const std::string& relative) {
  return std::string(EOSIM_SOURCE_DIR) + "/" + relative;
}
std::string data(const std::string& relative) {
  return quoted(source_path("tests/data/" + relative));
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

using test_support::TempDir;

}  // namespace

TEST_CASE("cli: a malformed TOML file is bad input that names the file and line", "[cli]") {
  const Output out = eosim("run " + data("bad/malformed.toml"));
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "malformed.toml:5:"));
}

TEST_CASE("cli: an unknown key is bad input that names the key and line", "[cli]") {
  const Output top = eosim("run " + data("bad/unknown_top_key.toml"));
  CHECK(top.exit_code == 2);
  CHECK(contains(top.text, "unknown_top_key.toml:3:"));
  CHECK(contains(top.text, "`colour`"));
  CHECK(contains(top.text, "unknown key"));

  const Output nested = eosim("run " + data("bad/unknown_script_key.toml"));
  CHECK(nested.exit_code == 2);
  CHECK(contains(nested.text, "unknown_script_key.toml:10:"));
  CHECK(contains(nested.text, "faults.script[2].atempt"));
}

TEST_CASE("cli: a value out of range is bad input that says what was allowed", "[cli]") {
  const Output out = eosim("run " + data("bad/bad_value.toml"));
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "bad_value.toml:5:"));
  CHECK(contains(out.text, "consumer.instances"));
  CHECK(contains(out.text, "between 1 and 16, got 17"));
}

TEST_CASE("cli: a missing file is bad input that names the file", "[cli]") {
  const Output out = eosim("run " + data("no_such_scenario.toml"));
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "no_such_scenario.toml"));
  CHECK(contains(out.text, "cannot open"));
}

TEST_CASE("cli: a bad file does not stop the other files, but sets exit 2", "[cli]") {
  const Output out =
      eosim("run " + data("no_such_scenario.toml") + " " + data("cli/suite/a_happy.toml"));
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "cannot open"));
  CHECK(contains(out.text, "scenario: cli suite: happy"));
  CHECK(contains(out.text, "2 scenarios: 1 passed expectations, 0 failed, 1 not run"));
}

TEST_CASE("cli: a bad --strategy or --producer is bad input that lists the valid names",
          "[cli]") {
  const Output strategy = eosim("run " + data("good/minimal.toml") + " --strategy bogus");
  CHECK(strategy.exit_code == 2);
  CHECK(contains(strategy.text, "unknown strategy `bogus`"));
  for (const auto& entry : lab::strategies()) {
    CHECK(contains(strategy.text, std::string(entry.name)));
  }
  CHECK_FALSE(contains(strategy.text, "verdict:"));  // nothing ran

  const Output producer = eosim("run " + data("good/minimal.toml") + " --producer bogus");
  CHECK(producer.exit_code == 2);
  CHECK(contains(producer.text, "unknown producer `bogus`"));
  for (const auto& entry : lab::producers()) {
    CHECK(contains(producer.text, std::string(entry.name)));
  }
}

TEST_CASE("cli: bad option values and unknown options exit 2", "[cli]") {
  const std::string file = data("good/minimal.toml");
  const Output format = eosim("run " + file + " --format xml");
  CHECK(format.exit_code == 2);
  CHECK(contains(format.text, "--format"));

  const Output negative = eosim("run " + file + " --seed -1");
  CHECK(negative.exit_code == 2);
  CHECK(contains(negative.text, "--seed"));

  // One past the largest 64-bit seed must not silently become some other seed.
  const Output too_big = eosim("run " + file + " --seed 18446744073709551616");
  CHECK(too_big.exit_code == 2);

  const Output unknown = eosim("run " + file + " --colour");
  CHECK(unknown.exit_code == 2);
  CHECK(contains(unknown.text, "--colour"));

  const Output nothing = eosim("");
  CHECK(nothing.exit_code == 2);
}

TEST_CASE("cli: list strategies names all eight strategies of the design", "[cli]") {
  const Output out = eosim("list strategies");
  CHECK(out.exit_code == 0);
  for (const char* name : {"atomic", "auto-ack", "ack-before-commit", "no-dedup",
                           "separate-dedup-store", "check-then-act", "naive-errors",
                           "requeue-poison"}) {
    CHECK(contains(out.text, name));
  }
}

TEST_CASE("cli: list faults names every fault site and random fault kind", "[cli]") {
  const Output out = eosim("list faults");
  CHECK(out.exit_code == 0);
  for (const auto& site : lab::fault_sites()) CHECK(contains(out.text, std::string(site.name)));
  for (const auto& kind : lab::fault_kinds()) CHECK(contains(out.text, std::string(kind.name)));
  CHECK(contains(out.text, "basic.ack"));
}

TEST_CASE("cli: list scenarios shows each file with its name", "[cli]") {
  const Output good = eosim("list scenarios --dir " + data("good"));
  CHECK(good.exit_code == 0);
  CHECK(contains(good.text, "minimal.toml"));
  CHECK(contains(good.text, "only a name"));
  CHECK(contains(good.text, "every field"));

  const Output bad = eosim("list scenarios --dir " + data("bad"));
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.text, "malformed.toml:5:"));

  const Output missing = eosim("list scenarios --dir " + data("no_such_dir"));
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.text, "no_such_dir"));
}

TEST_CASE("cli: --help and --version exit 0", "[cli]") {
  const Output help = eosim("--help");
  CHECK(help.exit_code == 0);
  CHECK(contains(help.text, "exactly-once"));
  CHECK(contains(help.text, "run"));
  CHECK(contains(help.text, "list"));

  const Output run_help = eosim("run --help");
  CHECK(run_help.exit_code == 0);
  CHECK(contains(run_help.text, "--seed"));
  CHECK(contains(run_help.text, "--keep-db"));
  CHECK(contains(run_help.text, "Examples:"));

  // The version comes from project(eosim VERSION ...) through the generated header.
  const Output version = eosim("--version");
  CHECK(version.exit_code == 0);
  CHECK(version.text == std::string("eosim ") + kEosimVersion + "\n");
  CHECK(std::string(kEosimVersion).find_first_not_of("0123456789.") == std::string::npos);
}

TEST_CASE("cli: the same scenario and seed give the same trace hash", "[cli]") {
  const std::string args = "run " + data("good/minimal.toml") + " --format json";
  const Output first = eosim_stdout(args);
  const Output second = eosim_stdout(args);
  REQUIRE(first.exit_code == 0);
  REQUIRE(second.exit_code == 0);
  const auto a = nlohmann::json::parse(first.text);
  const auto b = nlohmann::json::parse(second.text);
  const std::string hash = a.at("trace_hash").get<std::string>();
  CHECK(hash.size() == 16);
  CHECK(hash.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(hash == b.at("trace_hash").get<std::string>());
  CHECK(a.at("steps") == b.at("steps"));
}

TEST_CASE("cli: --format json prints one object per run with the documented fields",
          "[cli]") {
  const Output out = eosim_stdout("run " + data("cli/suite") + " --format json --seed 11");
  CHECK(out.exit_code == 1);  // b_impossible.toml cannot meet its expectation
  const auto lines = lines_of(out.text);
  REQUIRE(lines.size() == 2);  // JSON Lines; no suite table in a machine format
  const auto happy = nlohmann::json::parse(lines[0]);
  const auto impossible = nlohmann::json::parse(lines[1]);
  for (const char* key :
       {"scenario", "seed", "verdict", "lost", "duplicated", "phantom", "stuck",
        "dead_lettered", "rejected", "balance_expected", "balance_actual", "redeliveries",
        "faults_fired", "steps", "trace_hash", "expect_ok", "unmet", "strategy", "producer",
        "orders"}) {
    CHECK(happy.contains(key));
  }
  CHECK(happy.at("scenario") == "cli suite: happy");
  CHECK(happy.at("seed") == 11);
  CHECK(happy.at("expect_ok") == true);
  CHECK(happy.at("orders").size() == 3);
  CHECK(happy.at("orders")[0].at("order") == 1);
  CHECK(impossible.at("scenario") == "cli suite: impossible balance");
  CHECK(impossible.at("expect_ok") == false);
  REQUIRE(impossible.at("unmet").size() == 1);
  CHECK(contains(impossible.at("unmet")[0].get<std::string>(), "balance"));
}

TEST_CASE("cli: an unmet expectation exits 1 and says which", "[cli]") {
  const Output out = eosim("run " + data("cli/suite/b_impossible.toml"));
  CHECK(out.exit_code == 1);
  CHECK(contains(out.text, "expect: FAILED: balance"));
  CHECK(contains(out.text, "verdict: "));
}

TEST_CASE("cli: the text report replays: SEED=, the replay command and the trace hash",
          "[cli]") {
  const std::string file = data("cli/suite/a_happy.toml");
  const Output out = eosim("run " + file + " --seed 12345");
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "scenario: cli suite: happy"));
  CHECK(contains(out.text, "Three orders, no faults"));
  CHECK(contains(out.text, "SEED=12345\n"));
  CHECK(contains(out.text, "a_happy.toml --seed 12345"));
  CHECK(contains(out.text, "verdict: exactly-once"));
  CHECK(contains(out.text, "expect: ok"));
  CHECK(contains(out.text, "debited x1"));
  // Nothing checked is not "ok".
  const Output unchecked = eosim("run " + data("cli/no-expect.toml"));
  CHECK(unchecked.exit_code == 0);
  CHECK(contains(unchecked.text, "expect: no expectations"));
  CHECK_FALSE(contains(unchecked.text, "expect: ok"));
  CHECK_FALSE(contains(out.text, "\x1b["));  // no colour when stdout is not a terminal

  const auto json = nlohmann::json::parse(eosim_stdout("run " + file + " --seed 12345 "
                                                       "--format json").text);
  CHECK(contains(out.text, "trace_hash:     " + json.at("trace_hash").get<std::string>()));
}

TEST_CASE("cli: a directory runs every *.toml in name order and ends with a suite table",
          "[cli]") {
  const Output out = eosim("run " + data("cli/suite"));
  CHECK(out.exit_code == 1);
  const std::size_t happy = out.text.find("scenario: cli suite: happy");
  const std::size_t impossible = out.text.find("scenario: cli suite: impossible balance");
  REQUIRE(happy != std::string::npos);
  REQUIRE(impossible != std::string::npos);
  CHECK(happy < impossible);
  CHECK(contains(out.text, "2 scenarios: 1 passed expectations, 1 failed"));

  const Output quiet = eosim("run " + data("cli/suite") + " --quiet");
  CHECK(quiet.exit_code == 1);
  CHECK_FALSE(contains(quiet.text, "SEED="));
  CHECK(contains(quiet.text, "2 scenarios: 1 passed expectations, 1 failed"));
}

TEST_CASE("cli: --format jsonl prints the trace events, then the summary", "[cli]") {
  const Output out = eosim_stdout("run " + data("cli/suite/a_happy.toml") + " --format jsonl");
  CHECK(out.exit_code == 0);
  const auto lines = lines_of(out.text);
  REQUIRE(lines.size() >= 2);
  const auto summary = nlohmann::json::parse(lines.back()).at("summary");
  CHECK(summary.at("scenario") == "cli suite: happy");
  CHECK(summary.at("trace_events").get<std::size_t>() == lines.size() - 1);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const auto event = nlohmann::json::parse(lines[i]);
    CHECK(event.contains("step"));
    CHECK(event.contains("kind"));
  }
}

TEST_CASE("cli: --format mermaid prints a sequence diagram", "[cli]") {
  const Output out = eosim_stdout("run " + data("cli/suite/a_happy.toml") + " --format mermaid");
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "sequenceDiagram\n"));
  CHECK(contains(out.text, "participant"));
  CHECK(out.text.rfind("%% ", 0) == 0);  // a Mermaid comment names the run first
}

TEST_CASE("cli: --format svg and html draw one run with every lane, several files exit 2",
          "[cli][pictures]") {
  const std::string file = quoted(source_path("scenarios/16-competing-consumers-check-then-act.toml"));
  const Output svg = eosim_stdout("run " + file + " --format svg");
  CHECK(svg.exit_code == 0);
  CHECK(svg.text.rfind("<svg ", 0) == 0);
  for (const char* lane : {"Producer", "orders DB", "Relay", "Broker", "Consumer 1", "Consumer 2",
                           "ledger DB"}) {
    CHECK(contains(svg.text, std::string("class=\"lane\"")));
    CHECK(contains(svg.text, std::string(">") + lane + "</text>"));
  }
  const Output html = eosim_stdout("run " + file + " --format html");
  CHECK(html.exit_code == 0);
  CHECK(html.text.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(contains(html.text, "verdict: duplicated"));
  CHECK(contains(html.text, "<code>debits</code> (2 rows)"));  // the tables' final rows
  CHECK(contains(html.text, "<svg "));
  // Self-contained: its own script and style only, nothing fetched (the policy says so).
  CHECK(contains(html.text, "Content-Security-Policy\" content=\"default-src 'none';"));
  CHECK_FALSE(contains(html.text, "<script src"));
  CHECK_FALSE(contains(html.text, "<link"));
  CHECK(contains(html.text, "<script type=\"application/json\" id=\"run-data\">"));

  // The duplicated email is shown where the verdict is: in the orders table, the diagram
  // (DUP) and the text report's duplicated line.
  const std::string mail = quoted(source_path("scenarios/31-side-effect-before-commit.toml"));
  const Output page = eosim_stdout("run " + mail + " --format html");
  CHECK(contains(page.text, "<th>emails</th>"));
  CHECK(contains(page.text, "2 <b class=\"dup\">DUP</b>"));
  CHECK(contains(page.text, "DUP email sent for order-2"));
  const Output text = eosim_stdout("run " + mail);
  CHECK(contains(text.text, "duplicated:     2 (email)\n"));
  const Output picture = eosim_stdout("run " + mail + " --format svg");
  CHECK(contains(picture.text, "DUP email sent for order-2"));

  const Output several = eosim("run " + quoted(source_path("scenarios")) + " --format svg");
  CHECK(several.exit_code == 2);
  CHECK(contains(several.text, "exactly one scenario file"));
}

TEST_CASE("cli: sweep --plot writes an SVG chart and never replaces a file without --force",
          "[cli][pictures]") {
  TempDir dir;
  const std::string plot = (dir.path / "rates.svg").string();
  const std::string file = quoted(source_path("scenarios/01-happy-path.toml"));
  const Output first = eosim("sweep " + file + " --seeds 1..10 --jobs 2 --strategy no-dedup "
                             "--plot-x seeds --plot " + quoted(plot));
  CHECK(first.exit_code == 0);
  REQUIRE(std::filesystem::exists(plot));
  std::ifstream in(plot);
  const std::string chart((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(chart.rfind("<svg ", 0) == 0);
  CHECK(contains(chart, "class=\"legend\" x=\"") );
  CHECK(contains(chart, ">no-dedup</text>"));
  CHECK_FALSE(contains(chart, ">atomic</text>"));  // --strategy: only that one

  const auto size = std::filesystem::file_size(plot);
  const Output again = eosim("sweep " + file + " --seeds 1..10 --plot " + quoted(plot));
  CHECK(again.exit_code == 2);
  CHECK(contains(again.text, "--force"));
  CHECK(std::filesystem::file_size(plot) == size);
  CHECK(eosim("sweep " + file + " --seeds 1..10 --jobs 2 --strategy atomic --force --plot " +
              quoted(plot)).exit_code == 0);
  CHECK(eosim("sweep " + file + " --seeds 1..3 --plot-x seeds --force --plot " + quoted(plot))
            .exit_code == 2);  // fewer seeds than the 5 points
}

TEST_CASE("cli: --keep-db leaves the databases, one folder per file for several files",
          "[cli]") {
  const TempDir one;
  const Output single =
      eosim("run " + data("cli/suite/a_happy.toml") + " --keep-db " + quoted(one.path));
  CHECK(single.exit_code == 0);
  CHECK(std::filesystem::exists(one.path / "orders.db"));
  CHECK(std::filesystem::exists(one.path / "ledger.db"));

  const TempDir many;
  const Output suite = eosim("run " + data("cli/suite") + " --keep-db " + quoted(many.path));
  CHECK(suite.exit_code == 1);
  CHECK(std::filesystem::exists(many.path / "a_happy" / "ledger.db"));
  CHECK(std::filesystem::exists(many.path / "b_impossible" / "orders.db"));

  // A --keep-db path that cannot be a directory is bad input.
  const Output blocked = eosim("run " + data("cli/suite/a_happy.toml") + " --keep-db " +
                               quoted((one.path / "orders.db" / "sub").string()));
  CHECK(blocked.exit_code == 2);
  CHECK(contains(blocked.text, "--keep-db"));
}

TEST_CASE("cli: bench kernel reports events/s and a reproducible trace hash", "[cli]") {
  const Output first = eosim("bench kernel --events 2000");
  const Output second = eosim("bench kernel --events 2000");
  CHECK(first.exit_code == 0);
  CHECK(contains(first.text, "events:      2000\n"));
  CHECK(contains(first.text, "events/s:"));
  const auto hash_line = [](const std::string& text) {
    const std::size_t at = text.find("trace_hash:");
    return at == std::string::npos ? std::string() : text.substr(at, text.find('\n', at) - at);
  };
  CHECK_FALSE(hash_line(first.text).empty());
  CHECK(hash_line(first.text) == hash_line(second.text));

  const Output zero = eosim("bench kernel --events 0");
  CHECK(zero.exit_code == 2);
}

TEST_CASE("cli: generals shows the unconfirmed last courier and replays exactly", "[cli]") {
  const Output first = eosim_stdout("generals --couriers 4 --loss 1/4 --seed 3");
  const Output second = eosim_stdout("generals --couriers 4 --loss 1/4 --seed 3");
  REQUIRE(first.exit_code == 0);
  CHECK(first.text == second.text);
  CHECK(contains(first.text, "is unconfirmed"));
  CHECK(contains(first.text, "basic.ack"));
  CHECK(contains(first.text, "trace_hash="));
  const Output captured = eosim_stdout("generals --couriers 3 --loss 0 --capture 2");
  REQUIRE(captured.exit_code == 0);
  CHECK(contains(captured.text, "captured"));
  CHECK(eosim("generals --couriers 0").exit_code == 2);
  CHECK(eosim("generals --loss 2/1").exit_code == 2);
}

TEST_CASE("cli: --dedup and friends compose a consumer, run and sweep report it",
          "[cli][design]") {
  const std::string file = quoted(source_path("scenarios/02-crash-between-commit-and-ack.toml"));
  Output o = eosim("run " + file + " --dedup none");
  CHECK(o.exit_code == 1);  // the file expects exactly-once; without dedup it duplicates
  CHECK(contains(o.text, "strategy: atomic + dedup=none (= no-dedup)"));
  CHECK(contains(o.text, "overrides the preset: dedup = none (atomic has same-transaction)"));
  CHECK(contains(o.text, "--seed 7 --dedup none"));
  o = eosim("run " + file + " --ack maybe");
  CHECK(o.exit_code == 2);
  CHECK(contains(o.text, "unknown value `maybe` for --ack"));
  o = eosim("sweep " + quoted(source_path("scenarios/01-happy-path.toml")) +
            " --seeds 1..40 --ack before-commit --faults crash=1/5 --expect violation");
  CHECK(o.exit_code == 0);
  CHECK(contains(o.text, "atomic + ack=before-commit (= ack-before-commit)"));
  o = eosim("list strategies");
  CHECK(contains(o.text, "no-dedup              ack=after-commit dedup=none errors=classify "
                         "poison=dead-letter"));
}

TEST_CASE("cli: sweep --faults none runs without random faults as run does", "[cli][sweep]") {
  const std::string file = quoted(source_path("scenarios/01-happy-path.toml"));
  const Output json = eosim_stdout("sweep " + file + " --seeds 1..20 --faults none --format json");
  REQUIRE(json.exit_code == 0);
  const auto j = nlohmann::json::parse(json.text);
  CHECK(j.at("verdicts").at("exactly-once") == 20);
  CHECK(j.at("faults") == "");
  CHECK(j.at("faults_fired") == 0);
  const Output text = eosim("sweep " + file + " --seeds 1..3 --faults none");
  CHECK(text.exit_code == 0);
  CHECK(contains(text.text, "random faults none\n"));
  const Output bad = eosim("sweep " + file + " --seeds 1..3 --faults nothing");
  CHECK(bad.exit_code == 2);
  CHECK(contains(bad.text, "--faults: fault spec item"));
}

TEST_CASE("cli: a scripted fault that never fires is a warning and exit 1", "[cli][unfired]") {
  const Output text = eosim("run " + data("cli/unfired/nth-99.toml"));
  CHECK(text.exit_code == 1);
  CHECK(contains(text.text,
                 "WARNING: scripted fault #1 (consumer.after_commit, nth 99) never fired"));
  CHECK(contains(text.text, "expect: FAILED: scripted fault #1"));
  const Output json = eosim_stdout("run " + data("cli/unfired/nth-99.toml") + " --format json");
  CHECK(json.exit_code == 1);
  const auto j = nlohmann::json::parse(json.text);
  REQUIRE(j.at("unfired").size() == 1);
  CHECK(j.at("unfired")[0].at("rule") == 1);
  CHECK(j.at("unfired")[0].at("at") == "consumer.after_commit");
  CHECK(j.at("expect_ok") == false);
  const Output sweep = eosim("sweep " + data("cli/unfired/nth-99.toml") + " --seeds 1..3");
  CHECK(sweep.exit_code == 1);
  CHECK(contains(sweep.text, "WARNING: in 3 of 3 runs a scripted fault never fired"));
}

TEST_CASE("cli: a relay attempt rule fires and changes the verdict", "[cli][unfired]") {
  const Output out = eosim("run " + data("cli/unfired/relay-attempt.toml"));
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "net.relay->broker  drop  order 2  attempt 1"));
  CHECK_FALSE(contains(out.text, "WARNING"));
}

TEST_CASE("cli: --strategy that never passes a scripted site is bad input", "[cli][unfired]") {
  const Output out = eosim("run " + quoted(source_path("scenarios/14-relay-crash-duplicate-publish.toml")) +
                           " --producer dual-write");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "key `faults.script[1].at`: relay.after_publish is never passed"));
}

TEST_CASE("cli: a duplicate publish by the relay is named as a republish, not a redelivery",
          "[cli]") {
  const std::string file = quoted(source_path("scenarios/14-relay-crash-duplicate-publish.toml"));
  const Output text = eosim("run " + file);
  CHECK(contains(text.text, "redeliveries:   0"));
  CHECK(contains(text.text, "republished:    1 (the relay published a row again)"));
  const nlohmann::json j = nlohmann::json::parse(eosim_stdout("run " + file + " --format json").text);
  CHECK(j["redeliveries"] == 0);
  CHECK(j["republished"] == 1);
  // A run with no republish says nothing of it in text, and 0 in JSON.
  const std::string happy = quoted(source_path("scenarios/01-happy-path.toml"));
  CHECK_FALSE(contains(eosim("run " + happy).text, "republished"));
  CHECK(nlohmann::json::parse(eosim_stdout("run " + happy + " --format json").text)["republished"] == 0);
}

TEST_CASE("cli: a design with a separate dedup store counts the store's keys as dedup rows",
          "[cli]") {
  // Scenario 07: orders 1 and 3 debited, order 2 marked in the store and its debit lost.
  const auto json = nlohmann::json::parse(
      eosim_stdout("run " + cli_runner::scenario_arg("07-separate-dedup-store.toml") +
                   " --format json")
          .text);
  for (const auto& order : json.at("orders")) {
    INFO("order " << order.at("order"));
    CHECK(order.at("dedup_rows").get<int>() == 1);
  }
  const Output text = eosim("run " + cli_runner::scenario_arg("07-separate-dedup-store.toml"));
  CHECK(contains(text.text, "(dedup rows: the message's key in the separate dedup store"));
  // A design that keeps its keys in the ledger has no such note.
  const Output atomic = eosim("run " + cli_runner::scenario_arg("02-crash-between-commit-and-ack.toml"));
  CHECK_FALSE(contains(atomic.text, "separate dedup store"));
}
