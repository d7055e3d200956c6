#pragma once
// The checker tests' laboratory: an orders.db and a ledger.db on a memdb, filled row by
// row with plain INSERTs the way the actors would leave them, and checked.

#include <catch2/catch.hpp>
#include <unistd.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "src/checker/checker.h"
#include "src/store/db.h"
#include "src/world/schema.h"

namespace checker_lab {

using Orders = std::vector<int64_t>;

constexpr int64_t kInitial = 1000;
inline const std::string kAccount = "acct-1";

// An orders.db and a ledger.db, filled row by row the way the actors would leave them.
class Lab {
 public:
  explicit Lab(const std::string& tag) {
    const std::string suffix = tag + "_" + std::to_string(getpid()) + "?vfs=memdb";
    REQUIRE(store::Db::open("file:/eosim_checker_orders_" + suffix, orders_).ok());
    REQUIRE(store::Db::open("file:/eosim_checker_ledger_" + suffix, ledger_).ok());
    REQUIRE(lab::create_orders_schema(orders_).ok());
    REQUIRE(lab::create_ledger_schema(ledger_, kAccount, kInitial).ok());
  }

  // A committed order whose outbox row was published and confirmed (or not).
  void commit_order(int64_t order, int64_t amount, bool sent = true) {
    run(orders_, "INSERT INTO orders(id, account, amount, created_tick) VALUES (" +
                     std::to_string(order) + ", '" + kAccount + "', " + std::to_string(amount) +
                     ", 1)");
    run(orders_, "INSERT INTO outbox(order_id, message_id, body, sent, created_tick) VALUES (" +
                     std::to_string(order) + ", 'msg-" + std::to_string(order) + "', '{}', " +
                     (sent ? "1" : "0") + ", 1)");
  }
  // One applied debit by consumer instance `consumer`; the balance moves with it, as a
  // consumer's transaction would do.
  void debit(int64_t order, int64_t amount, int64_t consumer = 1) {
    run(ledger_, "INSERT INTO debits(order_id, message_id, amount, consumer, tick) VALUES (" +
                     std::to_string(order) + ", 'msg-" + std::to_string(order) + "', " +
                     std::to_string(amount) + ", " + std::to_string(consumer) + ", 5)");
    run(ledger_, "UPDATE accounts SET balance = balance - " + std::to_string(amount) +
                     " WHERE id = '" + kAccount + "'");
  }
  // Each of `orders`, of `amount` each, committed (and sent) / debited once.
  void commit_orders(int64_t amount, std::initializer_list<int64_t> orders) {
    for (int64_t order : orders) commit_order(order, amount);
  }
  void debit_orders(int64_t amount, std::initializer_list<int64_t> orders) {
    for (int64_t order : orders) debit(order, amount);
  }
  // A refusal recorded by the consumer: the business rule's (insufficient funds), or a
  // message it could not identify (the reason the consumer writes for a missing id).
  void reject(int64_t order, const std::string& reason = "insufficient funds") {
    run(ledger_, "INSERT INTO rejections(order_id, message_id, reason, tick) VALUES (" +
                     std::to_string(order) + ", 'msg-" + std::to_string(order) + "', '" + reason +
                     "', 5)");
  }

  lab::Report check() {
    lab::Report report;
    const store::Status s =
        lab::check(orders_, ledger_, leftovers, kAccount, kInitial, report);
    INFO(s.to_string());
    REQUIRE(s.ok());
    return report;
  }

  store::Db& orders_db() { return orders_; }
  store::Db& ledger_db() { return ledger_; }
  lab::BrokerLeftovers leftovers;

 private:
  static void run(store::Db& db, const std::string& sql) {
    const store::Status s = db.exec(sql);
    INFO(sql << " -> " << s.to_string());
    REQUIRE(s.ok());
  }
  store::Db orders_;
  store::Db ledger_;
};

inline const lab::OrderOutcome& outcome_of(const lab::Report& r, int64_t order) {
  for (const lab::OrderOutcome& o : r.orders) {
    if (o.order == order) return o;
  }
  FAIL("order " << order << " missing from the report");
  return r.orders.front();
}

inline Orders numbers_of(const lab::Report& r) {
  Orders out;
  for (const lab::OrderOutcome& o : r.orders) out.push_back(o.order);
  return out;
}

}  // namespace checker_lab
