#include "src/catalog/fault_sites.h"

#include <algorithm>
#include <array>

#include "sim/assert.h"
#include "src/catalog/catalog.h"

namespace lab {

namespace {

using producer::Pattern;
using consumer::AckTiming;
using consumer::Dedup;
using consumer::Strategy;

// Who passes what, as the actors are written (producer/*.cpp, consumer.cpp).
constexpr bool through_relay(Pattern p) {
  return p == Pattern::kOutbox || p == Pattern::kOutboxNoConfirm;
}
constexpr bool with_confirms(Pattern p) { return p == Pattern::kOutbox; }
constexpr bool publishes_directly(Pattern p) {
  return p == Pattern::kDualWrite || p == Pattern::kPublishThenCommit;
}
// auto-ack settles nothing: no ack, nack or reject ever leaves the consumer.
bool settles(const Strategy& s) { return s.choices.ack != AckTiming::kAuto; }
// The dedup mark is written before the debit commits: first in the same transaction
// (dedup_order = key-first), or first in the separate store (mark = before-commit).
// check-then-act only SELECTs; no-dedup writes none.
bool writes_dedup_mark(const Strategy& s) {
  return (s.choices.dedup == Dedup::kSameTxn &&
          s.dedup_order == consumer::DedupOrder::kKeyFirst) ||
         (s.choices.dedup == Dedup::kSeparateStore && s.mark == consumer::Mark::kBeforeCommit);
}
// Only a separate store is ever marked on its own (before or after the commit).
bool marks_separate_store(const Strategy& s) { return s.choices.dedup == Dedup::kSeparateStore; }
// side_effect = none sends no email, so there is no moment right after one.
bool sends_effect(const Strategy& s) { return s.side_effect != consumer::SideEffect::kNone; }

constexpr unsigned kOrderKeys = kKeyOrder | kKeyAttempt | kKeyNth;
constexpr unsigned kConsumerKeys = kOrderKeys | kKeyInstance;
constexpr unsigned kNetKeys = kOrderKeys | kKeyFrame;

constexpr std::string_view kDeliveryAttempt =
    "the delivery attempt of the order (1 = first delivery, 2 = first redelivery, ...)";
constexpr std::string_view kPublishAttempt =
    "the nth publish of the order's outbox row (1 = first publish; the relay republishes "
    "after a crash or a lost confirm)";
constexpr std::string_view kMessageAttempt =
    "the nth publish of the order's message (relay republishes count; a direct publish is "
    "always 1)";
constexpr std::string_view kProducerAttempt =
    "the order service's try of the order: always 1 (it makes one; writing the order again "
    "after a broken database connection is the same try)";

constexpr std::array<SiteFrame, 2> kRelayToBroker = {{
    {"basic.publish", true, true, through_relay, nullptr},
    {"confirm.select", false, false, with_confirms, nullptr},
}};
constexpr std::array<SiteFrame, 4> kBrokerToRelay = {{
    {"confirm.ack", false, false, with_confirms, nullptr},
    {"basic.nack", false, false, with_confirms, nullptr},
    {"basic.return", true, false, with_confirms, nullptr},
    {"channel.close", false, false, with_confirms, nullptr},
}};
constexpr std::array<SiteFrame, 1> kProducerToBroker = {{
    {"basic.publish", true, true, publishes_directly, nullptr},
}};
constexpr std::array<SiteFrame, 2> kBrokerToConsumer = {{
    {"basic.deliver", true, true, nullptr, nullptr, true},
    {"channel.close", false, false, nullptr, nullptr},
}};
constexpr std::array<SiteFrame, 5> kConsumerToBroker = {{
    {"basic.ack", true, true, nullptr, settles, true},
    {"basic.nack", true, true, nullptr, settles},
    {"basic.reject", true, true, nullptr, settles},
    {"basic.qos", false, false, nullptr, nullptr},
    {"basic.consume", false, false, nullptr, nullptr},
}};

using A = Action;
using S = Site;

constexpr std::array<FaultSite, kSiteCount> kSites = {{
    {S::kConsumerOnDeliver, orders::site_name(S::kConsumerOnDeliver), A::kCrash,
     "the consumer crashes as a delivery arrives, before doing anything", kConsumerKeys,
     kDeliveryAttempt},
    {S::kConsumerAfterDedupInsert, orders::site_name(S::kConsumerAfterDedupInsert), A::kCrash,
     "the consumer crashes after writing the dedup mark, before the debit commits",
     kConsumerKeys, kDeliveryAttempt, 0, nullptr, writes_dedup_mark, {}, false, false,
     "dedup_order = key-first (same-transaction) or mark = before-commit (separate-store)"},
    {S::kConsumerBeforeCommit, orders::site_name(S::kConsumerBeforeCommit), A::kCrash,
     "the consumer crashes with the debit written but not committed", kConsumerKeys,
     kDeliveryAttempt},
    {S::kConsumerAfterSideEffect, orders::site_name(S::kConsumerAfterSideEffect), A::kCrash,
     "the consumer crashes right after sending its email (side_effect): before the commit "
     "(before-commit: the ledger rolls back, the email stays) or before the ack "
     "(after-commit)",
     kConsumerKeys, kDeliveryAttempt, 0, nullptr, sends_effect, {}, false, false,
     "side_effect = before-commit or after-commit"},
    {S::kConsumerAfterCommit, orders::site_name(S::kConsumerAfterCommit), A::kCrash,
     "the consumer crashes after the commit, before the ack: the broker redelivers (with "
     "mark = after-commit, also before the separate store's mark; with dedup_retention, "
     "the redelivery comes after the heartbeat timeout and the restart, which may outlast "
     "the retention)",
     kConsumerKeys, kDeliveryAttempt},
    {S::kConsumerAfterAck, orders::site_name(S::kConsumerAfterAck), A::kCrash,
     "the consumer crashes right after sending the ack", kConsumerKeys, kDeliveryAttempt, 0,
     nullptr, settles},
    {S::kConsumerProcess, orders::site_name(S::kConsumerProcess), A::kCrash,
     "the consumer process crashes at a moment (`tick` or `step`), whatever it is doing "
     "(the GUI's crash button)",
     kKeyInstance, "", 0, nullptr, nullptr, {}, true, true},
    {S::kRelayAfterPublish, orders::site_name(S::kRelayAfterPublish), A::kCrash,
     "the relay crashes after publishing, before the confirm: the row is published again",
     kOrderKeys, kPublishAttempt, 0, through_relay},
    {S::kRelayAfterConfirm, orders::site_name(S::kRelayAfterConfirm), A::kCrash,
     "the relay crashes after the confirm, before marking the row sent: the row is "
     "published again",
     kOrderKeys, kPublishAttempt, 0, with_confirms},
    {S::kProducerAfterCommit, orders::site_name(S::kProducerAfterCommit), A::kCrash,
     "the producer crashes after committing the order, before publishing (or kicking the "
     "relay)",
     kOrderKeys, kProducerAttempt, 1},
    {S::kProducerAfterPublish, orders::site_name(S::kProducerAfterPublish), A::kCrash,
     "the producer crashes after publishing directly (dual-write: after its commit; "
     "publish-then-commit: before it)",
     kOrderKeys, kProducerAttempt, 1, publishes_directly},
    {S::kDbCommit, orders::site_name(S::kDbCommit), A::kFail,
     "a consumer's commit fails with a transient error and the transaction rolls back",
     kConsumerKeys, kDeliveryAttempt},
    {S::kDbCommitReply, orders::site_name(S::kDbCommitReply), A::kDrop,
     "the debit's COMMIT takes effect but its reply is lost and the database connection "
     "breaks: the consumer cannot tell whether it committed (scripted only)",
     kConsumerKeys, kDeliveryAttempt},
    {S::kDbRestart, orders::site_name(S::kDbRestart), A::kRestart,
     "the database restarts while the debit's transaction is open: the transaction rolls "
     "back and the consumer's connection breaks (scripted only)",
     kConsumerKeys, kDeliveryAttempt},
    {S::kDbProducerCommitReply, orders::site_name(S::kDbProducerCommitReply), A::kDrop,
     "the order service's COMMIT of the order (and its outbox row) takes effect but its "
     "reply is lost and the connection breaks: the service writes the order again and "
     "meets its own row (scripted only)",
     kKeyOrder | kKeyNth},
    {S::kDbProducerRestart, orders::site_name(S::kDbProducerRestart), A::kRestart,
     "the database restarts while the order service's transaction for the order is open: "
     "the order (and its outbox row) roll back, the connection breaks and the service "
     "writes the order again (scripted only)",
     kKeyOrder | kKeyNth},
    {S::kDbSerializationFailure, orders::site_name(S::kDbSerializationFailure), A::kFail,
     "another transaction changes the account after the debit's transaction took its "
     "snapshot: the debit's UPDATE fails with 40001 (serialization failure) and the "
     "transaction rolls back (scripted only)",
     kConsumerKeys, kDeliveryAttempt},
    {S::kDbDeadlock, orders::site_name(S::kDbDeadlock), A::kFail,
     "another transaction and the debit's wait for each other's locks: the database aborts "
     "the debit's transaction with 40P01 (deadlock detected) as it writes the debit "
     "(scripted only)",
     kConsumerKeys, kDeliveryAttempt},
    {S::kDedupMarkReply, orders::site_name(S::kDedupMarkReply), A::kDrop,
     "the mark (SET NX) reaches the separate dedup store and is written, but its reply is "
     "lost and the store's connection breaks: the consumer cannot tell whether its key was "
     "set (scripted only)",
     kConsumerKeys, kDeliveryAttempt, 0, nullptr, marks_separate_store, {}, false, false,
     "dedup = separate-store"},
    {S::kBrokerRestart, orders::site_name(S::kBrokerRestart), A::kRestart,
     "the broker restarts (with `order`: as that order's message is enqueued): connections "
     "drop, non-durable queues and transient messages are lost",
     kOrderKeys, kMessageAttempt, 0, nullptr, nullptr, {}, true},
    {S::kBrokerCrash, orders::site_name(S::kBrokerCrash), A::kKill,
     "the broker is killed (SIGKILL) as the order's message is enqueued: like "
     "broker.restart, and every classic message it recovers comes back redelivered=true",
     kKeyOrder | kKeyNth},
    {S::kBrokerReorder, orders::site_name(S::kBrokerReorder), A::kReorder,
     "the broker moves the message just enqueued to the head of the ready list, as "
     "requeues and competing consumers do",
     kOrderKeys, kMessageAttempt},
    {S::kNetRelayToBroker, orders::site_name(S::kNetRelayToBroker), A::kDrop,
     "a frame from the relay to the broker is lost and the connection dies (with `tick`: "
     "the connection breaks at that time)",
     kNetKeys, kPublishAttempt, 0, through_relay, nullptr,
     kRelayToBroker, true, false, "", true},
    {S::kNetBrokerToRelay, orders::site_name(S::kNetBrokerToRelay), A::kDrop,
     "a frame from the broker to the relay is lost and the connection dies (with `tick`: "
     "the connection breaks at that time)",
     kKeyOrder | kKeyFrame | kKeyNth, "", 0, with_confirms, nullptr,
     kBrokerToRelay, true, false, "", true},
    {S::kNetProducerToBroker, orders::site_name(S::kNetProducerToBroker), A::kDrop,
     "a frame from the producer to the broker is lost and the connection dies",
     kNetKeys, kProducerAttempt, 1, publishes_directly, nullptr,
     kProducerToBroker, true, false, "", true},
    {S::kNetBrokerToConsumer, orders::site_name(S::kNetBrokerToConsumer), A::kDrop,
     "a frame from the broker to a consumer is lost and the connection dies (with `tick`: "
     "the connection breaks at that time and the broker notices at once); `crash` on "
     "basic.deliver: the consumer is killed as that delivery reaches it, holding it unacked",
     kNetKeys | kKeyInstance, kDeliveryAttempt, 0, nullptr, nullptr,
     kBrokerToConsumer, true, false, "", true},
    {S::kNetConsumerToBroker, orders::site_name(S::kNetConsumerToBroker), A::kDrop,
     "a frame from a consumer to the broker is lost and the connection dies (with `tick`: "
     "the connection breaks at that time and the consumer notices at once); `crash` on "
     "basic.ack: the consumer is killed right after it sent that ack",
     kNetKeys | kKeyInstance, kDeliveryAttempt, 0, nullptr, nullptr,
     kConsumerToBroker, true, false, "", true},
}};

constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kSites.size(); ++i) {
    if (static_cast<std::size_t>(kSites[i].id) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order(), "kSites must list the sites in Site's order");

// A row of kActions, named by the fault plan's table.
constexpr ActionInfo action_row(A id, std::string_view meaning, bool random = true) {
  return {id, sim::fault_action_name(id), meaning, random};
}

constexpr std::array<ActionInfo, 7> kActions = {{
    action_row(A::kDrop, "a network frame is lost and takes its connection down with it"),
    action_row(A::kCrash, "an actor crashes at a crash site and restarts from its database"),
    action_row(A::kFail, "a database commit fails with a transient error"),
    action_row(A::kReorder, "the broker reorders its ready messages"),
    action_row(A::kRestart, "the broker restarts"),
    action_row(A::kKill,
               "the broker is killed (an unclean crash: recovered messages say redelivered)"),
    action_row(A::kFreeze,
               "a connection goes silent both ways: each end notices only by its own "
               "heartbeats, or never (scripted only)",
               false),
}};

}  // namespace

std::span<const ActionInfo> actions() { return kActions; }

std::string_view action_name(Action action) { return sim::fault_action_name(action); }

std::optional<Action> parse_action(std::string_view name) {
  for (const ActionInfo& a : kActions) {
    if (a.name == name) return a.id;
  }
  return std::nullopt;
}

bool random_kind(std::string_view name) {
  for (const ActionInfo& a : kActions) {
    if (a.name == name) return a.random;
  }
  return false;
}

bool FaultSite::kills() const {
  return std::any_of(frames.begin(), frames.end(), [](const SiteFrame& f) { return f.kills; });
}

bool FaultSite::allows(Action a) const {
  return a == action || (freezes && a == Action::kFreeze) || (kills() && a == Action::kCrash);
}

std::string FaultSite::allowed_text() const {
  std::string text(action_name(action));
  if (freezes) text += ", " + std::string(action_name(Action::kFreeze));
  if (kills()) text += ", " + std::string(action_name(Action::kCrash));
  return text;
}

const SiteFrame* FaultSite::frame(std::string_view kind) const {
  for (const SiteFrame& f : frames) {
    if (f.kind == kind) return &f;
  }
  return nullptr;
}

bool FaultSite::carries(std::string_view kind) const { return frame(kind) != nullptr; }

std::vector<std::string_view> FaultSite::frame_names() const {
  std::vector<std::string_view> names;
  for (const SiteFrame& f : frames) names.push_back(f.kind);
  return names;
}

std::span<const FaultSite> fault_sites() { return kSites; }

const FaultSite& site_info(Site site) {
  const auto index = static_cast<std::size_t>(site);
  EOSIM_ASSERT(index < kSites.size());
  return kSites[index];
}

const FaultSite* find_fault_site(std::string_view name) {
  for (const FaultSite& site : kSites) {
    if (site.name == name) return &site;
  }
  return nullptr;
}

std::string join_names(std::span<const FaultSite> sites) {
  std::vector<std::string_view> names;
  for (const FaultSite& site : sites) names.push_back(site.name);
  return join_names(names);
}

bool site_passed(const FaultSite& site, const SiteFrame* frame, Pattern pattern,
                 const Strategy& strategy) {
  if (site.patterns && !site.patterns(pattern)) return false;
  if (site.strategies && !site.strategies(strategy)) return false;
  if (frame && frame->patterns && !frame->patterns(pattern)) return false;
  if (frame && frame->strategies && !frame->strategies(strategy)) return false;
  return true;
}

std::string passed_by_text(const FaultSite& site, const SiteFrame* frame) {
  const PatternTest patterns = frame && frame->patterns ? frame->patterns : site.patterns;
  const StrategyTest strategies =
      frame && frame->strategies ? frame->strategies : site.strategies;
  std::vector<std::string_view> names;
  if (patterns) {
    for (const producer::PatternPreset& preset : producer::patterns()) {
      if (patterns(preset.pattern)) names.push_back(preset.name);
    }
    return "producer pattern" + std::string(names.size() == 1 ? " " : "s ") +
           join_names(names);
  }
  if (strategies) {
    for (const consumer::Preset& preset : consumer::presets()) {
      if (strategies(Strategy{preset.choices})) names.push_back(preset.name);
    }
    std::string text = names.empty() ? std::string("any consumer design")
                                     : "consumer strateg" +
                                           std::string(names.size() == 1 ? "y " : "ies ") +
                                           join_names(names);
    if (!site.passed_when.empty()) text += ", with " + std::string(site.passed_when);
    return text;
  }
  return "every producer pattern and consumer strategy";
}

std::string never_passed(const FaultSite& site, const SiteFrame* frame,
                         const producer::ProducerChoices& producer_choices,
                         std::string_view producer_label, const Strategy& strategy,
                         std::string_view consumer_label) {
  const producer::PatternPreset* preset = producer::pattern_with(producer_choices);
  EOSIM_ASSERT(preset != nullptr);
  const Pattern p = preset->pattern;
  if (site_passed(site, frame, p, strategy)) return "";
  const bool by_pattern = (site.patterns && !site.patterns(p)) ||
                          (frame && frame->patterns && !frame->patterns(p));
  const std::string what = frame ? std::string(frame->kind) + " on " + std::string(site.name)
                                 : std::string(site.name);
  return what + " is never passed under " +
         (by_pattern ? "producer " + std::string(producer_label)
                     : "consumer " + std::string(consumer_label)) +
         " (passed by: " + passed_by_text(site, frame) + ")";
}

}  // namespace lab
