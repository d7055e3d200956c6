// The relay's connection dies while only the broker knows (the broker's confirm is lost):
// the relay finds out when it next goes to publish, and the trace says so before the new
// connection and the republish it causes.

#include <catch2/catch.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

TEST_CASE("relay: a connection found dead when publishing is traced before the new one",
          "[world][relay]") {
  lab::ScenarioOverrides lost_confirm;
  lost_confirm.fault_rules = {"net.broker->relay:nth=2"};  // the confirm of order 2
  const lab::Scenario s = test_support::overridden(
      test_support::load_example("14-relay-crash-duplicate-publish.toml"), lost_confirm);
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));

  std::vector<std::size_t> connects;  // the relay's connections, by index in the trace
  std::size_t noticed = trace.size();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const sim::TraceEvent& e = trace[i];
    if (e.actor != "relay") continue;
    if (e.kind == sim::EventKind::kConnect) connects.push_back(i);
    if (e.kind == sim::EventKind::kDisconnected && noticed == trace.size() &&
        e.detail.find("found dead when publishing") != std::string::npos) {
      noticed = i;
    }
  }
  REQUIRE(connects.size() == 2);  // the first, and the one after the loss
  REQUIRE(noticed < trace.size());
  const sim::TraceEvent& notice = trace[noticed];
  CHECK(noticed > connects[0]);
  CHECK(noticed < connects[1]);
  CHECK(notice.time == trace[connects[1]].time);  // found as it reconnects, not before
  CHECK(notice.target == "broker");
  CHECK(notice.detail ==
        "connection 2, found dead when publishing; its 1 unconfirmed "
        "publish(es) go out again");
  CHECK(summary.republished == 1);  // order 2 again, which the trace now explains
}
