// The broker's own faults and settings live: broker.restart and broker.crash stop and
// restart the private RabbitMQ eosim starts, [broker] consumer_timeout sets it on that
// node; with --broker (a broker of the user's) all three are refused. Each eosim run here
// starts its own private broker with TMPDIR pointing into the test's folder, so "nothing
// left running" is checked exactly: no process carries that TMPDIR in its environment.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tests/live/live_cli.h"

namespace {

using live_test::debits_of;
using live_test::kSource;
using live_test::number_of;
using live_test::Outcome;
using live_test::processes_with_env;
using live_test::TempDir;

namespace fs = std::filesystem;

// The JSON summaries of a run over several scenarios, by scenario name.
std::map<std::string, nlohmann::json> summaries(const std::string& text) {
  std::map<std::string, nlohmann::json> by_name;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;
    const nlohmann::json j = nlohmann::json::parse(line);
    by_name[j["scenario"].get<std::string>()] = j;
  }
  return by_name;
}

std::string scenario_file(const std::string& prefix) {
  for (const auto& e : fs::directory_iterator(kSource + "/scenarios")) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return e.path().string();
  }
  FAIL("no scenario " << prefix);
  return "";
}

}  // namespace

TEST_CASE("live: broker.restart, broker.crash and consumer_timeout on the private broker",
          "[live-broker]") {
  TempDir dir;
  const std::string folder = dir.path + "/scenarios";
  fs::create_directories(folder);
  for (const char* prefix : {"15-", "21-", "23-"}) {
    const std::string from = scenario_file(prefix);
    fs::copy_file(from, folder + "/" + fs::path(from).filename().string());
  }
  const std::string keep = dir.path + "/runs";
  const std::string tmpdir = "TMPDIR=" + dir.path;
  // 30 ms a tick: scenario 21's consumer_timeout (105 ticks) must expire before order 3's
  // commit (about 120 ticks in), a margin that 10 ms ticks make thin on a loaded machine.
  const Outcome o = live_test::eosim({"live", folder, "--tick-ms", "30", "--format", "json", "--keep-db",
                           keep},
                          dir, {tmpdir}, 400000);
  INFO(o.out);
  CHECK(o.exit_code == 0);  // every file's expectations met
  const auto runs = summaries(o.out);
  REQUIRE(runs.size() == 3);

  // 15: the relay without confirms publishes order 2 as the broker stops: gone.
  const nlohmann::json& restart = runs.at("outbox without confirms, broker restart");
  CHECK(restart["verdict"] == "lost");
  CHECK(restart["lost"] == nlohmann::json::array({2}));
  CHECK(restart["broker_restarts"] == 1);
  REQUIRE(restart["faults_fired"].size() == 1);
  CHECK(restart["faults_fired"][0]["site"] == "broker.restart");
  const std::string ledger15 = keep + "/15-outbox-no-confirm-restart/ledger.db";
  CHECK(debits_of(ledger15, 1) == 1);
  CHECK(debits_of(ledger15, 2) == 0);
  CHECK(debits_of(ledger15, 3) == 1);

  // 23: killed with order 2 in the queue; it comes back flagged redelivered.
  const nlohmann::json& crash = runs.at("unclean broker crash: redelivered lies");
  CHECK(crash["verdict"] == "exactly-once");
  CHECK(crash["broker_restarts"] == 1);
  REQUIRE(crash["faults_fired"].size() == 1);
  CHECK(crash["faults_fired"][0]["site"] == "broker.crash");
  const std::string run23 = keep + "/23-broker-crash-redelivered-lies";
  CHECK(number_of(run23 + "/deliveries.db",
                  "SELECT redelivered FROM deliveries WHERE order_id = ?1", 2) >= 1);
  for (std::int64_t order = 1; order <= 3; ++order) {
    CHECK(debits_of(run23 + "/ledger.db", order) == 1);
  }

  // 21: order 3 outlives consumer_timeout unacked, is requeued and debited twice.
  const nlohmann::json& timeout = runs.at("slow consumer past consumer_timeout (no dedup)");
  CHECK(timeout["verdict"] == "duplicated");
  CHECK(timeout["duplicated"] == nlohmann::json::array({3}));
  CHECK(timeout["broker_restarts"] == 0);
  const std::string run21 = keep + "/21-slow-consumer-timeout-no-dedup";
  CHECK(debits_of(run21 + "/ledger.db", 3) == 2);
  CHECK(number_of(run21 + "/deliveries.db",
                  "SELECT redelivered FROM deliveries WHERE order_id = ?1", 3) == 1);

  CHECK(processes_with_env(tmpdir) == 0);  // no actor, node or epmd left
}

TEST_CASE("live: the broker's faults and settings are refused on a broker of the user's",
          "[live-refuse]") {
  TempDir dir;
  // The refusal comes before any connection: the URL need not lead anywhere.
  const std::string url = "amqp://guest:guest@127.0.0.1:1/";
  SECTION("broker.restart") {
    const Outcome o = live_test::eosim({"live", scenario_file("15-"), "--broker", url}, dir);
    CHECK(o.exit_code == 2);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
    CHECK(o.out.find("broker.restart") != std::string::npos);
    CHECK(o.out.find("--broker") != std::string::npos);
  }
  SECTION("broker.crash") {
    const Outcome o = live_test::eosim({"live", scenario_file("23-"), "--broker", url}, dir);
    CHECK(o.exit_code == 2);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
    CHECK(o.out.find("broker.crash") != std::string::npos);
  }
  SECTION("consumer_timeout") {
    const Outcome o = live_test::eosim({"live", scenario_file("20-"), "--broker", url}, dir);
    CHECK(o.exit_code == 2);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
    CHECK(o.out.find("consumer_timeout") != std::string::npos);
  }
}

TEST_CASE("live: without rabbitmq-server, one line naming it, exit 2, nothing started",
          "[live-refuse]") {
  TempDir dir;
  const std::string tmpdir = "TMPDIR=" + dir.path;
  const Outcome o = live_test::eosim({"live", scenario_file("02-")}, dir,
                          {"EOSIM_RABBITMQ_BIN=" + dir.path + "/no-rabbitmq", tmpdir});
  CHECK(o.exit_code == 2);
  CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  CHECK(o.out.find("rabbitmq-server is not installed") != std::string::npos);
  CHECK(o.out.find(dir.path + "/no-rabbitmq/rabbitmq-server") != std::string::npos);
  CHECK(processes_with_env(tmpdir) == 0);
}
