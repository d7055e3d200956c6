// The frame-aware fault proxy against a real RabbitMQ (a private one, started once for this
// binary, or EOSIM_AMQP_URL). Each case asserts what the broker guarantees — which message
// comes back, with which `redelivered` flag — never how long anything takes; waits are
// generous bounds on events that must happen.
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdlib>
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
  CHECK(proxy->rules_fired() == 0);
  CHECK(proxy->connections_accepted() == 2);
  delete_queue(direct, queue);
}

TEST_CASE("a dropped basic.ack resets the connection and the broker redelivers",
          "[proxy][live]") {
  const live::Endpoint& direct = broker_endpoint();
  std::unique_ptr<live::FaultProxy> proxy;
  REQUIRE(live::FaultProxy::start(direct, proxy).ok());
  const std::string queue = "proxy-lost-ack";
  queue_with_one_message(direct, queue, 2);
  live::MethodId ack;
  REQUIRE(live::method_by_name("basic.ack", ack));
  proxy->add_rule({live::Direction::kClientToBroker, ack, 1});

  auto consumer = connect(proxy->endpoint());
  REQUIRE(consumer->consume(queue, "c1", false).ok());
  std::optional<broker::Delivery> first = next_delivery(*consumer, 10000);
  REQUIRE(first.has_value());
  CHECK_FALSE(first->redelivered);
  // The ack leaves the client (its write succeeds locally), the proxy swallows it and
  // resets both sides: the client learns only that the connection died.
  (void)consumer->ack(first->delivery_tag, false);
  CHECK(sees_connection_lost(*consumer, 15000));
  CHECK(proxy->rules_fired() == 1);

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
