#pragma once
// One queue: its ready messages in delivery order and the consumers attached to it.
//
// Invariants:
//  - Every QueuedMessage gets a seq from the queue's own counter when it is first enqueued;
//    seqs only grow and a requeue keeps the message's seq.
//  - Classic queue: a requeued message goes in front of the first ready message with a larger
//    seq, i.e. back to its original position ahead of later publishes (item 3).
//  - Quorum queue: a requeued message goes to the head, behind messages returned earlier that
//    are still waiting there (RabbitMQ serves its "returns" first, item 11) - unless the
//    Broker asks for the tail (a nack/reject without a delivery limit, conformance row 4).
//  - consumers() is in registration order; dispatch is round-robin over it (deterministic).
// REQUIRES: Consumer records only for open channels (the Broker removes them on close).
// Item numbers refer to docs/amqp-semantics.md.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sim/state_hash.h"
#include "src/broker/message.h"
#include "src/broker/views.h"

namespace broker {

struct QueuedMessage {
  uint64_t seq = 0;
  Message message;
  bool redelivered = false;
  bool returned = false;         // quorum: requeued and waiting in the head section
  uint64_t sync_generation = 0;  // Broker's generation when written; on disk once a sync passes
};

// Records a dead-lettering event in `message.x_death` the way RabbitMQ does: the entry for
// {queue, reason} has its count incremented and moves to the front, otherwise a new entry
// with count 1 goes in front (item 12). A new entry records the exchange ("" - only the
// default exchange is modelled), the routing key the message reached `queue` with (its
// name) and `now`; the first dead-lettering also sets x-first-death-* (conformance row 6).
void add_state(sim::StateHash& hash, const Message& message);  // broker_state.cpp
void add_state(sim::StateHash& hash, const QueuedMessage& entry);

void add_x_death(Message& message, const std::string& queue, const std::string& reason,
                 uint64_t now);

class Queue {
 public:
  explicit Queue(QueueOptions options);

  const QueueOptions& options() const { return options_; }
  const std::string& name() const { return options_.name; }
  bool is_quorum() const { return options_.type == QueueType::kQuorum; }

  // True when `message` is written to disk here, so that it survives a restart once synced
  // and is confirmed only at the sync (item 14, 16). Quorum queues log every message.
  bool writes_to_disk(const Message& message) const;

  // A fresh message (publish or dead-letter) at the tail with a new seq; moved in once.
  void enqueue(Message&& message, uint64_t sync_generation);
  // A message back from a consumer. REQUIRES: its seq came from this queue; `to_tail`
  // only for a quorum queue.
  void requeue(QueuedMessage message, bool to_tail = false);
  // Fault: the newest ready message jumps to the head. False if fewer than two are ready.
  bool reorder_newest_to_front();

  bool has_ready() const { return !ready_.empty(); }
  const std::deque<QueuedMessage>& ready() const { return ready_; }
  // Moves the head into `into` (the place it is kept: moved once) and drops it from the
  // ready list. REQUIRES: has_ready().
  void take_front(QueuedMessage& into);

  // Round-robin from the cursor: the next consumer with free capacity, or nullptr. The
  // cursor moves past the one returned so the next call starts with its successor.
  Consumer* next_consumer_with_capacity();
  void add_consumer(Consumer consumer);
  void remove_consumer(ChannelRef channel, const std::string& tag);
  void remove_consumers(ChannelRef channel);
  Consumer* find_consumer(ChannelRef channel, const std::string& tag);
  const std::vector<Consumer>& consumers() const { return consumers_; }

  // Broker restart: consumers are gone; only messages on disk (written before
  // `synced_generation`) stay. A classic queue re-reads its index in seq order; after a
  // crash it marks every message redelivered (it lost track of deliveries, row 12).
  // Returns how many ready messages were lost.
  std::size_t recover(uint64_t synced_generation, bool crashed = false);
  void add_state(sim::StateHash& hash) const;  // broker_state.cpp

 private:
  void erase_consumer_at(std::size_t index);

  QueueOptions options_;
  uint64_t next_seq_ = 1;
  std::deque<QueuedMessage> ready_;
  std::vector<Consumer> consumers_;
  std::size_t cursor_ = 0;  // index into consumers_ where the round-robin scan starts
};

}  // namespace broker
