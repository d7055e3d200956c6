// Model broker, consumer side: items 1-8 of docs/amqp-semantics.md (one TEST_CASE per
// behaviour, named "amqp N: ...") and edge cases of acks, prefetch and channel errors.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/broker/frames.h"
#include "src/broker/output.h"
#include "tests/support/named_check.h"
#include "tests/unit/broker/broker_fixture.h"

TEST_CASE("amqp 1: delivery tags are per channel, start at 1 and a stale tag is a channel error") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.broker->declare_queue(classic("other"));
  const ChannelRef a{1, 1};
  const ChannelRef b{2, 1};
  f.consumer(a, "ca", 0);
  f.consumer(b, "cb", 0, "other");
  f.publish({"m1", "m2", "m3"});
  f.publish({"o1"}, "other");
  REQUIRE(f.out.deliveries.size() == 4);
  CHECK(f.out.deliveries[0].delivery_tag == 1);
  CHECK(f.out.deliveries[1].delivery_tag == 2);
  CHECK(f.out.deliveries[2].delivery_tag == 3);
  CHECK(f.out.deliveries[3].to == b);
  CHECK(f.out.deliveries[3].delivery_tag == 1);  // b counts on its own

  f.broker->ack(a, 1, false);
  CHECK(f.out.closes.empty());
  f.broker->ack(a, 1, false);  // double ack
  REQUIRE(f.out.closes.size() == 1);
  CHECK(f.out.closes[0].channel == a);
  CHECK(f.out.closes[0].code == 406);
  CHECK(f.out.closes[0].text.find("PRECONDITION_FAILED") == 0);
  CHECK_FALSE(f.broker->channel_open(a));
  // Its other unacked deliveries are requeued.
  CHECK(f.ready_ids() == Ids{"m2", "m3"});
  for (const auto& r : f.broker->ready("q")) CHECK(r.redelivered);

  // A new channel after a reconnect starts at 1 again.
  const ChannelRef a2{3, 1};
  const std::size_t before = f.out.deliveries.size();
  f.consumer(a2, "ca", 0);
  REQUIRE(f.out.deliveries.size() == before + 2);
  CHECK(f.out.deliveries[before].delivery_tag == 1);
  CHECK(f.out.deliveries[before + 1].delivery_tag == 2);

  // A tag that is unknown on this channel (3 only existed on the old one) is an error too.
  f.broker->ack(a2, 3, false);
  REQUIRE(f.out.closes.size() == 2);
  CHECK(f.out.closes[1].channel == a2);
  CHECK(f.out.closes[1].code == 406);
  // Acking on b a tag that b never issued (a2 had 2) closes b, not a2's successor.
  f.broker->ack(b, 2, false);
  REQUIRE(f.out.closes.size() == 3);
  CHECK(f.out.closes[2].channel == b);
  CHECK(f.ready_ids("other") == Ids{"o1"});
  CHECK(f.broker->counters().channel_errors == 3);
}

TEST_CASE("amqp 2: ack and nack take multiple, reject does not, and acks get no reply") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 0);
  f.publish({"m1", "m2", "m3", "m4", "m5"});
  const std::size_t outputs = f.out.log.size();

  f.broker->ack(c, 2, true);           // settles 1 and 2
  CHECK(f.out.log.size() == outputs);  // no reply of any kind
  auto view = f.broker->channel(c);
  REQUIRE(view.has_value());
  REQUIRE(view->unacked.size() == 3);
  CHECK(view->unacked[0].delivery_tag == 3);

  f.broker->basic_cancel(c, "c");  // keep requeued messages in the ready list for inspection
  f.broker->reject(c, 5, true);    // reject has no multiple: only tag 5
  CHECK(f.broker->channel(c)->unacked.size() == 2);
  CHECK(f.ready_ids() == Ids{"m5"});

  f.broker->nack(c, 4, true, true);  // settles 3 and 4
  CHECK(f.broker->channel(c)->unacked.empty());
  CHECK(f.ready_ids() == Ids{"m3", "m4", "m5"});
  CHECK(f.broker->counters().acked == 2);
  CHECK(f.broker->counters().requeued == 3);
  CHECK(f.out.closes.empty());
}

TEST_CASE("amqp 3: requeue puts the message back at its original position, ahead of later ones") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 3);
  f.publish({"m1", "m2", "m3", "m4"});
  CHECK(f.delivered_ids() == Ids{"m1", "m2", "m3"});
  CHECK(f.ready_ids() == Ids{"m4"});

  // Requeued with a free slot: it comes back at once, ahead of m4 (a requeue loop).
  f.broker->nack(c, 2, false, true);
  CHECK(f.delivered_ids(3) == Ids{"m2"});
  CHECK(f.out.deliveries.back().redelivered);
  CHECK(f.ready_ids() == Ids{"m4"});

  // Without a consumer the ready list shows the positions: m1 and m3 go in front of m4, in
  // publish order whatever the order of the requeues.
  f.broker->basic_cancel(c, "c");
  f.broker->reject(c, 3, true);  // m3
  f.broker->reject(c, 1, true);  // m1
  CHECK(f.ready_ids() == Ids{"m1", "m3", "m4"});
}

TEST_CASE("amqp 4: redelivered is false on the first delivery and true after any requeue") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c1{1, 1};
  const ChannelRef c2{2, 1};
  f.consumer(c1, "c1", 1);
  f.consumer(c2, "c2", 1);
  f.publish({"m1"});
  REQUIRE(f.out.deliveries.size() == 1);
  CHECK(f.out.deliveries[0].to == c1);
  CHECK_FALSE(f.out.deliveries[0].redelivered);

  f.broker->close_channel(c1);  // requeued, then delivered to the other consumer
  REQUIRE(f.out.deliveries.size() == 2);
  CHECK(f.out.deliveries[1].to == c2);
  CHECK(f.out.deliveries[1].message.message_id == "m1");
  CHECK(f.out.deliveries[1].redelivered);
  CHECK(f.broker->counters().redelivered == 1);

  f.publish({"m2"});
  f.broker->ack(c2, 1, false);
  REQUIRE(f.out.deliveries.size() == 3);
  CHECK_FALSE(f.out.deliveries[2].redelivered);  // never delivered before
}

TEST_CASE("amqp 5: a closed channel or lost connection requeues its unacked, basic.cancel does not") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef a1{1, 1};
  const ChannelRef a2{1, 2};  // same connection
  f.consumer(a1, "x", 1);
  f.consumer(a2, "y", 1);
  f.publish({"m1", "m2", "m3"});
  CHECK(f.broker->unacked_count() == 2);
  CHECK(f.ready_ids() == Ids{"m3"});

  // Cancel: the in-flight delivery stays unacked and can still be acked.
  f.broker->basic_cancel(a2, "y");
  CHECK(f.broker->unacked_count() == 2);
  CHECK(f.ready_ids() == Ids{"m3"});

  f.broker->connection_lost(1);
  CHECK_FALSE(f.broker->channel_open(a1));
  CHECK_FALSE(f.broker->channel_open(a2));
  CHECK(f.broker->unacked_count() == 0);
  CHECK(f.ready_ids() == Ids{"m1", "m2", "m3"});
  auto ready = f.broker->ready("q");
  CHECK(ready[0].redelivered);
  CHECK(ready[1].redelivered);
  CHECK_FALSE(ready[2].redelivered);
  CHECK(f.out.closes.empty());  // no channel.close for a dead connection

  // Cancel, then ack of the in-flight delivery is fine.
  const ChannelRef b{2, 1};
  f.consumer(b, "z", 1);
  f.broker->basic_cancel(b, "z");
  f.broker->ack(b, 1, false);
  CHECK(f.out.closes.empty());
  CHECK(f.ready_ids() == Ids{"m2", "m3"});
}

TEST_CASE("amqp 6: auto-ack settles a message when it is sent, so a crash loses it") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 1, "q", /*auto_ack=*/true);
  f.publish({"m1", "m2", "m3"});
  // Prefetch does not hold auto-ack deliveries back: nothing is ever unacked.
  CHECK(f.delivered_ids() == Ids{"m1", "m2", "m3"});
  CHECK(f.out.deliveries[2].delivery_tag == 3);  // tags are still issued
  CHECK(f.broker->unacked_count() == 0);
  CHECK(f.broker->counters().acked == 3);
  f.broker->connection_lost(1);
  CHECK(f.broker->ready_count() == 0);  // lost
  CHECK(f.broker->counters().requeued == 0);
}

TEST_CASE("amqp 7: prefetch limits unacked deliveries per consumer, 0 means unlimited") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 1);
  f.publish({"m1", "m2", "m3"});
  CHECK(f.delivered_ids() == Ids{"m1"});  // m2 waits while m1 is unacked
  f.broker->ack(c, 1, false);
  CHECK(f.delivered_ids() == Ids{"m1", "m2"});

  // Per consumer (global=false): a second consumer on the same channel has its own window.
  f.broker->basic_consume(c, "q", "c2", false);
  CHECK(f.delivered_ids() == Ids{"m1", "m2", "m3"});
  CHECK(f.out.deliveries.back().consumer_tag == "c2");

  // basic.qos applies to consumers created after it.
  f.broker->basic_qos(c, 0);
  f.broker->basic_consume(c, "q", "c3", false);
  f.publish({"m4", "m5", "m6"});
  CHECK(f.delivered_ids(3) == Ids{"m4", "m5", "m6"});
  for (std::size_t i = 3; i < 6; ++i) CHECK(f.out.deliveries[i].consumer_tag == "c3");
}

TEST_CASE("amqp 8: a delivery unacked longer than consumer_timeout closes the channel and requeues") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef slow{1, 1};
  f.consumer(slow, "slow", 1);
  f.broker->advance_time(1000);
  f.publish({"m1"});
  REQUIRE(f.broker->channel(slow)->unacked.at(0).delivered_at == 1000);

  f.broker->check_timeouts(1000 + 500, 500);  // exactly at the limit: still fine
  CHECK(f.out.closes.empty());
  const ChannelRef other{2, 1};
  f.consumer(other, "other", 1);
  f.broker->check_timeouts(1000 + 501, 500);
  REQUIRE(f.out.closes.size() == 1);
  CHECK(f.out.closes[0].channel == slow);
  CHECK(f.out.closes[0].code == 406);
  REQUIRE(f.out.deliveries.size() == 2);
  CHECK(f.out.deliveries[1].to == other);
  CHECK(f.out.deliveries[1].redelivered);
}

TEST_CASE("broker: multiple ack with tag 0 settles everything, a missing tag with multiple fails") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 0);
  f.publish({"m1", "m2", "m3"});
  f.broker->ack(c, 2, false);
  f.broker->ack(c, 3, true);  // 1 and 3; 2 is already gone and is skipped
  CHECK(f.broker->unacked_count() == 0);
  CHECK(f.broker->counters().acked == 3);
  CHECK(f.out.closes.empty());

  f.publish({"m4", "m5"});
  f.broker->ack(c, 0, true);
  CHECK(f.broker->unacked_count() == 0);
  CHECK(f.broker->counters().acked == 5);

  f.publish({"m6"});  // tag 6
  f.broker->ack(c, 9, true);  // beyond anything issued: a channel error like RabbitMQ's
  REQUIRE(f.out.closes.size() == 1);
  CHECK(f.ready_ids() == Ids{"m6"});
}

TEST_CASE("broker: prefetch 0 is unlimited") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.consumer({1, 1}, "c", 0);
  std::vector<std::string> ids;
  for (int i = 0; i < 50; ++i) ids.push_back("m" + std::to_string(i));
  f.publish(ids);
  CHECK(f.out.deliveries.size() == 50);
  CHECK(f.broker->unacked_count() == 50);
  CHECK(f.broker->ready_count() == 0);
}

TEST_CASE("broker: consuming from a missing queue closes the channel with 404") {
  Fixture f;
  f.consumer({1, 1}, "c", 0, "missing");
  REQUIRE(f.out.closes.size() == 1);
  CHECK(f.out.closes[0].code == 404);
  CHECK_FALSE(f.broker->channel_open({1, 1}));
}

TEST_CASE("broker: methods on a channel that is not open are ignored") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  const ChannelRef gone{7, 1};
  CHECK(f.broker->publish(gone, "q", msg("m"), false) == 0);
  f.broker->ack(gone, 1, false);
  CHECK(f.broker->ready_count() == 0);
  CHECK(f.out.log.empty());
  CHECK(f.broker->counters().ignored == 2);
}

TEST_CASE("broker: requeue reasons, frame kinds and queue types are named by their tables",
          "[broker]") {
  check_named_round_trip<broker::RequeueReason>();
  check_named_round_trip<broker::FrameKind>();
  check_named_round_trip<broker::QueueType>();
  CHECK(sim::name_of(broker::RequeueReason::kRestart) == "broker restart");
  CHECK(sim::name_of(broker::FrameKind::kNone).empty());
  CHECK(sim::name_of(broker::FrameKind::kBasicAck) == "basic.ack");
  CHECK(broker::kFrameKindNames[static_cast<std::size_t>(broker::FrameKind::kChannelClose)] ==
        "channel.close");
}
