// Heartbeats in the lab (broker/heartbeat.h, [network] heartbeat): conformance row 18's
// asymmetric failure detection, seen through whole runs. A consumer's connection freezes
// as order 1 reaches it; what each side does afterwards, and in which order.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/broker/heartbeat.h"
#include "src/orders/event_kinds.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

// Two slow consumers, prefetch 1; the connection that carries order 1's first delivery
// freezes as it arrives. `network` is the [network] table's body.
std::string zombie_scenario(const std::string& network, const std::string& strategy) {
  return "name = 'zombie'\nseed = 24\n"
         "[workload]\norders = 3\ninterval_ticks = 40\n"
         "[broker]\nprefetch = 1\n"
         "[consumer]\nstrategy = '" + strategy + "'\ninstances = 2\nwork_ticks = 10\n"
         "[network]\n" + network +
         "[[faults.script]]\nat = 'net.broker->consumer'\nframe = 'basic.deliver'\n"
         "order = 1\nattempt = 1\ndo = 'freeze'\n"
         "[expect]\nverdict = 'exactly-once'\n";
}

struct Run {
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;
};

Run run(const std::string& toml) {
  lab::Scenario s = test_support::loaded(lab::parse_scenario(toml, "inline.toml"));
  Run r;
  REQUIRE_OK(lab::run_scenario(s, {}, r.summary, &r.trace));
  return r;
}

// Index of the first event of `kind` by an actor whose name starts with `actor` (and, if
// given, about `order`); -1 if none.
long find(const Run& r, const std::string& actor, sim::EventKind kind,
          std::int64_t order = 0, std::size_t from = 0) {
  for (std::size_t i = from; i < r.trace.size(); ++i) {
    const sim::TraceEvent& e = r.trace[i];
    if (e.actor.rfind(actor, 0) == 0 && e.kind == kind && (order == 0 || e.subject == order)) {
      return static_cast<long>(i);
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("heartbeat: the broker gives up after 3 missed heartbeats, a client after 7 by default",
          "[heartbeat]") {
  CHECK(broker::silent_peer_timeout(5) == 15u);
  CHECK(broker::client_silence_timeout(5) == 35u);
  CHECK_FALSE(broker::silent_peer_timeout(0).has_value());
  CHECK_FALSE(broker::client_silence_timeout(0).has_value());
}

TEST_CASE("heartbeat: the broker gives the zombie's message away before the zombie notices",
          "[heartbeat]") {
  const Run r = run(zombie_scenario("heartbeat = 5\n", "no-dedup"));
  const long frozen = find(r, "consumer", sim::EventKind::kFrozen);
  REQUIRE(frozen >= 0);
  const std::string zombie = r.trace[static_cast<std::size_t>(frozen)].actor;
  const long broker_gives_up = find(r, "broker", sim::EventKind::kSilentPeer);
  const long zombie_commit = find(r, zombie, orders::event::kCommit, 1);
  const long zombie_notices = find(r, zombie, sim::EventKind::kSilentPeer);
  REQUIRE(broker_gives_up > frozen);
  REQUIRE(zombie_notices > broker_gives_up);
  // The broker's detection and the client's, each from the freeze, in virtual ticks.
  const sim::Tick t0 = r.trace[static_cast<std::size_t>(frozen)].time;
  CHECK(r.trace[static_cast<std::size_t>(broker_gives_up)].time - t0 == 15);
  CHECK(r.trace[static_cast<std::size_t>(zombie_notices)].time - t0 == 35);
  // In between: the other consumer gets order 1 again, and the zombie still debits it.
  long redelivered = -1;
  for (long i = broker_gives_up; i < static_cast<long>(r.trace.size()); ++i) {
    const sim::TraceEvent& e = r.trace[static_cast<std::size_t>(i)];
    if (e.actor == "broker" && e.kind == sim::EventKind::kSend && e.subject == 1 &&
        e.target != zombie && e.detail.find("redelivered") != std::string::npos) {
      redelivered = i;
      break;
    }
  }
  REQUIRE(redelivered > broker_gives_up);
  CHECK(zombie_commit > redelivered);
  CHECK(zombie_commit < zombie_notices);
  // Its ack goes into the silent connection: lost, without an error the zombie could see.
  CHECK(find(r, zombie, sim::EventKind::kLost, 1, static_cast<std::size_t>(zombie_commit)) > zombie_commit);
  CHECK(find(r, zombie, orders::event::kAckFailed) < 0);
  CHECK(r.summary.report.verdict == lab::Verdict::kDuplicated);
  CHECK(r.summary.report.duplicated == std::vector<std::int64_t>{1});
}

TEST_CASE("heartbeat: the atomic consumer absorbs the zombie's duplicate", "[heartbeat]") {
  const Run r = run(zombie_scenario("heartbeat = 5\n", "atomic"));
  CHECK(find(r, "broker", sim::EventKind::kSilentPeer) >= 0);
  CHECK(r.summary.report.verdict == lab::Verdict::kExactlyOnce);
  CHECK(find(r, "consumer", orders::event::kDuplicate, 1) >= 0);
}

TEST_CASE("heartbeat: 0 means nobody notices, and the zombie's delivery stays held",
          "[heartbeat]") {
  const Run r = run(zombie_scenario("heartbeat = 0\n", "no-dedup"));
  REQUIRE(find(r, "consumer", sim::EventKind::kFrozen) >= 0);
  CHECK(find(r, "", sim::EventKind::kSilentPeer) < 0);
  CHECK(r.summary.report.verdict == lab::Verdict::kStuck);
  CHECK(r.summary.report.stuck == std::vector<std::int64_t>{1});
  CHECK(r.summary.report.duplicated.empty());
}

TEST_CASE("heartbeat: a client with client_timeout = 0 never notices, the broker does",
          "[heartbeat]") {
  const Run r = run(zombie_scenario("heartbeat = 5\nclient_timeout = 0\n", "atomic"));
  const long frozen = find(r, "consumer", sim::EventKind::kFrozen);
  REQUIRE(frozen >= 0);
  const std::string zombie = r.trace[static_cast<std::size_t>(frozen)].actor;
  CHECK(find(r, "broker", sim::EventKind::kSilentPeer) > frozen);
  CHECK(find(r, zombie, sim::EventKind::kSilentPeer) < 0);
  CHECK(find(r, zombie, sim::EventKind::kConnect, 0, static_cast<std::size_t>(frozen)) < 0);  // never back
  CHECK(r.summary.report.verdict == lab::Verdict::kExactlyOnce);
}

TEST_CASE("heartbeat: without heartbeat keys a freeze is noticed by both after heartbeat_timeout",
          "[heartbeat]") {
  const Run r = run(zombie_scenario("heartbeat_timeout = 25\n", "atomic"));
  const long frozen = find(r, "consumer", sim::EventKind::kFrozen);
  REQUIRE(frozen >= 0);
  const std::string zombie = r.trace[static_cast<std::size_t>(frozen)].actor;
  const sim::Tick t0 = r.trace[static_cast<std::size_t>(frozen)].time;
  const long broker_side = find(r, "broker", sim::EventKind::kSilentPeer);
  const long client_side = find(r, zombie, sim::EventKind::kSilentPeer);
  REQUIRE(broker_side >= 0);
  REQUIRE(client_side >= 0);
  CHECK(r.trace[static_cast<std::size_t>(broker_side)].time - t0 == 25);
  CHECK(r.trace[static_cast<std::size_t>(client_side)].time - t0 == 25);
}
