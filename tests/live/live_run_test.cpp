// `eosim live` end to end: the eosim binary against the private RabbitMQ this test binary
// starts (real_broker.h). Asserts outcomes only - verdicts, which orders, debits counted in
// the kept ledger.db, that no actor process is left - never how long anything took.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "tests/live/live_cli.h"
#include "tests/live/real_broker.h"

namespace {

using namespace live_test;

const std::string kScenario02 = kSource + "/scenarios/02-crash-between-commit-and-ack.toml";
const std::string kScenario10 = kSource + "/scenarios/10-poison-requeue-forever.toml";

}  // namespace

TEST_CASE("live: scenario 02 against RabbitMQ is exactly-once, order 2 redelivered once",
          "[live-run]") {
  live_test::broker_endpoint();
  TempDir dir;
  const std::string keep = dir.path + "/run";
  const Outcome o = live_test::eosim({"live", kScenario02, "--broker", live_test::real_broker().url,
                           "--format", "json", "--keep-db", keep},
                          dir);
  INFO(o.out);
  CHECK(o.exit_code == 0);
  const nlohmann::json j = last_json_line(o.out);
  CHECK(j["mode"] == "live");
  CHECK(j["verdict"] == "exactly-once");
  // Order 2 came twice, the second time redelivered. (How many other orders the crash
  // took back with it depends on how many sat in the prefetch buffer: timing, not checked.)
  CHECK(j["redeliveries"] >= 1);
  const std::string deliveries = keep + "/deliveries.db";
  CHECK(number_of(deliveries, "SELECT n FROM deliveries WHERE order_id = ?1", 2) == 2);
  CHECK(number_of(deliveries, "SELECT redelivered FROM deliveries WHERE order_id = ?1", 2) == 1);
  CHECK(j["restarts"] == 1);
  REQUIRE(j["faults_fired"].size() == 1);
  CHECK(j["faults_fired"][0]["site"] == "consumer.after_commit");
  for (std::int64_t order = 1; order <= 3; ++order) CHECK(debits_of(keep + "/ledger.db", order) == 1);
  CHECK(processes_mentioning(keep) == 0);
  // Where the run's time went: the parts add up to the run, the run ended drained (every
  // order applied, nothing left in the queue or held) by the short quiet period of at
  // least 0.5 s, and no server of the command's own is named (the broker is given).
  REQUIRE(j.contains("time_split"));
  const nlohmann::json& t = j.at("time_split");
  CHECK(t["run_ms"].get<std::int64_t>() ==
        t["setup_ms"].get<std::int64_t>() + j["wall_ms"].get<std::int64_t>() +
            t["quiet_ms"].get<std::int64_t>() + t["teardown_ms"].get<std::int64_t>());
  CHECK(t["starting_ms"].get<std::int64_t>() + t["working_ms"].get<std::int64_t>() ==
        j["wall_ms"].get<std::int64_t>());
  CHECK(t["drained"] == true);
  CHECK(t["quiet_ms"].get<std::int64_t>() >= 500);
  CHECK_FALSE(t.contains("broker_start_ms"));
}

TEST_CASE("live: with no-dedup, a real process killed between commit and ack debits order 2 "
          "twice", "[live-run]") {
  live_test::broker_endpoint();
  TempDir dir;
  const std::string keep = dir.path + "/run";
  const Outcome o = live_test::eosim({"live", kScenario02, "--strategy", "no-dedup", "--broker",
                           live_test::real_broker().url, "--format", "json", "--keep-db", keep},
                          dir);
  INFO(o.out);
  CHECK(o.exit_code == 1);  // the file expects exactly-once
  const nlohmann::json j = last_json_line(o.out);
  CHECK(j["verdict"] == "duplicated");
  CHECK(j["duplicated"] == nlohmann::json::array({2}));
  CHECK(debits_of(keep + "/ledger.db", 2) == 2);
  CHECK(debits_of(keep + "/ledger.db", 1) == 1);
  CHECK(debits_of(keep + "/ledger.db", 3) == 1);
  CHECK(processes_mentioning(keep) == 0);
}

// Scenario 01 is given twice: its second run keeps its files in 01-happy-path-2.
TEST_CASE("live --jobs 2: three scenario files at once, each judged as if it ran alone",
          "[live-run]") {
  live_test::broker_endpoint();
  TempDir dir;
  const std::string keep = dir.path + "/runs";
  const std::string s01 = kSource + "/scenarios/01-happy-path.toml";
  const std::string s03 = kSource + "/scenarios/03-crash-between-commit-and-ack-no-dedup.toml";
  const Outcome o = live_test::eosim({"live", "--jobs", "2", "--broker",
                                      live_test::real_broker().url, "--format", "json",
                                      "--keep-db", keep, s01, kScenario02, s03, s01},
                                     dir);
  INFO(o.out);
  CHECK(o.exit_code == 0);  // every file's own expectations met
  CHECK(live_test::json_lines(o.out).size() == 4);  // a report per run
  const std::map<std::string, nlohmann::json> runs = reports_by_scenario(o.out);
  REQUIRE(runs.size() == 3);
  for (const auto& [name, j] : runs) {
    INFO(name);
    CHECK(j["verdict"] == (j["strategy"] == "no-dedup" ? "duplicated" : "exactly-once"));
  }
  // Each run had its own folder and ledger: only scenario 03's debited order 2 twice.
  CHECK(debits_of(keep + "/03-crash-between-commit-and-ack-no-dedup/ledger.db", 2) == 2);
  CHECK(debits_of(keep + "/02-crash-between-commit-and-ack/ledger.db", 2) == 1);
  CHECK(debits_of(keep + "/01-happy-path/ledger.db", 2) == 1);
  CHECK(debits_of(keep + "/01-happy-path-2/ledger.db", 2) == 1);
  CHECK(processes_mentioning(keep) == 0);
}

TEST_CASE("live --compare: a run stopped at its timeout fails, even where the orders agree",
          "[live-run]") {
  live_test::broker_endpoint();
  TempDir dir;
  // A poison loop at 1 ms a tick: orders 1 and 3 are debited well within the second, and
  // order 2 is redelivered again and again, which the model's step bound ends; the run
  // names a loop only after a quiet period without an effect (1.5 s), which outlasts
  // --timeout 1: the run is stopped unsettled.
  const Outcome o = live_test::eosim({"live", "--compare", kScenario10, "--broker",
                                      live_test::real_broker().url, "--tick-ms", "1",
                                      "--timeout", "1"},
                                     dir);
  INFO(o.out);
  CHECK(o.out.find("stopped at the timeout") != std::string::npos);
  CHECK(o.exit_code == 1);
}

// A run stopped at its timeout had not settled: an order with no outcome yet may still be
// on its way, so it is unsettled, never lost, and the run is never a success.
TEST_CASE("live: a run stopped at its timeout is incomplete: nothing lost, nothing passed",
          "[live-run]") {
  live_test::broker_endpoint();
  TempDir dir;
  // Scenario 10 at 1 ms a tick: a poison loop, named only after 1.5 s without an effect,
  // which outlasts --timeout 1 (above). Scenario 01 at 40 ms a tick: orders come 0.4 s
  // apart, the last ones still on their way at the timeout.
  const auto [scenario, tick] = GENERATE(table<std::string, std::string>(
      {{kScenario10, "1"}, {kSource + "/scenarios/01-happy-path.toml", "40"}}));
  const Outcome o = live_test::eosim({"live", scenario, "--broker", live_test::real_broker().url,
                                      "--tick-ms", tick, "--timeout", "1", "--format", "json"},
                                     dir);
  INFO(o.out);
  CHECK(o.exit_code == 1);
  const nlohmann::json j = last_json_line(o.out);
  CHECK(j["timed_out"] == true);
  CHECK(j["verdict"] == "incomplete");  // neither has anything that could be duplicated
  CHECK(j["lost"] == nlohmann::json::array());
  CHECK(j["expect_ok"] == false);
  REQUIRE(j.contains("cut_short"));
  std::vector<std::int64_t> unsettled;
  for (const auto& order : j["orders"]) {
    CHECK(order["outcome"] != "lost");
    if (order["outcome"] == "unsettled") unsettled.push_back(order["order"].get<std::int64_t>());
  }
  CHECK(j["unsettled"] == nlohmann::json(unsettled));
}

TEST_CASE("live: what cannot run live is refused with one line and exit 2", "[live-refuse]") {
  TempDir dir;
  SECTION("random fault ratios") {
    const Outcome o = live_test::eosim({"live", kSource + "/tests/data/live/random-ratio.toml"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("random fault ratios") != std::string::npos);
  }
  SECTION("a tick trigger") {
    const Outcome o = live_test::eosim({"live", kSource + "/tests/data/live/tick-trigger.toml"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("tick or step") != std::string::npos);
  }
  SECTION("a client library timeout the real client cannot take") {
    const Outcome o = live_test::eosim({"live", kSource + "/tests/data/live/client-timeout.toml"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("client_timeout") != std::string::npos);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  }
  SECTION("a bad broker URL") {
    const Outcome o = live_test::eosim({"live", kScenario02, "--broker", "http://nowhere"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("--broker") != std::string::npos);
  }
  SECTION("an unreachable broker") {
    const Outcome o = live_test::eosim({"live", kScenario02, "--broker", "amqp://127.0.0.1:1/"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("unreachable") != std::string::npos);
  }
  SECTION("a live sweep given what it cannot run, before any broker starts") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--faults", "kill=1"}, "--faults needs --seeds A..B"},
        {{"--seeds", "1..3", "--faults", "crash=1"}, "KIND one of kill, drop, freeze"},
        {{"--seeds", "3..1"}, "--seeds must be A..B"},
        {{"--seeds", "1..3", "--compare"}, "do not go together"},
    };
    for (const auto& [more, says] : cases) {
      std::vector<std::string> args = {"live", kScenario02};
      args.insert(args.end(), more.begin(), more.end());
      const Outcome o = live_test::eosim(args, dir);
      INFO(o.out);
      CHECK(o.exit_code == 2);
      CHECK(o.out.find(says) != std::string::npos);
      CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
    }
  }
  SECTION("--jobs without a sweep, or with runs that would restart the one broker") {
    const std::string crash = kSource + "/scenarios/23-broker-crash-redelivered-lies.toml";
    // A clean restart (broker.restart) ends every run's connections as a crash does.
    const std::string restart = kSource + "/scenarios/15-outbox-no-confirm-restart.toml";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{kScenario02, "--jobs", "2"}, "or several scenario files at once"},
        {{crash, "--seeds", "1..4", "--jobs", "2"}, "restarts the broker or the database"},
        {{restart, "--seeds", "1..4", "--jobs", "2"}, "restarts the broker or the database"},
        {{kScenario02, "--seeds", "1..4", "--jobs", "17"}, "not in range 1 to 16"},
    };
    for (const auto& [more, says] : cases) {
      std::vector<std::string> args = {"live"};
      args.insert(args.end(), more.begin(), more.end());
      const Outcome o = live_test::eosim(args, dir);
      INFO(o.out);
      CHECK(o.exit_code == 2);
      CHECK(o.out.find(says) != std::string::npos);
    }
  }
  SECTION("every line of the refusal is one line") {
    const Outcome o = live_test::eosim({"live", kScenario02, "--broker", "amqp://127.0.0.1:1/"}, dir);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  }
}
