// The thread's FailureWatch and the messages of the machine's own errors (failure.h).

#include "src/store/failure.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include "sim/assert.h"

namespace store {

namespace {

thread_local FailureWatch* t_watch = nullptr;

// The operating system's reason for `code`: SQLite keeps the errno of a failed open or
// I/O call (sqlite3_system_errno), but not for SQLITE_FULL, which only ever means ENOSPC
// on a file; no memory is ENOMEM.
std::string os_reason(sqlite3* db, int code) {
  const int primary = code & 0xff;
  int error_number = 0;
  if (primary == SQLITE_FULL) error_number = ENOSPC;
  else if (primary == SQLITE_NOMEM || code == SQLITE_IOERR_NOMEM) error_number = ENOMEM;
  else if (db != nullptr) error_number = sqlite3_system_errno(db);
  return error_number != 0 ? std::strerror(error_number) : sqlite3_errstr(code);
}

// The file a connection's main database is in; memdb names read "in-memory database X".
std::string file_of(sqlite3* db, const std::string& fallback) {
  const char* name = db != nullptr ? sqlite3_db_filename(db, "main") : nullptr;
  if (name == nullptr || *name == '\0') return fallback.empty() ? "a database" : fallback;
  sqlite3_vfs* vfs = nullptr;
  if (sqlite3_file_control(db, "main", SQLITE_FCNTL_VFS_POINTER, &vfs) == SQLITE_OK &&
      vfs != nullptr && std::strcmp(vfs->zName, "memdb") == 0) {
    return std::string("in-memory database ") + name;
  }
  return name;
}

}  // namespace

FailureWatch::Active::Active(FailureWatch& watch) : previous_(t_watch) { t_watch = &watch; }
FailureWatch::Active::~Active() { t_watch = previous_; }

void FailureWatch::report(const Status& status) {
  if (t_watch != nullptr && !t_watch->first_) t_watch->first_ = status;  // invariant (2)
}

Status sqlite_error(sqlite3* db, int code, const std::string& doing, const std::string& file) {
  const char* said = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  if (classify(code) != ErrorKind::kEnvironment) {
    return Status::error(code, std::string(said) + " (" + doing + ")");
  }
  Status status = Status::error(code, file_of(db, file) + ": " + os_reason(db, code) +
                                          " (SQLite: " + said + ", " + doing + ")");
  FailureWatch::report(status);
  return status;
}

bool machine_failed(const Status& status) {
  if (status.ok()) return false;
  EOSIM_ASSERT(status.kind == ErrorKind::kEnvironment);
  return true;
}

}  // namespace store
