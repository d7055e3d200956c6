// `eosim live --dedup-store redis`: the separate dedup store on a private redis-server, the
// debit in the ledger's database, no transaction spanning the two. Scenario 07 (the key set
// first, the commit fails) loses order 2: the redelivery finds the key and is acked without
// a debit. Scenario 33 (the key set after the commit, a crash between) debits order 2
// twice. dedup_retention is the key's TTL: a key that expires before the redelivery lets
// the debit run again; one that outlives it stops it. With --store postgres the ledger is a
// real PostgreSQL: Redis and PostgreSQL, the two stores of the anti-pattern, and order 2
// lost all the same. The keys were in Redis (the report counts them there; no dedup.db is
// made), and nothing the runs started is left running. The consumers reach Redis through
// the fault proxy (resp_wire.h): scenario 51 drops the reply to order 2's SET NX there,
// and order 2 is lost, as in the model; its twin (40: the key in the ledger's
// transaction, the COMMIT's reply lost) debits once. Outcomes only: the test never looks
// at how long anything took.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "tests/live/live_cli.h"

namespace {

namespace fs = std::filesystem;

// Scenario 38 with a retention that outlives the redelivery (its fixed twin): a separate
// store marked first, a crash after the commit; the redelivery waits for the consumer's
// restart (20 ticks), and a key still there stops a second debit.
std::string redis_expiring_scenario(int retention, const char* verdict) {
  return std::string("name = \"separate store, dedup_retention ") + std::to_string(retention) +
         "\"\nseed = 38\n[workload]\norders = 3\namount = 150\ninitial_balance = 1000\n"
         "[consumer]\nstrategy = \"separate-dedup-store\"\ndedup_retention = " +
         std::to_string(retention) +
         "\n[[faults.script]]\nat = \"consumer.after_commit\"\norder = 2\nattempt = 1\n"
         "do = \"crash\"\n[expect]\nverdict = \"" +
         verdict + "\"\n";
}

// The JSON report of every run, by scenario file stem ("07-separate-dedup-store", ...).
std::map<std::string, nlohmann::json> redis_reports(const std::string& out) {
  std::map<std::string, nlohmann::json> by_stem;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() != '{') continue;
    const nlohmann::json j = nlohmann::json::parse(line);
    by_stem[fs::path(j["run_dir"].get<std::string>()).filename().string()] = j;
  }
  return by_stem;
}

std::map<int, int> redis_debits(const nlohmann::json& summary) {
  std::map<int, int> out;
  for (const auto& o : summary["orders"]) out[o["order"].get<int>()] = o["debits"].get<int>();
  return out;
}

}  // namespace

TEST_CASE(
    "live --dedup-store redis: marking first loses, marking after the commit duplicates, "
    "the TTL decides",
    "[live-redis-run]") {
  live_test::TempDir dir;
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};
  std::ofstream(dir.path + "/outlives.toml") << redis_expiring_scenario(100000, "exactly-once");
  const std::string kept = dir.path + "/kept";

  const auto r = live_test::eosim(
      {"live", "--dedup-store", "redis", "--format", "json", "--keep-db", kept,
       live_test::kSource + "/scenarios/07-separate-dedup-store.toml",
       live_test::kSource + "/scenarios/33-separate-store-mark-after-commit.toml",
       live_test::kSource + "/scenarios/38-separate-store-key-expired.toml",
       dir.path + "/outlives.toml", live_test::kSource + "/scenarios/51-dedup-mark-reply-lost.toml",
       live_test::kSource + "/scenarios/40-commit-reply-lost-atomic.toml"},
      dir, env);
  INFO(r.out);
  CHECK(r.exit_code == 0);  // every file's [expect] met, as in the model
  auto runs = redis_reports(r.out);
  REQUIRE(runs.size() == 6);

  const nlohmann::json& first = runs["07-separate-dedup-store"];
  CHECK(first["verdict"] == "lost");
  CHECK(redis_debits(first) == std::map<int, int>{{1, 1}, {2, 0}, {3, 1}});
  CHECK(first["dedup_store"] == "redis");
  CHECK(first["dedup_keys"] == 3);  // order 2's key too, whose debit rolled back
  CHECK_FALSE(fs::exists(kept + "/07-separate-dedup-store/dedup.db"));
  std::ifstream trace(kept + "/07-separate-dedup-store/trace.jsonl");
  const std::string events((std::istreambuf_iterator<char>(trace)),
                           std::istreambuf_iterator<char>());
  CHECK(events.find("order-2 marked seen in the separate store but never applied") !=
        std::string::npos);

  const nlohmann::json& after = runs["33-separate-store-mark-after-commit"];
  CHECK(after["verdict"] == "duplicated");
  CHECK(redis_debits(after).at(2) == 2);
  CHECK(after["dedup_keys"] == 3);

  const nlohmann::json& expires = runs["38-separate-store-key-expired"];
  CHECK(expires["verdict"] == "duplicated");
  CHECK(redis_debits(expires).at(2) == 2);
  CHECK(expires["dedup_ttl_ms"] == 5 * expires["tick_ms"].get<int>());

  const nlohmann::json& outlives = runs["outlives"];
  CHECK(outlives["verdict"] == "exactly-once");
  CHECK(redis_debits(outlives) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
  CHECK(outlives["dedup_keys"] == 3);
  CHECK(outlives["redeliveries"].get<int>() >= 1);  // the key stopped a real redelivery

  // Every consumer reached Redis through the fault proxy, which dropped nothing unasked.
  for (const char* stem : {"07-separate-dedup-store", "33-separate-store-mark-after-commit",
                           "38-separate-store-key-expired", "outlives"}) {
    INFO(stem);
    CHECK(runs[stem]["dedup_link"]["proxied"] == true);
    CHECK(runs[stem]["dedup_link"]["connections"].get<int>() >= 1);
    CHECK(runs[stem]["dedup_link"]["mark_replies_dropped"] == 0);
  }
  // dedup.mark_reply: the proxy dropped the +OK of order 2's SET NX and reset the
  // consumer's connection; the key was set, the redelivery found it: order 2 lost.
  const nlohmann::json& reply = runs["51-dedup-mark-reply-lost"];
  CHECK(reply["verdict"] == "lost");
  CHECK(redis_debits(reply) == std::map<int, int>{{1, 1}, {2, 0}, {3, 1}});
  CHECK(reply["dedup_link"]["mark_replies_dropped"] == 1);
  CHECK(reply["dedup_link"]["connections"].get<int>() >= 2);  // the consumer connected again
  CHECK(reply["dedup_keys"] == 3);
  CHECK(reply["faults_fired"][0]["site"] == "dedup.mark_reply");
  // Its fixed twin: the key in the ledger's transaction, the COMMIT's reply lost: once.
  const nlohmann::json& twin = runs["40-commit-reply-lost-atomic"];
  CHECK(twin["verdict"] == "exactly-once");
  CHECK(redis_debits(twin) == std::map<int, int>{{1, 1}, {2, 1}, {3, 1}});
  CHECK_FALSE(twin.contains("dedup_store"));

  CHECK(live_test::processes_with_env("TMPDIR=" + tmp) == 0);
  std::error_code ec;
  CHECK(fs::is_empty(tmp, ec));  // the private servers' folders are gone too
}

TEST_CASE("live --store postgres --dedup-store redis: two stores, order 2 lost",
          "[live-redis-postgres]") {
  live_test::TempDir dir;
  ::chmod(dir.path.c_str(), 0711);  // the private PostgreSQL runs as user postgres
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::vector<std::string> env = {"TMPDIR=" + tmp};
  const auto r =
      live_test::eosim({"live", "--store", "postgres", "--dedup-store", "redis", "--format", "json",
                        live_test::kSource + "/scenarios/07-separate-dedup-store.toml"},
                       dir, env);
  INFO(r.out);
  CHECK(r.exit_code == 0);
  const nlohmann::json j = live_test::last_json_line(r.out);
  CHECK(j["store"] == "postgres");
  CHECK(j["dedup_store"] == "redis");
  CHECK(j["verdict"] == "lost");
  CHECK(redis_debits(j).at(2) == 0);
  CHECK(j["dedup_keys"] == 3);

  // The atomic design on the same two servers: its key is in the ledger's transaction.
  const auto a = live_test::eosim(
      {"live", "--store", "postgres", "--dedup-store", "redis", "--format", "json", "--strategy",
       "atomic", live_test::kSource + "/scenarios/07-separate-dedup-store.toml"},
      dir, env);
  INFO(a.out);
  const nlohmann::json k = live_test::last_json_line(a.out);
  CHECK(k["verdict"] == "exactly-once");
  CHECK_FALSE(k.contains("dedup_store"));  // no separate store: Redis had nothing to keep

  CHECK(live_test::processes_with_env("TMPDIR=" + tmp) == 0);
  std::error_code ec;
  CHECK(fs::is_empty(tmp, ec));
}
