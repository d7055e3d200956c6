#pragma once
// A live run: one scenario against a real RabbitMQ, each actor a child process of this one
// (actor_process.h), its SQLite files in a run folder, judged by the same checker as a
// simulated run.
//
// The run: create the databases (the lab's schema) and the run's own queues (names
// prefixed per run, so a user's broker keeps everything of theirs); start the consumers,
// the relay and the producer; restart an actor that a crash site SIGKILLed after its
// restart delay (ticks x tick_ms); stop and start the private broker where a broker fault
// fired (the publisher asks broker.restart / broker.crash as it publishes); wait until the
// run settles - every order committed and nothing in the tables, the queue or the fault
// log changed for a quiet period - or ends in a redelivery loop (LiveResult::loop), or the
// timeout; stop the actors (SIGTERM, then SIGKILL); read what is left in the queues; run
// the checker on the files.
//
// Invariants:
//  (1) No actor process outlives run_live, whatever happens: each is started with
//      PDEATHSIG (process.h), and an interruption deferred by the caller
//      (defer_interrupts) ends the run like a failure - actors stopped, the run's queues
//      deleted - with the error "interrupted".
//  (2) Only queues this run declared are read or deleted.
//  (3) Faults trigger on content (site, order, attempt, nth), never on wall time: a live
//      run of a scripted scenario gives the same outcome every time.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "src/live/amqp_client.h"
#include "src/live/endpoint.h"
#include "src/live/launcher.h"
#include "src/live/run_rules.h"  // live_refusal, broker_refusal
#include "src/live/status.h"

namespace live {

class PrivatePostgres;

struct LiveOptions {
  std::string keep_db;     // "" = a temporary folder, removed afterwards
  int timeout_s = 60;      // the whole run, from the first actor's start
  std::int64_t tick_ms = 10;  // one tick of the scenario in wall time
  std::string strategy;    // command-line overrides, passed on to every actor
  std::string producer;
  std::string self_exe;    // the eosim binary the actors run
  // The private broker this run may restart (broker.restart, broker.crash); null with a
  // broker of the user's (--broker), where broker_refusal() keeps those rules out.
  PrivateBroker* broker = nullptr;
  // The database server the run's stores go to (--store postgres: the private one's URL;
  // --store postgres://...: the user's); "" = SQLite files in the run folder. Each run
  // gets a schema of its own there (LiveResult::schema).
  std::string store_url;
  // The private PostgreSQL this run may restart (db.restart); null with SQLite or a
  // server of the user's, where database_refusal() keeps that rule out.
  PrivatePostgres* database = nullptr;
  // Drop the run's schema at the end (a server of the user's, without --keep-db).
  bool drop_schema = false;
  // With the user's consumer ([consumer] command): the query that reads its effects from
  // its ledger (user_consumer.h); "" = kDefaultEffectsQuery.
  std::string effects_query;
  // The Redis the separate dedup store goes to (--dedup-store redis: the private one's
  // URL); "" = the `seen` table beside the other stores. Used only by a design with a
  // separate store; each run's keys have a prefix of their own (LiveResult::dedup_prefix).
  std::string dedup_url;
  // A live sweep's fault schedule in words (live_schedule.h): written to the run folder's
  // schedule.txt; its rules are in the scenario's script already. "" = none.
  std::string schedule;
  // The same schedule as a scenario file (live_schedule.h, schedule_scenario): written to
  // the run folder's replay.toml. "" = none.
  std::string schedule_scenario;
  // Per rule of the scenario's script: a kill the fault proxy carries out this many wall
  // milliseconds after its frame (live_schedule.h); missing or 0 = at once.
  std::vector<std::int64_t> kill_delays_ms;
  // Called about every 250 ms while waiting, with a one-line state of the run.
  std::function<void(const std::string&)> progress;
};

struct LiveResult {
  lab::RunSummary summary;
  bool timed_out = false;
  std::string still_going;   // at a timeout: what had not settled
  // At a timeout: the user's consumers that held deliveries unacked, in words ("" = none).
  std::string hung;
  // Set when the run ended in a redelivery loop: an order delivered again and again (at
  // least 20 times) while nothing else changed for the quiet period. The report says so.
  std::string loop;
  std::int64_t wall_ms = 0;  // from the first actor's start to the run settling
  int restarts = 0;          // actor processes restarted after a crash site
  // Of those, the user's consumer ended on its own (not killed by a failpoint) and was
  // started again like a crashed one.
  int consumer_ends = 0;
  bool user_consumer = false;  // the run ran the user's consumer ([consumer] command)
  int broker_restarts = 0;   // the private broker stopped and started again
  std::int64_t broker_restart_ms = 0;  // wall time those took (part of wall_ms)
  // Where the run's wall time went (ms). setup + wall_ms + quiet + teardown is the whole of
  // run_live; wall_ms includes `starting`.
  struct TimeSplit {
    std::int64_t setup_ms = 0;     // run folder, stores, queues, proxies: before any actor
    std::int64_t starting_ms = 0;  // the actors started (the user's consumers subscribed)
    std::int64_t quiet_ms = 0;     // after the last change, the quiet period that ends a run
    std::int64_t teardown_ms = 0;  // actors stopped, queues read and deleted, the checker
    // The run settled drained (settle.h): nothing waited anywhere, so the quiet period was
    // the short one.
    bool drained = false;
    // The command's private servers, started once before its first run (-1: none of ours).
    std::int64_t broker_start_ms = -1;
    std::int64_t database_start_ms = -1;
    std::int64_t redis_start_ms = -1;
  } split;
  std::string run_dir;
  std::string schema;  // the run's schema on the database server ("" with SQLite)
  // How eosim's actors reached the database server (with `schema` only).
  struct DatabaseLink {
    bool proxied = false;     // through the fault proxy (pg_wire.h)
    std::string direct_why;   // not proxied: why ("" with SQLite)
    int connections = 0;      // the proxy's connections to the server
    int replies_dropped = 0;  // COMMIT replies it dropped (db.*commit_reply)
  } db_link;
  // The separate dedup store on Redis: the run's key prefix ("" when not on Redis), the
  // keys' TTL (0: none) and how many of the run's keys Redis held when the run ended.
  std::string dedup_prefix;
  // How eosim's consumers reached that Redis: through the fault proxy (resp_wire.h).
  struct DedupLink {
    bool proxied = false;
    int connections = 0;      // the proxy's connections to Redis
    int replies_dropped = 0;  // replies to a mark it dropped (dedup.mark_reply)
  } dedup_link;
  std::int64_t dedup_ttl_ms = 0;
  std::int64_t dedup_keys = -1;
  // The run's queue names start with it ("eosim-live-<pid>-<time>-"); set before the
  // actors start.
  std::string queue_prefix;
  // Set when the run's queues could not be deleted from a broker of the user's at the
  // end: the sentence naming them.
  std::string queues_left;
  // What the broker said it is (connection.start), and the unfired scripted rules are in
  // summary.unfired, as in the model.
  ServerInfo server;
  // Every actor process's trace events and the supervisor's (crash, restart), by wall
  // tick; the summary's trace_hash hashes them, so it differs from run to run.
  std::vector<sim::TraceEvent> trace;
};

// REQUIRES: live_refusal(scenario) is "", scenario's overrides already applied; with
// options.broker null, broker_refusal(scenario) is "" too.
Status run_live(const lab::Scenario& scenario, const Endpoint& endpoint,
                const LiveOptions& options, LiveResult& out);

}  // namespace live
