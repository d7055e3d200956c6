#include "src/world/broker_node.h"
#include "src/orders/event_kinds.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"

namespace lab {

namespace {
using orders::Site;
constexpr broker::ChannelId kChannel = 1;  // one channel per connection (frames.h)
}

std::optional<broker::Broker::Stop> stop_at_publish(sim::FaultPlan& faults, std::int64_t order,
                                                    std::int64_t attempt) {
  const bool restart = faults
                           .check({orders::site_id(Site::kBrokerRestart),
                                   sim::FaultAction::kRestart, orders::order_key(order, attempt)})
                           .has_value();
  // Random only when a ratio names "kill" (no default sweep mix does).
  const bool crash = faults
                         .check({orders::site_id(Site::kBrokerCrash), sim::FaultAction::kKill,
                                 orders::order_key(order)})
                         .has_value();
  if (restart) return broker::Broker::Stop::kClean;
  if (crash) return broker::Broker::Stop::kCrash;
  return std::nullopt;
}

BrokerNode::BrokerNode(sim::Kernel& kernel, BrokerNodeOptions options)
    : k_(kernel), options_(std::move(options)), broker_(*this) {
  declare();
  attach();
}

void BrokerNode::declare() {
  if (!options_.dead_letter_queue.empty()) {
    broker::QueueOptions dlq;
    dlq.name = options_.dead_letter_queue;
    dlq.durable = true;
    broker_.declare_queue(dlq);
  }
  broker_.declare_queue(options_.queue);
}

void BrokerNode::attach() {
  sim::NodeHandlers handlers;
  handlers.on_accept = [this](sim::ConnId conn, const sim::NodeId&) {
    broker_.open_channel({conn, kChannel});
  };
  handlers.on_frame = [this](sim::ConnId conn, const sim::Frame& f) {
    clock();
    on_frame(conn, f);
  };
  handlers.on_disconnect = [this](sim::ConnId conn) {
    // Heartbeat timeout or reset: every unacked delivery on it is requeued (item 5 of
    // docs/amqp-semantics.md).
    clock();
    broker_.connection_lost(conn);
  };
  k_.network.attach(node_, std::move(handlers));
}

void BrokerNode::on_frame(sim::ConnId conn, const sim::Frame& frame) {
  const broker::ChannelRef ch{conn, kChannel};
  std::optional<broker::ClientMethod> spill;
  std::visit(
      broker::Overloaded{
          [&](broker::PublishFrame& f) { on_publish(conn, f, frame.key[orders::kAttempt]); },
          [&](const broker::AckFrame& a) { broker_.ack(ch, a.tag, a.multiple); },
          [&](const broker::NackFrame& n) { broker_.nack(ch, n.tag, n.multiple, n.requeue); },
          [&](const broker::RejectFrame& r) { broker_.reject(ch, r.tag, r.requeue); },
          [&](const broker::QosFrame& q) { broker_.basic_qos(ch, q.prefetch); },
          [&](const broker::ConsumeFrame& c) {
            broker_.basic_consume(ch, c.queue, c.consumer_tag, c.auto_ack);
          },
          [&](const broker::ConfirmSelectFrame&) { broker_.confirm_select(ch); },
      },
      broker::method_to_take(frame, spill));
}

void BrokerNode::on_publish(sim::ConnId conn, broker::PublishFrame& publish, std::int64_t attempt) {
  const std::int64_t order = publish.message.order;
  // A quorum queue logs every message, and delivers it only once committed (row 11).
  const bool persistent = publish.message.persistent ||
                          options_.queue.type == broker::QueueType::kQuorum;
  const sim::DetailPart id[] = {publish.message.message_id.empty()
                                    ? std::string_view("(no message_id)")
                                    : std::string_view(publish.message.message_id)};
  k_.trace.record(head(enqueue_head_, orders::event::kEnqueue), order, id);
  // The frame's message is moved into the queue: nothing reads the frame after this.
  broker_.publish({conn, kChannel}, publish.routing_key, std::move(publish.message),
                  publish.mandatory);
  if (persistent) schedule_sync();
  if (k_.faults.check({orders::site_id(Site::kBrokerReorder), sim::FaultAction::kReorder,
                       orders::order_key(order, attempt)})) {
    broker_.reorder_to_front(options_.queue.name);
    k_.trace.record("broker", orders::event::kReorder, "", order,
                    "newest ready message moved to the head");
  }
  if (const auto stop = stop_at_publish(k_.faults, order, attempt)) {
    const Site site =
        *stop == broker::Broker::Stop::kCrash ? Site::kBrokerCrash : Site::kBrokerRestart;
    restart("fault at " + std::string(orders::site_name(site)), *stop);
  }
}

const sim::TraceHead& BrokerNode::head(std::optional<sim::TraceHead>& slot, sim::EventKind kind) {
  if (!slot) slot = k_.trace.head(node_, kind, "");
  return *slot;
}

void BrokerNode::clock() { broker_.advance_time(static_cast<std::uint64_t>(k_.scheduler.now())); }

void BrokerNode::schedule_sync() {
  if (sync_scheduled_) return;
  sync_scheduled_ = true;
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.fsync_ticks, "broker.sync", [this, generation] {
    if (generation != generation_) return;
    sync_scheduled_ = false;
    clock();
    // Invariant (5): only a sync with a batch of two or more has a choice to make.
    // Keyed: the whole broker as it stands (the batch is in it).
    const bool split = broker_.sync_has_batch() && k_.chooser.below(2, [this] {
      sim::StateHash identity;
      add_state(identity);
      return identity.value();
    }) == 1;
    broker_.sync(split ? broker::Batching::kSplit : broker::Batching::kOne);
  }, 0, sim::event_tag(generation));
}

void BrokerNode::schedule_timeout_check() {
  const sim::Tick timeout = options_.consumer_timeout_ticks;
  const std::uint64_t generation = generation_;
  k_.scheduler.after(timeout + 1, "broker.consumer_timeout", [this, generation, timeout] {
    if (generation != generation_) return;
    clock();
    broker_.check_timeouts(broker_.now(), static_cast<std::uint64_t>(timeout));
  }, 0, sim::event_tag(generation, timeout));
}

void BrokerNode::restart(const std::string& why, broker::Broker::Stop stop) {
  if (!up_) return;
  const bool crash = stop == broker::Broker::Stop::kCrash;
  k_.trace.record("broker", sim::EventKind::kRestart, "", 0,
                  why + ": durable queues keep their synced persistent messages" +
                      (crash ? "; killed, so every recovered classic message is redelivered"
                             : ""));
  up_ = false;
  ++generation_;
  sync_scheduled_ = false;
  clock();
  broker_.restart(stop);
  k_.network.abort_all(node_);
  k_.network.detach(node_);
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.downtime_ticks, "broker.up", [this, generation] {
    if (generation != generation_) return;
    up_ = true;
    declare();  // durable queues survived; declaring them again is idempotent
    attach();
    k_.trace.record("broker", sim::EventKind::kUp, "", 0, "accepting connections again");
  }, 0, sim::event_tag(generation));
}

void BrokerNode::deliver(broker::Delivery d) {
  if (options_.consumer_timeout_ticks > 0) schedule_timeout_check();
  const std::int64_t order = d.message.order;
  const std::int64_t attempt = next_attempt(order);
  const broker::ConnId conn = d.to.conn;
  k_.network.send(conn, node_, broker::make_deliver_frame(std::move(d), attempt));
}

std::int64_t BrokerNode::next_attempt(std::int64_t order) {
  constexpr std::int64_t kDense = std::int64_t{1} << 24;
  if (order < 0 || order >= kDense) return ++other_attempts_[order];
  const auto at = static_cast<std::size_t>(order);
  if (attempts_.size() <= at) attempts_.resize(at + 1, 0);
  return ++attempts_[at];
}

void BrokerNode::confirm(const broker::Confirm& c) {
  k_.network.send(c.to.conn, node_, broker::make_frame(c, 0, 0));
}

void BrokerNode::returned(const broker::Returned& r) {
  k_.network.send(r.to.conn, node_, broker::make_frame(r, r.message.order, 0));
}

void BrokerNode::channel_closed(const broker::ChannelClosed& c) {
  k_.network.send(c.channel.conn, node_, broker::make_frame(c, 0, 0));
}

void BrokerNode::dead_lettered(const broker::Message& m, const std::string& from_queue,
                               const std::string& reason) {
  k_.trace.record("broker", orders::event::kDeadLetter, "", m.order, from_queue + ": " + reason);
  // The dead-lettered copy is written to the dead-letter queue: like a publish, it reaches
  // disk at the next sync, which must therefore come (invariant 1). Without this it waited
  // for the next publish, and a restart before one lost it.
  if (m.persistent) schedule_sync();
}

void BrokerNode::requeued(const broker::Message& m, const std::string& queue,
                          broker::RequeueReason why) {
  // Without this event a redelivery would seem to come from nowhere in the trace.
  const std::string_view id =
      m.message_id.empty() ? std::string_view("(no message_id)") : std::string_view(m.message_id);
  const sim::DetailPart detail[] = {id, " back to ", queue, ": ", sim::name_of(why)};
  k_.trace.record(head(requeue_head_, orders::event::kRequeue), m.order, detail);
}

void BrokerNode::discarded(const broker::Message& m, const std::string& from_queue,
                           const std::string& reason) {
  k_.trace.record("broker", orders::event::kDiscard, "", m.order,
                  from_queue + ": " + reason + ", no dead-letter queue");
}

BrokerLeftovers BrokerNode::leftovers() const {
  BrokerLeftovers left;
  for (const auto& r : broker_.ready(options_.queue.name)) left.ready.push_back(r.message.order);
  for (const auto& ch : broker_.channels()) {
    for (const auto& u : ch.unacked) {
      if (u.queue == options_.queue.name) left.unacked.push_back(u.message.order);
    }
  }
  if (!options_.dead_letter_queue.empty()) {
    for (const auto& r : broker_.ready(options_.dead_letter_queue)) {
      left.dead_lettered.push_back(r.message.order);
    }
  }
  return left;
}

void BrokerNode::add_state(sim::StateHash& hash) const {
  broker_.add_state(hash, static_cast<std::uint64_t>(k_.scheduler.now()));
  hash.add(sync_scheduled_);
  hash.add(up_);
  hash.add(generation_);
  hash.add(static_cast<std::uint64_t>(attempts_.size()));
  for (const std::int64_t n : attempts_) hash.add(n);
  for (const auto& [order, n] : other_attempts_) {
    hash.add(order);
    hash.add(n);
  }
}

}  // namespace lab
