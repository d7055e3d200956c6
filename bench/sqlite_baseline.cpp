#include "bench/sqlite_baseline.h"

#include <string>

#include "sim/assert.h"
#include "src/world/schema.h"
#include "src/orders/order_message.h"
#include "src/store/db.h"
#include "src/store/txn.h"
#include "src/store/warm.h"

namespace bench {

namespace {

void require(const store::Status& s) { EOSIM_ASSERT(s.ok()); }

// The SQL below is the actors' own, statement for statement (src/producer/order_service.cpp,
// src/producer/relay.cpp, src/consumer/consumer.cpp, src/checker/checker.cpp).
void produce(store::Db& db, std::int64_t order, std::int64_t amount, std::int64_t now) {
  store::Txn txn(db);
  require(txn.status());
  require(db.statement("INSERT INTO orders(id, account, amount, created_tick) "
                       "VALUES(?1, ?2, ?3, ?4)")
              .bind(1, order).bind(2, "alice").bind(3, amount).bind(4, now).exec());
  const std::string body = orders::encode({order, amount, "alice"});
  require(db.statement("INSERT INTO outbox(order_id, message_id, body, created_tick) "
                       "VALUES(?1, ?2, ?3, ?4)")
              .bind(1, order).bind(2, orders::message_id_for(order)).bind(3, body)
              .bind(4, now).exec());
  require(txn.commit());
}

std::int64_t pump(store::Db& db) {
  store::Stmt& select = db.statement(
      "SELECT id, order_id, message_id, body FROM outbox WHERE sent = 0 ORDER BY id");
  std::int64_t rows = 0;
  bool has_row = false;
  for (store::Status st = select.step(has_row); st.ok() && has_row; st = select.step(has_row)) {
    ++rows;
  }
  select.reset();
  return rows;
}

void mark_sent(store::Db& db, std::int64_t row, std::int64_t now) {
  require(db.statement("UPDATE outbox SET sent = 1, sent_tick = ?1 WHERE id = ?2")
              .bind(1, now).bind(2, row).exec());
}

void consume(store::Db& db, std::int64_t order, std::int64_t amount, std::int64_t now) {
  store::Txn txn(db);
  require(txn.status());
  require(db.statement("INSERT INTO processed_messages(message_id, order_id, tick) "
                       "VALUES(?1, ?2, ?3)")
              .bind(1, orders::message_id_for(order)).bind(2, order).bind(3, now).exec());
  require(db.statement("UPDATE accounts SET balance = balance - ?1 "
                       "WHERE id = ?2 AND balance >= ?1")
              .bind(1, amount).bind(2, "alice").exec());
  EOSIM_ASSERT(db.changes() == 1);
  require(db.statement("INSERT INTO debits(order_id, message_id, amount, consumer, tick) "
                       "VALUES(?1, ?2, ?3, ?4, ?5)")
              .bind(1, order).bind(2, orders::message_id_for(order)).bind(3, amount)
              .bind(4, 1).bind(5, now).exec());
  require(txn.commit());
}

void read_all(store::Db& db, const char* sql) {
  store::Stmt& st = db.statement(sql);
  bool has_row = false;
  for (store::Status s = st.step(has_row); s.ok() && has_row; s = st.step(has_row)) {
  }
  st.reset();
}

std::int64_t check(store::Db& orders, store::Db& ledger) {
  read_all(orders, "SELECT id, amount FROM orders");
  read_all(orders, "SELECT DISTINCT order_id FROM outbox WHERE sent = 0");
  read_all(ledger, "SELECT order_id, count(*), min(amount) FROM debits GROUP BY order_id");
  read_all(ledger, "SELECT order_id, count(*) FROM rejections GROUP BY order_id");
  store::Stmt& st = ledger.statement("SELECT balance FROM accounts WHERE id = ?1");
  st.bind(1, std::string_view("alice"));
  bool has_row = false;
  require(st.step(has_row));
  EOSIM_ASSERT(has_row);
  const std::int64_t balance = st.column_int64(0);
  st.reset();
  return balance;
}

}  // namespace

std::int64_t sqlite_only_run(std::int64_t orders, std::int64_t amount,
                             std::int64_t initial_balance, SchemaSetup setup,
                             std::uint64_t run_id) {
  const store::WarmScope* warm = store::WarmScope::current();
  EOSIM_ASSERT(setup != SchemaSetup::kWarm || warm != nullptr);
  const std::string base = "file:/eosim-bench-" + std::to_string(run_id) + "-";
  const std::string orders_uri =
      setup == SchemaSetup::kWarm ? warm->database_uri("orders") : base + "orders?vfs=memdb";
  const std::string ledger_uri =
      setup == SchemaSetup::kWarm ? warm->database_uri("ledger") : base + "ledger?vfs=memdb";
  store::Db orders_anchor, ledger_anchor, producer_db, relay_db, consumer_db;
  require(store::Db::open(orders_uri, orders_anchor));
  switch (setup) {
    case SchemaSetup::kParsed: require(lab::create_orders_schema(orders_anchor)); break;
    case SchemaSetup::kCloned: require(lab::clone_orders_schema(orders_anchor)); break;
    case SchemaSetup::kWarm: require(lab::ready_orders_db(orders_anchor)); break;
  }
  require(store::Db::open(ledger_uri, ledger_anchor));
  switch (setup) {
    case SchemaSetup::kParsed:
      require(lab::create_ledger_schema(ledger_anchor, "alice", initial_balance));
      break;
    case SchemaSetup::kCloned:
      require(lab::clone_ledger_schema(ledger_anchor, "alice", initial_balance));
      break;
    case SchemaSetup::kWarm:
      require(lab::ready_ledger_db(ledger_anchor, "alice", initial_balance));
      break;
  }
  require(store::Db::open(ledger_uri, consumer_db));
  require(store::Db::open(orders_uri, producer_db));
  require(store::Db::open(orders_uri, relay_db));
  pump(relay_db);  // the relay's first pump, at start
  for (std::int64_t order = 1; order <= orders; ++order) {
    const std::int64_t now = 10 * order;
    produce(producer_db, order, amount, now);
    EOSIM_ASSERT(pump(relay_db) == 1);
    mark_sent(relay_db, order, now + 5);
    consume(consumer_db, order, amount, now + 7);
  }
  return check(orders_anchor, ledger_anchor);
}

}  // namespace bench
