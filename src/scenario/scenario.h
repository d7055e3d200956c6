#pragma once
// A scenario: one scripted experiment (workload, actors, faults, expectations) as read
// from a strict TOML file (format: docs/scenario-format.md).
//
// Invariants of a Scenario filled by parse_scenario / load_scenario:
//  (1) Every name (strategy, producer pattern, queue type, fault site, action, frame,
//      random fault kind, verdict) is one of catalog/catalog.h; every action is allowed at
//      its site; `frame` only on network sites; `tick` only on timed sites.
//  (2) Every order number (script rules, without_message_id, expect lists) is in
//      1..workload.orders; workload.amounts is empty or has exactly `orders` entries.
//  (3) Order-number lists (without_message_id and the expect lists) are sorted ascending
//      and hold no duplicates, so they compare as sets.
//  (4) to_toml(s) parses back to a Scenario equal to s in every field but `path`.
//
// Strictness: an unknown key, a value of the wrong type and a value out of range are
// all errors naming the file, line and key, so a typo never silently changes a run.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "src/broker/message.h"
#include "src/checker/verdict.h"
#include "src/consumer/strategy.h"
#include "src/producer/design.h"
#include "src/status/status.h"

namespace lab {

struct Workload {
  std::int64_t orders = 3;
  std::int64_t amount = 150;  // of every order, unless `amounts` is given
  std::int64_t initial_balance = 1000;
  std::string account = "alice";
  std::vector<std::int64_t> amounts;             // per order; empty or size == orders
  std::vector<std::int64_t> without_message_id;  // orders published with no message_id
  std::int64_t interval_ticks = 10;              // ticks between two orders

  // The amount of 1-based order `order`. REQUIRES: 1 <= order <= orders.
  std::int64_t amount_of(std::int64_t order) const;
  friend bool operator==(const Workload&, const Workload&) = default;
};

// The producer: a preset `pattern`, and the choices given beside it, each replacing the
// preset's value.
struct ProducerConfig {
  std::string pattern = "outbox";
  std::optional<producer::Delivery> delivery;
  std::optional<bool> confirms;
  std::optional<producer::PublishOrder> order;
  producer::MessageIdSource message_id = producer::MessageIdSource::kOutbox;
  // Ticks a crashed order service / relay stays down before its process restarts.
  std::int64_t restart_after = 20;
  std::int64_t relay_restart_after = 20;

  // The preset's choices with the given keys applied. REQUIRES: `pattern` is a preset.
  producer::ProducerChoices choices() const;
  // "confirms = false (outbox has true)", one per key that changes the preset.
  std::vector<std::string> overrides() const;
  // The preset's name, or "outbox + confirms=false (= outbox-no-confirm)".
  std::string label() const;
  friend bool operator==(const ProducerConfig&, const ProducerConfig&) = default;
};

struct BrokerConfig {
  broker::QueueType queue = broker::QueueType::kClassic;
  std::int64_t prefetch = 5;       // unacked deliveries per consumer; 0 = unlimited
  std::int64_t delivery_limit = 0; // quorum queues only; 0 = unlimited
  bool dead_letter = false;
  bool durable = true;     // the queue survives a broker restart
  bool persistent = true;  // messages are published persistent (delivery_mode 2)
  // Ticks a delivery may stay unacked before the broker closes its channel with 406 and
  // requeues what the channel held (RabbitMQ's consumer_timeout); 0 = never.
  std::int64_t consumer_timeout = 0;
  friend bool operator==(const BrokerConfig&, const BrokerConfig&) = default;
};

// The consumer: a preset `strategy`, the four choices given beside it (each replacing the
// preset's value), and the variations that no preset fixes.
struct ConsumerConfig {
  std::string strategy = "atomic";
  std::optional<consumer::AckTiming> ack;
  std::optional<consumer::Dedup> dedup;
  std::optional<consumer::ErrorPolicy> errors;
  std::optional<consumer::PoisonPolicy> poison;
  consumer::Mark mark = consumer::Mark::kBeforeCommit;
  consumer::DedupOrder dedup_order = consumer::DedupOrder::kKeyFirst;
  consumer::SideEffect side_effect = consumer::SideEffect::kNone;
  bool idempotency_key = false;
  std::int64_t dedup_retention = 0;  // ticks; 0 = dedup keys are kept forever
  consumer::Check check = consumer::Check::kOutside;  // check-then-act only
  // The ledger transactions' isolation level on a database server; none = the server's
  // default (PostgreSQL's is read committed). SQLite is always serializable.
  std::optional<store::Isolation> isolation;
  std::int64_t instances = 1;
  std::int64_t work_ticks = 2;  // virtual time each step of handling a delivery takes
  std::int64_t restart_after = 20;  // ticks a crashed consumer stays down
  // `eosim live` only: the user's consumer program, run under /bin/sh -c in place of
  // eosim's own consumer (docs/your-consumer.md); "" = eosim's. The model ignores it.
  std::string command;

  // The preset's choices with the given keys applied. REQUIRES: `strategy` is a preset.
  consumer::Choices choices() const;
  // Everything the consumer runs: choices() and the variations.
  consumer::Strategy design() const;
  // "dedup = none (atomic has same-transaction)", one per key that changes the preset.
  std::vector<std::string> overrides() const;
  // The preset's name, or "atomic + dedup=none (= no-dedup)" when keys change it.
  std::string label() const;
  // What the design does, in one line: the meaning of the preset its choices equal, or of
  // `strategy`; a variation that changes the story says what it does instead (check =
  // in-transaction, mark = after-commit).
  std::string meaning() const;
  // Drops the choices given beside the preset (a new preset replaces the whole design).
  void clear_choices();
  friend bool operator==(const ConsumerConfig&, const ConsumerConfig&) = default;
};

struct NetworkConfig {
  std::int64_t latency_min = 1;  // ticks a frame spends in flight, drawn in [min, max]
  std::int64_t latency_max = 3;
  std::int64_t heartbeat_timeout = 30;  // ticks until a dead connection is noticed
  std::int64_t reconnect_delay = 5;     // ticks a client waits before reconnecting
  // Heartbeats, replacing heartbeat_timeout: failure detection per side (conformance row
  // 18). The broker gives up on a peer silent for 3 heartbeats; a client after
  // client_timeout ticks (unset: 7 heartbeats; 0 = never). heartbeat 0 = off: neither
  // side ever notices a silent peer. Unset = the symmetric heartbeat_timeout.
  std::optional<std::int64_t> heartbeat;
  std::optional<std::int64_t> client_timeout;
  friend bool operator==(const NetworkConfig&, const NetworkConfig&) = default;
};

struct RandomFaults {
  std::map<std::string, sim::Ratio> ratios;  // fault kind -> chance per opportunity
  std::int64_t budget = 3;                   // most random faults in one run
  std::int64_t horizon = 2000;               // no random fault after this tick
  friend bool operator==(const RandomFaults&, const RandomFaults&) = default;
};

struct Expect {
  std::optional<Verdict> verdict;
  std::optional<std::int64_t> balance;
  std::optional<std::vector<std::int64_t>> lost, duplicated, phantom, stuck, dead_lettered,
      rejected;
  // The external effects (emails) of a design with a side effect: the checker's
  // effect_duplicated, effect_lost and effect_phantom.
  std::optional<std::vector<std::int64_t>> effects_duplicated, effects_lost, effects_phantom;
  friend bool operator==(const Expect&, const Expect&) = default;
};

struct Scenario {
  std::string path;  // where it was read from (not part of the file's content)
  std::string name;
  std::string about;
  // The corrected design, as TOML assignments that replace the file's keys (for example
  // `consumer.strategy = "atomic"`); "" when the scenario has no fixed twin.
  std::string fixed;
  std::uint64_t seed = 1;
  Workload workload;
  ProducerConfig producer;
  BrokerConfig broker;
  ConsumerConfig consumer;
  NetworkConfig network;
  RandomFaults random;
  std::vector<sim::FaultRule> script;
  Expect expect;
  // The lesson shows only for some seeds; `about` must say why. The seeds test skips it
  // and `eosim run --seed` prints a note.
  bool seed_sensitive = false;
  std::int64_t max_steps = 0;  // the step bound; 0 = step_bound()'s default for the workload
  // How decisions are drawn (sim::Draws): the seed's one generator in turn, or keyed by
  // what each decides (what `eosim explore --draws keyed` runs, so its files say so).
  sim::Draws draws = sim::Draws::kSequence;
  friend bool operator==(const Scenario&, const Scenario&) = default;
};

// The step bound a run of `scenario` stops at: its max_steps, or by default 200,000 plus
// 100 per order, so a large workload is produced in full (a happy-path order takes ~9
// steps) while a livelock on a small one still ends quickly.
std::int64_t step_bound(const Scenario& scenario);

struct LoadError {
  std::string file;
  std::int64_t line = 0;  // 1-based; 0 when no line applies (missing file, missing key)
  std::string key;        // dotted path, e.g. "workload.orders", "faults.script[2].at"
  std::string message;
  // "FILE:LINE: key `K`: MESSAGE"; the line and key parts are left out when unknown.
  std::string to_string() const;
  // The error as every operation reports one: to_string() is its message.
  eosim::Status status() const { return eosim::Status::error(to_string()); }
};

// The scenario in the file at `path`, or in `toml_text` (named `source_name` in errors).
// Strict: every problem is an error whose one line names file, line and key
// (LoadError::to_string).
eosim::Result<Scenario> load_scenario(const std::string& path);
eosim::Result<Scenario> parse_scenario(std::string_view toml_text, const std::string& source_name);

// The bytes of a scenario file, refused (the error says why) when it cannot be
// opened (the OS's reason: missing, no permission, a symlink loop), is not a regular file
// (a folder, FIFO, device: never blocks on one) or is over kMaxScenarioBytes.
constexpr std::int64_t kMaxScenarioBytes = 1 << 20;
eosim::Status read_scenario_file(const std::string& path, std::string& text);

// Appends the *.toml files directly in `dir` (scenarios or lessons; sub-folders are not
// read) to `files`, sorted by file name. An error naming `dir` and the OS's
// reason, when the folder cannot be read. The CLI and the GUI list folders through this.
eosim::Status scenario_files_in(const std::string& dir, std::vector<std::string>& files);

// The fixed twin of a scenario with a `fixed` key: the same file with those assignments
// applied (a new consumer.strategy or producer.pattern drops the keys given beside the old
// preset, as --strategy does), named "NAME (fixed)", expecting exactly-once unless the
// assignments set [expect] themselves. An error on key `fixed` when the assignments are
// not TOML or do not make a valid scenario.
// REQUIRES: !scenario.fixed.empty().
eosim::Result<Scenario> fixed_twin(const Scenario& scenario);
// Checks every scripted rule against the scenario's producer pattern and consumer strategy
// again, for after the command line changed them (--strategy, --producer): a rule at a
// site the new pattern or strategy never passes is an error naming the rule's key (the
// file's line is not known any more). load_scenario already checked the file's own.
eosim::Status check_script(const Scenario& scenario);
// Why `rule` can never fire under the scenario's producer and consumer design, or "".
// REQUIRES: rule.site (and rule.frame, if set) are in the fault-site catalog.
std::string rule_never_passed(const Scenario& scenario, const sim::FaultRule& rule);

// A scenario file that load_scenario reads back to the same Scenario (all but `path`).
std::string to_toml(const Scenario& scenario);

// "drop=1/20,crash=1/30" (sweep --faults): kinds from the catalog, each at most once.
// An empty spec is an empty map. On failure `out` is untouched and the error says why.
eosim::Status parse_fault_spec(const std::string& spec, std::map<std::string, sim::Ratio>& out);

// One [[faults.script]] rule written on a command line (`eosim run --fault`):
// "SITE[:KEY=VALUE,...]" with the keys of a rule (do, order, attempt, frame, nth,
// instance, tick, times), e.g. "consumer.after_commit:order=2,attempt=1" or
// "net.consumer->broker:frame=basic.ack,nth=1". Without `do` the rule takes the
// site's first action (drop, on a network site; freeze must be named). Checked exactly as the loader checks a rule of `scenario` (its order
// count and consumer instances); on failure `out` is untouched and the error names the key.
eosim::Status parse_fault_rule(const std::string& spec, const Scenario& scenario,
                               sim::FaultRule& out);

// The inverse: the shortest spec parse_fault_rule reads back to `rule`.
std::string fault_rule_text(const sim::FaultRule& rule);

}  // namespace lab
