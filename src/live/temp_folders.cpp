#include "src/live/temp_folders.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <mutex>

namespace live {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = "eosim.lock";

// The lock descriptors this process holds, by folder; a live sweep's runs at once
// (--jobs) claim and release theirs from several threads.
std::map<std::string, int>& held() {
  static std::map<std::string, int> fds;
  return fds;
}
std::mutex& held_lock() {
  static std::mutex lock;
  return lock;
}

bool is_ours_by_name(const std::string& name) {
  return name.rfind("eosim-live-", 0) == 0 || name.rfind("eosim-rabbit-", 0) == 0 ||
         name.rfind("eosim-pg-", 0) == 0 || name.rfind("eosim-redis-", 0) == 0;
}

// Whether `dir` holds an eosim.lock that nobody holds: its owner died. The probe's own
// lock is let go at once.
bool abandoned(const fs::path& dir) {
  const int fd = ::open((dir / kLockName).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;  // no lock file: not provably an eosim's folder
  const bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
  ::close(fd);
  return free;
}

}  // namespace

Status claim_folder(const std::string& dir) {
  // Locked under another name first and then renamed: no one ever sees an eosim.lock
  // that is not held yet (and would take it for a dead eosim's).
  const std::string fresh = (fs::path(dir) / ".eosim.lock-new").string();
  const std::string path = (fs::path(dir) / kLockName).string();
  const int fd = ::open(fresh.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return Status::error("cannot create " + fresh);
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0 || ::rename(fresh.c_str(), path.c_str()) != 0) {
    ::close(fd);
    return Status::error("cannot lock " + path);
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::write(fd, pid.data(), pid.size()) < 0) {
    // The pid is for people; the lock is what counts.
  }
  const std::lock_guard<std::mutex> lock(held_lock());
  held()[dir] = fd;
  return Status::success();
}

void release_folder(const std::string& dir) {
  const std::lock_guard<std::mutex> lock(held_lock());
  const auto it = held().find(dir);
  if (it == held().end()) return;
  ::close(it->second);
  held().erase(it);
}

std::vector<std::string> remove_stale_folders(const std::string& temp_dir) {
  std::vector<std::string> removed;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(temp_dir, ec)) {
    const std::string name = entry.path().filename().string();
    struct stat st {};
    if (!is_ours_by_name(name) || ::lstat(entry.path().c_str(), &st) != 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) {
      continue;
    }
    bool ours = false;
    {
      const std::lock_guard<std::mutex> lock(held_lock());
      ours = held().count(entry.path().string()) != 0;
    }
    if (ours || !abandoned(entry.path())) continue;
    std::error_code gone;
    fs::remove_all(entry.path(), gone);
    if (!gone) removed.push_back(entry.path().string());
  }
  return removed;
}

}  // namespace live
