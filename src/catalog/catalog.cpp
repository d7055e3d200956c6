#include "src/catalog/catalog.h"

#include <algorithm>

#include "src/broker/frames.h"
#include "src/broker/message.h"
#include "src/checker/verdict.h"
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

// From the broker's FrameKind name table, in the order a reader meets the frames (every
// kind but kNone, which names no frame).
const std::vector<CatalogEntry>& frame_kinds() {
  using F = broker::FrameKind;
  static const std::vector<CatalogEntry> list = [] {
    std::vector<CatalogEntry> out;
    for (const F kind : {F::kBasicPublish, F::kBasicDeliver, F::kBasicAck, F::kBasicNack,
                         F::kBasicReject, F::kConfirmAck, F::kBasicReturn, F::kBasicQos,
                         F::kBasicConsume, F::kConfirmSelect, F::kChannelClose}) {
      out.push_back({sim::name_of(kind), sim::meaning_of(kind)});
    }
    return out;
  }();
  return list;
}

// From the checker's Verdict name table, in the enum's order.
const std::vector<CatalogEntry>& verdicts() {
  static const std::vector<CatalogEntry> list = entries_of(sim::enum_names<Verdict>());
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
