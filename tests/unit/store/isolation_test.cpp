// store::Txn's isolation levels on SQLite (txn.h): SQLite is always serializable, one
// writer at a time; a level gives it the meaning a consumer's check-then-act sees on
// PostgreSQL without holding SQLite's lock between two steps. Read committed: a read sees
// what another connection committed meanwhile, and the writes go on. Repeatable read and
// serializable: the first committer wins, the other's writes() fails with 40001.
#include <unistd.h>
#include <catch2/catch.hpp>

#include <string>

#include "src/store/db.h"
#include "src/store/status.h"
#include "src/store/txn.h"
#include "tests/support/db_query.h"
#include "tests/support/named_check.h"

namespace {

using store::Db;
using store::Isolation;
using store::Status;
using store::Txn;

Db open_level_db(const std::string& uri) {
  Db db;
  const Status s = Db::open(uri, db);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return db;
}

std::string level_memdb(const std::string& tag) {
  return "file:/eosim_isolation_" + tag + "_" + std::to_string(::getpid()) + "?vfs=memdb";
}

// Was order 1 debited? The check of a check-then-act, on `db`.
bool order_debited(Db& db) {
  store::Stmt& st = db.statement("SELECT 1 FROM debits WHERE order_id = 1");
  bool row = false;
  REQUIRE(st.step(row).ok());
  st.reset();
  return row;
}

Status insert_debit(Db& db) {
  return db.statement("INSERT INTO debits(order_id) VALUES(1)").exec();
}

}  // namespace

TEST_CASE("isolation: the levels are named by their table", "[store][isolation]") {
  check_named_round_trip<Isolation>();
  CHECK(sim::names_list<Isolation>() == "read-committed, repeatable-read, serializable");
}

TEST_CASE("isolation on SQLite: two check-then-act transactions that overlap",
          "[store][isolation]") {
  const std::string uri = level_memdb("race");
  Db a = open_level_db(uri);
  Db b = open_level_db(uri);
  REQUIRE(a.exec("CREATE TABLE debits(order_id INTEGER NOT NULL)").ok());

  SECTION("read committed: both check before either commits, both debit") {
    Txn first(a, Txn::Mode::kImmediate, Isolation::kReadCommitted);
    Txn second(b, Txn::Mode::kImmediate, Isolation::kReadCommitted);
    REQUIRE(first.status().ok());
    REQUIRE(second.status().ok());
    CHECK_FALSE(order_debited(a));
    CHECK_FALSE(order_debited(b));
    CHECK_FALSE(a.in_transaction());  // no lock held between the check and the writes
    REQUIRE(first.writes().ok());
    REQUIRE(insert_debit(a).ok());
    REQUIRE(first.commit().ok());
    CHECK(order_debited(b));        // a read now sees the other's commit...
    REQUIRE(second.writes().ok());  // ...but the check is past: the writes go on
    REQUIRE(insert_debit(b).ok());
    REQUIRE(second.commit().ok());
    CHECK(test_support::count_rows(a, "debits") == 2);
  }
  SECTION("repeatable read and serializable: the second writer gets 40001") {
    const Isolation level = GENERATE(Isolation::kRepeatableRead, Isolation::kSerializable);
    INFO(sim::name_of(level));
    Txn first(a, Txn::Mode::kImmediate, level);
    Txn second(b, Txn::Mode::kImmediate, level);
    CHECK_FALSE(order_debited(a));
    CHECK_FALSE(order_debited(b));
    REQUIRE(first.writes().ok());
    REQUIRE(insert_debit(a).ok());
    REQUIRE(first.commit().ok());
    const Status refused = second.writes();
    INFO(refused.to_string());
    CHECK(refused.sqlstate == "40001");
    CHECK(refused.kind == store::ErrorKind::kBusy);
    CHECK_FALSE(second.active());
    CHECK_FALSE(b.in_transaction());  // rolled back: the retry starts clean
    Txn retry(b, Txn::Mode::kImmediate, level);
    CHECK(order_debited(b));  // and its check finds the debit
    CHECK(test_support::count_rows(a, "debits") == 1);
  }
  SECTION("serializable with no other commit in between: the writes go on") {
    Txn only(a, Txn::Mode::kImmediate, Isolation::kSerializable);
    CHECK_FALSE(order_debited(a));
    REQUIRE(only.writes().ok());
    REQUIRE(insert_debit(a).ok());
    REQUIRE(only.commit().ok());
    CHECK(test_support::count_rows(b, "debits") == 1);
  }
  SECTION("no level: BEGIN at once, as before (the other writer is busy)") {
    Txn first(a);
    CHECK(a.in_transaction());
    Txn second(b, Txn::Mode::kImmediate, Isolation::kReadCommitted);
    REQUIRE(second.status().ok());
    CHECK(second.writes().kind == store::ErrorKind::kBusy);
    CHECK_FALSE(second.active());
  }
}
