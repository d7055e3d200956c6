// The store layer over a real PostgreSQL (src/store/remote.h, src/live/postgres_store.h):
// the same store::Db, Stmt and Txn the actors use, against a private server, and the
// server's real errors read by their SQLSTATE - a duplicate key (23505), a serialization
// failure (40001), a deadlock (40P01), a server that crashed under an open connection
// (57P01 / 08006) - each as the kind the strategies read; after the crash the next
// statement reconnects.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "src/live/fault_proxy.h"
#include "src/live/pg_wire.h"
#include "src/live/postgres_launcher.h"
#include "src/live/postgres_store.h"
#include "src/live/redis_store.h"
#include "src/store/db.h"
#include "src/store/txn.h"
#include "tests/support/db_query.h"

namespace {

using store::Db;
using store::ErrorKind;
using store::Status;

struct Server {
  std::unique_ptr<live::PrivatePostgres> pg;
  std::string url;  // the run's schema
  Server() {
    live::install_server_stores();
    const live::Status st = live::PrivatePostgres::start({}, pg);
    INFO(st.message);
    REQUIRE(st.ok());
    std::string schema;
    REQUIRE(live::create_run_schema(pg->url(), schema).ok());
    url = live::schema_url(pg->url(), schema);
  }
};

Db open(const std::string& url) {
  Db db;
  const Status st = Db::open(url, db);
  INFO(st.to_string());
  REQUIRE(st.ok());
  return db;
}

}  // namespace

TEST_CASE("store over PostgreSQL: statements, rows, changes, and the SQLSTATEs of real errors",
          "[live-postgres-store]") {
  Server server;
  Db a = open(server.url);
  Db b = open(server.url);
  REQUIRE(a.exec("CREATE TABLE k(id TEXT PRIMARY KEY, n INTEGER NOT NULL)").ok());
  REQUIRE(a.statement("INSERT INTO k(id, n) VALUES(?1, ?2)").bind(1, "x").bind(2, 1).exec().ok());
  REQUIRE(a.statement("INSERT INTO k(id, n) VALUES(?1, ?2)").bind(1, "y").bind(2, 2).exec().ok());
  CHECK(a.statement("UPDATE k SET n = n + 10").exec().ok());
  CHECK(a.changes() == 2);

  SECTION("rows one step at a time, NULL, INSERT OR IGNORE") {
    store::Stmt& q = a.statement("SELECT id, n, NULL FROM k ORDER BY id");
    bool row = false;
    REQUIRE(q.step(row).ok());
    REQUIRE(row);
    CHECK(q.column_text(0) == "x");
    CHECK(q.column_int64(1) == 11);
    CHECK(q.column_is_null(2));
    REQUIRE(q.step(row).ok());
    CHECK(q.column_text(0) == "y");
    REQUIRE(q.step(row).ok());
    CHECK_FALSE(row);
    q.reset();
    CHECK(a.statement("INSERT OR IGNORE INTO k(id, n) VALUES(?1, 0)").bind(1, "x").exec().ok());
    CHECK(a.changes() == 0);
  }

  SECTION("first_column, the reader of a user's consumer's effects: text values, read only") {
    std::vector<std::optional<std::string>> values;
    std::string column;
    REQUIRE(live::first_column(server.url, "SELECT n, id FROM k ORDER BY id", values, column).ok());
    CHECK(column == "n");
    CHECK(values == std::vector<std::optional<std::string>>{"11", "12"});
    // The query cannot change the user's tables.
    const live::Status del = live::first_column(server.url, "DELETE FROM k", values, column);
    INFO(del.message);
    CHECK_FALSE(del.ok());
    CHECK(del.message.find("read-only transaction") != std::string::npos);
    REQUIRE(live::first_column(server.url, "SELECT id FROM k", values, column).ok());
    CHECK(values.size() == 2);
    CHECK_FALSE(live::first_column(server.url, "SELECT nope FROM k", values, column).ok());
  }

  SECTION("23505: a duplicate key is a unique violation; the transaction rolls back") {
    store::Txn txn(a);
    REQUIRE(txn.status().ok());
    const Status dup = a.statement("INSERT INTO k(id, n) VALUES(?1, 0)").bind(1, "x").exec();
    CHECK(dup.sqlstate == "23505");
    CHECK(dup.is_unique_violation());
    txn.abandon();
    CHECK_FALSE(a.in_transaction());
  }

  SECTION("40001: a serialization failure is busy (run it again)") {
    REQUIRE(a.exec("BEGIN ISOLATION LEVEL SERIALIZABLE").ok());
    REQUIRE(b.exec("BEGIN ISOLATION LEVEL SERIALIZABLE").ok());
    // Each reads what the other then writes: one of the two cannot be serialized. The
    // server may say so at the second write or at a commit; the first error is the one.
    REQUIRE(a.statement("SELECT sum(n) FROM k WHERE id = 'x'").exec().ok());
    REQUIRE(b.statement("SELECT sum(n) FROM k WHERE id = 'y'").exec().ok());
    Status first;
    for (Status s : {a.statement("UPDATE k SET n = n + 1 WHERE id = 'y'").exec(),
                     b.statement("UPDATE k SET n = n + 1 WHERE id = 'x'").exec(), a.exec("COMMIT"),
                     b.exec("COMMIT")}) {
      if (first.ok() && !s.ok()) first = s;
    }
    INFO(first.to_string());
    CHECK(first.sqlstate == "40001");
    CHECK(first.kind == ErrorKind::kBusy);
    CHECK(first.is_transient());
    if (a.in_transaction()) (void)a.exec("ROLLBACK");
    if (b.in_transaction()) (void)b.exec("ROLLBACK");
  }

  SECTION("40P01: a deadlock is busy (run it again)") {
    REQUIRE(a.exec("BEGIN").ok());
    REQUIRE(b.exec("BEGIN").ok());
    REQUIRE(a.statement("UPDATE k SET n = 0 WHERE id = 'x'").exec().ok());
    REQUIRE(b.statement("UPDATE k SET n = 0 WHERE id = 'y'").exec().ok());
    Status from_a;
    std::thread other([&] { from_a = a.statement("UPDATE k SET n = 1 WHERE id = 'y'").exec(); });
    const Status from_b = b.statement("UPDATE k SET n = 1 WHERE id = 'x'").exec();
    other.join();
    // The server's deadlock check (after deadlock_timeout, 1 s) ends one of the two.
    const Status& victim = from_a.ok() ? from_b : from_a;
    CHECK(from_a.ok() != from_b.ok());
    CHECK(victim.sqlstate == "40P01");
    CHECK(victim.kind == ErrorKind::kBusy);
    (void)a.exec("ROLLBACK");
    (void)b.exec("ROLLBACK");
  }

  SECTION(
      "57P01 / 08006: the server crashed under the connection; the next statement "
      "reconnects") {
    store::Txn txn(a);
    REQUIRE(txn.status().ok());
    REQUIRE(a.statement("UPDATE k SET n = 100 WHERE id = 'x'").exec().ok());
    REQUIRE(server.pg->restart_immediate().ok());
    const Status gone = a.statement("UPDATE k SET n = 200 WHERE id = 'y'").exec();
    INFO(gone.to_string());
    CHECK((gone.sqlstate == "57P01" || gone.sqlstate.rfind("08", 0) == 0));
    CHECK(gone.kind == ErrorKind::kConnectionLost);
    CHECK_FALSE(gone.is_unique_violation());
    txn.abandon();  // nothing to roll back: the server did, as it crashed
    store::Stmt& q = a.statement("SELECT n FROM k WHERE id = 'x'");
    bool row = false;
    REQUIRE(q.step(row).ok());
    REQUIRE(row);
    CHECK(q.column_int64(0) == 11);  // the uncommitted 100 died with the crash
    q.reset();
  }
}

using test_support::query_int;

// The database link through the fault proxy (src/live/pg_wire.h): libpq asks for TLS
// (sslmode=prefer) and is told no by the proxy, logs in in the clear; the reply to order
// 2's COMMIT is dropped on the wire: the server committed, the client reads a lost
// connection (it cannot tell), and its next statement connects again through the proxy.
TEST_CASE("the fault proxy in front of PostgreSQL: a COMMIT's reply lost on the wire",
          "[live-postgres-store]") {
  Server server;
  live::Endpoint at;
  std::string why;
  REQUIRE(live::proxyable_server(server.url, at, why));
  std::vector<std::int64_t> asked;  // written on the proxy's thread, read after stop()
  live::ProxyOptions po;
  po.framer = live::postgres_framing([&asked](const live::CommitReply& r) {
    asked.push_back(r.order);
    live::ProxyAction a;
    if (r.order == 2) a.kind = live::ProxyAction::kDrop;
    a.notice_ms = 0;
    return a;
  });
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(at, po, proxy).ok());
  const std::string url = live::via_proxy(server.url, proxy->endpoint().port) + "&sslmode=prefer";
  Db direct = open(server.url);
  REQUIRE(direct.exec("CREATE TABLE debits(order_id INTEGER PRIMARY KEY, message_id TEXT)").ok());
  Db db = open(url);
  const char* insert = "INSERT INTO debits(order_id, message_id) VALUES(?1, ?2)";
  {
    store::Txn txn(db);
    REQUIRE(txn.status().ok());
    REQUIRE(db.statement(insert).bind(1, 1).bind(2, "m-1").exec().ok());
    CHECK(txn.commit().ok());
  }
  Status lost;
  {
    store::Txn txn(db);
    REQUIRE(txn.status().ok());
    REQUIRE(db.statement(insert).bind(1, 2).bind(2, "m-2").exec().ok());
    lost = txn.commit();
  }
  INFO(lost.to_string());
  CHECK(lost.kind == ErrorKind::kConnectionLost);
  CHECK(query_int(direct, "SELECT COUNT(*) FROM debits WHERE order_id = 2") == 1);  // committed
  CHECK(query_int(db, "SELECT COUNT(*) FROM debits") == 2);  // connected again
  CHECK(proxy->frames_dropped() == 1);
  CHECK(proxy->connections_accepted() >= 2);
  proxy->stop();
  CHECK(asked == std::vector<std::int64_t>{1, 2});
}
