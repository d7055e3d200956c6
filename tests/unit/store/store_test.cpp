// Tests for src/store against real SQLite, on a temporary file and on a shared memdb.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "src/store/db.h"
#include "src/store/status.h"
#include "src/store/txn.h"
#include "tests/support/db_query.h"
#include "tests/support/named_check.h"

namespace {

using store::Db;
using store::ErrorKind;
using store::Status;
using store::Txn;

// A database location that every connection of this process can open again. Files are
// removed before and after; a memdb disappears with its last connection.
struct Location {
  std::string uri;
  std::string file;  // empty for memdb

  Location(const std::string& backend, const std::string& tag) {
    const std::string name = "eosim_store_" + tag + "_" + std::to_string(getpid());
    if (backend == "memdb") {
      uri = "file:/" + name + "?vfs=memdb";
    } else {
      file = (std::filesystem::temp_directory_path() / (name + ".db")).string();
      remove_files();
      uri = file;
    }
  }
  ~Location() { remove_files(); }
  void remove_files() const {
    if (file.empty()) return;
    std::filesystem::remove(file);
    std::filesystem::remove(file + "-journal");
  }
};

Db open_or_fail(const std::string& uri) {
  Db db;
  const Status s = Db::open(uri, db);
  INFO(s.to_string());
  REQUIRE(s.ok());
  REQUIRE(db.is_open());
  return db;
}

using test_support::count_rows;

const char* const kSchema =
    "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT NOT NULL, tag TEXT);"
    "CREATE UNIQUE INDEX items_tag ON items(tag);";

Status insert_item(Db& db, int64_t id, const char* name, const char* tag) {
  store::Stmt& st = db.statement("INSERT INTO items(id, name, tag) VALUES (?1, ?2, ?3)");
  st.bind(1, id);
  if (name != nullptr) st.bind(2, name); else st.bind_null(2);
  if (tag != nullptr) st.bind(3, tag); else st.bind_null(3);
  return st.exec();
}

}  // namespace

TEST_CASE("classify maps extended result codes exactly", "[store]") {
  CHECK(store::classify(SQLITE_OK) == ErrorKind::kNone);
  CHECK(store::classify(SQLITE_CONSTRAINT_PRIMARYKEY) == ErrorKind::kUniqueViolation);
  CHECK(store::classify(SQLITE_CONSTRAINT_UNIQUE) == ErrorKind::kUniqueViolation);
  CHECK(store::classify(SQLITE_CONSTRAINT_NOTNULL) == ErrorKind::kConstraint);
  CHECK(store::classify(SQLITE_CONSTRAINT_CHECK) == ErrorKind::kConstraint);
  CHECK(store::classify(SQLITE_CONSTRAINT_FOREIGNKEY) == ErrorKind::kConstraint);
  CHECK(store::classify(SQLITE_CONSTRAINT_ROWID) == ErrorKind::kConstraint);
  CHECK(store::classify(SQLITE_CONSTRAINT) == ErrorKind::kConstraint);  // no extended info
  CHECK(store::classify(SQLITE_BUSY) == ErrorKind::kBusy);
  CHECK(store::classify(SQLITE_BUSY_SNAPSHOT) == ErrorKind::kBusy);
  CHECK(store::classify(SQLITE_LOCKED) == ErrorKind::kBusy);
  CHECK(store::classify(SQLITE_LOCKED_SHAREDCACHE) == ErrorKind::kBusy);
  // The machine's trouble (store/failure.h) is no answer of a business database.
  CHECK(store::classify(SQLITE_IOERR) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_IOERR_WRITE) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_IOERR_FSYNC) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_FULL) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_NOMEM) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_CANTOPEN) == ErrorKind::kEnvironment);
  CHECK(store::classify(SQLITE_PROTOCOL) == ErrorKind::kTransient);
  CHECK(store::classify(SQLITE_ERROR) == ErrorKind::kOther);
  CHECK(store::classify(SQLITE_MISUSE) == ErrorKind::kOther);
  CHECK(store::classify(SQLITE_CORRUPT) == ErrorKind::kOther);
  CHECK(store::classify(SQLITE_READONLY) == ErrorKind::kOther);

  // An injected I/O error is the model's transient error; a real one is the machine's.
  const Status transient = Status::injected(SQLITE_IOERR_WRITE, "disk said no");
  CHECK_FALSE(transient.ok());
  CHECK(transient.is_transient());
  CHECK_FALSE(transient.is_unique_violation());
  CHECK_FALSE(Status::error(SQLITE_IOERR_WRITE, "disk said no").is_transient());
  CHECK(Status::injected(SQLITE_BUSY, "locked").kind == ErrorKind::kBusy);
  CHECK(Status::error(SQLITE_BUSY, "locked").is_transient());
  CHECK_FALSE(Status::error(SQLITE_CONSTRAINT_UNIQUE, "dup").is_transient());
  CHECK(Status::success().ok());
  CHECK(Status::success().to_string() == "ok");
}

TEST_CASE("constraint errors from real SQLite carry their extended codes", "[store]") {
  const std::string backend = GENERATE(as<std::string>{}, "file", "memdb");
  INFO(backend);
  Location loc(backend, "constraints");
  Db db = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());
  REQUIRE(insert_item(db, 1, "apple", "a").ok());
  REQUIRE(db.changes() == 1);
  REQUIRE(db.last_insert_rowid() == 1);

  SECTION("a primary key collision is a unique violation") {
    const Status s = insert_item(db, 1, "again", "b");
    INFO(s.to_string());
    CHECK(s.code == SQLITE_CONSTRAINT_PRIMARYKEY);
    CHECK(s.kind == ErrorKind::kUniqueViolation);
    CHECK(s.is_unique_violation());
    CHECK_FALSE(s.is_transient());
  }
  SECTION("a UNIQUE index collision is a unique violation") {
    const Status s = insert_item(db, 2, "apricot", "a");
    INFO(s.to_string());
    CHECK(s.code == SQLITE_CONSTRAINT_UNIQUE);
    CHECK(s.is_unique_violation());
  }
  SECTION("NOT NULL is a constraint error, not a duplicate") {
    const Status s = insert_item(db, 2, nullptr, "z");
    INFO(s.to_string());
    CHECK(s.code == SQLITE_CONSTRAINT_NOTNULL);
    CHECK(s.kind == ErrorKind::kConstraint);
    CHECK_FALSE(s.is_unique_violation());
  }
  // Whatever failed, nothing but the first row was written.
  CHECK(count_rows(db, "items") == 1);
}

TEST_CASE("a second BEGIN IMMEDIATE on another connection is busy at once", "[store]") {
  const std::string backend = GENERATE(as<std::string>{}, "file", "memdb");
  INFO(backend);
  Location loc(backend, "busy");
  Db a = open_or_fail(loc.uri);
  Db b = open_or_fail(loc.uri);
  REQUIRE(a.exec(kSchema).ok());

  {
    Txn first(a);
    REQUIRE(first.status().ok());
    REQUIRE(first.active());
    Txn second(b);
    INFO(second.status().to_string());
    CHECK(second.status().code == SQLITE_BUSY);
    CHECK(second.status().kind == ErrorKind::kBusy);
    CHECK(second.status().is_transient());
    CHECK_FALSE(second.active());
    CHECK_FALSE(b.in_transaction());
    REQUIRE(insert_item(a, 1, "apple", "a").ok());
    REQUIRE(first.commit().ok());
    CHECK_FALSE(a.in_transaction());
  }
  // Once the writer is done the other connection gets the lock and sees the row.
  Txn later(b);
  REQUIRE(later.status().ok());
  CHECK(count_rows(b, "items") == 1);
  REQUIRE(later.commit().ok());
}

TEST_CASE("Txn commits, and rolls back explicitly or when destroyed", "[store]") {
  const std::string backend = GENERATE(as<std::string>{}, "file", "memdb");
  INFO(backend);
  Location loc(backend, "txn");
  Db db = open_or_fail(loc.uri);
  Db other = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());

  {
    Txn txn(db);
    REQUIRE(txn.status().ok());
    REQUIRE(insert_item(db, 1, "apple", "a").ok());
    CHECK(db.in_transaction());
  }  // destroyed without commit
  CHECK_FALSE(db.in_transaction());
  CHECK(count_rows(other, "items") == 0);

  {
    Txn txn(db, Txn::Mode::kDeferred);
    REQUIRE(txn.status().ok());
    REQUIRE(insert_item(db, 1, "apple", "a").ok());
    REQUIRE(txn.rollback().ok());
    CHECK_FALSE(txn.active());
  }
  CHECK(count_rows(other, "items") == 0);

  {
    Txn txn(db);
    REQUIRE(insert_item(db, 1, "apple", "a").ok());
    REQUIRE(insert_item(db, 2, "banana", "b").ok());
    REQUIRE(txn.commit().ok());
    CHECK_FALSE(txn.active());
  }  // destructor after commit must not undo it
  CHECK(count_rows(other, "items") == 2);
}

TEST_CASE("close() with an open transaction rolls it back, like a crash", "[store]") {
  const std::string backend = GENERATE(as<std::string>{}, "file", "memdb");
  INFO(backend);
  Location loc(backend, "crash");
  Db survivor = open_or_fail(loc.uri);
  REQUIRE(survivor.exec(kSchema).ok());
  REQUIRE(insert_item(survivor, 1, "apple", "a").ok());

  Db victim = open_or_fail(loc.uri);
  {
    Txn txn(victim);
    REQUIRE(txn.status().ok());
    REQUIRE(insert_item(victim, 2, "banana", "b").ok());
    victim.close();  // the process dies between the insert and the commit
    CHECK_FALSE(victim.is_open());
    CHECK_FALSE(victim.in_transaction());
  }  // the guard's destructor finds nothing left to roll back

  // The committed row is still there (a memdb survives because `survivor` keeps it open),
  // the uncommitted one is gone, and the write lock was released.
  CHECK(count_rows(survivor, "items") == 1);
  Db reborn = open_or_fail(loc.uri);
  CHECK(count_rows(reborn, "items") == 1);
  Txn txn(reborn);
  CHECK(txn.status().ok());
}

TEST_CASE("a memdb vanishes with its last connection", "[store]") {
  Location loc("memdb", "vanish");
  {
    Db only = open_or_fail(loc.uri);
    REQUIRE(only.exec(kSchema).ok());
  }
  Db fresh = open_or_fail(loc.uri);
  bool has_row = true;
  const Status s = fresh.statement("SELECT count(*) FROM items").step(has_row);
  CHECK(s.code == SQLITE_ERROR);  // no such table: the data went with the last connection
  CHECK(s.kind == ErrorKind::kOther);
  CHECK_FALSE(has_row);
}

TEST_CASE("an injected db.commit fault fails the commit and commits nothing", "[store]") {
  const std::string backend = GENERATE(as<std::string>{}, "file", "memdb");
  INFO(backend);
  Location loc(backend, "commitfault");
  Db db = open_or_fail(loc.uri);
  Db other = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());

  std::vector<std::string> asked;
  db.set_fault_hook([&asked](store::HookOp op) {
    asked.emplace_back(sim::name_of(op));
    return op == store::HookOp::kCommit ? SQLITE_IOERR_WRITE : SQLITE_OK;
  });
  {
    Txn txn(db);
    REQUIRE(txn.status().ok());
    REQUIRE(insert_item(db, 1, "apple", "a").ok());
    const Status s = txn.commit();
    CHECK(s.code == SQLITE_IOERR_WRITE);
    CHECK(s.kind == ErrorKind::kTransient);
    CHECK(s.message == "injected fault: db.commit");
    CHECK(txn.active());         // still open: the caller decides
    CHECK(db.in_transaction());
  }  // the guard rolls back
  CHECK_FALSE(db.in_transaction());
  CHECK(count_rows(other, "items") == 0);
  // BEGIN is not a fault site; the INSERT step and the COMMIT are.
  CHECK(asked == std::vector<std::string>{"db.statement", "db.commit"});

  db.set_fault_hook(nullptr);
  Txn txn(db);
  REQUIRE(insert_item(db, 1, "apple", "a").ok());
  REQUIRE(txn.commit().ok());
  CHECK(count_rows(other, "items") == 1);
}

TEST_CASE("an injected db.statement fault skips the statement", "[store]") {
  Location loc("memdb", "stmtfault");
  Db db = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());
  int remaining_faults = 1;
  db.set_fault_hook([&remaining_faults](store::HookOp op) {
    if (op != store::HookOp::kStatement || remaining_faults == 0) return SQLITE_OK;
    --remaining_faults;
    return SQLITE_BUSY;
  });
  const Status s = insert_item(db, 1, "apple", "a");
  CHECK(s.code == SQLITE_BUSY);
  CHECK(s.kind == ErrorKind::kBusy);
  CHECK(s.message == "injected fault: db.statement");
  CHECK(count_rows(db, "items") == 0);
  CHECK(insert_item(db, 1, "apple", "a").ok());  // the hook lets the retry through
  CHECK(count_rows(db, "items") == 1);
}

TEST_CASE("statements are cached by SQL text and handed out clean", "[store]") {
  Location loc("memdb", "cache");
  Db db = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());

  store::Stmt& first = db.statement("SELECT ?1");
  store::Stmt& again = db.statement("SELECT ?1");
  store::Stmt& different = db.statement("SELECT ?1 + 1");
  CHECK(&first == &again);
  CHECK(&first != &different);
  CHECK(first.sql() == "SELECT ?1");

  bool has_row = false;
  REQUIRE(first.bind(1, int64_t{41}).step(has_row).ok());
  REQUIRE(has_row);
  CHECK(first.column_int64(0) == 41);
  // Fetching again resets and clears the binding: the parameter reads as NULL.
  store::Stmt& fetched = db.statement("SELECT ?1");
  REQUIRE(fetched.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(fetched.column_is_null(0));
  CHECK(fetched.column_text(0).empty());

  // A moved Db keeps its cache (and the references into it).
  Db moved = std::move(db);
  CHECK_FALSE(db.is_open());
  CHECK(&moved.statement("SELECT ?1") == &first);
}

// The fetch cache remembers a text by its address and size: a caller's buffer that holds
// another text of the same size at the same address must still get that text's statement.
TEST_CASE("a reused SQL buffer with another text of the same size gets that text's statement",
          "[store]") {
  Location loc("memdb", "reuse");
  Db db = open_or_fail(loc.uri);
  std::string sql = "SELECT 1";
  store::Stmt& one = db.statement(sql);
  CHECK(&db.statement(sql) == &one);  // a hit of the address cache
  sql[7] = '2';                       // same buffer, same size, another text
  store::Stmt& two = db.statement(sql);
  CHECK(&two != &one);
  CHECK(two.sql() == "SELECT 2");
  bool has_row = false;
  REQUIRE(two.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(two.column_int64(0) == 2);
  two.reset();
  sql[7] = '1';  // and back: the first text's statement again
  CHECK(&db.statement(sql) == &one);
}

TEST_CASE("Stmt binds and reads text, integers and NULL over several rows", "[store]") {
  Location loc("memdb", "rows");
  Db db = open_or_fail(loc.uri);
  REQUIRE(db.exec(kSchema).ok());
  REQUIRE(insert_item(db, 1, "apple", nullptr).ok());
  REQUIRE(insert_item(db, 2, "banana split", "b").ok());
  REQUIRE(insert_item(db, 3, "cherry", "c").ok());

  store::Stmt& st = db.statement("SELECT id, name, tag FROM items WHERE id >= ?1 ORDER BY id");
  st.bind(1, int64_t{1});
  std::vector<std::string> seen;
  bool has_row = true;
  while (true) {
    REQUIRE(st.step(has_row).ok());
    if (!has_row) break;
    seen.push_back(std::to_string(st.column_int64(0)) + ":" + st.column_text(1) + ":" +
                   (st.column_is_null(2) ? std::string("NULL") : st.column_text(2)));
  }
  CHECK(seen == std::vector<std::string>{"1:apple:NULL", "2:banana split:b", "3:cherry:c"});

  store::Stmt& update = db.statement("UPDATE items SET tag = NULL WHERE id >= ?1");
  REQUIRE(update.bind(1, int64_t{2}).exec().ok());
  CHECK(db.changes() == 2);
}

TEST_CASE("a statement that cannot be prepared reports it when run", "[store]") {
  Location loc("memdb", "prepare");
  Db db = open_or_fail(loc.uri);
  store::Stmt& broken = db.statement("INSERT INTO later(x) VALUES (?1)");
  CHECK_FALSE(broken.prepare_status().ok());
  const Status s = broken.bind(1, int64_t{5}).exec();  // the bind is ignored
  CHECK(s.code == SQLITE_ERROR);
  CHECK(s.message.find("no such table") != std::string::npos);

  // Once the table exists the same SQL prepares on its next fetch.
  REQUIRE(db.exec("CREATE TABLE later(x INTEGER)").ok());
  store::Stmt& fixed = db.statement("INSERT INTO later(x) VALUES (?1)");
  CHECK(&fixed == &broken);
  CHECK(fixed.prepare_status().ok());
  CHECK(fixed.bind(1, int64_t{5}).exec().ok());
  CHECK(count_rows(db, "later") == 1);
}

TEST_CASE("opening an impossible path fails as a value", "[store]") {
  Db db;
  const Status s = Db::open("/nonexistent-eosim-dir/sub/x.db", db);
  CHECK_FALSE(s.ok());
  CHECK(s.code == SQLITE_CANTOPEN);
  CHECK(s.kind == ErrorKind::kEnvironment);
  // The file and the operating system's reason (store/failure.h).
  CHECK(s.message.rfind("/nonexistent-eosim-dir/sub/x.db: No such file or directory", 0) == 0);
  CHECK_FALSE(db.is_open());
  CHECK(db.handle() == nullptr);

  const Status script = [] {
    Db mem;
    REQUIRE(Db::open(":memory:", mem).ok());
    return mem.exec("CREATE TABLE t(x); SELEC nonsense");
  }();
  CHECK(script.kind == ErrorKind::kOther);
  CHECK(script.message.find("syntax error") != std::string::npos);
}

TEST_CASE("store: error kinds and hook ops are named by their tables", "[store]") {
  check_named_round_trip<store::ErrorKind>();
  check_named_round_trip<store::HookOp>();
  CHECK(sim::name_of(store::ErrorKind::kUniqueViolation) == "unique-violation");
  CHECK(sim::name_of(store::HookOp::kCommit) == "db.commit");
  const store::Status busy = store::Status::error(SQLITE_BUSY, "locked");
  CHECK(busy.to_string().rfind("busy (", 0) == 0);
}

// Stmt::exec() steps without a Status per step: it must still ask the fault hook before
// every step (a SELECT's rows included) and stop at the first injected fault.
TEST_CASE("exec asks the fault hook before every step and stops at an injected fault", "[store]") {
  Location loc("memdb", "exec_hook");
  Db db = open_or_fail(loc.uri);
  REQUIRE(db.exec("CREATE TABLE t(x); INSERT INTO t VALUES (1), (2), (3);").ok());
  int asked = 0;
  int fail_at = 0;  // 0: never
  db.set_fault_hook([&](store::HookOp op) {
    if (op != store::HookOp::kStatement) return SQLITE_OK;
    ++asked;
    return asked == fail_at ? SQLITE_BUSY : SQLITE_OK;
  });
  REQUIRE(db.statement("SELECT x FROM t").exec().ok());
  CHECK(asked == 4);  // three rows, then done
  asked = 0;
  fail_at = 3;
  const store::Status s = db.statement("SELECT x FROM t").exec();
  CHECK(s.code == SQLITE_BUSY);
  CHECK(s.message == "injected fault: db.statement");
  CHECK(asked == 3);
  // The statement still runs afterwards, from its first row.
  asked = 0;
  fail_at = 0;
  store::Stmt& again = db.statement("SELECT x FROM t");
  bool has_row = false;
  REQUIRE(again.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(again.column_int64(0) == 1);
  again.reset();
  // A failed step is released and reported: a constraint violation inside exec.
  db.set_fault_hook(nullptr);
  REQUIRE(db.exec("CREATE TABLE u(k PRIMARY KEY);").ok());
  REQUIRE(db.statement("INSERT INTO u VALUES (1)").exec().ok());
  const store::Status dup = db.statement("INSERT INTO u VALUES (1)").exec();
  CHECK(dup.is_unique_violation());
  CHECK(db.statement("SELECT COUNT(*) FROM u").step(has_row).ok());
}
