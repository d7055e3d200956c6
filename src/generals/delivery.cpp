// One delivery of a run as the Two Generals' couriers (see delivery.h).
#include "src/generals/delivery.h"
#include "src/orders/event_kinds.h"

namespace generals {

namespace {

bool is_delivery(const sim::TraceEvent& e) {
  return e.actor == "broker" && e.kind == sim::EventKind::kSend && e.subject > 0 &&
         e.detail.rfind("deliver", 0) == 0;
}

bool is_trouble(const sim::TraceEvent& e) {
  return e.kind == sim::EventKind::kFault || e.kind == sim::EventKind::kCrash ||
         e.kind == sim::EventKind::kLost || e.kind == orders::event::kDbError;
}

// Where the story of delivery `from` ends (exclusive): at the order's next delivery, or
// just after the broker receives the ack for it, or at the end of the trace.
std::size_t lifetime_end(const std::vector<sim::TraceEvent>& events, std::size_t from) {
  const std::int64_t order = events[from].subject;
  for (std::size_t i = from + 1; i < events.size(); ++i) {
    const sim::TraceEvent& e = events[i];
    if (e.subject != order) continue;
    if (is_delivery(e)) return i;
    if (e.actor == "broker" && e.kind == sim::EventKind::kRecv && e.detail.rfind("ack", 0) == 0) return i + 1;
  }
  return events.size();
}

// Events of this delivery's story: its order's, and what happened to its consumer's
// connection or process that names no order.
bool belongs(const sim::TraceEvent& e, const Delivery& d) {
  if (e.subject == d.order) return true;
  const bool about_consumer = e.actor == d.consumer || e.target == d.consumer;
  return e.subject == 0 && about_consumer &&
         (e.kind == sim::EventKind::kCrash || e.kind == sim::EventKind::kRestart ||
          e.kind == sim::EventKind::kDisconnected || e.kind == sim::EventKind::kBroken);
}

std::string knows(const sim::TraceEvent& e) {
  const bool deliver = e.detail.rfind("deliver", 0) == 0;
  const bool ack = e.detail.rfind("ack", 0) == 0;
  if (e.kind == sim::EventKind::kSend && deliver) {
    return e.detail.find("redelivered") != std::string::npos
               ? "courier 1 again: the consumer must see it is a repeat"
               : "courier 1 sent: the broker does not know whether it arrives";
  }
  if (e.kind == sim::EventKind::kRecv && deliver) return "the consumer has it; the broker does not know that";
  if (e.kind == orders::event::kCommit) return "the effect is done; the broker still does not know";
  if (e.kind == sim::EventKind::kCrash) return "the consumer forgets what it did not commit; no ack will come";
  if (e.kind == sim::EventKind::kSend && ack) return "courier 2 sent: the consumer will never learn if it arrives";
  if (e.kind == sim::EventKind::kRecv && ack) return "the broker knows; the consumer never learns that it does";
  if (e.kind == sim::EventKind::kLost) return "a courier is captured";
  if (e.kind == sim::EventKind::kDisconnected) {
    return "the broker requeues: it cannot tell a crash before the work from one after it";
  }
  if (e.kind == orders::event::kDuplicate)
    return "the consumer recognises the repeat: no second effect";
  return "";
}

}  // namespace

std::string Delivery::label() const {
  std::string text = "step " + std::to_string(step) + ": " + detail + " to " + consumer;
  if (!trouble.empty()) text += "  (" + trouble + ")";
  return text;
}

std::vector<Delivery> deliveries(const std::vector<sim::TraceEvent>& events) {
  std::vector<Delivery> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const sim::TraceEvent& e = events[i];
    if (!is_delivery(e)) continue;
    Delivery d{i,        e.step,   e.subject,
               e.target, e.detail, e.detail.find("redelivered") != std::string::npos,
               ""};
    const std::size_t end = lifetime_end(events, i);
    for (std::size_t j = i + 1; j < end && d.trouble.empty(); ++j) {
      if (is_trouble(events[j]) && belongs(events[j], d)) {
        d.trouble = std::string(orders::event_kind_name(events[j].kind)) + ": " + events[j].detail;
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::size_t default_delivery(const std::vector<Delivery>& list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].trouble.empty()) return i;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].redelivered) return i;
  }
  return list.empty() ? 0 : list.size() - 1;
}

std::string why_chosen(const Delivery& d) {
  if (!d.trouble.empty()) return "the first delivery that went wrong (" + d.trouble + ")";
  if (d.redelivered) return "the first redelivery";
  return "the last delivery (nothing went wrong in this run)";
}

std::vector<DeliveryStep> delivery_ladder(const std::vector<sim::TraceEvent>& events,
                                  const Delivery& d) {
  std::vector<DeliveryStep> rungs;
  if (d.event >= events.size()) return rungs;
  const std::size_t end = lifetime_end(events, d.event);
  // The order's next delivery, when there is one, is the last rung: courier 1 again.
  const std::size_t last = end < events.size() && is_delivery(events[end]) ? end : end - 1;
  for (std::size_t i = d.event; i <= last; ++i) {
    const sim::TraceEvent& e = events[i];
    if (!belongs(e, d)) continue;
    rungs.push_back(
        {e.step, e.actor,
         std::string(orders::event_kind_name(e.kind)) + (e.detail.empty() ? "" : ": " + e.detail),
         knows(e), is_trouble(e)});
  }
  return rungs;
}

}  // namespace generals
