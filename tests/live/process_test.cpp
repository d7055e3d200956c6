// The child processes of the live side (src/live/process.h): what a child inherits.
#include <catch2/catch.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "src/live/process.h"

namespace {

// A child that runs for a while and ignores its descriptors.
pid_t spawn_sleeper() {
  live::ChildSpec spec;
  spec.argv = {"/bin/sleep", "10"};
  pid_t pid = 0;
  const live::Status st = live::spawn(spec, pid);
  INFO(st.message);
  REQUIRE(st.ok());
  live::register_group(pid);
  return pid;
}

void end(pid_t pid) {
  live::signal_group(pid, SIGKILL);
  live::wait_exit(pid, 5000);
  live::unregister_group(pid);
}

}  // namespace

// Invariant (5). A live run's supervisor holds the fault proxy's sockets (Boost.Asio opens
// them without O_CLOEXEC) while it starts children: the restarted RabbitMQ node, the
// Erlang CLI, restarted actors. A child that inherited one kept the connection open after
// the proxy closed it, so the actor on the far end never heard that its broker had died.
TEST_CASE("process: a child inherits stdin, stdout and stderr only", "[process]") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);  // no O_CLOEXEC, as a socket of the fault proxy
  const pid_t child = spawn_sleeper();
  ::close(fds[1]);
  // The last write end is gone - unless the child holds a copy: then no end of file comes
  // until it exits (10 s).
  pollfd reader{fds[0], POLLIN, 0};
  const int ready = ::poll(&reader, 1, 3000);
  char byte = 0;
  const ssize_t n = ready == 1 ? ::read(fds[0], &byte, 1) : -1;
  ::close(fds[0]);
  const bool running = live::group_alive(child);
  end(child);
  CHECK(running);     // the end of file did not come from the child exiting
  CHECK(ready == 1);  // readable at once...
  CHECK(n == 0);      // ...because every writer is gone
}

namespace {

// Whether /proc says `pid` is a zombie (dead, not yet reaped).
bool is_zombie(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto paren = text.rfind(')');
  return paren != std::string::npos && paren + 2 < text.size() && text[paren + 2] == 'Z';
}

}  // namespace

// With several runs at once (--jobs), one run's cleanup scans for orphans to reap while
// another run's actor may just have died. That actor is its own run's to reap: if the
// cleanup took it, its run would wait for it forever.
TEST_CASE("process: the cleanup of orphans never reaps a child spawn() started", "[process]") {
  live::ChildSpec spec;
  spec.argv = {"/bin/sh", "-c", "exit 3"};
  pid_t pid = 0;
  const live::Status st = live::spawn(spec, pid);
  INFO(st.message);
  REQUIRE(st.ok());
  for (int i = 0; i < 500 && !is_zombie(pid); ++i) ::usleep(10 * 1000);
  REQUIRE(is_zombie(pid));
  // Another group's check reaps the orphans it finds (an Erlang helper, say).
  const pid_t other = spawn_sleeper();
  CHECK(live::group_alive(other));
  end(other);
  // The exit status is still there for its owner.
  int status = 0;
  CHECK(live::reap_child(pid, &status) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);
}
