#include "src/live/postgres_store.h"

#include <libpq-fe.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>

#include "src/store/remote.h"

namespace live {

namespace {

// libpq's messages end in a newline and may hold several lines: one line for a report.
std::string one_line(const char* text) {
  std::string out = text != nullptr ? text : "";
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

class PostgresConn final : public store::RemoteConn {
 public:
  PostgresConn(PGconn* conn, std::string uri) : conn_(conn), uri_(std::move(uri)) {}
  ~PostgresConn() override {
    if (other_ != nullptr) PQfinish(other_);  // the server rolls its transaction back
    PQfinish(conn_);
  }
  PostgresConn(const PostgresConn&) = delete;
  PostgresConn& operator=(const PostgresConn&) = delete;

  store::Status run(const std::string& sql, const std::vector<store::Value>& params,
                    store::RemoteRows& out) override {
    if (store::Status s = reconnect_if_broken(); !s.ok()) return s;
    PGresult* r = exec(conn_, sql, params);
    store::Status s = result_status(r);
    if (s.ok()) read_rows(r, out);
    PQclear(r);
    // The transaction a staged deadlock aborted is over: the other one gets its lock and is
    // rolled back, so that it holds nothing the redelivery needs.
    if (other_ != nullptr && !in_transaction()) finish_other();
    return s;
  }

  store::Status stage_conflict(store::Conflict conflict, const std::string& account) override {
    if (other_ != nullptr) finish_other();
    PGconn* other = PQconnectdb(uri_.c_str());
    if (PQstatus(other) != CONNECTION_OK) {
      store::Status s = store::Status::from_sqlstate(
          "08001",
          "PostgreSQL: the other transaction cannot connect: " + one_line(PQerrorMessage(other)));
      PQfinish(other);
      return s;
    }
    PQsetNoticeProcessor(
        other, [](void*, const char*) {}, nullptr);
    if (conflict == store::Conflict::kSerialization) {
      const store::Status s = stage_serialization(other, account);
      PQfinish(other);
      return s;
    }
    other_ = other;
    return stage_deadlock(account);
  }

  store::Status run_script(const std::string& sql) override {
    if (store::Status s = reconnect_if_broken(); !s.ok()) return s;
    PGresult* r = PQexec(conn_, sql.c_str());
    store::Status s = result_status(r);
    PQclear(r);
    return s;
  }

  bool in_transaction() const override {
    const PGTransactionStatusType t = PQtransactionStatus(conn_);
    return t == PQTRANS_INTRANS || t == PQTRANS_INERROR || t == PQTRANS_ACTIVE;
  }

 private:
  store::Status reconnect_if_broken() {
    if (PQstatus(conn_) != CONNECTION_BAD) return store::Status::success();
    PQreset(conn_);
    if (PQstatus(conn_) == CONNECTION_OK) return store::Status::success();
    return store::Status::from_sqlstate(
        "08001", "PostgreSQL: cannot connect again: " + one_line(PQerrorMessage(conn_)));
  }

  store::Status result_status(const PGresult* r) const {
    const ExecStatusType status = PQresultStatus(r);
    if (r != nullptr && (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)) {
      return store::Status::success();
    }
    const char* state = r != nullptr ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    // No SQLSTATE: the server never answered (the connection is gone): from_sqlstate
    // reads "" as 08006.
    const std::string message = r != nullptr && *PQresultErrorMessage(r) != '\0'
                                    ? one_line(PQresultErrorMessage(r))
                                    : one_line(PQerrorMessage(conn_));
    return store::Status::from_sqlstate(state != nullptr ? state : "", "PostgreSQL: " + message);
  }

  static PGresult* exec(PGconn* conn, const std::string& sql,
                        const std::vector<store::Value>& params = {}) {
    std::vector<const char*> values;
    for (const store::Value& v : params) values.push_back(v ? v->c_str() : nullptr);
    return PQexecParams(conn, sql.c_str(), static_cast<int>(values.size()), nullptr, values.data(),
                        nullptr, nullptr, 0);
  }

  // Runs `sql` on `conn` (this connection or the other transaction's): its status.
  store::Status run_on(PGconn* conn, const std::string& sql,
                       const std::vector<store::Value>& params = {}) const {
    PGresult* r = exec(conn, sql, params);
    store::Status s = result_status(r);
    PQclear(r);
    return s;
  }

  // 40001: this transaction takes its snapshot at REPEATABLE READ (read committed has no
  // serialization failure: it reads the newest row), then the other transaction changes
  // the account's row and commits. This transaction's UPDATE of that row then meets the
  // server's "could not serialize access due to concurrent update".
  store::Status stage_serialization(PGconn* other, const std::string& account) {
    store::Status s = run_on(conn_, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    if (s.ok()) s = run_on(conn_, "SELECT 1");
    if (s.ok()) s = run_on(other, "UPDATE accounts SET balance = balance WHERE id = $1", {account});
    return s;
  }

  // 40P01: this transaction holds the account's row (its UPDATE ran). The other one locks
  // the debits table against inserts, then waits for the account's row; this one's INSERT
  // INTO debits then waits for the other: a cycle. The other waits 60 s before it looks for
  // a deadlock, this one the server's 1 s, so the server aborts this one.
  store::Status stage_deadlock(const std::string& account) {
    store::Status s = run_on(other_, "BEGIN");
    if (s.ok()) s = run_on(other_, "SET LOCAL deadlock_timeout = '60s'");
    if (s.ok()) s = run_on(other_, "LOCK TABLE debits IN SHARE MODE");
    const char* values[] = {account.c_str()};
    if (s.ok() && PQsendQueryParams(other_, "UPDATE accounts SET balance = balance WHERE id = $1",
                                    1, nullptr, values, nullptr, nullptr, 0) != 1) {
      s = store::Status::from_sqlstate("08006", "PostgreSQL: " + one_line(PQerrorMessage(other_)));
    }
    if (s.ok()) s = wait_until_other_waits();
    if (!s.ok()) finish_other();
    return s;
  }

  // Until the other transaction's UPDATE waits for a lock (pg_locks), at most 10 s.
  store::Status wait_until_other_waits() {
    const std::string pid = std::to_string(PQbackendPID(other_));
    for (int tries = 0; tries < 1000; ++tries) {
      PGresult* r = exec(conn_, "SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted", {pid});
      const bool waits = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0;
      PQclear(r);
      if (waits) return store::Status::success();
      ::usleep(10 * 1000);
    }
    return store::Status::from_sqlstate("57014", "PostgreSQL: the other transaction never waited");
  }

  // The other transaction's statement ends (its lock granted once this one ended), then
  // it rolls back and its connection closes.
  void finish_other() {
    while (PGresult* r = PQgetResult(other_)) PQclear(r);
    PQclear(PQexec(other_, "ROLLBACK"));
    PQfinish(other_);
    other_ = nullptr;
  }

  static void read_rows(const PGresult* r, store::RemoteRows& out) {
    const int rows = PQntuples(r);
    const int cols = PQnfields(r);
    out.rows.resize(static_cast<std::size_t>(rows));
    for (int i = 0; i < rows; ++i) {
      auto& row = out.rows[static_cast<std::size_t>(i)];
      row.reserve(static_cast<std::size_t>(cols));
      for (int j = 0; j < cols; ++j) {
        if (PQgetisnull(r, i, j)) {
          row.emplace_back(std::nullopt);
        } else {
          row.emplace_back(
              std::string(PQgetvalue(r, i, j), static_cast<std::size_t>(PQgetlength(r, i, j))));
        }
      }
    }
    const char* tuples = PQcmdTuples(const_cast<PGresult*>(r));
    out.changes = tuples != nullptr && *tuples != '\0' ? std::stoll(tuples) : 0;
  }

  PGconn* conn_;
  std::string uri_;          // to open the other transaction's connection
  PGconn* other_ = nullptr;  // a staged deadlock's other transaction, until it is over
};

std::string with_param(const std::string& url, const std::string& param) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + param;
}

// Runs one statement on `url` in a connection of its own; "" or the error, one line.
std::string run_once(const std::string& url, const std::string& sql) {
  std::unique_ptr<store::RemoteConn> conn;
  store::Status s = open_postgres(url, conn);
  if (s.ok()) s = conn->run_script(sql);
  return s.ok() ? "" : s.message;
}

}  // namespace

store::Status open_postgres(const std::string& uri, std::unique_ptr<store::RemoteConn>& out) {
  PGconn* conn = PQconnectdb(uri.c_str());
  if (PQstatus(conn) != CONNECTION_OK) {
    store::Status s = store::Status::from_sqlstate(
        "08001", "PostgreSQL: cannot connect: " + one_line(PQerrorMessage(conn)));
    PQfinish(conn);
    return s;
  }
  // Notices (a schema that exists already, ...) would go to stderr: the logs stay clean.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  out = std::make_unique<PostgresConn>(conn, uri);
  return store::Status::success();
}

std::string schema_url(const std::string& base, const std::string& schema) {
  std::string url = base;
  if (url.find("sslmode=") == std::string::npos) url = with_param(url, "sslmode=disable");
  return with_param(url, "options=-csearch_path%3D" + schema);
}

Status create_run_schema(const std::string& base, std::string& schema) {
  static std::atomic<int> runs{0};
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  schema = "eosim_run_" + std::to_string(::getpid()) + "_" + std::to_string(ms) + "_" +
           std::to_string(++runs);
  return create_schema(base, schema);
}

Status create_schema(const std::string& base, const std::string& name) {
  const std::string error = run_once(schema_url(base, "public"), "CREATE SCHEMA " + name);
  if (!error.empty()) return Status::error("cannot create the run's schema " + name + ": " + error);
  return Status::success();
}

Status drop_run_schema(const std::string& base, const std::string& schema) {
  const std::string error =
      run_once(schema_url(base, "public"), "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  if (!error.empty()) return Status::error("cannot drop the run's schema " + schema + ": " + error);
  return Status::success();
}

bool proxyable_server(const std::string& url, Endpoint& out, std::string& why) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    why = "cannot read the server's URL: " + one_line(error);
    PQfreemem(error);
    return false;
  }
  std::string host;
  std::string port = "5432";
  std::string sslmode = "prefer";
  for (PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr || *o->val == '\0') continue;
    const std::string key = o->keyword;
    if (key == "hostaddr" || key == "host") host = o->val;
    if (key == "port") port = o->val;
    if (key == "sslmode") sslmode = o->val;
  }
  PQconninfoFree(options);
  if (host.empty()) {
    why = "the URL names no host (libpq would take its Unix socket)";
  } else if (host.find(',') != std::string::npos || port.find(',') != std::string::npos) {
    why = "the URL names several servers";
  } else if (!host.empty() && host.front() == '/') {
    why = "the server is reached by a Unix socket (" + host + ")";
  } else if (sslmode != "disable" && sslmode != "allow" && sslmode != "prefer") {
    why = "sslmode=" + sslmode + " insists on TLS, which the fault proxy does not carry";
  } else if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5) {
    why = "the port " + port + " is not a number";
  } else {
    out.host = host;
    out.port = std::stoi(port);
    return true;
  }
  return false;
}

std::string via_proxy(const std::string& url, int port) {
  return with_param(url, "host=127.0.0.1&hostaddr=127.0.0.1&port=" + std::to_string(port));
}

Status first_column(const std::string& url, const std::string& sql,
                    std::vector<std::optional<std::string>>& values, std::string& column) {
  const std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(url.c_str()), &PQfinish);
  if (PQstatus(conn.get()) != CONNECTION_OK) {
    return Status::error("cannot connect: " + one_line(PQerrorMessage(conn.get())));
  }
  PQsetNoticeProcessor(
      conn.get(), [](void*, const char*) {}, nullptr);
  // Read only, as the SQLite ledger is opened: the query may read the user's tables, never
  // change them (a DELETE fails with the server's own words).
  PQclear(PQexec(conn.get(), "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"));
  const std::unique_ptr<PGresult, decltype(&PQclear)> r(PQexec(conn.get(), sql.c_str()), &PQclear);
  if (PQresultStatus(r.get()) == PGRES_COMMAND_OK) return Status::error("it gives no rows");
  if (PQresultStatus(r.get()) != PGRES_TUPLES_OK) {
    const bool answered = r != nullptr && *PQresultErrorMessage(r.get()) != '\0';
    return Status::error(
        one_line(answered ? PQresultErrorMessage(r.get()) : PQerrorMessage(conn.get())));
  }
  if (PQnfields(r.get()) < 1) return Status::error("it gives no column");
  column = PQfname(r.get(), 0);
  values.clear();
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    if (PQgetisnull(r.get(), i, 0)) {
      values.emplace_back(std::nullopt);
    } else {
      values.emplace_back(std::string(PQgetvalue(r.get(), i, 0),
                                      static_cast<std::size_t>(PQgetlength(r.get(), i, 0))));
    }
  }
  return Status::success();
}

std::string probe_postgres(const std::string& url) {
  std::unique_ptr<store::RemoteConn> conn;
  const store::Status s = open_postgres(schema_url(url, "public"), conn);
  return s.ok() ? "" : s.message;
}

}  // namespace live
