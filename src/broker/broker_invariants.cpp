// Broker::check_invariants: the invariants broker.h states, checked from the outside of
// every method (the unit tests call it after each one).
#include <set>
#include <string>
#include <utility>

#include "src/broker/broker.h"

namespace broker {
namespace {

std::string ref_text(ChannelRef ref) {
  return std::to_string(ref.conn) + "/" + std::to_string(ref.channel);
}

}  // namespace

std::string Broker::check_invariants() const {
  // A message is in exactly one place: (queue, seq) names it, and requeues keep its seq.
  std::set<std::pair<std::string, uint64_t>> placed;
  const auto place = [&placed](const std::string& queue, uint64_t seq, const std::string& where) {
    if (placed.emplace(queue, seq).second) return std::string();
    return "message " + std::to_string(seq) + " of queue " + queue + " is in two places (" + where +
           ")";
  };
  for (const auto& [name, q] : queues_) {
    for (const QueuedMessage& m : q.ready()) {
      if (std::string twice = place(name, m.seq, "ready"); !twice.empty()) return twice;
    }
    // No ready message a consumer with free capacity could take: dispatch ran.
    if (q.has_ready() && deliverable(q)) {
      for (const Consumer& c : q.consumers()) {
        if (c.has_capacity()) {
          return "queue " + name + " has a deliverable message while consumer " + c.tag + " on " +
                 ref_text(c.channel) + " has free capacity";
        }
      }
    }
    // Consumer records exist only for open channels, and the channel knows them.
    for (const Consumer& c : q.consumers()) {
      const auto channel = channels_.find(c.channel);
      if (channel == channels_.end()) {
        return "consumer " + c.tag + " of queue " + name + " is on closed channel " +
               ref_text(c.channel);
      }
      if (!channel->second.has_consumer(c.tag)) {
        return "consumer " + c.tag + " of queue " + name + " is unknown to its channel " +
               ref_text(c.channel);
      }
    }
  }
  for (const auto& [ref, ch] : channels_) {
    for (const auto& [tag, unacked] : ch.unacked()) {
      const std::string where = "unacked on " + ref_text(ref) + " tag " + std::to_string(tag);
      if (std::string twice = place(unacked.queue, unacked.entry.seq, where); !twice.empty()) {
        return twice;
      }
    }
  }
  return "";
}

}  // namespace broker
