#include "src/store/db.h"

#include <atomic>
#include <cstring>
#include <utility>

#include "sim/assert.h"
#include "src/store/failure.h"
#include "src/store/read_only.h"
#include "src/store/recorder.h"
#include "src/store/remote.h"
#include "src/store/sqlite_memory.h"
#include "src/store/warm.h"

namespace store {

namespace {
std::atomic<int> g_live_lock_wait_ms{0};  // set_live_lock_wait_ms; 0 in the simulator
const Sql kDataVersion{"PRAGMA data_version"};
}  // namespace

Db::Conn::~Conn() {
  // Statements first: a connection with live statements would become a zombie.
  statements.clear();
  remote.reset();  // a server's connection closes; the server rolls back what was open
  // close_v2 rolls back any open transaction, which is the crash model.
  sqlite3_close_v2(handle);
}

Db::~Db() { close(); }
Db::Db(Db&& other) noexcept = default;
Db& Db::operator=(Db&& other) noexcept {
  if (this != &other) {
    close();  // parks it under a WarmScope, like any other close
    conn_ = std::move(other.conn_);
  }
  return *this;
}

void Db::set_live_lock_wait_ms(int ms) { g_live_lock_wait_ms.store(ms); }

Status Db::open(const std::string& uri_or_path, Db& out) {
  // Memory statistics off and eosim's allocator, before SQLite initialises (sqlite_memory.h).
  static_cast<void>(configure_sqlite());
  out.close();
  if (is_remote_uri(uri_or_path)) return open_remote(uri_or_path, out);
  WarmScope* warm = WarmScope::current();
  if (warm != nullptr && warm->owns(uri_or_path)) {
    out.conn_ = warm->take(uri_or_path);
    if (out.conn_ != nullptr) {
      out.record_open();
      return Status::success();
    }
  }
  sqlite3* handle = nullptr;
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI |
                    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  const int rc = sqlite3_open_v2(uri_or_path.c_str(), &handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    Status s = sqlite_error(handle, handle != nullptr ? sqlite3_extended_errcode(handle) : rc,
                            "opening: " + uri_or_path, uri_or_path);
    sqlite3_close_v2(handle);
    return s;
  }
  sqlite3_extended_result_codes(handle, 1);
  // No waiting on locks in the simulator (see the header): 0 clears any busy handler.
  sqlite3_busy_timeout(handle, g_live_lock_wait_ms.load());
  configure_connection(handle);
  out.conn_ = std::make_unique<Conn>();
  out.conn_->handle = handle;
  out.conn_->uri = uri_or_path;
  out.record_open();
  return Status::success();
}

Status Db::open_remote(const std::string& uri, Db& out) {
  const RemoteOpener opener = remote_opener();
  if (opener == nullptr) {
    return Status::error(SQLITE_CANTOPEN,
                         "this program cannot open a database server (only `eosim live` can)");
  }
  auto conn = std::make_unique<Conn>();
  if (Status s = opener(uri, conn->remote); !s.ok()) return s;
  conn->uri = uri;
  out.conn_ = std::move(conn);
  out.record_open();
  return Status::success();
}

void Db::record_open() {
  Recorder* recorder = Recorder::current();
  conn_->recorded = recorder != nullptr ? recorder->open(conn_->uri) : -1;
}

Status Db::exec(std::string_view sql) {
  EOSIM_ASSERT(is_open());
  if (conn_->remote != nullptr) {
    const std::string script = conn_->remote->dialect(sql);
    return script.empty() ? Status::success() : conn_->remote->run_script(script);
  }
  // sqlite3_exec needs a terminated string.
  const std::string script(sql);
  char* errmsg = nullptr;
  const int rc = sqlite3_exec(conn_->handle, script.c_str(), nullptr, nullptr, &errmsg);
  if (Recorder* recorder = recording(conn_->recorded)) {
    recorder->add(Recorder::Kind::kExec, conn_->recorded, sql, 0, rc);
  }
  if (rc == SQLITE_OK) return Status::success();
  const int code = sqlite3_extended_errcode(conn_->handle);
  if (classify(code) == ErrorKind::kEnvironment) {
    sqlite3_free(errmsg);  // sqlite3_errmsg() says the same
    return sqlite_error(conn_->handle, code, "running: " + script.substr(0, 60));
  }
  std::string message = errmsg != nullptr ? errmsg : sqlite3_errstr(rc);
  sqlite3_free(errmsg);
  return Status::error(code, std::move(message));
}

Stmt& Db::statement(std::string_view sql) {
  EOSIM_ASSERT(is_open());
  if (Recorder* recorder = recording(conn_->recorded)) {
    recorder->add(Recorder::Kind::kFetch, conn_->recorded, sql);
  }
  Stmt* cached = find_statement(sql);
  if (cached == nullptr) return add_statement(sql);
  cached->rewind_for_fetch();
  return *cached;
}

Stmt& Db::statement(const Sql& sql) {
  EOSIM_ASSERT(is_open());
  Stmt* cached = conn_->numbered[sql.number()];
  if (cached == nullptr) [[unlikely]]
    return number_statement(sql);
  if (Recorder* recorder = recording(conn_->recorded)) {
    recorder->add(Recorder::Kind::kFetch, conn_->recorded, sql.text());
  }
  cached->rewind_for_fetch();
  return *cached;
}

[[gnu::noinline]] Stmt& Db::number_statement(const Sql& sql) {
  Stmt& stmt = statement(sql.text());
  if (sql.number() != Sql::kUnnumbered) conn_->numbered[sql.number()] = &stmt;
  return stmt;
}

Stmt& Db::add_statement(std::string_view sql) {
  // Stmt's constructor is private to Db, so make_unique cannot reach it.
  std::unique_ptr<Stmt> stmt(
      conn_->remote != nullptr
          ? new Stmt(conn_->remote.get(), &conn_->remote_changes, &conn_->hook, &conn_->recorded,
                     std::string(sql))
          : new Stmt(conn_->handle, &conn_->hook, &conn_->recorded, std::string(sql)));
  Stmt& ref = *stmt;
  conn_->statements.emplace(std::string(sql), std::move(stmt));
  return ref;
}

Stmt* Db::find_statement(std::string_view sql) {
  const auto address = reinterpret_cast<std::uintptr_t>(sql.data());
  static_assert(std::tuple_size_v<decltype(conn_->recent)> == 64);
  Conn::RecentSet& set = conn_->recent[(address * 0x9e3779b97f4a7c15ULL) >> 58];
  // Same address and size: a text in read-only data (a literal, read_only.h) is the one
  // the slot was filled with; another (the caller's buffer may hold another text now) is
  // confirmed by one comparison.
  for (const Conn::Recent& recent : set) {
    if (recent.sql == sql.data() && recent.size == sql.size() &&
        (recent.read_only || std::memcmp(recent.stmt->sql().data(), sql.data(), sql.size()) == 0)) {
      return recent.stmt;
    }
  }
  return find_in_map(sql, set);
}

// Out of line, so that the hit path above needs no registers for the map's search.
[[gnu::noinline]] Stmt* Db::find_in_map(std::string_view sql, Conn::RecentSet& set) {
  auto it = conn_->statements.find(sql);
  if (it == conn_->statements.end()) return nullptr;
  set[1] = set[0];  // the older of the two leaves
  set[0] = {sql.data(), sql.size(), it->second.get(), read_only_text(sql)};
  return it->second.get();
}

void Db::close() {
  if (conn_ == nullptr) return;
  if (Recorder* recorder = recording(conn_->recorded)) {
    recorder->add(Recorder::Kind::kClose, conn_->recorded, conn_->uri);
    conn_->recorded = -1;  // the close stands for the resets and the ROLLBACK a park does
  }
  WarmScope* warm = WarmScope::current();
  if (warm != nullptr && warm->owns(conn_->uri)) {
    warm->park(std::move(conn_));  // one it cannot make clean, it closes for real
    return;
  }
  conn_.reset();
}

int64_t Db::changes() const {
  EOSIM_ASSERT(is_open());
  if (conn_->remote != nullptr) return conn_->remote_changes;
  return sqlite3_changes64(conn_->handle);
}

int64_t Db::last_insert_rowid() const {
  EOSIM_ASSERT(is_open() && conn_->remote == nullptr);  // SQLite's notion: no server asks
  return sqlite3_last_insert_rowid(conn_->handle);
}

bool Db::in_transaction() const {
  if (is_open() && conn_->remote != nullptr) return conn_->remote->in_transaction();
  return is_open() && sqlite3_get_autocommit(conn_->handle) == 0;
}

Status Db::stage_conflict(Conflict conflict, const std::string& account) {
  EOSIM_ASSERT(is_open());
  if (conn_->remote == nullptr) {
    return Status::error(SQLITE_MISUSE, "SQLite: one writer at a time, no competing transaction");
  }
  return conn_->remote->stage_conflict(conflict, account);
}

void Db::set_fault_hook(FaultHook hook) {
  EOSIM_ASSERT(is_open());
  conn_->hook = std::move(hook);
}

sqlite3* Db::handle() const { return is_open() ? conn_->handle : nullptr; }

int Db::injected_fault(HookOp op) const {
  if (!is_open() || !conn_->hook) return SQLITE_OK;
  return conn_->hook(op);
}

Status Db::run_control(const Sql& sql) {
  bool has_row = false;
  return statement(sql).step_impl(has_row, /*hooked=*/false);
}

Status Db::data_version(std::int64_t& out) {
  EOSIM_ASSERT(is_open() && conn_->remote == nullptr);
  Stmt& st = statement(kDataVersion);
  bool has_row = false;
  Status s = st.step_impl(has_row, /*hooked=*/false);
  if (s.ok() && has_row) out = st.column_int64(0);
  st.reset();
  return s;
}

}  // namespace store
