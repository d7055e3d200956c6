#pragma once
// The simulated network as an actor's transport: one node of sim::Network ("consumer1",
// "relay", ...) whose peer is the broker node. Frames become sim::Frames carrying the
// method (src/broker/frames.h); the network decides when they arrive, or that they are lost.

#include <string>

#include "sim/kernel.h"
#include "src/transport/transport.h"

namespace transport {

class SimTransport final : public Transport {
 public:
  SimTransport(sim::Network& network, sim::NodeId node, sim::NodeId server = "broker");
  SimTransport(const SimTransport&) = delete;
  SimTransport& operator=(const SimTransport&) = delete;

  void set_handlers(Handlers handlers) override;
  ConnId connect() override;
  bool send(ConnId conn, Outgoing frame) override;
  void close(ConnId conn) override;
  void reset_all() override;
  bool is_open(ConnId conn) const override;

 private:
  sim::Network& network_;
  sim::NodeId node_;
  sim::NodeId server_;
  // The actor's handlers, kept here: the node's handlers only point back at them, so each
  // is a closure of one pointer that std::function stores without allocating.
  Handlers handlers_;
};

// The Env of an actor in a simulated world. Its kernel's fault plan is named for the
// lab's ids (a world names it first, before its rules: name_lab_ids).
inline Env sim_env(sim::Kernel& kernel, Transport& net) {
  name_lab_ids(kernel);
  return Env{net, kernel.scheduler, kernel.faults, kernel.trace};
}

}  // namespace transport
