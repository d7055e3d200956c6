#pragma once
// A consumer's design: four independent choices (when to ack, how to deduplicate, how to
// classify database errors, what to do with a message the business refuses), plus the
// variations teams build around them (an effect outside the database, dedup keys that
// expire, the statement order inside the transaction, the separate store's mark order).
//
// The eight named strategies are presets of the four choices, and presets() is the only
// table of them: the scenario loader, `eosim list strategies`, the catalog, the tests and
// the name table of PresetId (sim::name_of / sim::value_named) all read it. Every choice value has one name (its scenario/CLI spelling) and one line
// of meaning in the tables of strategy.cpp; strings exist only at those edges.
//
// Invariants:
//  (1) Preset names are unique; no two presets have the same Choices.
//  (2) Every enum value below has exactly one entry in its name table.
//  (3) presets()[i].id == PresetId(i): the table lists the presets in PresetId order.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "sim/named.h"
#include "src/store/txn.h"

namespace consumer {

enum class AckTiming {
  kAfterCommit,   // ack only once the effect is durable (correct)
  kBeforeCommit,  // ack, then do the work: a crash in between loses the effect
  kAuto,          // basic.consume no-ack: counted as acked when sent
};

enum class Dedup {
  kSameTxn,        // dedup row inserted in the business transaction, unique key (correct)
  kSeparateStore,  // dedup key kept in another store (a cache such as Redis)
  kCheckThenAct,   // SELECT first, act in a later transaction: races with a second consumer
  kNone,           // no dedup at all: every redelivery is applied again
};

enum class ErrorPolicy {
  kClassify,      // classify by SQLite's extended code: only a unique violation is a duplicate
  kAllDuplicate,  // every insert error is taken for a duplicate and acked
};

enum class PoisonPolicy {
  kDeadLetter,  // reject without requeue into the dead-letter queue; without one, record
  kRecord,      // record the refusal in the ledger and ack
  kRequeue,     // nack with requeue: the message comes back, forever
};

// When the separate store's key is written (dedup = separate-store only).
enum class Mark {
  kBeforeCommit,  // mark first: a failed commit leaves "done" with nothing done (lost)
  kAfterCommit,   // mark after the commit: a crash in between applies it again (duplicated)
};

// Statement order inside the transaction (dedup = same-transaction only).
enum class DedupOrder {
  kKeyFirst,     // insert the key, then apply: a duplicate stops before any work
  kEffectFirst,  // apply, then insert the key: a duplicate fails late, after the work ran
};

// Where check-then-act looks (dedup = check-then-act only).
enum class Check {
  kOutside,        // SELECT the dedup table on its own, act in a later transaction
  kInTransaction,  // SELECT the debits (no unique key) inside the debit's transaction,
                   // held open across steps: the isolation level decides the race
};

// An effect outside the database (an email through a mail server), in no transaction.
enum class SideEffect {
  kNone,
  kBeforeCommit,  // sent inside the handler, before the ledger commits
  kAfterCommit,   // sent after the ledger commit, before the ack
};

// The named presets, in teaching order (the order of presets()).
enum class PresetId {
  kAtomic,
  kAutoAck,
  kAckBeforeCommit,
  kNoDedup,
  kSeparateDedupStore,
  kCheckThenAct,
  kNaiveErrors,
  kRequeuePoison,
};

// The four choices a preset fixes.
struct Choices {
  AckTiming ack = AckTiming::kAfterCommit;
  Dedup dedup = Dedup::kSameTxn;
  ErrorPolicy errors = ErrorPolicy::kClassify;
  PoisonPolicy poison = PoisonPolicy::kDeadLetter;
  friend bool operator==(const Choices&, const Choices&) = default;
};

struct Preset {
  PresetId id;
  std::string_view name;
  Choices choices;
  std::string_view meaning;
};

// The complete design a consumer runs.
struct Strategy {
  Choices choices;
  Mark mark = Mark::kBeforeCommit;
  DedupOrder dedup_order = DedupOrder::kKeyFirst;
  SideEffect side_effect = SideEffect::kNone;
  bool idempotency_key = false;        // the effect carries the message id; repeats ignored
  std::int64_t dedup_retention = 0;    // ticks a dedup key is kept; 0 = forever
  Check check = Check::kOutside;
  // The level of every ledger transaction on a database server; none = the server's
  // default. SQLite is always serializable: store::Txn gives each level its meaning there.
  std::optional<store::Isolation> isolation;
  friend bool operator==(const Strategy&, const Strategy&) = default;
};

// The presets, in teaching order: the design that works first, then each way to break it.
std::span<const Preset> presets();
// nullptr for an unknown name.
const Preset* find_preset(std::string_view name);
const Preset& preset(PresetId id);
// The name of the preset with exactly these choices, or "" when none has them.
std::string_view preset_of(const Choices& choices);

// The name tables (strategy.cpp): the scenario/CLI spelling of each value, with a line
// of meaning. Use sim::name_of, sim::value_named and sim::names_list on these enums.
}  // namespace consumer

namespace sim {
template <>
std::span<const Named<consumer::PresetId>> enum_names<consumer::PresetId>();
template <>
std::span<const Named<consumer::AckTiming>> enum_names<consumer::AckTiming>();
template <>
std::span<const Named<consumer::Dedup>> enum_names<consumer::Dedup>();
template <>
std::span<const Named<consumer::ErrorPolicy>> enum_names<consumer::ErrorPolicy>();
template <>
std::span<const Named<consumer::PoisonPolicy>> enum_names<consumer::PoisonPolicy>();
template <>
std::span<const Named<consumer::Mark>> enum_names<consumer::Mark>();
template <>
std::span<const Named<consumer::DedupOrder>> enum_names<consumer::DedupOrder>();
template <>
std::span<const Named<consumer::SideEffect>> enum_names<consumer::SideEffect>();
template <>
std::span<const Named<consumer::Check>> enum_names<consumer::Check>();
}  // namespace sim

namespace consumer {

// "ack=after-commit dedup=same-transaction errors=classify poison=dead-letter".
std::string describe(const Choices& choices);

}  // namespace consumer
