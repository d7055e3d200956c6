#pragma once
// store::WarmScope — keeps SQLite connections, with their prepared statements, alive
// across the runs that one thread makes (a sweep worker, an explore worker, a shrink, the
// GUI's sessions).
//
// Opening a connection, reading the schema into it and preparing its statements was most
// of the fixed cost of a small run. While a WarmScope lives on a thread, Db::close() of a
// connection to one of the scope's own databases (names from database_uri) does not close
// it: it resets every statement, rolls back an open transaction, drops the fault hook and
// parks the connection; the next Db::open() of the same name on this thread takes it back.
// A parked connection's database therefore survives the run: the caller (lab::World)
// empties its tables before the next run uses them.
//
// Invariants:
//   (1) Crash semantics are unchanged: whatever closes a connection mid-transaction (an
//       actor's crash) loses that transaction, exactly as sqlite3_close would — the
//       ROLLBACK happens before the connection can be handed out again.
//   (2) Only names made by database_uri are parked; files (--keep-db) and other names
//       open and close as usual.
//   (3) Nothing about which parked connection a caller gets can change a result: they
//       differ only in which statements they have already prepared.
//   (4) Each set of the scope's databases (a slot) is used by one world at a time: claim()
//       hands out a slot no other holder has, or fails when all kSlots are held. A sweep
//       worker's one world at a time always gets slot 0; the GUI's session holds a few at
//       once (the shown world, a replay built aside, the whole run's end).
// REQUIRES: at most one WarmScope per thread at a time; every Db opened under it is closed
//   (or destroyed) on the same thread before the scope ends.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "src/store/db.h"

namespace store {

class WarmScope {
 public:
  WarmScope();
  ~WarmScope();  // closes every parked connection, which frees the databases
  WarmScope(const WarmScope&) = delete;
  WarmScope& operator=(const WarmScope&) = delete;

  // The scope of the calling thread, or nullptr.
  static WarmScope* current();

  static constexpr int kSlots = 8;

  // The in-memory database `name` ("orders", "ledger", ...) of this scope's set `slot`.
  std::string database_uri(const std::string& name, int slot = 0) const;

  // Invariant (4): a free slot into `slot`, or false. REQUIRES: release(slot) once done,
  // after closing the connections.
  bool claim(int& slot);
  void release(int slot);

  // How many connections were opened for real, and how many were taken back from the
  // park (for tests and the benchmark).
  std::uint64_t opened() const { return opened_; }
  std::uint64_t reused() const { return reused_; }

 private:
  friend class Db;
  bool owns(const std::string& uri) const;
  // A parked connection to `uri`, or nullptr.
  std::unique_ptr<Db::Conn> take(const std::string& uri);
  void park(std::unique_ptr<Db::Conn> conn);

  WarmScope* previous_;
  std::string prefix_;
  bool claimed_[kSlots] = {};
  std::map<std::string, std::vector<std::unique_ptr<Db::Conn>>> parked_;
  std::uint64_t opened_ = 0, reused_ = 0;
};

// The calling thread's scope for holders that come and go in any order (the GUI's
// sessions): the thread's scope when it has one (not owned), else one made now and kept
// while any of its holders keeps the pointer.
std::shared_ptr<WarmScope> shared_warm_scope();

// A WarmScope for the calling thread unless it already has one (then nothing): what a
// sweep worker or a shrink holds around its runs.
class WarmUnlessWarm {
 public:
  WarmUnlessWarm() {
    if (WarmScope::current() == nullptr) scope_.emplace();
  }

 private:
  std::optional<WarmScope> scope_;
};

}  // namespace store
