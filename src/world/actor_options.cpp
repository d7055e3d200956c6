#include "src/world/actor_options.h"

#include <algorithm>

namespace lab {

BrokerNodeOptions broker_options(const Scenario& s) {
  BrokerNodeOptions b;
  b.queue.name = "orders";
  b.queue.type = s.broker.queue;
  b.queue.durable = s.broker.durable || s.broker.queue == broker::QueueType::kQuorum;
  b.queue.delivery_limit = s.broker.delivery_limit;
  if (s.broker.dead_letter) {
    b.dead_letter_queue = "orders.dlq";
    b.queue.dead_letter_queue = b.dead_letter_queue;
  }
  b.consumer_timeout_ticks = static_cast<sim::Tick>(s.broker.consumer_timeout);
  return b;
}

eosim::Status producer_options(const Scenario& s, const DbUris& uris,
                               producer::ProducerOptions& p) {
  const producer::PatternPreset* pattern = producer::find_pattern(s.producer.pattern)
                                               ? producer::pattern_with(s.producer.choices())
                                               : nullptr;
  if (pattern == nullptr) {
    return eosim::Status::error("no producer pattern has the choices of " + s.producer.label());
  }
  p.pattern = pattern->pattern;
  p.message_id = s.producer.message_id;
  p.orders_uri = uris.orders;
  p.account = s.workload.account;
  p.orders = s.workload.orders;
  p.amounts.reserve(static_cast<std::size_t>(std::max<std::int64_t>(s.workload.orders, 0)));
  for (std::int64_t i = 1; i <= s.workload.orders; ++i)
    p.amounts.push_back(s.workload.amount_of(i));
  p.without_message_id = s.workload.without_message_id;
  p.persistent = s.broker.persistent;
  p.interval_ticks = static_cast<sim::Tick>(s.workload.interval_ticks);
  p.reconnect_ticks = static_cast<sim::Tick>(s.network.reconnect_delay);
  p.restart_ticks = static_cast<sim::Tick>(s.producer.restart_after);
  p.relay_restart_ticks = static_cast<sim::Tick>(s.producer.relay_restart_after);
  return eosim::Status::success();
}

consumer::ConsumerOptions consumer_options(const Scenario& s, const consumer::Strategy& strategy,
                                           int instance, const DbUris& uris) {
  consumer::ConsumerOptions c;
  c.instance = instance;
  c.ledger_uri = uris.ledger;
  c.dedup_uri = uris.dedup;
  c.effects_uri = uris.effects;
  c.strategy = strategy;
  c.prefetch = static_cast<std::uint32_t>(s.broker.prefetch);
  c.dead_letter = s.broker.dead_letter;
  c.reconnect_ticks = static_cast<sim::Tick>(s.network.reconnect_delay);
  c.work_ticks = static_cast<sim::Tick>(s.consumer.work_ticks);
  c.restart_ticks = static_cast<sim::Tick>(s.consumer.restart_after);
  return c;
}

}  // namespace lab
