// An actor process's command line never carries the broker's password (`ps` shows it to
// every user of the machine): the URL goes in its environment (live/actor_process.h).

#include "src/live/actor_process.h"

#include <stdlib.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

TEST_CASE("actor args: the broker URL is in the environment, not on the command line",
          "[live-unit]") {
  live::ActorArgs args;
  args.role = "consumer";
  args.broker_url = "amqp://eosim-1a2b:s3cret@127.0.0.1:5672/%2f";
  args.tick_ms = 10;
  const std::vector<std::string> argv = live::actor_argv("/bin/eosim", args);
  for (const std::string& arg : argv) CHECK(arg.find("s3cret") == std::string::npos);

  std::vector<char*> raw;
  for (const std::string& arg : argv) raw.push_back(const_cast<char*>(arg.c_str()));
  ::setenv(live::kBrokerUrlEnv, args.broker_url.c_str(), 1);
  live::ActorArgs parsed;
  REQUIRE(live::parse_actor_args(static_cast<int>(raw.size()), raw.data(), parsed).ok());
  CHECK(parsed.broker_url == args.broker_url);
  ::unsetenv(live::kBrokerUrlEnv);
  live::ActorArgs without;
  CHECK_FALSE(live::parse_actor_args(static_cast<int>(raw.size()), raw.data(), without).ok());
}
