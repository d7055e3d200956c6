// Broker: read-only views for the checker and the GUI.
#include <utility>

#include "sim/assert.h"
#include "src/broker/broker.h"

namespace broker {
namespace {

ReadyView ready_view(const QueuedMessage& m) { return ReadyView{m.seq, m.redelivered, m.message}; }

ChannelView channel_view(const Channel& ch) {
  ChannelView view;
  view.ref = ch.ref();
  view.prefetch = ch.prefetch();
  view.confirm_mode = ch.confirm_mode();
  view.last_delivery_tag = ch.last_delivery_tag();
  view.last_publish_seq = ch.last_publish_seq();
  for (const auto& [tag, u] : ch.unacked()) {
    view.unacked.push_back(UnackedView{tag, u.queue, u.consumer_tag, u.entry.redelivered,
                                       u.delivered_at, u.entry.message});
  }
  view.unconfirmed.assign(ch.unconfirmed().begin(), ch.unconfirmed().end());
  for (const auto& [tag, queue] : ch.consumers()) view.consumer_tags.push_back(tag);
  return view;
}

}  // namespace

std::vector<std::string> Broker::queue_names() const {
  std::vector<std::string> names;
  for (const auto& [name, q] : queues_) names.push_back(name);
  return names;
}

QueueView Broker::queue(const std::string& name) const {
  auto it = queues_.find(name);
  EOSIM_ASSERT(it != queues_.end());
  const Queue& q = it->second;
  QueueView view;
  view.options = q.options();
  view.ready = ready(name);
  for (const auto& [ref, ch] : channels_) {
    for (const auto& [tag, u] : ch.unacked()) {
      if (u.queue == name) ++view.unacked;
    }
  }
  view.consumers = q.consumers();
  return view;
}

std::vector<ReadyView> Broker::ready(const std::string& name) const {
  std::vector<ReadyView> views;
  auto it = queues_.find(name);
  if (it == queues_.end()) return views;
  for (const QueuedMessage& m : it->second.ready()) views.push_back(ready_view(m));
  return views;
}

std::optional<ChannelView> Broker::channel(ChannelRef ref) const {
  auto it = channels_.find(ref);
  if (it == channels_.end()) return std::nullopt;
  return channel_view(it->second);
}

std::vector<ChannelView> Broker::channels() const {
  std::vector<ChannelView> views;
  for (const auto& [ref, ch] : channels_) views.push_back(channel_view(ch));
  return views;
}

std::size_t Broker::ready_count() const {
  std::size_t n = 0;
  for (const auto& [name, q] : queues_) n += q.ready().size();
  return n;
}

std::size_t Broker::unacked_count() const {
  std::size_t n = 0;
  for (const auto& [ref, ch] : channels_) n += ch.unacked().size();
  return n;
}

}  // namespace broker
