#include "src/consumer/consumer.h"

#include <sqlite3.h>

#include <utility>

#include "sim/assert.h"
#include "src/producer/order_message.h"
#include "src/store/txn.h"

namespace consumer {

namespace {

std::string_view id_text(const broker::Delivery& d) {
  return d.message.message_id.empty() ? std::string_view("(no message_id)")
                                      : std::string_view(d.message.message_id);
}

}  // namespace

Consumer::Consumer(sim::Kernel& kernel, ConsumerOptions options)
    : k_(kernel), options_(std::move(options)), name_("consumer" + std::to_string(options_.instance)) {
  sim::NodeHandlers handlers;
  handlers.on_frame = [this](sim::ConnId conn, const sim::Frame& f) { on_frame(conn, f); };
  handlers.on_disconnect = [this](sim::ConnId conn) { on_disconnect(conn); };
  k_.network.attach(name_, std::move(handlers));
}

template <class Fn>
void Consumer::later(const char* label, Fn fn) {
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.work_ticks, label, [this, generation, fn] {
    if (generation == generation_) fn();
  });
}

void Consumer::trace(std::string_view kind, std::initializer_list<sim::DetailPart> detail) {
  k_.trace.record(name_, kind, "", order(), detail);
}

std::int64_t Consumer::order() const {
  return current_ ? current_->deliver.delivery.message.order : 0;
}

void Consumer::start() {
  up_ = true;
  open_databases();
  connect();
}

void Consumer::open_databases() {
  store::Status st = store::Db::open(options_.ledger_uri, ledger_);
  EOSIM_ASSERT(st.ok());  // the world created this database: failing to reopen it is a bug
  // The plan decides whether this commit fails with a transient I/O error (site db.commit).
  ledger_.set_fault_hook([this](std::string_view op) -> int {
    if (op != "db.commit" || !current_) return 0;
    return fault("db.commit", "fail") ? SQLITE_IOERR_WRITE : 0;
  });
  if (options_.strategy.choices.dedup == Dedup::kSeparateStore) {
    st = store::Db::open(options_.dedup_uri, dedup_);
    EOSIM_ASSERT(st.ok());
  }
}

void Consumer::connect() {
  if (!up_) return;
  conn_ = k_.network.connect(name_, "broker");
  if (conn_ == 0) {
    const std::uint64_t generation = generation_;
    k_.scheduler.after(options_.reconnect_ticks, "consumer.reconnect", [this, generation] {
      if (generation == generation_) connect();
    });
    return;
  }
  const bool auto_ack = options_.strategy.choices.ack == AckTiming::kAuto;
  k_.network.send(conn_, name_,
                  broker::make_frame("basic.qos", broker::QosFrame{options_.prefetch}, 0, 0,
                                     "qos prefetch=" + std::to_string(options_.prefetch)));
  k_.network.send(conn_, name_,
                  broker::make_frame("basic.consume",
                                     broker::ConsumeFrame{options_.queue, name_, auto_ack}, 0, 0,
                                     std::string("consume ") + options_.queue +
                                         (auto_ack ? " no-ack" : "")));
}

void Consumer::on_frame(sim::ConnId conn, const sim::Frame& frame) {
  if (!up_) return;
  if (const auto* d = std::any_cast<broker::DeliverFrame>(&frame.payload)) {
    ++stats_.deliveries;
    inbox_.push_back({conn, *d});
    if (!current_) next();
  } else if (std::any_cast<broker::ChannelClosed>(&frame.payload)) {
    // A channel error: the client library closes the connection and we start over.
    trace("channel-error", frame.summary);
    k_.network.abort(conn, name_);
    on_disconnect(conn);
  }
}

void Consumer::on_disconnect(sim::ConnId conn) {
  if (!up_ || conn != conn_) return;
  conn_ = 0;
  // Deliveries not yet started are gone with their channel: the broker requeues them.
  std::deque<Work> kept;
  for (auto& w : inbox_) {
    if (w.conn != conn) kept.push_back(std::move(w));
  }
  inbox_ = std::move(kept);
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.reconnect_ticks, "consumer.reconnect", [this, generation] {
    if (generation == generation_) connect();
  });
}

void Consumer::next() {
  if (current_ || inbox_.empty()) return;
  current_ = std::move(inbox_.front());
  inbox_.pop_front();
  acked_ = options_.strategy.choices.ack == AckTiming::kAuto;
  later("consumer.receive", [this] { receive(); });
}

bool Consumer::fault(const char* site, const char* kind) {
  const auto& d = current_->deliver;
  const auto action = k_.faults.check(
      {site, kind, d.delivery.message.order, d.attempt, "", options_.instance});
  if (!action) return false;
  if (*action == "crash") crash(std::string("fault at ") + site);
  return true;
}

void Consumer::crash(const std::string& why) {
  if (!up_) return;
  k_.trace.record(name_, "crash", "", order(), why);
  ++stats_.crashes;
  ++generation_;
  up_ = false;
  ledger_.close();  // an open transaction is rolled back by SQLite: nothing half-done stays
  dedup_.close();
  k_.network.abort_all(name_);
  conn_ = 0;
  inbox_.clear();
  current_.reset();
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.restart_ticks, "consumer.restart", [this, generation] {
    if (generation != generation_) return;
    k_.trace.record(name_, "restart", "", 0, "process restarted");
    start();
  });
}

void Consumer::settle(const char* kind, bool requeue) {
  if (acked_) return;  // auto-ack, or already acked before the work
  acked_ = true;
  const auto& d = current_->deliver.delivery;
  const std::int64_t ord = d.message.order;
  const std::int64_t attempt = current_->deliver.attempt;
  const std::string tag = std::to_string(d.delivery_tag);
  sim::Frame frame;
  const std::string kind_name = kind;
  if (kind_name == "basic.ack") {
    frame = broker::make_frame(kind, broker::AckFrame{d.delivery_tag, false}, ord, attempt,
                               "ack " + tag);
  } else if (kind_name == "basic.nack") {
    frame = broker::make_frame(kind, broker::NackFrame{d.delivery_tag, false, requeue}, ord,
                               attempt, "nack " + tag + (requeue ? " requeue" : ""));
  } else {
    frame = broker::make_frame(kind, broker::RejectFrame{d.delivery_tag, requeue}, ord, attempt,
                               "reject " + tag + (requeue ? " requeue" : ""));
  }
  if (!k_.network.send(current_->conn, name_, std::move(frame))) {
    trace("ack-failed", std::string(kind) + " " + tag + ": its connection is closed");
  }
}

void Consumer::finish() {
  current_.reset();
  next();
}

void Consumer::receive() {
  const broker::Delivery& d = current_->deliver.delivery;
  trace("handle", {"tag=", d.delivery_tag, d.redelivered ? " redelivered" : "", " ", id_text(d)});
  if (fault("consumer.on_deliver")) return;
  const auto body = producer::decode(d.message.body);
  if (d.message.message_id.empty() || !body) {
    // Without a stable id a duplicate cannot be recognised: refuse it, never requeue it.
    settle("basic.reject", false);
    ledger_.statement("INSERT INTO rejections(order_id, message_id, reason, tick) "
                      "VALUES(?1, NULL, ?2, ?3)")
        .bind(1, d.message.order)
        .bind(2, body ? "missing message_id" : "unreadable body")
        .bind(3, static_cast<std::int64_t>(k_.scheduler.now()))
        .exec();
    trace("rejected", "no message_id: rejected without requeue");
    finish();
    return;
  }
  if (options_.strategy.choices.ack == AckTiming::kBeforeCommit) {
    settle("basic.ack");
    if (fault("consumer.after_ack")) return;
  }
  const std::string& id = d.message.message_id;
  if (options_.strategy.choices.dedup == Dedup::kSeparateStore ||
      options_.strategy.choices.dedup == Dedup::kCheckThenAct) {
    store::Db& db = options_.strategy.choices.dedup == Dedup::kSeparateStore ? dedup_ : ledger_;
    const char* sql = options_.strategy.choices.dedup == Dedup::kSeparateStore
                          ? "SELECT 1 FROM seen WHERE message_id = ?1"
                          : "SELECT 1 FROM processed_messages WHERE message_id = ?1";
    store::Stmt& check = db.statement(sql).bind(1, id);
    bool seen = false;
    const store::Status st = check.step(seen);
    check.reset();
    if (!st.ok()) return on_db_error(st);
    if (seen) {
      ++stats_.duplicates;
      trace("duplicate", {id, " already seen: ack without effect"});
      settle("basic.ack");
      finish();
      return;
    }
    if (options_.strategy.choices.dedup == Dedup::kSeparateStore) {
      // Written first and on its own: if the business transaction fails now, the key
      // says "done" although nothing was done.
      const store::Status put =
          dedup_.statement("INSERT INTO seen(message_id) VALUES(?1)").bind(1, id).exec();
      if (!put.ok()) return on_db_error(put);
      trace("dedup-store", {id, " marked seen in the separate store"});
      if (fault("consumer.after_dedup_insert")) return;
    }
  }
  later("consumer.transact", [this] { transact(); });
}

void Consumer::transact() {
  const broker::Delivery& d = current_->deliver.delivery;
  const auto body = producer::decode(d.message.body);
  EOSIM_ASSERT(body.has_value());
  const std::string id = d.message.message_id;
  const std::int64_t now = static_cast<std::int64_t>(k_.scheduler.now());
  store::Txn txn(ledger_);
  if (!txn.status().ok()) {
    on_db_error(txn.status());
    return;
  }
  const Dedup dedup = options_.strategy.choices.dedup;
  if (dedup == Dedup::kSameTxn || dedup == Dedup::kCheckThenAct) {
    // check-then-act already looked; it records with OR IGNORE because it "knows".
    const char* sql = dedup == Dedup::kSameTxn
                          ? "INSERT INTO processed_messages(message_id, order_id, tick) "
                            "VALUES(?1, ?2, ?3)"
                          : "INSERT OR IGNORE INTO processed_messages(message_id, order_id, "
                            "tick) VALUES(?1, ?2, ?3)";
    const store::Status st =
        ledger_.statement(sql).bind(1, id).bind(2, body->order).bind(3, now).exec();
    if (!st.ok()) {
      txn.rollback();
      if (st.is_unique_violation()) {
        ++stats_.duplicates;
        trace("duplicate", {id, " already processed (unique key): ack without effect"});
        settle("basic.ack");
        finish();
      } else {
        on_db_error(st);
      }
      return;
    }
    if (dedup == Dedup::kSameTxn && fault("consumer.after_dedup_insert")) {
      return;
    }
  }
  store::Status st = ledger_
                         .statement("UPDATE accounts SET balance = balance - ?1 "
                                    "WHERE id = ?2 AND balance >= ?1")
                         .bind(1, body->amount)
                         .bind(2, body->account)
                         .exec();
  if (!st.ok()) {
    txn.rollback();
    on_db_error(st);
    return;
  }
  if (ledger_.changes() == 0) {
    // A business rule said no (insufficient funds): a poison message if requeued.
    if (options_.strategy.choices.poison == PoisonPolicy::kRequeue) {
      txn.rollback();
      trace("refused", "insufficient funds: nack, requeue");
      settle("basic.nack", true);
    } else if (options_.strategy.choices.poison == PoisonPolicy::kDeadLetter &&
               options_.dead_letter) {
      txn.rollback();
      trace("refused", "insufficient funds: reject to the dead-letter queue");
      settle("basic.reject", false);
    } else {
      st = ledger_
               .statement("INSERT INTO rejections(order_id, message_id, reason, tick) "
                          "VALUES(?1, ?2, 'insufficient funds', ?3)")
               .bind(1, body->order).bind(2, id).bind(3, now).exec();
      if (st.ok()) st = txn.commit();
      if (!st.ok()) {
        txn.rollback();
        on_db_error(st);
        return;
      }
      trace("refused", "insufficient funds: recorded and acked");
      settle("basic.ack");
    }
    finish();
    return;
  }
  st = ledger_
           .statement("INSERT INTO debits(order_id, message_id, amount, consumer, tick) "
                      "VALUES(?1, ?2, ?3, ?4, ?5)")
           .bind(1, body->order).bind(2, id).bind(3, body->amount)
           .bind(4, options_.instance).bind(5, now).exec();
  if (!st.ok()) {
    txn.rollback();
    on_db_error(st);
    return;
  }
  if (fault("consumer.before_commit")) return;
  st = txn.commit();
  if (!st.ok()) {
    txn.rollback();
    on_db_error(st);
    return;
  }
  ++stats_.applied;
  k_.trace.record(name_, "commit", "ledger", body->order,
                  {"debit ", body->amount, " ", id});
  if (fault("consumer.after_commit")) return;
  if (options_.strategy.choices.ack == AckTiming::kAfterCommit) {
    settle("basic.ack");
    if (fault("consumer.after_ack")) return;
  }
  finish();
}

void Consumer::on_db_error(const store::Status& status) {
  if (options_.strategy.choices.errors == ErrorPolicy::kAllDuplicate) {
    // The article's isUniqueConstraintViolation() returns true for everything.
    ++stats_.duplicates;
    trace("misclassified", status.to_string() + " -> treated as a duplicate, acked");
    settle("basic.ack");
  } else if (acked_) {
    trace("db-error", status.to_string() + " (already acked: the effect is lost)");
  } else {
    trace("db-error", status.to_string() + " -> rolled back, nack requeue");
    settle("basic.nack", true);
  }
  finish();
}

}  // namespace consumer
