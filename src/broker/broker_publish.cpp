// Broker: publishing and publisher confirms, requeue and dead-lettering, the disk (sync and
// restart), time and the reorder fault.
// Item numbers refer to docs/amqp-semantics.md.
#include <algorithm>
#include <utility>

#include "sim/assert.h"
#include "src/broker/broker.h"

namespace broker {

uint64_t Broker::publish(ChannelRef ref, const std::string& routing_key, Message message,
                         bool mandatory) {
  Channel* ch = find_channel(ref);
  if (ch == nullptr) return 0;
  const uint64_t seq = ch->register_publish();  // item 13
  ++counters_.published;
  Queue* q = find_queue(routing_key);
  if (q == nullptr) {
    // Item 14: unroutable. The return comes first, then the ack: an ack alone does not
    // mean "enqueued".
    ++counters_.unroutable;
    if (mandatory) {
      ++counters_.returned;
      out_.returned(Returned{ref, seq, 312, "NO_ROUTE", std::move(message)});
    }
    if (seq != 0) {
      ++counters_.confirmed;
      ch->confirm_now(seq, out_);
    }
    return seq;
  }
  const bool to_disk = q->writes_to_disk(message);
  q->enqueue(std::move(message), sync_generation_);  // item 17: in publish order
  if (seq != 0) {
    // Item 14: confirmed once written to disk; a transient message or queue at once.
    if (to_disk) {
      ch->await_sync(seq);
    } else {
      ++counters_.confirmed;
      ch->confirm_now(seq, out_);
    }
  }
  dispatch_all();  // deliverable at once, before any sync
  return seq;
}

uint64_t Broker::publish_to(ChannelRef ref, const std::string& exchange,
                            const std::string& routing_key, Message message, bool mandatory) {
  if (exchange.empty()) return publish(ref, routing_key, std::move(message), mandatory);
  if (find_channel(ref) == nullptr) return 0;
  fail_channel(ref, 404, "NOT_FOUND - no exchange '" + exchange + "' in vhost '/'");
  dispatch_all();
  return 0;
}

bool Broker::sync_has_batch() const {
  for (const auto& [ref, ch] : channels_) {
    if (ch.awaiting_sync() >= 2) return true;
  }
  return false;
}

void Broker::sync(Batching batching) {
  ++sync_generation_;
  for (auto& [ref, ch] : channels_) {
    const std::size_t before = ch.unconfirmed().size();
    ch.confirm_synced(out_, batching == Batching::kSplit);
    counters_.confirmed += before - ch.unconfirmed().size();
  }
  dispatch_all();  // quorum messages just committed (row 11)
}

void Broker::return_to_queue(const std::string& queue_name, QueuedMessage message,
                             RequeueReason why) {
  Queue* q = find_queue(queue_name);
  EOSIM_ASSERT(q != nullptr);  // queues are only deleted by restart, which drops channels first
  message.redelivered = true;  // item 4
  if (q->is_quorum()) {
    // Item 9: every return counts, a dropped connection like a nack.
    const int64_t count = message.message.x_delivery_count.value_or(0) + 1;
    const int64_t limit = q->options().delivery_limit;
    if (limit > 0 && count > limit) {
      // Item 10: with limit N the (N+1)th return means N+1 deliveries happened already.
      dead_letter(*q, std::move(message.message), "delivery_limit");
      return;
    }
    message.message.x_delivery_count = count;
  }
  ++counters_.requeued;
  out_.requeued(message.message, queue_name, why);
  // Conformance row 4: without a delivery limit a quorum queue puts a nacked or rejected
  // message at the tail, so a poison message does not block later ones; a channel that
  // died returns its messages to the head all the same.
  const bool to_tail = q->is_quorum() && q->options().delivery_limit == 0 &&
                       why == RequeueReason::kNack;
  q->requeue(std::move(message), to_tail);  // item 3 (classic) / item 11 (quorum)
}

void Broker::dead_letter(const Queue& from, Message message, const std::string& reason) {
  message.x_delivery_count.reset();  // item 10: the dead-lettered copy has none
  add_x_death(message, from.name(), reason, now_);
  const std::string& target_name = from.options().dead_letter_queue;
  Queue* target = target_name.empty() ? nullptr : find_queue(target_name);
  if (target == nullptr) {
    // Item 12: no DLX (or its queue is missing) - the message is simply dropped.
    ++counters_.discarded;
    out_.discarded(message, from.name(), reason);
    return;
  }
  ++counters_.dead_lettered;
  out_.dead_lettered(message, from.name(), reason);
  target->enqueue(std::move(message), sync_generation_);  // on disk at the next sync
}

void Broker::restart(Stop stop) {
  // Collect what the dying channels held, in (channel, tag) order, before they vanish.
  std::vector<Unacked> in_flight;
  for (auto& [ref, ch] : channels_) {
    for (Unacked& u : ch.take_all_unacked()) in_flight.push_back(std::move(u));
  }
  channels_.clear();  // unconfirmed publishes are never confirmed (item 15)

  // Item 16: transient queues are deleted; durable ones keep what reached disk.
  for (auto it = queues_.begin(); it != queues_.end();) {
    Queue& q = it->second;
    if (!q.options().durable) {
      counters_.lost_in_restart += q.ready().size();
      it = queues_.erase(it);
      continue;
    }
    counters_.lost_in_restart += q.recover(sync_generation_, stop == Stop::kCrash);
    ++it;
  }
  for (Unacked& u : in_flight) {
    const Queue* q = find_queue(u.queue);
    const bool on_disk = q != nullptr && q->writes_to_disk(u.entry.message) &&
                         u.entry.sync_generation < sync_generation_;
    if (!on_disk) {
      ++counters_.lost_in_restart;
      continue;
    }
    // redelivered=true, back in seq order
    return_to_queue(u.queue, std::move(u.entry), RequeueReason::kRestart);
  }
  // No consumers exist after a restart, so there is nothing to dispatch.
}

void Broker::reorder_to_front(const std::string& queue) {
  Queue* q = find_queue(queue);
  if (q == nullptr) return;
  q->reorder_newest_to_front();
  dispatch_all();
}

void Broker::advance_time(uint64_t now) {
  EOSIM_ASSERT(now >= now_);
  now_ = now;
}

void Broker::check_timeouts(uint64_t now, uint64_t timeout) {
  advance_time(now);
  std::vector<ChannelRef> expired;
  for (const auto& [ref, ch] : channels_) {
    if (ch.has_expired_delivery(now, timeout)) expired.push_back(ref);
  }
  for (ChannelRef ref : expired) {
    fail_channel(ref, 406,
                 "PRECONDITION_FAILED - delivery acknowledgement on channel " +
                     std::to_string(ref.channel) + " timed out. Timeout value used: " +
                     std::to_string(timeout));
  }
  dispatch_all();
}

}  // namespace broker
