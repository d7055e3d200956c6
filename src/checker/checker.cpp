#include "src/checker/checker.h"

#include <algorithm>
#include <map>
#include <utility>

#include "sim/assert.h"

namespace lab {

namespace {

// Everything the tables and the broker say about one order number.
struct Facts {
  bool committed = false;
  int64_t amount = 0;
  int64_t min_debit_amount = 0;
  int64_t debits = 0;
  int64_t rejections = 0;
  int64_t dead_letters = 0;
  int64_t dedup_rows = 0;
  int64_t leftovers = 0;  // ready + unacked copies
  bool unsent_outbox = false;
};

using FactsByOrder = std::map<int64_t, Facts>;  // ordered: the report is sorted by order

// Runs `sql` (no parameters) and hands every row to `on_row`; the statement is reset after.
template <class OnRow>
store::Status for_each_row(store::Db& db, const char* sql, OnRow on_row) {
  store::Stmt& st = db.statement(sql);
  bool has_row = false;
  while (true) {
    store::Status s = st.step(has_row);
    if (!s.ok()) return s;
    if (!has_row) break;
    on_row(st);
  }
  st.reset();
  return store::Status::success();
}

store::Status read_orders_db(store::Db& db, FactsByOrder& facts) {
  store::Status s = for_each_row(db, "SELECT id, amount FROM orders", [&](store::Stmt& st) {
    Facts& f = facts[st.column_int64(0)];
    f.committed = true;
    f.amount = st.column_int64(1);
  });
  if (!s.ok()) return s;
  return for_each_row(db, "SELECT DISTINCT order_id FROM outbox WHERE sent = 0",
                      [&](store::Stmt& st) { facts[st.column_int64(0)].unsent_outbox = true; });
}

store::Status read_ledger_db(store::Db& db, FactsByOrder& facts) {
  store::Status s = for_each_row(
      db, "SELECT order_id, count(*), min(amount) FROM debits GROUP BY order_id",
      [&](store::Stmt& st) {
        Facts& f = facts[st.column_int64(0)];
        f.debits = st.column_int64(1);
        f.min_debit_amount = st.column_int64(2);
      });
  if (!s.ok()) return s;
  s = for_each_row(db, "SELECT order_id, count(*) FROM rejections GROUP BY order_id",
                   [&](store::Stmt& st) { facts[st.column_int64(0)].rejections = st.column_int64(1); });
  if (!s.ok()) return s;
  // Dedup rows are shown beside the outcome; they never make an order appear by themselves.
  return for_each_row(db, "SELECT order_id, count(*) FROM processed_messages GROUP BY order_id",
                      [&](store::Stmt& st) {
                        const auto it = facts.find(st.column_int64(0));
                        if (it != facts.end()) it->second.dedup_rows = st.column_int64(1);
                      });
}

store::Status read_balance(store::Db& db, const std::string& account, int64_t& balance) {
  store::Stmt& st = db.statement("SELECT balance FROM accounts WHERE id = ?1");
  st.bind(1, std::string_view(account));
  bool has_row = false;
  store::Status s = st.step(has_row);
  if (!s.ok()) return s;
  if (!has_row) {
    return store::Status::error(SQLITE_ERROR,
                                "account '" + account + "' not found in ledger table accounts");
  }
  balance = st.column_int64(0);
  st.reset();
  return store::Status::success();
}

void read_leftovers(const BrokerLeftovers& leftovers, FactsByOrder& facts) {
  for (int64_t order : leftovers.ready) ++facts[order].leftovers;
  for (int64_t order : leftovers.unacked) ++facts[order].leftovers;
  for (int64_t order : leftovers.dead_lettered) ++facts[order].dead_letters;
}

// The classification rules of checker.h, for one order.
OrderOutcome classify_order(int64_t order, const Facts& f) {
  OrderOutcome o;
  o.order = order;
  o.committed = f.committed;
  o.amount = f.committed ? f.amount : f.min_debit_amount;
  o.debits = f.debits;
  o.rejections = f.rejections;
  o.dead_letters = f.dead_letters;
  o.dedup_rows = f.dedup_rows;
  o.stuck = f.leftovers > 0 || f.unsent_outbox;
  const int64_t outcomes = f.debits + f.rejections + f.dead_letters;
  const bool duplicated = f.debits >= 2 || (f.debits >= 1 && f.rejections >= 1);
  if (!f.committed && outcomes > 0) {
    o.outcome = "phantom";
  } else if (f.committed && duplicated) {
    o.outcome = "duplicated";
  } else if (o.stuck) {
    o.outcome = "stuck";
  } else if (f.debits >= 1) {
    o.outcome = "debited";
  } else if (f.rejections >= 1) {
    o.outcome = "rejected";
  } else if (f.dead_letters >= 1) {
    o.outcome = "dead-lettered";
  } else {
    o.outcome = "lost";
  }
  return o;
}

// Precedence of violations (DESIGN.md): the earlier is the worse.
int severity(const std::string& verdict) {
  const char* const order[] = {"duplicated", "lost", "phantom", "stuck"};
  for (int i = 0; i < 4; ++i) {
    if (verdict == order[i]) return 4 - i;
  }
  EOSIM_ASSERT(verdict == "exactly-once");
  return 0;
}

const char* verdict_of(const Report& r) {
  if (!r.duplicated.empty()) return "duplicated";
  if (!r.lost.empty()) return "lost";
  if (!r.phantom.empty()) return "phantom";
  if (!r.stuck.empty()) return "stuck";
  return "exactly-once";
}

}  // namespace

store::Status check(store::Db& orders_db, store::Db& ledger_db, const BrokerLeftovers& leftovers,
                    const std::string& account, int64_t initial_balance, Report& out) {
  out = Report{};
  out.balance_initial = initial_balance;

  FactsByOrder facts;
  store::Status s = read_orders_db(orders_db, facts);
  if (!s.ok()) return s;
  s = read_ledger_db(ledger_db, facts);
  if (!s.ok()) return s;
  s = read_balance(ledger_db, account, out.balance_actual);
  if (!s.ok()) return s;
  read_leftovers(leftovers, facts);

  int64_t intended = initial_balance;  // the business rule over the committed orders
  // std::map iterates in order, so every list below comes out sorted and unique.
  for (const auto& [order, f] : facts) {
    OrderOutcome o = classify_order(order, f);
    EOSIM_ASSERT(!o.outcome.empty());
    // Uncommitted numbers enter `facts` only through an outcome or a leftover.
    EOSIM_ASSERT(f.committed || o.outcome == "phantom" || o.outcome == "stuck");
    if (o.outcome == "phantom") out.phantom.push_back(order);
    if (o.outcome == "duplicated") out.duplicated.push_back(order);
    if (o.outcome == "lost") out.lost.push_back(order);
    if (o.stuck) out.stuck.push_back(order);
    if (f.rejections > 0) out.rejected.push_back(order);
    if (f.dead_letters > 0) out.dead_lettered.push_back(order);
    if (f.committed && f.amount <= intended) intended -= f.amount;
    out.orders.push_back(std::move(o));
  }
  out.balance_expected = intended;
  out.balance_negative = out.balance_actual < 0;
  out.verdict = verdict_of(out);
  out.ledger_verdict = out.verdict;
  return store::Status::success();
}

store::Status check_effects(store::Db& effects_db, Report& report) {
  std::map<int64_t, int64_t> emails;
  store::Status s = for_each_row(  // not const, so the error return moves
      effects_db, "SELECT order_id, count(*) FROM emails GROUP BY order_id",
      [&](store::Stmt& st) { emails[st.column_int64(0)] = st.column_int64(1); });
  if (!s.ok()) return s;
  report.effects_checked = true;
  for (OrderOutcome& o : report.orders) {
    const auto it = emails.find(o.order);
    o.effects = it == emails.end() ? 0 : it->second;
    if (o.effects >= 2) report.effect_duplicated.push_back(o.order);
    if (o.debits >= 1 && o.effects == 0 && !o.stuck) report.effect_lost.push_back(o.order);
    if (o.debits == 0 && o.effects >= 1) report.effect_phantom.push_back(o.order);
  }
  // An email for an order number the ledger never heard of is a phantom too.
  for (const auto& [order, count] : emails) {
    const bool known =
        std::any_of(report.orders.begin(), report.orders.end(),
                    [order = order](const OrderOutcome& o) { return o.order == order; });
    if (!known) report.effect_phantom.push_back(order);
  }
  std::sort(report.effect_phantom.begin(), report.effect_phantom.end());
  report.effect_verdict = !report.effect_duplicated.empty() ? "duplicated"
                          : !report.effect_lost.empty()     ? "lost"
                          : !report.effect_phantom.empty()  ? "phantom"
                                                            : "exactly-once";
  if (severity(report.effect_verdict) > severity(report.verdict)) {
    report.verdict = report.effect_verdict;
  }
  return store::Status::success();
}

}  // namespace lab
