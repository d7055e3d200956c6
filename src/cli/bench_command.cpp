// `eosim bench kernel`: how fast the deterministic kernel runs, on the synthetic ring of
// sim/synthetic.h. The wall clock is read here and only here: it measures the run, it never
// feeds it, so the trace hash printed beside the timing is the same on every machine.

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <iostream>

#include "sim/kernel.h"
#include "sim/synthetic.h"
#include "sim/trace.h"
#include "src/cli/commands.h"

namespace cli {

int bench_kernel_command(const BenchKernelOptions& options, std::ostream& out) {
  sim::Kernel kernel(options.seed);
  sim::SyntheticOptions synthetic;
  synthetic.max_steps = options.events;

  const auto start = std::chrono::steady_clock::now();
  const sim::SyntheticResult result = sim::run_synthetic(kernel, synthetic);
  const auto stop = std::chrono::steady_clock::now();

  const double seconds = std::chrono::duration<double>(stop - start).count();
  const double per_second = seconds > 0 ? static_cast<double>(result.steps) / seconds : 0.0;
  char timing[96];
  std::snprintf(timing, sizeof timing, "seconds:     %.3f\nevents/s:    %.0f\n", seconds,
                per_second);

  out << "bench kernel: synthetic ring of " << synthetic.nodes << " nodes, "
      << synthetic.tokens << " tokens, drop " << synthetic.drop.to_string() << ", SEED="
      << options.seed << '\n'
      << "events:      " << result.steps << '\n'
      << "frames:      " << result.frames_sent << " sent, " << result.frames_lost << " lost\n"
      << "reconnects:  " << result.reconnects << '\n'
      << timing << "trace_hash:  " << sim::hash_hex(kernel.trace.hash()) << " ("
      << kernel.trace.size() << " events)\n";
  return kExitOk;
}

}  // namespace cli
