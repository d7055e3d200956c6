// The Message value (src/broker/message.h): its dead-letter headers live in a DeathBox out
// of line, and must still travel with the message through every copy and move.
#include <catch2/catch.hpp>

#include <string>
#include <utility>
#include <vector>

#include "src/broker/queue.h"
#include "tests/unit/broker/broker_fixture.h"

using broker::DeathHeaders;

namespace {

Message dead_lettered() {
  Message m = msg("m1");
  add_x_death(m, "q", "rejected", 7);
  return m;
}

const std::vector<XDeath> kOneDeath{{"q", "rejected", 1, "", {"q"}, 7}};

}  // namespace

TEST_CASE("message: a copy and a move keep the dead-letter headers, a copy owns its own") {
  const Message original = dead_lettered();
  REQUIRE(original.deaths.get().x_death == kOneDeath);
  CHECK(original.deaths.get().x_first_death_queue == "q");
  CHECK(original.deaths.get().x_first_death_reason == "rejected");

  Message copy = original;
  CHECK(copy == original);
  CHECK(copy.deaths.get().x_death == kOneDeath);
  add_x_death(copy, "dlq", "rejected", 9);  // the copy changes, the original does not
  CHECK(copy.deaths.get().x_death.size() == 2);
  CHECK(original.deaths.get().x_death == kOneDeath);
  CHECK_FALSE(copy == original);

  Message assigned = msg("other");
  assigned = original;
  CHECK(assigned == original);
  Message moved = std::move(assigned);
  CHECK(moved.deaths.get().x_death == kOneDeath);
  CHECK(moved.deaths.get().x_first_death_queue == "q");
  Message move_assigned;
  move_assigned = std::move(moved);
  CHECK(move_assigned == original);
}

TEST_CASE("message: headers never written read and compare as empty ones") {
  Message plain = msg("m1");
  CHECK(plain.deaths.get() == DeathHeaders{});
  Message written = msg("m1");
  written.deaths.edit();  // allocated, still empty: the same message
  CHECK(plain == written);
  CHECK_FALSE(plain == dead_lettered());
}

TEST_CASE("amqp 12: a dead letter's delivery from its queue carries its x-death headers") {
  Fixture f;
  f.broker->declare_queue(classic("q", "dlq"));
  f.broker->declare_queue(classic("dlq"));
  f.publish({"m1"});
  const ChannelRef c{1, 1};
  f.consumer(c, "c", 0);
  f.broker->reject(c, 1, false);
  f.broker->basic_consume(c, "dlq", "d", false);  // delivered unacked: the broker keeps a copy
  REQUIRE(f.out.deliveries.size() == 2);
  const Message delivered = f.out.deliveries.back().message;
  CHECK(delivered.message_id == "m1");
  CHECK(delivered.deaths.get().x_death == std::vector<XDeath>{{"q", "rejected", 1, "", {"q"}, 0}});
  CHECK(delivered.deaths.get().x_first_death_queue == "q");
  CHECK(delivered.deaths.get().x_first_death_reason == "rejected");
  f.broker->nack(c, 2, false, true);  // requeued from the unacked copy, delivered again
  REQUIRE(f.out.deliveries.size() == 3);
  CHECK(f.out.deliveries.back().redelivered);
  CHECK(f.out.deliveries.back().message == delivered);
}
