#include "src/store/stmt.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "sim/assert.h"
#include "src/store/failure.h"

namespace store {

Stmt::Stmt(sqlite3* db, const FaultHook* hook, const std::int32_t* recorded, std::string sql)
    : hook_(hook), recorded_(recorded), db_(db), sql_(std::move(sql)) {
  EOSIM_ASSERT(db_ != nullptr);
  EOSIM_ASSERT(hook_ != nullptr);
  prepare();
}

Stmt::Stmt(RemoteConn* remote, std::int64_t* changes, const FaultHook* hook,
           const std::int32_t* recorded, std::string sql)
    : hook_(hook),
      recorded_(recorded),
      remote_(remote),
      db_(nullptr),
      sql_(std::move(sql)),
      remote_changes_(changes) {
  EOSIM_ASSERT(remote_ != nullptr && remote_changes_ != nullptr);
  EOSIM_ASSERT(hook_ != nullptr);
  prepare();
}

Stmt::~Stmt() { sqlite3_finalize(stmt_); }

// The error paths and the rarely taken ones below are cold: out of the hot functions' way
// (their code is placed apart and their calls are predicted not taken).
[[gnu::cold]] void Stmt::record_call(Recorder::Kind kind, int index, int result,
                                     int64_t value) const {
  if (Recorder* recorder = recording(*recorded_)) {
    recorder->add(kind, *recorded_, sql_, index, result, value);
  }
}

void Stmt::prepare() {
  if (remote_ != nullptr) {  // the server parses it when it runs; only the dialect differs
    remote_sql_ = remote_->dialect(sql_);
    prepare_status_ = Status::success();
    return;
  }
  if (stmt_ != nullptr) return;
  const char* tail = nullptr;
  // PERSISTENT: these statements live as long as the connection (it is a hint to the
  // allocator, not a behaviour change).
  const int rc = sqlite3_prepare_v3(db_, sql_.data(), static_cast<int>(sql_.size()),
                                    SQLITE_PREPARE_PERSISTENT, &stmt_, &tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    prepare_status_ = sqlite_error(db_, sqlite3_extended_errcode(db_), "preparing: " + sql_);
    return;
  }
  // One statement per Stmt: trailing SQL would be silently ignored, which is a programmer
  // error (scripts go through Db::exec). An empty statement is one too.
  EOSIM_ASSERT(stmt_ != nullptr);
  for (const char* p = tail; p != nullptr && *p != '\0'; ++p) {
    EOSIM_ASSERT(*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r' || *p == ';');
  }
  columns_ = sqlite3_column_count(stmt_);
  prepare_status_ = Status::success();
}

[[gnu::cold]] void Stmt::rewind_unprepared() {
  if (remote_ != nullptr) {
    reset();
    params_.clear();
    return;
  }
  prepare();  // a failed prepare is tried again (see the header)
}

[[gnu::cold]] void Stmt::check_bind(int rc, int index) const {
  // SQLITE_RANGE (bad index) is a programmer error; SQLITE_NOMEM is not worth a value path.
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "eosim: bind %d failed (%s) for: %s\n", index, sqlite3_errstr(rc),
                 sql_.c_str());
  }
  EOSIM_ASSERT(rc == SQLITE_OK);
}

void Stmt::bind_remote(int index, Value value) {
  EOSIM_ASSERT(index >= 1);
  if (params_.size() < static_cast<std::size_t>(index)) params_.resize(index);
  params_[index - 1] = std::move(value);
}

[[gnu::noinline]] void Stmt::bind_remote(int index, std::int64_t value) {
  bind_remote(index, Value(std::to_string(value)));
}

[[gnu::noinline]] void Stmt::bind_remote(int index, std::string_view value) {
  bind_remote(index, Value(std::string(value)));
}

Stmt& Stmt::bind(int index, int64_t value) {
  if (remote_ != nullptr) bind_remote(index, value);
  if (stmt_ != nullptr) {
    const int rc = sqlite3_bind_int64(stmt_, index, value);
    if (rc != SQLITE_OK) [[unlikely]]
      check_bind(rc, index);
  }
  record(Recorder::Kind::kBindInt, index, 0, value);
  return *this;
}

Stmt& Stmt::bind(int index, std::string_view value) {
  if (remote_ != nullptr) bind_remote(index, value);
  if (stmt_ != nullptr) {
    const int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT,
                                       SQLITE_UTF8);
    if (rc != SQLITE_OK) [[unlikely]]
      check_bind(rc, index);
  }
  if (Recorder* recorder = recording(*recorded_)) {
    recorder->bind_text(*recorded_, sql_, index, value);
  }
  return *this;
}

Stmt& Stmt::bind_null(int index) {
  if (remote_ != nullptr) bind_remote(index, std::nullopt);
  if (stmt_ != nullptr) {
    const int rc = sqlite3_bind_null(stmt_, index);
    if (rc != SQLITE_OK) [[unlikely]]
      check_bind(rc, index);
  }
  record(Recorder::Kind::kBindNull, index);
  return *this;
}

[[gnu::cold]] Status injected_error(HookOp op, int code) {
  return Status::injected(code, "injected fault: " + std::string(sim::name_of(op)));
}

[[gnu::cold]] Status Stmt::step_error(int rc) {
  if (rc < 0) return injected_error(HookOp::kStatement, -rc);
  Status s = sqlite_error(db_, sqlite3_extended_errcode(db_), "running: " + sql_);
  // Release the statement's locks now; the caller decides about the transaction.
  sqlite3_reset(stmt_);
  return s;
}

[[gnu::cold]] Status Stmt::step_remote(bool& has_row, bool hooked) {
  if (!ran_) {
    if (hooked && *hook_) {
      const int injected = (*hook_)(HookOp::kStatement);
      if (injected != SQLITE_OK) return injected_error(HookOp::kStatement, injected);
    }
    rows_ = RemoteRows{};
    next_row_ = 0;
    if (!remote_sql_.empty()) {  // a statement with no meaning there (PRAGMA) does nothing
      Status s = remote_->run(remote_sql_, params_, rows_);
      if (!s.ok()) return s;
    }
    *remote_changes_ = rows_.changes;
    ran_ = true;
  }
  if (next_row_ < rows_.rows.size()) {
    ++next_row_;
    has_row = true;
    has_row_ = true;
  }
  return Status::success();
}

const Value& Stmt::remote_value(int index) const { return rows_.rows[next_row_ - 1][index]; }

// In line in both callers: exec() steps in a loop without a Status per step.
[[gnu::always_inline]] inline int Stmt::step_sqlite(bool hooked) {
  if (hooked && *hook_) {
    const int injected = (*hook_)(HookOp::kStatement);
    if (injected != SQLITE_OK) [[unlikely]]
      return -injected;
  }
  const int rc = sqlite3_step(stmt_);
  record(Recorder::Kind::kStep, 0, rc);
  return rc;
}

Status Stmt::step_impl(bool& has_row, bool hooked) {
  has_row = false;
  has_row_ = false;
  if (remote_ != nullptr) return step_remote(has_row, hooked);
  if (stmt_ == nullptr) return prepare_status_;
  const int rc = step_sqlite(hooked);
  if (rc == SQLITE_ROW) {
    has_row = true;
    has_row_ = true;
    return Status::success();
  }
  if (rc == SQLITE_DONE) return Status::success();
  return step_error(rc);
}

// Steps until done; has_row_ ends false on every path, as after step_impl's last step.
Status Stmt::exec() {
  if (remote_ != nullptr || stmt_ == nullptr) [[unlikely]] {
    bool has_row = true;
    while (has_row) {
      Status s = step_impl(has_row, /*hooked=*/true);
      if (!s.ok()) return s;
    }
  } else {
    has_row_ = false;
    int rc = SQLITE_ROW;
    while (rc == SQLITE_ROW) rc = step_sqlite(/*hooked=*/true);
    if (rc != SQLITE_DONE) [[unlikely]]
      return step_error(rc);
  }
  reset();
  return Status::success();
}

void Stmt::reset() {
  has_row_ = false;
  ran_ = false;
  if (stmt_ != nullptr) sqlite3_reset(stmt_);
  record(Recorder::Kind::kReset);
}

void Stmt::check_column(int index) const {
  EOSIM_ASSERT(has_row_);
  EOSIM_ASSERT(index >= 0);
  // The count read at prepare time answers every read in range without a call into
  // SQLite; only an index beyond it asks again (a schema change may have re-prepared it).
  EOSIM_ASSERT(index < columns_ || index < column_count());
}

int Stmt::column_count() const {
  if (remote_ != nullptr) {
    return has_row_ ? static_cast<int>(rows_.rows[next_row_ - 1].size()) : 0;
  }
  EOSIM_ASSERT(stmt_ != nullptr);
  return sqlite3_column_count(stmt_);
}

std::string Stmt::column_name(int index) const {
  EOSIM_ASSERT(remote_ == nullptr);  // only the simulator's table views ask for names
  EOSIM_ASSERT(stmt_ != nullptr);
  EOSIM_ASSERT(index >= 0 && index < sqlite3_column_count(stmt_));
  const char* name = sqlite3_column_name(stmt_, index);
  return name != nullptr ? std::string(name) : std::string();
}

int64_t Stmt::column_int64(int index) const {
  check_column(index);
  record(Recorder::Kind::kColumnInt, index);
  if (remote_ != nullptr) {
    const Value& v = remote_value(index);
    return v ? std::strtoll(v->c_str(), nullptr, 10) : 0;  // SQLite reads NULL as 0 too
  }
  return sqlite3_column_int64(stmt_, index);
}

std::string Stmt::column_text(int index) const {
  check_column(index);
  record(Recorder::Kind::kColumnText, index);
  if (remote_ != nullptr) return remote_value(index).value_or(std::string());
  const unsigned char* text = sqlite3_column_text(stmt_, index);
  if (text == nullptr) return std::string();
  const int bytes = sqlite3_column_bytes(stmt_, index);
  return std::string(reinterpret_cast<const char*>(text), static_cast<size_t>(bytes));
}

bool Stmt::column_is_null(int index) const {
  check_column(index);
  record(Recorder::Kind::kColumnType, index);
  if (remote_ != nullptr) return !remote_value(index).has_value();
  return sqlite3_column_type(stmt_, index) == SQLITE_NULL;
}

}  // namespace store
