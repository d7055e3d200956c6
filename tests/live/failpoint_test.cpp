// The failpoint server (src/live/failpoints.h) and both helpers a consumer of the user's
// calls it with: helpers/eosim_failpoint.py and helpers/eosim_failpoint.h. A child process
// asks at consumer.after_commit for orders 1, 2, 3; the scenario's rule kills it at order
// 2: it must die of SIGKILL there, after passing order 1 and never order 3, with the fault
// in faults.log. No broker needed.
#include <signal.h>
#include <sys/wait.h>
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "src/live/actor_process.h"
#include "src/live/failpoints.h"
#include "src/live/process.h"
#include "src/scenario/scenario.h"
#include "tests/live/live_cli.h"
#include "tests/support/scenario_load.h"

namespace {

lab::Scenario scenario_killing_order_2(const live_test::TempDir& dir) {
  const std::string path = dir.path + "/kill.toml";
  std::ofstream(path) << "name = \"kill at order 2\"\n[[faults.script]]\n"
                         "at = \"consumer.after_commit\"\norder = 2\ndo = \"crash\"\n";
  lab::Scenario s = test_support::loaded(lab::load_scenario(path));
  return s;
}

struct Ended {
  int status = 0;
  std::string output;
};

// Runs `argv` as consumer 1 of a failpoint server with the rule above, to its end.
Ended run_under_failpoints(const std::vector<std::string>& argv) {
  live_test::TempDir dir;
  const lab::Scenario s = scenario_killing_order_2(dir);
  std::unique_ptr<live::FailpointServer> server;
  live::FailpointOptions fo;
  fo.sockets = {dir.path + "/fp1.sock"};
  fo.run_dir = dir.path;
  REQUIRE(live::FailpointServer::start(s, fo, server).ok());
  live::ChildSpec spec;
  spec.argv = argv;
  spec.env = {"EOSIM_FAILPOINT_SOCKET=" + fo.sockets[0]};
  spec.output_path = dir.path + "/out.log";
  pid_t pid = 0;
  REQUIRE(live::spawn(spec, pid).ok());
  server->set_group(1, pid);
  Ended e;
  REQUIRE(::waitpid(pid, &e.status, 0) == pid);
  live::signal_group(pid, SIGKILL);
  server->stop();
  std::ifstream in(spec.output_path);
  std::stringstream text;
  text << in.rdbuf();
  e.output = text.str();
  const std::vector<sim::FiredFault> fired = live::read_fired(dir.path);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].site == "consumer.after_commit");
  CHECK(fired[0].key[0] == 2);
  return e;
}

}  // namespace

TEST_CASE("failpoints: the Python helper passes order 1 and is killed at order 2", "[failpoint]") {
  const std::string code = "import sys; sys.path.insert(0, '" + live_test::kSource +
                           "/helpers'); import eosim_failpoint as f\n"
                           "for order in (1, 2, 3):\n"
                           "    f.hit('after_commit', order); print('passed', order, flush=True)\n";
  const Ended e = run_under_failpoints({"/usr/bin/python3", "-c", code});
  INFO(e.output);
  CHECK(WIFSIGNALED(e.status));
  CHECK(WTERMSIG(e.status) == SIGKILL);
  CHECK(e.output.find("passed 1") != std::string::npos);
  CHECK(e.output.find("passed 2") == std::string::npos);
  CHECK(e.output.find("passed 3") == std::string::npos);
}

TEST_CASE("failpoints: the C header passes order 1 and is killed at order 2", "[failpoint]") {
  const Ended e = run_under_failpoints({EOSIM_FAILPOINT_PROBE, "after_commit", "1", "2", "3"});
  INFO(e.output);
  CHECK(WIFSIGNALED(e.status));
  CHECK(WTERMSIG(e.status) == SIGKILL);
  CHECK(e.output.find("passed 1") != std::string::npos);
  CHECK(e.output.find("passed 2") == std::string::npos);
}

TEST_CASE("failpoints: outside eosim the helpers return at once", "[failpoint]") {
  live_test::TempDir dir;
  live::ChildSpec spec;
  spec.argv = {EOSIM_FAILPOINT_PROBE, "after_commit", "1", "2"};
  spec.output_path = dir.path + "/out.log";
  int code = -1;
  REQUIRE(live::run_to_end(spec, 20000, code).ok());
  CHECK(code == 0);
}
