// Broker: topology, channels, consumers, dispatch and consumer acknowledgements.
// Item numbers refer to docs/amqp-semantics.md.
#include "src/broker/broker.h"

#include <utility>

#include "sim/assert.h"

namespace broker {

Channel* Broker::find_channel(ChannelRef ref) {
  auto it = channels_.find(ref);
  if (it == channels_.end()) {
    ++counters_.ignored;
    return nullptr;
  }
  return &it->second;
}

Queue* Broker::find_queue(const std::string& name) {
  auto it = queues_.find(name);
  return it == queues_.end() ? nullptr : &it->second;
}

void Broker::declare_queue(const QueueOptions& options) {
  if (const Queue* existing = find_queue(options.name)) {
    // RabbitMQ answers an inequivalent redeclare with 406; here the lead declares the
    // topology itself, so a mismatch is a bug in the wiring.
    EOSIM_ASSERT(existing->options() == options);
    return;
  }
  queues_.emplace(options.name, Queue(options));
}

void Broker::open_channel(ChannelRef ref) {
  EOSIM_ASSERT(!channel_open(ref));
  channels_.emplace(ref, Channel(ref));
}

void Broker::close_channel(ChannelRef ref) {
  if (find_channel(ref) == nullptr) return;
  drop_channel(ref, RequeueReason::kChannelClosed);
  dispatch_all();
}

void Broker::connection_lost(ConnId conn) {
  // Item 5: all channels first, then one dispatch, as the queues see every consumer vanish
  // before they hand the requeued messages to someone else.
  std::vector<ChannelRef> refs;
  for (auto it = channels_.lower_bound(ChannelRef{conn, 0});
       it != channels_.end() && it->first.conn == conn; ++it) {
    refs.push_back(it->first);
  }
  for (ChannelRef ref : refs) drop_channel(ref, RequeueReason::kConnectionLost);
  dispatch_all();
}

void Broker::confirm_select(ChannelRef ref) {
  if (Channel* ch = find_channel(ref)) ch->select_confirm();
}

void Broker::basic_qos(ChannelRef ref, uint32_t prefetch) {
  if (Channel* ch = find_channel(ref)) ch->set_prefetch(prefetch);
}

void Broker::basic_consume(ChannelRef ref, const std::string& queue,
                           const std::string& consumer_tag, bool auto_ack) {
  Channel* ch = find_channel(ref);
  if (ch == nullptr) return;
  Queue* q = find_queue(queue);
  if (q == nullptr) {
    fail_channel(ref, 404, "NOT_FOUND - no queue '" + queue + "'");
    dispatch_all();
    return;
  }
  if (ch->has_consumer(consumer_tag)) {
    fail_channel(ref, 530, "NOT_ALLOWED - attempt to reuse consumer tag '" + consumer_tag + "'");
    dispatch_all();
    return;
  }
  ch->add_consumer(consumer_tag, queue);
  q->add_consumer(Consumer{ref, consumer_tag, auto_ack, ch->prefetch(), 0});
  dispatch_all();
}

void Broker::basic_cancel(ChannelRef ref, const std::string& consumer_tag) {
  Channel* ch = find_channel(ref);
  if (ch == nullptr) return;
  // Item 5: cancelling does not requeue what is in flight; the channel can still settle it.
  // An unknown tag is not an error (RabbitMQ replies cancel-ok anyway).
  if (auto queue = ch->remove_consumer(consumer_tag)) {
    if (Queue* q = find_queue(*queue)) q->remove_consumer(ref, consumer_tag);
  }
  dispatch_all();
}

void Broker::ack(ChannelRef ref, uint64_t tag, bool multiple) {
  settle(ref, tag, multiple, Settle::kAck);
}

void Broker::nack(ChannelRef ref, uint64_t tag, bool multiple, bool requeue) {
  settle(ref, tag, multiple, requeue ? Settle::kRequeue : Settle::kReject);
}

void Broker::reject(ChannelRef ref, uint64_t tag, bool requeue) {
  // Item 2: basic.reject has no `multiple`.
  settle(ref, tag, false, requeue ? Settle::kRequeue : Settle::kReject);
}

void Broker::settle(ChannelRef ref, uint64_t tag, bool multiple, Settle how) {
  Channel* ch = find_channel(ref);
  if (ch == nullptr) return;
  const auto settled = ch->settled_by(tag, multiple);
  if (!settled) {
    // Item 1: another channel's tag, a double ack, a tag from before a reconnect.
    fail_channel(ref, 406, "PRECONDITION_FAILED - unknown delivery tag " + std::to_string(tag));
    dispatch_all();
    return;
  }
  // Read where they are, and erased after: nothing below touches this channel's unacked
  // deliveries (the Output never calls back, output.h), and an ack moves nothing.
  for (auto it = settled->first; it != settled->second; ++it) {
    Unacked& unacked = it->second;
    release(ref, unacked);
    switch (how) {
      case Settle::kAck:
        ++counters_.acked;
        break;
      case Settle::kRequeue:
        return_to_queue(unacked.queue, std::move(unacked.entry), RequeueReason::kNack);
        break;
      case Settle::kReject:
        // Item 12: requeue=false dead-letters with reason "rejected" (or discards).
        if (const Queue* q = find_queue(unacked.queue)) {
          dead_letter(*q, std::move(unacked.entry.message), "rejected");
        } else {
          ++counters_.discarded;
        }
        break;
    }
  }
  ch->erase_unacked(*settled);
  dispatch_all();
}

void Broker::release(ChannelRef ref, const Unacked& unacked) {
  Queue* q = unacked.source;
  EOSIM_ASSERT(q != nullptr);
  // The consumer may have been cancelled meanwhile: then there is no slot to free.
  if (Consumer* c = q->find_consumer(ref, unacked.consumer_tag)) {
    EOSIM_ASSERT(c->unacked > 0);
    --c->unacked;
  }
}

void Broker::fail_channel(ChannelRef ref, int code, const std::string& text) {
  ++counters_.channel_errors;
  out_.channel_closed(ChannelClosed{ref, code, text});
  drop_channel(ref, RequeueReason::kChannelError);
}

void Broker::drop_channel(ChannelRef ref, RequeueReason why) {
  auto it = channels_.find(ref);
  EOSIM_ASSERT(it != channels_.end());
  // Remove the consumers first, so that nothing requeued below goes back to this channel.
  for (auto& [name, q] : queues_) q.remove_consumers(ref);
  std::vector<Unacked> unacked = it->second.take_all_unacked();
  channels_.erase(it);  // unconfirmed publishes die with the channel: no confirm ever comes
  for (Unacked& u : unacked) {
    return_to_queue(u.queue, std::move(u.entry), why);  // item 5
  }
}

// Conformance row 11: a quorum queue's message is deliverable once committed (synced).
// Returns were committed before their first delivery, so only fresh messages wait; they
// sit behind every older one, so the head decides.
bool Broker::deliverable(const Queue& queue) const {
  return !queue.is_quorum() || queue.ready().front().sync_generation < sync_generation_;
}

void Broker::dispatch_all() {
  for (auto& [name, q] : queues_) {
    while (q.has_ready() && deliverable(q)) {
      Consumer* consumer = q.next_consumer_with_capacity();
      if (consumer == nullptr) break;  // item 7: every consumer's prefetch window is full
      deliver(q, *consumer);
    }
  }
}

// The head goes straight into its unacked entry, and the delivery copies it from there
// (an auto-ack delivery keeps nothing and takes the message itself). The Output may not
// call back into the broker (output.h), so the order of the two is not observable.
void Broker::deliver(Queue& queue, Consumer& consumer) {
  auto it = channels_.find(consumer.channel);
  EOSIM_ASSERT(it != channels_.end());
  Channel& ch = it->second;
  const uint64_t tag = ch.next_delivery_tag();  // item 1
  ++counters_.delivered;
  if (consumer.auto_ack) {
    QueuedMessage message;
    queue.take_front(message);
    if (message.redelivered) ++counters_.redelivered;
    ++counters_.acked;  // item 6: settled when written to the socket; a crash now loses it
    out_.deliver(Delivery{consumer.channel, consumer.tag, tag, message.redelivered, queue.name(),
                          std::move(message.message)});
    return;
  }
  ++consumer.unacked;
  Unacked& unacked = ch.add_unacked(tag);
  queue.take_front(unacked.entry);
  if (unacked.entry.redelivered) ++counters_.redelivered;
  unacked.queue = queue.name();
  unacked.consumer_tag = consumer.tag;
  unacked.delivered_at = now_;
  unacked.source = &queue;
  out_.deliver(Delivery{consumer.channel, consumer.tag, tag, unacked.entry.redelivered,
                        queue.name(), unacked.entry.message});
}

}  // namespace broker
