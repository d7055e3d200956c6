#include "src/lab/schema.h"

#include <utility>

#include "src/store/txn.h"

namespace lab {

const char* const kOrdersSchema = R"sql(
CREATE TABLE orders(
  id           INTEGER PRIMARY KEY,  -- the 1-based order number
  account      TEXT    NOT NULL,
  amount       INTEGER NOT NULL,
  created_tick INTEGER NOT NULL
);
CREATE TABLE outbox(
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id     INTEGER NOT NULL,
  message_id   TEXT    NOT NULL UNIQUE,
  body         TEXT    NOT NULL,
  sent         INTEGER NOT NULL DEFAULT 0,
  created_tick INTEGER NOT NULL,
  sent_tick    INTEGER
);
)sql";

const char* const kLedgerSchema = R"sql(
CREATE TABLE accounts(
  id      TEXT    PRIMARY KEY,
  balance INTEGER NOT NULL
);
CREATE TABLE processed_messages(
  message_id TEXT    PRIMARY KEY,
  order_id   INTEGER NOT NULL,
  tick       INTEGER NOT NULL
);
CREATE TABLE debits(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id   INTEGER NOT NULL,
  message_id TEXT,
  amount     INTEGER NOT NULL,
  consumer   INTEGER NOT NULL,
  tick       INTEGER NOT NULL
);
CREATE TABLE rejections(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id   INTEGER NOT NULL,
  message_id TEXT,
  reason     TEXT    NOT NULL,
  tick       INTEGER NOT NULL
);
)sql";

store::Status create_orders_schema(store::Db& db) {
  store::Txn txn(db);
  if (!txn.status().ok()) return txn.status();
  store::Status s = db.exec(kOrdersSchema);
  if (!s.ok()) return s;
  return txn.commit();
}

store::Status create_ledger_schema(store::Db& db, std::string account, int64_t initial_balance) {
  store::Txn txn(db);
  if (!txn.status().ok()) return txn.status();
  store::Status s = db.exec(kLedgerSchema);
  if (!s.ok()) return s;
  s = db.statement("INSERT INTO accounts(id, balance) VALUES (?1, ?2)")
          .bind(1, std::string_view(account))
          .bind(2, initial_balance)
          .exec();
  if (!s.ok()) return s;
  return txn.commit();
}

}  // namespace lab
