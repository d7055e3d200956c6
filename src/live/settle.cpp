#include "src/live/settle.h"

#include <sstream>

#include "src/live/actor_process.h"
#include "src/live/run_folder.h"
#include "src/live/user_consumer.h"

namespace live {

Snapshot snapshot(const std::string& dir, const std::string& effects_query) {
  Snapshot s;
  // Each store opened once per look: on PostgreSQL the orders and the ledger are one
  // server's schema, and every connection costs the server a process and a login.
  const std::string orders_uri = store_uri(dir, "orders.db");
  const std::string ledger_uri = store_uri(dir, "ledger.db");
  store::Db orders, own_ledger;
  (void)store::Db::open(orders_uri, orders);  // not open: each number below reads -1
  if (ledger_uri != orders_uri) (void)store::Db::open(ledger_uri, own_ledger);
  store::Db& ledger = ledger_uri == orders_uri ? orders : own_ledger;
  s.committed = read_number(orders, "SELECT COUNT(*) FROM orders");
  s.unsent = read_number(orders, "SELECT COUNT(*) FROM outbox WHERE sent = 0");
  s.debits = effects_query.empty() ? read_number(ledger, "SELECT COUNT(*) FROM debits")
                                   : count_effects(dir, effects_query);
  s.rejections = read_number(ledger, "SELECT COUNT(*) FROM rejections");
  // The alias: PostgreSQL 15 refuses a subquery in FROM without one.
  s.applied = effects_query.empty()
                  ? read_number(ledger,
                                "SELECT COUNT(*) FROM (SELECT order_id FROM debits UNION "
                                "SELECT order_id FROM rejections) AS applied")
                  : count_effect_orders(dir, effects_query);
  store::Db deliveries;
  (void)store::Db::open(dir + "/deliveries.db", deliveries);
  s.deliveries = read_number(deliveries, "SELECT COALESCE(SUM(n), 0) FROM deliveries");
  s.faults = read_fired(dir).size();
  s.most_delivered = read_number(deliveries, "SELECT COALESCE(MAX(n), 0) FROM deliveries");
  return s;
}

std::string progress_line(const Snapshot& s, std::int64_t orders, std::int64_t elapsed_ms,
                          int restarts) {
  std::ostringstream line;
  line << "live: " << elapsed_ms / 1000 << '.' << (elapsed_ms % 1000) / 100 << " s, " << s.committed
       << '/' << orders << " orders committed, " << s.deliveries << " deliveries, " << s.debits
       << " debits, " << s.ready << " ready in the queue, " << s.faults << " faults, " << restarts
       << " restarts";
  return line.str();
}

std::string loop_text(const std::string& dir, std::int64_t quiet_ms) {
  const std::int64_t n =
      read_number(dir + "/deliveries.db", "SELECT COALESCE(MAX(n), 0) FROM deliveries");
  const std::int64_t order = read_number(
      dir + "/deliveries.db", "SELECT order_id FROM deliveries ORDER BY n DESC, order_id LIMIT 1");
  std::ostringstream text;
  text << "order " << order << " delivered " << n << " times while nothing else changed for "
       << quiet_ms / 1000 << '.' << (quiet_ms % 1000) / 100
       << " s: a redelivery loop, stopped (as the model's step bound stops it)";
  return text.str();
}

void SettleWatch::observe(const Snapshot& snap, std::int64_t now_ms) {
  if (!snap.same_effects(last_)) last_effect_ms_ = now_ms;
  if (!(snap == last_)) {
    last_ = snap;
    last_change_ms_ = now_ms;
  }
}

RunEnd SettleWatch::decide(std::int64_t now_ms, Hold hold, std::int64_t orders) const {
  if (hold == Hold::kPending) return RunEnd::kGoesOn;
  const bool produced = last_.committed >= orders;
  const std::int64_t quiet = now_ms - last_change_ms_;
  if (produced && last_.drained() && quiet >= drained_ms_) return RunEnd::kDrained;
  if (hold == Hold::kMargin && !last_.idle()) return RunEnd::kGoesOn;
  if (quiet >= quiet_ms_ && (produced || quiet >= 3 * quiet_ms_)) return RunEnd::kSettled;
  if (produced && now_ms - last_effect_ms_ >= quiet_ms_ &&
      last_.most_delivered >= kLoopDeliveries) {
    return RunEnd::kLoop;
  }
  return RunEnd::kGoesOn;
}

}  // namespace live
