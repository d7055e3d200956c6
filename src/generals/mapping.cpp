#include "src/generals/mapping.h"

namespace generals {

const std::vector<MappingRow>& broker_mapping() {
  static const std::vector<MappingRow> rows = {
      {"General A", "the broker",
       "holds the message and wants to know it was processed"},
      {"General B", "the consumer", "processes the message, then acknowledges it"},
      {"the plan: attack at dawn", "the message (an order to debit)",
       "the effect must happen once: one debit"},
      {"courier 1 (the plan)", "basic.deliver", "broker -> consumer"},
      {"courier 2 (the ack)", "basic.ack",
       "consumer -> broker, sent after the consumer's commit"},
      {"courier 3 (ack of the ack)", "nothing: AMQP has no ack of an ack",
       "RabbitMQ stops at N = 2, so the ack is the unconfirmed last courier"},
      {"courier 1 captured", "the delivery is lost with its connection",
       "the broker requeues the unacked message and redelivers it (redelivered = true)"},
      {"courier 2 captured", "the ack is lost",
       "the broker cannot tell this from a consumer that crashed before processing, so "
       "it redelivers: the consumer sees a duplicate"},
      {"the last courier is unconfirmed", "the consumer never learns whether its ack arrived",
       "only a redelivery would tell it; the broker, for its part, learns nothing about a "
       "lost ack except by redelivering"},
      {"no finite N is safe", "exactly-once delivery is impossible",
       "so make the effect exactly once: dedup by message id in the same transaction as "
       "the debit, and ack only after the commit"},
  };
  return rows;
}

}  // namespace generals
