#pragma once
// store::Db — one SQLite connection, move-only, closed by its destructor; or, in a live run
// with --store postgres, one connection to a database server behind the same interface
// (remote.h: the seam, the dialect, SQLSTATEs).
//
// Invariants:
//   - Opened with SQLITE_OPEN_READWRITE | CREATE | URI, so "file:/NAME?vfs=memdb" names an
//     in-memory database shared by every connection of this process that opens the same
//     NAME (it vanishes when the last one closes). Extended result codes are on.
//   - There is NO busy timeout and no busy handler: a lock held by another connection
//     returns SQLITE_BUSY at once. Waiting would mean wall-clock sleeping, and eosim's runs
//     must not depend on time; the simulated actor decides what to do with kBusy.
//     The one exception is `eosim live` (set_live_lock_wait_ms): there several real
//     processes share the run's files, and a lock held by another one is waited for.
//   - Prepared statements are cached by their SQL text for the life of the connection
//     (preparing is most of the cost of a small run). References returned by statement()
//     stay valid until close(), across moves of the Db.
//   - close() finalizes every cached statement and closes the connection. A transaction still
//     open is rolled back by SQLite: this is how eosim models a process crash.
//   - The fault hook belongs to the open connection: close() drops it.
//   - Under a store::WarmScope (warm.h), close() of one of the scope's in-memory databases
//     parks the connection instead (statements reset, transaction rolled back, hook
//     dropped) and open() of the same name takes it back: the crash model is the same.
// Caveat (memdb, SQLite 3.40): while one connection holds a write lock (an open BEGIN
//   IMMEDIATE, or any write), other connections of the same memdb cannot even read — they get
//   SQLITE_BUSY. A file database lets them read the last committed state instead.
// REQUIRES: a connection is used from one thread at a time (opened with NOMUTEX).

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "src/store/sql.h"
#include "src/store/status.h"
#include "src/store/stmt.h"

namespace store {

class Db {
 public:
  using FaultHook = store::FaultHook;

  Db() = default;
  ~Db();
  Db(Db&& other) noexcept;
  Db& operator=(Db&& other) noexcept;
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  // Opens a path or a URI into `out` (whatever `out` held is closed first). On failure
  // `out` is left closed and the status says why. A postgres:// URL opens a server's
  // connection through the registered opener (remote.h); without one it is an error.
  static Status open(const std::string& uri_or_path, Db& out);

  // Process-wide: connections opened from now on wait up to `ms` for a lock held by
  // another process instead of returning kBusy at once. Only live actor processes and the
  // live supervisor call it (never the simulator, whose runs must not depend on time).
  static void set_live_lock_wait_ms(int ms);

  // Runs a script of one or more statements (schema, pragmas). Not cached, no fault hook.
  // REQUIRES: is_open().
  Status exec(std::string_view sql);

  // The cached statement for `sql` (exactly one statement), reset with bindings cleared.
  // REQUIRES: is_open().
  Stmt& statement(std::string_view sql);
  // The same for a numbered text (sql.h): after the connection's first fetch of it, found
  // by its number. REQUIRES: is_open().
  Stmt& statement(const Sql& sql);

  void close();
  bool is_open() const { return conn_ != nullptr; }
  // A database server's connection (remote.h), not SQLite's. False when closed.
  bool is_server() const { return conn_ != nullptr && conn_->remote != nullptr; }

  // Rows changed by the last completed INSERT/UPDATE/DELETE. REQUIRES: is_open().
  int64_t changes() const;
  // Rowid of the last successful INSERT on this connection. REQUIRES: is_open().
  int64_t last_insert_rowid() const;
  // True when open() took this connection back from a WarmScope's park (warm.h): its
  // database still holds whatever the last run left there. False when closed.
  bool reused() const { return conn_ != nullptr && conn_->reused; }
  // True inside an explicit transaction (SQLite is not in autocommit mode).
  // False when closed.
  bool in_transaction() const;

  // A competing transaction against this connection's open one, made real on a database
  // server (RemoteConn::stage_conflict): the server answers the next statement with 40001
  // or 40P01. SQLite, one writer at a time and serializable, has none: an error, and the
  // caller gives the SQLSTATE itself. REQUIRES: is_open().
  Status stage_conflict(Conflict conflict, const std::string& account);

  // Replaces the fault hook (an empty function removes it). REQUIRES: is_open().
  void set_fault_hook(FaultHook hook);

  // Escape hatch for what this layer does not wrap (sqlite3_serialize, ...); nullptr when
  // closed. The Db keeps ownership.
  sqlite3* handle() const;

 private:
  friend class Txn;
  friend class WarmScope;

  // Aligned to a cache line (through `recent`): the fields every statement reads (handle,
  // recorded, hook) share the first line, and each slot of `recent` lies within one line.
  struct Conn {
    sqlite3* handle = nullptr;   // null for a server's connection
    std::int32_t recorded = -1;  // its number in the installed store::Recorder, or -1
    bool reused = false;         // handed out again by a WarmScope
    FaultHook hook;
    std::unique_ptr<RemoteConn> remote;  // null for SQLite
    std::int64_t remote_changes = 0;     // changes() of a server's connection
    std::string uri;                     // as opened
    // std::less<> lets statement() look up a string_view without building a std::string.
    std::map<std::string, std::unique_ptr<Stmt>, std::less<>> statements;
    // A small cache in front of `statements`, by the address of the caller's SQL text:
    // actors pass the same literal every time, so one comparison of the text confirms a
    // hit where the map compared several long, alike keys. Only a matter of speed: a hit
    // is confirmed by the text, a miss goes to the map.
    // The text's size is kept beside its address, so that a slot another text of the same
    // address took (a caller's reused buffer) is told apart without reading the Stmt.
    // A text in the program's read-only data (a literal: read_only.h) cannot change at its
    // address, so its hit needs no comparison: `read_only` says so, found when the slot
    // was filled.
    struct Recent {
      const char* sql = nullptr;
      std::size_t size = 0;
      Stmt* stmt = nullptr;
      bool read_only = false;
    };
    static_assert(sizeof(Recent) == 32);
    // Two slots per set, the one filled last first: a set is one cache line.
    using RecentSet = std::array<Recent, 2>;
    // 64 sets, picked by a multiplicative hash of the address: with 16 slots picked by
    // address bits 3-6, the two dozen literals a connection runs (its actors' statements,
    // the table resets, BEGIN/COMMIT, the checker's queries) evicted each other on 30% of
    // the lookups. With one slot per set, whether two texts a connection alternates
    // between met in one slot depended on where the linker put them: 7k of 41k fetches per
    // 300 runs went to the map in one build, none in the next. Two ways make that rare.
    alignas(64) std::array<RecentSet, 64> recent{};
    // The statements of numbered texts (sql.h) fetched so far, by number; the last slot,
    // Sql::kUnnumbered's, stays empty.
    std::array<Stmt*, Sql::kNumbered + 1> numbered{};
    ~Conn();
  };

  // What the fault hook says about `op` (0 when there is no hook).
  int injected_fault(HookOp op) const;
  // The cached statement for `sql`, or nullptr (a miss of both caches).
  Stmt* find_statement(std::string_view sql);
  // find_statement's second cache, the map, which then fills `set` (the set of sql).
  Stmt* find_in_map(std::string_view sql, Conn::RecentSet& set);
  // Prepares `sql` and caches it (a miss of find_statement).
  Stmt& add_statement(std::string_view sql);
  // statement(const Sql&)'s first fetch on this connection: by text, then numbered.
  Stmt& number_statement(const Sql& sql);
  // Opens a database server's connection (remote.h).
  static Status open_remote(const std::string& uri, Db& out);
  // Numbers the connection just opened for the installed store::Recorder (recorder.h).
  void record_open();
  // Runs a cached transaction-control statement (BEGIN, COMMIT, ROLLBACK) without the
  // HookOp::kStatement hook: control statements have their own fault sites.
  Status run_control(const Sql& sql);
  // SQLite's PRAGMA data_version (changes when another connection commits), without the
  // hook. REQUIRES: an SQLite connection.
  Status data_version(std::int64_t& out);

  // Heap-allocated so that Stmt's pointer to the hook survives moves of the Db.
  std::unique_ptr<Conn> conn_;
};

}  // namespace store
