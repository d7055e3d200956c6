// The Two Generals read from a run: the delivery that went wrong is the one shown first,
// and its ladder tells the story of its couriers.

#include "src/generals/delivery.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

std::vector<sim::TraceEvent> trace_of(const std::string& file) {
  lab::Scenario s = test_support::loaded(
      lab::load_scenario(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + file));
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, &trace));
  return trace;
}

bool has_rung(const std::vector<generals::DeliveryStep>& rungs, const std::string& prefix) {
  return std::any_of(rungs.begin(), rungs.end(),
                     [&](const generals::DeliveryStep& r) { return r.event.rfind(prefix, 0) == 0; });
}

}  // namespace

TEST_CASE("scenario 02: the faulted delivery is shown, not the last one", "[generals]") {
  const auto trace = trace_of("02-crash-between-commit-and-ack.toml");
  const auto list = generals::deliveries(trace);
  REQUIRE(list.size() >= 4);  // three orders, order 2 twice
  const generals::Delivery& chosen = list[generals::default_delivery(list)];
  CHECK(chosen.order == 2);
  CHECK_FALSE(chosen.redelivered);  // the first delivery, the one whose ack never left
  CHECK(chosen.trouble.find("consumer.after_commit") != std::string::npos);
  CHECK(generals::why_chosen(chosen).find("went wrong") != std::string::npos);
  CHECK(chosen.label().find("order-2") != std::string::npos);
  // The last delivery is an uneventful one: what the old mapping showed.
  CHECK(list.back().trouble.empty());

  const auto rungs = generals::delivery_ladder(trace, chosen);
  REQUIRE(!rungs.empty());
  CHECK(rungs.front().event.rfind("send: deliver tag=2 order-2", 0) == 0);
  CHECK(has_rung(rungs, "commit: debit 150 order-2"));
  CHECK(has_rung(rungs, "crash"));
  CHECK(has_rung(rungs, "disconnected"));  // the broker notices and requeues
  CHECK_FALSE(has_rung(rungs, "send: ack"));  // courier 2 never left
  // The ladder ends with the redelivery: courier 1 again.
  CHECK(rungs.back().event.find("redelivered order-2") != std::string::npos);
  CHECK(std::count_if(rungs.begin(), rungs.end(), [](const auto& r) { return r.trouble; }) >= 2);
}

TEST_CASE("a run where nothing goes wrong shows its last delivery, acked", "[generals]") {
  const auto trace = trace_of("01-happy-path.toml");
  const auto list = generals::deliveries(trace);
  REQUIRE(!list.empty());
  for (const auto& d : list) CHECK(d.trouble.empty());
  CHECK(generals::default_delivery(list) == list.size() - 1);
  const auto rungs = generals::delivery_ladder(trace, list.back());
  CHECK(has_rung(rungs, "send: ack"));
  CHECK(has_rung(rungs, "recv: ack"));
  CHECK(generals::default_delivery({}) == 0);
}

TEST_CASE("an ack lost on the wire marks its delivery", "[generals]") {
  const auto trace = trace_of("04-ack-lost-on-the-wire.toml");
  const auto list = generals::deliveries(trace);
  const generals::Delivery& chosen = list[generals::default_delivery(list)];
  CHECK_FALSE(chosen.trouble.empty());
  const auto rungs = generals::delivery_ladder(trace, chosen);
  CHECK(has_rung(rungs, "lost: ack 2"));  // courier 2 captured
  CHECK_FALSE(has_rung(rungs, "recv: ack"));
}
