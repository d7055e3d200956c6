// restart_after: how long a crashed actor stays down is a scenario key, for the order
// service, the relay and the consumer. A longer outage must change what the run shows:
// the restart comes that much later, and the run after it is another run.

#include <catch2/catch.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

struct Outage {
  std::optional<std::uint64_t> down, up;  // ticks of the actor's crash and its restart
  std::uint64_t trace_hash = 0;
  lab::RunSummary summary;
};

Outage outage_of(const lab::Scenario& s, const std::string& actor) {
  Outage o;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, o.summary, &trace));
  for (const sim::TraceEvent& e : trace) {
    if (e.actor != actor) continue;
    if (e.kind == sim::EventKind::kCrash && !o.down) o.down = e.time;
    if (e.kind == sim::EventKind::kRestart && o.down && !o.up) o.up = e.time;
  }
  REQUIRE(o.down);
  REQUIRE(o.up);
  o.trace_hash = o.summary.trace_hash;
  return o;
}

// The default outage is 20 ticks; 60 moves the restart 40 ticks later and changes the run.
// `key` is the field of `s` under test.
void check_longer_outage(const lab::Scenario& s, const std::string& actor, std::int64_t& key) {
  INFO(actor << " in " << s.name);
  REQUIRE(key == 20);
  const Outage short_one = outage_of(s, actor);
  CHECK(*short_one.up - *short_one.down == 20);
  key = 60;
  const Outage long_one = outage_of(s, actor);
  CHECK(*long_one.down == *short_one.down);
  CHECK(*long_one.up - *long_one.down == 60);
  CHECK(long_one.trace_hash != short_one.trace_hash);
  CHECK(long_one.summary.time > short_one.summary.time);
}

}  // namespace

TEST_CASE("restart_after: the consumer stays down as long as the file says",
          "[world][restart_after]") {
  lab::Scenario s = test_support::load_example("02-crash-between-commit-and-ack.toml");
  check_longer_outage(s, "consumer1", s.consumer.restart_after);
}

TEST_CASE("restart_after: the relay stays down as long as the file says",
          "[world][restart_after]") {
  lab::Scenario s = test_support::load_example("14-relay-crash-duplicate-publish.toml");
  check_longer_outage(s, "relay", s.producer.relay_restart_after);
}

TEST_CASE("restart_after: the order service stays down as long as the file says",
          "[world][restart_after]") {
  lab::Scenario s = test_support::load_example("12-dual-write-crash.toml");
  check_longer_outage(s, "producer", s.producer.restart_after);
}

TEST_CASE("restart_after: the keys load, are range-checked and are written back",
          "[world][restart_after]") {
  lab::Scenario s = test_support::loaded(
      lab::parse_scenario("name = \"x\"\n[producer]\nrestart_after = 7\n"
                          "relay_restart_after = 60\n[consumer]\nrestart_after = 90\n",
                          "x.toml"));
  CHECK(s.producer.restart_after == 7);
  CHECK(s.producer.relay_restart_after == 60);
  CHECK(s.consumer.restart_after == 90);
  const lab::Scenario back =
      test_support::loaded(lab::parse_scenario(lab::to_toml(s), "back.toml"));
  CHECK(back.producer == s.producer);
  CHECK(back.consumer == s.consumer);
  const lab::LoadError error =
      test_support::parse_bad("name = \"x\"\n[consumer]\nrestart_after = 0\n");
  CHECK(error.key == "consumer.restart_after");
}
