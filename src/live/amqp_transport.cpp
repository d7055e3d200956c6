#include "src/live/amqp_transport.h"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

namespace live {

std::int64_t WallClock::monotonic_ms() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

sim::Tick WallClock::now() const {
  const std::int64_t elapsed = monotonic_ms() - origin_ms_;
  return elapsed <= 0 ? 0 : static_cast<sim::Tick>(elapsed / tick_ms_);
}

std::int64_t WallClock::ms_until(sim::Tick tick) const {
  const std::int64_t due = origin_ms_ + static_cast<std::int64_t>(tick) * tick_ms_;
  return std::max<std::int64_t>(0, due - monotonic_ms());
}

AmqpTransport::AmqpTransport(AmqpTransportOptions options, sim::Scheduler& scheduler,
                             const WallClock& clock)
    : options_(std::move(options)), scheduler_(scheduler), clock_(clock) {}

AmqpTransport::~AmqpTransport() = default;

sim::Tick AmqpTransport::wall_now() const { return std::max(clock_.now(), scheduler_.now()); }

transport::ConnId AmqpTransport::connect() {
  std::unique_ptr<AmqpClient> client;
  ClientOptions co;
  co.heartbeat_s = options_.heartbeat_s;
  const Status st = AmqpClient::connect(options_.endpoint, co, client);
  if (!st.ok()) {
    last_error_ = st.message;
    if (options_.trace) options_.trace->record(options_.node, sim::EventKind::kRefused, "broker", 0, st.message);
    return 0;
  }
  last_error_.clear();
  const transport::ConnId conn = next_conn_++;
  clients_[conn] = std::move(client);
  if (options_.trace) {
    options_.trace->record(options_.node, sim::EventKind::kConnect, "broker", 0,
                           "connection " + std::to_string(conn));
  }
  return conn;
}

Status AmqpTransport::apply(AmqpClient& c, const broker::ClientMethod& method) {
  const std::string& prefix = options_.queue_prefix;
  return std::visit(
      broker::Overloaded{
          [&](const broker::QosFrame& q) {
            return c.qos(static_cast<std::uint16_t>(std::min<std::uint32_t>(q.prefetch, 65535)));
          },
          [&](const broker::ConsumeFrame& f) {
            return c.consume(prefix + f.queue, f.consumer_tag, f.auto_ack);
          },
          [&](const broker::ConfirmSelectFrame&) { return c.confirm_select(); },
          [&](const broker::PublishFrame& p) {
            std::uint64_t seq = 0;
            return c.publish("", prefix + p.routing_key, p.message, p.mandatory, seq);
          },
          [&](const broker::AckFrame& a) { return c.ack(a.tag, a.multiple); },
          [&](const broker::NackFrame& n) { return c.nack(n.tag, n.multiple, n.requeue); },
          [&](const broker::RejectFrame& r) { return c.reject(r.tag, r.requeue); },
      },
      method);
}

bool AmqpTransport::send(transport::ConnId conn, transport::Outgoing frame) {
  auto it = clients_.find(conn);
  if (it == clients_.end() || !it->second->connected()) return false;
  if (std::holds_alternative<broker::PublishFrame>(frame.method) && options_.broker_stops_at &&
      options_.broker_stops_at(frame)) {
    wait_until_lost(conn);
    it = clients_.find(conn);
    if (it == clients_.end() || !it->second->connected()) return true;  // written too late
  }
  AmqpClient& client = *it->second;
  // A refused ack on a channel the broker already closed is what a client library does
  // too: the method goes nowhere, and the connection's events say why.
  const Status st = apply(client, frame.method);
  if (!st.ok() && !client.connected()) lost(conn, st.message);
  return true;
}

void AmqpTransport::close(transport::ConnId conn) {
  const auto it = clients_.find(conn);
  if (it == clients_.end()) return;
  it->second->close();
  clients_.erase(it);
}

void AmqpTransport::reset_all() {
  for (auto& [conn, client] : clients_) client->reset();
  clients_.clear();
}

bool AmqpTransport::is_open(transport::ConnId conn) const {
  const auto it = clients_.find(conn);
  return it != clients_.end() && it->second->connected();
}

void AmqpTransport::lost(transport::ConnId conn, const std::string& why) {
  if (clients_.erase(conn) == 0) return;
  scheduler_.at(wall_now(), "live.disconnect", [this, conn, why] {
    // Traced here, at the wall tick it was learned (poll runs between events).
    if (options_.trace) {
      options_.trace->record(options_.node, sim::EventKind::kDisconnected, "broker", 0,
                             "connection " + std::to_string(conn) + ": " + why);
    }
    if (handlers_.on_disconnect) handlers_.on_disconnect(conn);
  });
}

void AmqpTransport::wait_until_lost(transport::ConnId conn) {
  const std::int64_t deadline = WallClock::monotonic_ms() + options_.broker_stop_wait_ms;
  while (WallClock::monotonic_ms() < deadline) {
    const auto it = clients_.find(conn);
    if (it == clients_.end() || !it->second->connected()) return;
    if (std::optional<Event> event = it->second->poll(100)) arrive(conn, std::move(*event));
  }
}

void AmqpTransport::arrive(transport::ConnId conn, Event event) {
  if (const auto* gone = std::get_if<ConnectionLost>(&event)) {
    lost(conn, gone->text);
    return;
  }
  const auto it = clients_.find(conn);
  const int port = it == clients_.end() ? 0 : it->second->local_port();
  broker::BrokerMethod method = std::visit(
      broker::Overloaded{
          [&](broker::Delivery& d) -> broker::BrokerMethod {
            const std::int64_t attempt = options_.attempt_of ? options_.attempt_of(d, port) : 1;
            return broker::DeliverFrame{std::move(d), attempt};
          },
          [](broker::Confirm& c) -> broker::BrokerMethod { return c; },
          [](broker::Returned& r) -> broker::BrokerMethod { return std::move(r); },
          [](broker::ChannelClosed& c) -> broker::BrokerMethod { return std::move(c); },
          [](ConnectionLost&) -> broker::BrokerMethod { return broker::ChannelClosed{}; },
      },
      event);
  scheduler_.at(wall_now(), "live.frame", [this, conn, method = std::move(method)]() mutable {
    // A connection closed meanwhile by this end delivers nothing more.
    if (clients_.count(conn) == 0) return;
    if (handlers_.on_frame) handlers_.on_frame(conn, method);
  });
}

void AmqpTransport::poll(int timeout_ms) {
  if (clients_.empty()) {
    if (timeout_ms > 0) usleep(static_cast<useconds_t>(timeout_ms) * 1000);
    return;
  }
  // Every connection is looked at; only the last one waits (actors hold one at a time).
  std::vector<transport::ConnId> conns;
  for (const auto& [conn, client] : clients_) conns.push_back(conn);
  for (std::size_t i = 0; i < conns.size(); ++i) {
    const bool last = i + 1 == conns.size();
    int wait = last ? timeout_ms : 0;
    for (;;) {
      const auto it = clients_.find(conns[i]);
      if (it == clients_.end()) break;
      std::optional<Event> event = it->second->poll(wait);
      if (!event) break;
      wait = 0;  // drain what is already there without waiting again
      arrive(conns[i], std::move(*event));
    }
  }
}

}  // namespace live
