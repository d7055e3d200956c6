#include "src/store/replay.h"

#include <map>

#include "sim/assert.h"
#include "src/store/sqlite_memory.h"

namespace store {

Replay::~Replay() {
  for (auto& conn : conns_) {
    for (sqlite3_stmt* stmt : conn->prepared) sqlite3_finalize(stmt);
    sqlite3_close_v2(conn->handle);
  }
}

Status Replay::open(const std::string& uri, Conn*& out) {
  // The configuration and flags of store::Db::open: same allocator, same connection, same
  // locking (no busy handler).
  static_cast<void>(configure_sqlite());
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI |
                    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  auto conn = std::make_unique<Conn>();
  const int rc = sqlite3_open_v2(uri.c_str(), &conn->handle, flags, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_close_v2(conn->handle);
    return Status::error(rc, "replay: cannot open " + uri);
  }
  sqlite3_extended_result_codes(conn->handle, 1);
  configure_connection(conn->handle);
  conn->by_text.assign(texts_.size(), nullptr);
  out = conn.get();
  conns_.push_back(std::move(conn));
  return Status::success();
}

Status Replay::statement(Conn& conn, std::int32_t text, sqlite3_stmt*& out) {
  sqlite3_stmt*& stmt = conn.by_text[static_cast<std::size_t>(text)];
  if (stmt == nullptr) {
    const std::string& sql = texts_[static_cast<std::size_t>(text)];
    const int rc = sqlite3_prepare_v3(conn.handle, sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) {
      return Status::error(sqlite3_extended_errcode(conn.handle),
                           "replay: cannot prepare " + sql + ": " + sqlite3_errmsg(conn.handle));
    }
    conn.prepared.push_back(stmt);
  }
  out = stmt;
  return Status::success();
}

Status Replay::compile(const Recorder& record) {
  texts_ = record.texts();
  std::map<std::int32_t, Conn*> live;               // recorded number -> ours
  std::map<std::int32_t, std::vector<Conn*>> idle;  // URI text -> free ones
  std::map<std::int32_t, std::int32_t> uri_of;      // recorded number -> URI text
  for (const Recorder::Call& call : record.calls()) {
    if (call.kind == Recorder::Kind::kOpen) {
      std::vector<Conn*>& free = idle[call.text];
      Conn* conn = nullptr;
      if (free.empty()) {
        Status s = open(texts_[static_cast<std::size_t>(call.text)], conn);
        if (!s.ok()) return s;
      } else {
        conn = free.back();
        free.pop_back();
      }
      live[call.conn] = conn;
      uri_of[call.conn] = call.text;
      continue;
    }
    auto it = live.find(call.conn);
    EOSIM_ASSERT(it != live.end());  // every call comes between its connection's open and close
    Op op{call.kind, call.index, call.result, it->second, nullptr, call.value, nullptr};
    switch (call.kind) {
      case Recorder::Kind::kClose:
        idle[uri_of[call.conn]].push_back(it->second);
        live.erase(it);
        break;
      case Recorder::Kind::kExec: op.text = &texts_[static_cast<std::size_t>(call.text)]; break;
      case Recorder::Kind::kBindText:
        op.text = &texts_[static_cast<std::size_t>(call.value)];
        [[fallthrough]];
      default: {
        Status s = statement(*op.conn, call.text, op.stmt);
        if (!s.ok()) return s;
      }
    }
    ops_.push_back(op);
  }
  return Status::success();
}

void Replay::close(Conn& conn) {
  for (sqlite3_stmt* stmt : conn.prepared) sqlite3_reset(stmt);
  if (sqlite3_get_autocommit(conn.handle) == 0) {
    sqlite3_exec(conn.handle, "ROLLBACK", nullptr, nullptr, nullptr);
  }
}

std::uint64_t Replay::play() {
  std::uint64_t mismatches = 0;
  for (const Op& op : ops_) {
    switch (op.kind) {
      case Recorder::Kind::kOpen: break;  // compile() resolved it
      case Recorder::Kind::kClose: close(*op.conn); break;
      case Recorder::Kind::kExec: {
        const int rc = sqlite3_exec(op.conn->handle, op.text->c_str(), nullptr, nullptr, nullptr);
        mismatches += rc != op.result ? 1 : 0;
        break;
      }
      case Recorder::Kind::kFetch:
        sqlite3_reset(op.stmt);
        sqlite3_clear_bindings(op.stmt);
        break;
      case Recorder::Kind::kBindInt: sqlite3_bind_int64(op.stmt, op.index, op.value); break;
      case Recorder::Kind::kBindText:
        // TRANSIENT, as store::Stmt binds: SQLite's copy is part of the work.
        sqlite3_bind_text64(op.stmt, op.index, op.text->data(), op.text->size(), SQLITE_TRANSIENT,
                            SQLITE_UTF8);
        break;
      case Recorder::Kind::kBindNull: sqlite3_bind_null(op.stmt, op.index); break;
      case Recorder::Kind::kStep: {
        const int rc = sqlite3_step(op.stmt);
        mismatches += rc != op.result ? 1 : 0;
        // store::Stmt resets a statement whose step failed, releasing its locks.
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) sqlite3_reset(op.stmt);
        break;
      }
      case Recorder::Kind::kReset: sqlite3_reset(op.stmt); break;
      case Recorder::Kind::kColumnInt:
        sink_ += static_cast<std::uint64_t>(sqlite3_column_int64(op.stmt, op.index));
        break;
      case Recorder::Kind::kColumnText:
        sqlite3_column_text(op.stmt, op.index);
        sink_ += static_cast<std::uint64_t>(sqlite3_column_bytes(op.stmt, op.index));
        break;
      case Recorder::Kind::kColumnType:
        sink_ += static_cast<std::uint64_t>(sqlite3_column_type(op.stmt, op.index));
        break;
    }
  }
  return mismatches;
}

}  // namespace store
