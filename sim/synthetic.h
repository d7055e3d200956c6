#pragma once
// A synthetic workload for the kernel alone: `nodes` nodes in a ring, each connected to
// the next, passing numbered tokens over the network with random latency, random drops
// (which break connections and make the sender reconnect) and same-instant ties. It is
// what the kernel tests replay and what `eosim bench kernel` times.

#include <cstdint>

#include "sim/kernel.h"

namespace sim {

struct SyntheticOptions {
  int nodes = 4;
  int tokens = 8;                     // tokens circulating at once
  std::uint64_t max_steps = 10'000;   // the run stops here
  Ratio drop = {1, 200};              // per frame
};

struct SyntheticResult {
  std::uint64_t steps = 0;
  std::uint64_t frames_sent = 0;
  std::uint64_t frames_lost = 0;
  std::uint64_t reconnects = 0;
};

// Builds the ring inside `kernel` and runs it to `max_steps`.
SyntheticResult run_synthetic(Kernel& kernel, const SyntheticOptions& options);

}  // namespace sim
