// `eosim live --store postgres --compare`: a few scenarios, each run in the model (SQLite)
// and live with its stores on a private PostgreSQL, must agree - the verdict and each
// order's outcome and debits. Chosen for what PostgreSQL itself decides in them: 02 (a
// redelivery stopped by the server's unique_violation, 23505), 09 (a failed commit rolled
// back and run again), 17 (two consumers racing for one key under read committed: the
// loser's INSERT waits for the winner's commit and gets 23505), 49 and 50 (two consumers
// each check order 1's debit inside their open transaction, no unique key: under read
// committed both debit, under serializable the server refuses the second with 40001 and
// the retry finds the debit; the kept trace holds the server's own words). The whole
// folder is compared by hand (docs/postgres.md); this is what CI runs. Nothing is left
// running.
// At 30 ms a tick, as live_compare: a loaded machine has crossed margins of a few ticks.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "tests/live/live_cli.h"

TEST_CASE("live --store postgres --compare: model and PostgreSQL agree",
          "[live-postgres-compare]") {
  live_test::TempDir dir;
  ::chmod(dir.path.c_str(), 0711);  // the private PostgreSQL runs as user postgres
  const std::string tmp = dir.path + "/tmp";
  std::filesystem::create_directories(tmp);
  const std::string tmpdir = "TMPDIR=" + tmp;
  const std::string folder = live_test::kSource + "/scenarios/";
  const std::vector<std::string> files = {
      "02-crash-between-commit-and-ack.toml", "09-transient-error-atomic.toml",
      "17-competing-consumers-atomic.toml", "49-check-in-transaction-read-committed.toml",
      "50-check-in-transaction-serializable.toml"};
  const std::string kept = dir.path + "/kept";
  std::vector<std::string> args = {"live", "--store",  "postgres", "--compare", "--tick-ms",
                                   "30",   "--format", "json",     "--keep-db", kept};
  for (const std::string& f : files) args.push_back(folder + f);
  const live_test::Outcome o = live_test::eosim(args, dir, {tmpdir}, 580000);
  INFO(o.out);
  CHECK(o.exit_code == 0);
  std::vector<nlohmann::json> lines;
  std::istringstream text(o.out);
  for (std::string line; std::getline(text, line);) {
    if (!line.empty() && line.front() == '{') lines.push_back(nlohmann::json::parse(line));
  }
  REQUIRE(lines.size() == files.size() + 1);  // one object per scenario, then the tally
  for (std::size_t i = 0; i < files.size(); ++i) {
    INFO(files[i]);
    CHECK(lines[i]["file"] == folder + files[i]);
    CHECK(lines[i]["store"] == "postgres");
    CHECK(lines[i]["compared"] == true);
    CHECK(lines[i]["agree"] == true);
    CHECK(lines[i]["reasons"].empty());
    CHECK(lines[i]["live"]["verdict"] == lines[i]["model"]["verdict"]);
  }
  // The isolation race: read committed debits order 1 twice, serializable once, and the
  // refusal was the server's (40001), at the serializable level only.
  CHECK(lines[3]["live"]["verdict"] == "duplicated");
  CHECK(lines[4]["live"]["verdict"] == "exactly-once");
  const auto trace_of = [&](const std::string& stem) {  // both consumers' own traces
    std::string traces;
    for (const char* node : {"consumer1", "consumer2"}) {
      std::ifstream in(kept + "/" + stem + "/trace-" + node + ".jsonl");
      traces.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return traces;
  };
  const std::string refused = "SQLSTATE 40001): PostgreSQL: ERROR:  could not serialize access";
  CHECK(trace_of("50-check-in-transaction-serializable").find(refused) != std::string::npos);
  const std::string committed = trace_of("49-check-in-transaction-read-committed");
  CHECK(committed.find("not in debits") != std::string::npos);
  CHECK(committed.find("40001") == std::string::npos);
  CHECK(lines.back()["tally"]["agree"] == files.size());
  CHECK(lines.back()["tally"]["disagree"] == 0);
  CHECK(live_test::processes_with_env(tmpdir) == 0);
  std::error_code ec;
  CHECK(std::filesystem::is_empty(tmp, ec));  // the private servers' folders are gone too
}
