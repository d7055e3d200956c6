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
  explicit PostgresConn(PGconn* conn) : conn_(conn) {}
  ~PostgresConn() override { PQfinish(conn_); }
  PostgresConn(const PostgresConn&) = delete;
  PostgresConn& operator=(const PostgresConn&) = delete;

  store::Status run(const std::string& sql, const std::vector<store::Value>& params,
                    store::RemoteRows& out) override {
    if (store::Status s = reconnect_if_broken(); !s.ok()) return s;
    std::vector<const char*> values;
    for (const store::Value& v : params) values.push_back(v ? v->c_str() : nullptr);
    PGresult* r = PQexecParams(conn_, sql.c_str(), static_cast<int>(values.size()), nullptr,
                               values.data(), nullptr, nullptr, 0);
    store::Status s = result_status(r);
    if (s.ok()) read_rows(r, out);
    PQclear(r);
    return s;
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
  out = std::make_unique<PostgresConn>(conn);
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
  const std::string error = run_once(schema_url(base, "public"), "CREATE SCHEMA " + schema);
  if (!error.empty()) return Status::error("cannot create the run's schema: " + error);
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

std::string probe_postgres(const std::string& url) {
  std::unique_ptr<store::RemoteConn> conn;
  const store::Status s = open_postgres(schema_url(url, "public"), conn);
  return s.ok() ? "" : s.message;
}

}  // namespace live
