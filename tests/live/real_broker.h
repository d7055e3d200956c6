#pragma once
// The real broker the live tests use: a private RabbitMQ started once per test binary (on
// first use) and stopped by PID when the binary exits - also after a failed check, since
// the PrivateBroker is destroyed at exit and process.h kills registered groups on a fatal
// signal - or the one EOSIM_AMQP_URL names.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <memory>
#include <string>

#include "src/live/endpoint.h"
#include "src/live/launcher.h"

namespace live_test {

struct RealBroker {
  std::unique_ptr<live::PrivateBroker> broker;  // null with EOSIM_AMQP_URL
  live::Endpoint endpoint;
  std::string url;  // with the password, for child processes
  std::string error;
};

inline RealBroker& real_broker() {
  static RealBroker r = [] {
    RealBroker b;
    if (const char* url = std::getenv("EOSIM_AMQP_URL"); url != nullptr && *url != '\0') {
      if (live::Status s = live::parse_amqp_url(url, b.endpoint); !s.ok()) b.error = s.message;
      b.url = url;
      return b;
    }
    if (live::Status s = live::PrivateBroker::start({}, b.broker); !s.ok()) {
      b.error = s.message;
    } else {
      b.endpoint = b.broker->endpoint();
      b.url = b.endpoint.login_url();
    }
    return b;
  }();
  return r;
}

inline const live::Endpoint& broker_endpoint() {
  const RealBroker& r = real_broker();
  INFO(r.error);
  REQUIRE(r.error.empty());
  return r.endpoint;
}

}  // namespace live_test
