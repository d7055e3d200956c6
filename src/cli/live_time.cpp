#ifdef EOSIM_HAVE_LIVE

#include "src/cli/live_time.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace cli {

namespace {

// wall_ms runs from the first actor's start, so the actors' start is part of it.
std::int64_t working_ms(const live::LiveResult& r) {
  return std::max<std::int64_t>(0, r.wall_ms - r.split.starting_ms);
}

std::int64_t run_ms(const live::LiveResult& r) {
  return r.split.setup_ms + r.wall_ms + r.split.quiet_ms + r.split.teardown_ms;
}

std::string seconds(std::int64_t ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(ms) / 1000.0);
  return text;
}

struct Server {
  const char* name;
  const char* key;
  std::int64_t live::LiveResult::TimeSplit::*ms;
};

constexpr Server kServers[] = {
    {"RabbitMQ", "broker_start_ms", &live::LiveResult::TimeSplit::broker_start_ms},
    {"PostgreSQL", "database_start_ms", &live::LiveResult::TimeSplit::database_start_ms},
    {"Redis", "redis_start_ms", &live::LiveResult::TimeSplit::redis_start_ms},
};

}  // namespace

std::string time_split_text(const live::LiveResult& result) {
  const live::LiveResult::TimeSplit& s = result.split;
  std::string text = "setup " + seconds(s.setup_ms) + ", starting " + seconds(s.starting_ms) +
                     ", working " + seconds(working_ms(result)) + ", quiet " + seconds(s.quiet_ms) +
                     (s.drained ? " (drained)" : "") + ", teardown " + seconds(s.teardown_ms) +
                     " (run " + seconds(run_ms(result)) + ")";
  std::string servers;
  for (const Server& server : kServers) {
    const std::int64_t ms = s.*server.ms;
    if (ms < 0) continue;
    servers += (servers.empty() ? "" : ", ") + std::string(server.name) + " " + seconds(ms);
  }
  if (!servers.empty()) text += "; before the first run: " + servers;
  return text;
}

nlohmann::ordered_json time_split_json(const live::LiveResult& result) {
  const live::LiveResult::TimeSplit& s = result.split;
  nlohmann::ordered_json j = {{"setup_ms", s.setup_ms},           {"starting_ms", s.starting_ms},
                              {"working_ms", working_ms(result)}, {"quiet_ms", s.quiet_ms},
                              {"teardown_ms", s.teardown_ms},     {"run_ms", run_ms(result)}};
  j["drained"] = s.drained;
  for (const Server& server : kServers) {
    if (s.*server.ms >= 0) j[server.key] = s.*server.ms;
  }
  return j;
}

}  // namespace cli

#endif
