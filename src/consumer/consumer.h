#pragma once
// The consumer actor: receives deliveries from the broker and applies each order's debit
// to the ledger database following its Strategy. One instance = one network node
// ("consumer1", ...) with its own SQLite connection to the shared ledger. It reaches the
// broker, the clock, the fault plan and the trace through its transport::Env, so the same
// code runs in the simulator and as a live process against RabbitMQ.
//
// Handling a delivery takes a few steps of virtual time (receive, then the transaction,
// then the ack), so other actors - and faults - can act between them. Fault sites, in
// order: consumer.on_deliver, dedup.mark_reply (mark = before-commit: the separate
// store's mark written, its reply lost), db.serialization_failure (as the transaction
// begins; it fails the balance's UPDATE), consumer.after_dedup_insert, db.deadlock (after the
// balance's UPDATE; it fails the debit's INSERT), consumer.after_side_effect
// (side_effect = before-commit), consumer.before_commit, db.restart, db.commit (fail),
// db.commit_reply, consumer.after_commit (with mark = after-commit: before the mark, and
// dedup.mark_reply after it),
// consumer.after_side_effect (side_effect = after-commit), consumer.after_ack.
// The work itself (receive, transact and their parts) is in consumer_work.cpp.
//
// The effect outside the database (side_effect) is a row in the mail server's own SQLite
// file (effects_uri), written in autocommit: no transaction of the consumer covers it, so
// a rollback or a crash never takes it back.
//
// Invariants:
//  (1) Deliveries are handled one at a time, in arrival order.
//  (2) A crash closes the SQLite connection without commit (SQLite rolls back), kills the
//      connection to the broker and forgets every delivery it held; it restarts later.
//  (3) Acks go on the connection their delivery came on; if that one died they are lost,
//      as with a real client library.

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

#include "sim/fault_action.h"
#include "sim/fifo.h"
#include "src/broker/frames.h"
#include "src/consumer/strategy.h"
#include "src/orders/fault_site.h"
#include "src/orders/order_message.h"
#include "src/store/db.h"
#include "src/store/txn.h"
#include "src/transport/transport.h"

namespace consumer {

struct ConsumerOptions {
  int instance = 1;
  std::string ledger_uri;     // shared by every consumer
  std::string dedup_uri;      // the separate store (dedup = separate-store only)
  std::string effects_uri;    // the mail server's log (side_effect != none only)
  Strategy strategy;
  std::string queue = "orders";
  std::uint32_t prefetch = 5;
  bool dead_letter = false;   // the queue has a dead-letter queue to reject poison into
  sim::Tick work_ticks = 2;       // time between the steps of handling one delivery
  sim::Tick restart_ticks = 20;   // a crashed consumer is back after this
  sim::Tick reconnect_ticks = 5;  // wait before reconnecting after a lost connection
};

struct ConsumerStats {
  std::int64_t deliveries = 0;
  std::int64_t applied = 0;     // commits that debited
  std::int64_t duplicates = 0;  // deliveries recognised as already done
  std::int64_t skipped = 0;     // marked seen in the separate store, yet never applied
  std::int64_t crashes = 0;
};

// A delivery a consumer holds: in its inbox, or the one it works on. Outside the class:
// clang finds a class nested with member initializers not default-constructible inside
// its enclosing class, and current_.emplace() needs that.
struct ConsumerWork {
  transport::ConnId conn = 0;
  broker::DeliverFrame deliver;
  // The body read once by receive() (which rejects a body that does not decode), for
  // the later steps.
  orders::OrderMessage body;
};

class Consumer {
 public:
  Consumer(transport::Env env, ConsumerOptions options);
  Consumer(const Consumer&) = delete;
  Consumer& operator=(const Consumer&) = delete;

  void start();
  void crash(const std::string& why);

  const std::string& name() const { return name_; }
  bool up() const { return up_; }
  const ConsumerStats& stats() const { return stats_; }
  std::size_t inbox_size() const { return inbox_.size() + (current_ ? 1 : 0); }
  // For explore's state merging: everything the consumer decides by (its connection,
  // whether it is up, its generation, the deliveries it holds, which databases it has
  // open). The statistics are left out: nothing decides by them.
  void add_state(sim::StateHash& hash) const;

 private:
  using Work = ConsumerWork;

  void connect();
  void on_frame(transport::ConnId conn, broker::BrokerMethod& method);
  void on_disconnect(transport::ConnId conn);
  void open_databases();
  bool open_ledger();  // false when it failed: the run is over (stop())
  // Sites db.restart and db.commit_reply: the ledger's connection broke with `status`.
  void lose_ledger_connection(const store::Status& status);
  // Site dedup.mark_reply: the separate store's connection broke with `status`.
  void lose_dedup_connection(const store::Status& status);
  void next();
  void begin_current();  // current_ was just set: its first step comes
  void receive();      // step 1: on_deliver, early ack, dedup outside the transaction
  void transact();     // step 2: the business transaction, then what follows the commit
  // The transaction's writes and commit: in step 2, or with check = in-transaction in
  // step 3, the transaction still open from step 2 (its check).
  void act();
  bool check_in_txn() const;  // check-then-act with check = in-transaction
  // check = in-transaction: was `id` debited? The SELECT runs inside the open transaction.
  // False when the delivery is settled (already debited, or a database error).
  bool check_debited(const std::string& id);
  void after_commit(std::int64_t order, const std::string& id);
  void reject_unidentified(bool readable);
  bool expire_dedup_keys();                 // false when it failed (already handled)
  bool check_outside(const std::string& id, bool& seen);  // separate store / check-then-act
  bool mark_seen(const std::string& id, std::int64_t order);
  // same-transaction or check-then-act: the dedup key is written in the business transaction.
  bool key_in_txn() const;
  bool key_last() const;  // dedup_order = effect-first: the key is inserted after the work
  bool insert_key(store::Txn& txn, const std::string& id, std::int64_t order);
  bool debit(store::Txn& txn, const orders::OrderMessage& body, const std::string& id,
             const std::optional<store::Status>& update_answer);
  // Sites db.serialization_failure and db.deadlock (consumer_work.cpp): nullopt unless it
  // fired on SQLite, then the SQLSTATE the next statement answers with.
  std::optional<store::Status> conflict(orders::Site site, store::Conflict kind,
                                        const std::string& account);
  void commit(store::Txn& txn, const orders::OrderMessage& body, const std::string& id);
  void refuse(store::Txn& txn, std::int64_t order, const std::string& id);
  bool send_effect(std::int64_t order, const std::string& id);
  void on_duplicate(const std::string& why);
  void on_skipped(const std::string& id);  // separate store: seen, yet never applied
  void on_db_error(const store::Status& status);
  void stop();  // after a machine error (store/failure.h): the run is over
  // separate-dedup-store: the store marks `id` seen but the ledger holds no debit for it.
  bool separate_mark_without_effect(const std::string& id);
  bool fault(orders::Site site, sim::FaultAction kind = sim::FaultAction::kCrash);
  // How a delivery is settled: the frame sent back to the broker.
  enum class Settle { kAck, kNack, kReject };
  void settle(Settle how, bool requeue = true);
  void finish();
  template <class Fn>
  void later(const char* label, Fn fn);
  void trace(sim::EventKind kind, std::initializer_list<sim::DetailPart> detail);
  void trace(sim::EventKind kind, std::string_view detail) {
    // Spelled out: clang reads trace(kind, {detail}) as a call of this overload again.
    trace(kind, std::initializer_list<sim::DetailPart>{detail});
  }
  std::int64_t order() const;

  transport::Env k_;  // transport, clock, faults and trace
  ConsumerOptions options_;
  std::string name_;
  store::Db ledger_;
  store::Db dedup_;
  store::Db effects_;
  // The ledger transaction of the current delivery. A member, not a local of one step:
  // with check = in-transaction it stays open from one step to the next, while other
  // consumers run. Ended by finish(); a crash closes the ledger under it (rolled back).
  std::optional<store::Txn> txn_;
  transport::ConnId conn_ = 0;
  bool up_ = false;
  bool acked_ = false;           // the current delivery was already acked (or auto-acked)
  std::uint64_t generation_ = 0;  // bumps on crash: stale events do nothing
  sim::Fifo<Work> inbox_;
  std::optional<Work> current_;
  ConsumerStats stats_;
};

// `Fn` is a captureless lambda taking the consumer, made afresh when the event runs: the
// event's closure is then two words, which std::function keeps inline instead of
// allocating one per step of a delivery.
template <class Fn>
void Consumer::later(const char* label, Fn) {
  static_assert(std::is_empty_v<Fn> && std::is_default_constructible_v<Fn>,
                "later() takes a lambda without captures: [](Consumer& c) { ... }");
  const std::uint64_t generation = generation_;
  k_.scheduler.after(options_.work_ticks, label, [this, generation] {
    if (generation == generation_) Fn{}(*this);
  }, 0, sim::event_tag(generation));
}

}  // namespace consumer
