// When a live run has settled or is a redelivery loop (src/live/settle.h): SettleWatch is
// given snapshots and times by hand here, as the supervisor gives them every 100 ms.
#include <catch2/catch.hpp>

#include "src/live/settle.h"

namespace {

constexpr std::int64_t kQuiet = 1500;
constexpr std::int64_t kDrained = 500;
constexpr std::int64_t kOrders = 3;

live::Snapshot committed(std::int64_t orders, std::int64_t debits) {
  live::Snapshot s;
  s.committed = orders;
  s.debits = debits;
  s.deliveries = debits;
  s.most_delivered = debits > 0 ? 1 : 0;
  return s;
}

// Every order committed, sent and debited once; nothing ready, nothing held.
live::Snapshot drained(std::int64_t orders) {
  live::Snapshot s = committed(orders, orders);
  s.applied = orders;  // (committed() leaves it 0: not drained)
  return s;
}

constexpr live::Hold kNone = live::Hold::kNone;
constexpr live::Hold kMargin = live::Hold::kMargin;
constexpr live::Hold kPending = live::Hold::kPending;

}  // namespace

TEST_CASE("settle: every order committed and a quiet period without change", "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  w.observe(committed(3, 3), 1000);
  CHECK(w.decide(1000 + kQuiet - 1, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
  CHECK(w.last_change_ms() == 1000);  // the run settled when it last changed
  // Something pending (an actor waiting for its restart, a broker just back) holds it.
  CHECK(w.decide(1000 + 10 * kQuiet, kPending, kOrders) == live::RunEnd::kGoesOn);
}

TEST_CASE("settle: a change starts the quiet period again", "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  w.observe(committed(3, 2), 1000);
  w.observe(committed(3, 2), 2000);  // the same: still quiet since 1000
  CHECK(w.last_change_ms() == 1000);
  w.observe(committed(3, 3), 2400);
  CHECK(w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(2400 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
  w.changed_at(5000);  // a broker restart, which no snapshot shows
  CHECK(w.decide(5000 + kQuiet - 1, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(5000 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: with orders not committed, only after three quiet periods", "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  w.observe(committed(2, 2), 1000);
  CHECK(w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + 3 * kQuiet - 1, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + 3 * kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: an order redelivered again and again while nothing else changes is a loop",
          "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  live::Snapshot s = committed(3, 2);
  std::int64_t now = 1000;
  w.observe(s, now);
  int loops = 0;
  // Deliveries go on (so the snapshot keeps changing and the run never settles), but the
  // tables and the fault log stay the same.
  for (int i = 0; i < 30; ++i) {
    now += 100;
    ++s.deliveries;
    s.most_delivered = 1 + i;
    w.observe(s, now);
    const live::RunEnd end = w.decide(now, kNone, kOrders);
    if (s.most_delivered < live::kLoopDeliveries || now - 1000 < kQuiet) {
      CHECK(end == live::RunEnd::kGoesOn);
    } else {
      CHECK(end == live::RunEnd::kLoop);
      ++loops;
    }
  }
  CHECK(loops > 0);
  // A debit (an effect) starts the quiet period for the loop again.
  ++s.debits;
  ++s.deliveries;
  w.observe(s, now + 100);
  CHECK(w.decide(now + 100 + kQuiet - 1, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(now + 100 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: no loop while orders are missing or something is pending", "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  live::Snapshot s = committed(2, 2);
  s.most_delivered = 50;
  w.observe(s, 1000);
  ++s.deliveries;
  w.observe(s, 1000 + kQuiet);  // changed: not settled, effects quiet for a quiet period
  CHECK(w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kGoesOn);  // 2 of 3
  s.committed = 3;
  live::SettleWatch all(0, kQuiet, kDrained);
  all.observe(s, 1000);
  ++s.deliveries;
  all.observe(s, 1000 + kQuiet);
  CHECK(all.decide(1000 + kQuiet, kPending, kOrders) == live::RunEnd::kGoesOn);
  CHECK(all.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kLoop);
}

TEST_CASE("settle: a drained run settles after the short period, even in a restart's margin",
          "[live-unit]") {
  live::SettleWatch w(0, kQuiet, kDrained);
  w.observe(drained(3), 1000);
  CHECK(w.decide(1000 + kDrained - 1, kNone, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + kDrained, kNone, kOrders) == live::RunEnd::kDrained);
  CHECK(w.decide(1000 + kDrained, kMargin, kOrders) == live::RunEnd::kDrained);
  // Something pending still holds it: an actor's restart can publish or redeliver.
  CHECK(w.decide(1000 + 10 * kQuiet, kPending, kOrders) == live::RunEnd::kGoesOn);
  // The margin holds back a run while a message waits somewhere, even after the full
  // quiet period: an actor stuck in a login may still take it.
  live::Snapshot waiting = drained(3);
  waiting.ready = 1;
  live::SettleWatch m(0, kQuiet, kDrained);
  m.observe(waiting, 1000);
  CHECK(m.decide(1000 + 10 * kQuiet, kMargin, kOrders) == live::RunEnd::kGoesOn);
  CHECK(m.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled);
  // An idle run with an order never applied (lost at the restart): the full quiet period,
  // margin or not.
  live::Snapshot lost = drained(3);
  lost.applied = 2;
  live::SettleWatch l(0, kQuiet, kDrained);
  l.observe(lost, 1000);
  CHECK(l.decide(1000 + kQuiet - 1, kMargin, kOrders) == live::RunEnd::kGoesOn);
  CHECK(l.decide(1000 + kQuiet, kMargin, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: what waits anywhere keeps a run from draining", "[live-unit]") {
  // Each of these alone: the run waits for the full quiet period.
  const auto full_quiet = [](const live::Snapshot& s) {
    live::SettleWatch w(0, kQuiet, kDrained);
    w.observe(s, 1000);
    return w.decide(1000 + kQuiet - 1, kNone, kOrders) == live::RunEnd::kGoesOn &&
           w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kSettled;
  };
  live::Snapshot s = drained(3);
  s.held = 1;  // a consumer holds a delivery: its ack or a redelivery is still to come
  CHECK(full_quiet(s));
  s = drained(3);
  s.ready = 1;  // a message waits in the queue
  CHECK(full_quiet(s));
  s = drained(3);
  s.unsent = 1;  // the outbox still has a row to publish
  CHECK(full_quiet(s));
  s = drained(3);
  s.applied = 2;  // an order committed and never debited (lost, so far)
  CHECK(full_quiet(s));
  s = drained(3);
  s.debits = 4;  // a duplicate debit does not keep a drained run going
  live::SettleWatch d(0, kQuiet, kDrained);
  d.observe(s, 1000);
  CHECK(d.decide(1000 + kDrained, kNone, kOrders) == live::RunEnd::kDrained);
  // Orders not all committed: three quiet periods, drained or not.
  live::SettleWatch w(0, kQuiet, kDrained);
  w.observe(drained(2), 1000);
  CHECK(w.decide(1000 + kQuiet, kNone, kOrders) == live::RunEnd::kGoesOn);
}
