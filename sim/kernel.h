#pragma once
// The kernel bundle: one run's chooser, scheduler, trace, fault plan and network, wired
// together in the only order that works (each refers to the ones before it).
// One Kernel per world; worlds share nothing, so sweeps run them on parallel threads.

#include <cstdint>

#include "sim/faults.h"
#include "sim/network.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "sim/trace.h"

namespace sim {

struct Kernel {
  explicit Kernel(std::uint64_t seed, TieBreak tie_break = TieBreak::kChoice)
      : chooser(seed),
        scheduler(chooser, tie_break),
        trace(scheduler),
        faults(chooser, scheduler),
        network(scheduler, chooser, faults, trace) {}
  Kernel(std::uint64_t seed, ChoiceTape tape, TapeEnd end,
         TieBreak tie_break = TieBreak::kChoice)
      : chooser(seed, std::move(tape), end),
        scheduler(chooser, tie_break),
        trace(scheduler),
        faults(chooser, scheduler),
        network(scheduler, chooser, faults, trace) {}
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  Chooser chooser;
  Scheduler scheduler;
  Trace trace;
  FaultPlan faults;
  Network network;
};

}  // namespace sim
