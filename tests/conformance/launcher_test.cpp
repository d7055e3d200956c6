// The private broker's launcher: a missing installation is one clear line, and an
// interrupted test leaves no broker or epmd behind. Each interruption test starts a broker
// of its own in a child process (tag [launcher], its own ctest entry).
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <thread>

#include "src/live/endpoint.h"
#include "src/live/launcher.h"

namespace {

bool gone(pid_t pid) {
  for (int waited = 0; waited < 15000; waited += 50) {
    while (::waitpid(-1, nullptr, WNOHANG) > 0) {  // we are the subreaper of the orphans
    }
    if (::kill(pid, 0) != 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// A child process starts a broker, reports its node and epmd PIDs, then waits to be
// signalled. Returns {node, epmd} (0, 0 if the start failed).
std::pair<pid_t, pid_t> broker_in_child(pid_t& child) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    std::unique_ptr<live::PrivateBroker> broker;
    pid_t pids[2] = {0, 0};
    if (live::PrivateBroker::start({}, broker).ok()) {
      pids[0] = broker->node_pid();
      pids[1] = broker->epmd_pid();
    }
    if (::write(fds[1], pids, sizeof pids) != sizeof pids) ::_exit(3);
    for (;;) ::pause();
  }
  ::close(fds[1]);
  pid_t pids[2] = {0, 0};
  const auto n = ::read(fds[0], pids, sizeof pids);
  ::close(fds[0]);
  REQUIRE(n == static_cast<ssize_t>(sizeof pids));
  return {pids[0], pids[1]};
}

void check_interruption(int signal) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // so the broker's orphans are ours to reap
  pid_t child = 0;
  const auto [node, epmd] = broker_in_child(child);
  REQUIRE(node > 0);
  REQUIRE(epmd > 0);
  REQUIRE(::kill(node, 0) == 0);
  ::kill(child, signal);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(gone(node));
  CHECK(gone(epmd));
}

}  // namespace

TEST_CASE("launcher: without rabbitmq-server, one line saying how to install it", "[launcher]") {
  live::LaunchOptions options;
  options.rabbitmq_bin_dir = "/nonexistent/rabbitmq/bin";
  std::unique_ptr<live::PrivateBroker> broker;
  const auto started = std::chrono::steady_clock::now();
  const live::Status s = live::PrivateBroker::start(options, broker);
  CHECK_FALSE(s.ok());
  CHECK(broker == nullptr);
  CHECK(s.message.find("apt-get install rabbitmq-server") != std::string::npos);
  CHECK(s.message.find('\n') == std::string::npos);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
}

TEST_CASE("launcher: a test interrupted by SIGINT leaves nothing running", "[launcher]") {
  check_interruption(SIGINT);
}

TEST_CASE("launcher: a test killed by SIGKILL leaves nothing running", "[launcher]") {
  check_interruption(SIGKILL);
}

TEST_CASE("endpoint: AMQP URLs", "[live]") {
  live::Endpoint e;
  REQUIRE(live::parse_amqp_url("amqp://bob:s%40cret@example.org:5673/%2f", e).ok());
  CHECK(e.user == "bob");
  CHECK(e.password == "s@cret");
  CHECK(e.host == "example.org");
  CHECK(e.port == 5673);
  CHECK(e.vhost == "/");
  CHECK(e.url().find("s@cret") == std::string::npos);
  REQUIRE(live::parse_amqp_url("amqp://localhost", e).ok());
  CHECK(e.port == 5672);
  CHECK(e.user == "guest");
  CHECK_FALSE(live::parse_amqp_url("http://localhost", e).ok());
  CHECK_FALSE(live::parse_amqp_url("amqp://host:99999", e).ok());
  CHECK_FALSE(live::parse_amqp_url("amqp://host:", e).ok());
}
