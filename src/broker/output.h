#pragma once
// What the broker sends out. The broker is a pure state machine: it calls an Output the
// lead implements (which turns the calls into frames on the simulated network).
//
// REQUIRES of an Output implementation: it must not call back into the Broker from inside
// these callbacks (the broker is mid-update); queue the work and apply it afterwards.
// Every callback receives copies; the broker keeps no reference to them.
// Item numbers refer to docs/amqp-semantics.md.

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "sim/named.h"
#include "src/broker/message.h"

namespace broker {

// basic.deliver
struct Delivery {
  ChannelRef to;
  std::string consumer_tag;
  uint64_t delivery_tag = 0;  // per channel, from 1, only grows (item 1)
  bool redelivered = false;   // true after any requeue (item 4)
  std::string queue;
  Message message;
};

// basic.ack / basic.nack from broker to publisher (item 13)
struct Confirm {
  ChannelRef to;
  uint64_t seq = 0;
  bool multiple = false;  // covers every seq <= `seq` on the channel
  bool ack = true;        // the model never nacks; kept so the wire format is complete
};

// basic.return (item 14). Not part of AMQP's frame, but `seq` is the publish seq of the
// returned message (0 outside confirm mode) so traces can pair it with its confirm.
struct Returned {
  ChannelRef to;
  uint64_t seq = 0;
  int reply_code = 312;  // NO_ROUTE
  std::string reply_text;
  Message message;
};

// channel.close sent by the broker (a channel error, item 1 / item 8)
struct ChannelClosed {
  ChannelRef channel;
  int code = 406;  // PRECONDITION_FAILED; 404 NOT_FOUND; 530 NOT_ALLOWED
  std::string text;
};

// Why an unacked message went back to its queue (item 5 / item 4).
enum class RequeueReason {
  kConnectionLost,  // the connection died (heartbeat timeout, reset, a crashed client)
  kChannelClosed,   // the client closed the channel
  kChannelError,    // the broker closed the channel on an error (e.g. 406)
  kNack,            // basic.nack or basic.reject with requeue=true
  kRestart,         // the broker restarted; the message was on disk
};

// Its name (sim::name_of) ends the requeue event's detail in a trace: part of every
// trace's bytes and hash.
inline constexpr std::array<sim::Named<RequeueReason>, 5> kRequeueReasonNames{{
    {RequeueReason::kConnectionLost, "connection lost", ""},
    {RequeueReason::kChannelClosed, "channel closed", ""},
    {RequeueReason::kChannelError, "channel error", ""},
    {RequeueReason::kNack, "nack", ""},
    {RequeueReason::kRestart, "broker restart", ""},
}};
static_assert(sim::names_every_value(kRequeueReasonNames));

class Output {
 public:
  virtual ~Output() = default;
  // By value: the broker builds a Delivery per call, which the receiver may keep (moved).
  virtual void deliver(Delivery) = 0;
  virtual void confirm(const Confirm&) = 0;
  virtual void returned(const Returned&) = 0;
  virtual void channel_closed(const ChannelClosed&) = 0;
  // Optional notifications (no frame): a message was enqueued to `from_queue`'s dead-letter
  // queue (`message` carries its new x-death), or dropped because there was no DLQ to take it.
  virtual void dead_lettered(const Message& /*message*/, const std::string& /*from_queue*/,
                             const std::string& /*reason*/) {}
  virtual void discarded(const Message& /*message*/, const std::string& /*from_queue*/,
                         const std::string& /*reason*/) {}
  // An unacked message is back in `queue`'s ready list (it will be redelivered).
  virtual void requeued(const Message& /*message*/, const std::string& /*queue*/,
                        RequeueReason /*why*/) {}
};

}  // namespace broker

namespace sim {
template <>
constexpr std::span<const Named<broker::RequeueReason>> enum_names<broker::RequeueReason>() {
  return broker::kRequeueReasonNames;
}
}  // namespace sim
