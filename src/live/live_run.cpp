#include "src/live/live_run.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <limits>

#include "src/live/actor_process.h"
#include "src/live/amqp_transport.h"
#include "src/live/postgres_store.h"
#include "src/live/redis_store.h"
#include "src/live/run_folder.h"
#include "src/live/run_queues.h"
#include "src/live/supervisor.h"
#include "src/live/user_consumer.h"
#include "src/orders/event_kinds.h"
#include "src/store/db.h"

namespace live {

namespace {

// The scenario's consumer_timeout in wall time, set on the private broker; every run sets
// it (0: back to RabbitMQ's default), so one run's setting never leaks into the next.
Status set_consumer_timeout(const lab::Scenario& s, const LiveOptions& o) {
  if (o.broker == nullptr) return Status::success();
  if (s.broker.consumer_timeout > std::numeric_limits<int>::max() / o.tick_ms) {
    return Status::error("[broker] consumer_timeout is too long for RabbitMQ in milliseconds");
  }
  const auto ms = static_cast<int>(s.broker.consumer_timeout * o.tick_ms);
  if (Status st = o.broker->set_consumer_timeout(ms); !st.ok()) {
    return Status::error("cannot set the private RabbitMQ's consumer_timeout: " + st.message);
  }
  return Status::success();
}

// The run's queues declared (and, for a run that kills the broker, on disk), its actors
// known and wired to the fault proxy; none started yet. On an error the queues declared
// are deleted again.
Status set_up(Supervision& sv, LiveResult& out, ActorArgs& base) {
  const lab::Scenario& s = sv.s;
  if (Status st = AmqpClient::connect(sv.endpoint, {}, sv.admin); !st.ok()) return st;
  out.server = sv.admin->server();
  // The run's number in this process too: a live sweep's runs at once (--jobs) may start
  // within one millisecond.
  static std::atomic<int> runs{0};
  sv.prefix = "eosim-live-" + std::to_string(::getpid()) + "-" +
              std::to_string(WallClock::monotonic_ms()) + "-" + std::to_string(++runs) + "-";
  out.queue_prefix = sv.prefix;
  if (Status st = declare_queues(s, *sv.admin, sv.prefix); !st.ok()) return st;
  if (Status st = sync_definitions(s, sv.o.broker); !st.ok()) {
    (void)delete_queues(s, *sv.admin, sv.prefix);
    return st;
  }
  base.scenario_path = s.path;
  base.strategy = sv.o.strategy;
  base.producer = sv.o.producer;
  base.run_dir = out.run_dir;
  base.queue_prefix = sv.prefix;
  base.origin_ms = WallClock::monotonic_ms();
  base.tick_ms = sv.o.tick_ms;
  sv.actors = actors_of(s, base);
  // A consumer that fires db.restart waits for the supervisor's restart of the server.
  if (sv.o.database != nullptr) {
    std::ofstream made(database_restarts_path(out.run_dir));
  }
  // Every actor reaches the broker through the fault proxy, on a port of its own.
  Status st = start_proxy(sv);
  // The database link too, with --store postgres: a listener of its own for each actor.
  if (st.ok()) st = start_database_proxy(sv, out);
  // And the separate dedup store's, with --dedup-store redis.
  if (st.ok()) st = start_dedup_proxy(sv, out);
  if (!st.ok()) {
    (void)delete_queues(s, *sv.admin, sv.prefix);
    return st;
  }
  return Status::success();
}

// The run's summary and report from its folder, what was left in the queues and the
// supervisor's events.
Status summarize(Supervision& sv, const lab::BrokerLeftovers& left, LiveResult& out) {
  const lab::Scenario& s = sv.s;
  lab::RunSummary& r = out.summary;
  r.scenario = s.name;
  r.seed = s.seed;
  r.strategy =
      s.consumer.command.empty() ? s.consumer.label() : "your consumer: " + s.consumer.command;
  r.producer = s.producer.label();
  r.faults = read_fired(out.run_dir);
  // Every scripted rule that never fired is listed and fails the expectations, as in the
  // model (unless it says `optional`).
  const std::vector<std::int64_t> times = times_fired(s.script, r.faults);
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    if (times[i] == 0) r.unfired.push_back({static_cast<std::int64_t>(i + 1), s.script[i]});
  }
  r.redeliveries = std::max<std::int64_t>(
      0, read_number(out.run_dir + "/deliveries.db",
                     "SELECT COALESCE(SUM(redelivered), 0) FROM deliveries"));
  r.time = static_cast<sim::Tick>(out.wall_ms / sv.o.tick_ms);
  out.trace = merged_trace(out.run_dir, std::move(sv.events));
  r.trace_hash = 0xcbf29ce484222325ULL;  // FNV-1a's offset basis, as sim::Trace starts
  for (const sim::TraceEvent& e : out.trace) {
    r.trace_hash = sim::hash_event(r.trace_hash, e, orders::kTraceNames.kinds);
  }
  r.trace_events = out.trace.size();
  r.steps = out.trace.size();
  if (Status st = judge(s, out.run_dir, left, r.report); !st.ok()) return st;
  if (out.timed_out) {
    // Orders not yet through are on their way as far as anyone knows: not lost.
    r.cut_short =
        "stopped at its " + std::to_string(sv.o.timeout_s) + " s timeout before it settled";
    lab::cut_short(r.report);
  }
  return Status::success();
}

// Deletes the run's queues, connecting again if the admin connection was lost. "" when
// they are gone (or went with the private broker); else the sentence that names them, for
// a broker of the user's: they are theirs to delete.
std::string remove_queues(Supervision& sv) {
  Status st = Status::success();
  if (!sv.admin || !sv.admin->connected()) {
    sv.admin.reset();
    st = AmqpClient::connect(sv.endpoint, {}, sv.admin);
  }
  if (st.ok()) st = delete_queues(sv.s, *sv.admin, sv.prefix);
  sv.admin.reset();
  if (st.ok() || sv.o.broker != nullptr) return "";
  std::string names;
  for (const std::string& name : queue_names(sv.s, sv.prefix)) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return "the run's queues are left on " + sv.endpoint.url() + ": " + names +
         " (delete them once it is back)";
}

struct SchemaDrop {
  std::string url;            // "" = nothing to drop
  const std::string& schema;  // set once the schema exists
  ~SchemaDrop() {
    // A schema left behind is named in the user's database; nothing else to do here.
    if (url.empty() || schema.empty()) return;
    (void)drop_run_schema(url, schema);
    (void)drop_run_schema(url, schema + kUserSchemaSuffix);  // the user's consumer's, if made
  }
};

// The run's place on Redis and how many of its keys are there at the end (the TTL may have
// expired some): what the report says of the separate store.
Status read_dedup_keys(const std::string& url, LiveResult& out) {
  if (url.empty()) return Status::success();
  RedisUrl u;
  if (Status st = parse_redis_url(url, u); !st.ok()) return st;
  out.dedup_prefix = u.prefix;
  out.dedup_ttl_ms = u.ttl_ms;
  return count_run_keys(url, out.dedup_keys);
}

// The actors, the failpoint socket and the proxies stopped; what the database proxy counted.
void stop_all(Supervision& sv, LiveResult& out) {
  for (Actor& a : sv.actors) {
    stop_actor(a);
    out.consumer_ends += a.ended_on_its_own;
  }
  if (sv.failpoints) sv.failpoints->stop();
  // A connection the proxy still holds silent (a frozen one, the far end of a broken one)
  // lets go now: the broker takes back what it held, and the drain below counts it.
  sv.proxy->stop();
  if (sv.db_proxy) {
    sv.db_proxy->stop();
    out.db_link.connections = sv.db_proxy->connections_accepted();
    out.db_link.replies_dropped = sv.db_faults->replies_dropped();
  }
  if (sv.dedup_proxy) {
    sv.dedup_proxy->stop();
    out.dedup_link.connections = sv.dedup_proxy->connections_accepted();
    out.dedup_link.replies_dropped = sv.dedup_faults->replies_dropped();
  }
}

std::string joined(const std::string& error, const std::string& more) {
  return more.empty() ? error : error + "; " + more;
}

}  // namespace

Status run_live(const lab::Scenario& s, const Endpoint& endpoint, const LiveOptions& o,
                LiveResult& out) {
  // Several processes share the run's files: a lock held by another one is waited for.
  store::Db::set_live_lock_wait_ms(10000);
  const std::int64_t began = WallClock::monotonic_ms();
  if (Status st = set_consumer_timeout(s, o); !st.ok()) return st;
  if (Status st = prepare_run_dir(s, o.keep_db, out.run_dir); !st.ok()) return st;
  if (!o.schedule.empty()) {
    std::ofstream(out.run_dir + "/schedule.txt") << o.schedule;
  }
  if (!o.schedule_scenario.empty()) {
    std::ofstream(out.run_dir + "/replay.toml") << o.schedule_scenario;
  }
  install_server_stores();
  // On every way out, after the checker has read the tables (a return value is made before
  // the locals go): the run's schema on a server of the user's, unless kept.
  const SchemaDrop drop{o.drop_schema ? o.store_url : "", out.schema};
  std::string dedup_url;
  if (Status st = use_dedup_server(s, out.run_dir, o.dedup_url, o.tick_ms, dedup_url); !st.ok()) {
    return st;
  }
  if (Status st = create_databases(s, out.run_dir, o.store_url, out.schema); !st.ok()) {
    return st;
  }
  if (!s.consumer.command.empty()) {
    if (Status st = make_user_ledger(out.run_dir, o.store_url, out.schema); !st.ok()) return st;
  }
  Supervision sv{s, o, endpoint};
  out.user_consumer = !s.consumer.command.empty();
  if (!s.consumer.command.empty()) {
    sv.effects_query = o.effects_query.empty() ? kDefaultEffectsQuery : o.effects_query;
  }
  ActorArgs base;
  if (Status st = set_up(sv, out, base); !st.ok()) return st;
  out.split.setup_ms = base.origin_ms - began;
  const bool started = start_consumers(sv, base, out) && start_the_rest(sv);
  out.split.starting_ms = WallClock::monotonic_ms() - base.origin_ms;
  if (started) supervise(sv, base, out);
  const std::int64_t supervised = WallClock::monotonic_ms();
  out.split.quiet_ms = std::max<std::int64_t>(0, supervised - base.origin_ms - out.wall_ms);
  stop_all(sv, out);
  if (!sv.failure.empty()) {
    Status failed = Status::error(joined(sv.failure, remove_queues(sv)));
    failed.bad_input = sv.failure_bad_input;
    return failed;
  }
  lab::BrokerLeftovers left;
  if (Status st = leftovers(s, endpoint, sv.prefix, out.split.drained, left); !st.ok()) {
    return Status::error(joined(st.message, remove_queues(sv)), st.reply_code);
  }
  out.queues_left = remove_queues(sv);
  if (!sv.effects_query.empty()) {
    if (Status st = import_effects(s, out.run_dir, sv.effects_query); !st.ok()) {
      st.message = joined(st.message, out.hung);  // a hung consumer may have made no ledger
      st.bad_input = true;                        // the user's query or the user's ledger
      return st;
    }
  }
  if (Status st = read_dedup_keys(dedup_url, out); !st.ok()) return st;
  Status judged = summarize(sv, left, out);
  out.split.teardown_ms = WallClock::monotonic_ms() - supervised;
  return judged;
}

}  // namespace live
