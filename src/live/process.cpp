#include "src/live/process.h"

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "sim/assert.h"

extern char** environ;

namespace live {

namespace {

// Invariant (3): a fixed array, so the signal handler reads it without locks or allocation.
// 16 consumer instances of the user's (each a group) beside the broker's epmd and node.
constexpr std::size_t kMaxGroups = 40;
std::array<std::atomic<pid_t>, kMaxGroups> g_groups{};

// The children spawn() started that their owner has not reaped yet. reap_orphans() leaves
// them alone: with several runs at once (--jobs), one run's cleanup would otherwise reap
// another run's actor that had just died, and that run would never see it end.
std::mutex g_children_mutex;
std::set<pid_t> g_children;
std::once_flag g_handlers_once;
// Invariant (4): lock-free atomics, read and written by the handler.
std::atomic<bool> g_defer{false};
std::atomic<int> g_interrupted{0};

void on_fatal_signal(int sig) {
  const bool deferrable = sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
  int none = 0;
  if (deferrable && g_defer.load() && g_interrupted.compare_exchange_strong(none, sig)) return;
  for (auto& slot : g_groups) {
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_handlers() {
  struct sigaction action {};
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT}) ::sigaction(sig, &action, nullptr);
  // Orphans of our children (the VM's helpers) are reparented to us and reaped by us, so
  // group_alive() never counts a zombie nobody waits for.
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

// Builds "KEY=VALUE" strings: our environment with `overrides` replacing or adding keys.
std::vector<std::string> merged_environment(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry(*e);
    const auto eq = entry.find('=');
    if (eq != std::string::npos) vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  for (const std::string& entry : overrides) {
    const auto eq = entry.find('=');
    EOSIM_ASSERT(eq != std::string::npos);
    vars[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  std::vector<std::string> out;
  for (const auto& [key, value] : vars) out.push_back(key + "=" + value);
  return out;
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

bool registered(pid_t pid) {
  for (const auto& slot : g_groups) {
    if (slot.load() == pid) return true;
  }
  return false;
}

// As subreaper we inherit what our children's children abandon (an Erlang CLI's helpers,
// an `epmd -daemon` that lost the race for its port). Reap those zombies; leave our own
// children (registered group leaders) to whoever waits for them.
void reap_orphans() {
  const std::lock_guard<std::mutex> lock(g_children_mutex);  // no spawn() half done
  const pid_t self = ::getpid();
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    // POSIX read, not a stream: a process that exits while we read makes read() fail with
    // ESRCH, which libstdc++'s filebuf turns into an exception.
    const int fd = ::open((entry.path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    char buffer[512];
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    ::close(fd);
    if (n <= 0) continue;
    const std::string stat(buffer, static_cast<std::size_t>(n));
    const auto paren = stat.rfind(')');
    if (paren == std::string::npos) continue;
    std::istringstream rest(stat.substr(paren + 1));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    const pid_t pid = static_cast<pid_t>(std::stol(name));
    if (state == 'Z' && ppid == self && !registered(pid) && g_children.count(pid) == 0) {
      ::waitpid(pid, nullptr, WNOHANG);
    }
  }
}

// Invariant (5), in the child between fork and exec (async-signal-safe calls only).
void close_inherited(int max_fd) {
#ifdef SYS_close_range
  if (::syscall(SYS_close_range, 3U, ~0U, 0U) == 0) return;
#endif
  for (int fd = 3; fd < max_fd; ++fd) ::close(fd);  // a kernel without close_range
}

int open_files_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 65536;
  return static_cast<int>(std::min<rlim_t>(limit.rlim_cur, 1 << 20));
}

}  // namespace

Status spawn(const ChildSpec& spec, pid_t& pid) {
  EOSIM_ASSERT(!spec.argv.empty());
  std::call_once(g_handlers_once, install_handlers);
  // Everything the child needs is built before fork: after fork only async-signal-safe calls.
  std::vector<std::string> env = merged_environment(spec.env);
  std::vector<char*> argv_ptrs, env_ptrs;
  for (const auto& a : spec.argv) argv_ptrs.push_back(const_cast<char*>(a.c_str()));
  argv_ptrs.push_back(nullptr);
  for (const auto& e : env) env_ptrs.push_back(const_cast<char*>(e.c_str()));
  env_ptrs.push_back(nullptr);
  const std::string out_path = spec.output_path.empty() ? "/dev/null" : spec.output_path;
  const pid_t parent = ::getpid();
  const int max_fd = open_files_limit();
  const bool switch_user = !spec.user.empty() && ::geteuid() == 0;
  uid_t uid = 0;
  gid_t gid = 0;
  if (switch_user) {
    const passwd* pw = ::getpwnam(spec.user.c_str());
    if (pw == nullptr) return Status::error("no user " + spec.user + " on this machine");
    uid = pw->pw_uid;
    gid = pw->pw_gid;
  }

  // Held from the fork until the child is known: reap_orphans() cannot take it meanwhile.
  // (The child only execs or exits: it never touches its copy of the lock.)
  std::unique_lock<std::mutex> known(g_children_mutex);
  const pid_t child = ::fork();
  if (child < 0) return Status::error(std::string("fork failed: ") + std::strerror(errno));
  if (child == 0) {
    ::setpgid(0, 0);                     // invariant (1)
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT}) ::signal(sig, SIG_DFL);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in >= 0) ::dup2(in, 0);
    if (out >= 0) {
      ::dup2(out, 1);
      ::dup2(out, 2);
    }
    if (switch_user && (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 ||
                        ::setuid(uid) != 0 || ::chdir("/") != 0)) {
      ::_exit(126);
    }
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // invariant (2), after any change of user
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    close_inherited(max_fd);  // invariant (5)
    ::execve(argv_ptrs[0], argv_ptrs.data(), env_ptrs.data());
    ::_exit(127);
  }
  ::setpgid(child, child);  // also from the parent, so no signal can race the child's call
  g_children.insert(child);
  known.unlock();
  pid = child;
  return Status::success();
}

Status run_to_end(const ChildSpec& spec, int timeout_ms, int& exit_code) {
  pid_t pid = 0;
  if (Status s = spawn(spec, pid); !s.ok()) return s;
  register_group(pid);
  exit_code = -1;
  int status = 0;
  for (int waited = 0;; waited += 20) {
    const pid_t r = reap_child(pid, &status);
    if (r == pid) {
      exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    if (waited >= timeout_ms || interrupted() != 0) {
      signal_group(pid, SIGKILL);
      wait_exit(pid, 5000);
      break;
    }
    sleep_ms(20);
  }
  signal_group(pid, SIGKILL);  // helpers the command left behind
  wait_group_gone(pid, 5000);
  unregister_group(pid);
  if (exit_code == -1 && interrupted() != 0) {
    return Status::error(spec.argv[0] + " stopped: interrupted");
  }
  if (exit_code == -1) {
    return Status::error(spec.argv[0] + " did not finish within " +
                         std::to_string(timeout_ms / 1000) + " s");
  }
  return Status::success();
}

pid_t reap_child(pid_t pid, int* status) {
  const pid_t r = ::waitpid(pid, status, WNOHANG);
  if (r > 0) {
    const std::lock_guard<std::mutex> lock(g_children_mutex);
    g_children.erase(r);
  }
  return r;
}

bool wait_exit(pid_t pid, int timeout_ms) {
  for (int waited = 0;; waited += 20) {
    int status = 0;
    const pid_t r = reap_child(pid, &status);
    if (r == pid || (r < 0 && errno == ECHILD)) return true;
    if (waited >= timeout_ms) return false;
    sleep_ms(20);
  }
}

bool group_alive(pid_t pgid) {
  // Reap the group's zombies first (we are their parent or subreaper), or they would count.
  while (reap_child(-pgid, nullptr) > 0) {
  }
  reap_orphans();
  return ::kill(-pgid, 0) == 0;
}

void signal_group(pid_t pgid, int sig) {
  EOSIM_ASSERT(pgid > 1);
  ::kill(-pgid, sig);
}

bool wait_group_gone(pid_t pgid, int timeout_ms) {
  for (int waited = 0;; waited += 20) {
    if (!group_alive(pgid)) return true;
    if (waited >= timeout_ms) return false;
    sleep_ms(20);
  }
}

bool stop_group(pid_t& pgid, int sig, int timeout_ms) {
  if (pgid == 0) return true;
  signal_group(pgid, sig);
  const bool clean = wait_group_gone(pgid, timeout_ms);
  if (!clean) {
    signal_group(pgid, SIGKILL);
    wait_group_gone(pgid, 5000);
  }
  unregister_group(pgid);
  pgid = 0;
  return clean;
}

std::int64_t elapsed_ms(std::chrono::steady_clock::time_point began) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               began)
      .count();
}

void register_group(pid_t pgid) {
  std::call_once(g_handlers_once, install_handlers);
  for (auto& slot : g_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, pgid)) return;
  }
  EOSIM_ASSERT(false && "more than kMaxGroups live child groups");
}

void unregister_group(pid_t pgid) {
  for (auto& slot : g_groups) {
    pid_t expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

void defer_interrupts() {
  std::call_once(g_handlers_once, install_handlers);
  g_defer.store(true);
}

int interrupted() { return g_interrupted.load(); }

void end_interrupted() {
  const int sig = g_interrupted.load();
  EOSIM_ASSERT(sig != 0);
  for (auto& slot : g_groups) {  // nothing should be left; if something is, it goes too
    const pid_t pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
  ::signal(sig, SIG_DFL);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
  ::raise(sig);
  std::_Exit(128 + sig);  // only if the signal did not end the process
}

}  // namespace live
