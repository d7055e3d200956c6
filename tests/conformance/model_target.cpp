#include "tests/conformance/model_target.h"

namespace conformance {

namespace {
constexpr int kTickMs = 10;
}

ModelTarget::ModelTarget() : broker_(std::make_unique<broker::Broker>(*this)) {}

void ModelTarget::push(broker::ConnId conn, live::Event event) {
  auto it = owner_.find(conn);
  if (it != owner_.end()) inbox_[it->second].push_back(std::move(event));
}

broker::ChannelRef ModelTarget::ref(const std::string& client) {
  thaw(client);
  auto it = conns_.find(client);
  return broker::ChannelRef{it == conns_.end() ? 0 : it->second.id, 1};
}

void ModelTarget::thaw(const std::string& client) {
  auto it = conns_.find(client);
  if (it != conns_.end()) it->second.frozen = false;
}

live::Status ModelTarget::sync_reply(const std::string& client) {
  auto& inbox = inbox_[client];
  for (auto it = inbox.begin(); it != inbox.end(); ++it) {
    if (const auto* closed = std::get_if<broker::ChannelClosed>(&*it)) {
      live::Status s = live::Status::error(closed->text, closed->code);
      inbox.erase(it);
      return s;
    }
  }
  return live::Status::success();
}

live::Status ModelTarget::open(const std::string& client, int heartbeat_s) {
  if (auto it = conns_.find(client); it != conns_.end()) {
    broker_->connection_lost(it->second.id);
    owner_.erase(it->second.id);
  }
  const broker::ConnId id = next_conn_++;
  conns_[client] = Conn{id, heartbeat_s, false, 0};
  owner_[id] = client;
  inbox_[client].clear();
  broker_->open_channel({id, 1});
  return live::Status::success();
}

live::Status ModelTarget::declare(const broker::QueueOptions& queue) {
  broker_->declare_queue(queue);
  return live::Status::success();
}

live::Status ModelTarget::confirm_select(const std::string& client) {
  broker_->confirm_select(ref(client));
  return live::Status::success();
}

live::Status ModelTarget::qos(const std::string& client, std::uint16_t prefetch) {
  broker_->basic_qos(ref(client), prefetch);
  return live::Status::success();
}

live::Status ModelTarget::consume(const std::string& client, const std::string& queue,
                                  const std::string& tag, bool auto_ack) {
  broker_->basic_consume(ref(client), queue, tag, auto_ack);
  return sync_reply(client);
}

live::Status ModelTarget::cancel(const std::string& client, const std::string& tag) {
  broker_->basic_cancel(ref(client), tag);
  return live::Status::success();
}

live::Status ModelTarget::publish(const std::string& client, const std::string& exchange,
                                  const std::string& queue, const broker::Message& message,
                                  bool mandatory) {
  broker_->publish_to(ref(client), exchange, queue, message, mandatory);
  return live::Status::success();
}

live::Status ModelTarget::ack(const std::string& client, std::uint64_t tag, bool multiple) {
  broker_->ack(ref(client), tag, multiple);
  return live::Status::success();
}

live::Status ModelTarget::nack(const std::string& client, std::uint64_t tag, bool multiple,
                               bool requeue) {
  broker_->nack(ref(client), tag, multiple, requeue);
  return live::Status::success();
}

live::Status ModelTarget::reject(const std::string& client, std::uint64_t tag, bool requeue) {
  broker_->reject(ref(client), tag, requeue);
  return live::Status::success();
}

void ModelTarget::close(const std::string& client) {
  auto it = conns_.find(client);
  if (it == conns_.end()) return;
  broker_->connection_lost(it->second.id);
  owner_.erase(it->second.id);
  conns_.erase(it);
}

void ModelTarget::reset(const std::string& client) { close(client); }

void ModelTarget::freeze(const std::string& client) {
  auto it = conns_.find(client);
  if (it == conns_.end()) return;
  it->second.frozen = true;
  it->second.frozen_at = now_;
}

live::Status ModelTarget::restart(bool kill) {
  // A clean stop writes everything down first; a kill keeps only what was synced.
  if (!kill) broker_->sync();
  broker_->restart(kill ? broker::Broker::Stop::kCrash : broker::Broker::Stop::kClean);
  for (auto& [client, conn] : conns_) {
    inbox_[client].push_back(live::ConnectionLost{kill ? 0 : 320, kill ? "" : "CONNECTION_FORCED"});
    owner_.erase(conn.id);
  }
  conns_.clear();
  return live::Status::success();
}

// One step of virtual time: the broker's timers act (consumer_timeout, silent peers).
void ModelTarget::tick() {
  now_ += kTickMs;
  broker_->check_timeouts(now_, kConsumerTimeoutMs);
  std::vector<std::string> silent;
  for (const auto& [client, conn] : conns_) {
    const auto limit = broker::silent_peer_timeout(conn.heartbeat_s * 1000ULL);
    if (conn.frozen && limit && now_ - conn.frozen_at >= *limit) silent.push_back(client);
  }
  for (const std::string& client : silent) {
    // The broker closes the socket of a peer that missed its heartbeats: the client, when
    // it reads again, finds the connection gone.
    close(client);
    inbox_[client].push_back(live::ConnectionLost{0, "closed by the broker (missed heartbeats)"});
  }
}

std::optional<live::Event> ModelTarget::next_event(const std::string& client, int budget_ms) {
  thaw(client);
  broker_->sync();  // the real broker's fsync is quick; a drain always waits longer
  for (int waited = 0; inbox_[client].empty() && waited < budget_ms; waited += kTickMs) tick();
  auto& inbox = inbox_[client];
  if (inbox.empty()) return std::nullopt;
  live::Event event = std::move(inbox.front());
  inbox.pop_front();
  return event;
}

void ModelTarget::pause(int ms) {
  for (int waited = 0; waited < ms; waited += kTickMs) tick();
}

// No sync first: what a client has now is what the broker handed out before its disk
// caught up (conformance row 11).
std::vector<live::Event> ModelTarget::arrived(const std::string& client) {
  auto& inbox = inbox_[client];
  std::vector<live::Event> out(std::make_move_iterator(inbox.begin()),
                               std::make_move_iterator(inbox.end()));
  inbox.clear();
  return out;
}

live::Status ModelTarget::ready_count(const std::string& queue, std::uint32_t& ready) {
  if (!broker_->has_queue(queue)) {
    return live::Status::error("NOT_FOUND - no queue '" + queue + "'", 404);
  }
  broker_->sync();
  ready = static_cast<std::uint32_t>(broker_->queue(queue).ready.size());
  return live::Status::success();
}

}  // namespace conformance
