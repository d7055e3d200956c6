#pragma once
// The lab's fault sites as identities: every place an actor asks the fault plan whether
// to fail, one enumerator each, and the one table of the names they have in scenario files,
// traces and reports. It sits beside the order key, below the actors, so the consumer, the
// producer, the relay and the broker node name a site by enum (a misspelt site does not
// compile) and the kernel is handed the names (sim/faults.h) instead of parsing text.
// What a rule may do at a site, and who passes it, is the catalog's (src/catalog).
//
// Invariants:
//  (1) kSiteRows holds one row per Site, in the enum's order (checked below); Site's name
//      table (sim/named.h) is made from it, so sim::name_of and site_name agree.
//  (2) A network site's name is "net.<from>-><to>", the network's own naming of a
//      direction (sim/network.h), with `from` and `to` its roles.
//  (3) The names are part of traces, reports and scenario files: renaming one changes
//      pinned hashes and breaks files people wrote.
// Extending: add the enumerator, its row here and its row in the catalog's table.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "sim/named.h"
#include "sim/names.h"

namespace orders {

enum class Site : std::uint8_t {
  kConsumerOnDeliver,
  kConsumerAfterDedupInsert,
  kConsumerBeforeCommit,
  kConsumerAfterSideEffect,
  kConsumerAfterCommit,
  kConsumerAfterAck,
  kConsumerProcess,
  kRelayAfterPublish,
  kRelayAfterConfirm,
  kProducerAfterCommit,
  kProducerAfterPublish,
  kDbCommit,
  kDbCommitReply,
  kDbRestart,
  kDbProducerCommitReply,
  kDbProducerRestart,
  kDbSerializationFailure,
  kDbDeadlock,
  kDedupMarkReply,
  kBrokerRestart,
  kBrokerCrash,
  kBrokerReorder,
  kNetRelayToBroker,
  kNetBrokerToRelay,
  kNetProducerToBroker,
  kNetBrokerToConsumer,
  kNetConsumerToBroker,
};
inline constexpr std::size_t kSiteCount = 27;

struct SiteRow {
  Site id;
  std::string_view name;
  std::string_view actor;  // the role whose lane a fault here is drawn in
  std::string_view peer;   // network sites: the role at the other end ("" elsewhere)
};

// clang-format off
inline constexpr std::array<SiteRow, kSiteCount> kSiteRows = {{
    {Site::kConsumerOnDeliver,        "consumer.on_deliver",         "consumer", ""},
    {Site::kConsumerAfterDedupInsert, "consumer.after_dedup_insert", "consumer", ""},
    {Site::kConsumerBeforeCommit,     "consumer.before_commit",      "consumer", ""},
    {Site::kConsumerAfterSideEffect,  "consumer.after_side_effect",  "consumer", ""},
    {Site::kConsumerAfterCommit,      "consumer.after_commit",       "consumer", ""},
    {Site::kConsumerAfterAck,         "consumer.after_ack",          "consumer", ""},
    {Site::kConsumerProcess,          "consumer.process",            "consumer", ""},
    {Site::kRelayAfterPublish,        "relay.after_publish",         "relay",    ""},
    {Site::kRelayAfterConfirm,        "relay.after_confirm",         "relay",    ""},
    {Site::kProducerAfterCommit,      "producer.after_commit",       "producer", ""},
    {Site::kProducerAfterPublish,     "producer.after_publish",      "producer", ""},
    {Site::kDbCommit,                 "db.commit",                   "consumer", ""},  // the consumer's commits
    {Site::kDbCommitReply,            "db.commit_reply",             "consumer", ""},
    {Site::kDbRestart,                "db.restart",                  "consumer", ""},
    {Site::kDbProducerCommitReply,    "db.producer_commit_reply",    "producer", ""},
    {Site::kDbProducerRestart,        "db.producer_restart",         "producer", ""},
    {Site::kDbSerializationFailure,   "db.serialization_failure",    "consumer", ""},
    {Site::kDbDeadlock,               "db.deadlock",                 "consumer", ""},
    {Site::kDedupMarkReply,           "dedup.mark_reply",            "consumer", ""},
    {Site::kBrokerRestart,            "broker.restart",              "broker",   ""},
    {Site::kBrokerCrash,              "broker.crash",                "broker",   ""},
    {Site::kBrokerReorder,            "broker.reorder",              "broker",   ""},
    {Site::kNetRelayToBroker,         "net.relay->broker",           "relay",    "broker"},
    {Site::kNetBrokerToRelay,         "net.broker->relay",           "broker",   "relay"},
    {Site::kNetProducerToBroker,      "net.producer->broker",        "producer", "broker"},
    {Site::kNetBrokerToConsumer,      "net.broker->consumer",        "broker",   "consumer"},
    {Site::kNetConsumerToBroker,      "net.consumer->broker",        "consumer", "broker"},
}};
// clang-format on

// Site's name table, made from kSiteRows so the sites stay one table.
inline constexpr std::array<sim::Named<Site>, kSiteCount> kSiteNamed = [] {
  std::array<sim::Named<Site>, kSiteCount> named{};
  for (std::size_t i = 0; i < kSiteCount; ++i) named[i] = {kSiteRows[i].id, kSiteRows[i].name, ""};
  return named;
}();
// Invariant (1): kSiteRows in Site's order, every site once.
static_assert(sim::names_every_value(kSiteNamed));

// The names alone, in the enum's order: what the kernel is handed (sim/faults.h).
inline constexpr std::array<std::string_view, kSiteCount> kSiteNames =
    sim::names_by_value(kSiteNamed);

}  // namespace orders

namespace sim {
template <>
constexpr std::span<const Named<orders::Site>> enum_names<orders::Site>() {
  return orders::kSiteNamed;
}
}  // namespace sim

namespace orders {

constexpr const SiteRow& site_row(Site site) { return kSiteRows[static_cast<std::size_t>(site)]; }
constexpr std::string_view site_name(Site site) { return sim::name_of(site); }
// Its id in a fault plan handed kSiteNames (transport::name_lab_ids).
constexpr sim::SiteId site_id(Site site) { return static_cast<sim::SiteId>(site); }
constexpr bool is_network(Site site) { return !site_row(site).peer.empty(); }
// Sites a fault reaches only when a rule names it: random faults never draw there and
// explore does not try them (sim::FaultPoint::scripted_only). They came after the
// random draws of every existing scenario and sweep were pinned, and drawing at them
// would move every one of those draws.
constexpr bool scripted_only(Site site) {
  return site == Site::kDbCommitReply || site == Site::kDbRestart ||
         site == Site::kDbProducerCommitReply || site == Site::kDbProducerRestart ||
         site == Site::kDbSerializationFailure || site == Site::kDbDeadlock ||
         site == Site::kDedupMarkReply;
}
// The database link's faults, the consumer's (db.commit_reply, db.restart) and the order
// service's (db.producer_*): a COMMIT's reply lost, the server restarted.
constexpr bool is_commit_reply(Site site) {
  return site == Site::kDbCommitReply || site == Site::kDbProducerCommitReply;
}
// The separate dedup store's link (dedup.mark_reply): the mark's reply lost.
constexpr bool is_mark_reply(Site site) { return site == Site::kDedupMarkReply; }
constexpr bool is_db_restart(Site site) {
  return site == Site::kDbRestart || site == Site::kDbProducerRestart;
}

// nullopt for a name no site has.
constexpr std::optional<Site> site_named(std::string_view name) {
  return sim::value_named<Site>(name);
}

}  // namespace orders
