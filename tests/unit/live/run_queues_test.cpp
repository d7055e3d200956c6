// What a live run decides after a broker restart (src/live/run_queues.h): which of its
// queues must have come back, and what it says when the broker answered that one did not.
// Pure: no broker here (tests/live/live_recovery_test.cpp makes a queue go missing for real).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/live/run_queues.h"

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

live::Status not_found(const std::string& queue) {
  return live::Status::error("queue.declare passive: NOT_FOUND - no queue '" + queue +
                                 "' in vhost '/'",
                             404);
}

}  // namespace

TEST_CASE("recovery: the durable queue and the dead-letter queue must come back",
          "[live-unit]") {
  broker::QueueOptions q;
  q.name = "eosim-live-1-2-orders";
  q.durable = true;
  q.dead_letter_queue = "eosim-live-1-2-dead";
  CHECK(live::durable_queues(q) ==
        std::vector<std::string>{"eosim-live-1-2-orders", "eosim-live-1-2-dead"});
  q.durable = false;  // a transient queue is gone after any restart, in the model too
  CHECK(live::durable_queues(q) == std::vector<std::string>{"eosim-live-1-2-dead"});
  q.dead_letter_queue.clear();
  CHECK(live::durable_queues(q).empty());
}

TEST_CASE("recovery: every durable queue back, the run goes on", "[live-unit]") {
  CHECK(live::recovery_verdict({}, "broker.crash").ok());
  CHECK(live::recovery_verdict({{"q-orders", live::Status::success()},
                                {"q-dead", live::Status::success()}},
                               "broker.restart")
            .ok());
}

TEST_CASE("recovery: a durable queue the broker lost ends the run with an error naming it",
          "[live-unit]") {
  SECTION("the dead-letter queue") {
    const live::Status st = live::recovery_verdict(
        {{"q-orders", live::Status::success()}, {"q-dead", not_found("q-dead")}},
        "broker.crash");
    REQUIRE_FALSE(st.ok());
    CHECK(has(st.message, "came back from broker.crash without the durable queue q-dead"));
    CHECK(has(st.message, "cannot be judged"));
    CHECK_FALSE(has(st.message, "q-orders"));
  }
  SECTION("the queue itself: the first missing one is named") {
    const live::Status st = live::recovery_verdict(
        {{"q-orders", not_found("q-orders")}, {"q-dead", not_found("q-dead")}},
        "broker.restart");
    REQUIRE_FALSE(st.ok());
    CHECK(has(st.message, "came back from broker.restart without the durable queue q-orders"));
    CHECK_FALSE(has(st.message, "q-dead"));
  }
}

TEST_CASE("recovery: a broker that could not be asked is not said to have lost the queue",
          "[live-unit]") {
  // The connection died (no AMQP reply code): nothing is known about the queue.
  const live::Status st = live::recovery_verdict(
      {{"q-orders", live::Status::error("queue.declare passive: connection lost")}},
      "broker.crash");
  REQUIRE_FALSE(st.ok());
  CHECK(has(st.message, "q-orders"));
  CHECK(has(st.message, "connection lost"));
  CHECK_FALSE(has(st.message, "without the durable queue"));
}
