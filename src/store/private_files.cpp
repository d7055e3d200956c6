#include "src/store/private_files.h"

#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <string_view>
#include <vector>

#include "sim/escape.h"

namespace store {

namespace {

constexpr const char* kVfsName = "eosim-files";

// ---- locks: what memdb counts per database, here per file path ----

struct Locks {
  int readers = 0;  // connections holding SHARED or more
  int writers = 0;  // 0 or 1: a connection holding RESERVED or more
  int files = 0;    // open handles on the path
  // The file's size, -1 until first asked. Every write to the file goes through this
  // process's handles, so it is kept here rather than asked of the OS on every read lock.
  sqlite3_int64 size = -1;
};

std::mutex g_locks_mutex;
std::map<std::string, Locks>& lock_table() {
  static auto* table = new std::map<std::string, Locks>();  // never destroyed: files may
  return *table;                                            // close during exit
}

// A main database file: the Unix file follows this header in SQLite's allocation.
struct DbFile {
  sqlite3_file base;  // first: SQLite sees only this
  std::map<std::string, Locks>::iterator locks;
  int held;            // this handle's lock level
  sqlite3_file* real;  // the unix-none file
};
constexpr int kRealOffset = (sizeof(DbFile) + 7) / 8 * 8;

DbFile* db_file(sqlite3_file* f) { return reinterpret_cast<DbFile*>(f); }
sqlite3_file* real(sqlite3_file* f) { return db_file(f)->real; }

// memdb's rules (SQLite 3.40): a new reader waits for no writer; a writer for no other
// writer; the step to EXCLUSIVE (a commit writing pages) for no other reader.
int db_lock(sqlite3_file* f, int want) {
  DbFile* file = db_file(f);
  if (want <= file->held) return SQLITE_OK;
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  Locks& locks = file->locks->second;
  int rc = SQLITE_OK;
  if (want == SQLITE_LOCK_SHARED) {
    if (locks.writers > 0) rc = SQLITE_BUSY; else ++locks.readers;
  } else if (want == SQLITE_LOCK_RESERVED || want == SQLITE_LOCK_PENDING) {
    if (file->held == SQLITE_LOCK_SHARED) {
      if (locks.writers > 0) rc = SQLITE_BUSY; else locks.writers = 1;
    }
  } else if (locks.readers > 1) {  // EXCLUSIVE
    rc = SQLITE_BUSY;
  } else if (file->held == SQLITE_LOCK_SHARED) {
    locks.writers = 1;
  }
  if (rc == SQLITE_OK) file->held = want;
  return rc;
}

int db_unlock(sqlite3_file* f, int want) {
  DbFile* file = db_file(f);
  if (want >= file->held) return SQLITE_OK;
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  Locks& locks = file->locks->second;
  if (file->held > SQLITE_LOCK_SHARED) --locks.writers;
  if (want == SQLITE_LOCK_NONE) --locks.readers;
  file->held = want;
  return SQLITE_OK;
}

int db_check_reserved(sqlite3_file* f, int* out) {
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  *out = db_file(f)->locks->second.writers > 0 && db_file(f)->held <= SQLITE_LOCK_SHARED;
  return SQLITE_OK;
}

int db_close(sqlite3_file* f) {
  DbFile* file = db_file(f);
  const int rc = file->real->pMethods->xClose(file->real);
  static_cast<void>(db_unlock(f, SQLITE_LOCK_NONE));  // SQLite has unlocked already
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  if (--file->locks->second.files == 0) lock_table().erase(file->locks);
  return rc;
}

int db_write(sqlite3_file* f, const void* data, int n, sqlite3_int64 offset) {
  const int rc = real(f)->pMethods->xWrite(real(f), data, n, offset);
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  sqlite3_int64& size = db_file(f)->locks->second.size;
  if (rc == SQLITE_OK && size >= 0) size = std::max(size, offset + n);
  if (rc != SQLITE_OK) size = -1;  // ask the OS again
  return rc;
}

int db_truncate(sqlite3_file* f, sqlite3_int64 to) {
  const int rc = real(f)->pMethods->xTruncate(real(f), to);
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  db_file(f)->locks->second.size = rc == SQLITE_OK ? to : -1;
  return rc;
}

int db_file_size(sqlite3_file* f, sqlite3_int64* out) {
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  sqlite3_int64& size = db_file(f)->locks->second.size;
  if (size < 0) {
    const int rc = real(f)->pMethods->xFileSize(real(f), &size);
    if (rc != SQLITE_OK) {
      size = -1;
      return rc;
    }
  }
  *out = size;
  return SQLITE_OK;
}

int db_file_control(sqlite3_file* f, int op, void* arg) {
  if (op == SQLITE_FCNTL_HAS_MOVED) {  // the folder is private: nobody moves its files
    *static_cast<int*>(arg) = 0;
    return SQLITE_OK;
  }
  return real(f)->pMethods->xFileControl(real(f), op, arg);
}

const sqlite3_io_methods kDbMethods = {
    1,  // version 1: no shared memory (no WAL) and no memory mapping, like memdb's files
    db_close,
    [](sqlite3_file* f, void* b, int n, sqlite3_int64 o) {
      return real(f)->pMethods->xRead(real(f), b, n, o);
    },
    db_write,
    db_truncate,
    [](sqlite3_file*, int) { return SQLITE_OK; },  // (3) nothing synced
    db_file_size,
    db_lock,
    db_unlock,
    db_check_reserved,
    db_file_control,
    [](sqlite3_file* f) { return real(f)->pMethods->xSectorSize(real(f)); },
    [](sqlite3_file* f) { return real(f)->pMethods->xDeviceCharacteristics(real(f)); },
};

// ---- rollback journals, in memory ----

struct JournalFile {
  sqlite3_file base;
  std::vector<unsigned char>* bytes;
};

std::vector<unsigned char>& bytes(sqlite3_file* f) {
  return *reinterpret_cast<JournalFile*>(f)->bytes;
}

int journal_read(sqlite3_file* f, void* buffer, int n, sqlite3_int64 offset) {
  const std::vector<unsigned char>& b = bytes(f);
  const auto start = static_cast<std::size_t>(offset);
  const std::size_t have = start < b.size() ? std::min(b.size() - start, std::size_t(n)) : 0;
  if (have > 0) std::memcpy(buffer, b.data() + start, have);
  if (have == std::size_t(n)) return SQLITE_OK;
  std::memset(static_cast<char*>(buffer) + have, 0, std::size_t(n) - have);
  return SQLITE_IOERR_SHORT_READ;
}

int journal_write(sqlite3_file* f, const void* data, int n, sqlite3_int64 offset) {
  std::vector<unsigned char>& b = bytes(f);
  const auto end = static_cast<std::size_t>(offset) + std::size_t(n);
  try {
    if (end > b.size()) b.resize(end);
  } catch (const std::bad_alloc&) {
    return SQLITE_IOERR_NOMEM;
  }
  std::memcpy(b.data() + offset, data, std::size_t(n));
  return SQLITE_OK;
}

int journal_close(sqlite3_file* f) {
  delete reinterpret_cast<JournalFile*>(f)->bytes;
  return SQLITE_OK;
}

const sqlite3_io_methods kJournalMethods = {
    1,
    journal_close,
    journal_read,
    journal_write,
    [](sqlite3_file* f, sqlite3_int64 size) {
      if (static_cast<std::size_t>(size) < bytes(f).size()) bytes(f).resize(std::size_t(size));
      return SQLITE_OK;
    },
    [](sqlite3_file*, int) { return SQLITE_OK; },
    [](sqlite3_file* f, sqlite3_int64* size) {
      *size = static_cast<sqlite3_int64>(bytes(f).size());
      return SQLITE_OK;
    },
    [](sqlite3_file*, int) { return SQLITE_OK; },
    [](sqlite3_file*, int) { return SQLITE_OK; },
    [](sqlite3_file*, int* out) {
      *out = 0;
      return SQLITE_OK;
    },
    [](sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; },
    [](sqlite3_file*) { return 4096; },
    [](sqlite3_file*) { return 0; },
};

// ---- the VFS ----

sqlite3_vfs g_vfs;
sqlite3_vfs* base_of(sqlite3_vfs* vfs) { return static_cast<sqlite3_vfs*>(vfs->pAppData); }

bool ends_with(const char* name, std::string_view suffix) {
  const std::string_view n = name != nullptr ? name : "";
  return n.size() > suffix.size() && n.substr(n.size() - suffix.size()) == suffix;
}
bool is_journal(const char* name) { return ends_with(name, "-journal"); }

int open_journal(sqlite3_file* file, int flags, int* out_flags) {
  auto* journal = reinterpret_cast<JournalFile*>(file);
  journal->base.pMethods = nullptr;
  journal->bytes = new (std::nothrow) std::vector<unsigned char>();
  if (journal->bytes == nullptr) return SQLITE_NOMEM;
  journal->base.pMethods = &kJournalMethods;
  if (out_flags != nullptr) *out_flags = flags;
  return SQLITE_OK;
}

int open_db(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  auto* db = reinterpret_cast<DbFile*>(file);
  db->base.pMethods = nullptr;
  db->held = SQLITE_LOCK_NONE;
  db->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + kRealOffset);
  db->real->pMethods = nullptr;
  sqlite3_vfs* base = base_of(vfs);
  const int rc = base->xOpen(base, name, db->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (db->real->pMethods != nullptr) db->real->pMethods->xClose(db->real);
    return rc;
  }
  std::lock_guard<std::mutex> guard(g_locks_mutex);
  db->locks = lock_table().try_emplace(name).first;
  ++db->locks->second.files;
  db->base.pMethods = &kDbMethods;
  return SQLITE_OK;
}

int vfs_open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* out_flags) {
  if ((flags & SQLITE_OPEN_MAIN_JOURNAL) != 0) return open_journal(file, flags, out_flags);
  if ((flags & SQLITE_OPEN_MAIN_DB) != 0 && name != nullptr) {
    return open_db(vfs, name, file, flags, out_flags);
  }
  // SQLite's own temporary files: plain Unix files, laid straight into `file`.
  sqlite3_vfs* base = base_of(vfs);
  return base->xOpen(base, name, file, flags, out_flags);
}

void register_vfs() {
  sqlite3_vfs* base = sqlite3_vfs_find("unix-none");
  if (base == nullptr) base = sqlite3_vfs_find(nullptr);
  if (base == nullptr) return;
  g_vfs = *base;
  g_vfs.iVersion = 2;
  g_vfs.szOsFile = std::max<int>(kRealOffset + base->szOsFile, sizeof(JournalFile));
  g_vfs.pNext = nullptr;
  g_vfs.zName = kVfsName;
  g_vfs.pAppData = base;
  g_vfs.xOpen = vfs_open;
  g_vfs.xDelete = [](sqlite3_vfs* v, const char* name, int sync_dir) {
    return is_journal(name) ? SQLITE_OK : base_of(v)->xDelete(base_of(v), name, sync_dir);
  };
  g_vfs.xAccess = [](sqlite3_vfs* v, const char* name, int flags, int* out) {
    if (!is_journal(name) && !ends_with(name, "-wal")) {
      return base_of(v)->xAccess(base_of(v), name, flags, out);
    }
    // (2) a journal is never on disk, so never "hot"; and there is no WAL (the files
    // have no shared memory), so SQLite need not look for one on every read lock.
    *out = 0;
    return SQLITE_OK;
  };
  g_vfs.xFullPathname = [](sqlite3_vfs* v, const char* name, int n, char* out) {
    return base_of(v)->xFullPathname(base_of(v), name, n, out);
  };
  sqlite3_vfs_register(&g_vfs, /*makeDflt=*/0);
}

}  // namespace

const char* private_file_vfs() {
  static std::once_flag once;
  std::call_once(once, register_vfs);
  return kVfsName;
}

std::string private_file_uri(const std::string& path) {
  return "file:" + sim::escape(path, sim::escapes::kFileUriPath) + "?vfs=" + private_file_vfs();
}

}  // namespace store
