#pragma once
// A model AMQP 0-9-1 broker (RabbitMQ 3.10-like) as a pure state machine. It knows nothing
// of networks, schedulers or SQL: the lead calls a method for every frame that arrives and
// the broker answers through an Output. Item numbers refer to docs/amqp-semantics.md.
//
// Only the default exchange is modelled: the routing key of a publish is the queue name.
//
// Invariants (hold after every public method returns; check_invariants() checks them):
//  - No queue has a ready message while one of its consumers has free capacity: every state
//    change ends with a dispatch (round-robin, registration order, item 7).
//  - A message is in exactly one place: a queue's ready list, one channel's unacked map, or
//    gone (acked, dead-lettered into another queue's ready list, discarded, lost in restart).
//  - Consumer records exist only for open channels.
//  - The broker never reads a clock: time only enters through advance_time/check_timeouts.
//
// Methods naming a channel that is not open are ignored (counters().ignored): on a real
// connection those are frames that raced a channel.close and the server drops them.
// REQUIRES (programmer errors, asserted): open_channel on an open channel; declaring a queue
// again with different options; a quorum queue that is not durable.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/state_hash.h"
#include "src/broker/channel.h"
#include "src/broker/heartbeat.h"
#include "src/broker/message.h"
#include "src/broker/output.h"
#include "src/broker/queue.h"
#include "src/broker/views.h"

namespace broker {

// How the confirms of one sync are framed (conformance row 8): one ack(multiple) for the
// whole batch, or the first seq alone and then the rest - RabbitMQ does either.
enum class Batching { kOne, kSplit };

class Broker {
 public:
  explicit Broker(Output& out) : out_(out) {}
  Broker(const Broker&) = delete;
  Broker& operator=(const Broker&) = delete;

  // --- topology and channels (broker.cpp) ---
  void declare_queue(const QueueOptions& options);  // idempotent for the same options
  void open_channel(ChannelRef ref);
  void close_channel(ChannelRef ref);  // client close: unacked requeued (item 5), no output
  void connection_lost(ConnId conn);   // every channel of conn closed as above (item 5)
  void confirm_select(ChannelRef ref);
  void basic_qos(ChannelRef ref, uint32_t prefetch);  // per consumer, 0 = unlimited (item 7)
  // Unknown queue: channel error 404. Consumer tag already used on the channel: error 530.
  void basic_consume(ChannelRef ref, const std::string& queue, const std::string& consumer_tag,
                     bool auto_ack);
  void basic_cancel(ChannelRef ref, const std::string& consumer_tag);  // in-flight stay unacked

  // --- consumer settlement (broker.cpp) ---
  // An unknown, stale or already settled tag closes the channel with 406 (item 1).
  void ack(ChannelRef ref, uint64_t tag, bool multiple);
  void nack(ChannelRef ref, uint64_t tag, bool multiple, bool requeue);
  void reject(ChannelRef ref, uint64_t tag, bool requeue);

  // --- publishing, disk and faults (broker_publish.cpp) ---
  // Publish to the default exchange. Returns the publish seq (0 if not in confirm mode or
  // the channel is not open).
  uint64_t publish(ChannelRef ref, const std::string& routing_key, Message message,
                   bool mandatory);
  // Publish through `exchange`. Only the default exchange ("") is modelled; any other name
  // is a missing exchange, and RabbitMQ closes the channel with 404 (conformance row 19).
  uint64_t publish_to(ChannelRef ref, const std::string& exchange, const std::string& routing_key,
                      Message message, bool mandatory);
  // "fsync": messages written since the last sync reach disk; their confirms go out now,
  // and quorum messages become deliverable: a quorum queue hands out only committed
  // messages (conformance row 11), a classic queue delivers before its disk catches up.
  void sync(Batching batching = Batching::kOne);
  // True when some channel has two or more publishes waiting for the next sync: only then
  // can the batching of their confirms differ.
  bool sync_has_batch() const;
  // Broker process restart: every channel is gone (no outputs for them); durable queues keep
  // their synced disk messages, unacked ones coming back with redelivered=true (item 16).
  // After a crash (kCrash, SIGKILL) a classic queue cannot tell which of its messages were
  // delivered, so every recovered one is redelivered=true (conformance row 12).
  enum class Stop { kClean, kCrash };
  void restart(Stop stop = Stop::kClean);
  // Fault: the newest ready message of `queue` jumps to the head. No-op if unknown queue.
  void reorder_to_front(const std::string& queue);
  // Virtual time, used only to stamp deliveries for consumer_timeout. REQUIRES: monotone.
  void advance_time(uint64_t now);
  // Item 8: a channel with a delivery unacked for longer than `timeout` is closed with 406
  // and its unacked deliveries are requeued.
  void check_timeouts(uint64_t now, uint64_t timeout);

  // --- inspection (broker_views.cpp) ---
  bool has_queue(const std::string& name) const { return queues_.count(name) > 0; }
  std::vector<std::string> queue_names() const;        // sorted
  QueueView queue(const std::string& name) const;      // REQUIRES: has_queue(name)
  std::vector<ReadyView> ready(const std::string& name) const;  // empty if unknown
  bool channel_open(ChannelRef ref) const { return channels_.count(ref) > 0; }
  std::optional<ChannelView> channel(ChannelRef ref) const;
  std::vector<ChannelView> channels() const;           // by ChannelRef
  std::size_t ready_count() const;    // all queues
  std::size_t unacked_count() const;  // all channels
  const Counters& counters() const { return counters_; }
  uint64_t now() const { return now_; }
  // For explore's state merging (broker_state.cpp): every queue and channel with all they
  // hold (tags and sequence numbers as they are), the sync generation, and times relative
  // to `now` (the simulation's clock; the broker's own may lag it). The counters are
  // statistics nothing decides by, and are left out.
  void add_state(sim::StateHash& hash, uint64_t now) const;
  // The invariants above that can be seen from outside (broker_invariants.cpp): the first
  // one that does not hold, in words, or "" when all do. The last (no clock) is not
  // observable. The unit tests call it after every method.
  std::string check_invariants() const;

 private:
  Channel* find_channel(ChannelRef ref);
  Queue* find_queue(const std::string& name);

  void dispatch_all();
  void deliver(Queue& queue, Consumer& consumer);  // the queue's head
  enum class Settle { kAck, kRequeue, kReject };
  void settle(ChannelRef ref, uint64_t tag, bool multiple, Settle how);
  void release(ChannelRef ref, const Unacked& unacked);  // frees the consumer's prefetch slot
  void return_to_queue(const std::string& queue_name, QueuedMessage message, RequeueReason why);
  bool deliverable(const Queue& queue) const;
  void dead_letter(const Queue& from, Message message, const std::string& reason);
  void fail_channel(ChannelRef ref, int code, const std::string& text);  // sends channel.close
  void drop_channel(ChannelRef ref, RequeueReason why);  // consumers removed, unacked requeued; no dispatch

  Output& out_;
  std::map<std::string, Queue> queues_;
  std::map<ChannelRef, Channel> channels_;
  Counters counters_;
  // Messages written while the generation is g reach disk when sync() moves it past g.
  uint64_t sync_generation_ = 0;
  uint64_t now_ = 0;
};

}  // namespace broker
