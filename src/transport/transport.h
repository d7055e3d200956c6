#pragma once
// The seam under the actors (order service, relay, consumer): all they need from the world
// around them, so one implementation of each strategy runs in the simulator and against a
// real RabbitMQ.
//   Transport  connections to the broker: connect, send a method, close one / reset all,
//              and two callbacks, on_frame and on_disconnect.
//   Env        the actor's transport plus a clock and "later" (a sim::Scheduler: virtual
//              ticks in the simulator, ticks of wall time in a live actor process), the
//              fault plan its sites ask, and the trace it writes to.
// Implementations: SimTransport (the simulated network, sim_transport.h) and AmqpTransport
// (AMQP 0-9-1 over rabbitmq-c, src/live/amqp_transport.h). Actors include only this
// header: neither sim::Network nor rabbitmq-c.
//
// Invariants an implementation keeps:
//  (1) on_frame and on_disconnect run as events of the Env's scheduler, never inside a call
//      the actor makes into the transport.
//  (2) After on_disconnect(c), nothing more arrives on c; send(c, ...) returns false.
//  (3) Connection ids are never reused by one transport; 0 means "no connection".

#include <cstdint>
#include <functional>
#include <string>

#include "sim/faults.h"
#include "sim/kernel.h"
#include "sim/scheduler.h"
#include "sim/trace.h"
#include "src/broker/frames.h"
#include "src/orders/event_kinds.h"
#include "src/orders/fault_site.h"

namespace transport {

using ConnId = std::uint64_t;

// A method on its way to the broker, with what fault rules and the trace need (its frame
// kind is the method's: broker::kind_of).
struct Outgoing {
  broker::ClientMethod method;
  std::int64_t order = 0;    // the order it is about (0 = none)
  std::int64_t attempt = 0;  // the delivery attempt it settles (0 = n/a)
  // What a person reads in the trace is made from the method (broker::describe_payload).
};

struct Handlers {
  // The method is the receiver's to move from (a delivery is kept, not copied): nothing
  // reads it after. Its text for the trace is broker::summary_text(method).
  std::function<void(ConnId, broker::BrokerMethod&)> on_frame;
  std::function<void(ConnId)> on_disconnect;  // this end learned the connection died
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual void set_handlers(Handlers handlers) = 0;
  // Opens a connection (one channel) to the broker; 0 when refused.
  virtual ConnId connect() = 0;
  // False when the connection is known dead: nothing was sent.
  virtual bool send(ConnId conn, Outgoing frame) = 0;
  // This end closes one connection (a client library closing after a channel error).
  virtual void close(ConnId conn) = 0;
  // The process died: every connection it had is reset.
  virtual void reset_all() = 0;
  virtual bool is_open(ConnId conn) const = 0;
};

// Hands a fault plan the names of the ids the actors pass it: the lab's fault sites
// (src/orders/fault_site.h) and frame kinds (src/broker/frames.h). Every plan the actors
// run against is named so, before its rules are set.
inline void name_lab_ids(sim::FaultPlan& plan) {
  plan.sites().name_all(orders::kSiteNames);
  plan.frames().name_all(broker::kFrameKindNames);
}
// A kernel's fault plan as above, and its trace for the lab's event kinds
// (src/orders/event_kinds.h).
inline void name_lab_ids(sim::Kernel& kernel) {
  name_lab_ids(kernel.faults);
  kernel.trace.name_kinds(orders::kTraceNames.kinds);
}

struct Env {
  Transport& net;
  sim::Scheduler& scheduler;  // the clock (now) and "later" (after)
  sim::FaultPlan& faults;
  sim::Trace& trace;
};

}  // namespace transport
