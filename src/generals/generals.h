#pragma once
// The Two Generals model: General A ("generalA") proposes "attack at dawn" to General B
// ("generalB") by courier over the simulator's lossy datagram channel; each general, on
// receiving courier n, sends courier n+1 back (ack, ack-of-ack, ...) up to `couriers`.
// The model is steppable (one kernel event per step) and exposes const views for the CLI
// (`eosim generals`) and the GUI's Two Generals mode, which never decide anything here.
//
// How a courier is lost: at random, by the FaultPlan's "drop" kind at the sites
// "courier.generalA->generalB" / "courier.generalB->generalA" with ratio `loss` (one
// choice per courier, on the tape, replayable); by a scripted rule (`capture` in the
// options, fired through FaultPlan::check); or by hand (capture_next(), logged with
// FaultPlan::record). A scripted capture and the same capture by hand give the same trace.
//
// Invariants:
//  (1) At most one courier is in flight: a courier is only sent in reply to the one
//      before it, so the exchange is a chain that stops at the first captured courier or
//      after courier `couriers`. Couriers are numbered from 1 and sent in order.
//  (2) Nobody ever confirms the last courier sent: its sender can only learn that it
//      arrived from the next courier, and there is none. last_courier_unconfirmed() checks
//      this on the state, and it holds after every step of every run, for any N.
//  (3) Same options -> same events, same trace and the same trace hash.
// REQUIRES: validate(options).ok() before constructing a TwoGenerals.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/kernel.h"
#include "sim/named.h"
#include "src/generals/knowledge.h"
#include "src/status/status.h"

namespace generals {

struct GeneralsOptions {
  int couriers = 4;            // N: the most couriers the protocol sends (1 = no ack at all)
  sim::Ratio loss{1, 4};       // chance that any one courier is captured
  std::uint64_t seed = 1;      // the run's seed (latencies and captures)
  sim::Tick latency_min = 1;   // a courier's travel time, drawn from [min, max] ticks
  sim::Tick latency_max = 10;
  int attack_level = 2;        // decision rule: attack once your knowledge level reaches it
  std::vector<int> capture;    // couriers captured by a script, whatever `loss` says
};

// ok() when the options are usable; otherwise an error naming the bad field.
eosim::Status validate(const GeneralsOptions& options);

enum class CourierStatus { kNotSent, kInFlight, kDelivered, kCaptured };

// One courier of the protocol (all N are listed; those never sent are kNotSent).
struct CourierView {
  int number = 0;            // 1..N
  General from = General::kA;
  General to = General::kB;
  std::string text;          // courier_text(number)
  int sender_level = 0;      // the knowledge it carries: its sender's level (number - 1)
  CourierStatus status = CourierStatus::kNotSent;
  bool scripted = false;     // captured by a rule or by hand, not by the random loss
  sim::Tick sent_at = 0;     // valid unless kNotSent
  sim::Tick arrived_at = 0;  // valid when kDelivered
  bool confirmed = false;    // its sender got the next courier, so knows this one arrived
};

// One rung of the "who knows what" ladder: rung k is fact k (see knowledge.h).
struct Rung {
  int level = 0;
  std::string text;          // fact_text(level)
  General who = General::kA; // who would hold it
  bool known = false;        // it holds now
  int courier = 0;           // the courier that teaches it (0 for rung 0: A's own plan)
  CourierStatus status = CourierStatus::kDelivered;  // of that courier (rung 0: delivered)
  bool confirmed = false;    // the other general knows this rung holds (courier level+1 arrived)
};

struct Decision {
  General general = General::kA;
  int level = 0;             // its knowledge level now
  int attack_level = 0;      // the rule it follows
  bool attacks = false;
  OtherLevels other_levels;  // what it can tell about the other's level
  Belief about_other = Belief::kUnsure;
  bool safe = false;         // it knows the other decides the same as it does
};

// Named (sim::name_of) "both attack", ...; its meaning says what comes of it.
enum class Outcome { kBothAttack, kNeitherAttacks, kOnlyA, kOnlyB };

class TwoGenerals {
 public:
  explicit TwoGenerals(GeneralsOptions options);
  // Handlers registered with the network point at this object.
  TwoGenerals(const TwoGenerals&) = delete;
  TwoGenerals& operator=(const TwoGenerals&) = delete;

  // Runs one kernel event (A proposing, or a courier arriving). False when nothing is left.
  bool step();
  void run();
  bool done() const { return kernel_.scheduler.idle(); }

  // The next courier sent is captured. False (and nothing armed) when no courier will be
  // sent any more: the last one was captured, or courier N was already sent.
  bool capture_next();
  bool capture_armed() const { return capture_armed_; }

  const GeneralsOptions& options() const { return options_; }
  const std::vector<Rung>& ladder() const { return rungs_; }
  std::vector<CourierView> couriers() const;
  int level(General g) const { return g == General::kA ? level_a_ : level_b_; }
  int last_sent() const { return last_sent_; }  // 0 before A sends courier 1

  // The sender of the last courier sent has no confirmation that it arrived (before any
  // courier: A does not know whether B knows the plan). Computed from the state.
  bool last_courier_unconfirmed() const;
  Decision decision(General g) const;
  Outcome outcome() const;
  // Both generals know each other's level exactly and B knows the plan: the least that
  // common knowledge of the plan would need. It never holds; that is the theorem.
  bool common_knowledge() const;

  const sim::Kernel& kernel() const { return kernel_; }
  std::uint64_t trace_hash() const { return kernel_.trace.hash(); }

 private:
  struct Courier {
    CourierStatus status = CourierStatus::kNotSent;
    bool scripted = false;
    sim::Tick sent_at = 0;
    sim::Tick arrived_at = 0;
  };

  void dispatch(int number);
  void on_courier(General receiver, const sim::Frame& frame);
  void refresh_ladder();
  const Courier& courier(int number) const;
  Courier& courier(int number);
  bool delivered(int number) const;

  GeneralsOptions options_;
  sim::Kernel kernel_;
  std::vector<Courier> couriers_;  // [n-1] is courier n
  std::vector<Rung> rungs_;        // [k] is fact k, k = 0..N
  int level_a_ = 0;
  int level_b_ = 0;
  int last_sent_ = 0;
  bool capture_armed_ = false;
};

// How no finite N is safe: the courier whose capture (alone) leaves exactly one general
// attacking under these options' rule; 0 when delivering every courier already does.
// nullopt when nobody attacks in any run (N is below the rule's level): safe, and
// useless. A run is fixed by its first captured courier, so trying each one (and none)
// covers every outcome; the model itself is run for each, with loss 0.
struct Split {
  int captured = 0;
  General alone = General::kA;
};
std::optional<Split> find_split(GeneralsOptions options);

}  // namespace generals

namespace sim {
// "not sent", "in flight", "delivered", "captured"
template <>
std::span<const Named<generals::CourierStatus>> enum_names<generals::CourierStatus>();
template <>
std::span<const Named<generals::Outcome>> enum_names<generals::Outcome>();
}  // namespace sim
