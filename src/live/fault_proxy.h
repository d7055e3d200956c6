#pragma once
// A frame-aware TCP fault proxy between AMQP 0-9-1 clients and a real broker (Boost.Asio).
// It is the live counterpart of the model's network (sim/network.h): every actor of a live
// run connects to the proxy instead of the broker, and the proxy loses a chosen frame the
// way the model does - the connection breaks, the sender's end at once and the far end
// when its own detection says so - or freezes a connection (a silent peer).
// The same proxy carries another protocol when given its Framer (ProxyOptions::framer):
// PostgreSQL's, for the database link (pg_wire.h).
//
// Contract:
//  - start() listens on 127.0.0.1 at `listeners` free ports (one per actor of a run, so
//    the judge knows whose connection a frame is on) and serves on its own thread until
//    stop() or destruction. Every accepted client gets its own upstream connection.
//  - Bytes are forwarded in order, per direction, whole commands at a time: a method
//    frame, and for basic.publish / basic.deliver / basic.return its content header and
//    body frames. The client's 8-byte protocol header passes untouched. (Another protocol:
//    whole units as its Framer cuts them; a unit it answers itself goes back to its sender
//    and is not forwarded.)
//  - Every method frame is shown to the judge (on the proxy's thread, in the order the
//    frames pass) with what it carries: the message's `order` header, the delivery tag.
//    The judge answers:
//      pass    forwarded;
//      drop    the command is not forwarded, nor anything after it on that connection,
//              either way. The end that sent it is reset (RST) at once; the far end hears
//              nothing more and is reset after `notice_ms` (-1: never - its own
//              heartbeats decide, as in the model with per-side detection);
//      freeze  the command is forwarded, then the connection carries nothing either way
//              and sends no FIN; each end is reset after `notice_ms` (-1: never).
//    An end that closes its socket while its connection is silent is closed alone: the
//    other end, behind the silent link, learns nothing of it (sim/network.h, freeze).
//  - freeze(true) stops forwarding on every connection (held, not judged); freeze(false)
//    forwards again. refuse(true) resets every new client at once without dialling the
//    broker; open connections are not affected.
//  - Faults trigger on content (what the judge sees), never on time; `notice_ms` is how
//    long the far end of a broken connection takes to notice, as the model's ticks are.
//  - Public methods are thread-safe.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "src/live/amqp_wire.h"
#include "src/live/endpoint.h"
#include "src/live/status.h"

namespace live {

struct ProxyAction {
  enum Kind { kPass, kDrop, kFreeze } kind = kPass;
  std::int64_t notice_ms = -1;  // see the contract; -1 = never
};

using Judge = std::function<ProxyAction(const SeenFrame&)>;

// One client's connection through the proxy.
struct ConnectionId {
  int listener = 0;              // which of the proxy's ports the client came in on
  std::uint64_t connection = 0;  // the proxy's id of the connection, from 1
  std::uint16_t client_port = 0;
};

// What a Framer makes of the bytes at the front of one direction of a connection.
struct Cut {
  // One past the unit's last byte; 0 while it is not all there yet; kNotFramed when the
  // bytes cannot be the protocol (the connection is reset: nothing sensible to forward).
  std::size_t end = 0;
  ProxyAction action;  // what happens to the unit (and, for drop and freeze, the connection)
  // Not empty: the proxy answers the unit itself with these bytes to its sender, and does
  // not forward it (PostgreSQL's SSLRequest, refused). Only at the front of a connection,
  // before the far end has said anything.
  std::vector<std::uint8_t> answer;
};
inline constexpr std::size_t kNotFramed = static_cast<std::size_t>(-1);

// Cuts one connection's bytes into the protocol's units and judges each: one object per
// connection, called on the proxy's thread only, both directions in the order bytes come.
class Framer {
 public:
  virtual ~Framer() = default;
  // The unit starting at `pos` of data[0, size) that travels `from`.
  virtual Cut next(Direction from, const std::uint8_t* data, std::size_t size, std::size_t pos) = 0;
};
using FramerFactory = std::function<std::unique_ptr<Framer>(const ConnectionId&)>;

struct ProxyOptions {
  int listeners = 1;
  Judge judge;  // AMQP's: null, everything passes
  // Another protocol than AMQP 0-9-1: its framer for each new connection (`judge` unused).
  FramerFactory framer;
};

class FaultProxy {
 public:
  static Status start(const Endpoint& upstream, const ProxyOptions& options,
                      std::unique_ptr<FaultProxy>& out);
  static Status start(const Endpoint& upstream, std::unique_ptr<FaultProxy>& out) {
    return start(upstream, ProxyOptions{}, out);
  }
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  // The broker's endpoint with the proxy's host and the port of `listener`: give this to
  // the clients of that listener.
  const Endpoint& endpoint(int listener = 0) const { return endpoints_.at(listener); }

  void freeze(bool on);
  void refuse(bool on) { refusing_ = on; }
  void reset_all();  // RST every open connection, both sides
  void stop();       // idempotent; closes everything and joins the thread

  // Ends (sockets) of silent connections - frozen, or the far end of a broken one - that
  // are still open: each is closed later by its notice timer, its peer's own detection,
  // or never (heartbeats off). A run waits for them to settle.
  int silent_ends() const { return silent_ends_; }
  int frames_dropped() const { return dropped_; }
  int connections_frozen() const { return frozen_connections_; }
  int connections_accepted() const { return accepted_; }

  struct Impl;

 private:
  FaultProxy() = default;

  std::vector<Endpoint> endpoints_;
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
  std::atomic<bool> frozen_{false};
  std::atomic<bool> refusing_{false};
  std::atomic<int> dropped_{0};
  std::atomic<int> silent_ends_{0};
  std::atomic<int> frozen_connections_{0};
  std::atomic<int> accepted_{0};

  friend class Pipe;
};

}  // namespace live
