#pragma once
// transport::Transport over a real RabbitMQ: AMQP 0-9-1 through rabbitmq-c (AmqpClient, one
// channel per connection). The actor's scheduler runs in wall time (WallClock): what the
// socket brings becomes an event at the current wall tick, so the actor code sees frames
// exactly as it does on the simulated network (transport.h, invariant 1).
//
// Queue names in methods (consume, publish's routing key) are the scenario's; the transport
// prefixes them with the run's own prefix, so runs against a user's broker never touch a
// queue of theirs.
//
// Invariants:
//  (1) A connection whose socket died, or whose send failed, is reported once through
//      on_disconnect (as a scheduler event) and forgotten; send on it then returns false.
//  (2) A delivery's attempt number comes from `attempt_of`, called once per delivery in
//      arrival order (the live run counts them per order, across processes).
//  (3) A publish at which a broker fault fired is written only once its connection is
//      gone (connection.close 320 from a broker stopping cleanly, or a reset from a killed
//      one): it meets a broker that is going down and never reaches a queue, as the model's
//      message enqueued but not yet synced is lost. send() still returns true: the
//      publisher wrote it, and learns of the lost connection through on_disconnect.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "sim/scheduler.h"
#include "sim/trace.h"
#include "src/live/amqp_client.h"
#include "src/live/endpoint.h"
#include "src/transport/transport.h"

namespace live {

// Ticks of wall time since a shared origin (CLOCK_MONOTONIC, the same in every process).
class WallClock {
 public:
  WallClock(std::int64_t origin_ms, std::int64_t tick_ms) : origin_ms_(origin_ms), tick_ms_(tick_ms) {}
  static std::int64_t monotonic_ms();
  sim::Tick now() const;
  // Milliseconds until wall tick `tick` begins (0 if it has).
  std::int64_t ms_until(sim::Tick tick) const;
  std::int64_t tick_ms() const { return tick_ms_; }

 private:
  std::int64_t origin_ms_;
  std::int64_t tick_ms_;
};

struct AmqpTransportOptions {
  Endpoint endpoint;
  std::string queue_prefix;  // prepended to every queue name
  int heartbeat_s = 0;
  // The delivery's attempt number, given the connection's local port (invariant 2).
  std::function<std::int64_t(const broker::Delivery&, int local_port)> attempt_of;
  // Where connects, refusals and lost connections are traced, as the model's network
  // traces them (null: not traced).
  sim::Trace* trace = nullptr;
  std::string node;  // this actor's name in the trace
  // Asked before each publish: true when a broker fault (broker.restart, broker.crash)
  // fired at it. The supervisor is then stopping the real broker; the publish waits until
  // this connection is gone (invariant 3).
  std::function<bool(const transport::Outgoing&)> broker_stops_at;
  int broker_stop_wait_ms = 60000;  // how long a publish waits for that, at most
};

class AmqpTransport final : public transport::Transport {
 public:
  AmqpTransport(AmqpTransportOptions options, sim::Scheduler& scheduler, const WallClock& clock);
  ~AmqpTransport() override;

  void set_handlers(transport::Handlers handlers) override { handlers_ = std::move(handlers); }
  transport::ConnId connect() override;
  bool send(transport::ConnId conn, transport::Outgoing frame) override;
  void close(transport::ConnId conn) override;
  void reset_all() override;
  bool is_open(transport::ConnId conn) const override;

  // Reads what the broker sent, waiting up to `timeout_ms` when nothing is there; every
  // frame and every lost connection becomes a scheduler event at the current wall tick.
  void poll(int timeout_ms);
  // Why the last connect() failed ("" after a success).
  const std::string& last_error() const { return last_error_; }

 private:
  Status apply(AmqpClient& client, const broker::ClientMethod& method);
  void lost(transport::ConnId conn, const std::string& why);
  // Invariant (3): reads (and passes on) what arrives until `conn` is gone.
  void wait_until_lost(transport::ConnId conn);
  void arrive(transport::ConnId conn, Event event);
  sim::Tick wall_now() const;

  AmqpTransportOptions options_;
  sim::Scheduler& scheduler_;
  const WallClock& clock_;
  transport::Handlers handlers_;
  std::map<transport::ConnId, std::unique_ptr<AmqpClient>> clients_;
  transport::ConnId next_conn_ = 1;
  std::string last_error_;
};

}  // namespace live
