// A kill written on a consumer's link (`do = "crash"` on net.broker->consumer frame
// basic.deliver, or net.consumer->broker frame basic.ack; sim/network.h): the model kills
// the consumer as the delivery reaches it - it dies holding it, and the broker delivers it
// again - or right after its ack left - the ack still reaches the broker, which forgets
// the message. The same file runs live (tests/live/live_consumer_test.cpp); a live sweep
// writes its schedule so (live_schedule_test.cpp).

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

const std::string kKills =
    std::string(EOSIM_SOURCE_DIR) + "/tests/data/live/kills/kills-at-frames.toml";

struct KillRun {
  lab::RunSummary summary;
  std::vector<std::string> kills;           // the consumer's crash lines, in order
  std::vector<std::int64_t> deliveries_of;  // per order 1..3: basic.deliver frames received
};

KillRun run_kills(const lab::Scenario& s) {
  KillRun r;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, r.summary, &trace));
  r.deliveries_of.assign(3, 0);
  for (const sim::TraceEvent& e : trace) {
    if (e.actor != "consumer1") continue;
    if (e.kind == sim::EventKind::kCrash) r.kills.push_back(e.detail);
    const bool deliver = e.kind == sim::EventKind::kRecv && e.detail.rfind("deliver", 0) == 0;
    if (deliver && e.subject >= 1 && e.subject <= 3) ++r.deliveries_of[e.subject - 1];
  }
  return r;
}

}  // namespace

TEST_CASE("net kill: the consumer dies as order 2's delivery arrives, and after its ack of 3",
          "[net-kill]") {
  const KillRun r = run_kills(test_support::load_scenario_file(kKills));
  CHECK(r.summary.report.verdict == lab::Verdict::kExactlyOnce);
  REQUIRE(r.summary.faults.size() == 2);
  CHECK(r.summary.faults[0].site == "net.broker->consumer");
  CHECK(r.summary.faults[0].action == sim::FaultAction::kCrash);
  CHECK(r.summary.faults[1].site == "net.consumer->broker");
  REQUIRE(r.kills.size() == 2);
  CHECK(r.kills[0].find("killed as deliver") != std::string::npos);
  CHECK(r.kills[0].find("order-2 arrived") != std::string::npos);
  CHECK(r.kills[1].find("killed right after sending ack") != std::string::npos);
  // Order 2 died with the consumer that held it and came again; the ack of order 3 left
  // before the kill, so the broker did not deliver order 3 again.
  CHECK(r.deliveries_of[1] == 2);
  CHECK(r.deliveries_of[2] == 1);
}

TEST_CASE("net kill: a consumer without a dedup key loses nothing and doubles nothing here",
          "[net-kill]") {
  // Neither kill comes between a commit and its ack: the delivery's kill comes before any
  // work on it, the ack's after the broker has it. So even no-dedup debits each order once.
  lab::ScenarioOverrides o;
  o.strategy = "no-dedup";
  const KillRun r =
      run_kills(test_support::overridden(test_support::load_scenario_file(kKills), o));
  CHECK(r.summary.report.verdict == lab::Verdict::kExactlyOnce);
  CHECK(r.kills.size() == 2);
}

TEST_CASE("net kill: the same file twice gives the same trace", "[net-kill]") {
  const lab::Scenario s = test_support::load_scenario_file(kKills);
  CHECK(run_kills(s).summary.trace_hash == run_kills(s).summary.trace_hash);
}
