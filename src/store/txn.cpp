#include "src/store/txn.h"

#include "sim/assert.h"

namespace store {

namespace {

const char* begin_sql(Txn::Mode mode) {
  switch (mode) {
    case Txn::Mode::kDeferred: return "BEGIN DEFERRED";
    case Txn::Mode::kImmediate: return "BEGIN IMMEDIATE";
    case Txn::Mode::kExclusive: return "BEGIN EXCLUSIVE";
  }
  EOSIM_ASSERT(false);
  return "BEGIN";
}

}  // namespace

Txn::Txn(Db& db, Mode mode) : db_(db) {
  EOSIM_ASSERT(db_.is_open());
  // A nested BEGIN would fail with "cannot start a transaction within a transaction";
  // eosim never nests, so that is a programmer error.
  EOSIM_ASSERT(!db_.in_transaction());
  begin_status_ = db_.run_control(begin_sql(mode));
  active_ = begin_status_.ok();
}

Txn::~Txn() {
  if (active_) abandon();
}

Status Txn::commit() {
  EOSIM_ASSERT(active_);
  const int injected = db_.injected_fault(HookOp::kCommit);
  if (injected != SQLITE_OK) {
    return Status::injected(injected,
                            "injected fault: " + std::string(sim::name_of(HookOp::kCommit)));
  }
  Status s = db_.run_control("COMMIT");
  if (s.ok()) active_ = false;
  return s;
}

Status Txn::rollback() {
  EOSIM_ASSERT(active_);
  active_ = false;
  // Closed (a crash) or already rolled back by SQLite: nothing is left to undo.
  if (!db_.in_transaction()) return Status::success();
  return db_.run_control("ROLLBACK");
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
