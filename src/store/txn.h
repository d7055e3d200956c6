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
//   - An isolation level, when given, is set by a database server's BEGIN (BEGIN ISOLATION
//     LEVEL ...). SQLite has one writer at a time and is always serializable; the levels
//     are given their meaning there without holding its lock from one step to the next:
//     BEGIN waits for writes(), and until then every read runs in autocommit and sees the
//     newest committed rows - what each statement sees under read committed. At
//     repeatable read and serializable, writes() then fails with 40001 (and rolls back)
//     when another connection committed to the database since the Txn began (SQLite's
//     data_version): the first committer wins, as on a server where the two touch a row
//     in common (the lab's transactions all update the one account). At read committed
//     writes() only takes the lock. Without a level, BEGIN runs at once, as always.
// REQUIRES: the Db outlives the Txn and is not moved while the Txn is active.

#include <array>
#include <cstdint>
#include <optional>

#include "sim/named.h"
#include "src/store/db.h"
#include "src/store/status.h"

namespace store {

// A transaction's isolation level, as SQL names it (a consumer's `isolation`).
enum class Isolation : std::uint8_t { kReadCommitted, kRepeatableRead, kSerializable };
inline constexpr std::array<sim::Named<Isolation>, 3> kIsolationNames{{
    {Isolation::kReadCommitted, "read-committed",
     "each statement sees the rows committed before it began (PostgreSQL's default)"},
    {Isolation::kRepeatableRead, "repeatable-read",
     "the whole transaction sees one snapshot; writing a row another transaction changed "
     "since fails with 40001"},
    {Isolation::kSerializable, "serializable",
     "as if the transactions ran one after another: a read another transaction's write "
     "would have changed fails one of them with 40001"},
}};
static_assert(sim::names_every_value(kIsolationNames));

class Txn {
 public:
  // kImmediate takes the write lock at BEGIN, so a conflicting writer fails there (kBusy)
  // instead of halfway through its work; that is the mode every eosim actor uses.
  enum class Mode { kDeferred, kImmediate, kExclusive };

  explicit Txn(Db& db, Mode mode = Mode::kImmediate,
               std::optional<Isolation> isolation = std::nullopt);
  ~Txn();
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  Txn(Txn&&) = delete;
  Txn& operator=(Txn&&) = delete;

  // The result of BEGIN.
  const Status& status() const { return begin_status_; }
  // BEGIN succeeded and neither commit() nor rollback() has ended the transaction yet.
  bool active() const { return active_; }

  // Before the transaction's first write (see the header). On SQLite with a level: BEGIN
  // (kBusy: another connection writes) and, above read committed, 40001 when another
  // connection committed since the Txn began; a failed Txn is over (rolled back).
  // Elsewhere nothing. REQUIRES: active().
  Status writes();

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
  // The constructor's work: BEGIN, or on SQLite with a level the data version it began at
  // (BEGIN waits for writes()). Builds begin_status_ in place, from its initializer: it
  // sets isolation_ and data_version_, so those stay declared before begin_status_.
  Status begin(std::optional<Isolation> isolation);

  Db& db_;
  Mode mode_;
  std::optional<Isolation> isolation_;  // SQLite's level, kept for writes()
  std::int64_t data_version_ = 0;       // SQLite: the database's version as the Txn began
  Status begin_status_;
  bool active_ = false;
  bool begun_ = false;  // BEGIN ran (false while SQLite with a level waits for writes())
};

}  // namespace store

namespace sim {
template <>
constexpr std::span<const Named<store::Isolation>> enum_names<store::Isolation>() {
  return store::kIsolationNames;
}
}  // namespace sim
