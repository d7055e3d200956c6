#pragma once
// AMQP 0-9-1 methods as they travel on the simulated network: the payloads of sim::Frame.
// Each client connection carries one channel (channel 1), opened when it connects, so
// channel.open and connection.* methods are elided. The frame kind strings are the ones
// fault rules name (`frame = "basic.ack"`).

#include <cstdint>
#include <string>

#include "sim/network.h"
#include "src/broker/message.h"
#include "src/broker/output.h"

namespace broker {

struct QosFrame { std::uint32_t prefetch = 0; };
struct ConsumeFrame { std::string queue; std::string consumer_tag; bool auto_ack = false; };
struct ConfirmSelectFrame {};
struct PublishFrame { std::string routing_key; Message message; bool mandatory = false; };
struct AckFrame { std::uint64_t tag = 0; bool multiple = false; };
struct NackFrame { std::uint64_t tag = 0; bool multiple = false; bool requeue = true; };
struct RejectFrame { std::uint64_t tag = 0; bool requeue = true; };
// Broker -> client: Delivery (basic.deliver), Confirm (confirm.ack / confirm.nack),
// Returned (basic.return) and ChannelClosed (channel.close) from output.h; a delivery also
// carries the attempt number the world counted for its order.
struct DeliverFrame { Delivery delivery; std::int64_t attempt = 0; };

// Builds a network frame; `order` and `attempt` feed fault rules and the trace.
template <class Payload>
sim::Frame make_frame(std::string kind, Payload payload, std::int64_t order,
                      std::int64_t attempt, std::string summary) {
  sim::Frame frame;
  frame.kind = std::move(kind);
  frame.order = order;
  frame.attempt = attempt;
  frame.summary = std::move(summary);
  frame.payload = std::move(payload);
  return frame;
}

}  // namespace broker
