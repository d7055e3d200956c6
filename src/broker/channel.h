#pragma once
// One AMQP channel as the broker sees it: its delivery tags and unacked deliveries, its
// consumers, its prefetch setting, and its publisher-confirm state.
//
// Invariants:
//  - Delivery tags start at 1 and only grow (item 1); an auto-ack delivery uses a tag too.
//  - unacked() holds exactly the deliveries not yet settled, keyed by tag.
//  - In confirm mode publish seqs start at 1; unconfirmed() holds the seqs with no confirm
//    yet, ascending, and every seq is confirmed exactly once (item 13).
//  - awaiting_sync_ is a subset of unconfirmed_ (persistent messages waiting for sync()).
// Item numbers refer to docs/amqp-semantics.md.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "src/broker/message.h"
#include "src/broker/output.h"
#include "src/broker/queue.h"

namespace broker {

struct Unacked {
  std::string queue;
  std::string consumer_tag;
  QueuedMessage entry;
  uint64_t delivered_at = 0;  // virtual time, for consumer_timeout (item 8)
  // The queue named `queue`, found once at the delivery for every settle of it: the Broker
  // keeps its queues in place, and erases one only at a restart, which drops every
  // channel (and so every Unacked) first.
  Queue* source = nullptr;
};

class Channel {
 public:
  explicit Channel(ChannelRef ref) : ref_(ref) {}

  ChannelRef ref() const { return ref_; }

  // basic.qos(global=false): applies to consumers created afterwards, like RabbitMQ.
  uint32_t prefetch() const { return prefetch_; }
  void set_prefetch(uint32_t prefetch) { prefetch_ = prefetch; }

  // Consumers on this channel: tag -> queue name.
  const std::map<std::string, std::string>& consumers() const { return consumers_; }
  bool has_consumer(const std::string& tag) const { return consumers_.count(tag) > 0; }
  void add_consumer(const std::string& tag, const std::string& queue);
  // Returns the queue the consumer was on, or nullopt for an unknown tag.
  std::optional<std::string> remove_consumer(const std::string& tag);

  // Deliveries.
  uint64_t next_delivery_tag() { return ++last_delivery_tag_; }
  uint64_t last_delivery_tag() const { return last_delivery_tag_; }
  // A new unacked delivery under `tag`, to be filled in place (its message is moved in
  // once). REQUIRES: tag was handed out by next_delivery_tag() and is not unacked yet.
  Unacked& add_unacked(uint64_t tag);
  // The deliveries that basic.ack/nack(tag, multiple) settles, in tag order, like
  // RabbitMQ's collect_acks: the tag itself must be unacked (else nullopt: a channel
  // error, item 1), multiple adds every smaller tag (item 2), and multiple with tag 0 means
  // all. They stay unacked, read in place, until erase_unacked(range).
  using UnackedRange =
      std::pair<std::map<uint64_t, Unacked>::iterator, std::map<uint64_t, Unacked>::iterator>;
  std::optional<UnackedRange> settled_by(uint64_t tag, bool multiple);
  void erase_unacked(UnackedRange range) { unacked_.erase(range.first, range.second); }
  std::vector<Unacked> take_all_unacked();
  const std::map<uint64_t, Unacked>& unacked() const { return unacked_; }
  // True if a delivery has waited longer than `timeout` at `now` (item 8).
  bool has_expired_delivery(uint64_t now, uint64_t timeout) const;

  // Publisher confirms.
  bool confirm_mode() const { return confirm_mode_; }
  void select_confirm() { confirm_mode_ = true; }
  // The publish seq of a new publish: from 1 in confirm mode, 0 outside it.
  uint64_t register_publish();
  uint64_t last_publish_seq() const { return last_publish_seq_; }
  void await_sync(uint64_t seq);
  const std::vector<uint64_t>& unconfirmed() const { return unconfirmed_; }
  // Sends `out` the confirm frames for `seq` now / for everything that waited for the sync.
  void confirm_now(uint64_t seq, Output& out);
  // `split`: the first seq of the batch gets a frame of its own (conformance row 8).
  void confirm_synced(Output& out, bool split = false);
  std::size_t awaiting_sync() const { return awaiting_sync_.size(); }
  // broker_state.cpp; `now`: the broker's clock, delivery times are fed relative to it.
  void add_state(sim::StateHash& hash, uint64_t now) const;

 private:
  void confirm_seqs(std::span<const uint64_t> seqs, Output& out);

  ChannelRef ref_;
  uint32_t prefetch_ = 0;
  std::map<std::string, std::string> consumers_;
  uint64_t last_delivery_tag_ = 0;
  std::map<uint64_t, Unacked> unacked_;
  bool confirm_mode_ = false;
  uint64_t last_publish_seq_ = 0;
  // Vectors, not sets: seqs only grow, so both stay sorted by appending, and they keep
  // their capacity from one publish to the next.
  std::vector<uint64_t> unconfirmed_;    // ascending
  std::vector<uint64_t> awaiting_sync_;  // ascending
};

}  // namespace broker
