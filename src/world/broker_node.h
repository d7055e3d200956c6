#pragma once
// The broker as a network node: turns frames that arrive into calls on the model broker,
// and the broker's outputs into frames. Also where the broker's own faults happen: a
// restart (site broker.restart), a kill (site broker.crash) and a reorder of the ready list (site broker.reorder),
// both offered once per enqueued publish.
//
// Invariants:
//  (1) Persistent messages are synced ("fsync") `fsync_ticks` after they arrive - by a
//      publish or by dead-lettering; only then are they confirmed, and only synced
//      messages survive a restart.
//  (2) While restarting (`downtime_ticks`) the broker accepts no connections and every
//      frame sent to it is lost.
//  (3) The model broker's clock is the kernel's: every call into it comes after
//      advance_time(now), so delivery times (consumer_timeout) and x-death times are
//      virtual ticks.
//  (4) With consumer_timeout, every delivery schedules one check just after it would
//      expire; the check closes (406) each channel holding an expired delivery. Like
//      RabbitMQ's channel tick, it acts after the timeout, never before.
//  (5) How a sync's confirms are batched (one multiple ack, or the first seq alone then
//      the rest) is drawn from the seed when there is a choice: RabbitMQ varies from run
//      to run and a relay must handle both (conformance row 8).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/kernel.h"
#include "src/broker/broker.h"
#include "src/broker/frames.h"
#include "src/checker/checker.h"

namespace lab {

struct BrokerNodeOptions {
  broker::QueueOptions queue;
  std::string dead_letter_queue;  // "" = none
  sim::Tick fsync_ticks = 2;
  sim::Tick downtime_ticks = 10;
  sim::Tick consumer_timeout_ticks = 0;  // 0 = off (conformance row 17)
};

// The broker's stop that the scripted faults ask for as a message of `order` is published
// (`attempt`: the how-manyth publish of it): broker.restart (a clean stop), broker.crash (a
// kill), or none. Both sites are asked every time, restart first. One question for both
// worlds: the model broker asks it as it enqueues, a live run's publisher as it sends (a
// real broker cannot be asked), and the live supervisor then stops the real one.
std::optional<broker::Broker::Stop> stop_at_publish(sim::FaultPlan& faults, std::int64_t order,
                                                    std::int64_t attempt);

class BrokerNode : public broker::Output {
 public:
  BrokerNode(sim::Kernel& kernel, BrokerNodeOptions options);

  void restart(const std::string& why, broker::Broker::Stop stop = broker::Broker::Stop::kClean);
  const broker::Broker& model() const { return broker_; }
  BrokerLeftovers leftovers() const;
  bool up() const { return up_; }
  // For explore's state merging: the model broker's state and this node's own (up, its
  // generation, a sync pending, the deliveries counted per order).
  void add_state(sim::StateHash& hash) const;

  // broker::Output
  void deliver(broker::Delivery d) override;
  void confirm(const broker::Confirm& c) override;
  void returned(const broker::Returned& r) override;
  void channel_closed(const broker::ChannelClosed& c) override;
  void dead_lettered(const broker::Message& m, const std::string& from_queue,
                     const std::string& reason) override;
  void discarded(const broker::Message& m, const std::string& from_queue,
                 const std::string& reason) override;
  void requeued(const broker::Message& m, const std::string& queue,
                broker::RequeueReason why) override;

 private:
  void attach();
  void on_frame(sim::ConnId conn, const sim::Frame& frame);
  // `attempt`: the how-manyth publish of the message's order (the frame carries it).
  // Its message is moved into the broker's queue.
  void on_publish(sim::ConnId conn, broker::PublishFrame& publish, std::int64_t attempt);
  void declare();
  // Persistent messages reach disk fsync_ticks from now (one sync for all of them).
  void schedule_sync();
  void schedule_timeout_check();
  void clock();  // invariant (3)
  // The trace's head of the broker's events of `kind` (one per publish: enqueue; per
  // return: requeue), made at the first in `slot`, when the trace's kinds are named: each
  // event is then hashed without looking up the fold of its who, what and to whom.
  const sim::TraceHead& head(std::optional<sim::TraceHead>& slot, sim::EventKind kind);

  sim::Kernel& k_;
  // Its node on the network, built once: every frame it sends names it.
  const sim::NodeId node_{"broker"};
  BrokerNodeOptions options_;
  broker::Broker broker_;
  // The how-manyth delivery of `order` this is (counting it).
  std::int64_t next_attempt(std::int64_t order);

  // Deliveries so far, per order: indexed by order number (they run from 1 up, and a long
  // run has a million of them: 8 bytes each here, ~48 in a map), a map for any other.
  std::vector<std::int64_t> attempts_;
  std::map<std::int64_t, std::int64_t> other_attempts_;
  std::optional<sim::TraceHead> enqueue_head_;
  std::optional<sim::TraceHead> requeue_head_;
  bool sync_scheduled_ = false;
  bool up_ = true;
  std::uint64_t generation_ = 0;
};

}  // namespace lab
