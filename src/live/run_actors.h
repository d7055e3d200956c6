#pragma once
// The actor processes of one live run, as the supervisor holds them: which actors a
// scenario has (its consumers, the relay if the pattern has an outbox, the order service),
// starting one, stopping one, and reaping one that ended.
//
// An actor that a crash site killed (SIGKILL, by itself) is due back after its restart
// delay; one that ended any other way is a failure of the run (a bug, or a failed start),
// never part of the scenario.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace.h"
#include "src/live/actor_process.h"
#include "src/live/status.h"
#include "src/scenario/scenario.h"
#include "src/status/status.h"

namespace live {

struct Actor {
  ActorArgs args;
  pid_t pid = 0;
  std::int64_t restart_at_ms = -1;  // >= 0: killed by a crash site, back at this time
  // Ticks it stays down after a crash before its process starts again: the scenario's
  // restart_after of its role ([consumer], [producer], relay_restart_after for the relay).
  std::int64_t restart_ticks = 20;
  // The user's consumer (user_consumer.h): its shell command and environment; "" for
  // eosim's own actors. It is restarted whenever it ends, like a crashed one.
  std::string command;
  std::vector<std::string> env;
  int ended_on_its_own = 0;  // times it ended without being killed (the report says so)
  // The fault proxy's count of its basic.consume frames when it last started, and how
  // often in a row it ended without sending one more: a command that keeps failing.
  int consumes_at_start = 0;
  int ends_unsubscribed = 0;
};

// The scenario's actors, each `base` with its role: consumers 1..n (the user's command
// when the scenario has one), the relay (outbox patterns only), the producer last. None
// is started.
std::vector<Actor> actors_of(const lab::Scenario& s, const ActorArgs& base);

// The wall tick of `ms` (CLOCK_MONOTONIC) in the run `args` belongs to; 0 before it began.
sim::Tick tick_at(const ActorArgs& args, std::int64_t ms);

// Starts the actor's process (`self`: the eosim binary). An error (pid stays 0) when no
// process could be made: a run without one of its actors would report its orders lost.
Status start_actor(Actor& actor, const std::string& self);

// The last non-empty line of the actor's log ("" if none).
std::string last_log_line(const ActorArgs& args);

// SIGTERM, then SIGKILL after 3 s; returns when the process group is gone (or 3 s more).
void stop_actor(Actor& actor);

// Reaps an actor that ended; one killed by SIGKILL (a crash site) comes back after its
// `restart_ticks` of wall time, with a crash event in `events`. An error saying how when it ended
// some other way, with the last line of its log - except the user's consumer, which comes back
// however it ended, unless its shell could not run the command at all (exit 126, 127:
// an error flagged bad_input).
Status reap(Actor& actor, std::int64_t now_ms, std::vector<sim::TraceEvent>& events);

}  // namespace live
