// Item numbers refer to docs/amqp-semantics.md.
#include "src/broker/queue.h"

#include <algorithm>
#include <array>
#include <utility>

#include "sim/assert.h"

namespace broker {

void add_x_death(Message& message, const std::string& queue, const std::string& reason,
                 uint64_t now) {
  DeathHeaders& headers = message.deaths.edit();
  auto& deaths = headers.x_death;
  if (deaths.empty()) {
    headers.x_first_death_queue = queue;
    headers.x_first_death_reason = reason;
    headers.x_first_death_exchange = "";
  }
  auto same = std::find_if(deaths.begin(), deaths.end(), [&](const XDeath& d) {
    return d.queue == queue && d.reason == reason;
  });
  XDeath entry{queue, reason, 1, "", {queue}, now};
  if (same != deaths.end()) {
    entry = std::move(*same);
    ++entry.count;
    deaths.erase(same);
  }
  deaths.insert(deaths.begin(), std::move(entry));
}

Queue::Queue(QueueOptions options) : options_(std::move(options)) {
  EOSIM_ASSERT(!options_.name.empty());
  EOSIM_ASSERT(options_.delivery_limit >= 0);
  // RabbitMQ only offers durable quorum queues and ignores x-delivery-limit on classic ones.
  EOSIM_ASSERT(!is_quorum() || options_.durable);
  EOSIM_ASSERT(is_quorum() || options_.delivery_limit == 0);
}

bool Queue::writes_to_disk(const Message& message) const {
  return options_.durable && (message.persistent || is_quorum());
}

void Queue::enqueue(Message&& message, uint64_t sync_generation) {
  // Built in its place at the tail: the message is moved once, not into a temporary first.
  QueuedMessage& entry = ready_.emplace_back();
  entry.seq = next_seq_++;
  entry.message = std::move(message);
  entry.sync_generation = sync_generation;
  // x-delivery-count belongs to the quorum queue holding the message; a fresh enqueue
  // (dead-lettered copy included, item 10) starts without it.
  if (is_quorum()) entry.message.x_delivery_count.reset();
}

void Queue::requeue(QueuedMessage message, bool to_tail) {
  EOSIM_ASSERT(message.seq > 0);
  EOSIM_ASSERT(message.seq < next_seq_);
  EOSIM_ASSERT(!to_tail || is_quorum());
  if (to_tail) {
    message.returned = false;
    ready_.push_back(std::move(message));
    return;
  }
  if (is_quorum()) {
    // Item 11: returns are served first, in the order they came back.
    message.returned = true;
    auto after_returns = std::find_if(ready_.begin(), ready_.end(),
                                      [](const QueuedMessage& m) { return !m.returned; });
    ready_.insert(after_returns, std::move(message));
    return;
  }
  // Item 3: ahead of every message published after it (observed: m2 came back before m3).
  auto later = std::find_if(ready_.begin(), ready_.end(),
                            [&](const QueuedMessage& m) { return m.seq > message.seq; });
  ready_.insert(later, std::move(message));
}

bool Queue::reorder_newest_to_front() {
  if (ready_.size() < 2) return false;
  QueuedMessage newest = std::move(ready_.back());
  ready_.pop_back();
  ready_.push_front(std::move(newest));
  return true;
}

void Queue::take_front(QueuedMessage& into) {
  EOSIM_ASSERT(!ready_.empty());
  into = std::move(ready_.front());
  ready_.pop_front();
  into.returned = false;
}

Consumer* Queue::next_consumer_with_capacity() {
  const std::size_t n = consumers_.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t index = (cursor_ + i) % n;
    if (consumers_[index].has_capacity()) {
      cursor_ = (index + 1) % n;
      return &consumers_[index];
    }
  }
  return nullptr;
}

void Queue::add_consumer(Consumer consumer) {
  EOSIM_ASSERT(find_consumer(consumer.channel, consumer.tag) == nullptr);
  consumers_.push_back(std::move(consumer));
}

void Queue::erase_consumer_at(std::size_t index) {
  EOSIM_ASSERT(index < consumers_.size());
  consumers_.erase(consumers_.begin() + static_cast<std::ptrdiff_t>(index));
  // Keep the cursor on the same successor consumer so the rotation is not disturbed.
  if (index < cursor_) --cursor_;
  if (cursor_ >= consumers_.size()) cursor_ = 0;
}

void Queue::remove_consumer(ChannelRef channel, const std::string& tag) {
  for (std::size_t i = 0; i < consumers_.size(); ++i) {
    if (consumers_[i].channel == channel && consumers_[i].tag == tag) {
      erase_consumer_at(i);
      return;
    }
  }
}

void Queue::remove_consumers(ChannelRef channel) {
  for (std::size_t i = consumers_.size(); i > 0; --i) {
    if (consumers_[i - 1].channel == channel) erase_consumer_at(i - 1);
  }
}

Consumer* Queue::find_consumer(ChannelRef channel, const std::string& tag) {
  for (auto& c : consumers_) {
    if (c.channel == channel && c.tag == tag) return &c;
  }
  return nullptr;
}

std::size_t Queue::recover(uint64_t synced_generation, bool crashed) {
  consumers_.clear();
  cursor_ = 0;
  const std::size_t before = ready_.size();
  std::erase_if(ready_, [&](const QueuedMessage& m) {
    return !writes_to_disk(m.message) || m.sync_generation >= synced_generation;
  });
  if (!is_quorum()) {
    // The classic queue index is keyed by seq: a reorder fault does not survive a restart.
    std::stable_sort(ready_.begin(), ready_.end(),
                     [](const QueuedMessage& a, const QueuedMessage& b) { return a.seq < b.seq; });
    if (crashed) {
      for (QueuedMessage& m : ready_) m.redelivered = true;
    }
  }
  return before - ready_.size();
}

}  // namespace broker

namespace sim {

template <>
std::span<const Named<broker::QueueType>> enum_names<broker::QueueType>() {
  static constexpr std::array<Named<broker::QueueType>, 2> kQueueTypes{{
      {broker::QueueType::kClassic, "classic", "classic queue: redelivers without limit"},
      {broker::QueueType::kQuorum, "quorum",
       "quorum queue: counts deliveries (x-delivery-count) and can enforce a "
       "delivery_limit"},
  }};
  static_assert(names_every_value(kQueueTypes));
  return kQueueTypes;
}

}  // namespace sim
