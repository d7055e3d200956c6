// When a live run has settled or is a redelivery loop (src/live/settle.h): SettleWatch is
// given snapshots and times by hand here, as the supervisor gives them every 100 ms.
#include <catch2/catch.hpp>

#include "src/live/settle.h"

namespace {

constexpr std::int64_t kQuiet = 1500;
constexpr std::int64_t kOrders = 3;

live::Snapshot committed(std::int64_t orders, std::int64_t debits) {
  live::Snapshot s;
  s.committed = orders;
  s.debits = debits;
  s.deliveries = debits;
  s.most_delivered = debits > 0 ? 1 : 0;
  return s;
}

}  // namespace

TEST_CASE("settle: every order committed and a quiet period without change", "[live-unit]") {
  live::SettleWatch w(0, kQuiet);
  w.observe(committed(3, 3), 1000);
  CHECK(w.decide(1000 + kQuiet - 1, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + kQuiet, false, kOrders) == live::RunEnd::kSettled);
  CHECK(w.last_change_ms() == 1000);  // the run settled when it last changed
  // Something pending (an actor waiting for its restart, a broker just back) holds it.
  CHECK(w.decide(1000 + 10 * kQuiet, true, kOrders) == live::RunEnd::kGoesOn);
}

TEST_CASE("settle: a change starts the quiet period again", "[live-unit]") {
  live::SettleWatch w(0, kQuiet);
  w.observe(committed(3, 2), 1000);
  w.observe(committed(3, 2), 2000);  // the same: still quiet since 1000
  CHECK(w.last_change_ms() == 1000);
  w.observe(committed(3, 3), 2400);
  CHECK(w.decide(1000 + kQuiet, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(2400 + kQuiet, false, kOrders) == live::RunEnd::kSettled);
  w.changed_at(5000);  // a broker restart, which no snapshot shows
  CHECK(w.decide(5000 + kQuiet - 1, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(5000 + kQuiet, false, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: with orders not committed, only after three quiet periods", "[live-unit]") {
  live::SettleWatch w(0, kQuiet);
  w.observe(committed(2, 2), 1000);
  CHECK(w.decide(1000 + kQuiet, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + 3 * kQuiet - 1, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(1000 + 3 * kQuiet, false, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: an order redelivered again and again while nothing else changes is a loop",
          "[live-unit]") {
  live::SettleWatch w(0, kQuiet);
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
    const live::RunEnd end = w.decide(now, false, kOrders);
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
  CHECK(w.decide(now + 100 + kQuiet - 1, false, kOrders) == live::RunEnd::kGoesOn);
  CHECK(w.decide(now + 100 + kQuiet, false, kOrders) == live::RunEnd::kSettled);
}

TEST_CASE("settle: no loop while orders are missing or something is pending", "[live-unit]") {
  live::SettleWatch w(0, kQuiet);
  live::Snapshot s = committed(2, 2);
  s.most_delivered = 50;
  w.observe(s, 1000);
  ++s.deliveries;
  w.observe(s, 1000 + kQuiet);  // changed: not settled, effects quiet for a quiet period
  CHECK(w.decide(1000 + kQuiet, false, kOrders) == live::RunEnd::kGoesOn);  // 2 of 3
  s.committed = 3;
  live::SettleWatch all(0, kQuiet);
  all.observe(s, 1000);
  ++s.deliveries;
  all.observe(s, 1000 + kQuiet);
  CHECK(all.decide(1000 + kQuiet, true, kOrders) == live::RunEnd::kGoesOn);
  CHECK(all.decide(1000 + kQuiet, false, kOrders) == live::RunEnd::kLoop);
}
