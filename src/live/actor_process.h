#pragma once
// One actor of a live run, in a process of its own: the same OrderService, Relay or
// Consumer that runs in the simulator, on an AmqpTransport, its scheduler driven by wall
// time. The supervisor (live_run.h) starts it as `eosim live-actor KEY=VALUE...` (a hidden
// command: not for people).
//
// Faults: the process asks the scenario's fault plan at the same named sites as in the
// simulator. A crash site that fires appends the fault to the run folder's faults.log and
// SIGKILLs the process right there: the kernel resets its sockets (the broker requeues
// what it held), SQLite rolls back its open transaction when the file is next opened, and
// the supervisor restarts it. A rule that has fired `times` times (per faults.log) is not
// armed again in the restarted process. db.commit fails through the store layer, as in
// the simulator. The broker's own faults (broker.restart, broker.crash) are asked by the
// publishing process as it publishes (lab::stop_at_publish, the model broker's question):
// one that fires goes to faults.log, where the supervisor sees it and restarts the
// private broker, and the publish waits for its connection to die (amqp_transport.h).
//
// Files in the run folder: trace-<node>.jsonl (its trace events, one JSON object a line,
// with the wall tick as time), <node>.log (its stderr), faults.log, deliveries.db (the
// delivery count per order, shared by the consumers: the attempt number of a delivery).
// SIGTERM ends it between two events.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "src/live/status.h"

namespace live {

struct ActorArgs {
  std::string role;  // "producer" | "relay" | "consumer"
  int instance = 1;  // consumers: 1-based
  std::string scenario_path;
  std::string strategy;  // command-line overrides, as the supervisor got them ("" = none)
  std::string producer;
  std::string run_dir;
  std::string broker_url;  // in the environment, never on the command line
  std::string queue_prefix;
  std::int64_t origin_ms = 0;  // CLOCK_MONOTONIC ms of tick 0, shared by the run
  std::int64_t tick_ms = 10;

  std::string node() const;  // "producer", "relay", "consumer2"
};

// The command line that starts `args` with the eosim binary at `self`, and its parser.
// The broker URL (with its password) is not on it: the actor's environment carries it in
// kBrokerUrlEnv, which parse_actor_args reads.
constexpr const char* kBrokerUrlEnv = "EOSIM_BROKER_URL";
std::vector<std::string> actor_argv(const std::string& self, const ActorArgs& args);
live::Status parse_actor_args(int argc, char** argv, ActorArgs& out);

// Runs the actor until SIGTERM (exit 0) or a crash site kills it. Exit 2 on bad arguments,
// 3 when it cannot start (databases, scenario).
int run_actor(const ActorArgs& args, std::ostream& err);

// The heartbeat interval an actor asks RabbitMQ for: the scenario's [network] heartbeat
// in wall time, rounded up to whole seconds (AMQP's unit) and at least 1; 0 (none) when
// the scenario has no heartbeats or turns them off.
int heartbeat_seconds(std::optional<std::int64_t> heartbeat_ticks, std::int64_t tick_ms);

// faults.log: one fired fault a line; read back by the supervisor (the run's faults) and by
// a restarted actor (rules already spent).
void append_fired(const std::string& run_dir, const sim::FiredFault& fault);
std::vector<sim::FiredFault> read_fired(const std::string& run_dir);

// db-restarts.log: made by the supervisor of a run on the private PostgreSQL before the
// actors start, one line appended per db.restart it carried out. A consumer that fired
// db.restart waits for its line (wait_for_database_restart); without the file (SQLite, or
// no server eosim may restart) nothing is waited for.
std::string database_restarts_path(const std::string& run_dir);
// Waits until the supervisor has restarted the database for every db.restart in
// faults.log (at most `bound_ms`); false when it did not in time. True at once without
// the file.
bool wait_for_database_restart(const std::string& run_dir, std::int64_t bound_ms);

// Whether the fired fault `f` is one of `rule`'s: same site, action and frame, its key
// matched, and its nth when the rule has one.
bool fired_by(const sim::FaultRule& rule, const sim::FiredFault& f);
// How often each rule of `rules` fired, by faults.log: each fired fault counts for the
// first rule it matches that has not fired its `times` yet, as the plan fires the first
// rule that matches.
std::vector<std::int64_t> times_fired(const std::vector<sim::FaultRule>& rules,
                                      const std::vector<sim::FiredFault>& fired);

}  // namespace live
