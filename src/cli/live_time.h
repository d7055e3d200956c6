#pragma once
// Where a live run's wall time went, in words and in JSON: the setup before its first
// actor, the actors' start, their work until the last change, the quiet period that shows
// the run settled, the teardown (actors stopped, queues read, the checker), and the
// private servers the command started before its first run. Built only with the live side
// (EOSIM_HAVE_LIVE).

#ifdef EOSIM_HAVE_LIVE

#include <string>

#include <nlohmann/json.hpp>

#include "src/live/live_run.h"

namespace cli {

// "setup 0.3 s, starting 0.5 s, working 2.9 s, quiet 1.5 s, teardown 0.4 s (run 5.6 s);
// before the first run: RabbitMQ 7.9 s, PostgreSQL 2.1 s".
std::string time_split_text(const live::LiveResult& result);

// {"setup_ms": ..., "starting_ms": ..., "working_ms": ..., "quiet_ms": ..., "teardown_ms":
// ..., "run_ms": ...} and the servers' "broker_start_ms" (...) where the command started one.
nlohmann::ordered_json time_split_json(const live::LiveResult& result);

}  // namespace cli

#endif
