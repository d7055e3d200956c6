#include "tests/conformance/live_target.h"

#include <chrono>
#include <thread>

namespace conformance {

namespace {
const live::Status kNoClient = live::Status::error("no such client (script error)");
}

LiveTarget::LiveTarget(live::Endpoint endpoint, live::PrivateBroker* broker, std::string prefix)
    : endpoint_(std::move(endpoint)), broker_(broker), prefix_(std::move(prefix)) {}

LiveTarget::~LiveTarget() {
  clients_.clear();
  live::AmqpClient* a = nullptr;
  if (!admin(a).ok()) return;
  for (const std::string& q : declared_) {
    if (!a->delete_queue(real(q)).ok() && !a->reopen_channel().ok()) return;
  }
}

live::AmqpClient* LiveTarget::client(const std::string& name) {
  frozen_.erase(name);  // any action wakes a frozen client
  auto it = clients_.find(name);
  return it == clients_.end() ? nullptr : it->second.get();
}

live::Status LiveTarget::admin(live::AmqpClient*& out) {
  if (!admin_ || !admin_->connected()) {
    admin_.reset();
    if (live::Status s = live::AmqpClient::connect(endpoint_, {}, admin_); !s.ok()) return s;
  }
  if (!admin_->channel_open()) {
    if (live::Status s = admin_->reopen_channel(); !s.ok()) return s;
  }
  out = admin_.get();
  return live::Status::success();
}

std::string LiveTarget::logical(const std::string& name) const {
  return name.rfind(prefix_, 0) == 0 ? name.substr(prefix_.size()) : name;
}

void LiveTarget::unprefix(live::Event& event) const {
  const auto fix = [this](broker::Message& m) {
    if (m.deaths.get() == broker::DeathHeaders{}) return;
    broker::DeathHeaders& deaths = m.deaths.edit();
    for (broker::XDeath& d : deaths.x_death) {
      d.queue = logical(d.queue);
      for (std::string& k : d.routing_keys) k = logical(k);
    }
    deaths.x_first_death_queue = logical(deaths.x_first_death_queue);
  };
  if (auto* d = std::get_if<broker::Delivery>(&event)) {
    d->queue = logical(d->queue);
    fix(d->message);
  }
  if (auto* r = std::get_if<broker::Returned>(&event)) fix(r->message);
}

live::Status LiveTarget::open(const std::string& name, int heartbeat_s) {
  clients_.erase(name);
  inbox_[name].clear();
  frozen_.erase(name);
  std::unique_ptr<live::AmqpClient> c;
  if (live::Status s = live::AmqpClient::connect(endpoint_, {heartbeat_s}, c); !s.ok()) return s;
  clients_[name] = std::move(c);
  return live::Status::success();
}

live::Status LiveTarget::declare(const broker::QueueOptions& queue) {
  live::AmqpClient* a = nullptr;
  if (live::Status s = admin(a); !s.ok()) return s;
  broker::QueueOptions q = queue;
  q.name = real(queue.name);
  if (!q.dead_letter_queue.empty()) q.dead_letter_queue = real(q.dead_letter_queue);
  declared_.insert(queue.name);
  return a->declare_queue(q);
}

live::Status LiveTarget::confirm_select(const std::string& name) {
  live::AmqpClient* c = client(name);
  return c ? c->confirm_select() : kNoClient;
}

live::Status LiveTarget::qos(const std::string& name, std::uint16_t prefetch) {
  live::AmqpClient* c = client(name);
  return c ? c->qos(prefetch) : kNoClient;
}

live::Status LiveTarget::consume(const std::string& name, const std::string& queue,
                                 const std::string& tag, bool auto_ack) {
  live::AmqpClient* c = client(name);
  return c ? c->consume(real(queue), tag, auto_ack) : kNoClient;
}

live::Status LiveTarget::cancel(const std::string& name, const std::string& tag) {
  live::AmqpClient* c = client(name);
  return c ? c->cancel(tag) : kNoClient;
}

live::Status LiveTarget::publish(const std::string& name, const std::string& exchange,
                                 const std::string& queue, const broker::Message& message,
                                 bool mandatory) {
  live::AmqpClient* c = client(name);
  std::uint64_t seq = 0;
  return c ? c->publish(exchange, real(queue), message, mandatory, seq) : kNoClient;
}

live::Status LiveTarget::ack(const std::string& name, std::uint64_t tag, bool multiple) {
  live::AmqpClient* c = client(name);
  return c ? c->ack(tag, multiple) : kNoClient;
}

live::Status LiveTarget::nack(const std::string& name, std::uint64_t tag, bool multiple,
                              bool requeue) {
  live::AmqpClient* c = client(name);
  return c ? c->nack(tag, multiple, requeue) : kNoClient;
}

live::Status LiveTarget::reject(const std::string& name, std::uint64_t tag, bool requeue) {
  live::AmqpClient* c = client(name);
  return c ? c->reject(tag, requeue) : kNoClient;
}

void LiveTarget::close(const std::string& name) {
  if (live::AmqpClient* c = client(name)) c->close();
}

void LiveTarget::reset(const std::string& name) {
  if (live::AmqpClient* c = client(name)) c->reset();
}

void LiveTarget::freeze(const std::string& name) { frozen_.insert(name); }

live::Status LiveTarget::restart(bool kill) {
  if (broker_ == nullptr) return live::Status::error("cannot restart a broker we did not start");
  admin_.reset();
  return broker_->restart(kill ? live::RestartKind::kKill : live::RestartKind::kClean);
}

// Clients nobody waits for are still read, so they answer heartbeats and their events
// keep their order; frozen ones are left alone (that is what freezing means).
void LiveTarget::poll_others(const std::string& except) {
  for (auto& [name, c] : clients_) {
    if (name == except || frozen_.count(name) || !c->connected()) continue;
    if (auto event = c->poll(0)) inbox_[name].push_back(std::move(*event));
  }
}

std::optional<live::Event> LiveTarget::next_event(const std::string& name, int budget_ms) {
  live::AmqpClient* c = client(name);
  auto& inbox = inbox_[name];
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
  while (inbox.empty() && c != nullptr && c->connected() &&
         std::chrono::steady_clock::now() < deadline) {
    if (auto event = c->poll(20)) inbox.push_back(std::move(*event));
    poll_others(name);
  }
  if (inbox.empty()) return std::nullopt;
  live::Event event = std::move(inbox.front());
  inbox.pop_front();
  unprefix(event);
  return event;
}

void LiveTarget::pause(int ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    poll_others("");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::vector<live::Event> LiveTarget::arrived(const std::string& name) {
  live::AmqpClient* c = client(name);
  auto& inbox = inbox_[name];
  // What is already in the socket: read until the client has been quiet for 50 ms.
  while (c != nullptr && c->connected()) {
    auto event = c->poll(50);
    if (!event) break;
    inbox.push_back(std::move(*event));
  }
  std::vector<live::Event> out;
  for (live::Event& e : inbox) {
    unprefix(e);
    out.push_back(std::move(e));
  }
  inbox.clear();
  return out;
}

live::Status LiveTarget::ready_count(const std::string& queue, std::uint32_t& ready) {
  live::AmqpClient* a = nullptr;
  if (live::Status s = admin(a); !s.ok()) return s;
  return a->ready_count(real(queue), ready);
}

}  // namespace conformance
