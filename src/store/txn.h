#pragma once
// store::Txn — a transaction guard: BEGIN in the constructor, ROLLBACK in the destructor
// unless commit() succeeded.
//
// Invariants:
//   - The constructor runs BEGIN [DEFERRED|IMMEDIATE|EXCLUSIVE]; its result is status().
//     When it failed (kBusy: another connection holds the write lock) the Txn is inactive and
//     commit()/rollback() must not be called.
//   - commit() first asks the fault hook about HookOp::kCommit. An injected code fails the commit
//     without running COMMIT; like a real failed COMMIT, the transaction stays open and the
//     caller rolls back (or lets the destructor do it).
//   - A failed COMMIT (BUSY) keeps the transaction open too; a successful one ends it.
//   - rollback(), abandon() and the destructor tolerate a transaction SQLite already ended
//     (it rolls back by itself after some errors, and close() — a crash — rolls back too).
// REQUIRES: the Db outlives the Txn and is not moved while the Txn is active.

#include "src/store/db.h"
#include "src/store/status.h"

namespace store {

class Txn {
 public:
  // kImmediate takes the write lock at BEGIN, so a conflicting writer fails there (kBusy)
  // instead of halfway through its work; that is the mode every eosim actor uses.
  enum class Mode { kDeferred, kImmediate, kExclusive };

  explicit Txn(Db& db, Mode mode = Mode::kImmediate);
  ~Txn();
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  Txn(Txn&&) = delete;
  Txn& operator=(Txn&&) = delete;

  // The result of BEGIN.
  const Status& status() const { return begin_status_; }
  // BEGIN succeeded and neither commit() nor rollback() has ended the transaction yet.
  bool active() const { return active_; }

  // REQUIRES: active().
  Status commit();
  // REQUIRES: active(). Ends the guard's responsibility whatever the result.
  Status rollback();
  // REQUIRES: active(). Rolls back for a caller that already has an error (or a refusal)
  // to report: ROLLBACK of an open transaction fails only on a broken connection (an I/O
  // error while undoing the journal), which no caller can repair, so this asserts that the
  // transaction is over instead of returning a Status. The destructor uses it too.
  void abandon();

 private:
  Db& db_;
  Status begin_status_;
  bool active_ = false;
};

}  // namespace store
