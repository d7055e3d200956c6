// The private broker's launcher: a missing installation is one clear line, and an
// interrupted test leaves no broker or epmd behind. Each interruption test starts a broker
// of its own in a child process (tag [launcher], its own ctest entry). The interrupted child
// cannot remove its broker's data folder (SIGKILL runs no code), so the test removes it,
// also when one of its checks fails.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "src/live/amqp_client.h"
#include "src/live/endpoint.h"
#include "src/live/fault_proxy.h"
#include "src/live/launcher.h"
#include "tests/support/temp_dir.h"

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

// What the child reports through its pipe: the PIDs to watch and the folder to remove.
struct ChildReport {
  pid_t node = 0;  // 0 if the start failed
  pid_t epmd = 0;
  char data_dir[256] = {};
};

// Removes the broker's data folder when the test ends, however it ends (a failed REQUIRE
// unwinds through here).
class DataDirGuard {
 public:
  explicit DataDirGuard(std::string dir) : dir_(std::move(dir)) {}
  ~DataDirGuard() {
    if (dir_.empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  DataDirGuard(const DataDirGuard&) = delete;
  DataDirGuard& operator=(const DataDirGuard&) = delete;

 private:
  std::string dir_;
};

// Kills the child (and so its broker) if the test ends before it was signalled and reaped.
class ChildGuard {
 public:
  ChildGuard(pid_t child, pid_t node) : child_(child), node_(node) {}
  ~ChildGuard() {
    if (child_ <= 0 || ::waitpid(child_, nullptr, WNOHANG) != 0) return;
    ::kill(child_, SIGKILL);
    ::waitpid(child_, nullptr, 0);
    if (node_ > 0) gone(node_);
  }
  void reaped() { child_ = 0; }
  ChildGuard(const ChildGuard&) = delete;
  ChildGuard& operator=(const ChildGuard&) = delete;

 private:
  pid_t child_;
  pid_t node_;
};

// A child process starts a broker, reports its PIDs and data folder, then waits to be
// signalled.
ChildReport broker_in_child(pid_t& child) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    std::unique_ptr<live::PrivateBroker> broker;
    ChildReport report;
    // (A start that loses its picked ports to another broker is tried again by start.)
    if (live::PrivateBroker::start({}, broker).ok()) {
      report.node = broker->node_pid();
      report.epmd = broker->epmd_pid();
      const std::string& dir = broker->data_dir();
      if (dir.size() < sizeof report.data_dir) {
        std::memcpy(report.data_dir, dir.data(), dir.size());
      }
    }
    if (::write(fds[1], &report, sizeof report) != sizeof report) ::_exit(3);
    for (;;) ::pause();
  }
  ::close(fds[1]);
  ChildReport report;
  const auto n = ::read(fds[0], &report, sizeof report);
  ::close(fds[0]);
  if (n != static_cast<ssize_t>(sizeof report)) {
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
  }
  REQUIRE(n == static_cast<ssize_t>(sizeof report));
  return report;
}

void check_interruption(int signal) {
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // so the broker's orphans are ours to reap
  pid_t child = 0;
  const ChildReport report = broker_in_child(child);
  const std::string data_dir = report.data_dir;
  {
    DataDirGuard dir_guard(data_dir);
    // Destroyed first: the processes end, then the folder goes.
    ChildGuard child_guard(child, report.node);
    REQUIRE(report.node > 0);
    REQUIRE(report.epmd > 0);
    REQUIRE(!data_dir.empty());
    CHECK(std::filesystem::is_directory(data_dir));
    REQUIRE(::kill(report.node, 0) == 0);
    ::kill(child, signal);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    child_guard.reaped();
    CHECK(WIFSIGNALED(status));
    CHECK(gone(report.node));
    CHECK(gone(report.epmd));
  }
  CHECK_FALSE(std::filesystem::exists(data_dir));
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

namespace {

void write_script(const std::filesystem::path& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

bool holds_broker_folder(const std::filesystem::path& dir) {
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().filename().string().rfind("eosim-rabbit-", 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("launcher: a start that fails is tried again, on new ports in a new folder",
          "[launcher]") {
  namespace fs = std::filesystem;
  std::string real = live::LaunchOptions{}.rabbitmq_bin_dir;
  if (const char* dir = std::getenv("EOSIM_RABBITMQ_BIN"); dir != nullptr && *dir != '\0') {
    real = dir;
  }
  const test_support::TempDir tmp("launcher-retry");
  const fs::path bin = tmp.path / "bin";
  const fs::path folders = tmp.path / "tmp";
  fs::create_directories(bin);
  fs::create_directories(folders);
  // The first start fails at once, as one whose picked ports another broker took first
  // (two test runs on one machine) does; the second is the real rabbitmq-server.
  const std::string marker = (tmp.path / "failed-once").string();
  write_script(bin / "rabbitmq-server", "if [ ! -e '" + marker + "' ]; then : > '" + marker +
                                            "'; exit 1; fi\nexec '" + real +
                                            "/rabbitmq-server' \"$@\"\n");
  for (const std::string tool : {"rabbitmq-diagnostics", "rabbitmqctl"}) {
    write_script(bin / tool, "exec '" + real + "/" + tool + "' \"$@\"\n");
  }
  live::LaunchOptions options;
  options.rabbitmq_bin_dir = bin.string();
  std::unique_ptr<live::PrivateBroker> broker;
  // Every data folder goes under `folders`, so a leftover of the failed start shows.
  const char* saved = std::getenv("TMPDIR");
  const std::string saved_tmpdir = saved != nullptr ? saved : "";
  ::setenv("TMPDIR", folders.c_str(), 1);
  const live::Status s = live::PrivateBroker::start(options, broker);
  if (saved != nullptr) {
    ::setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  INFO(s.message);
  CHECK(fs::exists(marker));  // the first start did fail
  REQUIRE(s.ok());
  REQUIRE(broker != nullptr);
  CHECK(::kill(broker->node_pid(), 0) == 0);
  CHECK(broker->data_dir().rfind(folders.string(), 0) == 0);
  CHECK(broker->stop());
  CHECK_FALSE(holds_broker_folder(folders));  // neither the failed start's nor this one's
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

TEST_CASE("launcher: broker ports are distinct and below the kernel's ephemeral range",
          "[launcher]") {
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 32768;
  int high = 60999;
  range >> low >> high;
  for (int round = 0; round < 50; ++round) {
    std::array<int, 3> ports{};
    REQUIRE(live::pick_broker_ports(ports).ok());
    for (int port : ports) {
      CHECK(port >= 10000);
      CHECK(port < low);  // never a port the kernel may hand to another bind(0) or connect
    }
    CHECK(ports[0] != ports[1]);
    CHECK(ports[1] != ports[2]);
    CHECK(ports[0] != ports[2]);
  }
}

TEST_CASE("launcher: the private broker has no guest account, directly or through a proxy",
          "[launcher]") {
  std::unique_ptr<live::PrivateBroker> broker;
  const live::Status started = live::PrivateBroker::start({}, broker);
  REQUIRE(started.ok());
  const live::Endpoint own = broker->endpoint();
  CHECK(own.user.rfind("eosim-", 0) == 0);
  CHECK(own.password.size() == 32);
  const auto as_guest = [](live::Endpoint e) {
    e.user = "guest";
    e.password = "guest";
    return e;
  };
  std::unique_ptr<live::AmqpClient> client;
  // Before, every local user could log in as guest/guest, to the broker and through the
  // fault proxy to it.
  CHECK_FALSE(live::AmqpClient::connect(as_guest(own), {}, client).ok());
  CHECK(live::AmqpClient::connect(own, {}, client).ok());
  client.reset();
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(own, proxy).ok());
  CHECK_FALSE(live::AmqpClient::connect(as_guest(proxy->endpoint()), {}, client).ok());
  CHECK(live::AmqpClient::connect(proxy->endpoint(), {}, client).ok());
  client.reset();
  proxy->stop();
  // The password is in the node's config: readable by this user only.
  const auto mode = std::filesystem::status(broker->data_dir() + "/rabbitmq.conf").permissions();
  using std::filesystem::perms;
  CHECK((mode & (perms::group_all | perms::others_all)) == perms::none);
  CHECK(broker->stop());
}
