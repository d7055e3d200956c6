#include "src/consumer/strategy.h"

namespace consumer {

namespace {

using A = AckTiming;
using D = Dedup;
using E = ErrorPolicy;
using P = PoisonPolicy;

constexpr std::array<Preset, 8> kPresets{{
    {PresetId::kAtomic, "atomic", {A::kAfterCommit, D::kSameTxn, E::kClassify, P::kDeadLetter},
     "ack after commit, dedup key in the same transaction as the debit, business errors "
     "recorded and acked: exactly-once effect"},
    {PresetId::kAutoAck, "auto-ack", {A::kAuto, D::kNone, E::kClassify, P::kDeadLetter},
     "the broker forgets a message as it delivers it, so a crash before the commit loses "
     "it: at-most-once"},
    {PresetId::kAckBeforeCommit, "ack-before-commit",
     {A::kBeforeCommit, D::kSameTxn, E::kClassify, P::kDeadLetter},
     "acks, then commits (dedup in the same transaction); a crash in between loses the "
     "effect: at-most-once"},
    {PresetId::kNoDedup, "no-dedup", {A::kAfterCommit, D::kNone, E::kClassify, P::kDeadLetter},
     "commits, then acks, but keeps no dedup key; a redelivery debits again: "
     "at-least-once"},
    {PresetId::kSeparateDedupStore, "separate-dedup-store",
     {A::kAfterCommit, D::kSeparateStore, E::kClassify, P::kDeadLetter},
     "marks the message seen in a separate store (a cache such as Redis) before the debit "
     "commits; a crash in between loses the effect"},
    {PresetId::kCheckThenAct, "check-then-act",
     {A::kAfterCommit, D::kCheckThenAct, E::kClassify, P::kDeadLetter},
     "SELECTs the dedup table, then debits in another transaction; two consumers both "
     "pass the check and debit twice"},
    {PresetId::kNaiveErrors, "naive-errors",
     {A::kAfterCommit, D::kSameTxn, E::kAllDuplicate, P::kDeadLetter},
     "treats every insert error as a duplicate; a transient error is acked and the "
     "effect is lost"},
    {PresetId::kRequeuePoison, "requeue-poison",
     {A::kAfterCommit, D::kSameTxn, E::kClassify, P::kRequeue},
     "nacks a business failure with requeue, forever; the poison message loops and is "
     "stuck"},
}};

// PresetId's name table, made from kPresets so the presets stay one table.
constexpr bool presets_in_id_order() {
  for (std::size_t i = 0; i < kPresets.size(); ++i) {
    if (kPresets[i].id != static_cast<PresetId>(i)) return false;
  }
  return true;
}
static_assert(presets_in_id_order(), "kPresets must list the presets in PresetId order");

constexpr std::array<sim::Named<PresetId>, kPresets.size()> kPresetNames = [] {
  std::array<sim::Named<PresetId>, kPresets.size()> out{};
  for (std::size_t i = 0; i < kPresets.size(); ++i) {
    out[i] = {kPresets[i].id, kPresets[i].name, kPresets[i].meaning};
  }
  return out;
}();
static_assert(sim::names_every_value(kPresetNames));

constexpr std::array<sim::Named<AckTiming>, 3> kAck{{
    {A::kAfterCommit, "after-commit", "ack once the debit is committed (a crash in between "
                                      "means a redelivery)"},
    {A::kBeforeCommit, "before-commit", "ack first, then commit (a crash in between loses "
                                        "the effect)"},
    {A::kAuto, "auto", "no acks at all: the broker forgets a message as it delivers it"},
}};
static_assert(sim::names_every_value(kAck));

constexpr std::array<sim::Named<Dedup>, 4> kDedup{{
    {D::kSameTxn, "same-transaction", "a unique dedup key inserted in the debit's own "
                                      "transaction"},
    {D::kSeparateStore, "separate-store", "a key in another store, written outside the "
                                          "debit's transaction (see `mark`)"},
    {D::kCheckThenAct, "check-then-act", "look the key up first, debit in a later "
                                         "transaction"},
    {D::kNone, "none", "no dedup: every redelivery is applied again"},
}};
static_assert(sim::names_every_value(kDedup));

constexpr std::array<sim::Named<ErrorPolicy>, 2> kErrors{{
    {E::kClassify, "classify", "only a unique-key violation means duplicate; any other "
                               "error rolls back and requeues"},
    {E::kAllDuplicate, "all-duplicate", "every database error is taken for a duplicate "
                                        "and acked"},
}};
static_assert(sim::names_every_value(kErrors));

constexpr std::array<sim::Named<PoisonPolicy>, 3> kPoison{{
    {P::kDeadLetter, "dead-letter", "a refused message is rejected into the dead-letter "
                                    "queue ([broker] dead_letter); without one it is "
                                    "recorded, as `record`"},
    {P::kRecord, "record", "a refused message is recorded in the ledger (rejections) and "
                           "acked"},
    {P::kRequeue, "requeue", "a refused message is nacked with requeue and comes back "
                             "forever"},
}};
static_assert(sim::names_every_value(kPoison));

constexpr std::array<sim::Named<Mark>, 2> kMark{{
    {Mark::kBeforeCommit, "before-commit", "mark the key, then commit the debit (a failed "
                                           "commit loses the effect)"},
    {Mark::kAfterCommit, "after-commit", "commit the debit, then mark the key (a crash in "
                                         "between applies it twice)"},
}};
static_assert(sim::names_every_value(kMark));

constexpr std::array<sim::Named<DedupOrder>, 2> kDedupOrder{{
    {DedupOrder::kKeyFirst, "key-first", "insert the dedup key first: a duplicate stops "
                                         "before any work"},
    {DedupOrder::kEffectFirst, "effect-first", "do the work, insert the key last: a "
                                               "duplicate fails late and rolls back"},
}};
static_assert(sim::names_every_value(kDedupOrder));

constexpr std::array<sim::Named<SideEffect>, 3> kSideEffect{{
    {SideEffect::kNone, "none", "no effect outside the ledger"},
    {SideEffect::kBeforeCommit, "before-commit", "send an email before the ledger commits"},
    {SideEffect::kAfterCommit, "after-commit", "send an email after the ledger commits, "
                                               "before the ack"},
}};
static_assert(sim::names_every_value(kSideEffect));

constexpr std::array<sim::Named<Check>, 2> kCheck{{
    {Check::kOutside, "outside", "SELECT the dedup table on its own, then debit in a later "
                                 "transaction"},
    {Check::kInTransaction, "in-transaction",
     "SELECT the order's debit inside the debit's transaction, debit a step later in the "
     "same transaction: no unique key, only the isolation level stands between two "
     "consumers"},
}};
static_assert(sim::names_every_value(kCheck));

}  // namespace

std::span<const Preset> presets() { return kPresets; }

const Preset* find_preset(std::string_view name) {
  return sim::find_named(presets(), name);
}

const Preset& preset(PresetId id) { return kPresets[static_cast<std::size_t>(id)]; }

std::string_view preset_of(const Choices& choices) {
  const Preset* preset = sim::find_with_choices(presets(), choices);
  return preset ? preset->name : "";
}

std::string describe(const Choices& c) {
  return "ack=" + std::string(sim::name_of(c.ack)) +
         " dedup=" + std::string(sim::name_of(c.dedup)) +
         " errors=" + std::string(sim::name_of(c.errors)) +
         " poison=" + std::string(sim::name_of(c.poison));
}

}  // namespace consumer

namespace sim {

using namespace consumer;  // the tables above, by their short names
template <>
std::span<const Named<PresetId>> enum_names<PresetId>() { return kPresetNames; }
template <>
std::span<const Named<AckTiming>> enum_names<AckTiming>() { return kAck; }
template <>
std::span<const Named<Dedup>> enum_names<Dedup>() { return kDedup; }
template <>
std::span<const Named<ErrorPolicy>> enum_names<ErrorPolicy>() { return kErrors; }
template <>
std::span<const Named<PoisonPolicy>> enum_names<PoisonPolicy>() { return kPoison; }
template <>
std::span<const Named<Mark>> enum_names<Mark>() { return kMark; }
template <>
std::span<const Named<DedupOrder>> enum_names<DedupOrder>() { return kDedupOrder; }
template <>
std::span<const Named<SideEffect>> enum_names<SideEffect>() { return kSideEffect; }
template <>
std::span<const Named<Check>> enum_names<Check>() { return kCheck; }

}  // namespace sim
