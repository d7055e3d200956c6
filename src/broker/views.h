#pragma once
// Read-only views of the broker's state for the checker and the GUI, plus its counters.
// They are plain copies: holding one never pins or changes broker state.
// Item numbers refer to docs/amqp-semantics.md.

#include <cstdint>
#include <string>
#include <vector>

#include "src/broker/message.h"

namespace broker {

// A consumer attached to a queue. Also the broker's own bookkeeping record.
struct Consumer {
  ChannelRef channel;
  std::string tag;
  bool auto_ack = false;
  uint32_t prefetch = 0;  // per consumer (basic.qos global=false), 0 = unlimited (item 7)
  uint32_t unacked = 0;   // deliveries of this consumer not yet settled
  // Auto-ack deliveries never count against prefetch: they are settled when sent (item 6).
  bool has_capacity() const { return auto_ack || prefetch == 0 || unacked < prefetch; }
};

struct ReadyView {
  uint64_t seq = 0;  // per-queue enqueue sequence; requeues keep it (item 3)
  bool redelivered = false;
  Message message;
};

struct UnackedView {
  uint64_t delivery_tag = 0;
  std::string queue;
  std::string consumer_tag;
  bool redelivered = false;
  uint64_t delivered_at = 0;  // virtual time given to advance_time(), 0 if never given
  Message message;
};

struct QueueView {
  QueueOptions options;
  std::vector<ReadyView> ready;  // in delivery order
  std::size_t unacked = 0;       // deliveries from this queue awaiting a settle, all channels
  std::vector<Consumer> consumers;  // registration order
};

struct ChannelView {
  ChannelRef ref;
  uint32_t prefetch = 0;
  bool confirm_mode = false;
  uint64_t last_delivery_tag = 0;  // 0 = nothing delivered yet on this channel
  uint64_t last_publish_seq = 0;   // 0 = nothing published in confirm mode yet
  std::vector<UnackedView> unacked;         // by delivery tag
  std::vector<uint64_t> unconfirmed;        // publish seqs with no confirm yet, ascending
  std::vector<std::string> consumer_tags;   // sorted
};

struct Counters {
  uint64_t published = 0;        // basic.publish on an open channel
  uint64_t unroutable = 0;       // no queue of that name (item 14)
  uint64_t returned = 0;         // basic.return sent (mandatory + unroutable)
  uint64_t confirmed = 0;        // publish seqs confirmed, one per message whatever the frames
  uint64_t delivered = 0;        // basic.deliver sent, redeliveries included
  uint64_t redelivered = 0;      // ... of which with redelivered=true
  uint64_t acked = 0;            // settled by basic.ack, or by auto-ack when sent
  uint64_t requeued = 0;         // back to a queue (nack/reject requeue, channel or conn loss)
  uint64_t dead_lettered = 0;    // enqueued to a dead-letter queue
  uint64_t discarded = 0;        // dropped: rejected/over the limit with no DLQ to take them
  uint64_t lost_in_restart = 0;  // transient, unsynced or in a transient queue at restart
  uint64_t channel_errors = 0;   // channel.close sent by the broker
  uint64_t ignored = 0;          // methods for a channel that is not open (raced a close)
  bool operator==(const Counters&) const = default;
};

}  // namespace broker
