#pragma once
// store::Stmt — one prepared statement, owned and cached by a store::Db.
//
// Invariants:
//   - A Stmt is created only by Db::statement() and lives until its Db closes; callers hold
//     it by reference and never copy or move it.
//   - Db::statement() hands it out reset, with all bindings cleared. Fetching the same SQL
//     again resets it: finish with one use before starting the next.
//   - If preparing failed (syntax error, missing table, lock during schema load), every
//     step()/exec() returns that prepare status and binds are ignored; the next
//     Db::statement() of the same SQL tries to prepare again.
//   - Every error carries sqlite3_extended_errcode() of the connection.
//   - Before each step the connection's fault hook is asked about HookOp::kStatement; a non-zero
//     answer is returned as the step's error and the statement is not run.
// REQUIRES: bind indexes are 1-based and exist; column accessors are called only while the
//   last step() reported a row, with 0-based indexes below the column count.
// Locks: a SELECT left on a row keeps its read lock until reset() (or the next fetch), and
//   that blocks other connections' commits; reset() once done with a partial read.
// On a database server (remote.h) the first step() runs the statement, translated to the
//   server's dialect once, and later steps hand out its rows; bindings are text.

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/named.h"
#include "src/store/recorder.h"
#include "src/store/remote.h"
#include "src/store/status.h"

namespace store {

// The places a fault hook is asked about: a statement's step, a transaction's commit.
// Named (sim::name_of) "db.statement", "db.commit": the op's name in an injected error's
// message (and the fault site's name in scenario files).
enum class HookOp : std::uint8_t { kStatement, kCommit };
inline constexpr std::array<sim::Named<HookOp>, 2> kHookOpNames{{
    {HookOp::kStatement, "db.statement", "a statement's step"},
    {HookOp::kCommit, "db.commit", "a transaction's commit"},
}};
static_assert(sim::names_every_value(kHookOpNames));

// Asked before a fault site runs; returns 0 to proceed or an SQLite result code (e.g.
// SQLITE_IOERR_WRITE, SQLITE_BUSY) to inject instead.
using FaultHook = std::function<int(HookOp op)>;

// The error a fault hook's non-zero answer `code` at `op` stands for ("injected fault:
// db.statement"). Out of line: the fault sites' hot paths only test the answer.
Status injected_error(HookOp op, int code);

class alignas(64) Stmt {  // aligned: its hot fields (below) share one cache line
 public:
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  Stmt(Stmt&&) = delete;
  Stmt& operator=(Stmt&&) = delete;

  Stmt& bind(int index, int64_t value);
  Stmt& bind(int index, std::string_view value);  // copied by SQLite (SQLITE_TRANSIENT)
  Stmt& bind_null(int index);

  // One step. has_row is true when a row is available to the column accessors.
  Status step(bool& has_row) { return step_impl(has_row, /*hooked=*/true); }
  // Steps until done (INSERT/UPDATE/DELETE, or a SELECT whose rows are not wanted), then
  // resets, keeping the bindings. Db::changes()/last_insert_rowid() describe this run.
  Status exec();

  int column_count() const;                  // of the result rows; REQUIRES: prepared
  std::string column_name(int index) const;  // REQUIRES: prepared, index < column_count()
  int64_t column_int64(int index) const;
  std::string column_text(int index) const;  // "" for NULL
  bool column_is_null(int index) const;

  // Rewinds and releases the statement's locks; bindings are kept.
  void reset();

  const std::string& sql() const { return sql_; }
  // The result of the last prepare attempt (ok for a usable statement).
  const Status& prepare_status() const { return prepare_status_; }

 private:
  friend class Db;
  Stmt(sqlite3* db, const FaultHook* hook, const std::int32_t* recorded, std::string sql);
  // A statement of a database server's connection; `changes` is the Db's count to update.
  Stmt(RemoteConn* remote, std::int64_t* changes, const FaultHook* hook,
       const std::int32_t* recorded, std::string sql);

  void prepare();  // (re)prepares when not yet prepared
  // Reset + clear bindings (Db::statement). Inline: every fetch of a prepared SQLite
  // statement takes the first branch.
  void rewind_for_fetch() {
    has_row_ = false;
    if (stmt_ == nullptr) {
      rewind_unprepared();
      return;
    }
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  void rewind_unprepared();                      // a server's statement, or a failed prepare
  Status step_impl(bool& has_row, bool hooked);  // hooked=false: BEGIN/COMMIT/ROLLBACK
  // One step of a prepared SQLite statement, the only one: with `hooked`, the fault hook
  // is asked first, and its answer (a positive SQLite code) comes back negated, the step
  // not run; else sqlite3_step()'s result, recorded. step_impl() and exec() both step
  // through it. (A plain int, not a pair: exec()'s loop then stays in one hot block.)
  int step_sqlite(bool hooked);
  // The error of a step whose step_sqlite() result `rc` is neither a row nor done: the
  // injected fault (rc < 0), or SQLite's error after releasing the statement's locks.
  Status step_error(int rc);
  // Appends this call to the installed store::Recorder, if this connection is recorded
  // (inline: the test is on every bind, step, reset and column read).
  void record(Recorder::Kind kind, int index = 0, int result = 0, int64_t value = 0) const {
    if (*recorded_ >= 0) record_call(kind, index, result, value);
  }
  void record_call(Recorder::Kind kind, int index, int result, int64_t value) const;
  void check_bind(int rc, int index) const;
  void check_column(int index) const;
  // The remote side of bind and step (remote_ != nullptr).
  void bind_remote(int index, Value value);
  // Out of line (the conversion to text too), so that SQLite's binds keep a small frame.
  void bind_remote(int index, std::int64_t value);
  void bind_remote(int index, std::string_view value);
  Status step_remote(bool& has_row, bool hooked);
  const Value& remote_value(int index) const;

  // The fields a fetch, bind, step or exec reads come first, within one cache line.
  sqlite3_stmt* stmt_ = nullptr;
  const FaultHook* hook_;         // points into the owning connection; stable while it is open
  const std::int32_t* recorded_;  // the connection's number for a store::Recorder, likewise
  // A database server's statement (remote.h); null for SQLite.
  RemoteConn* remote_ = nullptr;
  int columns_ = 0;  // sqlite3_column_count() after the last successful prepare
  bool has_row_ = false;
  bool ran_ = false;  // a server's statement: rows_ holds this run's result
  sqlite3* db_;
  std::string sql_;
  Status prepare_status_;
  std::int64_t* remote_changes_ = nullptr;
  std::string remote_sql_;     // sql_ in the server's dialect
  std::vector<Value> params_;  // $1..$N
  RemoteRows rows_;
  std::size_t next_row_ = 0;
};

}  // namespace store

namespace sim {
template <>
constexpr std::span<const Named<store::HookOp>> enum_names<store::HookOp>() {
  return store::kHookOpNames;
}
}  // namespace sim
