// The database link's faults live (issue 25, item 4 in part). db.restart on the private
// PostgreSQL: the supervisor crashes the server (`-m immediate`) while order 2's
// transaction is open; under the separate dedup store on a private Redis the key set
// before the transaction survives the restart and the redelivery is skipped (order 2
// lost), under the atomic design the key rolls back with the debit (exactly-once).
// db.commit_reply on PostgreSQL, on the wire: the consumer's connection goes through the
// fault proxy, which lets order 2's COMMIT reach the server and drops its reply; on
// SQLite the consumer drops its own connection after the COMMIT. Either way no-dedup
// debits order 2 twice and the atomic design once. The order service's link meets the
// same two faults (db.producer_commit_reply on the wire, db.producer_restart) and writes
// the order again; the consumer meets a real 40001 and a real 40P01 from the server
// (db.serialization_failure, db.deadlock: a competing transaction on a second
// connection) and retries. Outcomes only; no process and no folder is left behind.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>

#include "tests/live/live_cli.h"

namespace {

namespace fs = std::filesystem;

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE(
    "live --store postgres: db.restart loses order 2 under a separate store in Redis, "
    "not under the atomic design; db.commit_reply drops the COMMIT's reply on the wire",
    "[live-db-restart]") {
  live_test::TempDir dir;
  ::chmod(dir.path.c_str(), 0711);  // the private PostgreSQL runs as user postgres
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};
  // One command, one broker and one server for the eight runs; the run folders kept, for
  // their traces.
  const std::string kept = dir.path + "/kept";
  const auto r = live_test::eosim(
      {"live", "--store", "postgres", "--dedup-store", "redis", "--format", "json",
       live_test::kSource + "/scenarios/41-database-restart-separate-store.toml",
       live_test::kSource + "/scenarios/42-database-restart-atomic.toml",
       live_test::kSource + "/scenarios/39-commit-reply-lost-no-dedup.toml",
       live_test::kSource + "/scenarios/40-commit-reply-lost-atomic.toml",
       live_test::kSource + "/scenarios/44-order-commit-reply-lost.toml",
       live_test::kSource + "/scenarios/45-order-database-restart.toml",
       live_test::kSource + "/scenarios/46-serialization-failure-retry.toml",
       live_test::kSource + "/scenarios/47-deadlock-retry.toml", "--keep-db", kept},
      dir, env);
  INFO(r.out);
  CHECK(r.exit_code == 0);  // every file's [expect] met
  auto runs = live_test::reports_by_scenario(r.out);
  REQUIRE(runs.size() == 8);
  const nlohmann::json& separate = runs["database restart under a separate dedup store"];
  CHECK(separate["verdict"] == "lost");
  CHECK(live_test::reported_debits_of(separate) == std::map<int, int>{{1, 1}, {2, 0}, {3, 1}});
  CHECK(separate["dedup_keys"] == 3);  // order 2's key outlived the restart
  const nlohmann::json& atomic = runs["database restart (atomic)"];
  CHECK(atomic["verdict"] == "exactly-once");
  CHECK(live_test::reported_debits_of(atomic) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
  CHECK(atomic["redeliveries"].get<int>() >= 1);  // order 2 came back after the restart

  // The reply to order 2's COMMIT lost between the server and the consumer: the debit
  // committed; without a key the redelivery debits again, with one it acks.
  for (const char* name : {"commit reply lost (no dedup)", "commit reply lost (atomic)"}) {
    const nlohmann::json& run = runs[name];
    INFO(name);
    CHECK(run["database_link"]["proxied"] == true);
    CHECK(run["database_link"]["commit_replies_dropped"] == 1);
  }
  CHECK(runs["commit reply lost (no dedup)"]["verdict"] == "duplicated");
  CHECK(live_test::reported_debits_of(runs["commit reply lost (no dedup)"]).at(2) == 2);
  CHECK(runs["commit reply lost (atomic)"]["verdict"] == "exactly-once");
  CHECK(live_test::reported_debits_of(runs["commit reply lost (atomic)"]) ==
        std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});

  // The order service's own link: the reply to order 2's COMMIT dropped on the wire, and
  // the server restarted with order 2's transaction open. Either way the service writes
  // order 2 again and every order is debited once.
  const nlohmann::json& reply = runs["order service: commit reply lost"];
  CHECK(reply["database_link"]["commit_replies_dropped"] == 1);
  const nlohmann::json& restart = runs["order service: database restart"];
  for (const nlohmann::json* run : {&reply, &restart}) {
    CHECK((*run)["verdict"] == "exactly-once");
    CHECK(live_test::reported_debits_of(*run) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
    REQUIRE((*run)["faults_fired"].size() == 1);
    CHECK((*run)["faults_fired"][0]["order"] == 2);
  }
  CHECK(reply["faults_fired"][0]["site"] == "db.producer_commit_reply");
  CHECK(restart["faults_fired"][0]["site"] == "db.producer_restart");

  // 40001 and 40P01 from the server itself, against a competing transaction: the atomic
  // consumer retries (order 2 redelivered, debited once). (48, the naive twin, runs on
  // SQLite in live_compare; here it would add a run for a path 47 already takes.)
  for (const char* name : {"serialization failure, retried", "deadlock, retried"}) {
    const nlohmann::json& run = runs[name];
    INFO(name);
    CHECK(run["verdict"] == "exactly-once");
    CHECK(live_test::reported_debits_of(run) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
    CHECK(run["redeliveries"].get<int>() >= 1);
  }
  // The SQLSTATEs were the server's (the consumer gives its own only where the conflict
  // cannot be staged, and says so).
  const std::string serialization = file_text(kept + "/46-serialization-failure-retry/trace.jsonl");
  CHECK(serialization.find("SQLSTATE 40001): PostgreSQL: ERROR:  could not serialize access") !=
        std::string::npos);
  const std::string deadlock = file_text(kept + "/47-deadlock-retry/trace.jsonl");
  CHECK(deadlock.find("SQLSTATE 40P01): PostgreSQL: ERROR:  deadlock detected") !=
        std::string::npos);
  CHECK(deadlock.find("could not be staged") == std::string::npos);

  CHECK(live_test::processes_with_env("TMPDIR=" + tmp) == 0);
  std::error_code ec;
  CHECK(fs::is_empty(tmp, ec));
}

TEST_CASE("live: db.commit_reply debits twice without a key, once with one", "[live-db-reply]") {
  live_test::TempDir dir;
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};
  const auto r =
      live_test::eosim({"live", "--format", "json",
                        live_test::kSource + "/scenarios/39-commit-reply-lost-no-dedup.toml",
                        live_test::kSource + "/scenarios/40-commit-reply-lost-atomic.toml"},
                       dir, env);
  INFO(r.out);
  CHECK(r.exit_code == 0);  // both files' [expect] met
  auto runs = live_test::reports_by_scenario(r.out);
  REQUIRE(runs.size() == 2);
  const nlohmann::json& naive = runs["commit reply lost (no dedup)"];
  CHECK(naive["verdict"] == "duplicated");
  CHECK(live_test::reported_debits_of(naive).at(2) == 2);
  const nlohmann::json& atomic = runs["commit reply lost (atomic)"];
  CHECK(atomic["verdict"] == "exactly-once");
  CHECK(live_test::reported_debits_of(atomic) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});

  CHECK(live_test::processes_with_env("TMPDIR=" + tmp) == 0);
}

TEST_CASE("live: db.restart is refused on a server of the user's", "[live-db-refuse]") {
  live_test::TempDir dir;
  const auto r =
      live_test::eosim({"live", "--store", "postgres://nobody:x@127.0.0.1:1/none",
                        live_test::kSource + "/scenarios/42-database-restart-atomic.toml"},
                       dir);
  INFO(r.out);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("restarts the database: only the private PostgreSQL") != std::string::npos);
}
