// TempDir (temp_dir.h): mkdtemp, a lock file held for the folder's life, a signal handler
// that removes live folders, and the removal of dead processes' folders at creation.

#include "src/store/temp_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>  // mkdtemp
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <mutex>
#include <system_error>

namespace store {

namespace {

constexpr const char* kLockName = "owner.lock";
constexpr const char* kPrefix = "eosim-";

// ---- (2) the signal handler's list: fixed slots, read without locks or allocation ----

constexpr std::size_t kSlots = 32;
constexpr std::size_t kPathMax = 4096;
struct Slot {
  std::atomic<bool> used{false};  // the path is complete and the folder exists
  char path[kPathMax] = {};
};
std::array<Slot, kSlots> g_slots;
std::mutex g_slots_mutex;  // serialises claiming a slot (never taken by the handler)

// Removes the files in `path` and the folder, with async-signal-safe calls only (raw
// getdents64: readdir may allocate). The folder holds plain files only.
void remove_flat_folder(const char* path) {
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return;
  alignas(8) static char buffer[8192];  // the handler runs once: the process is ending
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      struct Entry {
        std::uint64_t ino;
        std::int64_t off;
        unsigned short reclen;
        unsigned char type;
        char name[1];
      };
      const auto* entry = reinterpret_cast<const Entry*>(buffer + at);
      const bool dots = entry->name[0] == '.' &&
                        (entry->name[1] == '\0' || (entry->name[1] == '.' && entry->name[2] == '\0'));
      if (!dots) ::unlinkat(dir, entry->name, 0);
      at += entry->reclen;
    }
  }
  ::close(dir);
  ::rmdir(path);
}

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT};
std::array<struct sigaction, std::size(kSignals)> g_previous{};  // what each had before

void on_signal(int sig) {
  for (Slot& slot : g_slots) {
    if (slot.used.load()) remove_flat_folder(slot.path);
  }
  // Then what the signal did before: a handler installed earlier (a test framework's)
  // runs, else the default ends the process.
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    const struct sigaction& previous = g_previous[i];
    if (kSignals[i] != sig || (previous.sa_flags & SA_SIGINFO) != 0) continue;
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
      previous.sa_handler(sig);
      return;
    }
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Not for a signal the process ignores (nohup's SIGHUP) or handles with siginfo.
void install_handlers() {
  for (std::size_t i = 0; i < std::size(kSignals); ++i) {
    struct sigaction& old = g_previous[i];
    if (::sigaction(kSignals[i], nullptr, &old) != 0 || old.sa_handler == SIG_IGN ||
        (old.sa_flags & SA_SIGINFO) != 0) {
      continue;
    }
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(kSignals[i], &action, nullptr);
  }
}

int claim_slot(const std::string& path) {
  static std::once_flag once;
  std::call_once(once, install_handlers);
  if (path.size() >= kPathMax) return -1;
  const std::lock_guard<std::mutex> lock(g_slots_mutex);
  for (std::size_t i = 0; i < kSlots; ++i) {
    if (g_slots[i].used.load()) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].used.store(true);
    return static_cast<int>(i);
  }
  return -1;  // more live folders than slots: this one is removed by (1) and (3) only
}

// ---- (3) folders of dead processes ----

// True when `name` is one of ours: "eosim-" and mkdtemp's six characters.
bool is_our_name(const std::string& name) {
  return name.size() == std::strlen(kPrefix) + 6 && name.rfind(kPrefix, 0) == 0;
}

void remove_stale(const std::string& parent) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
    if (!is_our_name(it->path().filename().string())) continue;
    const std::string folder = it->path().string();
    struct stat st {};
    if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid()) {
      continue;
    }
    const int fd = ::open((folder + "/" + kLockName).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;  // not made by a TempDir: never touched
    ec.clear();
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) fs::remove_all(folder, ec);
    ::close(fd);
  }
}

// Creates owner.lock already locked: made under another name, locked, then renamed, so
// no cleaner ever sees it unlocked.
int make_lock(const std::string& folder) {
  const std::string fresh = folder + "/.lock-new";
  const int fd = ::open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX) != 0 || ::rename(fresh.c_str(), (folder + "/" + kLockName).c_str()) != 0) {
    const int saved = errno;
    ::close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}

}  // namespace

TempDir::~TempDir() { remove(); }

TempDir::TempDir(TempDir&& other) noexcept
    : path_(std::move(other.path_)), lock_fd_(other.lock_fd_), slot_(other.slot_) {
  other.path_.clear();
  other.lock_fd_ = -1;
  other.slot_ = -1;
}

TempDir& TempDir::operator=(TempDir&& other) noexcept {
  if (this != &other) {
    remove();
    path_ = std::move(other.path_);
    lock_fd_ = other.lock_fd_;
    slot_ = other.slot_;
    other.path_.clear();
    other.lock_fd_ = -1;
    other.slot_ = -1;
  }
  return *this;
}

Status TempDir::create(TempDir& out) {
  out.remove();
  const char* env = std::getenv("TMPDIR");
  const std::string parent = env != nullptr && *env != '\0' ? env : "/tmp";
  remove_stale(parent);
  std::string name = parent + "/" + kPrefix + "XXXXXX";
  if (mkdtemp(name.data()) == nullptr) {
    return Status::error(SQLITE_CANTOPEN, "cannot make a temporary folder in " + parent + ": " +
                                              std::strerror(errno));
  }
  out.path_ = name;
  out.slot_ = claim_slot(name);
  out.lock_fd_ = make_lock(name);
  if (out.lock_fd_ < 0) {
    const int saved = errno;
    out.remove();
    return Status::error(SQLITE_CANTOPEN,
                         name + ": cannot make a file there: " + std::strerror(saved));
  }
  return Status::success();
}

void TempDir::remove() {
  if (path_.empty()) return;
  if (slot_ >= 0) g_slots[static_cast<std::size_t>(slot_)].used.store(false);
  std::error_code ec;  // a folder already gone is no error
  std::filesystem::remove_all(path_, ec);
  if (lock_fd_ >= 0) ::close(lock_fd_);  // after the removal: a cleaner never sees it free
  path_.clear();
  lock_fd_ = -1;
  slot_ = -1;
}

}  // namespace store
