// The broker's part of a run's state, for explore's state merging (sim/state_hash.h):
// every field the broker reads when it decides. Times are fed relative to now (absolute
// time is history); delivery tags, publish and queue sequence numbers are fed as they are:
// renumbering them would merge more states, but keeping them is the plainly sound choice.

#include <variant>

#include "src/broker/broker.h"
#include "src/broker/frames.h"

namespace broker {

namespace {

void add_ref(sim::StateHash& hash, ChannelRef ref) {
  hash.add(ref.conn);
  hash.add(ref.channel);
}

void add_delivery(sim::StateHash& hash, const Delivery& d) {
  add_ref(hash, d.to);
  hash.add(std::string_view(d.consumer_tag));
  hash.add(d.delivery_tag);
  hash.add(d.redelivered);
  hash.add(std::string_view(d.queue));
  add_state(hash, d.message);
}

}  // namespace

void add_state(sim::StateHash& hash, const Message& m) {
  hash.add(std::string_view(m.message_id));
  hash.add(std::string_view(m.body));
  hash.add(m.persistent);
  hash.add(m.order);
  hash.add(m.x_delivery_count.has_value());
  if (m.x_delivery_count) hash.add(*m.x_delivery_count);
  const DeathHeaders& deaths = m.deaths.get();
  hash.add(static_cast<uint64_t>(deaths.x_death.size()));
  for (const XDeath& x : deaths.x_death) {
    hash.add(std::string_view(x.queue));
    hash.add(std::string_view(x.reason));
    hash.add(x.count);
    hash.add(std::string_view(x.exchange));
    hash.add(static_cast<uint64_t>(x.routing_keys.size()));
    for (const std::string& key : x.routing_keys) hash.add(std::string_view(key));
    // x.time is left out: it is shown, never decided by.
  }
  hash.add(std::string_view(deaths.x_first_death_queue));
  hash.add(std::string_view(deaths.x_first_death_reason));
  hash.add(std::string_view(deaths.x_first_death_exchange));
}

void add_state(sim::StateHash& hash, const QueuedMessage& entry) {
  hash.add(entry.seq);
  hash.add(entry.redelivered);
  hash.add(entry.returned);
  hash.add(entry.sync_generation);
  add_state(hash, entry.message);
}

void add_state(sim::StateHash& hash, const DeliverFrame& deliver) {
  add_delivery(hash, deliver.delivery);
  hash.add(deliver.attempt);
}

void add_payload_state(sim::StateHash& hash, const ClientMethod& method) {
  hash.add(static_cast<uint64_t>(method.index()));
  std::visit(Overloaded{
                 [&](const QosFrame& f) { hash.add(f.prefetch); },
                 [&](const ConsumeFrame& f) {
                   hash.add(std::string_view(f.queue));
                   hash.add(std::string_view(f.consumer_tag));
                   hash.add(f.auto_ack);
                 },
                 [&](const ConfirmSelectFrame&) {},
                 [&](const PublishFrame& f) {
                   hash.add(std::string_view(f.routing_key));
                   add_state(hash, f.message);
                   hash.add(f.mandatory);
                 },
                 [&](const AckFrame& f) {
                   hash.add(f.tag);
                   hash.add(f.multiple);
                 },
                 [&](const NackFrame& f) {
                   hash.add(f.tag);
                   hash.add(f.multiple);
                   hash.add(f.requeue);
                 },
                 [&](const RejectFrame& f) {
                   hash.add(f.tag);
                   hash.add(f.requeue);
                 },
             },
             method);
}

void add_payload_state(sim::StateHash& hash, const BrokerMethod& method) {
  hash.add(static_cast<uint64_t>(method.index()));
  std::visit(Overloaded{
                 [&](const DeliverFrame& f) { add_state(hash, f); },
                 [&](const Confirm& f) {
                   add_ref(hash, f.to);
                   hash.add(f.seq);
                   hash.add(f.multiple);
                   hash.add(f.ack);
                 },
                 [&](const Returned& f) {
                   add_ref(hash, f.to);
                   hash.add(f.seq);
                   hash.add(static_cast<int64_t>(f.reply_code));
                   hash.add(std::string_view(f.reply_text));
                   add_state(hash, f.message);
                 },
                 [&](const ChannelClosed& f) {
                   add_ref(hash, f.channel);
                   hash.add(static_cast<int64_t>(f.code));
                   hash.add(std::string_view(f.text));
                 },
             },
             method);
}

void Queue::add_state(sim::StateHash& hash) const {
  hash.add(std::string_view(options_.name));
  hash.add(options_.type == QueueType::kQuorum);
  hash.add(options_.durable);
  hash.add(options_.delivery_limit);
  hash.add(std::string_view(options_.dead_letter_queue));
  hash.add(next_seq_);
  hash.add(static_cast<uint64_t>(ready_.size()));
  for (const QueuedMessage& m : ready_) broker::add_state(hash, m);
  hash.add(static_cast<uint64_t>(consumers_.size()));
  for (const Consumer& c : consumers_) {
    add_ref(hash, c.channel);
    hash.add(std::string_view(c.tag));
    hash.add(c.auto_ack);
    hash.add(c.prefetch);
    hash.add(c.unacked);
  }
  hash.add(static_cast<uint64_t>(cursor_));
}

void Channel::add_state(sim::StateHash& hash, uint64_t now) const {
  add_ref(hash, ref_);
  hash.add(prefetch_);
  hash.add(static_cast<uint64_t>(consumers_.size()));
  for (const auto& [tag, queue] : consumers_) {
    hash.add(std::string_view(tag));
    hash.add(std::string_view(queue));
  }
  hash.add(last_delivery_tag_);
  hash.add(static_cast<uint64_t>(unacked_.size()));
  for (const auto& [tag, u] : unacked_) {
    hash.add(tag);
    hash.add(std::string_view(u.queue));
    hash.add(std::string_view(u.consumer_tag));
    hash.add(now - u.delivered_at);  // the consumer timeout compares it with now
    broker::add_state(hash, u.entry);
  }
  hash.add(confirm_mode_);
  hash.add(last_publish_seq_);
  hash.add(static_cast<uint64_t>(unconfirmed_.size()));
  for (const uint64_t seq : unconfirmed_) hash.add(seq);
  hash.add(static_cast<uint64_t>(awaiting_sync_.size()));
  for (const uint64_t seq : awaiting_sync_) hash.add(seq);
}

void Broker::add_state(sim::StateHash& hash, uint64_t now) const {
  hash.add(static_cast<uint64_t>(queues_.size()));
  for (const auto& [name, queue] : queues_) queue.add_state(hash);
  hash.add(static_cast<uint64_t>(channels_.size()));
  for (const auto& [ref, channel] : channels_) channel.add_state(hash, now_);
  hash.add(sync_generation_);
  hash.add(now - now_);
}

}  // namespace broker
