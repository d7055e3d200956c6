#pragma once
// The actors' and the broker's options as a scenario sets them: one place, used by the
// simulated World and by a live run (its actor processes and its queue declarations), so
// both configure everything the same way.

#include <cstdint>
#include <string>

#include "src/consumer/consumer.h"
#include "src/producer/producer.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"
#include "src/world/broker_node.h"

namespace lab {

// Where each database of a run is (an SQLite URI or a file path).
struct DbUris {
  std::string orders, ledger, dedup, effects;
};

// The model broker node's options: the queue "orders" (and "orders.dlq" with dead_letter).
BrokerNodeOptions broker_options(const Scenario& scenario);

// The order service's (and its relay's) options. An error when no producer pattern has
// the scenario's choices.
eosim::Status producer_options(const Scenario& scenario, const DbUris& uris,
                               producer::ProducerOptions& out);

// Consumer `instance`'s (1-based) options under `strategy`.
consumer::ConsumerOptions consumer_options(const Scenario& scenario,
                                           const consumer::Strategy& strategy, int instance,
                                           const DbUris& uris);

}  // namespace lab
