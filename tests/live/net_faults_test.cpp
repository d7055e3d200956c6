// The fault proxy's judge (src/live/net_faults.h) without a broker: the frames a proxy
// would show it, and what it answers - the model's matching of sites, frame kinds, nth,
// order and attempt, over every connection of a run.
#include <catch2/catch.hpp>

#include <string>

#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/live/net_faults.h"
#include "src/orders/order_key.h"
#include "src/scenario/scenario.h"
#include "tests/live/live_cli.h"
#include "tests/support/scenario_load.h"

namespace {

using live::Direction;
using live::ProxyAction;
using live::SeenFrame;

lab::Scenario scenario_from(const std::string& toml) {
  lab::Scenario s = test_support::loaded(lab::parse_scenario(toml, "test.toml"));
  return s;
}

SeenFrame frame(int listener, std::uint64_t conn, Direction d, live::MethodId m, std::int64_t order,
                std::uint64_t tag) {
  SeenFrame f;
  f.listener = listener;
  f.connection = conn;
  f.direction = d;
  f.method = m;
  f.order = order;
  f.delivery_tag = tag;
  return f;
}

// The judge lets `f` through untouched.
bool passes(live::NetFaults& judge, const SeenFrame& f) {
  return judge.judge(f).kind == ProxyAction::kPass;
}

constexpr live::MethodId kDeliver{60, 60};
constexpr live::MethodId kAck{60, 80};
constexpr live::MethodId kPublish{60, 40};

}  // namespace

TEST_CASE("the broker's basic.ack is the model's confirm.ack, a consumer's is basic.ack",
          "[proxy]") {
  CHECK(live::model_frame_kind(Direction::kClientToBroker, kAck) == "basic.ack");
  CHECK(live::model_frame_kind(Direction::kBrokerToClient, kAck) == "confirm.ack");
  CHECK(live::model_frame_kind(Direction::kBrokerToClient, kDeliver) == "basic.deliver");
  CHECK(live::model_frame_kind(Direction::kClientToBroker, {10, 11}).empty());  // start-ok
}

TEST_CASE("nth counts a frame kind over every consumer, the ack names its delivery's order",
          "[proxy]") {
  const lab::Scenario s = scenario_from(R"(
name = "t"
[workload]
orders = 3
[consumer]
instances = 2
[[faults.script]]
at = "net.consumer->broker"
frame = "basic.ack"
nth = 2
do = "drop"
)");
  live_test::TempDir dir;
  live::NetFaults judge(s, {{"consumer1", "consumer2", "relay"}, dir.path, 0, 10});
  CHECK(judge.notice_ms() == 300);  // heartbeat_timeout 30 ticks of 10 ms
  // consumer1 gets order 1, consumer2 order 2 (tags are per connection: both are 1).
  CHECK(passes(judge, frame(0, 1, Direction::kBrokerToClient, kDeliver, 1, 1)));
  CHECK(passes(judge, frame(1, 2, Direction::kBrokerToClient, kDeliver, 2, 1)));
  // A publish does not count towards the consumers' basic.ack.
  CHECK(passes(judge, frame(2, 3, Direction::kClientToBroker, kPublish, 3, 0)));
  CHECK(passes(judge, frame(0, 1, Direction::kClientToBroker, kAck, 0, 1)));
  const ProxyAction second = judge.judge(frame(1, 2, Direction::kClientToBroker, kAck, 0, 1));
  CHECK(second.kind == ProxyAction::kDrop);
  CHECK(second.notice_ms == 300);
  // Fired once: a third ack passes.
  CHECK(passes(judge, frame(0, 1, Direction::kClientToBroker, kAck, 0, 1)));
  const auto fired = live::read_fired(dir.path);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].site == "net.consumer->broker");
  CHECK(fired[0].frame == "basic.ack");
  CHECK(fired[0].key[orders::kOrder] == 2);
  CHECK(fired[0].key[orders::kAttempt] == 1);
  CHECK(fired[0].key[orders::kInstance] == 2);
  CHECK(fired[0].nth == 2);
}

TEST_CASE("a delivery's attempt counts every delivery of the order, to any consumer", "[proxy]") {
  const lab::Scenario s = scenario_from(R"(
name = "t"
[workload]
orders = 2
[consumer]
instances = 2
[network]
heartbeat = 5
[[faults.script]]
at = "net.broker->consumer"
frame = "basic.deliver"
order = 1
attempt = 2
do = "freeze"
)");
  live_test::TempDir dir;
  live::NetFaults judge(s, {{"consumer1", "consumer2"}, dir.path, 0, 10});
  CHECK(judge.notice_ms() == -1);  // heartbeats decide
  CHECK(passes(judge, frame(0, 1, Direction::kBrokerToClient, kDeliver, 1, 1)));
  CHECK(passes(judge, frame(0, 1, Direction::kBrokerToClient, kDeliver, 2, 2)));
  // Order 1 again, to the other consumer: its second attempt.
  CHECK(judge.judge(frame(1, 2, Direction::kBrokerToClient, kDeliver, 1, 1)).kind ==
        ProxyAction::kFreeze);
  REQUIRE(live::read_fired(dir.path).size() == 1);
  CHECK(live::read_fired(dir.path)[0].key[orders::kInstance] == 2);
}

TEST_CASE("the heartbeat an actor asks RabbitMQ for is whole seconds, at least 1", "[proxy]") {
  CHECK(live::heartbeat_seconds(std::nullopt, 10) == 0);
  CHECK(live::heartbeat_seconds(0, 10) == 0);
  CHECK(live::heartbeat_seconds(5, 10) == 1);    // 50 ms
  CHECK(live::heartbeat_seconds(5, 200) == 1);   // exactly 1 s
  CHECK(live::heartbeat_seconds(11, 200) == 3);  // 2.2 s, rounded up
}

// A live sweep's kills (live_schedule.h): a `do = "crash"` rule on a consumer's link lets the
// frame through and SIGKILLs the process group set for that listener - at once, or after
// the rule's delay. Only the outcome is checked (the process is gone), never how soon.
TEST_CASE("a crash rule on a consumer's link kills its process group, at once or later",
          "[proxy]") {
  lab::Scenario s = scenario_from("name = \"t\"\n[workload]\norders = 3\n");
  sim::FaultRule at_once;
  at_once.site = "net.broker->consumer";
  at_once.frame = "basic.deliver";
  at_once.nth = 1;
  at_once.action = sim::FaultAction::kCrash;
  sim::FaultRule later = at_once;
  later.site = "net.consumer->broker";
  later.frame = "basic.ack";
  s.script = {at_once, later};
  live_test::TempDir dir;
  live::NetFaultsOptions options{{"consumer1", "consumer2"}, dir.path, 0, 10};
  options.kill_delays_ms = {0, 30};
  live::NetFaults judge(s, options);
  pid_t first = 0, second = 0;
  REQUIRE(live::spawn({{"/bin/sleep", "60"}, {}, "", ""}, first).ok());
  REQUIRE(live::spawn({{"/bin/sleep", "60"}, {}, "", ""}, second).ok());
  judge.set_group(0, first);
  judge.set_group(1, second);
  CHECK(passes(judge, frame(0, 1, Direction::kBrokerToClient, kDeliver, 1, 1)));
  CHECK(live::wait_exit(first, 10000));
  CHECK(passes(judge, frame(1, 2, Direction::kClientToBroker, kAck, 0, 1)));
  CHECK(live::wait_exit(second, 10000));
  const auto fired = live::read_fired(dir.path);
  REQUIRE(fired.size() == 2);
  CHECK(fired[0].action == sim::FaultAction::kCrash);
  CHECK(fired[1].frame == "basic.ack");
}

TEST_CASE("what a consumer holds: deliveries of its latest connection not yet settled", "[proxy]") {
  const lab::Scenario s = scenario_from("name = \"t\"\n[workload]\norders = 3\n");
  live_test::TempDir dir;
  live::NetFaults judge(s, {{"consumer1"}, dir.path, 0, 10});
  for (std::uint64_t tag = 1; tag <= 3; ++tag) {
    judge.judge(frame(0, 1, Direction::kBrokerToClient, kDeliver, static_cast<int>(tag), tag));
  }
  judge.judge(frame(0, 1, Direction::kClientToBroker, kAck, 0, 2));
  CHECK(judge.held_by(0).orders == std::vector<std::int64_t>{1, 3});
  SeenFrame all = frame(0, 1, Direction::kClientToBroker, kAck, 0, 3);
  all.multiple = true;  // every tag up to 3
  judge.judge(all);
  CHECK(judge.held_by(0).orders.empty());
  judge.judge(frame(0, 1, Direction::kBrokerToClient, kDeliver, 2, 4));
  CHECK(judge.held_by(0).orders == std::vector<std::int64_t>{2});
  // A new connection (its first frame): the broker takes back what the old one held.
  judge.judge(frame(0, 2, Direction::kClientToBroker, {10, 11}, 0, 0));
  CHECK(judge.held_by(0).orders.empty());
}

// Under auto-ack (basic.consume with no-ack) the broker forgets a delivery as it sends it:
// the consumer holds nothing, so a run of scenario 06 can drain.
TEST_CASE("an auto-ack consumer holds none of its deliveries", "[proxy]") {
  const lab::Scenario s = scenario_from("name = \"t\"\n[workload]\norders = 3\n");
  live_test::TempDir dir;
  live::NetFaults judge(s, {{"consumer1"}, dir.path, 0, 10});
  SeenFrame consume = frame(0, 1, Direction::kClientToBroker, {60, 20}, 0, 0);
  consume.no_ack = true;
  judge.judge(consume);
  judge.judge(frame(0, 1, Direction::kBrokerToClient, kDeliver, 1, 1));
  CHECK(judge.held_by(0).orders.empty());
  // A new connection that consumes with acks holds what it is sent until it acks.
  judge.judge(frame(0, 2, Direction::kClientToBroker, {60, 20}, 0, 0));
  judge.judge(frame(0, 2, Direction::kBrokerToClient, kDeliver, 2, 1));
  CHECK(judge.held_by(0).orders == std::vector<std::int64_t>{2});
}

// A consumer that connects again after its connection broke takes no delivery until it
// consumes once more: the supervisor does not call the run settled (what the queue holds
// "stuck") while it logs in, for at most kLoginGraceMs.
TEST_CASE("a consumer logging in again is not subscribed until it consumes", "[proxy]") {
  const lab::Scenario s = scenario_from("name = \"t\"\n[workload]\norders = 3\n");
  live_test::TempDir dir;
  live::NetFaults judge(s, {{"consumer1"}, dir.path, 0, 10});
  const std::int64_t now = live::WallClock::monotonic_ms();
  CHECK(!judge.logging_in(0, now));  // never connected: the start-up wait covers that
  constexpr live::MethodId kConsume{60, 20};
  judge.judge(frame(0, 1, Direction::kClientToBroker, {10, 11}, 0, 0));  // connection.start-ok
  CHECK(judge.logging_in(0, now));
  judge.judge(frame(0, 1, Direction::kClientToBroker, kConsume, 0, 0));
  CHECK(!judge.logging_in(0, now));
  judge.judge(frame(0, 2, Direction::kClientToBroker, {10, 11}, 0, 0));  // a new connection
  CHECK(judge.logging_in(0, now));
  CHECK(!judge.logging_in(0, now + live::NetFaults::kLoginGraceMs + 1000));  // bounded
  judge.judge(frame(0, 2, Direction::kClientToBroker, kConsume, 0, 0));
  CHECK(!judge.logging_in(0, now));
}
