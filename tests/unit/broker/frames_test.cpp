// Frames of the broker protocol (src/broker/frames.h): what a receiver may take from one.
#include <catch2/catch.hpp>

#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "src/broker/frames.h"

namespace {

broker::Delivery delivery_of(std::string id) {
  broker::Delivery d;
  d.delivery_tag = 7;
  d.queue = "orders";
  d.message.message_id = std::move(id);
  d.message.body = "a body longer than a short string holds";
  d.message.order = 3;
  return d;
}

}  // namespace

TEST_CASE("a frame delivered once hands its receiver its own method to move from") {
  sim::Frame frame = broker::make_deliver_frame(delivery_of("order-3"), 2);
  CHECK(frame.kind == static_cast<sim::FrameKind>(broker::FrameKind::kBasicDeliver));
  CHECK(frame.key[orders::kOrder] == 3);
  CHECK(frame.key[orders::kAttempt] == 2);
  std::optional<broker::BrokerMethod> spill;
  broker::BrokerMethod& method = broker::method_to_take(frame, spill);
  CHECK(&method == &broker::broker_method(frame));  // no copy
  CHECK_FALSE(spill.has_value());
  const auto& deliver = std::get<broker::DeliverFrame>(method);
  CHECK(deliver.attempt == 2);
  CHECK(deliver.delivery.message.message_id == "order-3");
}

TEST_CASE("a frame whose payload is shared hands its receiver a copy and keeps its own") {
  const sim::Frame frame = broker::make_frame(
      broker::ClientMethod(broker::PublishFrame{"orders", {"order-5", "body", true, 5}, true}), 5,
      1);
  // A second owner of the same payload: the copy is the point.
  const sim::Frame other_owner = frame;  // NOLINT(performance-unnecessary-copy-initialization)
  std::optional<broker::ClientMethod> spill;
  broker::ClientMethod& method = broker::method_to_take(frame, spill);
  REQUIRE(spill.has_value());
  CHECK(&method == &*spill);
  // Moving from the copy leaves the frame's own method whole.
  broker::Message taken = std::move(std::get<broker::PublishFrame>(method).message);
  CHECK(taken.message_id == "order-5");
  const auto& kept = std::get<broker::PublishFrame>(broker::client_method(other_owner));
  CHECK(kept.message.message_id == "order-5");
  CHECK(kept.message.body == "body");
}

TEST_CASE("a frame's summary is made from its method, as the trace has always read it") {
  sim::Frame deliver = broker::make_deliver_frame(delivery_of("order-3"), 2);
  CHECK(deliver.summary_text() == "deliver tag=7 order-3");
  broker::Delivery again = delivery_of("");
  again.redelivered = true;
  const sim::Frame redelivered = broker::make_deliver_frame(std::move(again), 3);
  CHECK(redelivered.summary_text() == "deliver tag=7 redelivered (no id)");
  const auto client = [](broker::ClientMethod method) {
    return broker::make_frame(std::move(method), 0, 0).summary_text();
  };
  CHECK(client(broker::PublishFrame{"orders", {"order-5", "body", true, 5}, true, 12}) ==
        "publish order-5 seq=12");
  CHECK(client(broker::PublishFrame{"orders", {}, true}) == "publish (no message_id)");
  CHECK(client(broker::QosFrame{5}) == "qos prefetch=5");
  CHECK(client(broker::ConsumeFrame{"orders", "consumer1", true}) == "consume orders no-ack");
  CHECK(client(broker::ConfirmSelectFrame{}) == "confirm.select");
  CHECK(client(broker::AckFrame{9, false}) == "ack 9");
  CHECK(client(broker::NackFrame{9, false, true}) == "nack 9 requeue");
  CHECK(client(broker::RejectFrame{9, false}) == "reject 9");
  CHECK(broker::summary_text(broker::Confirm{{1, 1}, 4, true, true}) == "confirm <=4");
  CHECK(broker::summary_text(broker::Confirm{{1, 1}, 4, false, false}) == "nack 4");
  CHECK(broker::summary_text(broker::Returned{{1, 1}, 0, 312, "NO_ROUTE", {}}) ==
        "return 312 NO_ROUTE");
  CHECK(broker::summary_text(broker::ChannelClosed{{1, 1}, 406, "unknown delivery tag 9"}) ==
        "channel.close 406 unknown delivery tag 9");
}
