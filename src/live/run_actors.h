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
};

// The scenario's actors, each `base` with its role: consumers 1..n, the relay (outbox
// patterns only), the producer last. None is started.
std::vector<Actor> actors_of(const lab::Scenario& s, const ActorArgs& base);

// The wall tick of `ms` (CLOCK_MONOTONIC) in the run `args` belongs to; 0 before it began.
sim::Tick tick_at(const ActorArgs& args, std::int64_t ms);

// Starts the actor's process (`self`: the eosim binary). An error (pid stays 0) when no
// process could be made: a run without one of its actors would report its orders lost.
Status start_actor(Actor& actor, const std::string& self);

// SIGTERM, then SIGKILL after 3 s; returns when the process group is gone (or 3 s more).
void stop_actor(Actor& actor);

// Reaps an actor that ended; one killed by SIGKILL (a crash site) comes back after
// `restart_ms`, with a crash event in `events`. An error saying how when it ended some
// other way, with the last line of its log.
eosim::Status reap(Actor& actor, std::int64_t now_ms, std::int64_t restart_ms,
                   std::vector<sim::TraceEvent>& events);

}  // namespace live
