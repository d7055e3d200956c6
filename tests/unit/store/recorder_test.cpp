// store::Recorder and store::Replay: what a run did in SQLite is recorded call by call,
// and the replay does the same work (a crash's rollback included) or says it did not.
#include "src/store/recorder.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "src/scenario/scenario.h"
#include "src/search/sweep.h"
#include "src/store/db.h"
#include "src/store/replay.h"
#include "src/store/txn.h"
#include "src/store/warm.h"
#include "tests/support/db_query.h"
#include "tests/support/scenario_load.h"

namespace {

using Kind = store::Recorder::Kind;

using test_support::query_int;

// Records: a transaction lost to a crash (close before COMMIT), then a committed insert.
void crash_then_insert(const std::string& uri, store::Recorder& recorder) {
  REQUIRE(store::Recorder::install(&recorder) == nullptr);
  {
    store::Db crashed;
    REQUIRE(store::Db::open(uri, crashed).ok());
    store::Txn txn(crashed);
    REQUIRE(txn.status().ok());
    REQUIRE(crashed.statement("INSERT INTO t(x) VALUES (?1)").bind(1, 7).exec().ok());
    crashed.close();  // the crash: the transaction is lost
  }
  store::Db db;
  REQUIRE(store::Db::open(uri, db).ok());
  REQUIRE(db.statement("INSERT INTO t(x) VALUES (?1)").bind(1, 8).exec().ok());
  db.close();
  store::Recorder::install(nullptr);
}

}  // namespace

TEST_CASE("recorder: every call into SQLite, in order, a crash as a close", "[store][recorder]") {
  store::WarmScope scope;
  const std::string uri = scope.database_uri("t");
  store::Db anchor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER)").ok());
  store::Recorder recorder;
  crash_then_insert(uri, recorder);
  std::vector<Kind> kinds;
  for (const auto& call : recorder.calls()) kinds.push_back(call.kind);
  const std::vector<Kind> expected = {
      Kind::kOpen,  Kind::kFetch,   Kind::kStep,  Kind::kFetch, Kind::kBindInt,
      Kind::kStep,  Kind::kReset,   Kind::kClose, Kind::kOpen,  Kind::kFetch,
      Kind::kBindInt, Kind::kStep,  Kind::kReset, Kind::kClose};
  CHECK(kinds == expected);
  // The two opens are two connections, although the second is the first one parked.
  CHECK(recorder.calls()[0].conn != recorder.calls()[8].conn);
  CHECK(recorder.texts()[static_cast<std::size_t>(recorder.calls()[1].text)] == "BEGIN IMMEDIATE");
  CHECK(recorder.calls()[4].value == 7);
  CHECK(recorder.calls()[5].result == SQLITE_DONE);
  // The anchor was opened before the recorder: its calls are not in the record.
  const std::size_t before = recorder.calls().size();
  CHECK(query_int(anchor, "SELECT count(*) FROM t") == 1);
  CHECK(recorder.calls().size() == before);
}

TEST_CASE("replay: the recorded work again, the crash still rolled back", "[store][recorder]") {
  store::WarmScope scope;
  const std::string uri = scope.database_uri("t");
  store::Db anchor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER)").ok());
  store::Recorder recorder;
  crash_then_insert(uri, recorder);
  store::Replay replay;
  REQUIRE(replay.compile(recorder).ok());
  CHECK(replay.connections() == 1);  // the crashed connection's, taken again
  CHECK(replay.play() == 0);
  CHECK(replay.play() == 0);
  // 8 once recorded and twice replayed; the 7 of every crashed transaction is gone.
  CHECK(query_int(anchor, "SELECT count(*) FROM t") == 3);
  CHECK(query_int(anchor, "SELECT sum(x) FROM t") == 24);
}

TEST_CASE("replay: a step that returns another code is counted", "[store][recorder]") {
  store::WarmScope scope;
  const std::string uri = scope.database_uri("t");
  store::Db anchor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER PRIMARY KEY)").ok());
  store::Recorder recorder;
  crash_then_insert(uri, recorder);
  store::Replay replay;
  REQUIRE(replay.compile(recorder).ok());
  // The recorded INSERT of 8 succeeded; replayed, 8 is already there.
  CHECK(replay.play() == 1);
}

TEST_CASE("replay: a sweep with faults replays step for step, results unchanged",
          "[store][recorder]") {
  lab::Scenario s = test_support::loaded(
      lab::load_scenario(std::string(EOSIM_SOURCE_DIR) + "/bench/ten-orders.toml"));
  lab::SweepOptions options;
  options.first_seed = 1;
  options.last_seed = 30;
  options.jobs = 1;
  lab::SweepSummary plain, recorded;
  // The recorded databases must outlive the sweep for the replay, and the sweep before
  // leaves them warm: every recorded run empties its tables with SQL (a cold one copies
  // a template's pages, which is not a statement and could not be replayed).
  store::WarmScope scope;
  REQUIRE(lab::sweep(s, options, plain).ok());
  store::Recorder recorder;
  store::Recorder::install(&recorder);
  const eosim::Status swept = lab::sweep(s, options, recorded);
  store::Recorder::install(nullptr);
  REQUIRE(swept.ok());
  CHECK(recorded.same_result(plain));
  REQUIRE(plain.faults_fired > 0);
  // Faults make work of their own: transactions rolled back after crashes and failures.
  std::size_t rollbacks = 0;
  for (const auto& call : recorder.calls()) {
    const std::string& text = recorder.texts()[static_cast<std::size_t>(call.text)];
    rollbacks += call.kind == Kind::kStep && text == "ROLLBACK" ? 1 : 0;
  }
  CHECK(rollbacks > 0);
  CHECK(recorder.count(Kind::kOpen) == recorder.count(Kind::kClose));
  store::Replay replay;
  REQUIRE(replay.compile(recorder).ok());
  CHECK(replay.play() == 0);
  CHECK(replay.play() == 0);
}
