// The consumer's work on one delivery, step by step (see consumer.h for the fault sites in
// order). Each part returns early when a fault crashed the consumer or a database error
// settled the delivery; `current_` is then already reset.

#include <sqlite3.h>

#include <string>

#include "sim/assert.h"
#include "src/consumer/consumer.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_message.h"
#include "src/store/failure.h"
#include "src/store/remote.h"

namespace consumer {

using orders::Site;

bool Consumer::key_in_txn() const {
  const Dedup dedup = options_.strategy.choices.dedup;
  return dedup == Dedup::kSameTxn || (dedup == Dedup::kCheckThenAct && !check_in_txn());
}

bool Consumer::check_in_txn() const {
  return options_.strategy.choices.dedup == Dedup::kCheckThenAct &&
         options_.strategy.check == Check::kInTransaction;
}

bool Consumer::key_last() const {
  return options_.strategy.choices.dedup == Dedup::kSameTxn &&
         options_.strategy.dedup_order == DedupOrder::kEffectFirst;
}

void Consumer::receive() {
  const broker::Delivery& d = current_->deliver.delivery;
  // In parts: a sweep, which keeps no events, hashes them without building the text.
  trace(orders::event::kHandle,
        {"tag=", d.delivery_tag, d.redelivered ? " redelivered " : " ",
         d.message.message_id.empty() ? std::string_view("(no message_id)")
                                      : std::string_view(d.message.message_id)});
  if (fault(Site::kConsumerOnDeliver)) return;
  auto body = orders::decode(d.message.body);
  if (d.message.message_id.empty() || !body) return reject_unidentified(body.has_value());
  current_->body = std::move(*body);
  const Choices& c = options_.strategy.choices;
  if (c.ack == AckTiming::kBeforeCommit) {
    settle(Settle::kAck);
    if (fault(Site::kConsumerAfterAck)) return;
  }
  if (!expire_dedup_keys()) return;
  const std::string& id = d.message.message_id;
  if (c.dedup == Dedup::kSeparateStore || (c.dedup == Dedup::kCheckThenAct && !check_in_txn())) {
    bool seen = false;
    if (!check_outside(id, seen)) return;
    if (seen && separate_mark_without_effect(id)) return on_skipped(id);
    if (seen) return on_duplicate(id + " already seen: ack without effect");
    if (c.dedup == Dedup::kCheckThenAct) {
      // The look that races: nothing found now says nothing about a moment from now.
      trace(orders::event::kChecked,
            id + " not in processed_messages: will act in a later transaction");
    }
    if (c.dedup == Dedup::kSeparateStore && options_.strategy.mark == Mark::kBeforeCommit) {
      // Written first and on its own: if the business transaction fails now, the key
      // says "done" although nothing was done.
      if (!mark_seen(id, current_->body.order)) return;
      if (fault(Site::kConsumerAfterDedupInsert)) return;
    }
  }
  later("consumer.transact", [](Consumer& self) { self.transact(); });
}

namespace {
// The consumer's statements, numbered (store/sql.h): each is fetched by its number.
const store::Sql kRejectUnidentified{
    "INSERT INTO rejections(order_id, message_id, reason, tick) VALUES(?1, NULL, ?2, ?3)"};
const store::Sql kExpireSeen{"DELETE FROM seen WHERE tick < ?1"};
const store::Sql kExpireProcessed{"DELETE FROM processed_messages WHERE tick < ?1"};
const store::Sql kCheckSeen{"SELECT 1 FROM seen WHERE message_id = ?1"};
const store::Sql kCheckProcessed{"SELECT 1 FROM processed_messages WHERE message_id = ?1"};
const store::Sql kMarkSeen{"INSERT INTO seen(message_id, order_id, tick) VALUES(?1, ?2, ?3)"};
const store::Sql kInsertKey{
    "INSERT INTO processed_messages(message_id, order_id, tick) VALUES(?1, ?2, ?3)"};
const store::Sql kInsertKeyOrIgnore{
    "INSERT OR IGNORE INTO processed_messages(message_id, order_id, tick) VALUES(?1, ?2, ?3)"};
const store::Sql kSelectDebited{"SELECT 1 FROM debits WHERE message_id = ?1"};
const store::Sql kDebitBalance{
    "UPDATE accounts SET balance = balance - ?1 WHERE id = ?2 AND balance >= ?1"};
const store::Sql kInsertDebit{
    "INSERT INTO debits(order_id, message_id, amount, consumer, tick) VALUES(?1, ?2, ?3, ?4, ?5)"};
const store::Sql kRefuseForFunds{
    "INSERT INTO rejections(order_id, message_id, reason, tick) "
    "VALUES(?1, ?2, 'insufficient funds', ?3)"};
const store::Sql kEmailKeyed{
    "INSERT OR IGNORE INTO emails(order_id, message_id, idempotency_key, consumer, tick) "
    "VALUES(?1, ?2, ?2, ?3, ?4)"};
const store::Sql kEmail{
    "INSERT INTO emails(order_id, message_id, idempotency_key, consumer, tick) "
    "VALUES(?1, ?2, NULL, ?3, ?4)"};
}  // namespace

void Consumer::reject_unidentified(bool readable) {
  // Without a stable id a duplicate cannot be recognised: refuse it, never requeue it.
  // The refusal is recorded before the reject: a reject without requeue removes the message
  // for good, so if the record failed too nothing would be left to show it ever came. A
  // failed INSERT is a database error like any other (a transient one is nacked and the
  // redelivery records it).
  const broker::Delivery& d = current_->deliver.delivery;
  const store::Status st = ledger_.statement(kRejectUnidentified)
                               .bind(1, d.message.order)
                               .bind(2, readable ? "missing message_id" : "unreadable body")
                               .bind(3, static_cast<std::int64_t>(k_.scheduler.now()))
                               .exec();
  if (!st.ok()) return on_db_error(st);
  settle(Settle::kReject, false);
  trace(orders::event::kRejected, "no message_id: rejected without requeue");
  finish();
}

// A cleanup job that deletes dedup keys older than the retention window, run before each
// delivery is looked up (where its absence matters).
bool Consumer::expire_dedup_keys() {
  const std::int64_t retention = options_.strategy.dedup_retention;
  const Dedup dedup = options_.strategy.choices.dedup;
  if (retention == 0 || dedup == Dedup::kNone) return true;
  const bool separate = dedup == Dedup::kSeparateStore;
  store::Db& db = separate ? dedup_ : ledger_;
  const std::int64_t cutoff = static_cast<std::int64_t>(k_.scheduler.now()) - retention;
  const store::Status st =
      db.statement(separate ? kExpireSeen : kExpireProcessed).bind(1, cutoff).exec();
  if (!st.ok()) {
    on_db_error(st);
    return false;
  }
  if (db.changes() > 0) {
    trace(orders::event::kDedupExpired, std::to_string(db.changes()) + " dedup key(s) older than " +
                                            std::to_string(retention) + " ticks deleted");
  }
  return true;
}

// The separate store's statements (here, mark_seen and expire_dedup_keys) are also what
// `eosim live --dedup-store redis` answers as Redis commands (src/live/redis_store.h):
// change them together.
bool Consumer::check_outside(const std::string& id, bool& seen) {
  const bool separate = options_.strategy.choices.dedup == Dedup::kSeparateStore;
  store::Db& db = separate ? dedup_ : ledger_;
  store::Stmt& check = db.statement(separate ? kCheckSeen : kCheckProcessed).bind(1, id);
  const store::Status st = check.step(seen);
  check.reset();
  if (!st.ok()) on_db_error(st);
  return st.ok();
}

bool Consumer::mark_seen(const std::string& id, std::int64_t order) {
  const store::Status st = dedup_.statement(kMarkSeen)
                               .bind(1, id)
                               .bind(2, order)
                               .bind(3, static_cast<std::int64_t>(k_.scheduler.now()))
                               .exec();
  if (!st.ok()) {
    on_db_error(st);
    return false;
  }
  // The key is set, but the reply never came and the store's connection broke: the
  // consumer cannot tell whether it was set, and goes on as from a lost connection.
  if (fault(Site::kDedupMarkReply, sim::FaultAction::kDrop)) {
    lose_dedup_connection(store::Status::from_sqlstate(
        "08006",
        "the connection to the dedup store broke before the reply to the mark came: "
        "is the key set?"));
    return false;
  }
  trace(orders::event::kDedupStore,
        id + (options_.strategy.mark == Mark::kBeforeCommit
                  ? " marked seen in the separate store"
                  : " marked seen in the separate store, after the commit"));
  return true;
}

// The dedup key inside the business transaction. False when the delivery is settled:
// a duplicate (unique key) or a database error.
bool Consumer::insert_key(store::Txn& txn, const std::string& id, std::int64_t order) {
  const Dedup dedup = options_.strategy.choices.dedup;
  // check-then-act already looked; it records with OR IGNORE because it "knows".
  const store::Sql& sql = dedup == Dedup::kSameTxn ? kInsertKey : kInsertKeyOrIgnore;
  const store::Status st = ledger_.statement(sql)
                               .bind(1, id)
                               .bind(2, order)
                               .bind(3, static_cast<std::int64_t>(k_.scheduler.now()))
                               .exec();
  if (st.ok()) return true;
  txn.abandon();
  if (!st.is_unique_violation()) {
    on_db_error(st);
  } else if (options_.strategy.dedup_order == DedupOrder::kKeyFirst) {
    on_duplicate(id + " already processed (unique key): ack without effect");
  } else {
    on_duplicate(id +
                 " already processed (unique key, inserted last): the work is rolled "
                 "back, ack");
  }
  return false;
}

// Step 2: the business transaction. Each part returns early (false) when it settled the
// delivery - a duplicate, a refusal, a database error - or a fault crashed the consumer.
void Consumer::transact() {
  const broker::Delivery& d = current_->deliver.delivery;
  // Ack after commit: nothing is acked yet. Auto-ack or ack before commit: it already is.
  EOSIM_ASSERT(acked_ == (options_.strategy.choices.ack != AckTiming::kAfterCommit));
  txn_.emplace(ledger_, store::Txn::Mode::kImmediate, options_.strategy.isolation);
  if (!txn_->status().ok()) return on_db_error(txn_->status());
  if (!check_in_txn()) return act();
  if (!check_debited(d.message.message_id)) return;
  later("consumer.act", [](Consumer& self) { self.act(); });
}

bool Consumer::check_debited(const std::string& id) {
  store::Stmt& check = ledger_.statement(kSelectDebited).bind(1, id);
  bool debited = false;
  const store::Status st = check.step(debited);
  check.reset();
  if (!st.ok() || debited) txn_->abandon();
  if (!st.ok()) {
    on_db_error(st);
  } else if (debited) {
    on_duplicate(id + " already debited (checked inside the transaction): ack without effect");
  } else {
    // No unique key will stop a second debit: whether another consumer's debit, made
    // between this check and this transaction's commit, stops this one is the isolation
    // level's to say.
    trace(orders::event::kChecked,
          id + " not in debits: will debit in the next step, the transaction still open");
  }
  return st.ok() && !debited;
}

void Consumer::act() {
  // Copies: a fault below may crash the consumer, which resets current_.
  const orders::OrderMessage body = current_->body;
  const std::string id = current_->deliver.delivery.message.message_id;
  store::Txn& txn = *txn_;
  // Read committed on SQLite takes its write lock only now (store/txn.h).
  if (const store::Status st = txn.writes(); !st.ok()) return on_db_error(st);
  // Asked first: a server stages it before the transaction's first statement.
  const std::optional<store::Status> update_answer =
      conflict(Site::kDbSerializationFailure, store::Conflict::kSerialization, body.account);
  bool key_written = false;  // this transaction holds the dedup key
  if (key_in_txn() && !key_last()) {
    if (!insert_key(txn, id, body.order)) return;
    key_written = true;
    const bool same_txn = options_.strategy.choices.dedup == Dedup::kSameTxn;
    if (same_txn && fault(Site::kConsumerAfterDedupInsert)) return;
  }
  if (!debit(txn, body, id, update_answer)) return;
  if (options_.strategy.side_effect == SideEffect::kBeforeCommit) {
    if (!send_effect(body.order, id)) return;
    if (fault(Site::kConsumerAfterSideEffect)) return;
  }
  if (key_last()) {
    if (!insert_key(txn, id, body.order)) return;
    key_written = true;
  }
  // With the key in the business transaction, the debit never commits without it: the key
  // is what recognises the next copy of this message and stops a second debit.
  EOSIM_ASSERT(key_written == key_in_txn());
  commit(txn, body, id);
}

// Sites db.serialization_failure and db.deadlock: another transaction conflicts with this
// one, and the database aborts this one with 40001 or 40P01. A database server is given
// the real conflict (store::Db::stage_conflict) and answers the next statement itself:
// nullopt, run it. SQLite takes one writer at a time and is always serializable, so no
// other transaction can conflict there: the statement's answer is the server's SQLSTATE,
// given here instead of running it. nullopt too when the site does not fire.
std::optional<store::Status> Consumer::conflict(Site site, store::Conflict kind,
                                                const std::string& account) {
  if (!fault(site, sim::FaultAction::kFail)) return std::nullopt;
  if (store::is_remote_uri(options_.ledger_uri)) {
    const store::Status staged = ledger_.stage_conflict(kind, account);
    if (staged.ok()) return std::nullopt;
    trace(orders::event::kDbError, "the conflict could not be staged on the server (" +
                                       staged.to_string() + "): its SQLSTATE is given instead");
  }
  if (kind == store::Conflict::kSerialization) {
    return store::Status::from_sqlstate(
        "40001",
        "could not serialize access due to concurrent update (another transaction "
        "changed the account after this one's snapshot)");
  }
  return store::Status::from_sqlstate(
      "40P01",
      "deadlock detected (another transaction locks the debits and waits for this "
      "one's account row)");
}

// The debit and its row, inside `txn`. False when the delivery was settled instead: a
// database error, or a refusal (insufficient funds). `update_answer`: a staged
// serialization failure's answer to the balance's UPDATE (conflict()).
bool Consumer::debit(store::Txn& txn, const orders::OrderMessage& body, const std::string& id,
                     const std::optional<store::Status>& update_answer) {
  EOSIM_ASSERT(txn.active() && ledger_.in_transaction());
  store::Status st =
      update_answer
          ? *update_answer
          : ledger_.statement(kDebitBalance).bind(1, body.amount).bind(2, body.account).exec();
  if (st.ok() && ledger_.changes() == 0) {
    // A business rule said no (insufficient funds): a poison message if requeued.
    refuse(txn, body.order, id);
    return false;
  }
  std::optional<store::Status> insert_answer;
  if (st.ok())
    insert_answer = conflict(Site::kDbDeadlock, store::Conflict::kDeadlock, body.account);
  if (insert_answer) {
    st = *insert_answer;
  } else if (st.ok()) {
    st = ledger_.statement(kInsertDebit)
             .bind(1, body.order)
             .bind(2, id)
             .bind(3, body.amount)
             .bind(4, options_.instance)
             .bind(5, static_cast<std::int64_t>(k_.scheduler.now()))
             .exec();
  }
  if (st.ok()) return true;
  txn.abandon();
  on_db_error(st);
  return false;
}

// The commit (site db.commit can fail it, db.restart comes before it, db.commit_reply
// loses its answer), then what follows it. The two connection faults answer with the
// SQLSTATEs PostgreSQL gives, so the model reads as a live run with --store postgres does.
void Consumer::commit(store::Txn& txn, const orders::OrderMessage& body, const std::string& id) {
  if (fault(Site::kConsumerBeforeCommit)) return;
  // A database server is restarted by whoever runs it (a live run's supervisor, before
  // the fault returns here): the COMMIT below meets the broken connection and the server's
  // own answer. SQLite's "server" is this process's connection: it is dropped, and the
  // journal rolls the transaction back, as a server's recovery would.
  if (fault(Site::kDbRestart, sim::FaultAction::kRestart) &&
      !store::is_remote_uri(options_.ledger_uri)) {
    txn.abandon();
    return lose_ledger_connection(store::Status::from_sqlstate(
        "57P01",
        "the database restarted: terminating connection due to immediate shutdown "
        "command"));
  }
  const store::Status st = txn.commit();
  if (!st.ok()) {
    txn.abandon();
    return on_db_error(st);
  }
  EOSIM_ASSERT(!txn.active() && !ledger_.in_transaction());
  ++stats_.applied;
  k_.trace.record(name_, orders::event::kCommit, "ledger", body.order,
                  {"debit ", body.amount, " ", id});
  if (fault(Site::kDbCommitReply, sim::FaultAction::kDrop)) {
    return lose_ledger_connection(store::Status::from_sqlstate(
        "08006", "the connection broke before the reply to COMMIT came: did it commit?"));
  }
  after_commit(body.order, id);
}

void Consumer::after_commit(std::int64_t order, const std::string& id) {
  if (fault(Site::kConsumerAfterCommit)) return;
  const Strategy& s = options_.strategy;
  if (s.choices.dedup == Dedup::kSeparateStore && s.mark == Mark::kAfterCommit) {
    if (!mark_seen(id, order)) return;
  }
  if (s.side_effect == SideEffect::kAfterCommit) {
    if (!send_effect(order, id)) return;
    if (fault(Site::kConsumerAfterSideEffect)) return;
  }
  if (s.choices.ack == AckTiming::kAfterCommit) {
    EOSIM_ASSERT(!acked_);  // nothing acked this delivery before its commit
    settle(Settle::kAck);
    if (fault(Site::kConsumerAfterAck)) return;
  }
  finish();
}

void Consumer::refuse(store::Txn& txn, std::int64_t order, const std::string& id) {
  const PoisonPolicy poison = options_.strategy.choices.poison;
  if (poison == PoisonPolicy::kRequeue) {
    txn.abandon();
    trace(sim::EventKind::kRefused, "insufficient funds: nack, requeue");
    settle(Settle::kNack, true);
  } else if (poison == PoisonPolicy::kDeadLetter && options_.dead_letter) {
    txn.abandon();
    trace(sim::EventKind::kRefused, "insufficient funds: reject to the dead-letter queue");
    settle(Settle::kReject, false);
  } else {
    // A recorded refusal is a processed message too: with the key inserted last it has
    // not been inserted yet, and a duplicate is only recognised here.
    if (key_last() && !insert_key(txn, id, order)) return;
    store::Status st = ledger_.statement(kRefuseForFunds)
                           .bind(1, order)
                           .bind(2, id)
                           .bind(3, static_cast<std::int64_t>(k_.scheduler.now()))
                           .exec();
    if (st.ok()) st = txn.commit();
    if (!st.ok()) {
      txn.abandon();
      return on_db_error(st);
    }
    trace(sim::EventKind::kRefused, "insufficient funds: recorded and acked");
    settle(Settle::kAck);
  }
  finish();
}

// The email, through the mail server: its own database, in autocommit, outside every
// transaction of the ledger. With an idempotency key the server keeps the first request
// for a key and ignores any repeat.
bool Consumer::send_effect(std::int64_t order, const std::string& id) {
  const bool keyed = options_.strategy.idempotency_key;
  const store::Sql& sql = keyed ? kEmailKeyed : kEmail;
  const store::Status st = effects_.statement(sql)
                               .bind(1, order)
                               .bind(2, id)
                               .bind(3, options_.instance)
                               .bind(4, static_cast<std::int64_t>(k_.scheduler.now()))
                               .exec();
  // The mail server's log has no faults of its own: an error is the machine's.
  if (store::machine_failed(st)) {
    stop();
    return false;
  }
  if (effects_.changes() == 0) {
    k_.trace.record(name_, orders::event::kEffect, "mail", order,
                    "email for " + id + " ignored: the mail server has seen its key");
  } else {
    k_.trace.record(name_, orders::event::kEffect, "mail", order,
                    "email sent for " + id + (keyed ? " (idempotency key)" : ""));
  }
  return true;
}

bool Consumer::separate_mark_without_effect(const std::string& id) {
  if (options_.strategy.choices.dedup != Dedup::kSeparateStore) return false;
  // The trace looks at the ledger as an observer would; the consumer's own logic does not.
  store::Stmt& debit = ledger_.statement(kSelectDebited).bind(1, id);
  bool applied = false;
  const store::Status st = debit.step(applied);
  debit.reset();
  return st.ok() && !applied;
}

void Consumer::on_skipped(const std::string& id) {
  // The store says "done" but the ledger has no debit for it: not a duplicate caught, an
  // effect skipped (the anti-pattern's loss, made visible).
  ++stats_.skipped;
  trace(orders::event::kSkipped,
        id + " marked seen in the separate store but never applied: ack without "
             "effect");
  settle(Settle::kAck);
  finish();
}

void Consumer::on_duplicate(const std::string& why) {
  ++stats_.duplicates;
  trace(orders::event::kDuplicate, why);
  const Strategy& s = options_.strategy;
  // A commit followed by a crash before the email: the ledger says "done", so only a
  // resend (harmless with a key) can still deliver the email.
  if (s.side_effect == SideEffect::kAfterCommit && s.idempotency_key) {
    const broker::Message& m = current_->deliver.delivery.message;
    if (!send_effect(m.order, m.message_id)) return;
  }
  settle(Settle::kAck);
  finish();
}

}  // namespace consumer
