#pragma once
// The supervisor of a live run: it watches the run from start to end, about every 100 ms.
// It reaps the actors and starts again one a crash site killed, after its restart delay;
// carries out the broker faults the publishers log (the private broker stopped or killed,
// started again, checked to have kept the run's durable queues, the queues declared
// again); and asks a SettleWatch (settle.h) whether the run has settled or is in a
// redelivery loop - or stops it at the timeout.
//
// Time the broker spends restarting does not count against the timeout: it is reported on
// its own (LiveResult::broker_restart_ms).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/live/amqp_client.h"
#include "src/live/db_faults.h"
#include "src/live/endpoint.h"
#include "src/live/failpoints.h"
#include "src/live/fault_proxy.h"
#include "src/live/live_run.h"
#include "src/live/net_faults.h"
#include "src/live/run_actors.h"
#include "src/live/status.h"
#include "src/scenario/scenario.h"

namespace live {

// After a broker restart a run that still has a message waiting (unsent, ready or held:
// Snapshot::idle) may not settle for this long: an actor that connected while the node
// was still booting can sit in its login until rabbitmq-c's handshake timeout (12 s) gives
// up, and only then reconnect and publish or consume again. An idle run has nothing left
// for it to do.
constexpr std::int64_t kAfterBrokerRestartMs = 15000;

// The quiet period of a drained run (settle.h): long enough for the broker to give back
// what a broken connection held and deliver it again, which the proxy then sees.
constexpr std::int64_t kDrainedQuietMs = 500;

// Everything the supervisor holds while the run goes on.
struct Supervision {
  const lab::Scenario& s;
  const LiveOptions& o;
  const Endpoint& endpoint;
  std::unique_ptr<AmqpClient> admin;  // null while the broker restarts
  std::string prefix;                 // of the run's queue names
  std::vector<Actor> actors;
  std::unique_ptr<NetFaults> net_faults;
  std::unique_ptr<FaultProxy> proxy;    // every actor reaches the broker through it
  // --store postgres: eosim's actors reach the database server through this one (null
  // with SQLite, or a server it cannot front), judged by db_faults.
  std::unique_ptr<DbFaults> db_faults;
  std::unique_ptr<FaultProxy> db_proxy;
  // --dedup-store redis: eosim's consumers reach the separate store's Redis through this
  // one (resp_wire.h), judged by dedup_faults (null without a separate store on Redis).
  std::unique_ptr<DbFaults> dedup_faults;
  std::unique_ptr<FaultProxy> dedup_proxy;
  std::vector<sim::TraceEvent> events;  // the supervisor's own (crash, restart, broker)
  std::string failure;                  // why the run failed ("interrupted", an actor, ...)
  bool failure_bad_input = false;       // ... and it is the user's to fix (exit 2)
  std::unique_ptr<FailpointServer> failpoints;  // the user's consumer only
  std::string effects_query;            // the user's consumer only: how effects are read
  std::size_t broker_faults_done = 0;   // broker faults of faults.log carried out
  std::size_t database_faults_done = 0;  // db.restart faults of faults.log carried out
  std::int64_t no_settle_before_ms = 0;  // after a broker restart (kAfterBrokerRestartMs)
  // Since when the broker could not be read (-1: it can), and why: a run does not settle
  // meanwhile, and ends with an error when it stays so for the run's bound.
  std::int64_t unreadable_since_ms = -1;
  std::string unreadable_why;
};

// The error of a run whose broker could not be read for `for_ms`, from `since_ms` into
// the run: no verdict, the broker and the reason named.
std::string lost_broker_text(const Supervision& sv, std::int64_t since_ms, std::int64_t for_ms);

// The fault proxy between the actors and the broker, judging frames by the scenario's
// network rules; each actor gets a listener of its own (so the judge knows whose frame it
// sees), and its broker_url points there.
// REQUIRES: sv.actors is not empty.
Status start_proxy(Supervision& sv);

// With the stores on a database server: a second fault proxy in front of it, reading
// PostgreSQL's messages (pg_wire.h), a listener for each of eosim's actors, whose URL
// (run_folder.h, set_actor_store_url) points there; the user's consumer keeps its own way
// to the server. A server the proxy cannot front (a Unix socket, TLS required) is reached
// directly and out.db_link says why. REQUIRES: start_proxy done.
Status start_database_proxy(Supervision& sv, LiveResult& out);

// With the separate dedup store on Redis: a fault proxy in front of it, reading RESP
// (resp_wire.h), a listener for each of eosim's actors, whose dedup URL (run_folder.h,
// set_actor_dedup_url) points there. REQUIRES: start_proxy done.
Status start_dedup_proxy(Supervision& sv, LiveResult& out);

// Starts the consumers, and with the user's consumer waits until every instance has
// subscribed to the queue (as the model's consumers are from the start) before the
// producer side starts. False (sv.failure set) when one could not be started or did not
// subscribe within the bound.
bool start_consumers(Supervision& sv, const ActorArgs& base, LiveResult& out);
// Starts the actors start_consumers left; false (sv.failure set) when one cannot be.
bool start_the_rest(Supervision& sv);

// Watches the run until it settles, ends in a redelivery loop (out.loop), times out
// (out.timed_out) or fails (sv.failure set). A broker that cannot be read (gone, the
// run's queue gone) holds the run back; when it stays so for the run's timeout, or is so
// at the timeout, the run fails: what cannot be read is never counted as empty. `base`: the arguments every actor shares
// (its origin_ms is the run's tick 0).
void supervise(Supervision& sv, const ActorArgs& base, LiveResult& out);

}  // namespace live
