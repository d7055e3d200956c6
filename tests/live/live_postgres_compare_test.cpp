// `eosim live --store postgres --compare scenarios/`: every scenario that can run live, run
// in the model (SQLite) and live with its stores on a private PostgreSQL, must agree - the
// verdict, each order's outcome and debits, the scripted faults fired; the ones that
// cannot run live are refused with their reason (a refusal is not a pass: exit 2), as
// `live_compare` checks on SQLite files (tests/live/compare_suite.h). Among them what
// PostgreSQL itself decides: 02 (a redelivery stopped by the server's unique_violation,
// 23505), 09 (a failed commit rolled back and run again), 17 (two consumers racing for
// one key under read committed: the loser's INSERT waits for the winner's commit and gets
// 23505), 39-48 (the database link's faults, a real 40001 and 40P01), 49 and 50 (two
// consumers each check order 1's debit inside their open transaction, no unique key:
// under read committed both debit, under serializable the server refuses the second with
// 40001 and the retry finds the debit; the kept traces hold the server's own words).
// Two runs at a time on the one broker and server (--jobs 2); those that restart the
// broker or the database run alone afterwards. Nothing is left running.
// At 30 ms a tick, as live_compare: a loaded machine has crossed margins of a few ticks.
#include <sys/stat.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "tests/live/compare_suite.h"
#include "tests/live/live_cli.h"

TEST_CASE("live --store postgres --compare: model and PostgreSQL agree on every scenario",
          "[live-postgres-compare]") {
  live_test::TempDir dir;
  ::chmod(dir.path.c_str(), 0711);  // the private PostgreSQL runs as user postgres
  const std::string tmp = dir.path + "/tmp";
  std::filesystem::create_directories(tmp);
  const std::string tmpdir = "TMPDIR=" + tmp;
  const std::string folder = live_test::kSource + "/scenarios";
  const std::string kept = dir.path + "/kept";
  const live_test::Outcome o =
      live_test::eosim({"live", "--store", "postgres", "--compare", "--jobs", "2", "--tick-ms",
                        "30", "--format", "json", "--keep-db", kept, folder + "/"},
                       dir, {tmpdir}, 580000);
  INFO(o.out);  // every comparison, the refusals and their reasons

  // One object per scenario (by its file's name), in the order the runs ended; the tally.
  std::map<std::string, nlohmann::json> by_file;
  nlohmann::json tally;
  for (const nlohmann::json& j : live_test::json_lines(o.out)) {
    if (j.contains("tally")) tally = j["tally"];
    if (!j.contains("file")) continue;
    const std::string file =
        std::filesystem::path(j["file"].get<std::string>()).filename().string();
    CHECK(by_file.count(file) == 0);  // each file once
    by_file[file] = j;
  }
  const auto line_of = [&](const std::string& name) -> const nlohmann::json* {
    const auto it = by_file.find(name);
    return it == by_file.end() ? nullptr : &it->second;
  };
  std::size_t drained = 0;  // runs that settled by the short quiet period of a drained run
  const auto compared = [&](const std::string& name) {
    const nlohmann::json* j = line_of(name);
    if (j == nullptr || !j->value("compared", false)) return false;
    drained += (*j)["time_split"].value("drained", false) ? 1 : 0;
    CHECK((*j)["store"] == "postgres");
    CHECK((*j)["agree"] == true);
    CHECK((*j)["reasons"].empty());
    CHECK((*j)["live"]["verdict"] == (*j)["model"]["verdict"]);
    return true;
  };
  const auto refused = [&](const std::string& name) {
    const nlohmann::json* j = line_of(name);
    if (j == nullptr || !j->contains("refused")) return false;
    CHECK_FALSE((*j)["refused"].get<std::string>().empty());  // the reason, stated
    return true;
  };
  const live_test::SuiteCount c = live_test::each_compared_or_refused(folder, compared, refused);
  CHECK(by_file.size() == c.files);
  CHECK(tally["agree"] == c.compared);
  CHECK(tally["disagree"] == 0);
  CHECK(tally["refused"] == c.refused);
  CHECK(tally["not_compared"] == 0);
  CHECK(tally["failed"] == 0);
  // The drained rule reads the run's tables on the server as on SQLite files (on
  // PostgreSQL 15 its query once lacked an alias, and no run ever settled drained).
  CHECK(drained * 2 >= c.compared);

  // The isolation race: read committed debits order 1 twice, serializable once, and the
  // refusal was the server's (40001), at the serializable level only.
  const nlohmann::json* rc = line_of("49-check-in-transaction-read-committed.toml");
  const nlohmann::json* ser = line_of("50-check-in-transaction-serializable.toml");
  REQUIRE(rc != nullptr);
  REQUIRE(ser != nullptr);
  CHECK((*rc)["live"]["verdict"] == "duplicated");
  CHECK((*ser)["live"]["verdict"] == "exactly-once");
  const auto trace_of = [&](const std::string& stem) {  // both consumers' own traces
    std::string traces;
    for (const char* node : {"consumer1", "consumer2"}) {
      std::ifstream in(kept + "/" + stem + "/trace-" + node + ".jsonl");
      traces.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return traces;
  };
  const std::string serialize = "SQLSTATE 40001): PostgreSQL: ERROR:  could not serialize access";
  CHECK(trace_of("50-check-in-transaction-serializable").find(serialize) != std::string::npos);
  const std::string committed = trace_of("49-check-in-transaction-read-committed");
  CHECK(committed.find("not in debits") != std::string::npos);
  CHECK(committed.find("40001") == std::string::npos);

  live_test::check_suite(c, o.exit_code, tmpdir);
  std::error_code ec;
  CHECK(std::filesystem::is_empty(tmp, ec));  // the private servers' folders are gone too
}
