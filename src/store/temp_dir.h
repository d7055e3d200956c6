#pragma once
// store::TempDir — a run's private folder for its database files (private_files.h).
//
// A folder of its own in the system's temporary directory ($TMPDIR, else /tmp), made by
// mkdtemp (mode 0700, a fresh name "eosim-XXXXXX"), removed with everything in it:
//   (1) when the TempDir is destroyed (every return path, errors included);
//   (2) when the process is ended by SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGABRT (an
//       assertion): a handler removes every live TempDir's folder, then the signal takes
//       its usual course. Installed for signals whose handling is still the default only;
//   (3) after a SIGKILL, a crash or a power cut: the next TempDir::create in the same
//       temporary directory removes the folders of TempDirs whose process is gone.
// A folder's owner holds an exclusive flock on its "owner.lock" from the moment the name
// appears until the folder is removed, so (3) removes only a folder whose lock it can take:
// that of a dead process, never a live one's (whatever its pid namespace), never a folder
// eosim did not make (no such lock file). It never names a folder that existed before, so
// it never removes a user's file.
// Move-only.

#include <string>

#include "src/store/status.h"

namespace store {

class TempDir {
 public:
  TempDir() = default;
  ~TempDir();
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&& other) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  // Makes a new folder into `out` (whatever `out` held is removed first), after removing
  // the stale folders of dead processes (3).
  static Status create(TempDir& out);

  // "" when none.
  const std::string& path() const { return path_; }

 private:
  void remove();
  std::string path_;
  int lock_fd_ = -1;  // owner.lock, flocked while the folder exists
  int slot_ = -1;     // its place in the signal handler's list (2), or -1
};

}  // namespace store
