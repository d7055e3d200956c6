#include "src/scenario/scenario_keys.h"

#include "sim/assert.h"

namespace lab {

namespace {

// Generous bounds that keep every sum of amounts and every tick far from overflow.
constexpr std::int64_t kMaxOrders = 1'000'000;
constexpr std::int64_t kMaxMoney = 1'000'000'000'000;
constexpr std::int64_t kMaxTicks = 1'000'000'000;
constexpr std::int64_t kMaxCount = 1'000'000;
constexpr std::int64_t kMaxInstances = 16;
constexpr std::int64_t kMaxPrefetch = 65535;  // AMQP's prefetch-count is 16 bits
constexpr std::int64_t kMaxWorkTicks = 1000;
constexpr IntBounds kUpToOrders{1, 0, IntBounds::Max::kOrders};
constexpr IntBounds kUpToInstances{1, 0, IntBounds::Max::kInstances};

constexpr ScenarioKey kKeys[] = {
    {"", "name", "string", "", "not empty", "what the scenario is called in reports"},
    {"", "about", "string", "\"\"", "", "the teaching text shown by the CLI and the GUI"},
    {"", "fixed", "string", "\"\"", "TOML assignments, e.g. `consumer.strategy = \"atomic\"`",
     "the corrected design: `eosim run FILE --fixed` runs this twin beside the file"},
    {"", "seed", "integer (or a decimal string above 2^63-1)", "1", "{}",
     "the run's seed: with the file it fixes every decision", {0}},
    {"", "seed_sensitive", "boolean", "false", "",
     "the lesson shows only for some seeds; `about` must say why (`--seed` prints a note)"},
    {"", "max_steps", "integer", "200000 + 100 per order", "{}",
     "the step bound: a run that has not quiesced by then ends", {1, kMaxTicks}},
    {"", "draws", "string", "\"sequence\"", "sequence | keyed",
     "how decisions are drawn: in turn from the seed's generator, or each hashed from the "
     "seed and what it decides (`eosim explore` writes it; keyed is its default)"},
    {"", "workload", "table", "every key's default", "", "[workload]"},
    {"", "producer", "table", "every key's default", "", "[producer]"},
    {"", "broker", "table", "every key's default", "", "[broker]"},
    {"", "consumer", "table", "every key's default", "", "[consumer]"},
    {"", "network", "table", "every key's default", "", "[network]"},
    {"", "faults", "table", "every key's default", "",
     "[faults], [faults.random], [[faults.script]]"},
    {"", "expect", "table", "none (no expectations)", "", "[expect]"},
    {"workload", "orders", "integer", "3", "{}",
     "how many orders the service writes", {1, kMaxOrders}},
    {"workload", "amount", "integer", "150", "{}", "the amount of every order", {0, kMaxMoney}},
    {"workload", "initial_balance", "integer", "1000", "{}",
     "the account's balance", {0, kMaxMoney}},
    {"workload", "account", "string", "\"alice\"", "not empty", "the account debited"},
    {"workload", "amounts", "array of integers", "[]", "one per order, each {}",
     "per-order amounts instead of `amount`", {0, kMaxMoney}},
    {"workload", "without_message_id", "array of order numbers", "[]", "{}, each once",
     "orders published with no message_id", kUpToOrders},
    {"workload", "interval_ticks", "integer", "10", "{}",
     "ticks between two orders", {0, kMaxTicks}},
    {"producer", "pattern", "string", "\"outbox\"", "a producer pattern (eosim list producers)",
     "the preset design of the order service"},
    {"producer", "delivery", "string", "the preset's", "outbox | direct",
     "replaces the preset's delivery"},
    {"producer", "confirms", "boolean", "the preset's", "",
     "the relay waits for publisher confirms"},
    {"producer", "order", "string", "the preset's", "commit-first | publish-first",
     "direct delivery: which write comes first"},
    {"producer", "message_id", "string", "\"outbox\"", "outbox | at-publish",
     "where the message id is fixed"},
    {"producer", "restart_after", "integer", "20", "{}",
     "ticks a crashed order service stays down before its process restarts", {1, kMaxTicks}},
    {"producer", "relay_restart_after", "integer", "20", "{}",
     "ticks a crashed outbox relay stays down before its process restarts", {1, kMaxTicks}},
    {"broker", "queue", "string", "\"classic\"", "classic | quorum", "the queue type"},
    {"broker", "prefetch", "integer", "5", "{} (0 = unlimited)",
     "unacked deliveries per consumer", {0, kMaxPrefetch}},
    {"broker", "delivery_limit", "integer", "0", "{} (0 = none; quorum only)",
     "deliveries before a quorum queue dead-letters", {0, kMaxCount}},
    {"broker", "dead_letter", "boolean", "false", "", "the queue has a dead-letter queue"},
    {"broker", "durable", "boolean", "true", "", "the queue survives a broker restart"},
    {"broker", "persistent", "boolean", "true", "", "messages are published persistent"},
    {"broker", "consumer_timeout", "integer", "0", "{} (0 = none)",
     "ticks a delivery may stay unacked before the broker closes the channel", {0, kMaxTicks}},
    {"consumer", "strategy", "string", "\"atomic\"", "a strategy (eosim list strategies)",
     "the preset design of the consumer"},
    {"consumer", "ack", "string", "the preset's", "after-commit | before-commit | auto",
     "replaces the preset's ack timing"},
    {"consumer", "dedup", "string", "the preset's",
     "same-transaction | none | separate-store | check-then-act",
     "replaces the preset's dedup"},
    {"consumer", "errors", "string", "the preset's", "classify | all-duplicate",
     "replaces the preset's error classification"},
    {"consumer", "poison", "string", "the preset's", "dead-letter | record | requeue",
     "replaces the preset's poison policy"},
    {"consumer", "mark", "string", "\"before-commit\"", "before-commit | after-commit",
     "separate-store dedup: when the key is marked seen"},
    {"consumer", "dedup_order", "string", "\"key-first\"", "key-first | effect-first",
     "same-transaction dedup: statement order inside the transaction"},
    {"consumer", "side_effect", "string", "\"none\"", "none | before-commit | after-commit",
     "an email sent outside the database, and when"},
    {"consumer", "idempotency_key", "boolean", "false", "",
     "the email carries the message id; the mail server ignores repeats"},
    {"consumer", "check", "string", "\"outside\"", "outside | in-transaction",
     "check-then-act: SELECT the dedup table on its own, or the debits inside the debit's "
     "transaction"},
    {"consumer", "isolation", "string", "the server's",
     "read-committed | repeatable-read | serializable",
     "the ledger transactions' isolation level on PostgreSQL; SQLite is always serializable, "
     "and the model gives each level its meaning there (docs/postgres.md)"},
    {"consumer", "dedup_retention", "integer", "0", "{} (0 = forever)",
     "ticks a dedup key is kept before a cleanup deletes it", {0, kMaxTicks}},
    {"consumer", "instances", "integer", "1", "{}",
     "competing consumer instances", {1, kMaxInstances}},
    {"consumer", "restart_after", "integer", "20", "{}",
     "ticks a crashed consumer instance stays down before its process restarts", {1, kMaxTicks}},
    {"consumer", "work_ticks", "integer", "2", "{}",
     "virtual time each step of handling a delivery takes", {1, kMaxWorkTicks}},
    {"consumer", "command", "string", "none", "a shell command",
     "eosim live: your consumer program, run in place of eosim's (docs/your-consumer.md)"},
    {"network", "latency_min", "integer", "1", "{}, <= latency_max",
     "fewest ticks a frame is in flight", {0, kMaxTicks}},
    {"network", "latency_max", "integer", "3", "{}",
     "most ticks a frame is in flight", {0, kMaxTicks}},
    {"network", "heartbeat_timeout", "integer", "30", "{}",
     "ticks until the far end notices a dead connection", {1, kMaxTicks}},
    {"network", "reconnect_delay", "integer", "5", "{}",
     "ticks a client waits before reconnecting", {0, kMaxTicks}},
    {"network", "heartbeat", "integer", "unset (heartbeat_timeout applies)",
     "{} (0 = off); not with heartbeat_timeout",
     "ticks between heartbeats: the broker gives up on a peer silent for 3 of them, a "
     "client after client_timeout; 0 = nobody ever notices a silent peer", {0, kMaxTicks}},
    {"network", "client_timeout", "integer", "7 heartbeats", "{} (0 = never); needs heartbeat",
     "ticks until a client notices a silent broker", {0, kMaxTicks}},
    {"faults", "budget", "integer", "3", "{}", "most random faults in one run", {0, kMaxCount}},
    {"faults", "horizon", "integer", "2000", "{}",
     "no random fault at or after this tick", {0, kMaxTicks}},
    {"faults", "random", "table", "none", "", "[faults.random]: fault kind = ratio \"N/D\""},
    {"faults", "script", "array of tables", "none", "", "[[faults.script]]: one rule each"},
    {"faults.script", "at", "string", "", "a fault site (below)", "where the rule fires"},
    {"faults.script", "do", "string", "", "the site's action", "what happens there"},
    {"faults.script", "order", "integer", "any", "{}, if the site takes it",
     "only for this order", kUpToOrders},
    {"faults.script", "attempt", "integer", "any", "{}, if the site takes it",
     "only at this attempt (each site says what it counts)", {1, kMaxCount}},
    {"faults.script", "frame", "string", "any", "a frame the link carries",
     "network sites: only this frame kind"},
    {"faults.script", "nth", "integer", "any", "{}",
     "only at the nth opportunity of this site (and frame)", {1}},
    {"faults.script", "instance", "integer", "any", "{}, if the site takes it",
     "only for this consumer instance", kUpToInstances},
    {"faults.script", "tick", "integer", "unset", "{}, timed sites only",
     "fire at this virtual time instead", {0, kMaxTicks}},
    {"faults.script", "step", "integer", "unset", "{}, timed sites only",
     "fire right after this step instead (the GUI's buttons)", {0, kMaxTicks}},
    {"faults.script", "after_step", "integer", "unset", "{}",
     "match opportunities only once this step is done", {0, kMaxTicks}},
    {"faults.script", "times", "integer", "1", "{}", "how often the rule may fire", {1, kMaxCount}},
    {"faults.script", "optional", "boolean", "false", "",
     "a run where the rule never fired still meets its expectations"},
    {"expect", "verdict", "string", "not checked", "a verdict (eosim list verdicts)",
     "the run's verdict"},
    {"expect", "balance", "integer", "not checked", "", "the account's actual balance at the end"},
    {"expect", "lost", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are lost", kUpToOrders},
    {"expect", "duplicated", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are duplicated", kUpToOrders},
    {"expect", "phantom", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are phantom", kUpToOrders},
    {"expect", "stuck", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are stuck", kUpToOrders},
    {"expect", "dead_lettered", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are dead-lettered", kUpToOrders},
    {"expect", "rejected", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders are rejected", kUpToOrders},
    {"expect", "effects_duplicated", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders sent two or more emails (consumer.side_effect)", kUpToOrders},
    {"expect", "effects_lost", "array of order numbers", "not checked", "{}, each once",
     "exactly these debited orders sent no email", kUpToOrders},
    {"expect", "effects_phantom", "array of order numbers", "not checked", "{}, each once",
     "exactly these orders sent an email but were never debited", kUpToOrders},
};

// "10^9" for a power of ten from 10^9 on, else the digits.
std::string number_text(std::int64_t value) {
  int exponent = 0;
  std::int64_t rest = value;
  while (rest >= 10 && rest % 10 == 0) {
    rest /= 10;
    ++exponent;
  }
  if (rest == 1 && exponent >= 9) return "10^" + std::to_string(exponent);
  return std::to_string(value);
}

std::string bounds_text(const IntBounds& b) {
  const std::string min = number_text(b.min);
  switch (b.max_is) {
    case IntBounds::Max::kOrders: return min + "..orders";
    case IntBounds::Max::kInstances: return min + "..instances";
    case IntBounds::Max::kNumber: break;
  }
  if (b.max != std::numeric_limits<std::int64_t>::max()) return min + ".." + number_text(b.max);
  return b.min == std::numeric_limits<std::int64_t>::min() ? "" : ">= " + min;
}

}  // namespace

std::span<const ScenarioKey> scenario_keys() { return kKeys; }

const ScenarioKey& scenario_key(std::string_view table, std::string_view key) {
  for (const ScenarioKey& k : kKeys) {
    if (k.table == table && k.key == key) return k;
  }
  EOSIM_ASSERT(false && "a key the table does not list");
  return kKeys[0];
}

std::string range_text(const ScenarioKey& key) {
  std::string text(key.range);
  if (const std::size_t at = text.find("{}"); at != std::string::npos) {
    text.replace(at, 2, bounds_text(key.bounds));
  }
  return text;
}

std::vector<std::string_view> keys_of(std::string_view table) {
  std::vector<std::string_view> keys;
  for (const ScenarioKey& k : kKeys) {
    if (k.table == table) keys.push_back(k.key);
  }
  return keys;
}

}  // namespace lab
