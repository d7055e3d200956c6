#include "src/live/user_consumer.h"

#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <memory>

#include "src/live/postgres_store.h"
#include "src/live/run_folder.h"
#include "src/orders/fault_site.h"
#include "src/store/db.h"

namespace live {

namespace {

struct CloseDb {
  void operator()(sqlite3* db) const { sqlite3_close(db); }
};
struct FinalizeStmt {
  void operator()(sqlite3_stmt* st) const { sqlite3_finalize(st); }
};
using Ledger = std::unique_ptr<sqlite3, CloseDb>;
using Query = std::unique_ptr<sqlite3_stmt, FinalizeStmt>;

// The consumer's ledger, read-only: eosim never writes into the user's file. A missing
// file stays missing (SQLITE_OPEN_READONLY does not create it).
Status open_ledger(const std::string& dir, Ledger& out) {
  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(user_ledger_path(dir).c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  out.reset(raw);
  if (rc != SQLITE_OK) {
    return Status::error("cannot open the consumer's ledger " + user_ledger_path(dir) + ": " +
                         (raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  }
  sqlite3_busy_timeout(raw, 10000);  // the consumer may be writing
  return Status::success();
}

std::string value_text(sqlite3_stmt* st) {
  const unsigned char* text = sqlite3_column_text(st, 0);
  const std::string value = text == nullptr ? "NULL" : reinterpret_cast<const char*>(text);
  return value.size() > 40 ? value.substr(0, 40) + "..." : value;
}

std::string effects_query_text(const std::string& query) {
  return "the effects query \"" + query + "\"";
}

std::string not_an_order(const std::string& query, const std::string& value, std::int64_t row,
                         const std::string& column) {
  return effects_query_text(query) + " gave '" + value + "' in row " + std::to_string(row) +
         ", column " + column + ": not an order number (the first column must be the order id)";
}

// The order numbers `query` gives on the SQLite ledger, one per row (invariant (1)).
Status read_orders(sqlite3* db, const std::string& query, std::vector<std::int64_t>& orders) {
  const std::string what = effects_query_text(query);
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, query.c_str(), -1, &raw, nullptr) != SQLITE_OK) {
    return Status::error(what + " failed on the consumer's ledger: " + sqlite3_errmsg(db));
  }
  const Query st(raw);
  if (sqlite3_column_count(raw) < 1) return Status::error(what + " gives no column");
  for (std::int64_t row = 1;; ++row) {
    const int rc = sqlite3_step(raw);
    if (rc == SQLITE_DONE) return Status::success();
    if (rc != SQLITE_ROW) {
      return Status::error(what + " failed on the consumer's ledger: " + sqlite3_errmsg(db));
    }
    if (sqlite3_column_type(raw, 0) != SQLITE_INTEGER) {
      return Status::error(not_an_order(query, value_text(raw), row, sqlite3_column_name(raw, 0)));
    }
    orders.push_back(sqlite3_column_int64(raw, 0));
  }
}

// The same on the ledger on PostgreSQL at `url`: the first column's text must be a whole
// number (a bigint, integer or smallint column gives one).
Status read_orders_at(const std::string& url, const std::string& query,
                      std::vector<std::int64_t>& orders) {
  std::vector<std::optional<std::string>> values;
  std::string column;
  if (Status st = first_column(url, query, values, column); !st.ok()) {
    return Status::error(effects_query_text(query) +
                         " failed on the consumer's ledger: " + st.message);
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string text = values[i].value_or("NULL");
    std::int64_t order = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), order);
    if (!values[i] || ec != std::errc() || end != text.data() + text.size()) {
      const std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
      return Status::error(not_an_order(query, shown, static_cast<std::int64_t>(i + 1), column));
    }
    orders.push_back(order);
  }
  return Status::success();
}

// The order numbers `query` gives on the consumer's ledger in `dir`, wherever it is.
Status ledger_orders(const std::string& dir, const std::string& query,
                     std::vector<std::int64_t>& orders) {
  if (const std::string url = user_ledger_url(dir); !url.empty()) {
    return read_orders_at(url, query, orders);
  }
  Ledger db;
  if (Status st = open_ledger(dir, db); !st.ok()) return st;
  return read_orders(db.get(), query, orders);
}

// Each committed order's amount, from the run's orders.db.
store::Status order_amounts(const std::string& dir, std::map<std::int64_t, std::int64_t>& amounts) {
  store::Db db;
  store::Status status = store::Db::open(store_uri(dir, "orders.db"), db);
  if (!status.ok()) return status;
  store::Stmt& st = db.statement("SELECT id, amount FROM orders");
  for (bool row = true; status.ok() && row;) {
    status = st.step(row);
    if (status.ok() && row) amounts[st.column_int64(0)] = st.column_int64(1);
  }
  st.reset();
  return status;
}

// Invariant (2): the debits and the balance they leave, in one transaction.
store::Status write_debits(const lab::Scenario& s, const std::string& dir,
                           const std::vector<std::int64_t>& orders) {
  std::map<std::int64_t, std::int64_t> amounts;
  store::Status st = order_amounts(dir, amounts);
  store::Db ledger;
  if (st.ok()) st = store::Db::open(store_uri(dir, "ledger.db"), ledger);
  if (st.ok()) st = ledger.exec("BEGIN IMMEDIATE");
  std::int64_t total = 0;
  for (std::size_t i = 0; st.ok() && i < orders.size(); ++i) {
    const auto it = amounts.find(orders[i]);
    const std::int64_t amount = it == amounts.end() ? 0 : it->second;  // a phantom's
    total += amount;
    bool row = false;
    store::Stmt& insert = ledger.statement(
        "INSERT INTO debits(order_id, message_id, amount, consumer, tick) "
        "VALUES(?1, NULL, ?2, 0, 0)");
    st = insert.bind(1, orders[i]).bind(2, amount).step(row);
    insert.reset();
  }
  if (st.ok()) {
    bool row = false;
    store::Stmt& update = ledger.statement("UPDATE accounts SET balance = ?1 WHERE id = ?2");
    st = update.bind(1, s.workload.initial_balance - total)
             .bind(2, std::string_view(s.workload.account))
             .step(row);
    update.reset();
  }
  if (st.ok()) st = ledger.exec("COMMIT");
  return st;
}

}  // namespace

std::string user_ledger_path(const std::string& dir) { return dir + "/consumer-ledger.db"; }

std::string failpoint_socket_path(const std::string& dir, int instance) {
  return dir + "/failpoint" + std::to_string(instance) + ".sock";
}

std::vector<std::string> user_consumer_env(const lab::Scenario& s, const std::string& dir,
                                           const std::string& queue, int instance) {
  const std::string url = user_ledger_url(dir);
  return {std::string(kQueueEnv) + "=" + queue,
          std::string(kPrefetchEnv) + "=" + std::to_string(s.broker.prefetch),
          url.empty() ? std::string(kLedgerEnv) + "=" + user_ledger_path(dir)
                      : std::string(kLedgerUrlEnv) + "=" + url,
          std::string(kInstanceEnv) + "=" + std::to_string(instance),
          std::string(kFailpointEnv) + "=" + failpoint_socket_path(dir, instance),
          std::string(kRunDirEnv) + "=" + dir};
}

Status make_user_ledger(const std::string& dir, const std::string& store_url,
                        const std::string& schema) {
  if (store_url.empty()) return Status::success();
  const std::string own = schema + kUserSchemaSuffix;
  if (Status st = create_schema(store_url, own); !st.ok()) return st;
  return set_user_ledger_url(dir, schema_url(store_url, own));
}

std::string user_consumer_refusal(const lab::Scenario& s, bool postgres) {
  for (const sim::FaultRule& rule : s.script) {
    if (orders::site_named(rule.site) == orders::Site::kDbCommit) {
      return "a db.commit rule fails a commit inside eosim's own consumer; your consumer's "
             "commits cannot be made to fail from outside";
    }
    if (orders::site_named(rule.site) == orders::Site::kDbRestart && !postgres) {
      return "a db.restart rule restarts the database server at your consumer's before_commit "
             "failpoint: run it with --store postgres (your ledger is a SQLite file here)";
    }
  }
  if (s.consumer.side_effect != consumer::SideEffect::kNone) {
    return "[consumer] side_effect: the emails are sent by eosim's own consumer; your "
           "consumer's effects are read from its ledger only";
  }
  return "";
}

std::int64_t count_effects(const std::string& dir, const std::string& query) {
  std::vector<std::int64_t> orders;
  if (!ledger_orders(dir, query, orders).ok()) return -1;
  return static_cast<std::int64_t>(orders.size());
}

std::int64_t count_effect_orders(const std::string& dir, const std::string& query) {
  std::vector<std::int64_t> orders;
  if (!ledger_orders(dir, query, orders).ok()) return -1;
  std::sort(orders.begin(), orders.end());
  return std::unique(orders.begin(), orders.end()) - orders.begin();
}

Status import_effects(const lab::Scenario& s, const std::string& dir, const std::string& query) {
  std::vector<std::int64_t> orders;
  if (Status st = ledger_orders(dir, query, orders); !st.ok()) return st;
  if (const store::Status st = write_debits(s, dir, orders); !st.ok()) {
    return Status::error("cannot write the consumer's effects into the run's ledger: " +
                         st.to_string());
  }
  return Status::success();
}

}  // namespace live
