// `eosim live` interrupted (Ctrl-C, SIGTERM): it stops the run's actors and its private
// RabbitMQ, removes the temporary folders it made (the run folder, the broker's data) and
// then dies of the signal, as an interrupted command does. Everything it makes is under the
// TMPDIR the test gives it, so "nothing left" is checked exactly: that folder is empty and
// no process carries that TMPDIR in its environment.
#include <signal.h>
#include <sys/wait.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include "tests/live/live_cli.h"

namespace {

namespace fs = std::filesystem;

bool has_entry_starting(const std::string& dir, const std::string& prefix) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (e.path().filename().string().rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// Kills the child's group if the test ends before the child was reaped.
class ChildGuard {
 public:
  explicit ChildGuard(pid_t pid) : pid_(pid) {}
  ~ChildGuard() {
    if (pid_ <= 0) return;
    live::signal_group(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  void reaped() { pid_ = 0; }
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;

 private:
  pid_t pid_;
};

void check_interrupted_by(int signal) {
  live_test::TempDir dir;
  const std::string tmp = dir.path + "/tmp";
  fs::create_directories(tmp);
  const std::string tmpdir = "TMPDIR=" + tmp;
  live::ChildSpec spec;
  // 1 s a tick: the run lasts minutes, so the signal comes while its actors run.
  spec.argv = {EOSIM_BINARY, "live",
               live_test::kSource + "/scenarios/02-crash-between-commit-and-ack.toml", "--tick-ms",
               "1000"};
  spec.env = {tmpdir};
  spec.output_path = dir.path + "/eosim.out";
  pid_t pid = 0;
  REQUIRE(live::spawn(spec, pid).ok());
  ChildGuard guard(pid);
  // The run folder appears once the private broker is up and the run has begun.
  bool running = false;
  for (int waited = 0; waited < 180000 && !running; waited += 100) {
    running = has_entry_starting(tmp, "eosim-live-");
    if (!running) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(running);
  CHECK(has_entry_starting(tmp, "eosim-rabbit-"));
  std::this_thread::sleep_for(std::chrono::seconds(2));  // the actors are up
  REQUIRE(::kill(pid, signal) == 0);
  int status = 0;
  pid_t reaped = 0;
  for (int waited = 0; waited < 120000 && reaped == 0; waited += 100) {
    reaped = ::waitpid(pid, &status, WNOHANG);
    if (reaped == 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(reaped == pid);
  guard.reaped();
  std::ifstream out_file(dir.path + "/eosim.out");
  const std::string out((std::istreambuf_iterator<char>(out_file)),
                        std::istreambuf_iterator<char>());
  INFO(out);
  CHECK(WIFSIGNALED(status));
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == signal));
  std::size_t left = 0;
  for (const auto& e : fs::directory_iterator(tmp)) {
    UNSCOPED_INFO("left behind: " << e.path().string());
    ++left;
  }
  CHECK(left == 0);
  CHECK(live_test::processes_with_env(tmpdir) == 0);
}

}  // namespace

TEST_CASE("live: eosim live interrupted by SIGINT stops everything and removes its folders",
          "[live-interrupt]") {
  check_interrupted_by(SIGINT);
}

TEST_CASE("live: eosim live ended by SIGTERM stops everything and removes its folders",
          "[live-interrupt]") {
  check_interrupted_by(SIGTERM);
}
