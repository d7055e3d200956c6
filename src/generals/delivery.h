#pragma once
// The Two Generals inside a run: one delivery of the explored run read as couriers
// (basic.deliver is courier 1, basic.ack courier 2, and there is no courier 3). Which
// delivery to read matters: the one that went wrong teaches, an uneventful one does not.
// So the default is the first delivery whose handling met a fault (a fault fired, a frame
// was lost, the consumer crashed), else the first redelivery, else the last delivery.
//
// Invariants:
//  (1) Pure functions of the trace: the same events give the same choices and ladder.
//  (2) deliveries() lists every basic.deliver the broker sent for an order, in trace order.
//  (3) A ladder starts at its delivery and ends before the order's next delivery (that
//      redelivery is the ladder's last rung) or at the end of the trace.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"

namespace generals {

struct Delivery {
  std::size_t event = 0;  // index of the broker's "send deliver ..." in the trace
  std::uint64_t step = 0;
  std::int64_t order = 0;
  std::string consumer;   // "consumer1"
  std::string detail;     // "deliver tag=2 order-2"
  bool redelivered = false;
  std::string trouble;    // the first fault, crash or loss while it was handled ("" = none)
  std::string label() const;  // "step 12: deliver tag=2 order-2 (FAULT ...)"
};

std::vector<Delivery> deliveries(const std::vector<sim::TraceEvent>& events);
// Index into `list` of the delivery to show first; list.size() when the list is empty.
std::size_t default_delivery(const std::vector<Delivery>& list);
// Why the default was chosen, one sentence.
std::string why_chosen(const Delivery& delivery);

struct DeliveryStep {
  std::uint64_t step = 0;
  std::string actor;
  std::string event;  // the trace's kind and detail
  std::string knows;  // who knows what after it ("" when it changes nothing)
  bool trouble = false;
};

std::vector<DeliveryStep> delivery_ladder(const std::vector<sim::TraceEvent>& events,
                                  const Delivery& delivery);

}  // namespace generals
