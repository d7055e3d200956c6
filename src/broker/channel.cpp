#include "src/broker/channel.h"

#include <algorithm>
#include <utility>

#include "sim/assert.h"

namespace broker {

void Channel::add_consumer(const std::string& tag, const std::string& queue) {
  EOSIM_ASSERT(!has_consumer(tag));
  consumers_.emplace(tag, queue);
}

std::optional<std::string> Channel::remove_consumer(const std::string& tag) {
  auto it = consumers_.find(tag);
  if (it == consumers_.end()) return std::nullopt;
  std::string queue = std::move(it->second);
  consumers_.erase(it);
  return queue;
}

Unacked& Channel::add_unacked(uint64_t tag) {
  EOSIM_ASSERT(tag > 0);
  EOSIM_ASSERT(tag <= last_delivery_tag_);
  const auto [it, inserted] = unacked_.try_emplace(tag);
  EOSIM_ASSERT(inserted);
  return it->second;
}

std::optional<Channel::UnackedRange> Channel::settled_by(uint64_t tag, bool multiple) {
  auto first = unacked_.begin();
  auto end = unacked_.end();
  if (!multiple || tag != 0) {  // AMQP 0-9-1: tag 0 + multiple = all
    const auto last = unacked_.find(tag);
    if (last == unacked_.end()) return std::nullopt;
    if (!multiple) first = last;
    end = std::next(last);
  }
  return UnackedRange{first, end};
}

std::vector<Unacked> Channel::take_all_unacked() {
  std::vector<Unacked> taken;
  taken.reserve(unacked_.size());
  for (auto& [tag, unacked] : unacked_) taken.push_back(std::move(unacked));
  unacked_.clear();
  return taken;
}

bool Channel::has_expired_delivery(uint64_t now, uint64_t timeout) const {
  return std::any_of(unacked_.begin(), unacked_.end(), [&](const auto& entry) {
    return now > entry.second.delivered_at && now - entry.second.delivered_at > timeout;
  });
}

uint64_t Channel::register_publish() {
  if (!confirm_mode_) return 0;
  const uint64_t seq = ++last_publish_seq_;
  unconfirmed_.push_back(seq);  // the largest yet: the vector stays sorted
  return seq;
}

void Channel::await_sync(uint64_t seq) {
  EOSIM_ASSERT(std::binary_search(unconfirmed_.begin(), unconfirmed_.end(), seq));
  EOSIM_ASSERT(awaiting_sync_.empty() || awaiting_sync_.back() < seq);
  awaiting_sync_.push_back(seq);
}

void Channel::confirm_now(uint64_t seq, Output& out) { confirm_seqs({&seq, 1}, out); }

void Channel::confirm_synced(Output& out, bool split) {
  const std::span<const uint64_t> seqs(awaiting_sync_);
  if (!split || seqs.size() < 2) {
    confirm_seqs(seqs, out);
  } else {
    // The first seq alone, then the rest: confirm_seqs frames each part as RabbitMQ would.
    confirm_seqs(seqs.first(1), out);
    confirm_seqs(seqs.subspan(1), out);
  }
  awaiting_sync_.clear();  // keeps its capacity for the next batch
}

// Item 13: one frame per message at most, batched the way RabbitMQ does. Every seq below the
// lowest still-unconfirmed one is covered by a single multiple=true ack (observed: one ack,
// tag 3, multiple=1 for three publishes); seqs above a gap must go one by one, because a
// multiple ack would also confirm the gap.
void Channel::confirm_seqs(std::span<const uint64_t> seqs, Output& out) {
  EOSIM_ASSERT(std::is_sorted(seqs.begin(), seqs.end()));
  for (uint64_t seq : seqs) {
    const auto it = std::lower_bound(unconfirmed_.begin(), unconfirmed_.end(), seq);
    EOSIM_ASSERT(it != unconfirmed_.end() && *it == seq);
    unconfirmed_.erase(it);
  }
  const bool any_left = !unconfirmed_.empty();
  const uint64_t lowest_left = any_left ? unconfirmed_.front() : 0;
  std::size_t i = 0;
  while (i < seqs.size() && (!any_left || seqs[i] < lowest_left)) ++i;
  if (i > 0) out.confirm(Confirm{ref_, seqs[i - 1], i > 1, true});
  for (; i < seqs.size(); ++i) out.confirm(Confirm{ref_, seqs[i], false, true});
}

}  // namespace broker
