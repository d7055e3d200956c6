// The store layer's seam to a database server (src/store/remote.h): SQLite's SQL as
// PostgreSQL spells it, SQLSTATEs read as the kinds every strategy already reads, and a
// server URL refused where no server side is linked (the simulator).
#include <catch2/catch.hpp>

#include <string>

#include "src/store/db.h"
#include "src/store/remote.h"
#include "src/store/status.h"
#include "src/world/schema.h"

namespace {

using store::ErrorKind;
using store::postgres_sql;
using store::Status;

}  // namespace

TEST_CASE("postgres_sql: parameters, INSERT OR IGNORE, BEGIN modes, PRAGMA", "[store][remote]") {
  CHECK(
      postgres_sql("UPDATE accounts SET balance = balance - ?1 WHERE id = ?2 AND balance >= ?1") ==
      "UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1");
  CHECK(postgres_sql("INSERT OR IGNORE INTO processed_messages(message_id, order_id, tick) "
                     "VALUES(?1, ?2, ?3)") ==
        "INSERT INTO processed_messages(message_id, order_id, tick) VALUES($1, $2, $3) "
        "ON CONFLICT DO NOTHING");
  CHECK(postgres_sql("BEGIN IMMEDIATE") == "BEGIN");
  CHECK(postgres_sql("begin deferred") == "BEGIN");
  CHECK(postgres_sql("COMMIT") == "COMMIT");
  CHECK(postgres_sql("PRAGMA journal_mode=WAL").empty());
}

TEST_CASE("postgres_sql: quoted text and comments are left alone", "[store][remote]") {
  CHECK(postgres_sql("SELECT 'is it ?1 INTEGER' FROM t WHERE x = ?1") ==
        "SELECT 'is it ?1 INTEGER' FROM t WHERE x = $1");
  CHECK(postgres_sql("CREATE TABLE t(\n  a INTEGER NOT NULL -- an INTEGER ?1\n)") ==
        "CREATE TABLE t(\n  a BIGINT NOT NULL -- an INTEGER ?1\n)");
}

TEST_CASE("postgres_sql: the lab's schema becomes PostgreSQL's", "[store][remote]") {
  const std::string ledger = postgres_sql(lab::kLedgerSchema);
  CHECK(ledger.find("id         BIGSERIAL PRIMARY KEY") != std::string::npos);
  CHECK(ledger.find("AUTOINCREMENT") == std::string::npos);
  CHECK(ledger.find("INTEGER") == std::string::npos);
  CHECK(ledger.find("balance BIGINT NOT NULL") != std::string::npos);
  const std::string orders = postgres_sql(lab::kOrdersSchema);
  CHECK(orders.find("id           BIGINT PRIMARY KEY") != std::string::npos);
  CHECK(orders.find("CREATE INDEX outbox_unsent ON outbox(id) WHERE sent = 0") !=
        std::string::npos);
}

TEST_CASE("SQLSTATEs read as the kinds the strategies read", "[store][remote]") {
  const Status dup = Status::from_sqlstate("23505", "duplicate key");
  CHECK(dup.is_unique_violation());
  CHECK(dup.code == SQLITE_CONSTRAINT_UNIQUE);
  CHECK(Status::from_sqlstate("23502", "not null").kind == ErrorKind::kConstraint);
  for (const char* retry : {"40001", "40P01"}) {
    const Status s = Status::from_sqlstate(retry, "retry");
    CHECK(s.kind == ErrorKind::kBusy);
    CHECK(s.is_transient());
  }
  for (const char* lost : {"08006", "08003", "08000", "57P01", ""}) {
    const Status s = Status::from_sqlstate(lost, "gone");
    CHECK(s.kind == ErrorKind::kConnectionLost);
    CHECK(s.is_transient());
    CHECK_FALSE(s.is_unique_violation());
  }
  CHECK(Status::from_sqlstate("", "gone").sqlstate == "08006");
  CHECK(Status::from_sqlstate("53100", "disk full").kind == ErrorKind::kEnvironment);
  CHECK(Status::from_sqlstate("42P01", "no table").kind == ErrorKind::kOther);
  CHECK(Status::from_sqlstate("40001", "could not serialize").to_string() ==
        "busy (SQLSTATE 40001): could not serialize");
}

TEST_CASE("a server URL without a server side linked is an error, not a file", "[store][remote]") {
  store::set_remote_opener(nullptr);
  store::Db db;
  const Status s = store::Db::open("postgresql://eosim@127.0.0.1:1/eosim", db);
  CHECK_FALSE(s.ok());
  CHECK_FALSE(db.is_open());
  CHECK(store::is_remote_uri("postgres://u@h/d"));
  CHECK(store::is_remote_uri("redis://127.0.0.1:6379/0"));  // the Redis dedup store
  CHECK_FALSE(store::Db::open("redis://127.0.0.1:1/0?prefix=x:", db).ok());
  CHECK_FALSE(store::is_remote_uri("/tmp/x/ledger.db"));
  CHECK_FALSE(store::is_remote_uri("file:/x?vfs=memdb"));
}
