// World::run_state, the hash explore's state merging compares: equal for worlds that will
// go on alike, different as soon as anything a later step reads differs - a row, a frame
// in flight, a pending event, the random draws to come, a fault rule still to fire.

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "src/orders/order_key.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"

namespace {

lab::Scenario two_orders(std::uint64_t seed = 1) {
  lab::Scenario s;
  s.name = "run state test";
  s.seed = seed;
  s.workload.orders = 2;
  return s;
}

std::unique_ptr<lab::World> make(const lab::Scenario& s) {
  lab::WorldOptions options;
  options.keep_trace = false;
  return run_support::world(s, options);
}

// The run state before every step, until the run ends.
std::vector<std::uint64_t> states_of(const lab::Scenario& s) {
  auto world = make(s);
  std::vector<std::uint64_t> states;
  do {
    states.push_back(world->run_state());
  } while (world->step());
  return states;
}

}  // namespace

TEST_CASE("run_state: the same world at the same step hashes alike, and reading changes nothing",
          "[world][run_state]") {
  const std::vector<std::uint64_t> first = states_of(two_orders());
  REQUIRE(first.size() > 20);
  CHECK(states_of(two_orders()) == first);
  // Hashing reads the databases and the queues: a run that hashes every step ends in the
  // same trace as one that never does.
  auto hashed = make(two_orders());
  while (true) {
    hashed->run_state();
    if (!hashed->step()) break;
  }
  auto plain = make(two_orders());
  plain->run();
  CHECK(hashed->summary().trace_hash == plain->summary().trace_hash);
}

TEST_CASE("run_state: every step changes it, and so do the draws still to come",
          "[world][run_state]") {
  const std::vector<std::uint64_t> states = states_of(two_orders());
  for (std::size_t i = 1; i < states.size(); ++i) {
    INFO("step " << i);
    CHECK(states[i] != states[i - 1]);  // at least now-relative times or rows moved on
  }
  // Another seed: the same tables and queues at the start, but other draws to come.
  const std::vector<std::uint64_t> other = states_of(two_orders(2));
  CHECK(other.front() != states.front());
}

TEST_CASE("run_state: a fault rule still to fire is part of the state", "[world][run_state]") {
  lab::Scenario with_rule = two_orders();
  sim::FaultRule crash;
  crash.site = "consumer.after_commit";
  crash.action = sim::FaultAction::kCrash;
  crash.key[orders::kOrder] = 2;
  with_rule.script.push_back(crash);
  auto a = make(two_orders());
  auto b = make(with_rule);
  // Nothing differs yet but the rule that will fire.
  CHECK(a->run_state() != b->run_state());
  a->run();
  b->run();
  // Once the rule has fired it is spent; the runs differ by what the crash did.
  CHECK(a->run_state() != b->run_state());
}
