#include "src/catalog/catalog.h"

#include <algorithm>

#include "src/broker/message.h"
#include "src/consumer/strategy.h"
#include "src/producer/design.h"

namespace lab {

namespace {

// A listing of a preset table (name and meaning of each entry, in the table's order).
template <class Entry>
std::vector<CatalogEntry> entries_of(std::span<const Entry> table) {
  std::vector<CatalogEntry> out;
  for (const Entry& entry : table) out.push_back({entry.name, entry.meaning});
  return out;
}

}  // namespace

// Built from the consumer's and producer's preset tables, the only lists of the presets.
const std::vector<CatalogEntry>& strategies() {
  static const std::vector<CatalogEntry> list = entries_of(consumer::presets());
  return list;
}

const std::vector<CatalogEntry>& producers() {
  static const std::vector<CatalogEntry> list = entries_of(producer::patterns());
  return list;
}

// From the broker's QueueType name table.
const std::vector<CatalogEntry>& queue_types() {
  static const std::vector<CatalogEntry> list =
      entries_of(sim::enum_names<broker::QueueType>());
  return list;
}

const std::vector<CatalogEntry>& fault_kinds() {
  static const std::vector<CatalogEntry> list = entries_of(actions());
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
      {"balance-mismatch",
       "no order went wrong by the lists above, yet the account's balance is not the "
       "expected one (e.g. an order refused that the funds covered)"},
      {"incomplete",
       "the step bound ended the run before the workload was produced (raise max_steps), "
       "or a live run was stopped at its timeout before it settled: no verdict on the design"},
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
std::string join_names(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view name : names) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out;
}

}  // namespace lab
