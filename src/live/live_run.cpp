#include "src/live/live_run.h"

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <vector>

#include "sim/assert.h"
#include "src/catalog/fault_sites.h"
#include "src/checker/checker.h"
#include "src/live/actor_process.h"
#include "src/live/amqp_client.h"
#include "src/live/amqp_transport.h"
#include "src/live/fault_proxy.h"
#include "src/live/net_faults.h"
#include "src/live/process.h"
#include "src/orders/order_key.h"
#include "src/producer/design.h"
#include "src/store/db.h"
#include "src/world/actor_options.h"
#include "src/world/schema.h"

#include <nlohmann/json.hpp>

namespace live {

namespace {

namespace fs = std::filesystem;

struct Actor {
  ActorArgs args;
  pid_t pid = 0;
  std::int64_t restart_at_ms = -1;  // >= 0: killed by a crash site, back at this time
};

Status prepare_run_dir(const lab::Scenario& s, const LiveOptions& o, std::string& dir) {
  std::error_code ec;
  if (o.keep_db.empty()) {
    std::string pattern = (fs::temp_directory_path(ec) / "eosim-live-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) return Status::error("cannot create a run folder");
    dir = pattern;
    return Status::success();
  }
  dir = o.keep_db;
  fs::create_directories(dir, ec);
  if (ec) return Status::error("cannot create " + dir + ": " + ec.message());
  std::vector<std::string> names = lab::database_files(s);
  names.push_back("deliveries.db");
  names.push_back("trace.jsonl");  // written by `eosim live` after the run
  for (const std::string& name : names) {
    if (fs::exists(fs::path(dir) / name, ec)) {
      return Status::error((fs::path(dir) / name).string() +
                           " already exists; eosim does not replace it");
    }
  }
  return Status::success();
}

Status create_databases(const lab::Scenario& s, const std::string& dir) {
  const consumer::Strategy strategy = s.consumer.design();
  store::Db db;
  auto made = [&](const char* name, auto&& fill) -> store::Status {
    store::Status st = store::Db::open(dir + "/" + name, db);
    if (st.ok()) st = db.exec("PRAGMA journal_mode=WAL");  // readers never block the actors
    if (st.ok()) st = fill();
    db.close();
    return st;
  };
  store::Status st = made("orders.db", [&] { return lab::ready_orders_db(db); });
  if (st.ok()) {
    st = made("ledger.db", [&] {
      return lab::ready_ledger_db(db, s.workload.account, s.workload.initial_balance);
    });
  }
  if (st.ok() && strategy.choices.dedup == consumer::Dedup::kSeparateStore) {
    st = made("dedup.db", [&] { return lab::ready_dedup_db(db); });
  }
  if (st.ok() && strategy.side_effect != consumer::SideEffect::kNone) {
    st = made("effects.db", [&] { return db.exec(lab::kEffectsSchema); });
  }
  if (st.ok()) {
    st = made("deliveries.db", [&] {
      return db.exec("CREATE TABLE deliveries(order_id INTEGER PRIMARY KEY, n INTEGER NOT NULL, "
                     "redelivered INTEGER NOT NULL)");
    });
  }
  if (!st.ok()) return Status::error("cannot create the run's databases: " + st.to_string());
  return Status::success();
}

// The scenario's queues under this run's names.
broker::QueueOptions run_queue(const lab::Scenario& s, const std::string& prefix) {
  broker::QueueOptions q = lab::broker_options(s).queue;
  q.name = prefix + q.name;
  if (!q.dead_letter_queue.empty()) q.dead_letter_queue = prefix + q.dead_letter_queue;
  return q;
}

Status declare_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix) {
  const broker::QueueOptions q = run_queue(s, prefix);
  if (!q.dead_letter_queue.empty()) {
    broker::QueueOptions dlq;
    dlq.name = q.dead_letter_queue;
    dlq.durable = true;
    if (Status st = admin.declare_queue(dlq); !st.ok()) return st;
  }
  return admin.declare_queue(q);
}

// A broker.restart or broker.crash brought the node back: every durable queue of the run
// must have come back with it (the model's broker keeps them). One that did not would make
// its confirmed messages look lost by the design under test; the run is not judged then.
Status check_recovered(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix,
                       const std::string& site) {
  const broker::QueueOptions q = run_queue(s, prefix);
  std::vector<std::string> durable;
  if (q.durable) durable.push_back(q.name);
  if (!q.dead_letter_queue.empty()) durable.push_back(q.dead_letter_queue);
  for (const std::string& name : durable) {
    std::uint32_t ready = 0;
    if (Status st = admin.ready_count(name, ready); !st.ok()) {
      return Status::error("the private RabbitMQ came back from " + site +
                           " without the durable queue " + name + " (" + st.message +
                           "): its definition was not on disk, so the run cannot be judged");
    }
  }
  return Status::success();
}

// What a person watches, and what must stop changing before the run counts as settled.
struct Snapshot {
  std::int64_t committed = 0, unsent = 0, debits = 0, rejections = 0, deliveries = 0;
  std::uint32_t ready = 0;
  std::size_t faults = 0;
  std::int64_t most_delivered = 0;  // the delivery count of the order delivered most
  int silent_ends = 0;  // the fault proxy's silent connection ends still open
  bool operator==(const Snapshot&) const = default;
  // What the run has done to the world: the tables and the faults (not the queue).
  bool same_effects(const Snapshot& o) const {
    return committed == o.committed && unsent == o.unsent && debits == o.debits &&
           rejections == o.rejections && faults == o.faults;
  }
};

// An order delivered this often while nothing but deliveries changed for the quiet period
// is in a redelivery loop (a poison message requeued forever): the live counterpart of the
// model's step bound, which ends such a run too.
constexpr std::int64_t kLoopDeliveries = 20;

std::int64_t count(const std::string& path, const char* sql) {
  store::Db db;
  if (!store::Db::open(path, db).ok()) return -1;
  store::Stmt& st = db.statement(sql);
  bool row = false;
  const std::int64_t n = st.step(row).ok() && row ? st.column_int64(0) : -1;
  st.reset();
  return n;
}

Snapshot snapshot(const std::string& dir, AmqpClient& admin, const std::string& queue) {
  Snapshot s;
  s.committed = count(dir + "/orders.db", "SELECT COUNT(*) FROM orders");
  s.unsent = count(dir + "/orders.db", "SELECT COUNT(*) FROM outbox WHERE sent = 0");
  s.debits = count(dir + "/ledger.db", "SELECT COUNT(*) FROM debits");
  s.rejections = count(dir + "/ledger.db", "SELECT COUNT(*) FROM rejections");
  s.deliveries = count(dir + "/deliveries.db", "SELECT COALESCE(SUM(n), 0) FROM deliveries");
  if (!admin.ready_count(queue, s.ready).ok()) s.ready = 0;
  s.faults = read_fired(dir).size();
  s.most_delivered = count(dir + "/deliveries.db", "SELECT COALESCE(MAX(n), 0) FROM deliveries");
  return s;
}

std::string progress_line(const Snapshot& s, std::int64_t orders, std::int64_t elapsed_ms,
                          int restarts) {
  std::ostringstream line;
  line << "live: " << elapsed_ms / 1000 << '.' << (elapsed_ms % 1000) / 100 << " s, "
       << s.committed << '/' << orders << " orders committed, " << s.deliveries
       << " deliveries, " << s.debits << " debits, " << s.ready << " ready in the queue, "
       << s.faults << " faults, " << restarts << " restarts";
  return line.str();
}

sim::Tick tick_at(const ActorArgs& args, std::int64_t ms) {
  return ms <= args.origin_ms ? 0 : static_cast<sim::Tick>((ms - args.origin_ms) / args.tick_ms);
}

void start(Actor& actor, const std::string& self) {
  ChildSpec spec;
  spec.argv = actor_argv(self, actor.args);
  spec.output_path = actor.args.run_dir + "/" + actor.args.node() + ".log";
  actor.restart_at_ms = -1;
  if (!spawn(spec, actor.pid).ok()) actor.pid = 0;
}

void stop(Actor& actor) {
  if (actor.pid == 0) return;
  signal_group(actor.pid, SIGTERM);
  if (!wait_exit(actor.pid, 3000)) {
    signal_group(actor.pid, SIGKILL);
    wait_exit(actor.pid, 3000);
  }
  signal_group(actor.pid, SIGKILL);
  wait_group_gone(actor.pid, 3000);
  unregister_group(actor.pid);
  actor.pid = 0;
}

// Reaps an actor that ended; one killed by SIGKILL (a crash site) comes back after its
// restart delay. An error saying how when it ended some other way (a bug or a failed
// start).
eosim::Status reap(Actor& actor, std::int64_t now_ms, std::int64_t restart_ms,
                   std::vector<sim::TraceEvent>& events) {
  if (actor.pid == 0) return eosim::Status::success();
  int status = 0;
  if (::waitpid(actor.pid, &status, WNOHANG) != actor.pid) return eosim::Status::success();
  signal_group(actor.pid, SIGKILL);
  unregister_group(actor.pid);
  actor.pid = 0;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    actor.restart_at_ms = now_ms + restart_ms;
    events.push_back({0, tick_at(actor.args, now_ms), actor.args.node(), sim::EventKind::kCrash, "", 0,
                      "process killed by SIGKILL at its crash site"});
    return eosim::Status::success();
  }
  // The run folder may be gone when this is read: say what the log said.
  const std::string log = actor.args.run_dir + "/" + actor.args.node() + ".log";
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty()) last = line;
  }
  return eosim::Status::error(actor.args.node() + " ended on its own (" +
                              (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                                 : "signal " + std::to_string(WTERMSIG(status))) +
                              ")" + (last.empty() ? "" : ": " + last));
}

// Every message left in a queue, by order number: read without acking (the broker takes
// them all back when this connection closes).
std::vector<std::int64_t> drain(const Endpoint& endpoint, const std::string& queue) {
  std::vector<std::int64_t> orders;
  std::unique_ptr<AmqpClient> client;
  if (!AmqpClient::connect(endpoint, {}, client).ok()) return orders;
  if (!client->qos(0).ok() || !client->consume(queue, "eosim-drain", false).ok()) return orders;
  while (auto event = client->poll(300)) {
    if (const auto* d = std::get_if<broker::Delivery>(&*event)) {
      orders.push_back(d->message.order);
    } else {
      break;
    }
  }
  return orders;
}

lab::BrokerLeftovers leftovers(const lab::Scenario& s, const Endpoint& endpoint,
                               const std::string& prefix) {
  const broker::QueueOptions q = run_queue(s, prefix);
  lab::BrokerLeftovers left;
  left.ready = drain(endpoint, q.name);  // the unacked came back when the consumers stopped
  if (!q.dead_letter_queue.empty()) left.dead_lettered = drain(endpoint, q.dead_letter_queue);
  return left;
}

void delete_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix) {
  const broker::QueueOptions q = run_queue(s, prefix);
  (void)admin.delete_queue(q.name);
  if (!q.dead_letter_queue.empty()) (void)admin.delete_queue(q.dead_letter_queue);
}

// The actors' trace files and the supervisor's events, merged by wall tick (events of one
// process keep their order).
std::vector<sim::TraceEvent> merged_trace(const std::string& dir,
                                          std::vector<sim::TraceEvent> supervisor) {
  std::vector<sim::TraceEvent> all = std::move(supervisor);
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("trace-", 0) == 0 && entry.path().extension() == ".jsonl") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) continue;  // a line cut by a SIGKILL
      const auto kind = sim::parse_event_kind(j.value("kind", std::string()));
      if (!kind) continue;  // cut inside its kind by a SIGKILL
      sim::TraceEvent e;
      e.step = j.value("step", std::uint64_t{0});
      e.time = j.value("time", sim::Tick{0});
      e.actor = j.value("actor", std::string());
      e.kind = *kind;
      e.target = j.value("target", std::string());
      e.subject = j.value("order", std::int64_t{0});
      e.detail = j.value("detail", std::string());
      all.push_back(std::move(e));
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const sim::TraceEvent& a, const sim::TraceEvent& b) {
    return a.time < b.time;
  });
  std::uint64_t step = 0;
  for (sim::TraceEvent& e : all) e.step = ++step;
  return all;
}

Status judge(const lab::Scenario& s, const std::string& dir,
             const lab::BrokerLeftovers& left, lab::Report& report) {
  store::Db orders, ledger, effects;
  store::Status st = store::Db::open(dir + "/orders.db", orders);
  if (st.ok()) st = store::Db::open(dir + "/ledger.db", ledger);
  const bool has_effects = s.consumer.side_effect != consumer::SideEffect::kNone;
  if (st.ok() && has_effects) st = store::Db::open(dir + "/effects.db", effects);
  if (st.ok()) {
    st = lab::check(orders, ledger, left, s.workload.account, s.workload.initial_balance, report,
                    has_effects ? &effects : nullptr);
  }
  if (!st.ok()) return Status::error("checker: " + st.to_string());
  return Status::success();
}

std::vector<Actor> actors_of(const lab::Scenario& s, const ActorArgs& base) {
  std::vector<Actor> actors;
  for (std::int64_t i = 1; i <= s.consumer.instances; ++i) {
    Actor a{base};
    a.args.role = "consumer";
    a.args.instance = static_cast<int>(i);
    actors.push_back(a);
  }
  const producer::PatternPreset* preset = producer::find_pattern(s.producer.pattern);
  EOSIM_ASSERT(preset != nullptr);  // the scenario loader checked the name
  if (preset->pattern == producer::Pattern::kOutbox ||
      preset->pattern == producer::Pattern::kOutboxNoConfirm) {
    Actor relay{base};
    relay.args.role = "relay";
    actors.push_back(relay);
  }
  Actor producer{base};
  producer.args.role = "producer";
  actors.push_back(producer);
  return actors;
}

std::string url_of(const Endpoint& e) {
  return "amqp://" + e.user + ":" + e.password + "@" + e.host + ":" + std::to_string(e.port) +
         "/" + (e.vhost == "/" ? std::string("%2f") : e.vhost);
}

// The fault proxy between the actors and the broker, judging frames by the scenario's
// network rules; each actor gets its own listener (the judge knows whose frame it sees).
Status start_proxy(const lab::Scenario& s, const Endpoint& broker, std::vector<Actor>& actors,
                   std::unique_ptr<NetFaults>& net_faults, std::unique_ptr<FaultProxy>& proxy) {
  NetFaultsOptions nf;
  for (const Actor& a : actors) nf.nodes.push_back(a.args.node());
  nf.run_dir = actors.front().args.run_dir;
  nf.origin_ms = actors.front().args.origin_ms;
  nf.tick_ms = actors.front().args.tick_ms;
  net_faults = std::make_unique<NetFaults>(s, std::move(nf));
  ProxyOptions po;
  po.listeners = static_cast<int>(actors.size());
  NetFaults* judge = net_faults.get();
  po.judge = [judge](const SeenFrame& f) { return judge->judge(f); };
  if (Status st = FaultProxy::start(broker, po, proxy); !st.ok()) return st;
  for (std::size_t i = 0; i < actors.size(); ++i) {
    actors[i].args.broker_url = url_of(proxy->endpoint(static_cast<int>(i)));
  }
  return Status::success();
}

// "order 2 delivered 57 times ...": the loop that ended a run.
std::string loop_text(const std::string& dir, std::int64_t quiet_ms) {
  const std::int64_t n = count(dir + "/deliveries.db", "SELECT COALESCE(MAX(n), 0) FROM deliveries");
  const std::int64_t order = count(
      dir + "/deliveries.db", "SELECT order_id FROM deliveries ORDER BY n DESC, order_id LIMIT 1");
  std::ostringstream text;
  text << "order " << order << " delivered " << n << " times while nothing else changed for "
       << quiet_ms / 1000 << '.' << (quiet_ms % 1000) / 100
       << " s: a redelivery loop, stopped (as the model's step bound stops it)";
  return text.str();
}

// Everything the supervisor holds while the run goes on.
struct Supervision {
  const lab::Scenario& s;
  const LiveOptions& o;
  const Endpoint& endpoint;
  std::unique_ptr<AmqpClient> admin;  // null while the broker restarts
  std::string prefix;
  std::vector<Actor> actors;
  std::unique_ptr<NetFaults> net_faults;
  std::unique_ptr<FaultProxy> proxy;    // every actor reaches the broker through it
  std::vector<sim::TraceEvent> events;  // the supervisor's own (crash, restart, broker)
  std::string failure;                  // an actor that ended on its own
  std::size_t broker_faults_done = 0;   // broker faults of faults.log carried out
  std::int64_t no_settle_before_ms = 0;  // after a broker restart (restart_broker)
};

// After a broker restart the run may not settle for this long: an actor that connected
// while the node was still booting can sit in its login until rabbitmq-c's handshake
// timeout (12 s) gives up, and only then reconnect and publish again.
constexpr std::int64_t kAfterBrokerRestartMs = 15000;

// Whether `name` is the catalog's site `id`.
bool at_site(const std::string& name, lab::Site id) {
  const lab::FaultSite* site = lab::find_fault_site(name);
  return site != nullptr && site->id == id;
}

bool is_broker_stop(const std::string& site) {
  return at_site(site, lab::Site::kBrokerRestart) || at_site(site, lab::Site::kBrokerCrash);
}

// RabbitMQ answers queue.declare-ok before Mnesia has written the declaration to disk: a
// node SIGKILLed within a second or two may come back without the queue, and without the
// confirmed persistent messages it held (seen under load: "Recovering 0 queues of type
// rabbit_classic_queue" after broker.crash). The model's queues are durable from their
// declaration, so before a run that kills the private broker its definitions are written.
Status sync_definitions(const lab::Scenario& s, const LiveOptions& o) {
  if (o.broker == nullptr) return Status::success();
  const bool kills = std::any_of(s.script.begin(), s.script.end(), [](const sim::FaultRule& r) {
    return at_site(r.site, lab::Site::kBrokerCrash);
  });
  if (!kills) return Status::success();
  if (Status st = o.broker->sync_definitions(); !st.ok()) {
    return Status::error("cannot write the private RabbitMQ's queue definitions to disk: " +
                         st.message);
  }
  return Status::success();
}

// Carries out a broker fault the publisher logged: the private broker is stopped (SIGTERM
// for broker.restart, SIGKILL for broker.crash) and started again on the same data folder;
// the run's queues are declared again, as the model's broker does when it comes back up.
Status restart_broker(Supervision& sv, const ActorArgs& base, const sim::FiredFault& f,
                      LiveResult& out) {
  const bool kill = at_site(f.site, lab::Site::kBrokerCrash);
  const std::int64_t began = WallClock::monotonic_ms();
  sv.events.push_back({0, tick_at(base, began), "broker", sim::EventKind::kRestart, "",
                       f.key[orders::kOrder],
                       std::string("supervisor ") + (kill ? "SIGKILLs" : "stops (SIGTERM)") +
                           " the private RabbitMQ at " + f.site + " and starts it again"});
  if (sv.o.progress) sv.o.progress("live: restarting the private RabbitMQ (" + f.site + ")...");
  sv.admin.reset();
  if (Status st = sv.o.broker->restart(kill ? RestartKind::kKill : RestartKind::kClean);
      !st.ok()) {
    return Status::error("the private RabbitMQ did not come back after " + f.site + ": " +
                         st.message);
  }
  if (Status st = AmqpClient::connect(sv.endpoint, {}, sv.admin); !st.ok()) return st;
  if (Status st = check_recovered(sv.s, *sv.admin, sv.prefix, f.site); !st.ok()) return st;
  if (Status st = declare_queues(sv.s, *sv.admin, sv.prefix); !st.ok()) return st;
  if (Status st = sync_definitions(sv.s, sv.o); !st.ok()) return st;
  const std::int64_t up = WallClock::monotonic_ms();
  sv.events.push_back({0, tick_at(base, up), "broker", sim::EventKind::kUp, "", 0,
                       "accepting connections again after " + std::to_string(up - began) +
                           " ms"});
  ++out.broker_restarts;
  out.broker_restart_ms += up - began;
  sv.no_settle_before_ms = up + kAfterBrokerRestartMs;
  return Status::success();
}

// Reaps and restarts actors; false (sv.failure set) when one ended on its own.
bool tend_actors(Supervision& sv, std::int64_t now, bool& pending, LiveResult& out) {
  const std::int64_t restart_ms = 20 * sv.o.tick_ms;  // the actors' restart_ticks
  pending = false;
  for (Actor& a : sv.actors) {
    if (eosim::Status reaped = reap(a, now, restart_ms, sv.events); !reaped.ok()) {
      sv.failure = std::move(reaped.message);
      return false;
    }
    if (a.restart_at_ms >= 0 && now >= a.restart_at_ms) {
      sv.events.push_back({0, tick_at(a.args, now), a.args.node(), sim::EventKind::kRestart, "", 0,
                           "supervisor started the process again"});
      start(a, sv.o.self_exe);
      ++out.restarts;
    }
    pending = pending || a.restart_at_ms >= 0;
  }
  return true;
}

// Watches the run until it settles, times out or fails (sv.failure). Time the broker spent
// restarting does not count against the timeout: it is reported on its own.
void supervise(Supervision& sv, const ActorArgs& base, LiveResult& out) {
  const lab::Scenario& s = sv.s;
  const std::int64_t quiet_ms = std::max<std::int64_t>(1500, 100 * sv.o.tick_ms);
  const std::string queue = sv.prefix + "orders";
  const bool silence_ends = !s.network.heartbeat || *s.network.heartbeat > 0;
  Snapshot last;
  std::int64_t last_change_ms = base.origin_ms;
  std::int64_t last_effect_ms = base.origin_ms;
  for (;;) {
    ::usleep(100 * 1000);
    if (interrupted() != 0) {  // Ctrl-C: run_live stops everything, the caller cleans up
      sv.failure = "interrupted";
      return;
    }
    bool pending = false;
    if (!tend_actors(sv, WallClock::monotonic_ms(), pending, out)) return;
    pending = pending || WallClock::monotonic_ms() < sv.no_settle_before_ms;
    const std::vector<sim::FiredFault> fired = read_fired(out.run_dir);
    for (std::size_t i = 0, seen = 0; i < fired.size(); ++i) {
      if (!is_broker_stop(fired[i].site) || seen++ < sv.broker_faults_done) continue;
      ++sv.broker_faults_done;
      if (Status st = restart_broker(sv, base, fired[i], out); !st.ok()) {
        sv.failure = st.message;
        return;
      }
      last_change_ms = last_effect_ms = WallClock::monotonic_ms();
    }
    const std::int64_t now = WallClock::monotonic_ms();
    Snapshot snap = snapshot(out.run_dir, *sv.admin, queue);
    // A silent connection someone will notice (a timer of the proxy, heartbeats) is
    // still going: the broker gives back what it held once its end is closed.
    snap.silent_ends = sv.proxy->silent_ends();
    pending = pending || (snap.silent_ends > 0 && silence_ends);
    if (!snap.same_effects(last)) last_effect_ms = now;
    if (!(snap == last)) {
      last = snap;
      last_change_ms = now;
    }
    out.wall_ms = now - base.origin_ms;
    const std::string line = progress_line(snap, s.workload.orders, out.wall_ms, out.restarts);
    if (sv.o.progress) sv.o.progress(line);
    const bool produced = snap.committed >= s.workload.orders;
    const std::int64_t quiet = now - last_change_ms;
    if (!pending && quiet >= quiet_ms && (produced || quiet >= 3 * quiet_ms)) {
      out.wall_ms = last_change_ms - base.origin_ms;
      return;
    }
    if (!pending && produced && now - last_effect_ms >= quiet_ms &&
        snap.most_delivered >= kLoopDeliveries) {
      out.loop = loop_text(out.run_dir, quiet_ms);
      return;
    }
    if (out.wall_ms - out.broker_restart_ms >= std::int64_t{sv.o.timeout_s} * 1000) {
      out.timed_out = true;
      out.still_going = line;
      return;
    }
  }
}

}  // namespace

std::string live_refusal(const lab::Scenario& s) {
  for (const auto& [kind, ratio] : s.random.ratios) {
    if (ratio.numerator > 0) {
      return "random fault ratios ([faults.random] " + kind +
             ") cannot run live: a live run takes only scripted faults";
    }
  }
  for (const sim::FaultRule& rule : s.script) {
    if (rule.tick || rule.step || rule.after_step) {
      return "fault at " + rule.site +
             " is triggered by a tick or step, which wall time would decide; live runs take "
             "rules on content only (order, attempt, frame, nth)";
    }
    // Live so far: a process that kills itself at its site, a failing commit, a network
    // rule the fault proxy applies (net_faults.h), and the private broker stopped (or
    // killed) and started again.
    const lab::FaultSite* site = lab::find_fault_site(rule.site);
    const bool live_site = site != nullptr &&
                           (site->is_network() || site->action == lab::Action::kCrash ||
                            site->action == lab::Action::kFail ||
                            site->action == lab::Action::kRestart ||
                            site->action == lab::Action::kKill);
    if (!live_site) {
      return "fault at " + rule.site + " (" + std::string(lab::action_name(rule.action)) +
             ") cannot run live yet: live runs take crash sites, db.commit, network rules, "
             "broker.restart and broker.crash";
    }
  }
  if (s.network.client_timeout) {
    return "[network] client_timeout cannot run live: the real client library (rabbitmq-c) "
           "notices a silent broker after its own number of heartbeats";
  }
  return "";
}

std::string broker_refusal(const lab::Scenario& s) {
  if (s.broker.consumer_timeout > 0) {
    return "[broker] consumer_timeout is a setting of the whole RabbitMQ node (3.10 has no "
           "per-queue one): only the private RabbitMQ eosim starts (no --broker) is set";
  }
  for (const sim::FaultRule& rule : s.script) {
    if (is_broker_stop(rule.site)) {
      return "fault at " + rule.site +
             " stops the broker: only the private RabbitMQ eosim starts (no --broker) is "
             "restarted, never a broker given with --broker";
    }
  }
  return "";
}

Status run_live(const lab::Scenario& s, const Endpoint& endpoint, const LiveOptions& o,
                LiveResult& out) {
  // Several processes share the run's files: a lock held by another one is waited for.
  store::Db::set_live_lock_wait_ms(10000);
  if (o.broker != nullptr) {
    // The scenario's ticks in wall time; every run sets it (0: back to the default).
    if (s.broker.consumer_timeout > std::numeric_limits<int>::max() / o.tick_ms) {
      return Status::error("[broker] consumer_timeout is too long for RabbitMQ in milliseconds");
    }
    const auto ms = static_cast<int>(s.broker.consumer_timeout * o.tick_ms);
    if (Status st = o.broker->set_consumer_timeout(ms); !st.ok()) {
      return Status::error("cannot set the private RabbitMQ's consumer_timeout: " + st.message);
    }
  }
  if (Status st = prepare_run_dir(s, o, out.run_dir); !st.ok()) return st;
  if (Status st = create_databases(s, out.run_dir); !st.ok()) return st;
  Supervision sv{s, o, endpoint};
  if (Status st = AmqpClient::connect(endpoint, {}, sv.admin); !st.ok()) return st;
  sv.prefix = "eosim-live-" + std::to_string(::getpid()) + "-" +
              std::to_string(WallClock::monotonic_ms()) + "-";
  if (Status st = declare_queues(s, *sv.admin, sv.prefix); !st.ok()) return st;
  if (Status st = sync_definitions(s, o); !st.ok()) {
    delete_queues(s, *sv.admin, sv.prefix);
    return st;
  }

  ActorArgs base;
  base.scenario_path = s.path;
  base.strategy = o.strategy;
  base.producer = o.producer;
  base.run_dir = out.run_dir;
  base.queue_prefix = sv.prefix;
  base.origin_ms = WallClock::monotonic_ms();
  base.tick_ms = o.tick_ms;
  sv.actors = actors_of(s, base);
  // Every actor reaches the broker through the fault proxy, on a port of its own.
  if (Status st = start_proxy(s, endpoint, sv.actors, sv.net_faults, sv.proxy); !st.ok()) {
    delete_queues(s, *sv.admin, sv.prefix);
    return st;
  }
  for (Actor& a : sv.actors) start(a, o.self_exe);

  supervise(sv, base, out);
  for (Actor& a : sv.actors) stop(a);
  // A connection the proxy still holds silent (a frozen one, the far end of a broken one)
  // lets go now: the broker takes back what it held, and the drain below counts it.
  sv.proxy->stop();
  if (!sv.failure.empty()) {
    if (sv.admin) delete_queues(s, *sv.admin, sv.prefix);
    return Status::error(sv.failure);
  }
  const lab::BrokerLeftovers left = leftovers(s, endpoint, sv.prefix);
  if (sv.admin) delete_queues(s, *sv.admin, sv.prefix);
  sv.admin.reset();

  lab::RunSummary& r = out.summary;
  r.scenario = s.name;
  r.seed = s.seed;
  r.strategy = s.consumer.label();
  r.producer = s.producer.label();
  r.faults = read_fired(out.run_dir);
  r.redeliveries =
      std::max<std::int64_t>(0, count(out.run_dir + "/deliveries.db",
                                      "SELECT COALESCE(SUM(redelivered), 0) FROM deliveries"));
  r.time = static_cast<sim::Tick>(out.wall_ms / o.tick_ms);
  out.trace = merged_trace(out.run_dir, std::move(sv.events));
  r.trace_hash = 0xcbf29ce484222325ULL;  // FNV-1a's offset basis, as sim::Trace starts
  for (const sim::TraceEvent& e : out.trace) r.trace_hash = sim::hash_event(r.trace_hash, e);
  r.trace_events = out.trace.size();
  r.steps = out.trace.size();
  if (Status st = judge(s, out.run_dir, left, r.report); !st.ok()) return st;
  if (out.timed_out) {
    // Orders not yet through are on their way as far as anyone knows: not lost.
    r.cut_short = "stopped at its " + std::to_string(o.timeout_s) + " s timeout before it settled";
    lab::cut_short(r.report);
  }
  return Status::success();
}

}  // namespace live
