// store::WarmScope: connections parked across runs keep their statements but never a
// transaction — a crash (close mid-transaction) loses exactly what it loses without one.
#include "src/store/warm.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "src/store/db.h"
#include "src/store/txn.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/status_support.h"
#include "tests/support/temp_dir.h"
#include "tests/support/db_query.h"

using test_support::count_rows;

TEST_CASE("warm: a closed connection is parked and handed back with its database", "[store][warm]") {
  store::WarmScope scope;
  REQUIRE(store::WarmScope::current() == &scope);
  const std::string uri = scope.database_uri("t");
  store::Db anchor, actor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  CHECK_FALSE(anchor.reused());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER)").ok());
  REQUIRE(store::Db::open(uri, actor).ok());
  REQUIRE(actor.statement("INSERT INTO t VALUES (1)").exec().ok());
  actor.close();
  CHECK(scope.opened() == 2);
  REQUIRE(store::Db::open(uri, actor).ok());
  CHECK(actor.reused());
  CHECK(scope.reused() == 1);
  CHECK(count_rows(actor, "t") == 1);
}

TEST_CASE("warm: a crash mid-transaction still loses the uncommitted transaction",
          "[store][warm]") {
  store::WarmScope scope;
  const std::string uri = scope.database_uri("crash");
  store::Db anchor, actor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER)").ok());
  REQUIRE(store::Db::open(uri, actor).ok());
  {
    store::Txn committed(actor);
    REQUIRE(actor.statement("INSERT INTO t VALUES (1)").exec().ok());
    REQUIRE(committed.commit().ok());
  }
  store::Txn open_txn(actor);
  REQUIRE(open_txn.status().ok());
  REQUIRE(actor.statement("INSERT INTO t VALUES (2)").exec().ok());
  // A SELECT left on a row too: its read lock must not survive the park either.
  bool row = false;
  REQUIRE(actor.statement("SELECT x FROM t").step(row).ok());
  REQUIRE(row);
  actor.close();  // the crash: the process dies holding the write lock
  CHECK_FALSE(actor.is_open());
  // Nothing uncommitted is visible, and the write lock is gone: the anchor can write.
  CHECK(count_rows(anchor, "t") == 1);
  REQUIRE(anchor.statement("INSERT INTO t VALUES (3)").exec().ok());
  // The restarted process gets the parked connection back, clean.
  REQUIRE(store::Db::open(uri, actor).ok());
  CHECK(actor.reused());
  CHECK_FALSE(actor.in_transaction());
  CHECK(count_rows(actor, "t") == 2);
  CHECK(open_txn.rollback().ok());  // the old guard finds nothing left to undo
}

TEST_CASE("warm: other names, and files, open and close as usual", "[store][warm]") {
  store::WarmScope scope;
  store::Db db;
  REQUIRE(store::Db::open("file:/eosim-warm-test-other?vfs=memdb", db).ok());
  REQUIRE(db.exec("CREATE TABLE t(x INTEGER)").ok());
  db.close();
  REQUIRE(store::Db::open("file:/eosim-warm-test-other?vfs=memdb", db).ok());
  CHECK_FALSE(db.reused());
  CHECK(scope.reused() == 0);

  // --keep-db under a warm thread still writes real files.
  namespace fs = std::filesystem;
  const test_support::TempDir tmp("warm-keep-db");
  const fs::path& dir = tmp.path;
  lab::Scenario s;
  s.name = "warm keep-db";
  s.workload.orders = 2;
  lab::WorldOptions options;
  options.keep_db_dir = dir.string();
  lab::RunSummary run;
  REQUIRE_OK(lab::run_scenario(s, options, run, nullptr));
  CHECK(run.report.verdict == lab::Verdict::kExactlyOnce);
  CHECK(fs::file_size(dir / "ledger.db") > 0);
  CHECK(fs::file_size(dir / "orders.db") > 0);
}

TEST_CASE("warm: worlds on a warm thread reuse connections and empty the tables",
          "[store][warm]") {
  lab::Scenario s;
  s.name = "warm worlds";
  s.workload.orders = 3;
  lab::RunSummary cold, first, second;
  REQUIRE_OK(lab::run_scenario(s, {}, cold, nullptr));
  store::WarmScope scope;
  REQUIRE_OK(lab::run_scenario(s, {}, first, nullptr));
  const std::uint64_t opened = scope.opened();
  REQUIRE_OK(lab::run_scenario(s, {}, second, nullptr));
  CHECK(scope.opened() == opened);  // nothing opened for real the second time
  CHECK(scope.reused() > 0);
  for (const auto* run : {&first, &second}) {
    CHECK(run->trace_hash == cold.trace_hash);
    CHECK(run->report.balance_actual == cold.report.balance_actual);
    CHECK(run->report.verdict == lab::Verdict::kExactlyOnce);  // not debited twice by leftovers
  }
  // A second world while the first is alive gets databases of its own.
  auto a = run_support::world(s, {});
  auto b = run_support::world(s, {});
  REQUIRE(a);
  REQUIRE(b);
  a->run();
  b->run();
  CHECK(a->summary().trace_hash == cold.trace_hash);
  CHECK(b->summary().trace_hash == cold.trace_hash);
}

TEST_CASE("warm: claims get slots of their own, each with its own databases", "[store][warm]") {
  store::WarmScope scope;
  int slots[store::WarmScope::kSlots] = {};
  for (int i = 0; i < store::WarmScope::kSlots; ++i) {
    REQUIRE(scope.claim(slots[i]));
    CHECK(slots[i] == i);  // the lowest free slot
  }
  int none = -1;
  CHECK_FALSE(scope.claim(none));  // all held: the caller goes cold
  scope.release(3);
  int again = -1;
  REQUIRE(scope.claim(again));
  CHECK(again == 3);
  CHECK(scope.database_uri("orders", 0) != scope.database_uri("orders", 1));
  CHECK(scope.database_uri("orders") == scope.database_uri("orders", 0));
  // Two slots' databases of one name are two databases.
  store::Db a, b;
  REQUIRE(store::Db::open(scope.database_uri("t", 1), a).ok());
  REQUIRE(store::Db::open(scope.database_uri("t", 2), b).ok());
  REQUIRE(a.exec("CREATE TABLE t(x INTEGER)").ok());
  REQUIRE(a.statement("INSERT INTO t VALUES (1)").exec().ok());
  REQUIRE(b.exec("CREATE TABLE t(x INTEGER)").ok());
  CHECK(count_rows(a, "t") == 1);
  CHECK(count_rows(b, "t") == 0);
  for (int i = 0; i < store::WarmScope::kSlots; ++i) scope.release(i);
}

TEST_CASE("warm: the shared scope lives while a holder keeps it", "[store][warm]") {
  REQUIRE(store::WarmScope::current() == nullptr);
  {
    const auto first = store::shared_warm_scope();
    const auto second = store::shared_warm_scope();
    CHECK(first.get() == second.get());
    CHECK(store::WarmScope::current() == first.get());
  }
  CHECK(store::WarmScope::current() == nullptr);  // the last holder ended it
  store::WarmScope own;  // a sweep worker's: shared, never ended, by the holders
  {
    const auto borrowed = store::shared_warm_scope();
    CHECK(borrowed.get() == &own);
  }
  CHECK(store::WarmScope::current() == &own);
}
