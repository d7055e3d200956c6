// The frame-aware fault proxy against a real RabbitMQ (a private one, started once for this
// binary, or EOSIM_AMQP_URL). Each case asserts what the broker guarantees — which message
// comes back, with which `redelivered` flag — never how long anything takes; waits are
// generous bounds on events that must happen.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <mutex>
#include <vector>
#include <optional>
#include <thread>

#include "src/live/amqp_client.h"
#include "src/live/fault_proxy.h"
#include "src/live/launcher.h"
#include "tests/live/real_broker.h"

namespace {

using live_test::broker_endpoint;

std::unique_ptr<live::AmqpClient> connect(const live::Endpoint& at, int heartbeat_s = 0) {
  std::unique_ptr<live::AmqpClient> c;
  const live::Status s = live::AmqpClient::connect(at, {heartbeat_s}, c);
  INFO(s.message);
  REQUIRE(s.ok());
  return c;
}

// A fresh queue with one persistent message for order `order`, published with a confirm.
void queue_with_one_message(const live::Endpoint& at, const std::string& queue, int64_t order) {
  auto admin = connect(at);
  broker::QueueOptions options;
  options.name = queue;
  REQUIRE(admin->declare_queue(options).ok());
  REQUIRE(admin->confirm_select().ok());
  broker::Message m;
  m.message_id = queue + "-" + std::to_string(order);
  m.order = order;
  m.body = "debit";
  std::uint64_t seq = 0;
  REQUIRE(admin->publish("", queue, m, false, seq).ok());
  std::optional<live::Event> e = admin->poll(10000);
  REQUIRE(e.has_value());
  REQUIRE(std::holds_alternative<broker::Confirm>(*e));
}

// The next delivery on `c`, skipping nothing else; nullopt if none came within the bound.
std::optional<broker::Delivery> next_delivery(live::AmqpClient& c, int bound_ms) {
  std::optional<live::Event> e = c.poll(bound_ms);
  if (!e || !std::holds_alternative<broker::Delivery>(*e)) return std::nullopt;
  return std::get<broker::Delivery>(*e);
}

bool sees_connection_lost(live::AmqpClient& c, int bound_ms) {
  for (int waited = 0; waited < bound_ms; waited += 500) {
    std::optional<live::Event> e = c.poll(500);
    if (e && std::holds_alternative<live::ConnectionLost>(*e)) return true;
    if (!c.connected()) return true;
  }
  return false;
}

void delete_queue(const live::Endpoint& at, const std::string& queue) {
  auto admin = connect(at);
  CHECK(admin->delete_queue(queue).ok());
}

}  // namespace

TEST_CASE("method names map to AMQP class and method ids", "[proxy]") {
  live::MethodId m;
  REQUIRE(live::method_by_name("basic.ack", m));
  CHECK(m == live::MethodId{60, 80});
  REQUIRE(live::method_by_name("basic.deliver", m));
  CHECK(m == live::MethodId{60, 60});
  CHECK_FALSE(live::method_by_name("basic.teleport", m));
}

TEST_CASE("through the proxy a consumer receives and acks as if direct", "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, proxy).ok());
  const std::string queue = "proxy-pass";
  queue_with_one_message(proxy->endpoint(), queue, 1);

  auto consumer = connect(proxy->endpoint());
  REQUIRE(consumer->qos(1).ok());
  REQUIRE(consumer->consume(queue, "c1", false).ok());
  std::optional<broker::Delivery> d = next_delivery(*consumer, 10000);
  REQUIRE(d.has_value());
  CHECK(d->message.order == 1);
  CHECK_FALSE(d->redelivered);
  REQUIRE(consumer->ack(d->delivery_tag, false).ok());
  consumer.reset();  // clean close: the ack went before connection.close

  auto admin = connect(direct);
  std::uint32_t ready = 99;
  REQUIRE(admin->ready_count(queue, ready).ok());
  CHECK(ready == 0);
  CHECK(proxy->frames_dropped() == 0);
  CHECK(proxy->connections_accepted() == 2);
  delete_queue(direct, queue);
}

// What the judge saw, kept for the test's thread (the judge runs on the proxy's).
struct Seen {
  std::mutex mutex;
  std::vector<live::SeenFrame> frames;
  void add(const live::SeenFrame& f) {
    std::lock_guard<std::mutex> lock(mutex);
    frames.push_back(f);
  }
  std::vector<live::SeenFrame> of(const live::MethodId& m) {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<live::SeenFrame> out;
    for (const auto& f : frames) {
      if (f.method == m) out.push_back(f);
    }
    return out;
  }
};

// A judge that answers `kind` for the first frame of `method` passing in `direction`.
live::Judge first_of(live::Direction direction, live::MethodId method,
                     live::ProxyAction::Kind kind, std::int64_t notice_ms, Seen& seen) {
  auto done = std::make_shared<bool>(false);
  return [=, &seen](const live::SeenFrame& f) {
    seen.add(f);
    live::ProxyAction a;
    if (!*done && f.direction == direction && f.method == method) {
      *done = true;
      a.kind = kind;
      a.notice_ms = notice_ms;
    }
    return a;
  };
}

TEST_CASE("a dropped basic.ack resets the connection and the broker redelivers",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  live::MethodId ack, deliver;
  REQUIRE(live::method_by_name("basic.ack", ack));
  REQUIRE(live::method_by_name("basic.deliver", deliver));
  Seen seen;
  live::ProxyOptions options;
  options.judge = first_of(live::Direction::kClientToBroker, ack, live::ProxyAction::kDrop, 0,
                           seen);
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, options, proxy).ok());
  const std::string queue = "proxy-lost-ack";
  queue_with_one_message(direct, queue, 2);

  auto consumer = connect(proxy->endpoint());
  REQUIRE(consumer->consume(queue, "c1", false).ok());
  std::optional<broker::Delivery> first = next_delivery(*consumer, 10000);
  REQUIRE(first.has_value());
  CHECK_FALSE(first->redelivered);
  // The ack leaves the client (its write succeeds locally), the proxy swallows it and
  // resets both sides: the client learns only that the connection died.
  (void)consumer->ack(first->delivery_tag, false);
  CHECK(sees_connection_lost(*consumer, 15000));
  CHECK(proxy->frames_dropped() == 1);
  // The judge read the order from the delivery's header and the tag from both frames.
  const auto delivers = seen.of(deliver);
  REQUIRE(delivers.size() == 1);
  CHECK(delivers[0].order == 2);
  CHECK(delivers[0].direction == live::Direction::kBrokerToClient);
  const auto acks = seen.of(ack);
  REQUIRE(acks.size() == 1);
  CHECK(acks[0].delivery_tag == first->delivery_tag);
  CHECK(acks[0].connection == delivers[0].connection);

  // The broker saw its consumer vanish with the message unacked: it comes back, flagged.
  auto again = connect(direct);
  REQUIRE(again->consume(queue, "c2", false).ok());
  std::optional<broker::Delivery> second = next_delivery(*again, 15000);
  REQUIRE(second.has_value());
  CHECK(second->message.order == 2);
  CHECK(second->message.message_id == first->message.message_id);
  CHECK(second->redelivered);
  REQUIRE(again->ack(second->delivery_tag, false).ok());
  again.reset();
  delete_queue(direct, queue);
}

TEST_CASE("the far end of a broken connection hears nothing until the proxy lets go",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  live::MethodId ack;
  REQUIRE(live::method_by_name("basic.ack", ack));
  Seen seen;
  live::ProxyOptions options;
  // notice -1: the broker's end is never reset by the proxy (only its own heartbeats,
  // off here, could notice), as in the model with per-side detection.
  options.judge = first_of(live::Direction::kClientToBroker, ack, live::ProxyAction::kDrop, -1,
                           seen);
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, options, proxy).ok());
  const std::string queue = "proxy-far-end";
  queue_with_one_message(direct, queue, 4);

  auto consumer = connect(proxy->endpoint());
  REQUIRE(consumer->consume(queue, "c1", false).ok());
  std::optional<broker::Delivery> first = next_delivery(*consumer, 10000);
  REQUIRE(first.has_value());
  (void)consumer->ack(first->delivery_tag, false);
  CHECK(sees_connection_lost(*consumer, 15000));  // the sender's end: reset at once

  // The broker still holds the message for the silent connection: nobody else gets it.
  auto other = connect(direct);
  REQUIRE(other->consume(queue, "c2", false).ok());
  CHECK_FALSE(next_delivery(*other, 1500).has_value());
  proxy->stop();  // the proxy lets go: the broker's end is reset and it takes it back
  std::optional<broker::Delivery> back = next_delivery(*other, 15000);
  REQUIRE(back.has_value());
  CHECK(back->message.order == 4);
  CHECK(back->redelivered);
  REQUIRE(other->ack(back->delivery_tag, false).ok());
  other.reset();
  delete_queue(direct, queue);
}

TEST_CASE("a connection frozen after a delivery is a zombie: both ends notice by heartbeats",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  live::MethodId deliver;
  REQUIRE(live::method_by_name("basic.deliver", deliver));
  Seen seen;
  live::ProxyOptions options;
  options.judge = first_of(live::Direction::kBrokerToClient, deliver,
                           live::ProxyAction::kFreeze, -1, seen);
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, options, proxy).ok());
  const std::string queue = "proxy-zombie";
  queue_with_one_message(direct, queue, 5);

  auto zombie = connect(proxy->endpoint(), 1);
  REQUIRE(zombie->consume(queue, "zombie", false).ok());
  std::optional<broker::Delivery> held = next_delivery(*zombie, 10000);
  REQUIRE(held.has_value());  // the frozen frame itself arrives
  CHECK(proxy->connections_frozen() == 1);
  // The zombie acks into the silence; its library notices the silence by itself.
  (void)zombie->ack(held->delivery_tag, false);
  CHECK(sees_connection_lost(*zombie, 30000));

  // The broker gives up on the silent peer (missed heartbeats) and hands the message on.
  auto other = connect(direct);
  REQUIRE(other->consume(queue, "other", false).ok());
  std::optional<broker::Delivery> taken = next_delivery(*other, 60000);
  REQUIRE(taken.has_value());
  CHECK(taken->message.order == 5);
  CHECK(taken->redelivered);
  REQUIRE(other->ack(taken->delivery_tag, false).ok());
  other.reset();
  delete_queue(direct, queue);
}

TEST_CASE("a refusing proxy turns new clients away and leaves open ones alone",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, proxy).ok());
  auto open_before = connect(proxy->endpoint());
  proxy->refuse(true);
  std::unique_ptr<live::AmqpClient> refused;
  CHECK_FALSE(live::AmqpClient::connect(proxy->endpoint(), {}, refused).ok());
  CHECK(open_before->qos(3).ok());  // still talking to the broker
  proxy->refuse(false);
  std::unique_ptr<live::AmqpClient> later;
  CHECK(live::AmqpClient::connect(proxy->endpoint(), {}, later).ok());
}

TEST_CASE("a frozen connection is a silent peer: the broker gives its message to another",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, proxy).ok());
  const std::string queue = "proxy-frozen";
  queue_with_one_message(direct, queue, 3);

  // heartbeat 1 s: the broker declares the silent client dead after missed heartbeats.
  auto zombie = connect(proxy->endpoint(), 1);
  REQUIRE(zombie->consume(queue, "zombie", false).ok());
  std::optional<broker::Delivery> held = next_delivery(*zombie, 10000);
  REQUIRE(held.has_value());
  proxy->freeze(true);
  // The zombie stays alive and keeps polling (so it keeps sending heartbeats): only the
  // frozen link makes it silent to the broker.
  std::atomic<bool> done{false};
  std::thread keep_polling([&] {
    while (!done && zombie->connected()) (void)zombie->poll(200);
  });

  auto other = connect(direct);
  REQUIRE(other->consume(queue, "other", false).ok());
  std::optional<broker::Delivery> taken = next_delivery(*other, 60000);
  if (!taken) {
    done = true;
    keep_polling.join();
  }
  REQUIRE(taken.has_value());
  CHECK(taken->message.order == 3);
  CHECK(taken->redelivered);
  done = true;
  keep_polling.join();
  REQUIRE(other->ack(taken->delivery_tag, false).ok());
  proxy->stop();
  zombie.reset();
  other.reset();
  delete_queue(direct, queue);
}
