#pragma once
// What the private servers' launcher tests share: a server started by a process that is
// then SIGKILLed must go too (PDEATHSIG, process.h), since nothing of its owner ran to
// stop it.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

namespace live_test {

// Waits up to 15 s for `pid` to be gone, reaping any child of ours that exited.
inline bool process_gone(pid_t pid) {
  for (int waited = 0; waited < 15000; waited += 50) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (::kill(pid, 0) != 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// In a forked child, `start(pid, dir)` starts a server (its pid, or 0 if it failed, and
// its folder into the 256 bytes at `dir`); the child is then SIGKILLed. True when the
// server went with it. The folder SIGKILL left (no code of the child ran) is removed.
template <class Start>
bool server_dies_with_owner(Start start) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    pid_t pid = 0;
    char dir[256] = {};
    start(pid, dir);
    (void)!::write(fds[1], &pid, sizeof pid);
    (void)!::write(fds[1], dir, sizeof dir);
    ::pause();
    ::_exit(0);
  }
  ::close(fds[1]);
  pid_t pid = 0;
  char dir[256] = {};
  REQUIRE(::read(fds[0], &pid, sizeof pid) == sizeof pid);
  REQUIRE(::read(fds[0], dir, sizeof dir) == sizeof dir);
  ::close(fds[0]);
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  REQUIRE(pid > 0);
  const bool server_gone = process_gone(pid);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return server_gone;
}

}  // namespace live_test
