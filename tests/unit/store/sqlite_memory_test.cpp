// store::configure_sqlite: SQLite allocates through eosim's size classes, any thread frees
// any block, and a database works on top of it.
#include "src/store/sqlite_memory.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/store/db.h"

TEST_CASE("sqlite memory: SQLite allocates in eosim's size classes", "[store][memory]") {
  const bool installed = store::configure_sqlite();
  if (!store::kOwnAllocator) {
    CHECK_FALSE(installed);
    return;
  }
  REQUIRE(installed);
  CHECK(store::configure_sqlite());  // once: a second call changes nothing
  void* small = sqlite3_malloc(100);
  REQUIRE(small != nullptr);
  CHECK(sqlite3_msize(small) == 128);  // its class; SQLite's own allocator says 100
  std::memset(small, 7, 100);
  void* grown = sqlite3_realloc(small, 120);  // still fits: the same block
  CHECK(grown == small);
  grown = sqlite3_realloc(grown, 5000);
  REQUIRE(grown != nullptr);
  CHECK(sqlite3_msize(grown) == 6144);                 // the halfway class between 4 and 8 KB
  CHECK(static_cast<unsigned char*>(grown)[99] == 7);  // the content moved with it
  void* big = sqlite3_malloc(100000);                  // above the classes: malloc's, as asked
  REQUIRE(big != nullptr);
  CHECK(sqlite3_msize(big) == 100000);
  sqlite3_free(big);
  sqlite3_free(grown);
  void* again = sqlite3_malloc(5000);
  CHECK(again == grown);  // the thread's freed block of that class, reused
  sqlite3_free(again);
}

TEST_CASE("sqlite memory: every size up to 8 KB gets the smallest class that holds it",
          "[store][memory]") {
  if (!store::kOwnAllocator) return;
  REQUIRE(store::configure_sqlite());
  const std::vector<int> classes = {32,  48,   64,   96,   128,  192,  256,  384, 512,
                                    768, 1024, 1536, 2048, 3072, 4096, 6144, 8192};
  int mismatches = 0;
  for (int n = 1; n <= 8200; ++n) {
    int expected = n;  // above the classes: malloc's block, as asked
    for (const int capacity : classes) {
      if (capacity >= n) {
        expected = capacity;
        break;
      }
    }
    void* p = sqlite3_malloc(n);
    REQUIRE(p != nullptr);
    if (sqlite3_msize(p) != static_cast<sqlite3_uint64>(expected)) ++mismatches;
    sqlite3_free(p);
    void* q = ::operator new(static_cast<std::size_t>(n));  // the program's, the same classes
    if (sqlite3_msize(q) != static_cast<sqlite3_uint64>(expected)) ++mismatches;
    ::operator delete(q);
  }
  CHECK(mismatches == 0);
}

TEST_CASE("sqlite memory: operator new takes the same size classes as SQLite", "[store][memory]") {
  if (!store::kOwnAllocator) return;  // ASan keeps the C library's operator new
  REQUIRE(store::configure_sqlite());
  // A block the program freed is the next block of its class SQLite asks for: one list.
  // With malloc behind operator new, 100 bytes and SQLite's 128-byte class (144 with its
  // header) sit in different bins, and SQLite gets another block.
  void* ours = ::operator new(100);
  ::operator delete(ours);
  void* sqlites = sqlite3_malloc(100);
  CHECK(sqlites == ours);
  CHECK(sqlite3_msize(sqlites) == 128);
  sqlite3_free(sqlites);
  const auto text = std::make_unique<std::string>(5000, 'x');         // the 6 KB class
  const auto big = std::make_unique<std::vector<char>>(100000, 'y');  // above the classes
  CHECK(text->back() == 'x');
  CHECK(big->back() == 'y');
}

TEST_CASE("sqlite memory: a block freed by another thread and a database on top",
          "[store][memory]") {
  static_cast<void>(store::configure_sqlite());
  std::vector<void*> blocks;
  for (int i = 0; i < 64; ++i) blocks.push_back(sqlite3_malloc(24 + 40 * i));
  std::thread other([&blocks] {
    for (void* p : blocks) sqlite3_free(p);
  });
  other.join();
  store::Db db;
  REQUIRE(store::Db::open("file:/sqlite-memory-test?vfs=memdb", db).ok());
  REQUIRE(db.exec("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT)").ok());
  REQUIRE(db.exec("BEGIN").ok());
  for (int i = 0; i < 500; ++i) {
    store::Stmt& insert = db.statement("INSERT INTO t(body) VALUES (printf('%.*c', 300, 'x'))");
    REQUIRE(insert.exec().ok());
  }
  REQUIRE(db.exec("ROLLBACK").ok());
  REQUIRE(db.exec("INSERT INTO t(body) VALUES ('kept')").ok());
  store::Stmt& count = db.statement("SELECT count(*), sum(length(body)) FROM t");
  bool row = false;
  REQUIRE(count.step(row).ok());
  REQUIRE(row);
  CHECK(count.column_int64(0) == 1);
  CHECK(count.column_int64(1) == 4);
}

TEST_CASE("sqlite memory: connections open with secure_delete off", "[store][memory]") {
  store::Db db;
  REQUIRE(store::Db::open("file:/sqlite-memory-secure-delete?vfs=memdb", db).ok());
  store::Stmt& pragma = db.statement("PRAGMA secure_delete");
  bool row = false;
  REQUIRE(pragma.step(row).ok());
  REQUIRE(row);
  CHECK(pragma.column_int64(0) == 0);  // Debian's SQLite starts with 1 (SQLITE_SECURE_DELETE)
}
