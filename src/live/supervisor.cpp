#include "src/live/supervisor.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "sim/network.h"
#include "src/live/amqp_transport.h"
#include "src/live/pg_wire.h"
#include "src/live/postgres_launcher.h"
#include "src/live/postgres_store.h"
#include "src/live/run_folder.h"
#include "src/live/process.h"
#include "src/live/redis_store.h"
#include "src/live/resp_wire.h"
#include "src/live/run_queues.h"
#include "src/live/run_rules.h"
#include "src/live/settle.h"
#include "src/live/user_consumer.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_key.h"

namespace live {

Status start_proxy(Supervision& sv) {
  std::vector<Actor>& actors = sv.actors;
  NetFaultsOptions nf;
  for (const Actor& a : actors) nf.nodes.push_back(a.args.node());
  nf.run_dir = actors.front().args.run_dir;
  nf.origin_ms = actors.front().args.origin_ms;
  nf.tick_ms = actors.front().args.tick_ms;
  nf.count_deliveries = !sv.s.consumer.command.empty();
  nf.kill_delays_ms = sv.o.kill_delays_ms;
  sv.net_faults = std::make_unique<NetFaults>(sv.s, std::move(nf));
  ProxyOptions po;
  po.listeners = static_cast<int>(actors.size());
  NetFaults* judge = sv.net_faults.get();
  po.judge = [judge](const SeenFrame& f) { return judge->judge(f); };
  if (Status st = FaultProxy::start(sv.endpoint, po, sv.proxy); !st.ok()) return st;
  for (std::size_t i = 0; i < actors.size(); ++i) {
    actors[i].args.broker_url = sv.proxy->endpoint(static_cast<int>(i)).login_url();
  }
  return Status::success();
}

namespace {

// The user's consumer `a` reaches its ledger (EOSIM_LEDGER_URL) by `url` from now on.
void use_proxied_ledger(Actor& a, const std::string& url) {
  const std::string key = std::string(kLedgerUrlEnv) + "=";
  for (std::string& entry : a.env) {
    if (entry.starts_with(key)) entry = key + url;
  }
}

}  // namespace

namespace {

// The judge of a store's fault proxy: the run's actors by listener, the attempt of an
// order's delivery as the broker's proxy counts it.
DbFaultsOptions store_faults_options(const Supervision& sv, const std::string& trace_file) {
  DbFaultsOptions df;
  for (const Actor& a : sv.actors) df.nodes.push_back(a.args.node());
  df.run_dir = sv.actors.front().args.run_dir;
  df.origin_ms = sv.actors.front().args.origin_ms;
  df.tick_ms = sv.actors.front().args.tick_ms;
  df.trace_file = trace_file;
  NetFaults* net = sv.net_faults.get();
  df.attempt_of = [net](std::int64_t order) { return net->deliveries_of(order); };
  return df;
}

}  // namespace

Status start_dedup_proxy(Supervision& sv, LiveResult& out) {
  const std::string& run_dir = sv.actors.front().args.run_dir;
  const std::string url = store_uri(run_dir, "dedup.db");
  if (!is_redis_url(url)) return Status::success();
  RedisUrl u;
  if (Status st = parse_redis_url(url, u); !st.ok()) return st;
  Endpoint server;
  server.host = u.host;
  server.port = u.port;
  sv.dedup_faults =
      std::make_unique<DbFaults>(sv.s, store_faults_options(sv, "trace-dedupproxy.jsonl"));
  DbFaults* judge = sv.dedup_faults.get();
  ProxyOptions po;
  po.listeners = static_cast<int>(sv.actors.size());
  po.framer = redis_framing([judge](const CommitReply& r) { return judge->judge(r); });
  if (Status st = FaultProxy::start(server, po, sv.dedup_proxy); !st.ok()) return st;
  for (std::size_t i = 0; i < sv.actors.size(); ++i) {
    const Actor& a = sv.actors[i];
    // Only eosim's consumers use the separate store; the user's keeps its own stores.
    const std::string_view marker = orders::site_row(orders::Site::kDedupMarkReply).actor;
    if (!a.command.empty() || sim::node_role(a.args.node()) != marker) continue;
    const int port = sv.dedup_proxy->endpoint(static_cast<int>(i)).port;
    if (Status st = set_actor_dedup_url(run_dir, a.args.node(), redis_via_proxy(url, port));
        !st.ok()) {
      return st;
    }
  }
  out.dedup_link.proxied = true;
  return Status::success();
}

Status start_database_proxy(Supervision& sv, LiveResult& out) {
  const std::string& run_dir = sv.actors.front().args.run_dir;
  const std::string url = store_uri(run_dir, "ledger.db");
  if (sv.o.store_url.empty() || !url.starts_with("postgres")) return Status::success();
  Endpoint server;
  if (!proxyable_server(url, server, out.db_link.direct_why)) return Status::success();
  sv.db_faults = std::make_unique<DbFaults>(sv.s, store_faults_options(sv, "trace-dbproxy.jsonl"));
  DbFaults* judge = sv.db_faults.get();
  ProxyOptions po;
  po.listeners = static_cast<int>(sv.actors.size());
  po.framer = postgres_framing([judge](const CommitReply& r) { return judge->judge(r); });
  if (Status st = FaultProxy::start(server, po, sv.db_proxy); !st.ok()) return st;
  for (std::size_t i = 0; i < sv.actors.size(); ++i) {
    Actor& a = sv.actors[i];
    const int port = sv.db_proxy->endpoint(static_cast<int>(i)).port;
    if (!a.command.empty()) {  // the user's consumer: its own schema, through its listener
      use_proxied_ledger(a, via_proxy(user_ledger_url(run_dir), port));
      continue;
    }
    if (Status st = set_actor_store_url(run_dir, a.args.node(), via_proxy(url, port)); !st.ok()) {
      return st;
    }
  }
  out.db_link.proxied = true;
  return Status::success();
}

namespace {

// Carries out a broker fault the publisher logged: the private broker is stopped (SIGTERM
// for broker.restart, SIGKILL for broker.crash) and started again on the same data folder;
// the run's durable queues must have come back, and the queues are declared again, as the
// model's broker does when it comes back up.
Status restart_broker(Supervision& sv, const ActorArgs& base, const sim::FiredFault& f,
                      LiveResult& out) {
  const bool kill = is_broker_kill(f.site);
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
  if (Status st = sync_definitions(sv.s, sv.o.broker); !st.ok()) return st;
  const std::int64_t up = WallClock::monotonic_ms();
  sv.events.push_back({0, tick_at(base, up), "broker", sim::EventKind::kUp, "", 0,
                       "accepting connections again after " + std::to_string(up - began) +
                           " ms"});
  ++out.broker_restarts;
  out.broker_restart_ms += up - began;
  sv.no_settle_before_ms = up + kAfterBrokerRestartMs;
  return Status::success();
}

// Carries out a db.restart a consumer logged: the private PostgreSQL crashes and starts
// again on its folder and port (`-m immediate`: what was not committed is gone) while the
// consumer waits with its transaction open; a line in db-restarts.log lets it go on.
Status restart_database(Supervision& sv, const ActorArgs& base, const sim::FiredFault& f) {
  const std::int64_t began = WallClock::monotonic_ms();
  sv.events.push_back({0, tick_at(base, began), "database", sim::EventKind::kRestart, "",
                       f.key[orders::kOrder],
                       "supervisor crashes the private PostgreSQL (-m immediate) at " + f.site +
                           " and starts it again"});
  if (sv.o.progress) sv.o.progress("live: restarting the private PostgreSQL (" + f.site + ")...");
  if (Status st = sv.o.database->restart_immediate(); !st.ok()) {
    return Status::error("the private PostgreSQL did not come back after " + f.site + ": " +
                         st.message);
  }
  std::ofstream(database_restarts_path(base.run_dir), std::ios::app) << f.site << '\n';
  const std::int64_t up = WallClock::monotonic_ms();
  sv.events.push_back({0, tick_at(base, up), "database", sim::EventKind::kUp, "", 0,
                       "accepting connections again after " + std::to_string(up - began) +
                           " ms"});
  return Status::success();
}

// Carries out the broker and database faults logged since the last call; false
// (sv.failure set) when one could not be. Whether any was carried out goes to `restarted`.
bool carry_out_broker_faults(Supervision& sv, const ActorArgs& base, LiveResult& out,
                             bool& restarted) {
  restarted = false;
  const std::vector<sim::FiredFault> fired = read_fired(out.run_dir);
  for (std::size_t i = 0, brokers = 0, databases = 0; i < fired.size(); ++i) {
    Status st = Status::success();
    if (is_broker_stop(fired[i].site) && brokers++ >= sv.broker_faults_done) {
      ++sv.broker_faults_done;
      st = restart_broker(sv, base, fired[i], out);
    } else if (is_database_restart(fired[i].site) && sv.o.database != nullptr &&
               databases++ >= sv.database_faults_done) {
      ++sv.database_faults_done;
      st = restart_database(sv, base, fired[i]);
    } else {
      continue;
    }
    if (!st.ok()) {
      sv.failure = st.message;
      return false;
    }
    restarted = true;
  }
  return true;
}

// Starts `a` (the i-th actor, its listener on the fault proxy); the user's consumer's
// process group goes to the failpoint server.
Status start_one(Supervision& sv, Actor& a, std::size_t i) {
  if (Status st = start_actor(a, sv.o.self_exe); !st.ok()) return st;
  // A wire-triggered kill (net_faults.h) reaches a consumer by its group.
  // The consumers come first in sv.actors (actors_of).
  if (i < static_cast<std::size_t>(sv.s.consumer.instances)) {
    sv.net_faults->set_group(static_cast<int>(i), a.pid);
  }
  if (!a.command.empty()) {
    a.consumes_at_start = sv.net_faults->consumes_from(static_cast<int>(i));
    if (sv.failpoints) sv.failpoints->set_group(a.args.instance, a.pid);
  }
  return Status::success();
}

bool fail(Supervision& sv, Status st) {
  sv.failure = std::move(st.message);
  sv.failure_bad_input = st.bad_input;
  return false;
}

// After the user's consumer `a` (the i-th actor) was reaped: an error once it has ended on
// its own three times in a row without subscribing in between.
Status after_user_reap(Supervision& sv, Actor& a, std::size_t i, int ends_before) {
  if (sv.failpoints) sv.failpoints->set_group(a.args.instance, 0);
  if (a.ended_on_its_own == ends_before) return Status::success();
  const bool subscribed = sv.net_faults->consumes_from(static_cast<int>(i)) > a.consumes_at_start;
  a.ends_unsubscribed = subscribed ? 0 : a.ends_unsubscribed + 1;
  if (a.ends_unsubscribed < 3) return Status::success();
  const std::string last = last_log_line(a.args);
  return Status::bad_input_error(
      a.args.node() + " (your consumer '" + a.command + "') ended on its own " +
      std::to_string(a.ends_unsubscribed) + " times in a row without subscribing to the queue" +
      (last.empty() ? "" : "; the last line of its log: " + last));
}

// The user's consumer `a` (the i-th actor) runs but has not subscribed since it was
// started, or since it connected again after its connection broke: it is still starting up
// (an interpreter and its imports can take seconds on a busy machine) or logging in again,
// and the orders waiting in the queue are not stuck yet. One that never subscribes keeps
// the run going until its time bound: incomplete, not a verdict.
bool starting_up(const Supervision& sv, const Actor& a, std::size_t i, std::int64_t now) {
  return !a.command.empty() && a.pid != 0 &&
         (sv.net_faults->consumes_from(static_cast<int>(i)) <= a.consumes_at_start ||
          sv.net_faults->logging_in(static_cast<int>(i), now));
}

// Reaps and restarts actors; false (sv.failure set) when one ended on its own. `pending`:
// an actor is waiting for its restart, or a restarted consumer of the user's has not
// subscribed yet.
bool tend_actors(Supervision& sv, std::int64_t now, bool& pending, LiveResult& out) {
  pending = false;
  for (std::size_t i = 0; i < sv.actors.size(); ++i) {
    Actor& a = sv.actors[i];
    const bool was_running = a.pid != 0;
    const int ends_before = a.ended_on_its_own;
    if (Status reaped = reap(a, now, sv.events); !reaped.ok()) {
      return fail(sv, std::move(reaped));
    }
    if (was_running && a.pid == 0) sv.net_faults->set_group(static_cast<int>(i), 0);
    if (was_running && a.pid == 0 && !a.command.empty()) {
      if (Status st = after_user_reap(sv, a, i, ends_before); !st.ok()) return fail(sv, st);
    }
    if (a.restart_at_ms >= 0 && now >= a.restart_at_ms) {
      sv.events.push_back({0, tick_at(a.args, now), a.args.node(), sim::EventKind::kRestart, "",
                           0, "supervisor started the process again"});
      if (Status started = start_one(sv, a, i); !started.ok()) return fail(sv, started);
      ++out.restarts;
    }
    pending = pending || a.restart_at_ms >= 0 || starting_up(sv, a, i, now);
  }
  return true;
}

// The ready count of the run's queue, from the broker; the admin connection is made again
// when it was lost. False, with the reason in sv.unreadable_why, when it cannot be read.
bool read_ready(Supervision& sv, const std::string& queue, std::uint32_t& ready) {
  if (!sv.admin || !sv.admin->connected()) {
    sv.admin.reset();
    if (Status st = AmqpClient::connect(sv.endpoint, {}, sv.admin); !st.ok()) {
      sv.unreadable_why = st.message;
      sv.admin.reset();
      return false;
    }
  }
  if (Status st = sv.admin->ready_count(queue, ready); !st.ok()) {
    sv.unreadable_why = st.message;
    sv.admin.reset();  // a closed channel or connection: the next look connects again
    return false;
  }
  return true;
}

// Reads the queue's ready count into `snap` and keeps track of a broker that cannot be
// read; false (sv.failure set) once it has not been readable for the run's bound.
bool watch_broker(Supervision& sv, const ActorArgs& base, const std::string& queue,
                  std::int64_t now, Snapshot& snap, SettleWatch& watch) {
  if (read_ready(sv, queue, snap.ready)) {
    if (sv.unreadable_since_ms >= 0) {
      sv.events.push_back({0, tick_at(base, now), "broker", sim::EventKind::kUp, "", 0,
                           "the broker answers again after " +
                               std::to_string(now - sv.unreadable_since_ms) + " ms"});
      watch.changed_at(now);
      sv.unreadable_since_ms = -1;
      // As after a restart of the private broker: an actor may sit in a login begun while
      // the broker was still coming up.
      sv.no_settle_before_ms = std::max(sv.no_settle_before_ms, now + kAfterBrokerRestartMs);
    }
    return true;
  }
  if (sv.unreadable_since_ms < 0) {
    sv.unreadable_since_ms = now;
    sv.events.push_back({0, tick_at(base, now), "broker", sim::EventKind::kDisconnected, "", 0,
                         "the supervisor cannot read the run's queue: " + sv.unreadable_why});
  }
  const std::int64_t bound_ms = std::int64_t{sv.o.timeout_s} * 1000;
  if (now - sv.unreadable_since_ms >= bound_ms) {
    sv.failure = lost_broker_text(sv, sv.unreadable_since_ms - base.origin_ms,
                                  now - sv.unreadable_since_ms);
    return false;
  }
  return true;
}

// The consumers come first in sv.actors (actors_of).
std::size_t consumer_count(const Supervision& sv) {
  return static_cast<std::size_t>(sv.s.consumer.instances);
}

// Why the i-th actor, the user's consumer, has not subscribed within `bound_ms`.
std::string not_subscribed_text(const Supervision& sv, std::size_t i, std::int64_t bound_ms) {
  const Actor& a = sv.actors[i];
  const bool logged_in = sv.net_faults->frames_from(static_cast<int>(i)) > 0;
  const std::string last = last_log_line(a.args);
  return a.args.node() + " (your consumer '" + a.command + "') did not subscribe to the queue " +
         sv.prefix + "orders within " + std::to_string(bound_ms / 1000) + " s: " +
         (logged_in ? "it logged in to the broker but never sent basic.consume"
                    : "it never connected to the broker at EOSIM_BROKER_URL") +
         (last.empty() ? " (its log is empty)" : "; the last line of its log: " + last);
}

// The user's consumers must all have subscribed before any order is published.
bool wait_subscribed(Supervision& sv, LiveResult& out) {
  const std::int64_t began = WallClock::monotonic_ms();
  const std::int64_t bound_ms = std::min<std::int64_t>(30000, std::int64_t{sv.o.timeout_s} * 1000);
  for (;;) {
    if (interrupted() != 0) return fail(sv, Status::error("interrupted"));
    const std::int64_t now = WallClock::monotonic_ms();
    bool pending = false;
    if (!tend_actors(sv, now, pending, out)) return false;
    std::size_t missing = sv.actors.size();
    for (std::size_t i = 0; i < sv.actors.size() && missing == sv.actors.size(); ++i) {
      const bool waits = !sv.actors[i].command.empty() &&
                         sv.net_faults->consumes_from(static_cast<int>(i)) == 0;
      if (waits) missing = i;
    }
    if (missing == sv.actors.size()) return true;
    if (now - began >= bound_ms) {
      return fail(sv, Status::bad_input_error(not_subscribed_text(sv, missing, bound_ms)));
    }
    ::usleep(50 * 1000);
  }
}

std::string seconds_text(std::int64_t ms) {
  return std::to_string(ms / 1000) + "." + std::to_string((ms % 1000) / 100) + " s";
}

// Whether a running consumer of the user's holds deliveries it has not settled: the run
// has not settled while it does (a slow consumer is still working; a hung one is named at
// the timeout by hung_text), never STUCK on what it sits on.
bool user_holds(const Supervision& sv) {
  for (std::size_t i = 0; i < sv.actors.size(); ++i) {
    const Actor& a = sv.actors[i];
    if (!a.command.empty() && a.pid != 0 &&
        !sv.net_faults->held_by(static_cast<int>(i)).orders.empty()) {
      return true;
    }
  }
  return false;
}

// The deliveries every consumer's latest connection holds unacked, as the fault proxy saw
// them pass.
std::int64_t held_deliveries(const Supervision& sv) {
  std::int64_t held = 0;
  for (std::size_t i = 0; i < consumer_count(sv); ++i) {
    held += static_cast<std::int64_t>(sv.net_faults->held_by(static_cast<int>(i)).orders.size());
  }
  return held;
}

// At the timeout: each consumer of the user's that still holds deliveries, and for how long
// it has neither received nor settled one; "" when none does.
std::string hung_text(const Supervision& sv, std::int64_t now) {
  std::string text;
  for (std::size_t i = 0; i < sv.actors.size(); ++i) {
    const Actor& a = sv.actors[i];
    if (a.command.empty() || a.pid == 0) continue;
    const NetFaults::Held held = sv.net_faults->held_by(static_cast<int>(i));
    if (held.orders.empty()) continue;
    std::string orders;
    for (const std::int64_t order : held.orders) {
      orders += (orders.empty() ? "" : ", ") + std::to_string(order);
    }
    text += std::string(text.empty() ? "" : "; ") + a.args.node() + " (your consumer) held " +
            std::to_string(held.orders.size()) + " deliver" +
            (held.orders.size() == 1 ? "y" : "ies") + " (order " + orders +
            ") unacked and sent no ack, nack or reject for the last " +
            seconds_text(now - held.since_ms) + ", without exiting: it looks hung";
  }
  return text;
}

}  // namespace

std::string lost_broker_text(const Supervision& sv, std::int64_t since_ms, std::int64_t for_ms) {
  const std::string which = sv.o.broker != nullptr ? "the private RabbitMQ (" + sv.endpoint.url() + ")"
                                                   : "the broker " + sv.endpoint.url();
  return which + " stopped answering " + seconds_text(since_ms) + " into the run (" +
         sv.unreadable_why + ") and did not answer again within " + seconds_text(for_ms) +
         ": the run's queues cannot be read, so the run has no verdict";
}

bool start_consumers(Supervision& sv, const ActorArgs& base, LiveResult& out) {
  const bool user = !sv.s.consumer.command.empty();
  if (user) {
    FailpointOptions fo;
    for (const Actor& a : sv.actors) {
      if (!a.command.empty()) fo.sockets.push_back(failpoint_socket_path(base.run_dir, a.args.instance));
    }
    fo.run_dir = base.run_dir;
    fo.origin_ms = base.origin_ms;
    fo.tick_ms = base.tick_ms;
    if (Status st = FailpointServer::start(sv.s, std::move(fo), sv.failpoints); !st.ok()) {
      return fail(sv, st);
    }
  }
  for (std::size_t i = 0; i < consumer_count(sv); ++i) {
    if (Status st = start_one(sv, sv.actors[i], i); !st.ok()) return fail(sv, st);
  }
  return !user || wait_subscribed(sv, out);
}

bool start_the_rest(Supervision& sv) {
  for (std::size_t i = consumer_count(sv); i < sv.actors.size(); ++i) {
    if (Status st = start_one(sv, sv.actors[i], i); !st.ok()) return fail(sv, st);
  }
  return true;
}

void supervise(Supervision& sv, const ActorArgs& base, LiveResult& out) {
  const lab::Scenario& s = sv.s;
  const std::int64_t quiet_ms = std::max<std::int64_t>(1500, 100 * sv.o.tick_ms);
  const std::int64_t drained_ms = std::max<std::int64_t>(kDrainedQuietMs, 20 * sv.o.tick_ms);
  const std::string queue = sv.prefix + "orders";
  const bool silence_ends = !s.network.heartbeat || *s.network.heartbeat > 0;
  // Quiet since now, not since tick 0: the wait for the user's consumers to subscribe can
  // outlast three quiet periods, and nothing was published before it ended.
  SettleWatch watch(WallClock::monotonic_ms(), quiet_ms, drained_ms);
  for (;;) {
    ::usleep(100 * 1000);
    if (interrupted() != 0) {  // Ctrl-C: run_live stops everything, the caller cleans up
      sv.failure = "interrupted";
      return;
    }
    bool pending = false, restarted = false;
    if (!tend_actors(sv, WallClock::monotonic_ms(), pending, out)) return;
    if (!carry_out_broker_faults(sv, base, out, restarted)) return;
    if (restarted) watch.changed_at(WallClock::monotonic_ms());
    const std::int64_t now = WallClock::monotonic_ms();
    Snapshot snap = snapshot(out.run_dir, sv.effects_query);
    if (!watch_broker(sv, base, queue, now, snap, watch)) return;
    pending = pending || sv.unreadable_since_ms >= 0 || user_holds(sv);
    // A silent connection someone will notice (a timer of the proxy, heartbeats) is
    // still going: the broker gives back what it held once its end is closed.
    snap.silent_ends = sv.proxy->silent_ends();
    pending = pending || (snap.silent_ends > 0 && silence_ends);
    snap.held = held_deliveries(sv);
    watch.observe(snap, now);
    out.wall_ms = now - base.origin_ms;
    const std::string line = progress_line(snap, s.workload.orders, out.wall_ms, out.restarts);
    if (sv.o.progress) sv.o.progress(line);
    const Hold hold = pending                        ? Hold::kPending
                      : now < sv.no_settle_before_ms ? Hold::kMargin
                                                     : Hold::kNone;
    const RunEnd end = watch.decide(now, hold, s.workload.orders);
    if (end == RunEnd::kSettled || end == RunEnd::kDrained) {
      out.wall_ms = watch.last_change_ms() - base.origin_ms;
      out.split.drained = end == RunEnd::kDrained;
      return;
    }
    if (end == RunEnd::kLoop) {
      out.loop = loop_text(out.run_dir, quiet_ms);
      return;
    }
    if (out.wall_ms - out.broker_restart_ms >= std::int64_t{sv.o.timeout_s} * 1000) {
      if (sv.unreadable_since_ms >= 0) {  // no verdict from a broker that cannot be read
        sv.failure = lost_broker_text(sv, sv.unreadable_since_ms - base.origin_ms,
                                      now - sv.unreadable_since_ms);
        return;
      }
      out.timed_out = true;
      out.still_going = line;
      out.hung = hung_text(sv, now);
      return;
    }
  }
}

}  // namespace live
