#include "src/lab/catalog.h"

#include <algorithm>

#include "src/consumer/strategy.h"
#include "src/producer/design.h"

namespace lab {

bool FaultSite::allows(std::string_view action) const {
  return std::find(actions.begin(), actions.end(), action) != actions.end();
}

bool FaultSite::carries(std::string_view frame) const {
  return std::find(frames.begin(), frames.end(), frame) != frames.end();
}

// Built from the consumer's and producer's preset tables, the only lists of the presets.
const std::vector<CatalogEntry>& strategies() {
  static const std::vector<CatalogEntry> list = [] {
    std::vector<CatalogEntry> out;
    for (const auto& preset : consumer::presets()) out.push_back({preset.name, preset.meaning});
    return out;
  }();
  return list;
}

const std::vector<CatalogEntry>& producers() {
  static const std::vector<CatalogEntry> list = [] {
    std::vector<CatalogEntry> out;
    for (const auto& preset : producer::patterns()) out.push_back({preset.name, preset.meaning});
    return out;
  }();
  return list;
}

const std::vector<CatalogEntry>& queue_types() {
  static const std::vector<CatalogEntry> list = {
      {"classic", "classic queue: redelivers without limit"},
      {"quorum",
       "quorum queue: counts deliveries (x-delivery-count) and can enforce a "
       "delivery_limit"},
  };
  return list;
}

const std::vector<FaultSite>& fault_sites() {
  static const std::vector<FaultSite> list = {
      {"consumer.on_deliver", {"crash"},
       "the consumer crashes as a delivery arrives, before doing anything", {}, false},
      {"consumer.after_dedup_insert", {"crash"},
       "the consumer crashes after writing the dedup mark, before the debit commits", {},
       false},
      {"consumer.before_commit", {"crash"},
       "the consumer crashes with the debit written but not committed", {}, false},
      {"consumer.after_side_effect", {"crash"},
       "the consumer crashes right after sending its email (side_effect): before the commit "
       "(before-commit: the ledger rolls back, the email stays) or before the ack "
       "(after-commit)",
       {}, false},
      {"consumer.after_commit", {"crash"},
       "the consumer crashes after the commit, before the ack: the broker redelivers (with "
       "mark = after-commit, also before the separate store's mark; with dedup_retention, "
       "the redelivery comes after the heartbeat timeout and the restart, which may outlast "
       "the retention)",
       {}, false},
      {"consumer.after_ack", {"crash"}, "the consumer crashes right after sending the ack",
       {}, false},
      {"consumer.process", {"crash"},
       "the consumer process crashes at a moment (`tick` or `step`), whatever it is doing "
       "(the GUI's crash button)",
       {}, true, true},
      {"relay.after_publish", {"crash"},
       "the relay crashes after publishing, before the confirm: the row is published "
       "again",
       {}, false},
      {"relay.after_confirm", {"crash"},
       "the relay crashes after the confirm, before marking the row sent: the row is "
       "published again",
       {}, false},
      {"producer.after_commit", {"crash"},
       "the producer crashes after committing the order, before publishing", {}, false},
      {"producer.after_publish", {"crash"},
       "the producer crashes after publishing, before committing the order", {}, false},
      {"db.commit", {"fail"},
       "a commit fails with a transient error and the transaction rolls back", {}, false},
      {"broker.restart", {"restart"},
       "the broker restarts: connections drop, non-durable queues and transient messages "
       "are lost",
       {}, true},
      {"broker.crash", {"kill"},
       "the broker is killed (SIGKILL): like broker.restart, and every classic message it "
       "recovers comes back redelivered=true, delivered before or not",
       {}, false},
      {"broker.reorder", {"reorder"},
       "the broker reorders its ready messages, as requeues and competing consumers do", {},
       false},
      {"net.relay->broker", {"drop"},
       "a frame from the relay to the broker is lost and the connection dies (with `tick`: "
       "the connection breaks at that time)",
       {"basic.publish", "confirm.select"}, true},
      {"net.broker->relay", {"drop"},
       "a frame from the broker to the relay is lost and the connection dies (with `tick`: "
       "the connection breaks at that time)",
       {"confirm.ack", "basic.nack", "basic.return", "channel.close"}, true},
      {"net.producer->broker", {"drop"},
       "a frame from the producer to the broker is lost and the connection dies",
       {"basic.publish"}, true},
      {"net.broker->consumer", {"drop"},
       "a frame from the broker to a consumer is lost and the connection dies (with `tick`: "
       "the connection breaks at that time and the broker notices at once)",
       {"basic.deliver", "channel.close"}, true},
      {"net.consumer->broker", {"drop"},
       "a frame from a consumer to the broker is lost and the connection dies (with `tick`: "
       "the connection breaks at that time and the consumer notices at once)",
       {"basic.ack", "basic.nack", "basic.reject", "basic.qos", "basic.consume"}, true},
  };
  return list;
}

const std::vector<CatalogEntry>& fault_kinds() {
  static const std::vector<CatalogEntry> list = {
      {"drop", "a network frame is lost and takes its connection down with it"},
      {"crash", "an actor crashes at a crash site and restarts from its database"},
      {"fail", "a database commit fails with a transient error"},
      {"reorder", "the broker reorders its ready messages"},
      {"restart", "the broker restarts"},
      {"kill", "the broker is killed (an unclean crash: recovered messages say redelivered)"},
  };
  return list;
}

const std::vector<CatalogEntry>& frame_kinds() {
  static const std::vector<CatalogEntry> list = {
      {"basic.publish", "publisher to broker: a message"},
      {"basic.deliver", "broker to consumer: a delivery with its delivery tag"},
      {"basic.ack", "consumer to broker: done with a delivery (or all up to it)"},
      {"basic.nack",
       "consumer to broker: give a delivery back, requeued or not; broker to publisher: a "
       "negative confirm"},
      {"basic.reject", "consumer to broker: give one delivery back, requeued or not"},
      {"confirm.ack", "broker to publisher: the message is safely stored"},
      {"basic.return", "broker to publisher: a mandatory message could not be routed"},
      {"basic.qos", "consumer to broker: how many unacked deliveries it may hold (prefetch)"},
      {"basic.consume", "consumer to broker: start delivering from a queue"},
      {"confirm.select", "publisher to broker: turn on publisher confirms"},
      {"channel.close", "broker to client: a channel error (e.g. 406 for an unknown tag)"},
  };
  return list;
}

const std::vector<CatalogEntry>& verdicts() {
  static const std::vector<CatalogEntry> list = {
      {"exactly-once", "every committed order took effect once, nothing left behind"},
      {"duplicated", "some order took effect twice or more"},
      {"lost", "some committed order took no effect at all"},
      {"phantom", "some effect belongs to an order that was never committed"},
      {"stuck", "messages or outbox rows were still pending when the run ended"},
      {"incomplete",
       "the step bound ended the run before the workload was produced: no verdict on the "
       "design (raise max_steps)"},
  };
  return list;
}

namespace {

template <typename Entry>
const Entry* find_in(const std::vector<Entry>& list, std::string_view name) {
  for (const Entry& entry : list) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

template <typename Entry>
std::string join_entry_names(const std::vector<Entry>& list) {
  std::string out;
  for (const Entry& entry : list) {
    if (!out.empty()) out += ", ";
    out += entry.name;
  }
  return out;
}

}  // namespace

const CatalogEntry* find_strategy(std::string_view name) { return find_in(strategies(), name); }
const CatalogEntry* find_producer(std::string_view name) { return find_in(producers(), name); }
const CatalogEntry* find_queue_type(std::string_view name) {
  return find_in(queue_types(), name);
}
const FaultSite* find_fault_site(std::string_view name) { return find_in(fault_sites(), name); }
const CatalogEntry* find_fault_kind(std::string_view name) {
  return find_in(fault_kinds(), name);
}
const CatalogEntry* find_frame_kind(std::string_view name) {
  return find_in(frame_kinds(), name);
}
const CatalogEntry* find_verdict(std::string_view name) { return find_in(verdicts(), name); }

std::string join_names(const std::vector<CatalogEntry>& entries) {
  return join_entry_names(entries);
}
std::string join_names(const std::vector<FaultSite>& sites) { return join_entry_names(sites); }
std::string join_names(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace lab
