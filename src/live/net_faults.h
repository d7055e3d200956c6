#pragma once
// The scenario's network rules (`net.<role>->broker`, `net.broker-><role>`) applied by the
// fault proxy of a live run: the judge the proxy asks for every method frame.
//
// It asks a sim::FaultPlan holding the scenario's rules, with the same FaultPoint the
// model's network builds (sim/network.cpp): site from the listener's actor and the
// direction, the model's frame kind, order, attempt, instance. So `nth`, `times`, `order`,
// `attempt`, `frame` and `instance` match as in the model, counted over every connection of
// the run. What the model numbers that the wire does not carry is counted here:
//  - a delivery's attempt: the nth basic.deliver of that order to any consumer (the model's
//    broker counts the same); an ack, nack or reject carries its delivery's order and
//    attempt (by connection and delivery tag);
//  - a publish's attempt: the nth basic.publish of that order on that site.
// A frame the model does not have (connection.*, channel.open, the *-ok replies) or a
// site the catalog does not list passes unjudged and uncounted.
//
// Every basic.deliver to a consumer is also written to the run's deliveries.db (table
// `attempts`, by the consumer's port and the delivery tag) before it is forwarded: the
// consumer reads its attempt number there, so a delivery's attempt is the broker's count
// - including deliveries a consumer never read (a dropped frame, a prefetch buffer a
// crash threw away) - as the model's broker counts, never what timing let through.
//
// A fired rule is appended to the run folder's faults.log (the run's report lists it) and
// to trace-proxy.jsonl. `notice_ms` is what the proxy is told: how long the far end of a
// broken (or both ends of a frozen) connection takes to notice - the model's
// heartbeat_timeout in wall time, or -1 when the scenario has [network] heartbeat: then the
// real heartbeats negotiated by the actors decide, as each side's detection does in the
// model.
//
// A rule with `do = "crash"` on a consumer's link (`net.broker->consumer` frame
// basic.deliver, `net.consumer->broker` frame basic.ack; written in a scenario file, or
// drawn by a live sweep's schedule, live_schedule.h) kills that consumer's process group with
// SIGKILL as the frame goes by: the frame is forwarded, so the consumer is killed holding
// that delivery unacked, or right after its ack left. The kill goes to the group set for the
// frame's listener (set_group), never to anything else; with none set, nothing is killed.
//
// Not thread-safe, but for set_group and the counters: the proxy calls judge() on its one
// thread.

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "sim/faults.h"
#include "sim/rng.h"
#include "sim/scheduler.h"
#include "src/live/fault_proxy.h"
#include "src/scenario/scenario.h"
#include "src/store/db.h"

namespace live {

// The model's frame kind of a method passing in `direction` ("" if the model has none):
// the broker's basic.ack to a publisher is "confirm.ack".
std::string model_frame_kind(Direction direction, const MethodId& method);

// Whether the scenario has network rules (then the run needs the proxy's judge).
bool has_network_rules(const lab::Scenario& scenario);

struct NetFaultsOptions {
  std::vector<std::string> nodes;  // listener index -> actor node ("consumer1", "relay")
  std::string run_dir;             // faults.log and trace-proxy.jsonl go here
  std::int64_t origin_ms = 0;      // the run's tick 0 (CLOCK_MONOTONIC ms) and tick length,
  std::int64_t tick_ms = 10;       // for the time of a fired fault
  // The user's consumer counts nothing itself: each basic.deliver also sets the order's row
  // in deliveries.db (n = the broker's count of its deliveries, redelivered = n - 1).
  bool count_deliveries = false;
  // Per rule of the scenario's script: a kill (`do = "crash"`) this many ms after its frame
  // (a live sweep's kill at a delay); missing or 0 = at once.
  std::vector<std::int64_t> kill_delays_ms;
};

class NetFaults {
 public:
  NetFaults(const lab::Scenario& scenario, NetFaultsOptions options);
  ~NetFaults();  // waits for the kills at a delay still to come (at most their delay)
  NetFaults(const NetFaults&) = delete;
  NetFaults& operator=(const NetFaults&) = delete;

  ProxyAction judge(const SeenFrame& frame);
  std::int64_t notice_ms() const { return notice_ms_; }
  // Thread-safe: method frames a client sent on `listener`'s connections (> 0: it logged
  // in), and its basic.consume frames (> 0: it subscribed).
  int frames_from(int listener) const;
  int consumes_from(int listener) const;
  // Thread-safe: the basic.deliver frames of `order` that passed so far, to any consumer
  // (the attempt of its latest delivery; 0 before the first).
  std::int64_t deliveries_of(std::int64_t order) const;
  // Thread-safe: the process group of the actor behind `listener` (0: none runs).
  void set_group(int listener, pid_t pgid);

  // What a consumer holds (thread-safe): the deliveries its latest connection carried that
  // it has not acked, nacked or rejected yet (by delivery tag, `multiple` honoured), their
  // orders, and when it last received or settled one (CLOCK_MONOTONIC ms). A new connection
  // of the listener (its first frame) starts afresh: the broker gives back what an old one
  // held once it is gone.
  struct Held {
    std::vector<std::int64_t> orders;  // one per delivery held, by tag
    std::int64_t since_ms = 0;         // the last deliver or settle on that connection
  };
  Held held_by(int listener) const;
  // Thread-safe: whether `listener` is logging in again: its latest connection opened less
  // than kLoginGraceMs before `now_ms` and has not sent basic.consume yet. A consumer whose
  // connection broke and that connects again does not take deliveries until it consumes
  // once more: what the queue holds meanwhile waits for it and is not stuck yet. Bounded,
  // so a connection that never consumes (one a consumer publishes on) holds nothing up.
  bool logging_in(int listener, std::int64_t now_ms) const;
  static constexpr std::int64_t kLoginGraceMs = 10000;

 private:
  struct Tagged {
    std::int64_t order = 0;
    std::int64_t attempt = 0;
  };
  void on_fired(sim::FiredFault fault, const SeenFrame& frame);
  void record_attempt(const SeenFrame& frame, std::int64_t order, std::int64_t attempt);
  void count_client_frame(const SeenFrame& frame);
  void track_held(const SeenFrame& frame);
  void kill(int listener);  // the kill of the rule that just fired, at once or later
  struct Holding {
    std::uint64_t connection = 0;
    std::map<std::uint64_t, std::int64_t> tags;  // delivery tag -> order
    std::int64_t since_ms = 0;
    std::int64_t opened_ms = 0;  // its first frame
    bool consumed = false;       // the connection sent basic.consume
    bool auto_ack = false;       // ... with no-ack: its deliveries are settled as sent
  };

  NetFaultsOptions options_;
  std::int64_t notice_ms_ = -1;
  sim::Chooser chooser_{0};
  sim::Scheduler scheduler_{chooser_};
  sim::FaultPlan plan_{chooser_, scheduler_};
  std::map<std::pair<std::string, std::int64_t>, std::int64_t> sends_;  // (site, order) -> n
  std::map<std::pair<std::uint64_t, std::uint64_t>, Tagged> tags_;      // (connection, tag)
  std::ofstream trace_;
  store::Db attempts_;                      // the run's deliveries.db
  std::vector<std::atomic<int>> frames_;    // per listener, from the client
  std::vector<std::atomic<int>> consumes_;  // per listener: basic.consume
  mutable std::mutex delivered_mutex_;
  std::map<std::int64_t, std::int64_t> delivered_;  // order -> basic.deliver frames
  std::vector<std::atomic<pid_t>> groups_;          // per listener: its process group, 0 = none
  mutable std::mutex held_mutex_;
  std::vector<Holding> held_;             // per listener, under held_mutex_
  std::vector<std::int64_t> delays_;      // per rule of plan_: a kill's delay in ms
  std::vector<std::int64_t> rule_fired_;  // per rule of plan_: firings seen so far
  std::vector<std::thread> later_;        // kills at a delay
};

}  // namespace live
