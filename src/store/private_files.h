#pragma once
// store: SQLite databases in real files that behave exactly like the in-memory ones.
//
// A run's in-memory databases (the memdb VFS) keep every page in the process: ~0.2 KB
// per order, 200 MB for a million orders. A long run can keep them in files instead, in
// a private folder of its own (TempDir), whose pages the OS caches outside the process;
// each connection then holds only its bounded page cache (SQLite's default, 2,000 KiB).
//
// Such files are opened through the "eosim-files" VFS (private_file_uri), a thin layer
// over SQLite's own Unix VFS without file locks ("unix-none"), that changes three things:
//   (1) Locks are those of SQLite 3.40's memdb, counted in the process: a connection
//       cannot even read while another holds a write lock (RESERVED or above), and a
//       commit waits for every other reader to let go. A file with POSIX locks would let
//       readers read the last committed state during a write, so a run could see kBusy
//       where the in-memory run saw rows, or the other way round. With these locks a run
//       on files makes every decision the in-memory run makes: same trace, same verdict
//       (tests/unit/store/private_files_test.cpp compares the two lock by lock).
//   (2) Rollback journals live in memory and vanish when closed, as memdb's do: an
//       open transaction is rolled back when its connection closes (an actor's crash
//       loses it), and no other connection ever finds a "hot" journal.
//   (3) Nothing is synced: the files are scratch space deleted after the run; durability
//       against power loss is not what the simulator models.
// Temporary files SQLite makes itself (sorting, GROUP BY) go through the Unix VFS as
// usual: unnamed and deleted when closed.
//
// REQUIRES: only paths inside a TempDir are opened with private_file_uri; the process
//   opens each such file through this VFS only (its locks are not seen by others).

#include <string>

#include "src/store/status.h"
#include "src/store/temp_dir.h"

namespace store {

// The VFS's name ("eosim-files"), registering it on first call. Thread-safe.
const char* private_file_vfs();

// A URI naming `path` (absolute) through the private VFS, for Db::open.
std::string private_file_uri(const std::string& path);

}  // namespace store
