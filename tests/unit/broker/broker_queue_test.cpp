// Model broker, quorum queues and dead-lettering: items 9-12 of docs/amqp-semantics.md,
// plus the reorder fault.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/unit/broker/broker_fixture.h"

TEST_CASE("amqp 9: quorum redeliveries carry x-delivery-count, connection loss counts like a nack") {
  Fixture f;
  f.broker->declare_queue(quorum("q", 0));
  f.consumer({1, 1}, "c", 1);
  f.publish({"m1"});
  REQUIRE(f.out.deliveries.size() == 1);
  CHECK_FALSE(f.out.deliveries[0].message.x_delivery_count.has_value());
  f.broker->nack({1, 1}, 1, false, true);
  REQUIRE(f.out.deliveries.size() == 2);
  CHECK(f.out.deliveries[1].message.x_delivery_count == 1);
  f.broker->connection_lost(1);
  f.consumer({2, 1}, "c", 1);
  REQUIRE(f.out.deliveries.size() == 3);
  CHECK(f.out.deliveries[2].message.x_delivery_count == 2);

  // Classic queues do not count.
  f.broker->declare_queue(classic("cq"));
  f.consumer({3, 1}, "k", 1, "cq");
  f.publish({"c1"}, "cq");
  f.broker->reject({3, 1}, 1, true);
  CHECK(f.out.deliveries.back().redelivered);
  CHECK_FALSE(f.out.deliveries.back().message.x_delivery_count.has_value());
}

TEST_CASE("amqp 10: a quorum delivery limit of N dead-letters after N+1 deliveries") {
  Fixture f;
  f.broker->declare_queue(classic("dlq"));
  f.broker->declare_queue(quorum("q", 2, "dlq"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 1);
  f.publish({"poison"});
  for (uint64_t tag = 1; tag <= 3; ++tag) f.broker->nack(c, tag, false, true);
  REQUIRE(f.out.deliveries.size() == 3);  // three deliveries, then dead-lettered
  CHECK(f.broker->ready_count() == 1);
  auto dlq = f.broker->ready("dlq");
  REQUIRE(dlq.size() == 1);
  CHECK(dlq[0].message.message_id == "poison");
  CHECK_FALSE(dlq[0].message.x_delivery_count.has_value());
  CHECK(dlq[0].message.deaths.get().x_death ==
        std::vector<XDeath>{{"q", "delivery_limit", 1, "", {"q"}, 0}});
  REQUIRE(f.out.dead.size() == 1);
  CHECK(f.out.dead[0].reason == "delivery_limit");
  CHECK(f.out.dead[0].from == "q");

  // Without a DLX the message is dropped.
  f.broker->declare_queue(quorum("nodlx", 1));
  const ChannelRef d{2, 1};
  f.consumer(d, "d", 1, "nodlx");
  f.publish({"p2"}, "nodlx");
  f.broker->nack(d, 1, false, true);
  f.broker->nack(d, 2, false, true);
  CHECK(f.broker->ready("nodlx").empty());
  CHECK(f.broker->unacked_count() == 0);
  REQUIRE(f.out.dropped.size() == 1);
  CHECK(f.out.dropped[0].reason == "delivery_limit");
  CHECK(f.broker->counters().discarded == 1);
  CHECK(f.broker->counters().dead_lettered == 1);
}

TEST_CASE("amqp 11: a requeued quorum message goes back to the head") {
  Fixture f;
  f.broker->declare_queue(quorum("qq", 5));
  f.broker->declare_queue(classic("cq"));
  const ChannelRef q{1, 1};
  const ChannelRef c{2, 1};
  f.consumer(q, "q", 2, "qq");
  f.consumer(c, "c", 2, "cq");
  f.publish({"m1", "m2", "m3"}, "qq");
  f.publish({"m1", "m2", "m3"}, "cq");
  f.broker->basic_cancel(q, "q");
  f.broker->basic_cancel(c, "c");
  f.broker->nack(q, 2, false, true);
  f.broker->nack(q, 1, false, true);
  f.broker->nack(c, 2, false, true);
  f.broker->nack(c, 1, false, true);
  // Quorum: returns first, in the order they came back; classic: original positions.
  CHECK(f.ready_ids("qq") == Ids{"m2", "m1", "m3"});
  CHECK(f.ready_ids("cq") == Ids{"m1", "m2", "m3"});
}

TEST_CASE("conformance row 4: without a delivery limit a nacked quorum message goes to the tail") {
  Fixture f;
  f.broker->declare_queue(quorum("q", 0));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 1);
  f.publish({"m1", "m2", "m3"});
  f.broker->nack(c, 1, false, true);  // m1 to the tail: m2 is next
  REQUIRE(f.out.deliveries.size() == 2);
  CHECK(f.out.deliveries[1].message.message_id == "m2");
  CHECK(f.ready_ids() == Ids{"m3", "m1"});
  f.broker->connection_lost(1);  // a lost channel's return still goes to the head
  CHECK(f.ready_ids() == Ids{"m2", "m3", "m1"});
}

TEST_CASE("conformance row 11: a quorum queue delivers a message only once it is committed") {
  Fixture f;
  f.broker->declare_queue(quorum("qq", 0));
  f.broker->declare_queue(classic("cq"));
  f.consumer({1, 1}, "q", 0, "qq");
  f.consumer({2, 1}, "c", 0, "cq");
  f.broker->publish(f.pub, "qq", msg("m1"), false);
  f.broker->publish(f.pub, "cq", msg("c1"), false);
  REQUIRE(f.out.deliveries.size() == 1);  // the classic one, before its sync
  CHECK(f.out.deliveries[0].queue == "cq");
  f.broker->sync();
  REQUIRE(f.out.deliveries.size() == 2);
  CHECK(f.out.deliveries[1].queue == "qq");
}

TEST_CASE("conformance row 12: after a crash every recovered classic message is redelivered") {
  for (const auto stop : {Broker::Stop::kClean, Broker::Stop::kCrash}) {
    Fixture f;
    f.broker->declare_queue(classic("q"));
    f.publish({"m1", "m2"});
    f.broker->sync();
    f.broker->restart(stop);
    const auto ready = f.broker->ready("q");
    REQUIRE(ready.size() == 2);
    for (const auto& r : ready) CHECK(r.redelivered == (stop == Broker::Stop::kCrash));
  }
}

TEST_CASE("amqp 12: reject without requeue dead-letters as rejected, x-death newest first") {
  Fixture f;
  // A cycle q -> dlq -> q, so the same message is rejected twice from q.
  f.broker->declare_queue(classic("q", "dlq"));
  f.broker->declare_queue(classic("dlq", "q"));
  f.broker->declare_queue(classic("plain"));
  f.publish({"m1"});
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 0);
  f.broker->reject(c, 1, false);
  REQUIRE(f.ready_ids("dlq") == Ids{"m1"});
  // Conformance row 6: exchange "" (the default), the routing key it had in q, the time.
  CHECK(f.broker->ready("dlq")[0].message.deaths.get().x_death ==
        std::vector<XDeath>{{"q", "rejected", 1, "", {"q"}, 0}});
  CHECK(f.broker->ready("dlq")[0].message.deaths.get().x_first_death_queue == "q");
  CHECK(f.broker->ready("dlq")[0].message.deaths.get().x_first_death_reason == "rejected");
  CHECK_FALSE(f.broker->ready("dlq")[0].redelivered);  // a new enqueue, not a requeue

  f.broker->basic_consume(c, "dlq", "d", false);
  f.broker->reject(c, 2, false);  // back to q, and delivered to c again (tag 3)
  REQUIRE(f.out.deliveries.back().delivery_tag == 3);
  CHECK(f.out.deliveries.back().queue == "q");
  f.broker->basic_cancel(c, "d");  // so that the dead letter stays in dlq for inspection
  f.broker->nack(c, 3, false, false);
  auto dlq = f.broker->ready("dlq");
  REQUIRE(dlq.size() == 1);
  CHECK(dlq[0].message.deaths.get().x_death ==
        std::vector<XDeath>{{"q", "rejected", 2, "", {"q"}, 0}, {"dlq", "rejected", 1, "", {"dlq"}, 0}});
  // Set by the first death, then kept.
  CHECK(dlq[0].message.deaths.get().x_first_death_queue == "q");
  CHECK(f.broker->counters().dead_lettered == 3);

  // Without a DLX, reject requeue=false simply discards.
  f.broker->basic_consume(c, "plain", "p", false);
  f.publish({"m2"}, "plain");
  f.broker->reject(c, 4, false);
  CHECK(f.broker->ready("plain").empty());
  CHECK(f.broker->unacked_count() == 0);
  CHECK(f.broker->counters().discarded == 1);
}

TEST_CASE("broker: the reorder fault moves the newest ready message to the head") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.publish({"m1", "m2", "m3"});
  f.broker->reorder_to_front("q");
  CHECK(f.ready_ids() == Ids{"m3", "m1", "m2"});
  f.broker->reorder_to_front("missing");  // no effect, no crash
  f.consumer({1, 1}, "c", 0);
  CHECK(f.delivered_ids() == Ids{"m3", "m1", "m2"});
}

TEST_CASE("queue types: one name each, and the names parse back", "[broker]") {
  using broker::QueueType;
  REQUIRE(sim::enum_names<QueueType>().size() == 2);
  for (const auto& entry : sim::enum_names<QueueType>()) {
    CHECK(sim::value_named<QueueType>(entry.name) == entry.value);
    CHECK_FALSE(entry.meaning.empty());
  }
  CHECK(sim::name_of(QueueType::kQuorum) == "quorum");
  CHECK(sim::name_of(QueueType::kClassic) == "classic");
  CHECK_FALSE(sim::value_named<QueueType>("stream").has_value());
}
