#pragma once
// Where a real broker listens, and how to log in: parsed from an AMQP URL
// (amqp://user:pass@host:port/vhost), as in EOSIM_AMQP_URL.

#include <string>

#include "src/live/status.h"

namespace live {

struct Endpoint {
  std::string host = "127.0.0.1";
  int port = 5672;
  std::string user = "guest";
  std::string password = "guest";
  std::string vhost = "/";

  std::string url() const;  // amqp://user:***@host:port/vhost (the password is not shown)
  // amqp://user:password@host:port/vhost, for a child process that must log in.
  std::string login_url() const;
};

// Accepts amqp://[user[:pass]@]host[:port][/vhost]; a missing part keeps its default and
// "%2f" in the vhost is "/". A bad URL is an error naming what is wrong.
// Its errors show the URL with the password replaced by ***.
Status parse_amqp_url(const std::string& url, Endpoint& out);

// `url` with the password of its user part replaced by *** (unchanged when it has none).
std::string redacted_url(const std::string& url);

}  // namespace live
