#include "src/live/actor_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>

#include "sim/kernel.h"
#include "src/catalog/fault_sites.h"
#include "src/consumer/consumer.h"
#include "src/live/amqp_transport.h"
#include "src/live/redis_store.h"
#include "src/live/run_folder.h"
#include "src/live/run_rules.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/producer/producer.h"
#include "src/store/db.h"
#include "src/store/failure.h"
#include "src/world/actor_options.h"
#include "src/world/broker_node.h"
#include "src/world/overrides.h"
#include "src/world/world.h"

namespace live {

namespace {

volatile std::sig_atomic_t g_stop = 0;
void on_term(int) { g_stop = 1; }

std::string field(const std::string& text) { return text.empty() ? "-" : text; }
std::string unfield(const std::string& text) { return text == "-" ? "" : text; }

// The rules a restarted actor still arms: each rule's `times` less what faults.log says
// it already fired.
std::vector<sim::FaultRule> rules_left(const std::vector<sim::FaultRule>& rules,
                                       const std::vector<sim::FiredFault>& fired) {
  const std::vector<std::int64_t> times = times_fired(rules, fired);
  std::vector<sim::FaultRule> left;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    if (rules[i].times > times[i]) {
      left.push_back(rules[i]);
      left.back().times -= times[i];
    }
  }
  return left;
}

// The deliveries of an order that consumers read, across every consumer process; and a
// delivery's attempt number: the broker's count, as the fault proxy recorded it when the
// frame passed (by this connection's port and the delivery tag), or else the count read.
class DeliveryCounter {
 public:
  bool open(const std::string& path) { return store::Db::open(path, db_).ok(); }
  std::int64_t attempt(const broker::Delivery& d, int local_port) {
    const std::int64_t read = count(d);
    store::Stmt& st = db_.statement(
        "SELECT attempt FROM attempts WHERE port = ?1 AND tag = ?2 AND order_id = ?3");
    st.bind(1, static_cast<std::int64_t>(local_port))
        .bind(2, static_cast<std::int64_t>(d.delivery_tag))
        .bind(3, d.message.order);
    bool row = false;
    const std::int64_t sent = st.step(row).ok() && row ? st.column_int64(0) : 0;
    st.reset();
    return sent > 0 ? sent : read;
  }

 private:
  std::int64_t count(const broker::Delivery& d) {
    store::Stmt& st = db_.statement(
        "INSERT INTO deliveries(order_id, n, redelivered) VALUES(?1, 1, ?2) "
        "ON CONFLICT(order_id) DO UPDATE SET n = n + 1, redelivered = redelivered + ?2 "
        "RETURNING n");
    st.bind(1, d.message.order).bind(2, d.redelivered ? 1 : 0);
    bool row = false;
    const store::Status s = st.step(row);
    const std::int64_t n = s.ok() && row ? st.column_int64(0) : 1;
    st.reset();
    return n;
  }

  store::Db db_;
};

// Where a restarted producer goes on: after the last order it committed, or after the one
// a producer crash site stopped it in (the simulated service had already moved past it).
std::int64_t next_order_after_restart(const std::string& orders_path, const std::string& run_dir) {
  std::int64_t last = 0;
  store::Db orders;
  if (store::Db::open(orders_path, orders).ok()) {
    store::Stmt& st = orders.statement("SELECT COALESCE(MAX(id), 0) FROM orders");
    bool row = false;
    if (st.step(row).ok() && row) last = st.column_int64(0);
    st.reset();
  }
  for (const sim::FiredFault& f : read_fired(run_dir)) {
    if (f.site.rfind("producer.", 0) == 0) last = std::max(last, f.key[orders::kOrder]);
  }
  return last + 1;
}

// The scheduler runs each event once its wall tick has come; between events the transport
// waits on the socket.
// It ends at a stop signal, or when the machine failed a step (a full disk: failure.h).
void event_loop(sim::Scheduler& scheduler, AmqpTransport& net, const WallClock& clock,
                const store::FailureWatch& failure) {
  while (g_stop == 0 && !failure.failed()) {
    while (g_stop == 0 && !failure.failed() && !scheduler.idle() &&
           scheduler.next_time() <= clock.now()) {
      scheduler.step();
    }
    std::int64_t wait_ms = 20;
    if (!scheduler.idle()) wait_ms = std::min(wait_ms, clock.ms_until(scheduler.next_time()));
    net.poll(static_cast<int>(wait_ms));
  }
}

}  // namespace

int heartbeat_seconds(std::optional<std::int64_t> heartbeat_ticks, std::int64_t tick_ms) {
  if (!heartbeat_ticks || *heartbeat_ticks <= 0) return 0;
  const std::int64_t ms = *heartbeat_ticks * tick_ms;
  return static_cast<int>(std::max<std::int64_t>(1, (ms + 999) / 1000));
}

std::string ActorArgs::node() const {
  return role == "consumer" ? "consumer" + std::to_string(instance) : role;
}

std::vector<std::string> actor_argv(const std::string& self, const ActorArgs& a) {
  return {self,
          "live-actor",
          "role=" + a.role,
          "instance=" + std::to_string(a.instance),
          "scenario=" + a.scenario_path,
          "strategy=" + a.strategy,
          "producer=" + a.producer,
          "run_dir=" + a.run_dir,
          "queue_prefix=" + a.queue_prefix,
          "origin_ms=" + std::to_string(a.origin_ms),
          "tick_ms=" + std::to_string(a.tick_ms)};
}

live::Status parse_actor_args(int argc, char** argv, ActorArgs& a) {
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) {
      return live::Status::error("live-actor: expected KEY=VALUE, got " + arg);
    }
    const std::string key = arg.substr(0, eq);
    const std::string value = arg.substr(eq + 1);
    try {
      if (key == "role") a.role = value;
      else if (key == "instance") a.instance = std::stoi(value);
      else if (key == "scenario") a.scenario_path = value;
      else if (key == "strategy") a.strategy = value;
      else if (key == "producer") a.producer = value;
      else if (key == "run_dir") a.run_dir = value;
      else if (key == "queue_prefix") a.queue_prefix = value;
      else if (key == "origin_ms") a.origin_ms = std::stoll(value);
      else if (key == "tick_ms") a.tick_ms = std::stoll(value);
      else {
        return live::Status::error("live-actor: unknown key " + key);
      }
    } catch (const std::exception&) {
      return live::Status::error("live-actor: " + key + " is not a number: " + value);
    }
  }
  // The URL holds the broker's password: it comes in the environment (kBrokerUrlEnv),
  // which only this user can read, never on the command line, which `ps` shows everyone.
  if (const char* url = std::getenv(kBrokerUrlEnv); url != nullptr) a.broker_url = url;
  if (a.broker_url.empty()) {
    return live::Status::error(std::string("live-actor: ") + kBrokerUrlEnv + " is not set");
  }
  if (a.role != "producer" && a.role != "relay" && a.role != "consumer") {
    return live::Status::error("live-actor: role must be producer, relay or consumer");
  }
  if (a.tick_ms <= 0) {
    return live::Status::error("live-actor: tick_ms must be positive");
  }
  return live::Status::success();
}

void append_fired(const std::string& run_dir, const sim::FiredFault& f) {
  std::ostringstream line;
  line << f.site << '\t' << sim::fault_action_name(f.action) << '\t' << f.key[orders::kOrder]
       << '\t' << f.key[orders::kAttempt] << '\t' << field(f.frame) << '\t' << f.nth << '\t'
       << f.key[orders::kInstance] << '\t' << f.time << '\n';
  const std::string text = line.str();
  // One write with O_APPEND: lines of several processes never interleave.
  const int fd = ::open((run_dir + "/faults.log").c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  const ssize_t written = ::write(fd, text.data(), text.size());
  (void)written;
  ::fsync(fd);
  ::close(fd);
}

bool fired_by(const sim::FaultRule& rule, const sim::FiredFault& f) {
  return f.site == rule.site && f.action == rule.action && rule.key.matches(f.key) &&
         (!rule.frame || *rule.frame == f.frame) && (!rule.nth || *rule.nth == f.nth);
}

std::vector<std::int64_t> times_fired(const std::vector<sim::FaultRule>& rules,
                                      const std::vector<sim::FiredFault>& fired) {
  std::vector<std::int64_t> times(rules.size(), 0);
  for (const sim::FiredFault& f : fired) {
    for (std::size_t i = 0; i < rules.size(); ++i) {
      if (times[i] < rules[i].times && fired_by(rules[i], f)) {
        ++times[i];
        break;  // the plan fires the first rule that matches
      }
    }
  }
  return times;
}

std::string database_restarts_path(const std::string& run_dir) {
  return run_dir + "/db-restarts.log";
}

bool wait_for_database_restart(const std::string& run_dir, std::int64_t bound_ms) {
  const std::string path = database_restarts_path(run_dir);
  if (!std::filesystem::exists(path)) return true;  // SQLite: the consumer does it all
  std::size_t asked = 0;
  for (const sim::FiredFault& f : read_fired(run_dir)) asked += is_database_restart(f.site);
  for (std::int64_t waited = 0; waited < bound_ms; waited += 20) {
    std::ifstream in(path);
    std::size_t done = 0;
    for (std::string line; std::getline(in, line);) ++done;
    if (done >= asked) return true;
    ::usleep(20 * 1000);
  }
  return false;
}

std::vector<sim::FiredFault> read_fired(const std::string& run_dir) {
  std::vector<sim::FiredFault> out;
  std::ifstream in(run_dir + "/faults.log");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    sim::FiredFault f;
    std::string action;
    std::string frame;
    if (fields >> f.site >> action >> f.key[orders::kOrder] >> f.key[orders::kAttempt] >> frame >>
            f.nth >> f.key[orders::kInstance] >> f.time &&
        sim::parse_fault_action(action)) {
      f.action = *sim::parse_fault_action(action);
      f.frame = unfield(frame);
      f.scripted = true;
      out.push_back(std::move(f));
    }
  }
  return out;
}

namespace {

// The scenario as the supervisor runs it: the file with the run's overrides.
eosim::Result<lab::Scenario> actor_scenario(const ActorArgs& a) {
  eosim::Result<lab::Scenario> s = lab::load_scenario(a.scenario_path);
  if (!s.ok()) return s.status();
  // The supervisor checked the names (lab::check_overrides) and sends no fault rule.
  return lab::apply_overrides(std::move(s.value()),
                              {.strategy = a.strategy, .producer = a.producer});
}

// The process's trace goes to its own file in the run folder; a fault it fires is logged
// for the supervisor (faults.log) and, for a crash, kills the process right there.
void wire_trace_and_faults(sim::Kernel& k, const ActorArgs& a, const lab::Scenario& s) {
  k.trace.keep(false);
  auto trace_out = std::make_shared<std::ofstream>(a.run_dir + "/trace-" + a.node() + ".jsonl",
                                                   std::ios::app);
  k.trace.add_sink([trace_out](const sim::TraceEvent& e) {
    *trace_out << sim::format_jsonl(e, orders::kTraceNames) << '\n';
    trace_out->flush();
  });
  transport::name_lab_ids(k);  // the actors name sites, frames and event kinds by id
  std::vector<sim::FaultRule> rules = rules_left(s.script, read_fired(a.run_dir));
  // Its database link through the fault proxy: the proxy loses the COMMIT's reply on the
  // wire (db_faults.h); the process does not stage it itself.
  if (!actor_store_url(a.run_dir, a.node()).empty()) {
    std::erase_if(rules, [](const sim::FaultRule& r) { return is_wire_database_rule(r); });
  }
  // Its separate dedup store's link through the proxy in front of Redis (resp_wire.h).
  if (!actor_dedup_url(a.run_dir, a.node()).empty()) {
    std::erase_if(rules, [](const sim::FaultRule& r) { return is_wire_dedup_rule(r); });
  }
  k.faults.set_rules(std::move(rules));
  k.faults.set_on_fire([&k, run_dir = a.run_dir, node = a.node()](const sim::FiredFault& f) {
    append_fired(run_dir, f);
    k.trace.record(node, sim::EventKind::kFault, "", f.key[orders::kOrder],
                   f.site + " -> " + std::string(sim::fault_action_name(f.action)));
    if (f.action == lab::Action::kCrash) {
      ::kill(::getpid(), SIGKILL);  // exactly here, as a crash is
    }
    // On the private PostgreSQL the supervisor crashes the server now, with this
    // consumer's transaction open; the consumer then goes on as in the model, its
    // connection gone.
    if (is_database_restart(f.site) && !wait_for_database_restart(run_dir, 60000)) {
      k.trace.record(node, sim::EventKind::kFault, "", f.key[orders::kOrder],
                     "db.restart: the supervisor did not restart the database within 60 s");
    }
  });
}

AmqpTransportOptions transport_options(const ActorArgs& a, const lab::Scenario& s,
                                       const Endpoint& endpoint, sim::Kernel& k,
                                       DeliveryCounter& deliveries) {
  AmqpTransportOptions net_options;
  net_options.endpoint = endpoint;
  net_options.queue_prefix = a.queue_prefix;
  net_options.heartbeat_s = heartbeat_seconds(s.network.heartbeat, a.tick_ms);
  net_options.trace = &k.trace;
  net_options.node = a.node();
  net_options.attempt_of = [&deliveries](const broker::Delivery& d, int local_port) {
    return deliveries.attempt(d, local_port);
  };
  // The broker's own faults: the publisher asks them as it publishes (the real broker
  // cannot be asked); faults.log tells the supervisor, which stops the broker.
  net_options.broker_stops_at = [&k](const transport::Outgoing& f) {
    return lab::stop_at_publish(k.faults, f.order, f.attempt).has_value();
  };
  return net_options;
}

// The one actor this process runs, by its role.
struct OwnActor {
  std::unique_ptr<consumer::Consumer> consumer;
  std::unique_ptr<producer::OrderService> service;
  std::unique_ptr<producer::Relay> relay;
};

// `popts` is the caller's: the order service and the relay keep a reference to it, so it
// must outlive them (a copy taken here by value left the relay reading a dead object).
OwnActor make_actor(const ActorArgs& a, const lab::Scenario& s, const transport::Env& env,
                    const lab::DbUris& uris, producer::ProducerOptions& popts) {
  OwnActor actor;
  if (a.role == "consumer") {
    actor.consumer = std::make_unique<consumer::Consumer>(
        env, lab::consumer_options(s, s.consumer.design(), a.instance, uris));
  } else if (a.role == "producer") {
    popts.first_order = next_order_after_restart(uris.orders, a.run_dir);
    actor.service = std::make_unique<producer::OrderService>(env, std::nullopt, popts);
  } else {
    popts.poll_ticks = 5;  // no order service in this process to kick it
    // Ids made at publish never repeat across restarts (a new process has no memory of
    // the ids the last one made; a real generator would not repeat them either).
    for (const sim::FiredFault& f : read_fired(a.run_dir)) {
      if (f.site.rfind("relay.", 0) == 0) popts.publish_ids_from += 1000000;
    }
    actor.relay = std::make_unique<producer::Relay>(env, popts);
  }
  return actor;
}

}  // namespace

int run_actor(const ActorArgs& a, std::ostream& err) {
  const eosim::Result<lab::Scenario> scenario = actor_scenario(a);
  if (!scenario.ok()) {
    err << scenario.message() << '\n';
    return 2;
  }
  const lab::Scenario& s = scenario.value();
  Endpoint endpoint;
  if (Status st = parse_amqp_url(a.broker_url, endpoint); !st.ok()) {
    err << st.message << '\n';
    return 2;
  }
  std::signal(SIGTERM, on_term);
  // Several processes share the run's files: a lock held by another one is waited for.
  store::Db::set_live_lock_wait_ms(10000);

  sim::Kernel k(s.seed, sim::TieBreak::kFifo);
  wire_trace_and_faults(k, a, s);
  DeliveryCounter deliveries;
  if (!deliveries.open(a.run_dir + "/deliveries.db")) {
    err << "live-actor: cannot open " << a.run_dir << "/deliveries.db\n";
    return 3;
  }
  const WallClock clock(a.origin_ms, a.tick_ms);
  AmqpTransport net(transport_options(a, s, endpoint, k, deliveries), k.scheduler, clock);
  const transport::Env env{net, k.scheduler, k.faults, k.trace};

  install_server_stores();  // --store postgres, --dedup-store redis: stores on a server
  const std::string node = a.node();
  const lab::DbUris uris{actor_store_uri(a.run_dir, "orders.db", node),
                         actor_store_uri(a.run_dir, "ledger.db", node),
                         actor_store_uri(a.run_dir, "dedup.db", node),
                         actor_store_uri(a.run_dir, "effects.db", node)};
  producer::ProducerOptions popts;
  if (const eosim::Status made = lab::producer_options(s, uris, popts); !made.ok()) {
    err << made.message << '\n';
    return 2;
  }
  const OwnActor actor = make_actor(a, s, env, uris, popts);
  k.scheduler.at(clock.now(), "live.start", [&] {
    k.trace.record(node, sim::EventKind::kStart, "", 0,
                   "process " + std::to_string(::getpid()) + " started");
    if (actor.consumer) actor.consumer->start();
    if (actor.service) actor.service->start();
    if (actor.relay) actor.relay->start();
  });
  store::FailureWatch failure;
  const store::FailureWatch::Active watching(failure);
  event_loop(k.scheduler, net, clock, failure);
  if (failure.failed()) {
    std::fprintf(stderr, "eosim live-actor %s: %s\n", node.c_str(),
                 failure.first().message.c_str());
    return 2;  // the machine's trouble, not a crash the run injected
  }
  return 0;
}

}  // namespace live
