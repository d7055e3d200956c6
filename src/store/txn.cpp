#include "src/store/txn.h"

#include <string_view>

#include "sim/assert.h"

namespace store {

namespace {

// The transaction-control statements, numbered (sql.h): every Txn runs two of them.
const Sql kBeginDeferred{"BEGIN DEFERRED"};
const Sql kBeginImmediate{"BEGIN IMMEDIATE"};
const Sql kBeginExclusive{"BEGIN EXCLUSIVE"};
const Sql kCommitTxn{"COMMIT"};
const Sql kRollbackTxn{"ROLLBACK"};

const Sql& begin_sql(Txn::Mode mode) {
  switch (mode) {
    case Txn::Mode::kDeferred: return kBeginDeferred;
    case Txn::Mode::kImmediate: return kBeginImmediate;
    case Txn::Mode::kExclusive: return kBeginExclusive;
  }
  EOSIM_ASSERT(false);
  return kBeginImmediate;
}

// A server's BEGIN at each level, in Isolation's order (the dialect passes it unchanged).
const std::array<Sql, kIsolationNames.size()> kBeginAtLevel{
    Sql{"BEGIN ISOLATION LEVEL READ COMMITTED"}, Sql{"BEGIN ISOLATION LEVEL REPEATABLE READ"},
    Sql{"BEGIN ISOLATION LEVEL SERIALIZABLE"}};

}  // namespace

Txn::Txn(Db& db, Mode mode, std::optional<Isolation> isolation)
    : db_(db), mode_(mode), begin_status_(begin(isolation)) {
  active_ = begin_status_.ok();
  begun_ = active_ && !isolation_;  // with isolation_ set, BEGIN waits for writes()
  // SQLite refuses a nested BEGIN ("cannot start a transaction within a transaction"), so
  // for its BEGIN here the nesting is asked only when BEGIN failed (see begin()).
  if (!active_ && !isolation && !db_.is_server()) [[unlikely]] {
    EOSIM_ASSERT(!db_.in_transaction());
  }
}

Status Txn::begin(std::optional<Isolation> isolation) {
  EOSIM_ASSERT(db_.is_open());
  // eosim never nests transactions, so a BEGIN inside one is a programmer error. SQLite's
  // BEGIN run at once is checked by the constructor once it failed: the BEGIN every actor
  // runs needs no extra call into SQLite. A server may only warn, and a level's BEGIN
  // waits for writes(): those ask first.
  if (isolation || db_.is_server()) EOSIM_ASSERT(!db_.in_transaction());
  if (isolation && !db_.is_server()) {
    isolation_ = isolation;  // BEGIN waits for writes()
    if (*isolation == Isolation::kReadCommitted) return Status::success();
    return db_.data_version(data_version_);
  }
  return db_.run_control(isolation ? kBeginAtLevel[static_cast<std::size_t>(*isolation)]
                                   : begin_sql(mode_));
}

Status Txn::writes() {
  EOSIM_ASSERT(active_);
  if (begun_) return Status::success();
  begin_status_ = db_.run_control(begin_sql(mode_));
  active_ = begin_status_.ok();
  begun_ = active_;
  if (!active_ || *isolation_ == Isolation::kReadCommitted) return begin_status_;
  std::int64_t now = 0;
  Status s = db_.data_version(now);
  if (s.ok() && now != data_version_) {
    s = Status::from_sqlstate(
        "40001",
        "could not serialize access: another transaction committed to the database "
        "after this one began (SQLite at " +
            std::string(sim::name_of(*isolation_)) + ": the first committer wins)");
  }
  if (!s.ok()) abandon();
  return s;
}

Txn::~Txn() {
  if (active_) abandon();
}

Status Txn::commit() {
  EOSIM_ASSERT(active_);
  if (!begun_) {  // SQLite with a level, nothing written: nothing to commit
    active_ = false;
    return Status::success();
  }
  const int injected = db_.injected_fault(HookOp::kCommit);
  if (injected != SQLITE_OK) return injected_error(HookOp::kCommit, injected);
  Status s = db_.run_control(kCommitTxn);
  if (s.ok()) active_ = false;
  return s;
}

Status Txn::rollback() {
  EOSIM_ASSERT(active_);
  active_ = false;
  // Closed (a crash) or already rolled back by SQLite: nothing is left to undo.
  if (!db_.in_transaction()) return Status::success();
  return db_.run_control(kRollbackTxn);
}

void Txn::abandon() {
  // rollback() already counts a transaction SQLite ended as success, so a failure here left
  // the transaction open: the connection's next BEGIN would fail, and every caller relies on
  // the guard having ended it. It has no other answer to give, so it is not an error value.
  // The machine's own failure (a full disk) is the one exception: it ends the run.
  const Status s = rollback();
  EOSIM_ASSERT(s.ok() || !db_.in_transaction() || s.kind == ErrorKind::kEnvironment);
}

}  // namespace store
