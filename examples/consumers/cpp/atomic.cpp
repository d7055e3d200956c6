// An atomic consumer in C++20, on rabbitmq-c (Debian's librabbitmq-dev) and SQLite, run by
//   eosim live FILE --consumer build/examples/eosim-atomic-cpp
// (CMake builds it when librabbitmq-dev is there; docs/your-consumer.md).
//
// As examples/consumers/python/atomic.py: the message id (a primary key) and the debit in
// one SQLite transaction, commit, then ack. A redelivery of an order already applied hits
// the key, changes nothing and is acked: one debit per order, whatever crash comes between
// commit and ack. The failpoints (helpers/eosim_failpoint.h, installed as
// include/eosim_failpoint.h) let a scenario kill it there.
//
// Each C handle has one owner that frees it (Ledger, Statement, Transaction, Broker,
// Envelope), so an early return or an exception leaves nothing open: an open transaction
// rolls back, a connection is destroyed. A broken connection to the broker (a dropped
// frame, a restarted broker) is made again for up to a minute; any other error ends the
// process (exit 2 for its environment, 3 for its ledger), and eosim starts it again.

#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <sqlite3.h>
#include <sys/time.h>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "eosim_failpoint.h"

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS processed(message_id TEXT PRIMARY KEY, order_id INTEGER NOT "
    "NULL);"
    "CREATE TABLE IF NOT EXISTS debits(order_id INTEGER NOT NULL, amount INTEGER NOT NULL,"
    " account TEXT NOT NULL);";

// The environment eosim hands the consumer is missing or wrong: exit 2.
struct BadEnvironment : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The ledger failed (not a duplicate key): exit 3.
struct LedgerError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string env(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    throw BadEnvironment(std::string(name) + " is not set (run me with eosim live --consumer)");
  }
  return value;
}

// What one order message says: the body "order=2;amount=150;account=acct-1".
struct Order {
  std::int64_t order = 0;
  std::int64_t amount = 0;
  std::string account;
};

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// nullopt when the body does not read as an order.
std::optional<Order> parse(std::string_view body) {
  std::optional<std::int64_t> order, amount;
  std::optional<std::string> account;
  while (!body.empty()) {
    const std::size_t semi = body.find(';');
    const std::string_view field = body.substr(0, semi);
    body = semi == std::string_view::npos ? std::string_view() : body.substr(semi + 1);
    const std::size_t eq = field.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    const std::string_view name = field.substr(0, eq);
    const std::string_view value = field.substr(eq + 1);
    if (name == "order") order = number(value);
    if (name == "amount") amount = number(value);
    if (name == "account" && !value.empty()) account = std::string(value);
  }
  if (!order || !amount || !account) return std::nullopt;
  return Order{*order, *amount, *account};
}

// --- the ledger -------------------------------------------------------------------------

class Ledger {
 public:
  explicit Ledger(const std::string& path) {
    sqlite3* db = nullptr;
    const int rc = sqlite3_open(path.c_str(), &db);
    db_.reset(db);  // owned even when the open failed (sqlite3_close frees it)
    if (rc != SQLITE_OK) fail("open EOSIM_LEDGER " + path);
    sqlite3_busy_timeout(get(), 30000);
    exec("PRAGMA journal_mode=WAL");
    exec(kSchema);
  }
  sqlite3* get() const { return db_.get(); }
  void exec(const char* sql) {
    if (sqlite3_exec(get(), sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw LedgerError(what + ": " + sqlite3_errmsg(get()));
  }

 private:
  struct Close {
    void operator()(sqlite3* db) const { sqlite3_close(db); }
  };
  std::unique_ptr<sqlite3, Close> db_;
};

// One prepared statement, finalized when it goes out of scope.
class Statement {
 public:
  Statement(Ledger& ledger, const char* sql) : ledger_(ledger) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(ledger.get(), sql, -1, &stmt, nullptr) != SQLITE_OK) ledger.fail(sql);
    stmt_.reset(stmt);
  }
  Statement& bind(int index, std::int64_t value) {
    sqlite3_bind_int64(stmt_.get(), index, value);
    return *this;
  }
  Statement& bind(int index, const std::string& value) {
    sqlite3_bind_text(stmt_.get(), index, value.c_str(), -1, SQLITE_TRANSIENT);
    return *this;
  }
  // SQLITE_DONE, or SQLITE_CONSTRAINT (the caller decides); any other result throws.
  int run() {
    const int rc = sqlite3_step(stmt_.get());
    if (rc != SQLITE_DONE && rc != SQLITE_CONSTRAINT) ledger_.fail(sqlite3_sql(stmt_.get()));
    return rc;
  }

 private:
  struct Finalize {
    void operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }
  };
  Ledger& ledger_;
  std::unique_ptr<sqlite3_stmt, Finalize> stmt_;
};

// BEGIN IMMEDIATE now; ROLLBACK when it goes out of scope without commit().
class Transaction {
 public:
  explicit Transaction(Ledger& ledger) : ledger_(ledger) { ledger_.exec("BEGIN IMMEDIATE"); }
  ~Transaction() {
    if (open_) sqlite3_exec(ledger_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    ledger_.exec("COMMIT");
    open_ = false;
  }

 private:
  Ledger& ledger_;
  bool open_ = true;
};

// Applies one order: true when it was applied now, false when it had been before (its
// message id is in `processed` already: the transaction rolls back, nothing changes).
bool apply(Ledger& ledger, const std::string& key, const Order& o) {
  Transaction txn(ledger);
  Statement processed(ledger, "INSERT INTO processed(message_id, order_id) VALUES(?1, ?2)");
  if (processed.bind(1, key).bind(2, o.order).run() == SQLITE_CONSTRAINT) return false;
  Statement debit(ledger, "INSERT INTO debits(order_id, amount, account) VALUES(?1, ?2, ?3)");
  if (debit.bind(1, o.order).bind(2, o.amount).bind(3, o.account).run() != SQLITE_DONE) {
    ledger.fail("insert into debits");
  }
  eosim_failpoint("before_commit", o.order);
  txn.commit();
  return true;
}

// --- the broker -------------------------------------------------------------------------

std::string text_of(amqp_bytes_t bytes) {
  return std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

// One message received, freed when it goes out of scope.
class Envelope {
 public:
  Envelope() = default;
  ~Envelope() {
    if (filled_) amqp_destroy_envelope(&raw_);
  }
  Envelope(const Envelope&) = delete;
  Envelope& operator=(const Envelope&) = delete;
  amqp_envelope_t* slot() { return &raw_; }
  void filled() { filled_ = true; }
  std::uint64_t tag() const { return raw_.delivery_tag; }
  std::string body() const { return text_of(raw_.message.body); }
  // The message id, or "" when the message has none.
  std::string message_id() const {
    const amqp_basic_properties_t& p = raw_.message.properties;
    return (p._flags & AMQP_BASIC_MESSAGE_ID_FLAG) != 0 ? text_of(p.message_id) : "";
  }

 private:
  amqp_envelope_t raw_{};
  bool filled_ = false;
};

constexpr long kWaitSeconds = 10;  // the longest wait for a connect, a login or an RPC

// One connection to the broker at EOSIM_BROKER_URL, subscribed to EOSIM_QUEUE on channel 1
// with EOSIM_PREFETCH; destroyed when it goes out of scope. ok() is false once any call on
// it failed (the connection broke, or never came up).
class Broker {
 public:
  Broker() : conn_(amqp_new_connection()) {
    std::string url = env("EOSIM_BROKER_URL");
    url_.assign(url.begin(), url.end());
    url_.push_back('\0');
    amqp_connection_info info{};
    if (amqp_parse_url(url_.data(), &info) != AMQP_STATUS_OK) {
      throw BadEnvironment("EOSIM_BROKER_URL is not an AMQP URL");
    }
    const std::string queue = env("EOSIM_QUEUE");
    const int prefetch = std::atoi(env("EOSIM_PREFETCH").c_str());
    // No step of connecting may wait for ever: a connect, login or RPC whose reply never
    // comes (a connection broken under it) fails after kWaitSeconds; the caller connects
    // again.
    timeval wait{kWaitSeconds, 0};
    amqp_set_handshake_timeout(conn_.get(), &wait);
    amqp_set_rpc_timeout(conn_.get(), &wait);
    amqp_socket_t* socket = amqp_tcp_socket_new(conn_.get());
    ok_ = socket != nullptr &&
          amqp_socket_open_noblock(socket, info.host, info.port, &wait) == AMQP_STATUS_OK;
    ok_ = ok_ && amqp_login(conn_.get(), info.vhost, 0, 131072, 30, AMQP_SASL_METHOD_PLAIN,
                            info.user, info.password)
                         .reply_type == AMQP_RESPONSE_NORMAL;
    ok_ = ok_ && amqp_channel_open(conn_.get(), 1) != nullptr;
    ok_ = ok_ &&
          amqp_basic_qos(conn_.get(), 1, 0, static_cast<std::uint16_t>(prefetch), 0) != nullptr;
    ok_ = ok_ && amqp_basic_consume(conn_.get(), 1, amqp_cstring_bytes(queue.c_str()),
                                    amqp_empty_bytes, 0, 0, 0, amqp_empty_table) != nullptr;
  }
  bool ok() const { return ok_; }
  // Waits for the next message; false when the connection broke.
  bool receive(Envelope& into) {
    amqp_maybe_release_buffers(conn_.get());
    ok_ = ok_ && amqp_consume_message(conn_.get(), into.slot(), nullptr, 0).reply_type ==
                     AMQP_RESPONSE_NORMAL;
    if (ok_) into.filled();
    return ok_;
  }
  bool ack(std::uint64_t tag) {
    return ok_ = ok_ && amqp_basic_ack(conn_.get(), 1, tag, 0) == AMQP_STATUS_OK;
  }
  bool reject(std::uint64_t tag) {
    return ok_ = ok_ && amqp_basic_reject(conn_.get(), 1, tag, 0) == AMQP_STATUS_OK;
  }

 private:
  struct Destroy {
    void operator()(amqp_connection_state_t conn) const { amqp_destroy_connection(conn); }
  };
  std::unique_ptr<amqp_connection_state_t_, Destroy> conn_;
  std::vector<char> url_;  // amqp_parse_url points into it
  bool ok_ = false;
};

// Handles one message: applies it (or finds it applied before), then acks it. False when
// the connection broke.
bool handle(Ledger& ledger, Broker& broker, const Envelope& e) {
  const std::optional<Order> o = parse(e.body());
  if (!o) {
    std::fprintf(stderr, "atomic-cpp: a body that is not an order; rejected\n");
    return broker.reject(e.tag());
  }
  std::string key = e.message_id();
  if (key.empty()) key = "order-" + std::to_string(o->order);
  eosim_failpoint("on_deliver", o->order);
  if (apply(ledger, key, *o)) eosim_failpoint("after_commit", o->order);
  if (!broker.ack(e.tag())) return false;
  eosim_failpoint("after_ack", o->order);
  return true;
}

// Connects, subscribes and consumes until the connection breaks (returns then).
void consume(Ledger& ledger) {
  Broker broker;
  while (broker.ok()) {
    Envelope envelope;
    if (!broker.receive(envelope) || !handle(ledger, broker, envelope)) return;
  }
}

int run() {
  using Clock = std::chrono::steady_clock;
  Ledger ledger(env("EOSIM_LEDGER"));
  // A broken connection is made again, for up to a minute since the last good one.
  for (Clock::time_point since = Clock::now(); Clock::now() - since < std::chrono::minutes(1);) {
    const Clock::time_point began = Clock::now();
    consume(ledger);
    if (Clock::now() - began > std::chrono::seconds(1)) since = Clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::fprintf(stderr, "atomic-cpp: no connection to the broker for a minute\n");
  return 1;
}

}  // namespace

int main() {
  try {
    return run();
  } catch (const BadEnvironment& e) {
    std::fprintf(stderr, "atomic-cpp: %s\n", e.what());
    return 2;
  } catch (const LedgerError& e) {
    std::fprintf(stderr, "atomic-cpp: %s\n", e.what());
    return 3;
  }
}
