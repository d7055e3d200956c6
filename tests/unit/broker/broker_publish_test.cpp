// Model broker, publisher side and the disk: items 13-17 of docs/amqp-semantics.md, and
// edge cases of confirms and restarts.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "tests/unit/broker/broker_fixture.h"

TEST_CASE("amqp 13: confirm mode numbers publishes from 1 and confirms each exactly once") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  CHECK(f.broker->publish(f.pub, "q", msg("before"), false) == 0);  // not in confirm mode
  f.broker->confirm_select(f.pub);
  CHECK(f.broker->publish(f.pub, "q", msg("m1"), false) == 1);
  CHECK(f.broker->publish(f.pub, "q", msg("m2"), false) == 2);
  CHECK(f.broker->publish(f.pub, "q", msg("m3"), false) == 3);
  CHECK(f.out.confirms.empty());
  f.broker->sync();
  // Observed: one ack, tag 3, multiple=1 for three publishes.
  REQUIRE(f.out.confirms.size() == 1);
  CHECK(f.out.confirms[0].seq == 3);
  CHECK(f.out.confirms[0].multiple);
  CHECK(f.out.confirms[0].ack);
  f.broker->sync();
  CHECK(f.out.confirms.size() == 1);  // nothing confirmed twice
  CHECK(f.broker->counters().confirmed == 3);
  CHECK(f.broker->channel(f.pub)->unconfirmed.empty());

  // A new channel numbers from 1 again.
  const ChannelRef p2{101, 1};
  f.broker->open_channel(p2);
  f.broker->confirm_select(p2);
  CHECK(f.broker->publish(p2, "q", msg("x"), false) == 1);
}

TEST_CASE("amqp 14: persistent messages are confirmed at sync, transient and unroutable at once") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  QueueOptions transient_queue = classic("tq");
  transient_queue.durable = false;
  f.broker->declare_queue(transient_queue);
  f.broker->confirm_select(f.pub);

  f.broker->publish(f.pub, "q", msg("persistent"), false);           // 1: waits for disk
  f.broker->publish(f.pub, "q", msg("transient", false), false);     // 2: at once
  f.broker->publish(f.pub, "tq", msg("to-transient-queue"), false);  // 3: at once
  REQUIRE(f.out.confirms.size() == 2);
  // Seq 1 is still open, so these cannot use multiple.
  CHECK(f.out.confirms[0].seq == 2);
  CHECK_FALSE(f.out.confirms[0].multiple);
  CHECK(f.out.confirms[1].seq == 3);
  CHECK_FALSE(f.out.confirms[1].multiple);
  CHECK(f.ready_ids() == Ids{"persistent", "transient"});  // enqueued before any sync

  // Unroutable with mandatory: basic.return first, then the ack.
  f.out.log.clear();
  CHECK(f.broker->publish(f.pub, "nowhere", msg("lost"), true) == 4);
  REQUIRE(f.out.log.size() == 2);
  CHECK(f.out.log[0] == "return 100/1 lost");
  CHECK(f.out.log[1] == "confirm 100/1 seq=4");
  CHECK(f.out.returns[0].reply_code == 312);
  CHECK(f.out.returns[0].seq == 4);
  // Without mandatory: an ack alone, though nothing was enqueued.
  f.out.log.clear();
  f.broker->publish(f.pub, "nowhere", msg("lost2"), false);
  CHECK(f.out.log == std::vector<std::string>{"confirm 100/1 seq=5"});
  CHECK(f.broker->counters().unroutable == 2);

  f.broker->sync();
  REQUIRE(f.out.confirms.size() == 5);
  CHECK(f.out.confirms[4].seq == 1);
  CHECK_FALSE(f.out.confirms[4].multiple);
}

TEST_CASE("amqp 15: the broker neither sets nor deduplicates message_id") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.consumer({1, 1}, "c", 0);
  f.broker->confirm_select(f.pub);
  Message m = msg("order-7");
  m.order = 7;
  f.broker->publish(f.pub, "q", m, false);
  f.broker->restart();  // the confirm is lost with the unsynced message...
  CHECK(f.out.confirms.empty());
  f.broker->open_channel(f.pub);
  f.broker->confirm_select(f.pub);
  f.consumer({2, 1}, "c", 0);
  f.broker->publish(f.pub, "q", m, false);  // ...so the publisher republishes it
  f.broker->publish(f.pub, "q", m, false);  // and once more: a duplicate on the queue
  f.broker->publish(f.pub, "q", msg(""), false);
  REQUIRE(f.out.deliveries.size() == 4);
  CHECK(f.out.deliveries[1].message == m);
  CHECK(f.out.deliveries[2].message == m);  // both copies delivered, untouched
  CHECK(f.out.deliveries[3].message.message_id.empty());
}

TEST_CASE("amqp 16: a restart keeps durable queues and synced persistent messages only") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  QueueOptions transient_queue = classic("tq");
  transient_queue.durable = false;
  f.broker->declare_queue(transient_queue);
  f.publish({"p1"});
  f.broker->publish(f.pub, "q", msg("t1", false), false);
  f.publish({"x1"}, "tq");
  f.broker->sync();
  f.publish({"p2"});  // not synced
  f.broker->restart();
  CHECK_FALSE(f.broker->channel_open(f.pub));
  CHECK(f.broker->channels().empty());
  CHECK(f.broker->has_queue("q"));
  CHECK_FALSE(f.broker->has_queue("tq"));
  CHECK(f.ready_ids() == Ids{"p1"});
  CHECK(f.broker->counters().lost_in_restart == 3);
  f.broker->declare_queue(classic("q"));  // redeclare after restart is idempotent
  CHECK(f.ready_ids() == Ids{"p1"});
}

TEST_CASE("amqp 17: one channel's publishes are enqueued in order, competing consumers interleave") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.publish({"m1", "m2", "m3", "m4", "m5"});
  CHECK(f.ready_ids() == Ids{"m1", "m2", "m3", "m4", "m5"});
  auto ready = f.broker->ready("q");
  for (std::size_t i = 1; i < ready.size(); ++i) CHECK(ready[i - 1].seq < ready[i].seq);

  // Round-robin in registration order: each consumer sees a non-contiguous subsequence.
  f.consumer({1, 1}, "a", 0);
  f.consumer({2, 1}, "b", 0);
  f.broker->basic_cancel({1, 1}, "a");  // a took everything (unlimited); return it all
  f.broker->nack({1, 1}, 0, true, true);
  std::vector<std::string> seen_by_b;
  for (const auto& d : f.out.deliveries) {
    if (d.to == ChannelRef{2, 1}) seen_by_b.push_back(d.message.message_id);
  }
  CHECK(seen_by_b == Ids{"m1", "m2", "m3", "m4", "m5"});

  Fixture g;
  g.broker->declare_queue(classic("q"));
  g.consumer({1, 1}, "a", 1);
  g.consumer({2, 1}, "b", 1);
  g.publish({"m1", "m2", "m3", "m4"});
  g.broker->ack({2, 1}, 1, false);  // b finishes first and gets m3
  g.broker->ack({1, 1}, 1, false);
  CHECK(g.delivered_ids() == Ids{"m1", "m2", "m3", "m4"});
  CHECK(g.out.deliveries[0].to == ChannelRef{1, 1});
  CHECK(g.out.deliveries[1].to == ChannelRef{2, 1});
  CHECK(g.out.deliveries[2].to == ChannelRef{2, 1});
  CHECK(g.out.deliveries[3].to == ChannelRef{1, 1});

  // With room everywhere, deliveries alternate in registration order.
  Fixture h;
  h.broker->declare_queue(classic("q"));
  h.consumer({1, 1}, "a", 0);
  h.consumer({2, 1}, "b", 0);
  h.consumer({1, 2}, "c", 0);
  h.publish({"m1", "m2", "m3", "m4", "m5"});
  std::vector<std::string> tags;
  for (const auto& d : h.out.deliveries) tags.push_back(d.consumer_tag);
  CHECK(tags == Ids{"a", "b", "c", "a", "b"});
  h.broker->basic_cancel({2, 1}, "b");  // the rotation carries on without b
  h.publish({"m6", "m7"});
  CHECK(h.out.deliveries[5].consumer_tag == "c");
  CHECK(h.out.deliveries[6].consumer_tag == "a");
}

TEST_CASE("broker: restart drops unsynced persistent messages and never confirms them") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.broker->confirm_select(f.pub);
  f.publish({"a", "b"});
  f.consumer({1, 1}, "c", 1);  // a is unacked, b ready; neither on disk
  f.broker->restart();
  CHECK(f.broker->ready_count() == 0);
  CHECK(f.out.confirms.empty());
  CHECK(f.broker->counters().lost_in_restart == 2);
  // The next sync has nothing of theirs to confirm.
  f.broker->sync();
  CHECK(f.out.confirms.empty());
}

TEST_CASE("broker: restart keeps synced messages, unacked ones come back redelivered in order") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.broker->declare_queue(quorum("qq", 0));
  f.publish({"m1", "m2", "m3"});
  f.publish({"q1"}, "qq");
  f.broker->sync();
  f.consumer({1, 1}, "c", 2);   // m1, m2 unacked
  f.consumer({1, 2}, "k", 1, "qq");
  f.broker->ack({1, 1}, 1, false);  // m1 done, m3 delivered
  f.broker->restart();
  CHECK(f.ready_ids() == Ids{"m2", "m3"});
  auto ready = f.broker->ready("q");
  CHECK(ready[0].redelivered);
  CHECK(ready[1].redelivered);
  auto qq = f.broker->ready("qq");
  REQUIRE(qq.size() == 1);
  CHECK(qq[0].redelivered);
  CHECK(qq[0].message.x_delivery_count == 1);  // the consumer died with it
  // After restart the new channel starts at tag 1.
  f.consumer({2, 1}, "c", 0);
  REQUIRE(f.out.deliveries.size() >= 2);
  CHECK(f.out.deliveries[f.out.deliveries.size() - 2].delivery_tag == 1);
  CHECK(f.out.deliveries.back().redelivered);
}

TEST_CASE("broker: quorum queues keep transient messages across a restart and confirm at sync") {
  Fixture f;
  f.broker->declare_queue(quorum("qq", 0));
  f.broker->confirm_select(f.pub);
  f.broker->publish(f.pub, "qq", msg("t", false), false);
  CHECK(f.out.confirms.empty());  // written to the log: waits for the sync
  f.broker->sync();
  CHECK(f.out.confirms.size() == 1);
  f.broker->restart();
  CHECK(f.ready_ids("qq") == Ids{"t"});
}

TEST_CASE("broker: confirms above a gap go one by one, then one multiple ack closes the range") {
  Fixture f;
  f.broker->declare_queue(classic("q"));
  f.broker->confirm_select(f.pub);
  f.broker->publish(f.pub, "q", msg("p1"), false);         // 1 waits
  f.broker->publish(f.pub, "q", msg("t2", false), false);  // 2 at once, single
  f.broker->publish(f.pub, "q", msg("p3"), false);         // 3 waits
  f.broker->publish(f.pub, "q", msg("p4"), false);         // 4 waits
  f.broker->sync();
  REQUIRE(f.out.confirms.size() == 2);
  CHECK(f.out.confirms[0].seq == 2);
  CHECK_FALSE(f.out.confirms[0].multiple);
  CHECK(f.out.confirms[1].seq == 4);
  CHECK(f.out.confirms[1].multiple);  // 1, 3, 4 at once
  CHECK(f.broker->counters().confirmed == 4);
}

TEST_CASE("conformance row 8: a sync's confirms come as one batch or split, each seq once") {
  for (const auto batching : {broker::Batching::kOne, broker::Batching::kSplit}) {
    Fixture f;
    f.broker->declare_queue(classic("q"));
    f.broker->confirm_select(f.pub);
    CHECK_FALSE(f.broker->sync_has_batch());
    f.publish({"m1", "m2", "m3"});
    CHECK(f.broker->sync_has_batch());
    f.broker->sync(batching);
    std::vector<std::pair<uint64_t, bool>> frames;
    for (const auto& c : f.out.confirms) frames.push_back({c.seq, c.multiple});
    // RabbitMQ 3.10.8, measured: ack(3, multiple) or ack(1) + ack(3, multiple).
    if (batching == broker::Batching::kOne) {
      CHECK(frames == std::vector<std::pair<uint64_t, bool>>{{3, true}});
    } else {
      CHECK(frames == std::vector<std::pair<uint64_t, bool>>{{1, false}, {3, true}});
    }
    CHECK(f.broker->counters().confirmed == 3);
  }
}

TEST_CASE("broker: the same calls give the same outputs") {
  auto run = [] {
    Fixture f;
    f.broker->declare_queue(classic("dlq"));
    f.broker->declare_queue(quorum("q", 1, "dlq"));
    f.broker->confirm_select(f.pub);
    f.consumer({1, 1}, "a", 2);
    f.consumer({2, 1}, "b", 1);
    f.publish({"m1", "m2", "m3", "m4", "m5"});
    f.broker->nack({1, 1}, 2, true, true);
    f.broker->sync();
    f.broker->connection_lost(2);
    f.broker->reject({1, 1}, 3, false);
    f.broker->ack({1, 1}, 4, true);
    return f.out.log;
  };
  const auto first = run();
  CHECK(first.size() > 8);
  CHECK(first == run());
}
