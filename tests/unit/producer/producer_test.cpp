// The order service and the outbox relay against a fake broker: rows are marked sent only
// after their confirm, and an unconfirmed row is published again with the same message id.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "src/producer/producer.h"
#include "src/store/db.h"
#include "src/transport/sim_transport.h"
#include "src/world/schema.h"
#include "tests/support/named_check.h"

namespace {

std::atomic<int> g_counter{0};

struct FakeProducerBroker {
  sim::Kernel k{3};
  std::vector<std::string> published;  // message ids, in arrival order
  sim::ConnId relay_conn = 0;
  bool confirm_mode = false;
  store::Db orders;
  std::string uri;
  transport::SimTransport producer_net{k.network, "producer"};
  transport::SimTransport relay_net{k.network, "relay"};

  FakeProducerBroker() {
    transport::name_lab_ids(k);  // before a test's rules name sites
    attach();
    uri = "file:/producer-test-" + std::to_string(++g_counter) + "?vfs=memdb";
    REQUIRE(store::Db::open(uri, orders).ok());
    REQUIRE(lab::create_orders_schema(orders).ok());
  }

  // The broker's end of the network (again, after a test detached it).
  void attach() {
    sim::NodeHandlers h;
    h.on_accept = [this](sim::ConnId c, const sim::NodeId& who) {
      if (who == "relay") relay_conn = c;
    };
    h.on_frame = [this](sim::ConnId, const sim::Frame& f) {
      const broker::ClientMethod& method = broker::client_method(f);
      if (std::holds_alternative<broker::ConfirmSelectFrame>(method)) confirm_mode = true;
      if (const auto* p = std::get_if<broker::PublishFrame>(&method)) {
        published.push_back(p->message.message_id);
      }
    };
    h.on_disconnect = [](sim::ConnId) {};
    k.network.attach("broker", h);
  }

  void confirm(std::uint64_t seq, bool multiple) {
    broker::Confirm c;
    c.to = {relay_conn, 1};
    c.seq = seq;
    c.multiple = multiple;
    k.network.send(relay_conn, "broker", broker::make_frame(c, 0, 0));
  }

  std::int64_t count(const char* sql) {
    store::Stmt& st = orders.statement(sql);
    bool row = false;
    REQUIRE(st.step(row).ok());
    const std::int64_t n = st.column_int64(0);
    st.reset();
    return n;
  }
  std::int64_t sent() { return count("SELECT COUNT(*) FROM outbox WHERE sent = 1"); }

  // An order service (and its relay, when the pattern has one) talking to this broker.
  std::unique_ptr<producer::OrderService> service(const producer::ProducerOptions& o) {
    return std::make_unique<producer::OrderService>(transport::sim_env(k, producer_net),
                                                    transport::sim_env(k, relay_net), o);
  }
  // The same, with the service and its relay started and 1000 ticks run.
  std::unique_ptr<producer::OrderService> started(const producer::ProducerOptions& o) {
    auto s = service(o);
    s->start();
    s->relay()->start();
    k.scheduler.run(1000);
    return s;
  }
};

producer::ProducerOptions two_orders(const FakeProducerBroker& b, producer::Pattern pattern) {
  producer::ProducerOptions o;
  o.pattern = pattern;
  o.orders_uri = b.uri;
  o.orders = 2;
  o.amounts = {150, 200};
  return o;
}

}  // namespace

TEST_CASE("relay: outbox rows are marked sent only after their confirm", "[producer]") {
  FakeProducerBroker b;
  const auto service = b.started(two_orders(b, producer::Pattern::kOutbox));
  CHECK(b.confirm_mode);
  CHECK(b.count("SELECT COUNT(*) FROM orders") == 2);
  CHECK(b.published == std::vector<std::string>{"order-1", "order-2"});
  CHECK(b.sent() == 0);  // no confirm yet: nothing may be marked sent
  b.confirm(2, true);    // one confirm for both (multiple)
  b.k.scheduler.run(1000);
  CHECK(b.sent() == 2);
  CHECK(service->relay()->in_flight() == 0);
}

TEST_CASE("relay: a lost connection republishes unconfirmed rows with the same ids",
          "[producer]") {
  FakeProducerBroker b;
  const auto service = b.started(two_orders(b, producer::Pattern::kOutbox));
  REQUIRE(b.published.size() == 2);
  b.confirm(1, false);
  b.k.scheduler.run(1000);
  CHECK(b.sent() == 1);
  b.k.network.break_connection(b.relay_conn, "broker", "test");
  b.k.scheduler.run(1000);
  // order-2 was never confirmed: it goes out again, same message id, so it can be deduped.
  CHECK(b.published == std::vector<std::string>{"order-1", "order-2", "order-2"});
  CHECK(b.sent() == 1);
}

TEST_CASE("relay: a failed read of the outbox is read again, not taken for no rows",
          "[producer]") {
  for (const sim::Tick poll : {sim::Tick{0}, sim::Tick{7}}) {
    FakeProducerBroker b;
    producer::ProducerOptions o = two_orders(b, producer::Pattern::kOutbox);
    o.poll_ticks = poll;
    const auto service = b.service(o);
    // One committed row and no order service running: nothing will kick the relay again.
    REQUIRE(b.orders
                .exec("INSERT INTO outbox(order_id, message_id, body, created_tick) "
                      "VALUES(1, 'order-1', 'order=1;amount=150;account=alice', 0)")
                .ok());
    // Another connection holds the write lock: the relay's SELECT gets SQLITE_BUSY.
    REQUIRE(b.orders.exec("BEGIN IMMEDIATE").ok());
    service->relay()->start();
    b.k.scheduler.run(50);
    CHECK(b.published.empty());
    REQUIRE(b.orders.exec("ROLLBACK").ok());
    b.k.scheduler.run(1000);
    INFO("poll_ticks = " << poll);
    CHECK(b.published == std::vector<std::string>{"order-1"});
  }
}

// Steps `b`'s kernel until virtual time `until` (a polling relay never leaves it idle).
void run_until(FakeProducerBroker& b, sim::Tick until) {
  while (!b.k.scheduler.idle() && b.k.scheduler.next_time() <= until) b.k.scheduler.step();
}

std::size_t refusals_of_relay(const FakeProducerBroker& b) {
  std::size_t n = 0;
  for (const sim::TraceEvent& e : b.k.trace.events()) {
    n += e.actor == "relay" && e.kind == sim::EventKind::kRefused ? 1 : 0;
  }
  return n;
}

TEST_CASE("relay: while the broker is down it asks on one schedule that backs off, and "
          "finds it back", "[producer]") {
  FakeProducerBroker b;
  producer::ProducerOptions o = two_orders(b, producer::Pattern::kOutbox);
  o.poll_ticks = 5;  // as in a live run: each poll kicks the relay
  o.reconnect_ticks = 5;
  producer::OrderService service(transport::sim_env(b.k, b.producer_net),
                                 transport::sim_env(b.k, b.relay_net), o);
  service.start();
  service.relay()->start();
  run_until(b, 100);
  REQUIRE(b.published.size() == 2);  // neither confirmed

  // The broker goes away for 1,000 ticks.
  b.k.network.break_connection(b.relay_conn, "broker", "test");
  b.k.network.detach("broker");
  const sim::Tick down_at = b.k.scheduler.now();
  run_until(b, down_at + 1000);
  // One schedule: 5, 10, 20, then every 40 ticks - about 27 refusals in 1,000 ticks. Every
  // poll used to start a retry chain of its own (one more each 5 ticks), thousands here.
  const std::size_t refused = refusals_of_relay(b);
  CHECK(refused >= 20);
  CHECK(refused <= 1000 / 40 + 3);

  // Back up: the relay connects within the longest backoff and publishes both rows again.
  b.attach();
  run_until(b, b.k.scheduler.now() + 40 + 10);
  CHECK(b.published == std::vector<std::string>{"order-1", "order-2", "order-1", "order-2"});
  CHECK(refusals_of_relay(b) == refused);
}

TEST_CASE("relay without confirms marks rows sent as soon as it publishes", "[producer]") {
  FakeProducerBroker b;
  const auto service = b.started(two_orders(b, producer::Pattern::kOutboxNoConfirm));
  CHECK_FALSE(b.confirm_mode);
  CHECK(b.sent() == 2);
}

TEST_CASE("dual write and publish-then-commit publish directly, without an outbox",
          "[producer]") {
  for (auto pattern : {producer::Pattern::kDualWrite, producer::Pattern::kPublishThenCommit}) {
    FakeProducerBroker b;
    const auto service = b.service(two_orders(b, pattern));
    CHECK(service->relay() == nullptr);
    service->start();
    b.k.scheduler.run(1000);
    CHECK(b.published == std::vector<std::string>{"order-1", "order-2"});
    CHECK(b.count("SELECT COUNT(*) FROM outbox") == 0);
    CHECK(b.count("SELECT COUNT(*) FROM orders") == 2);
  }
}

TEST_CASE("producer patterns are found by name", "[producer]") {
  const producer::PatternPreset* p = producer::find_pattern("outbox-no-confirm");
  REQUIRE(p != nullptr);
  CHECK(p->pattern == producer::Pattern::kOutboxNoConfirm);
  CHECK(producer::find_pattern("two-phase-commit") == nullptr);
}

TEST_CASE("producer patterns are presets of valid, distinct choices", "[producer]") {
  for (const auto& preset : producer::patterns()) {
    CHECK(producer::why_invalid(preset.choices).empty());
    CHECK(producer::pattern_with(preset.choices) == &preset);
  }
  producer::ProducerChoices direct_with_confirms;
  direct_with_confirms.delivery = producer::Delivery::kDirect;
  CHECK_FALSE(producer::why_invalid(direct_with_confirms).empty());
  producer::ProducerChoices outbox_publish_first;
  outbox_publish_first.order = producer::PublishOrder::kPublishFirst;
  CHECK_FALSE(producer::why_invalid(outbox_publish_first).empty());
  CHECK(producer::pattern_with(outbox_publish_first) == nullptr);
}

TEST_CASE("producer: its design choices are named by their tables", "[producer]") {
  check_named_round_trip<producer::Delivery>();
  check_named_round_trip<producer::PublishOrder>();
  check_named_round_trip<producer::MessageIdSource>();
}
