// store/private_files.h: files through the "eosim-files" VFS lock exactly as memdb does
// (checked against the real memdb, operation by operation), a crash still loses the open
// transaction, no journal ever reaches the disk, and TempDir cleans up after itself.
#include "src/store/private_files.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "src/store/db.h"
#include "tests/support/temp_dir.h"
#include "tests/support/db_query.h"

namespace {

// Three connections to one database, driven by a script of operations; every result
// (SQLite's extended code, and the rows a read saw) goes into a log.
class Driver {
 public:
  explicit Driver(std::string uri) : uri_(std::move(uri)) {
    for (auto& c : conns_) REQUIRE(store::Db::open(uri_, c).ok());
    REQUIRE(conns_[0].exec("CREATE TABLE t(x INTEGER)").ok());
  }
  ~Driver() {
    for (auto& cursor : cursors_) sqlite3_finalize(cursor);
  }

  void apply(int conn, int op, std::vector<std::string>& log) {
    store::Db& db = conns_[conn];
    static const char* const kScript[] = {"BEGIN", "BEGIN IMMEDIATE",
                                          "INSERT INTO t VALUES (1)", "COMMIT", "ROLLBACK"};
    std::string entry = std::to_string(conn) + ":" + std::to_string(op) + " ";
    if (op < 5) {
      entry += std::to_string(db.exec(kScript[op]).code);
    } else if (op == 5) {  // a read left standing on its first row
      if (cursors_[conn] == nullptr) {
        sqlite3_prepare_v2(db.handle(), "SELECT x FROM t", -1, &cursors_[conn], nullptr);
      }
      entry += std::to_string(sqlite3_step(cursors_[conn]));
    } else if (op == 6) {
      entry += std::to_string(sqlite3_reset(cursors_[conn]));
    } else if (op == 7) {  // a crash: the connection closes, whatever it was doing
      sqlite3_finalize(cursors_[conn]);
      cursors_[conn] = nullptr;
      db.close();
      entry += std::to_string(store::Db::open(uri_, db).code);
    } else {
      entry += read_all(db);
    }
    log.push_back(entry);
  }

 private:
  static std::string read_all(store::Db& db) {
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db.handle(), "SELECT count(*) FROM t", -1, &st, nullptr);
    const int rc = sqlite3_step(st);
    std::string out = std::to_string(rc);
    if (rc == SQLITE_ROW) out += " rows " + std::to_string(sqlite3_column_int64(st, 0));
    sqlite3_finalize(st);
    return out;
  }

  std::string uri_;
  store::Db conns_[3];
  sqlite3_stmt* cursors_[3] = {nullptr, nullptr, nullptr};
};

// A script of `n` operations from a fixed seed (xorshift: the test needs no library).
std::vector<std::pair<int, int>> script(std::uint64_t seed, int n) {
  std::vector<std::pair<int, int>> ops;
  for (int i = 0; i < n; ++i) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    ops.emplace_back(static_cast<int>(seed % 3), static_cast<int>((seed >> 8) % 9));
  }
  return ops;
}

std::vector<std::string> run_script(const std::string& uri,
                                    const std::vector<std::pair<int, int>>& ops) {
  std::vector<std::string> log;
  Driver driver(uri);
  for (const auto& [conn, op] : ops) driver.apply(conn, op, log);
  return log;
}

using test_support::count_rows;

}  // namespace

TEST_CASE("private files: every lock and read as memdb gives it", "[store][private_files]") {
  test_support::TempDir tmp("private-files");
  int busy = 0, rows_seen = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    INFO("script seed " << seed);
    const auto ops = script(seed * 0x9E3779B97F4A7C15ull, 200);
    const std::string name = "db" + std::to_string(seed);
    const std::vector<std::string> memdb =
        run_script("file:/eosim-private-files-test-" + name + "?vfs=memdb", ops);
    const std::vector<std::string> files =
        run_script(store::private_file_uri(tmp / (name + ".db")), ops);
    REQUIRE(files == memdb);
    for (const auto& entry : memdb) {
      busy += entry.find(" " + std::to_string(SQLITE_BUSY)) != std::string::npos;
      rows_seen += entry.find(" rows ") != std::string::npos;
    }
  }
  // The scripts reach the interesting cases: locks refused, and reads that saw rows.
  CHECK(busy > 100);
  CHECK(rows_seen > 100);
}

TEST_CASE("private files: a crash loses the open transaction, even one spilled to the file",
          "[store][private_files]") {
  test_support::TempDir tmp("private-files");
  const std::string uri = store::private_file_uri(tmp / "crash.db");
  store::Db anchor, actor;
  REQUIRE(store::Db::open(uri, anchor).ok());
  REQUIRE(anchor.exec("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1)").ok());
  for (const int rows : {3, 20000}) {
    INFO(rows << " rows in the lost transaction");
    REQUIRE(store::Db::open(uri, actor).ok());
    // A tiny page cache makes the big transaction write pages into the file before
    // it commits; the journal in memory must bring them back.
    REQUIRE(actor.exec("PRAGMA cache_size = 10").ok());
    REQUIRE(actor.exec("BEGIN IMMEDIATE").ok());
    for (int i = 0; i < rows; ++i) {
      REQUIRE(actor.statement("INSERT INTO t VALUES (?1)").bind(1, std::int64_t{i}).exec().ok());
    }
    // The journal is never a file: the folder holds the database alone.
    CHECK(std::distance(std::filesystem::directory_iterator(tmp.path),
                        std::filesystem::directory_iterator()) == 1);
    actor.close();
    CHECK(count_rows(anchor, "t") == 1);
  }
  REQUIRE(store::Db::open(uri, actor).ok());
  REQUIRE(actor.statement("INSERT INTO t VALUES (2)").exec().ok());
  CHECK(count_rows(anchor, "t") == 2);
}

TEST_CASE("private files: a path with URI characters names exactly that file",
          "[store][private_files]") {
  test_support::TempDir tmp("private-files");
  const std::string dir = tmp / "a?b#c%d";
  std::filesystem::create_directory(dir);
  store::Db db;
  REQUIRE(store::Db::open(store::private_file_uri(dir + "/x.db"), db).ok());
  REQUIRE(db.exec("CREATE TABLE t(x INTEGER)").ok());
  CHECK(std::filesystem::exists(dir + "/x.db"));
}

TEST_CASE("TempDir: a fresh private folder, removed with what it holds",
          "[store][private_files]") {
  test_support::TempDir tmp("private-files");
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", tmp.path.c_str(), 1);
  std::string path;
  {
    store::TempDir a, b;
    REQUIRE(store::TempDir::create(a).ok());
    REQUIRE(store::TempDir::create(b).ok());
    CHECK(a.path() != b.path());
    CHECK(std::filesystem::path(a.path()).parent_path() == tmp.path);
    CHECK((std::filesystem::status(a.path()).permissions() & std::filesystem::perms::all) ==
          std::filesystem::perms::owner_all);
    path = a.path();
    store::Db db;
    REQUIRE(store::Db::open(store::private_file_uri(path + "/x.db"), db).ok());
    REQUIRE(db.exec("CREATE TABLE t(x INTEGER)").ok());
    db.close();
    store::TempDir moved(std::move(a));
    CHECK(a.path().empty());
    CHECK(std::filesystem::exists(path + "/x.db"));
  }
  CHECK_FALSE(std::filesystem::exists(path));
  CHECK(std::filesystem::is_empty(tmp.path));
  ::setenv("TMPDIR", (tmp / "missing").c_str(), 1);
  store::TempDir none;
  const store::Status s = store::TempDir::create(none);
  CHECK_FALSE(s.ok());
  CHECK(s.message.find(tmp / "missing") != std::string::npos);
  if (old != nullptr) ::setenv("TMPDIR", saved.c_str(), 1); else ::unsetenv("TMPDIR");
}
