// `eosim live` tells the truth: what it cannot know is never a verdict, a scripted fault
// counts live as in the model, and the broker's own reason reaches the user.
//  - [live-truth]: runs against the test binary's private broker (real_broker.h) as a
//    broker of the user's (--broker);
//  - [live-lost]: a broker of the test's own, stopped while a run uses it.
// Asserted: exit codes, what the report or error says, which rules fired - what the
// broker guarantees, never how long anything took.
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <sqlite3.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "src/live/launcher.h"
#include "src/live/process.h"
#include "tests/live/live_cli.h"
#include "tests/live/real_broker.h"

namespace {

using namespace live_test;

const std::string kTruth = kSource + "/tests/data/live/truth/";

// Whether the run's faults_fired holds a fault at `site` for `order` on `attempt`.
bool fired(const nlohmann::json& run, const std::string& site, std::int64_t order,
           std::int64_t attempt) {
  for (const auto& f : run["faults_fired"]) {
    if (f["site"] == site && f["order"] == order && f["attempt"] == attempt) return true;
  }
  return false;
}

// The orders committed so far in a run folder's orders.db (0 while it cannot be read).
std::int64_t orders_committed(const std::string& dir) {
  sqlite3* db = nullptr;
  std::int64_t n = 0;
  if (sqlite3_open_v2((dir + "/orders.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM orders", -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      n = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return n;
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("live: a scripted rule that never fired fails the run's expectations, as in the "
          "model", "[live-truth]") {
  TempDir dir;
  const Outcome o = live_test::eosim({"live", kTruth + "unmatchable-rule.toml", "--broker",
                           real_broker().url, "--format", "json"},
                          dir);
  INFO(o.out);
  CHECK(o.exit_code == 1);
  const nlohmann::json j = last_json_line(o.out);
  CHECK(j["verdict"] == "exactly-once");
  CHECK(j["expect_ok"] == false);
  REQUIRE(j["unfired"].size() == 1);
  CHECK(j["unfired"][0]["rule"] == 1);
  // What it ran against, for the record.
  CHECK(j["broker"]["product"] == "RabbitMQ");
  CHECK(!j["broker"]["version"].get<std::string>().empty());
  CHECK(!j["eosim_version"].get<std::string>().empty());
}

// Order 2's first delivery is dropped on the wire, so the consumer first reads it on the
// broker's second delivery: the rule on attempt 2 must fire every time - the attempt is
// the broker's count, never the deliveries a consumer happened to read.
TEST_CASE("live: a rule on attempt 2 fires in 20 of 20 runs", "[live-truth]") {
  TempDir dir;
  std::vector<std::string> args = {"live"};
  for (int i = 0; i < 20; ++i) args.push_back(kTruth + "attempt-2.toml");
  for (const char* a : {"--broker", "", "--format", "json"}) args.push_back(a);
  args[args.size() - 3] = real_broker().url;
  const Outcome o = live_test::eosim(args, dir, {}, 600000);
  INFO(o.out);
  const std::vector<nlohmann::json> runs = json_lines(o.out);
  REQUIRE(runs.size() == 20);
  int both = 0;
  for (const nlohmann::json& run : runs) {
    const bool crashed = fired(run, "consumer.after_commit", 2, 2);
    const bool dropped = fired(run, "net.broker->consumer", 2, 1);
    both += crashed && dropped ? 1 : 0;
    CHECK(run["verdict"] == "exactly-once");
    CHECK(run["unfired"].empty());
  }
  CHECK(both == 20);
  CHECK(o.exit_code == 0);
}

TEST_CASE("live: the broker's own reason, exit 2, never the password", "[live-truth]") {
  const live::Endpoint& broker = broker_endpoint();
  TempDir dir;
  const std::string scenario = kSource + "/scenarios/01-happy-path.toml";
  const std::string at = "@" + broker.host + ":" + std::to_string(broker.port);
  SECTION("a wrong password") {
    const Outcome o = live_test::eosim({"live", scenario, "--broker",
                             "amqp://" + broker.user + ":Wr0ngSecret" + at + "/"},
                            dir);
    INFO(o.out);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("403") != std::string::npos);
    CHECK(o.out.find("ACCESS_REFUSED") != std::string::npos);
    CHECK(o.out.find("Wr0ngSecret") == std::string::npos);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  }
  SECTION("a vhost the broker does not have") {
    const Outcome o = live_test::eosim({"live", scenario, "--broker",
                             "amqp://" + broker.user + ":" + broker.password + at + "/no-such-vhost"},
                            dir);
    INFO(o.out);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("530") != std::string::npos);
    CHECK(o.out.find("NOT_ALLOWED") != std::string::npos);
  }
}

// A user the broker knows but does not let do what a run needs: the broker's refusal is
// the answer (exit 2, its reply code and text), never a verdict about the design. Users
// are made on the test binary's private broker (rabbitmqctl), so not with EOSIM_AMQP_URL.
TEST_CASE("live: a user without permission gets the broker's reason, never a verdict",
          "[live-truth]") {
  live::PrivateBroker* broker = real_broker().broker.get();
  if (broker == nullptr) {
    WARN("EOSIM_AMQP_URL names a broker of yours: no users are made on it, so not checked");
    return;
  }
  TempDir dir;
  const live::Endpoint& e = broker->endpoint();
  const std::string at = "@" + e.host + ":" + std::to_string(e.port) + "/";
  const std::string scenario = kSource + "/scenarios/01-happy-path.toml";
  const auto no_verdict = [](const std::string& out) {
    CHECK(out.find("verdict:") == std::string::npos);  // no report
    CHECK(out.find("exactly-once") == std::string::npos);
    CHECK(out.find("STUCK") == std::string::npos);
    CHECK(out.find("LOST") == std::string::npos);
  };
  SECTION("a user who may publish and read but not declare a queue: 403 ACCESS_REFUSED") {
    REQUIRE(broker->add_user("eosim-reader", "pw-reader-7f3").ok());
    REQUIRE(broker->set_permissions("eosim-reader", "", ".*", ".*").ok());
    const Outcome o =
        live_test::eosim({"live", scenario, "--broker", "amqp://eosim-reader:pw-reader-7f3" + at}, dir);
    INFO(o.out);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("403 ACCESS_REFUSED") != std::string::npos);
    CHECK(o.out.find("eosim-reader") != std::string::npos);  // the broker's own text
    CHECK(o.out.find("pw-reader-7f3") == std::string::npos);
    no_verdict(o.out);
  }
  SECTION("a user with no access to the vhost: 530 NOT_ALLOWED") {
    REQUIRE(broker->add_user("eosim-nobody", "pw-nobody-7f3").ok());
    const Outcome o =
        live_test::eosim({"live", scenario, "--broker", "amqp://eosim-nobody:pw-nobody-7f3" + at}, dir);
    INFO(o.out);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("530 NOT_ALLOWED") != std::string::npos);
    CHECK(o.out.find("pw-nobody-7f3") == std::string::npos);
    no_verdict(o.out);
  }
}

// A broker of the user's stopped while a run uses it (and not back within the run's
// bound): the run cannot read its queues, so it has no verdict - never LOST or STUCK for
// orders that may still sit in the durable queue - and names the queues it leaves there.
TEST_CASE("live: a broker lost mid-run ends the run with an error, never a verdict",
          "[live-lost]") {
  TempDir dir;
  std::unique_ptr<live::PrivateBroker> broker;  // the user's broker, for this test alone
  const live::Status started = live::PrivateBroker::start({}, broker);
  INFO(started.message);
  REQUIRE(started.ok());
  const std::string keep = dir.path + "/run";
  live::ChildSpec spec;
  // 20 ms a tick: the orders come 200 ms apart, the broker goes after the first. With
  // --timeout 8 the run's bound outlasts the quiet period (2 s), so a run that counted an
  // unreadable queue as empty would settle and judge.
  spec.argv = {EOSIM_BINARY, "live", kSource + "/scenarios/01-happy-path.toml", "--broker",
               broker->endpoint().login_url(), "--tick-ms", "20", "--timeout", "8",
               "--keep-db", keep};
  spec.output_path = dir.path + "/eosim.out";
  pid_t pid = 0;
  REQUIRE(live::spawn(spec, pid).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (orders_committed(keep) < 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  REQUIRE(orders_committed(keep) >= 1);
  broker->stop();
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  live::signal_group(pid, SIGKILL);  // only if it overran the deadline
  live::unregister_group(pid);
  const std::string out = file_text(spec.output_path);
  INFO(out);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(out.find("LOST") == std::string::npos);
  CHECK(out.find("STUCK") == std::string::npos);
  CHECK(out.find("verdict:") == std::string::npos);  // no report
  CHECK(out.find("no verdict") != std::string::npos);
  CHECK(out.find(broker->endpoint().host + ":" + std::to_string(broker->endpoint().port)) !=
        std::string::npos);
  CHECK(out.find("left on") != std::string::npos);
  CHECK(out.find("-orders") != std::string::npos);  // the run's queue, named
  CHECK(processes_mentioning(keep) == 0);
}

TEST_CASE("live --compare over a folder: JSON per scenario, a tally, exit 2 for the refused",
          "[live-truth]") {
  TempDir dir;
  const Outcome o = live_test::eosim({"live", "--compare", kTruth, "--broker", real_broker().url,
                           "--format", "json"},
                          dir);
  INFO(o.out);
  CHECK(o.exit_code == 2);  // two of the folder's scenarios are refused live
  const std::vector<nlohmann::json> lines = json_lines(o.out);
  REQUIRE(lines.size() == 5);  // four scenarios, then the tally
  int refused = 0;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    if (lines[i].contains("refused")) {
      ++refused;
    } else {
      CHECK(lines[i]["agree"] == true);
      CHECK(lines[i]["reasons"].empty());
    }
  }
  CHECK(refused == 2);
  const nlohmann::json& tally = lines.back()["tally"];
  CHECK(tally["agree"] == 2);
  CHECK(tally["disagree"] == 0);
  CHECK(tally["refused"] == 2);
}

TEST_CASE("live: a key a live run cannot honour is refused, naming it", "[live-refuse]") {
  TempDir dir;
  SECTION("[network] latency") {
    const Outcome o = live_test::eosim({"live", kTruth + "latency.toml"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("latency_min") != std::string::npos);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  }
  SECTION("nth on an actor's own site") {
    const Outcome o = live_test::eosim({"live", kTruth + "nth-on-crash-site.toml"}, dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("faults.script[1].nth") != std::string::npos);
    CHECK(std::count(o.out.begin(), o.out.end(), '\n') == 1);
  }
  SECTION("a malformed URL is never echoed with its password") {
    const Outcome o =
        live_test::eosim({"live", kTruth + "unmatchable-rule.toml", "--broker", "amqp://me:S3cret@host:99999/"},
              dir);
    CHECK(o.exit_code == 2);
    CHECK(o.out.find("S3cret") == std::string::npos);
    CHECK(o.out.find("me:***@") != std::string::npos);
  }
}

// Before any broker starts: EOSIM_RABBITMQ_BIN points at an empty folder, so a command
// that got as far as starting one would fail saying rabbitmq-server is missing.
TEST_CASE("live: a used --keep-db folder is refused before the broker starts",
          "[live-refuse]") {
  TempDir dir;
  const std::string keep = dir.path + "/run";
  std::filesystem::create_directories(keep);
  std::ofstream(keep + "/orders.db") << "a user's file";
  const std::string empty = dir.path + "/no-rabbitmq";
  std::filesystem::create_directories(empty);
  const Outcome o = live_test::eosim({"live", kTruth + "unmatchable-rule.toml", "--keep-db", keep}, dir,
                          {"EOSIM_RABBITMQ_BIN=" + empty});
  INFO(o.out);
  CHECK(o.exit_code == 2);
  CHECK(o.out.find("orders.db is already there") != std::string::npos);
  CHECK(o.out.find("rabbitmq") == std::string::npos);
  CHECK(file_text(keep + "/orders.db") == "a user's file");
}

// A folder of an eosim killed with SIGKILL holds an eosim.lock nobody holds: the next run
// removes it and says so. A folder with no lock, or with a lock someone holds, stays.
TEST_CASE("live: stale temporary folders of a killed eosim are removed, no others",
          "[live-refuse]") {
  TempDir dir;
  const std::string tmp = dir.path + "/tmp";
  std::filesystem::create_directories(tmp + "/eosim-live-dead01");
  std::ofstream(tmp + "/eosim-live-dead01/eosim.lock") << "12345\n";
  std::filesystem::create_directories(tmp + "/eosim-rabbit-nolock");
  std::filesystem::create_directories(tmp + "/eosim-live-alive1");
  const std::string held = tmp + "/eosim-live-alive1/eosim.lock";
  std::ofstream(held) << "1\n";
  const int fd = ::open(held.c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  REQUIRE(::flock(fd, LOCK_EX) == 0);  // a running eosim's
  const std::string empty = dir.path + "/no-rabbitmq";
  std::filesystem::create_directories(empty);
  const Outcome o = live_test::eosim({"live", kTruth + "unmatchable-rule.toml"}, dir,
                          {"TMPDIR=" + tmp, "EOSIM_RABBITMQ_BIN=" + empty});
  ::close(fd);
  INFO(o.out);
  CHECK(o.out.find("removed 1 temporary folder") != std::string::npos);
  CHECK(!std::filesystem::exists(tmp + "/eosim-live-dead01"));
  CHECK(std::filesystem::exists(tmp + "/eosim-rabbit-nolock"));
  CHECK(std::filesystem::exists(tmp + "/eosim-live-alive1"));
}
