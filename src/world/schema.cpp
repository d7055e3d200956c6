#include "src/world/schema.h"

#include <functional>
#include <initializer_list>
#include <map>
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
-- The relay looks for unsent rows on every pump; without this it scans the whole outbox,
-- which makes a long run quadratic in its orders.
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent = 0;
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

const char* const kDedupStoreSchema = R"sql(
CREATE TABLE seen(
  message_id TEXT    PRIMARY KEY,
  order_id   INTEGER NOT NULL,
  tick       INTEGER NOT NULL
);
)sql";

const char* const kEffectsSchema = R"sql(
CREATE TABLE emails(
  id              INTEGER PRIMARY KEY AUTOINCREMENT,
  order_id        INTEGER NOT NULL,
  message_id      TEXT    NOT NULL,
  idempotency_key TEXT    UNIQUE,
  consumer        INTEGER NOT NULL,
  tick            INTEGER NOT NULL
);
)sql";

store::Status create_orders_schema(store::Db& db) {
  store::Txn txn(db);
  if (!txn.status().ok()) return txn.status();
  store::Status s = db.exec(kOrdersSchema);
  if (!s.ok()) return s;
  return txn.commit();
}

store::Status create_ledger_schema(store::Db& db, const std::string& account,
                                   int64_t initial_balance) {
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

namespace {

// Copies every page of `from` into `to`: the two hold the same database afterwards.
store::Status copy_pages(store::Db& from, store::Db& to) {
  sqlite3_backup* backup = sqlite3_backup_init(to.handle(), "main", from.handle(), "main");
  if (backup == nullptr) {
    return store::Status::error(sqlite3_extended_errcode(to.handle()),
                                std::string("cannot copy a schema template: ") +
                                    sqlite3_errmsg(to.handle()));
  }
  const int step = sqlite3_backup_step(backup, -1);
  const int finish = sqlite3_backup_finish(backup);
  if (step != SQLITE_DONE || finish != SQLITE_OK) {
    return store::Status::error(sqlite3_extended_errcode(to.handle()),
                                std::string("cannot copy a schema template: ") +
                                    sqlite3_errmsg(to.handle()));
  }
  return store::Status::success();
}

// Templates are per thread (sweep workers each have their own), built on first use and
// kept for the thread's life. A private ":memory:" database is only ever read here.
template <class Build>
store::Status clone_from(store::Db& templ, Build build, store::Db& db) {
  if (!templ.is_open()) {
    store::Status s = store::Db::open(":memory:", templ);
    if (s.ok()) s = build(templ);
    if (!s.ok()) {
      templ.close();
      return s;
    }
  }
  return copy_pages(templ, db);
}

}  // namespace

store::Status clone_orders_schema(store::Db& db) {
  thread_local store::Db templ;
  return clone_from(templ, [](store::Db& t) { return create_orders_schema(t); }, db);
}

store::Status clone_ledger_schema(store::Db& db, const std::string& account,
                                  int64_t initial_balance) {
  // One template per (account, balance): a sweep uses one, a suite a handful. The cap only
  // keeps an unusual caller from growing this without bound.
  constexpr std::size_t kMaxTemplates = 32;
  thread_local std::map<std::pair<std::string, int64_t>, store::Db> templates;
  const auto key = std::make_pair(account, initial_balance);
  if (templates.size() >= kMaxTemplates && templates.count(key) == 0) templates.clear();
  return clone_from(
      templates[key],
      [&](store::Db& t) { return create_ledger_schema(t, account, initial_balance); }, db);
}

namespace {

// Runs cached statements in one transaction (preparing them once per connection, not per
// run as an exec script would); stops at the first failure, which rolls back.
store::Status empty_tables(store::Db& db, std::initializer_list<const char*> statements,
                           const std::function<store::Status()>& refill = nullptr) {
  store::Txn txn(db);
  if (!txn.status().ok()) return txn.status();
  for (const char* sql : statements) {
    store::Status s = db.statement(sql).exec();
    if (!s.ok()) return s;
  }
  if (refill) {
    store::Status s = refill();
    if (!s.ok()) return s;
  }
  return txn.commit();
}

}  // namespace

store::Status ready_orders_db(store::Db& db, bool kept) {
  if ((kept || db.reused()) && empty_tables(db, {"DELETE FROM orders", "DELETE FROM outbox",
                                       "DELETE FROM sqlite_sequence"})
                         .ok()) {
    return store::Status::success();
  }
  return clone_orders_schema(db);
}

store::Status ready_ledger_db(store::Db& db, const std::string& account,
                              int64_t initial_balance, bool kept) {
  const auto insert_account = [&] {
    return db.statement("INSERT INTO accounts(id, balance) VALUES (?1, ?2)")
        .bind(1, std::string_view(account))
        .bind(2, initial_balance)
        .exec();
  };
  if ((kept || db.reused()) &&
      empty_tables(db,
                   {"DELETE FROM accounts", "DELETE FROM processed_messages",
                    "DELETE FROM debits", "DELETE FROM rejections",
                    "DELETE FROM sqlite_sequence"},
                   insert_account)
          .ok()) {
    return store::Status::success();
  }
  return clone_ledger_schema(db, account, initial_balance);
}

store::Status ready_dedup_db(store::Db& db) {
  if (db.reused() && empty_tables(db, {"DELETE FROM seen"}).ok()) {
    return store::Status::success();
  }
  return db.exec(kDedupStoreSchema);
}

}  // namespace lab
