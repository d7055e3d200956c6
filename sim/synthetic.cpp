#include "sim/synthetic.h"

#include <memory>
#include <string>
#include <vector>

namespace sim {

namespace {

struct Ring {
  Kernel& k;
  int nodes;
  std::vector<ConnId> out;  // node i's connection to node i+1
  std::uint64_t reconnects = 0;
  std::int64_t next_token = 0;

  NodeId name(int i) const { return "node" + std::to_string(i + 1); }

  void connect(int i) {
    out[i] = k.network.connect(name(i), name((i + 1) % nodes));
  }

  void pass(int from, std::int64_t token) {
    Frame f;
    f.kind = k.faults.frames().id("token");
    f.key[0] = token;  // the subject: traces name the token
    f.summary = "token";
    set_payload(f, token);
    if (!k.network.send(out[from], name(from), std::move(f))) {
      // The link is known dead: reconnect and try again a little later.
      ++reconnects;
      k.scheduler.after(2, "ring.retry", [this, from, token] {
        if (!k.network.is_open(out[from])) connect(from);
        pass(from, token);
      }, 0, event_tag(from, token));
    }
  }
};

}  // namespace

SyntheticResult run_synthetic(Kernel& kernel, const SyntheticOptions& options) {
  auto ring = std::make_shared<Ring>(Ring{kernel, options.nodes, {}, 0});
  ring->out.assign(static_cast<std::size_t>(options.nodes), 0);
  RandomFaultOptions random;
  random.ratios[std::string(fault_action_name(FaultAction::kDrop))] = options.drop;
  random.budget = INT64_MAX;
  random.horizon = UINT64_MAX;
  kernel.faults.set_random(random);
  kernel.trace.keep(false);
  for (int i = 0; i < options.nodes; ++i) {
    NodeHandlers h;
    h.on_frame = [ring, i](ConnId, const Frame& f) {
      ring->pass(i, *payload_as<std::int64_t>(f));
    };
    // Tokens lost with a broken connection are replaced, so the ring keeps its load.
    h.on_disconnect = [ring, i](ConnId conn) {
      if (conn != ring->out[i]) return;
      ++ring->reconnects;
      ring->connect(i);
      ring->pass(i, ++ring->next_token);
    };
    kernel.network.attach(ring->name(i), std::move(h));
  }
  for (int i = 0; i < options.nodes; ++i) ring->connect(i);
  ring->next_token = options.tokens;
  for (int t = 0; t < options.tokens; ++t) {
    const int from = t % options.nodes;
    kernel.scheduler.at(0, "ring.start", [ring, from, t] { ring->pass(from, t + 1); }, 0,
                        event_tag(from, t));
  }
  SyntheticResult result;
  result.steps = kernel.scheduler.run(options.max_steps).steps;
  result.frames_sent = kernel.network.frames_sent();
  result.frames_lost = kernel.network.frames_lost();
  result.reconnects = ring->reconnects;
  return result;
}

}  // namespace sim
