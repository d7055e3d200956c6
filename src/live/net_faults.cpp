#include "src/live/net_faults.h"

#include <signal.h>

#include <chrono>

#include "sim/network.h"
#include "sim/trace.h"
#include "src/catalog/fault_sites.h"
#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"

namespace live {

namespace {

struct KindRow {
  Direction direction;
  MethodId method;
  const char* kind;
};

// The methods the model's actors and broker send, by the name the fault rules use.
constexpr KindRow kKinds[] = {
    {Direction::kClientToBroker, {60, 40}, "basic.publish"},
    {Direction::kClientToBroker, {85, 10}, "confirm.select"},
    {Direction::kClientToBroker, {60, 80}, "basic.ack"},
    {Direction::kClientToBroker, {60, 120}, "basic.nack"},
    {Direction::kClientToBroker, {60, 90}, "basic.reject"},
    {Direction::kClientToBroker, {60, 10}, "basic.qos"},
    {Direction::kClientToBroker, {60, 20}, "basic.consume"},
    {Direction::kBrokerToClient, {60, 60}, "basic.deliver"},
    {Direction::kBrokerToClient, {60, 80}, "confirm.ack"},
    {Direction::kBrokerToClient, {60, 120}, "basic.nack"},
    {Direction::kBrokerToClient, {60, 50}, "basic.return"},
    {Direction::kBrokerToClient, {20, 40}, "channel.close"},
};

bool is_settle(const MethodId& m) {
  return m.class_id == 60 && (m.method_id == 80 || m.method_id == 90 || m.method_id == 120);
}

}  // namespace

std::string model_frame_kind(Direction direction, const MethodId& method) {
  for (const KindRow& row : kKinds) {
    if (row.direction == direction && row.method == method) return row.kind;
  }
  return "";
}

bool has_network_rules(const lab::Scenario& scenario) {
  for (const sim::FaultRule& rule : scenario.script) {
    const lab::FaultSite* site = lab::find_fault_site(rule.site);
    if (site != nullptr && site->is_network()) return true;
  }
  return false;
}

NetFaults::NetFaults(const lab::Scenario& s, NetFaultsOptions options)
    : options_(std::move(options)),
      frames_(options_.nodes.size()),
      consumes_(options_.nodes.size()),
      groups_(options_.nodes.size()),
      held_(options_.nodes.size()) {
  // The far end of a broken connection: after heartbeat_timeout ticks, or by the real
  // heartbeats when the scenario has them (each side's own detection).
  if (!s.network.heartbeat) notice_ms_ = s.network.heartbeat_timeout * options_.tick_ms;
  std::vector<sim::FaultRule> rules;
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    const lab::FaultSite* site = lab::find_fault_site(s.script[i].site);
    if (site == nullptr || !site->is_network()) continue;
    rules.push_back(s.script[i]);
    delays_.push_back(i < options_.kill_delays_ms.size() ? options_.kill_delays_ms[i] : 0);
  }
  rule_fired_.assign(rules.size(), 0);
  plan_.set_rules(std::move(rules));
  trace_.open(options_.run_dir + "/trace-proxy.jsonl", std::ios::app);
  // A lost write only costs a consumer the exact count (it falls back to its own): the
  // run's record needs no fsync.
  if (store::Db::open(options_.run_dir + "/deliveries.db", attempts_).ok()) {
    (void)attempts_.exec("PRAGMA synchronous=OFF");
  }
}

void NetFaults::record_attempt(const SeenFrame& f, std::int64_t order, std::int64_t attempt) {
  if (!attempts_.is_open()) return;
  store::Stmt& st = attempts_.statement(
      "INSERT INTO attempts(port, tag, order_id, attempt) VALUES(?1, ?2, ?3, ?4) "
      "ON CONFLICT(port, tag) DO UPDATE SET order_id = ?3, attempt = ?4");
  st.bind(1, static_cast<std::int64_t>(f.client_port))
      .bind(2, static_cast<std::int64_t>(f.delivery_tag))
      .bind(3, order)
      .bind(4, attempt);
  bool row = false;
  (void)st.step(row);
  st.reset();
  if (!options_.count_deliveries) return;
  store::Stmt& n = attempts_.statement(
      "INSERT INTO deliveries(order_id, n, redelivered) VALUES(?1, ?2, ?2 - 1) "
      "ON CONFLICT(order_id) DO UPDATE SET n = max(n, ?2), redelivered = max(n, ?2) - 1");
  (void)n.bind(1, order).bind(2, attempt).step(row);
  n.reset();
}

void NetFaults::count_client_frame(const SeenFrame& f) {
  if (f.direction != Direction::kClientToBroker || f.listener < 0 ||
      static_cast<std::size_t>(f.listener) >= frames_.size()) {
    return;
  }
  ++frames_[static_cast<std::size_t>(f.listener)];
  if (f.method.class_id == 60 && f.method.method_id == 20) {
    ++consumes_[static_cast<std::size_t>(f.listener)];
  }
}

int NetFaults::frames_from(int listener) const {
  return listener >= 0 && static_cast<std::size_t>(listener) < frames_.size()
             ? frames_[static_cast<std::size_t>(listener)].load()
             : 0;
}

int NetFaults::consumes_from(int listener) const {
  return listener >= 0 && static_cast<std::size_t>(listener) < consumes_.size()
             ? consumes_[static_cast<std::size_t>(listener)].load()
             : 0;
}

std::int64_t NetFaults::deliveries_of(std::int64_t order) const {
  const std::lock_guard<std::mutex> lock(delivered_mutex_);
  const auto it = delivered_.find(order);
  return it == delivered_.end() ? 0 : it->second;
}

NetFaults::~NetFaults() {
  for (std::thread& t : later_) t.join();
}

void NetFaults::kill(int listener) {
  std::int64_t delay_ms = 0;
  for (std::size_t i = 0; i < rule_fired_.size(); ++i) {
    if (plan_.times_fired(i) == rule_fired_[i]) continue;
    rule_fired_[i] = plan_.times_fired(i);
    delay_ms = delays_[i];
  }
  std::atomic<pid_t>& slot = groups_[static_cast<std::size_t>(listener)];
  const pid_t group = slot.load();
  if (group <= 0) return;
  if (delay_ms <= 0) {
    ::kill(-group, SIGKILL);
    return;
  }
  // The same process group if it still runs then: a consumer started again meanwhile is
  // another process, which this fault was not about.
  later_.emplace_back([&slot, group, delay_ms] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    if (slot.load() == group) ::kill(-group, SIGKILL);
  });
}

void NetFaults::set_group(int listener, pid_t pgid) {
  if (listener >= 0 && static_cast<std::size_t>(listener) < groups_.size()) {
    groups_[static_cast<std::size_t>(listener)] = pgid;
  }
}

void NetFaults::track_held(const SeenFrame& f) {
  if (f.listener < 0 || static_cast<std::size_t>(f.listener) >= held_.size()) return;
  const std::lock_guard<std::mutex> lock(held_mutex_);
  Holding& h = held_[static_cast<std::size_t>(f.listener)];
  if (f.connection > h.connection) {
    const std::int64_t now = WallClock::monotonic_ms();
    h = Holding{f.connection, {}, now, now, false, false};
  }
  if (f.connection != h.connection) return;  // an old connection's last frames
  if (f.direction == Direction::kClientToBroker && f.method == MethodId{60, 20}) {
    h.consumed = true;
    h.auto_ack = h.auto_ack || f.no_ack;
  }
  // Under auto-ack the broker counts a delivery settled as it sends it: the consumer holds
  // nothing the broker would give back.
  const bool deliver =
      f.direction == Direction::kBrokerToClient && f.method == MethodId{60, 60} && !h.auto_ack;
  const bool settle = f.direction == Direction::kClientToBroker && is_settle(f.method);
  if (deliver) h.tags[f.delivery_tag] = f.order;
  if (settle && f.multiple) {
    h.tags.erase(h.tags.begin(),
                 f.delivery_tag == 0 ? h.tags.end() : h.tags.upper_bound(f.delivery_tag));
  } else if (settle) {
    h.tags.erase(f.delivery_tag);
  }
  if (deliver || settle) h.since_ms = WallClock::monotonic_ms();
}

bool NetFaults::logging_in(int listener, std::int64_t now_ms) const {
  if (listener < 0 || static_cast<std::size_t>(listener) >= held_.size()) return false;
  const std::lock_guard<std::mutex> lock(held_mutex_);
  const Holding& h = held_[static_cast<std::size_t>(listener)];
  return h.connection != 0 && !h.consumed && now_ms - h.opened_ms < kLoginGraceMs;
}

NetFaults::Held NetFaults::held_by(int listener) const {
  Held out;
  if (listener < 0 || static_cast<std::size_t>(listener) >= held_.size()) return out;
  const std::lock_guard<std::mutex> lock(held_mutex_);
  const Holding& h = held_[static_cast<std::size_t>(listener)];
  for (const auto& [tag, order] : h.tags) out.orders.push_back(order);
  out.since_ms = h.since_ms;
  return out;
}

ProxyAction NetFaults::judge(const SeenFrame& f) {
  count_client_frame(f);
  track_held(f);
  const std::string kind = model_frame_kind(f.direction, f.method);
  if (kind.empty() || f.listener < 0 ||
      static_cast<std::size_t>(f.listener) >= options_.nodes.size()) {
    return {};
  }
  const std::string& node = options_.nodes[static_cast<std::size_t>(f.listener)];
  const std::string site = f.direction == Direction::kClientToBroker
                               ? "net." + sim::node_role(node) + "->broker"
                               : "net.broker->" + sim::node_role(node);
  const lab::FaultSite* info = lab::find_fault_site(site);
  if (info == nullptr || !info->carries(kind)) return {};

  std::int64_t order = f.order;
  std::int64_t attempt = 0;
  if (kind == "basic.deliver" || kind == "basic.publish") {
    attempt = ++sends_[{site, order}];
    if (kind == "basic.deliver") {
      tags_[{f.connection, f.delivery_tag}] = {order, attempt};
      record_attempt(f, order, attempt);
      const std::lock_guard<std::mutex> lock(delivered_mutex_);
      delivered_[order] = attempt;
    }
  } else if (f.direction == Direction::kClientToBroker && is_settle(f.method)) {
    const auto it = tags_.find({f.connection, f.delivery_tag});
    if (it != tags_.end()) {
      order = it->second.order;
      attempt = it->second.attempt;
    }
  }
  const std::optional<sim::FaultAction> fired = plan_.check(
      {plan_.sites().id(site), lab::Action::kDrop,
       orders::order_key(order, attempt, sim::node_instance(node)), plan_.frames().id(kind)});
  if (!fired) return {};
  on_fired(plan_.fired().back(), f);
  if (*fired == lab::Action::kCrash) {
    // Forwarded all the same (the pass below): the consumer dies holding the delivery, or
    // with its ack gone out. Asio writes the frame before this thread reads the reset.
    kill(f.listener);
    return {};
  }
  ProxyAction action;
  action.kind = *fired == lab::Action::kFreeze ? ProxyAction::kFreeze : ProxyAction::kDrop;
  action.notice_ms = notice_ms_;
  return action;
}

void NetFaults::on_fired(sim::FiredFault fault, const SeenFrame& f) {
  const WallClock clock(options_.origin_ms, options_.tick_ms);
  fault.time = clock.now();
  append_fired(options_.run_dir, fault);
  const std::string& node = options_.nodes[static_cast<std::size_t>(f.listener)];
  const bool up = f.direction == Direction::kClientToBroker;
  sim::TraceEvent e;
  e.time = fault.time;
  e.actor = up ? node : "broker";
  e.target = up ? "broker" : node;
  e.subject = fault.key[orders::kOrder];
  e.kind = sim::EventKind::kFault;
  e.detail = fault.site + " -> " + std::string(sim::fault_action_name(fault.action)) + " " +
             fault.frame + " #" + std::to_string(fault.nth) + " (fault proxy, connection " +
             std::to_string(f.connection) + ")";
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  const bool freeze = fault.action == lab::Action::kFreeze;
  const bool kill = fault.action == lab::Action::kCrash;
  e.kind = freeze ? sim::EventKind::kFrozen : kill ? sim::EventKind::kCrash : sim::EventKind::kLost;
  e.actor = kill ? node : e.actor;
  e.target = kill ? "" : e.target;
  e.detail = freeze ? "the connection carries nothing more either way"
             : kill ? fault.frame + " forwarded, then " + node +
                          "'s process group is sent SIGKILL (fault proxy: no failpoint needed)"
                    : fault.frame + " dropped: the connection breaks, its sender is reset at once";
  trace_ << sim::format_jsonl(e, orders::kTraceNames) << '\n';
  trace_.flush();
}

}  // namespace live
