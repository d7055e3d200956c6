#pragma once
// AMQP 0-9-1 methods as they travel between the actors and the broker: two closed sets,
// one per direction, each a std::variant. A receiver handles its set with std::visit, so
// a method it forgets to handle is a compile error rather than a frame dropped in silence.
// Each client connection carries one channel (channel 1), opened when it connects, so
// channel.open and connection.* methods are elided. A frame's kind is derived from the
// method it carries (kind_of), and its name is the one fault rules use (`frame =
// "basic.ack"`); kFrameKindTable is the one table of those names (sim::name_of).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "sim/assert.h"
#include "sim/named.h"
#include "sim/network.h"
#include "src/broker/message.h"
#include "src/broker/output.h"
#include "src/orders/order_key.h"

namespace broker {

struct QosFrame { std::uint32_t prefetch = 0; };
struct ConsumeFrame { std::string queue; std::string consumer_tag; bool auto_ack = false; };
struct ConfirmSelectFrame {};
// `seq` is not part of AMQP's frame (the channel counts publishes): the publisher's number
// for it in confirm mode (0 outside it), for the trace only; the broker counts its own.
struct PublishFrame {
  std::string routing_key;
  Message message;
  bool mandatory = false;
  std::uint64_t seq = 0;
};
struct AckFrame { std::uint64_t tag = 0; bool multiple = false; };
struct NackFrame { std::uint64_t tag = 0; bool multiple = false; bool requeue = true; };
struct RejectFrame { std::uint64_t tag = 0; bool requeue = true; };
// Broker -> client: Delivery (basic.deliver), Confirm (confirm.ack / confirm.nack),
// Returned (basic.return) and ChannelClosed (channel.close) from output.h; a delivery also
// carries the attempt number the world counted for its order.
struct DeliverFrame { Delivery delivery; std::int64_t attempt = 0; };

// What a client sends the broker.
using ClientMethod = std::variant<QosFrame, ConsumeFrame, ConfirmSelectFrame, PublishFrame,
                                  AckFrame, NackFrame, RejectFrame>;
// What the broker sends a client.
using BrokerMethod = std::variant<DeliverFrame, Confirm, Returned, ChannelClosed>;

// Which method a frame carries, as fault rules and traces name it. kNone (no frame) is
// first: the fault plan's frame kinds are handed these names in this order (sim/faults.h),
// so a kind's value is its id there. A broker's negative confirm travels as basic.nack,
// like a consumer's nack the other way.
enum class FrameKind : std::uint8_t {
  kNone,
  kBasicQos,
  kBasicConsume,
  kConfirmSelect,
  kBasicPublish,
  kBasicAck,
  kBasicNack,
  kBasicReject,
  kBasicDeliver,
  kConfirmAck,
  kBasicReturn,
  kChannelClose,
};
// clang-format off
inline constexpr std::array<sim::Named<FrameKind>, 12> kFrameKindTable{{
    {FrameKind::kNone,          "",               "no frame"},
    {FrameKind::kBasicQos,      "basic.qos",      "consumer to broker: how many unacked deliveries it may hold (prefetch)"},
    {FrameKind::kBasicConsume,  "basic.consume",  "consumer to broker: start delivering from a queue"},
    {FrameKind::kConfirmSelect, "confirm.select", "publisher to broker: turn on publisher confirms"},
    {FrameKind::kBasicPublish,  "basic.publish",  "publisher to broker: a message"},
    {FrameKind::kBasicAck,      "basic.ack",      "consumer to broker: done with a delivery (or all up to it)"},
    {FrameKind::kBasicNack,     "basic.nack",     "consumer to broker: give a delivery back, requeued or not; "
                                                  "broker to publisher: a negative confirm"},
    {FrameKind::kBasicReject,   "basic.reject",   "consumer to broker: give one delivery back, requeued or not"},
    {FrameKind::kBasicDeliver,  "basic.deliver",  "broker to consumer: a delivery with its delivery tag"},
    {FrameKind::kConfirmAck,    "confirm.ack",    "broker to publisher: the message is safely stored"},
    {FrameKind::kBasicReturn,   "basic.return",   "broker to publisher: a mandatory message could not be routed"},
    {FrameKind::kChannelClose,  "channel.close",  "broker to client: a channel error (e.g. 406 for an unknown tag)"},
}};
// clang-format on
static_assert(sim::names_every_value(kFrameKindTable));
// The names alone, by value: what the fault plan is handed (transport::name_lab_ids).
inline constexpr std::array<std::string_view, kFrameKindTable.size()> kFrameKindNames =
    sim::names_by_value(kFrameKindTable);

inline FrameKind kind_of(const ClientMethod& method) {
  constexpr std::array<FrameKind, std::variant_size_v<ClientMethod>> kinds = {
      FrameKind::kBasicQos,  FrameKind::kBasicConsume, FrameKind::kConfirmSelect,
      FrameKind::kBasicPublish, FrameKind::kBasicAck, FrameKind::kBasicNack,
      FrameKind::kBasicReject};
  return kinds[method.index()];
}
inline FrameKind kind_of(const BrokerMethod& method) {
  if (const auto* confirm = std::get_if<Confirm>(&method)) {
    return confirm->ack ? FrameKind::kConfirmAck : FrameKind::kBasicNack;
  }
  constexpr std::array<FrameKind, std::variant_size_v<BrokerMethod>> kinds = {
      FrameKind::kBasicDeliver, FrameKind::kConfirmAck, FrameKind::kBasicReturn,
      FrameKind::kChannelClose};
  return kinds[method.index()];
}

// One lambda per method for std::visit.
// What a receiver can read from a frame's method, for explore's state merging (the
// network's sim::Boxed payload finds these by argument-dependent lookup). broker_state.cpp.
void add_payload_state(sim::StateHash& hash, const ClientMethod& method);
void add_payload_state(sim::StateHash& hash, const BrokerMethod& method);
void add_state(sim::StateHash& hash, const DeliverFrame& deliver);
// A frame's summary, made from its method when the trace reads it ("deliver tag=7
// redelivered order-3", "publish order-3 seq=2"; sim::Payload::describe finds these by
// argument-dependent lookup), and the same joined into text. frame_summary.cpp.
void describe_payload(sim::SummaryParts& out, const ClientMethod& method);
void describe_payload(sim::SummaryParts& out, const BrokerMethod& method);
std::string summary_text(const BrokerMethod& method);

template <class... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
template <class... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

namespace detail {
// A frame of `kind` about `order` (attempt `attempt`), its payload not set yet.
// Its summary is its method's (describe_payload).
inline sim::Frame frame_of(FrameKind kind, std::int64_t order, std::int64_t attempt) {
  sim::Frame frame;
  frame.kind = static_cast<sim::FrameKind>(kind);  // frames() named as the enum
  frame.key = orders::order_key(order, attempt);
  return frame;
}
}  // namespace detail

// Builds a network frame of the method's kind; `order` and `attempt` (its key,
// src/orders/order_key.h) feed fault rules and the trace. The method is taken by rvalue
// reference all the way into the frame's payload (a sim::Boxed<Method>): it is moved
// once, not once per call on the way.
template <class Method>
  requires std::is_same_v<Method, ClientMethod> || std::is_same_v<Method, BrokerMethod>
sim::Frame make_frame_of(Method&& method, std::int64_t order, std::int64_t attempt) {
  const FrameKind kind = kind_of(method);
  sim::Frame frame = detail::frame_of(kind, order, attempt);
  sim::set_payload(frame, std::forward<Method>(method));
  return frame;
}

inline sim::Frame make_frame(ClientMethod&& method, std::int64_t order, std::int64_t attempt) {
  return make_frame_of(std::move(method), order, attempt);
}

inline sim::Frame make_frame(BrokerMethod&& method, std::int64_t order, std::int64_t attempt) {
  return make_frame_of(std::move(method), order, attempt);
}

// A basic.deliver frame (key: the message's order and `attempt`), the delivery moved
// once, straight into its place in the payload: through a BrokerMethod temporary it would
// move twice more.
inline sim::Frame make_deliver_frame(Delivery&& delivery, std::int64_t attempt) {
  sim::Frame frame = detail::frame_of(FrameKind::kBasicDeliver, delivery.message.order, attempt);
  auto& deliver = std::get<DeliverFrame>(
      sim::emplace_payload<BrokerMethod>(frame, std::in_place_type<DeliverFrame>));
  deliver.delivery = std::move(delivery);
  deliver.attempt = attempt;
  return frame;
}

// The method a frame carries. REQUIRES (asserted): the frame carries a Method, that is,
// it travels in that direction (only the broker receives client methods, only clients
// receive broker methods).
template <class Method>
const Method& method_of(const sim::Frame& frame) {
  const Method* method = sim::payload_as<Method>(frame);
  EOSIM_ASSERT(method != nullptr);
  return *method;
}

inline const ClientMethod& client_method(const sim::Frame& frame) {
  return method_of<ClientMethod>(frame);
}

inline const BrokerMethod& broker_method(const sim::Frame& frame) {
  return method_of<BrokerMethod>(frame);
}

// The method a frame carries, for its receiver to move from (sim::payload_to_take): the
// frame's own when the frame is its payload's only owner, else a copy in `spill`.
// REQUIRES (asserted): the frame carries a Method.
template <class Method>
Method& method_to_take(const sim::Frame& frame, std::optional<Method>& spill) {
  Method* method = sim::payload_to_take(frame, spill);
  EOSIM_ASSERT(method != nullptr);
  return *method;
}

}  // namespace broker

namespace sim {
template <>
constexpr std::span<const Named<broker::FrameKind>> enum_names<broker::FrameKind>() {
  return broker::kFrameKindTable;
}
}  // namespace sim
