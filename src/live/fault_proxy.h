#pragma once
// A frame-aware TCP fault proxy between AMQP 0-9-1 clients and a real broker (Boost.Asio).
// It is the live counterpart of the model's network rules: a client connects to the proxy
// instead of the broker, and the proxy can lose a chosen frame the way the model does —
// by taking the whole connection down, both sides reset — freeze traffic (a silent peer),
// and refuse new connections.
//
// Contract:
//  - start() listens on 127.0.0.1 at a free port and serves on its own thread until stop()
//    or destruction. Every accepted client gets its own upstream connection to the broker.
//  - Bytes are forwarded whole frames at a time, in order, per direction. The client's
//    8-byte protocol header passes untouched; after it, each frame is
//    type(1) channel(2) size(4) payload(size) 0xCE. Only method frames (type 1) match
//    rules; their first four payload bytes are class id and method id.
//  - A rule fires on the nth matching method frame (counted over all connections in that
//    direction, from 1). When it fires the frame is not forwarded and both sockets of that
//    connection are reset (RST, nothing else sent), as a dropped frame does in the model.
//    A rule fires at most once.
//  - freeze(true) stops forwarding in both directions on every connection (what arrives is
//    discarded, sockets stay open): the peers see silence, not a reset. freeze(false)
//    forwards again what arrives from then on.
//  - refuse(true) closes every new client at once (accepted, then reset) without dialling
//    the broker; open connections are not affected.
//  - All public methods are thread-safe. Faults trigger on content, never on time.

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "src/live/endpoint.h"
#include "src/live/status.h"

namespace live {

enum class Direction { kClientToBroker, kBrokerToClient };

// A method by AMQP class and method id, e.g. basic.ack = {60, 80}.
struct MethodId {
  std::uint16_t class_id = 0;
  std::uint16_t method_id = 0;
  bool operator==(const MethodId&) const = default;
};

// "basic.ack", "basic.deliver", "basic.publish", "basic.nack", "basic.reject",
// "basic.consume", "confirm.select", "queue.declare", "channel.close", "connection.close"
// (and a few more) to ids; false for a name it does not know.
bool method_by_name(const std::string& name, MethodId& out);

struct FrameRule {
  Direction direction = Direction::kClientToBroker;
  MethodId method;
  int nth = 1;  // 1-based, over every connection in `direction`
};

class FaultProxy {
 public:
  static Status start(const Endpoint& upstream, std::unique_ptr<FaultProxy>& out);
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // The broker's endpoint with the proxy's host and port: give this to clients.
  const Endpoint& endpoint() const { return endpoint_; }

  void add_rule(const FrameRule& rule);
  void freeze(bool on);
  void refuse(bool on) { refusing_ = on; }
  void reset_all();  // RST every open connection, both sides
  void stop();       // idempotent; closes everything and joins the thread

  int rules_fired() const { return rules_fired_; }
  int connections_accepted() const { return accepted_; }

  // Used by the proxy's own connections (public for the .cpp's helpers only).
  struct Impl;
  // True if this method frame, passing in `direction`, trips a rule; counts it.
  bool should_drop(Direction direction, const MethodId& method);

 private:
  FaultProxy() = default;

  Endpoint endpoint_;
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
  std::mutex rules_mutex_;
  struct Armed {
    FrameRule rule;
    int seen = 0;
    bool fired = false;
  };
  std::vector<Armed> rules_;
  std::atomic<bool> frozen_{false};
  std::atomic<bool> refusing_{false};
  std::atomic<int> rules_fired_{0};
  std::atomic<int> accepted_{0};
};

}  // namespace live
