#pragma once
// When a live run has settled. The supervisor takes a snapshot of the run about every
// 100 ms - the tables, the queue, the fault log, the fault proxy's silent connections -
// and a SettleWatch decides from the snapshots whether the run goes on:
//  - settled: every order committed and nothing in the snapshot changed for the quiet
//    period (or nothing at all for three quiet periods, when orders are missing);
//  - settled sooner, drained: every order committed, sent, and debited or rejected, the
//    queue empty and no consumer holding a delivery unacked, and nothing changed for the
//    short drained period. Nothing is left that could act: no message waits anywhere, so
//    no redelivery can come. (The short period covers frames in flight between the broker
//    and the fault proxy, which neither count shows.);
//  - a redelivery loop: every order committed, one order delivered kLoopDeliveries times or
//    more, and nothing but deliveries changed for the quiet period - a poison message
//    requeued forever, which the model ends at its step bound.
// Neither while something is pending (an actor waiting for its restart, a silent
// connection end someone will close); the margin after a broker restart holds back a run
// only while a message still waits somewhere (Snapshot::idle).
//
// SettleWatch is a pure function of the snapshots and times it is given: no clock, no I/O.

#include <cstddef>
#include <cstdint>
#include <string>

namespace live {

// What a person watches, and what must stop changing before the run counts as settled.
struct Snapshot {
  std::int64_t committed = 0, unsent = 0, debits = 0, rejections = 0, deliveries = 0;
  std::int64_t applied = 0;  // orders with a debit or a rejection (each counted once)
  std::uint32_t ready = 0;
  std::int64_t held = 0;  // deliveries the consumers' connections hold unacked (fault proxy)
  std::size_t faults = 0;
  std::int64_t most_delivered = 0;  // the delivery count of the order delivered most
  int silent_ends = 0;  // the fault proxy's silent connection ends still open
  bool operator==(const Snapshot&) const = default;
  // What the run has done to the world: the tables and the faults (not the queue).
  bool same_effects(const Snapshot& o) const {
    return committed == o.committed && unsent == o.unsent && debits == o.debits &&
           rejections == o.rejections && faults == o.faults;
  }
  // No message waits anywhere: none unsent in the outbox, ready in the queue or held by a
  // consumer.
  bool idle() const { return unsent == 0 && ready == 0 && held == 0; }
  // Idle, and every committed order applied.
  bool drained() const { return idle() && applied >= committed; }
};

// An order delivered this often while nothing but deliveries changed for the quiet period
// is in a redelivery loop: the live counterpart of the model's step bound.
constexpr std::int64_t kLoopDeliveries = 20;

// The run's tables (in `dir`) and the fault log, now. `ready`, `held` and silent_ends are
// left 0: the broker and the fault proxy know them (the supervisor asks them). With the user's
// consumer, `effects_query` (user_consumer.h) counts its debits on its own ledger.
Snapshot snapshot(const std::string& dir, const std::string& effects_query = "");

// "live: 3.2 s, 3/3 orders committed, ...": the one line of progress.
std::string progress_line(const Snapshot& s, std::int64_t orders, std::int64_t elapsed_ms,
                          int restarts);

// "order 2 delivered 57 times ...": the loop that ended a run, from its deliveries.db.
std::string loop_text(const std::string& dir, std::int64_t quiet_ms);

// kDrained: settled by the short period of a drained run (Snapshot::drained).
enum class RunEnd { kGoesOn, kSettled, kDrained, kLoop };

// What holds a run back besides its snapshots.
enum class Hold {
  kNone,
  // The margin after a broker restart (supervisor.h, kAfterBrokerRestartMs): an actor may
  // sit in a login begun while the node booted and act once it gives up. An idle run has
  // nothing left for it to publish or take, and does not wait for it.
  kMargin,
  kPending,  // an actor waiting for its restart, a silent connection end: the run goes on
};

class SettleWatch {
 public:
  // `origin_ms`: when the run began (nothing has changed before); `quiet_ms`: the quiet
  // period; `drained_ms`: the shorter one of a drained run.
  SettleWatch(std::int64_t origin_ms, std::int64_t quiet_ms, std::int64_t drained_ms)
      : last_change_ms_(origin_ms),
        last_effect_ms_(origin_ms),
        quiet_ms_(quiet_ms),
        drained_ms_(drained_ms) {}

  // The snapshot taken at `now_ms`.
  void observe(const Snapshot& snap, std::int64_t now_ms);
  // Something changed that no snapshot shows (the broker restarted): quiet again from now.
  void changed_at(std::int64_t now_ms) { last_change_ms_ = last_effect_ms_ = now_ms; }
  // Whether the run ends at `now_ms`, after the last observe(); `orders` is the workload's.
  RunEnd decide(std::int64_t now_ms, Hold hold, std::int64_t orders) const;
  // When the snapshot last changed: when a settled run settled.
  std::int64_t last_change_ms() const { return last_change_ms_; }

 private:
  Snapshot last_;
  std::int64_t last_change_ms_;
  std::int64_t last_effect_ms_;
  std::int64_t quiet_ms_;
  std::int64_t drained_ms_;
};

}  // namespace live
