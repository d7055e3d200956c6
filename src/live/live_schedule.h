#pragma once
// A live sweep's fault schedule (`eosim live FILE --seeds A..B --faults kill=1/3,drop=1/4`):
// for each seed, rules drawn before the run from the seed and the ratios, added to the
// scenario's own script, and written to the run folder (schedule.txt) in words and as
// rules.
//
// Every drawn rule is on a consumer's link, triggered by the fault proxy on what it sees
// go by (net_faults.h) - the nth basic.deliver to a consumer, or the nth basic.ack from
// one, counted over the run - so a seed means the same faults each time it runs. The interleaving
// around them (which order the nth delivery carries, what the consumer had done when the kill
// arrived) is the machine's: same faults, timing may differ. The kinds, each drawn once per
// opportunity k = 1..orders while the scenario's [faults] budget lasts:
//   kill    the consumer's process group is sent SIGKILL as the kth basic.deliver reaches
//           it (it holds that delivery unacked), at a drawn delay of 1..kMaxKillDelayMs
//           after it (wherever its code then is: the one fault here the clock places), or
//           right after its kth basic.ack
//   drop    the kth basic.ack or basic.deliver is lost: the connection breaks (the sender
//           is reset at once, the other end after the heartbeat timeout)
//   freeze  the connection goes silent after the kth basic.deliver or basic.ack
// Drawn rules are `optional`: a run that never reaches the kth frame is not a failure.
//
// Invariants:
//  (1) draw_schedule is a function of (scenario's orders and budget, ratios, seed) alone.
//  (2) Every drawn rule but a kill at a delay can be written in a scenario file as it is
//      (a kill at a frame has a model meaning: sim/network.h), and schedule_scenario
//      writes them so; a kill at a delay is the machine's clock, which the model does not
//      have: it is replayed by its seed and ratios (the sweep prints that command).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "src/live/status.h"
#include "src/scenario/scenario.h"

namespace live {

// The kinds a live sweep draws, in the order they are drawn at each opportunity, and what
// each does at its frame.
struct LiveFaultKind {
  const char* name;
  sim::FaultAction action;
};
inline constexpr LiveFaultKind kLiveFaultKinds[] = {{"kill", sim::FaultAction::kCrash},
                                                    {"drop", sim::FaultAction::kDrop},
                                                    {"freeze", sim::FaultAction::kFreeze}};

inline constexpr std::int64_t kMaxKillDelayMs = 100;

// One fault of a schedule: its rule, and for a kill at a delay the wall milliseconds from
// the frame to the SIGKILL (0: at once).
struct ScheduledFault {
  sim::FaultRule rule;
  std::int64_t delay_ms = 0;
  friend bool operator==(const ScheduledFault&, const ScheduledFault&) = default;
};

// "kill=1/3,drop=1/4": kinds of kLiveFaultKinds, each at most once, ratios as sim::Ratio.
// An error naming the part that is wrong (bad input).
Status parse_live_faults(const std::string& spec, std::map<std::string, sim::Ratio>& out);
// The inverse, in kLiveFaultKinds' order.
std::string live_faults_text(const std::map<std::string, sim::Ratio>& ratios);

// Invariant (1): the faults seed `seed` draws for a run of `s`.
std::vector<ScheduledFault> draw_schedule(const lab::Scenario& s,
                                          const std::map<std::string, sim::Ratio>& ratios,
                                          std::uint64_t seed);

// One drawn fault in words: "kill the consumer (SIGKILL) as the 2nd delivery ...".
std::string schedule_line(const ScheduledFault& fault);

// schedule.txt: the seed, the ratios, the command that replays it, then one line per rule
// (in words, then as the rule).
std::string schedule_text(std::uint64_t seed, const std::string& spec, const std::string& replay,
                          const std::vector<ScheduledFault>& faults);

// replay.toml: `s` (the scenario before the schedule was added) with seed `seed` and the
// drawn rules that a file can hold, as a scenario file `eosim live` and `eosim run` read;
// its opening comment gives `replay` (the command that runs it) and names each fault left
// out and why (invariant 2; a rule that scenario could never pass, which the loader
// refuses). Sets `left_out` to how many were left out.
std::string schedule_scenario(const lab::Scenario& s, std::uint64_t seed, const std::string& spec,
                              const std::string& replay, const std::vector<ScheduledFault>& faults,
                              std::size_t& left_out);

}  // namespace live
