#include "src/consumer/consumer.h"

#include <sqlite3.h>

#include <utility>

#include "sim/assert.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/store/failure.h"

namespace consumer {

using orders::Site;

Consumer::Consumer(transport::Env env, ConsumerOptions options)
    : k_(env), options_(std::move(options)), name_("consumer" + std::to_string(options_.instance)) {
  transport::Handlers handlers;
  handlers.on_frame = [this](transport::ConnId conn, broker::BrokerMethod& method) {
    on_frame(conn, method);
  };
  handlers.on_disconnect = [this](transport::ConnId conn) { on_disconnect(conn); };
  k_.net.set_handlers(std::move(handlers));
}

void Consumer::trace(sim::EventKind kind, std::initializer_list<sim::DetailPart> detail) {
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
  // The world created these databases: failing to reopen one is the machine's trouble
  // (store/failure.h), which ends the run.
  if (!open_ledger()) return;
  if (options_.strategy.choices.dedup == Dedup::kSeparateStore) {
    if (store::machine_failed(store::Db::open(options_.dedup_uri, dedup_))) return stop();
  }
  if (options_.strategy.side_effect != SideEffect::kNone) {
    if (store::machine_failed(store::Db::open(options_.effects_uri, effects_))) return stop();
  }
}

bool Consumer::open_ledger() {
  if (store::machine_failed(store::Db::open(options_.ledger_uri, ledger_))) {
    stop();
    return false;
  }
  // The plan decides whether this commit fails with a transient I/O error (site db.commit).
  ledger_.set_fault_hook([this](store::HookOp op) -> int {
    if (op != store::HookOp::kCommit || !current_) return 0;
    return fault(Site::kDbCommit, sim::FaultAction::kFail) ? SQLITE_IOERR_WRITE : 0;
  });
  return true;
}

void Consumer::lose_ledger_connection(const store::Status& status) {
  // A broken connection is gone with whatever it held: a fresh one takes its place, as a
  // client's pool reconnects. (SQLite keeps no state per connection that matters here;
  // a server's session does.)
  ledger_.close();
  if (!open_ledger()) return;
  on_db_error(status);
}

void Consumer::lose_dedup_connection(const store::Status& status) {
  dedup_.close();
  if (store::machine_failed(store::Db::open(options_.dedup_uri, dedup_))) return stop();
  on_db_error(status);
}

void Consumer::connect() {
  if (!up_) return;
  conn_ = k_.net.connect();
  if (conn_ == 0) {
    const std::uint64_t generation = generation_;
    k_.scheduler.after(options_.reconnect_ticks, "consumer.reconnect", [this, generation] {
      if (generation == generation_) connect();
    }, 0, sim::event_tag(generation));
    return;
  }
  const bool auto_ack = options_.strategy.choices.ack == AckTiming::kAuto;
  k_.net.send(conn_, {broker::QosFrame{options_.prefetch}, 0, 0});
  k_.net.send(conn_, {broker::ConsumeFrame{options_.queue, name_, auto_ack}, 0, 0});
}

void Consumer::on_frame(transport::ConnId conn, broker::BrokerMethod& method) {
  if (!up_) return;
  std::visit(broker::Overloaded{
                 [&](broker::DeliverFrame& d) {
                   ++stats_.deliveries;
                   // Moved out of the frame, straight into its place: the current work of
                   // an idle consumer (through the inbox it would move twice more), else
                   // the inbox.
                   const bool idle = !current_ && inbox_.empty();
                   Work& work = idle ? current_.emplace() : inbox_.emplace_back();
                   work.conn = conn;
                   work.deliver = std::move(d);
                   if (idle) {
                     begin_current();
                   } else if (!current_) {
                     next();
                   }
                 },
                 [&](const broker::ChannelClosed&) {
                   // A channel error: the client library closes the connection and we
                   // start over.
                   trace(orders::event::kChannelError, broker::summary_text(method));
                   k_.net.close(conn);
                   on_disconnect(conn);
                 },
                 // A consumer publishes nothing, so nothing is confirmed or returned to it.
                 [](const broker::Confirm&) {},
                 [](const broker::Returned&) {},
             },
             method);
}

void Consumer::on_disconnect(transport::ConnId conn) {
  if (!up_ || conn != conn_) return;
  conn_ = 0;
  // Deliveries not yet started are gone with their channel: the broker requeues them.
  sim::Fifo<Work> kept;
  for (auto& w : inbox_) {
    if (w.conn != conn) kept.push_back(std::move(w));
  }
  inbox_ = std::move(kept);
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.reconnect_ticks, "consumer.reconnect", [this, generation] {
    if (generation == generation_) connect();
  }, 0, sim::event_tag(generation));
}

void Consumer::next() {
  if (current_ || inbox_.empty()) return;
  current_.emplace(std::move(inbox_.front()));
  inbox_.take_front();  // moved from: what is left of it goes
  begin_current();
}

void Consumer::begin_current() {
  acked_ = options_.strategy.choices.ack == AckTiming::kAuto;
  later("consumer.receive", [](Consumer& self) { self.receive(); });
}

bool Consumer::fault(Site site, sim::FaultAction kind) {
  const auto& d = current_->deliver;
  const auto action = k_.faults.check(
      {orders::site_id(site), kind,
       orders::order_key(d.delivery.message.order, d.attempt, options_.instance), 0,
       orders::scripted_only(site)});
  if (!action) return false;
  if (*action == sim::FaultAction::kCrash)
    crash("fault at " + std::string(orders::site_name(site)));
  return true;
}

void Consumer::crash(const std::string& why) {
  if (!up_) return;
  k_.trace.record(name_, sim::EventKind::kCrash, "", order(), why);
  ++stats_.crashes;
  ++generation_;
  up_ = false;
  ledger_.close();  // an open transaction is rolled back by SQLite: nothing half-done stays
  txn_.reset();     // its guard: nothing is left to roll back
  dedup_.close();
  effects_.close();  // what the mail server accepted stays: it was never in a transaction
  k_.net.reset_all();
  conn_ = 0;
  inbox_.clear();
  current_.reset();
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.restart_ticks, "consumer.restart", [this, generation] {
    if (generation != generation_) return;
    k_.trace.record(name_, sim::EventKind::kRestart, "", 0, "process restarted");
    start();
  }, 0, sim::event_tag(generation));
}

void Consumer::settle(Settle how, bool requeue) {
  // The broker hears about a delivery only while no ledger transaction is open: after its
  // commit or rollback, or (ack before commit) before it begins. An ack inside the
  // transaction would let the broker forget a message whose debit may still roll back.
  EOSIM_ASSERT(!ledger_.in_transaction());
  if (acked_) return;  // auto-ack, or already acked before the work
  acked_ = true;
  const auto& d = current_->deliver.delivery;
  const std::int64_t ord = d.message.order;
  const std::int64_t attempt = current_->deliver.attempt;
  const std::uint64_t tag = d.delivery_tag;
  transport::Outgoing frame{broker::AckFrame{tag, false}, ord, attempt};
  if (how == Settle::kNack) {
    frame.method = broker::NackFrame{tag, false, requeue};
  } else if (how == Settle::kReject) {
    frame.method = broker::RejectFrame{tag, requeue};
  }
  const std::string_view kind = sim::name_of(broker::kind_of(frame.method));
  if (!k_.net.send(current_->conn, std::move(frame))) {
    trace(orders::event::kAckFailed, {kind, " ", tag, ": its connection is closed"});
  }
}

void Consumer::finish() {
  txn_.reset();  // committed or rolled back by now; a guard still active rolls back
  current_.reset();
  next();
}

void Consumer::on_db_error(const store::Status& status) {
  // The machine's trouble is no answer of the business database: no strategy sees it.
  if (status.kind == store::ErrorKind::kEnvironment) return stop();
  if (options_.strategy.choices.errors == ErrorPolicy::kAllDuplicate) {
    // A duplicate check that says yes to every error: the transient one is acked too.
    ++stats_.duplicates;
    trace(orders::event::kMisclassified, status.to_string() + " -> treated as a duplicate, acked");
    settle(Settle::kAck);
  } else if (status.kind == store::ErrorKind::kConnectionLost) {
    // Committed or not, the consumer cannot tell: only a dedup key can tell the
    // redelivery that the work is already done.
    trace(orders::event::kDbError,
          status.to_string() + (acked_ ? " (already acked: if it did not commit, the effect "
                                         "is lost)"
                                       : " -> outcome unknown, nack requeue"));
    settle(Settle::kNack, true);
  } else if (acked_) {
    trace(orders::event::kDbError, status.to_string() + " (already acked: the effect is lost)");
  } else {
    trace(orders::event::kDbError, status.to_string() + " -> rolled back, nack requeue");
    settle(Settle::kNack, true);
  }
  finish();
}

// After a machine error: nothing more happens in this process (the run is over).
void Consumer::stop() {
  up_ = false;
  ++generation_;
  txn_.reset();
  current_.reset();
}

void Consumer::add_state(sim::StateHash& hash) const {
  hash.add(static_cast<std::uint64_t>(conn_));
  hash.add(up_);
  hash.add(acked_);
  hash.add(generation_);
  hash.add(ledger_.is_open());
  hash.add(dedup_.is_open());
  hash.add(effects_.is_open());
  // Only a held transaction is open between steps (check = in-transaction); added only
  // then, so that every other design's states hash as before.
  if (check_in_txn()) hash.add(txn_.has_value() && txn_->active());
  hash.add(static_cast<std::uint64_t>(inbox_.size()));
  for (const Work& w : inbox_) {
    hash.add(static_cast<std::uint64_t>(w.conn));
    broker::add_state(hash, w.deliver);
  }
  hash.add(current_.has_value());
  if (current_) {
    hash.add(static_cast<std::uint64_t>(current_->conn));
    broker::add_state(hash, current_->deliver);
  }
}

}  // namespace consumer
