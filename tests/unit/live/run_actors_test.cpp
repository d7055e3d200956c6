// How long a crashed actor of a live run stays down (src/live/run_actors.h): the
// scenario's restart_after of its role, in ticks of wall time, as in the model. A child
// process of the test's own stands in for the actor: SIGKILL is what a crash site does.
#include <signal.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "src/live/process.h"
#include "src/live/run_actors.h"
#include "tests/support/scenario_load.h"

namespace {

lab::Scenario restart_scenario(const std::string& toml) {
  return test_support::loaded(lab::parse_scenario("name = \"t\"\n" + toml, "t.toml"));
}

// Reaps `actor` after a SIGKILL at wall time `now_ms`: when it comes back, in ms.
std::int64_t back_at_after_kill(live::Actor& actor, std::int64_t now_ms) {
  live::ChildSpec spec;
  spec.argv = {"/bin/sleep", "30"};
  REQUIRE(live::spawn(spec, actor.pid).ok());
  REQUIRE(::kill(actor.pid, SIGKILL) == 0);
  std::vector<sim::TraceEvent> events;
  for (int i = 0; i < 300 && actor.pid != 0; ++i) {  // reap() is non-blocking
    REQUIRE(live::reap(actor, now_ms, events).ok());
    if (actor.pid != 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(actor.pid == 0);
  REQUIRE(events.size() == 1);
  CHECK(events[0].kind == sim::EventKind::kCrash);
  return actor.restart_at_ms;
}

}  // namespace

TEST_CASE("live: a crashed actor is back after its role's restart_after", "[live-unit]") {
  live::ActorArgs base;
  base.tick_ms = 30;
  std::vector<live::Actor> actors =
      live::actors_of(restart_scenario("[consumer]\ninstances = 2\nrestart_after = 7\n"
                                       "[producer]\nrestart_after = 9\nrelay_restart_after = 1\n"),
                      base);
  REQUIRE(actors.size() == 4);  // consumer1, consumer2, relay, producer
  CHECK(actors[0].args.node() == "consumer1");
  CHECK(actors[2].args.node() == "relay");
  CHECK(actors[3].args.node() == "producer");
  CHECK(back_at_after_kill(actors[1], 1000) == 1000 + 210);  // 7 ticks of 30 ms
  CHECK(back_at_after_kill(actors[2], 1000) == 1000 + 30);
  CHECK(back_at_after_kill(actors[3], 5000) == 5000 + 270);

  // Without the keys: the model's default, 20 ticks.
  std::vector<live::Actor> plain =
      live::actors_of(restart_scenario("[workload]\norders = 1\n"), base);
  CHECK(back_at_after_kill(plain.front(), 0) == 600);
}
