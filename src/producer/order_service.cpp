#include "src/producer/producer.h"

#include <algorithm>

#include "sim/assert.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/orders/order_message.h"
#include "src/store/failure.h"
#include "src/store/remote.h"
#include "src/store/txn.h"

namespace producer {

using orders::Site;

namespace {
// The order service's statements, numbered (store/sql.h): each is fetched by its number.
const store::Sql kInsertOrder{
    "INSERT INTO orders(id, account, amount, created_tick) VALUES(?1, ?2, ?3, ?4)"};
const store::Sql kInsertOutbox{
    "INSERT INTO outbox(order_id, message_id, body, created_tick) VALUES(?1, ?2, ?3, ?4)"};
}  // namespace

OrderService::OrderService(transport::Env env, std::optional<transport::Env> relay_env,
                           ProducerOptions options)
    : k_(env), options_(std::move(options)), publisher_(env.net, false) {
  EOSIM_ASSERT(options_.amounts.size() == static_cast<std::size_t>(options_.orders));
  EOSIM_ASSERT(options_.first_order >= 1);
  next_order_ = options_.first_order;
  created_ = options_.first_order - 1;
  transport::Handlers handlers;  // direct publishing ignores whatever the broker says back
  handlers.on_frame = [](transport::ConnId, broker::BrokerMethod&) {};
  handlers.on_disconnect = [this](transport::ConnId conn) {
    if (conn == publisher_.conn()) publisher_.drop();
  };
  k_.net.set_handlers(std::move(handlers));
  const bool outbox =
      options_.pattern == Pattern::kOutbox || options_.pattern == Pattern::kOutboxNoConfirm;
  if (outbox && relay_env) relay_ = std::make_unique<Relay>(*relay_env, options_);
}

OrderService::~OrderService() = default;

void OrderService::start() {
  up_ = true;
  // orders.db is the producer's alone: an error here is the machine's (store/failure.h),
  // and the world ends the run with it after this step.
  if (store::machine_failed(store::Db::open(options_.orders_uri, db_))) return stop();
  schedule_next();
}

void OrderService::schedule_next() {
  if (!up_ || next_order_ > options_.orders) return;
  const std::int64_t order = next_order_++;
  const std::uint64_t generation = generation_;
  k_.scheduler.after(
      options_.interval_ticks, "producer.order",
      [this, generation, order] {
        if (generation != generation_) return;
        create(order);
        schedule_next();
      },
      0, sim::event_tag(generation, order));
}

namespace {

// The body of an order's message: written to the outbox, or published directly by a
// producer without one.
std::string body_of(const ProducerOptions& options, std::int64_t order) {
  return orders::encode(order, options.amounts[static_cast<std::size_t>(order - 1)],
                        options.account);
}

}  // namespace

broker::Message OrderService::message_for(std::int64_t order) const {
  broker::Message m;
  const bool no_id =
      std::find(options_.without_message_id.begin(), options_.without_message_id.end(), order) !=
      options_.without_message_id.end();
  m.message_id = no_id ? "" : orders::message_id_for(order);
  m.body = body_of(options_, order);
  m.order = order;
  m.persistent = options_.persistent;
  return m;
}

bool OrderService::fault(Site site, std::int64_t order, sim::FaultAction kind) {
  // The order service makes one try per order: its attempt is always 1 (writing the
  // order again after a broken database connection is the same try).
  const auto action = k_.faults.check(
      {orders::site_id(site), kind, orders::order_key(order, 1), 0, orders::scripted_only(site)});
  if (!action) return false;
  if (*action == sim::FaultAction::kCrash)
    crash("fault at " + std::string(orders::site_name(site)));
  return true;
}

// The database link broke under the order's write (sites db.producer_restart and
// db.producer_commit_reply): the connection is dropped and a fresh one opened, as a
// client's pool does, and the write is made again (kAgain, `lost` says why).
// `why` is a server's error (SQLSTATE `sqlstate`). Cold, its texts too: out of
// write_order's way.
[[gnu::cold]] OrderService::Written OrderService::lose_connection(const char* sqlstate,
                                                                  const char* why,
                                                                  store::Status& lost) {
  db_.close();
  if (store::machine_failed(store::Db::open(options_.orders_uri, db_))) {
    return Written::kMachineFailed;
  }
  lost = store::Status::from_sqlstate(sqlstate, why);
  return Written::kAgain;
}

// The order row (and its outbox row) in one transaction. kMachineFailed when the machine
// failed (orders.db is the producer's alone, so no other writer's error can happen);
// kAgain when a database server broke the connection (a live run's database restart),
// with the error in `lost`: the transaction did not happen, or its COMMIT's reply was
// lost - the next try's insert then meets the order's row (a unique violation) and the
// order is written. In the simulator only the database link's fault sites break it.
OrderService::Written OrderService::write_order(std::int64_t order, std::int64_t amount,
                                                std::int64_t now, bool outbox,
                                                store::Status& lost) {
  store::Txn txn(db_);
  store::Status st = txn.status();
  if (st.kind != store::ErrorKind::kConnectionLost && store::machine_failed(st)) {
    return Written::kMachineFailed;
  }
  if (st.ok()) {
    st = db_.statement(kInsertOrder)
             .bind(1, order)
             .bind(2, options_.account)
             .bind(3, amount)
             .bind(4, now)
             .exec();
  }
  if (st.ok() && outbox) {
    // The message id is fixed here, in the same transaction as the order.
    st = db_.statement(kInsertOutbox)
             .bind(1, order)
             .bind(2, orders::message_id_for(order))
             .bind(3, body_of(options_, order))
             .bind(4, now)
             .exec();
  }
  // A database server is restarted by whoever runs it (a live run's supervisor, before the
  // fault returns here): the COMMIT below meets the broken connection. SQLite's "server"
  // is this process's connection: it is dropped and the journal rolls the order back.
  if (st.ok() && fault(Site::kDbProducerRestart, order, sim::FaultAction::kRestart) &&
      !store::is_remote_uri(options_.orders_uri)) {
    txn.abandon();
    return lose_connection("57P01",
                           "the database restarted: terminating connection due to immediate "
                           "shutdown command",
                           lost);
  }
  if (st.ok()) st = txn.commit();
  if (st.ok() && fault(Site::kDbProducerCommitReply, order, sim::FaultAction::kDrop)) {
    return lose_connection(
        "08006", "the connection broke before the reply to COMMIT came: is the order written?",
        lost);
  }
  if (st.kind == store::ErrorKind::kConnectionLost) {
    lost = st;
    return Written::kAgain;
  }
  // A try after a lost COMMIT reply finds the order's row: that try committed it.
  if (st.is_unique_violation()) return Written::kFound;
  return store::machine_failed(st) ? Written::kMachineFailed : Written::kYes;
}

// After a machine error: nothing more happens in this process (the run is over).
void OrderService::stop() {
  up_ = false;
  ++generation_;
}

void OrderService::create(std::int64_t order) {
  created_ = std::max(created_, order);
  if (options_.pattern == Pattern::kPublishThenCommit) {
    if (publisher_.ensure_connected()) publisher_.publish(options_.queue, message_for(order), 1);
    if (fault(Site::kProducerAfterPublish, order)) return;
  }
  commit_order(order);
}

void OrderService::commit_order(std::int64_t order) {
  const std::int64_t amount = options_.amounts[static_cast<std::size_t>(order - 1)];
  const std::int64_t now = static_cast<std::int64_t>(k_.scheduler.now());
  const bool outbox =
      options_.pattern == Pattern::kOutbox || options_.pattern == Pattern::kOutboxNoConfirm;
  store::Status lost;
  const Written written = write_order(order, amount, now, outbox, lost);
  if (written == Written::kMachineFailed) return stop();
  if (written == Written::kAgain) {
    k_.trace.record("producer", orders::event::kDbError, "orders", order,
                    lost.to_string() + " -> the order is written again in " +
                        std::to_string(options_.reconnect_ticks) + " ticks");
    const std::uint64_t generation = generation_;
    k_.scheduler.after(
        options_.reconnect_ticks, "producer.write_again",
        [this, generation, order] {
          if (generation == generation_) commit_order(order);
        },
        0, sim::event_tag(generation, order));
    return;
  }
  if (written == Written::kFound) {
    k_.trace.record("producer", orders::event::kDuplicate, "orders", order,
                    "the order's row is already there (unique violation): the try whose "
                    "COMMIT reply was lost had written it");
  } else {
    k_.trace.record("producer", orders::event::kCommit, "orders", order,
                    outbox ? "order + outbox row" : "order row");
  }
  if (fault(Site::kProducerAfterCommit, order)) return;
  if (outbox) {
    if (relay_) relay_->kick();
  } else if (options_.pattern == Pattern::kDualWrite) {
    if (publisher_.ensure_connected()) publisher_.publish(options_.queue, message_for(order), 1);
    if (fault(Site::kProducerAfterPublish, order)) return;
  }
}

void OrderService::crash(const std::string& why) {
  if (!up_) return;
  k_.trace.record("producer", sim::EventKind::kCrash, "", 0, why);
  up_ = false;
  ++generation_;
  db_.close();
  k_.net.reset_all();
  publisher_.drop();
  const std::uint64_t generation = generation_;
  k_.scheduler.after(
      options_.restart_ticks, "producer.restart",
      [this, generation] {
        if (generation != generation_) return;
        k_.trace.record("producer", sim::EventKind::kRestart, "", 0, "process restarted");
        start();
        // A crash after the commit skipped the relay's kick. A real relay also polls the
        // outbox; this poke stands for that poll, so a committed row is never left unsent.
        if (relay_) relay_->kick();
      },
      0, sim::event_tag(generation));
}

void OrderService::add_state(sim::StateHash& hash) const {
  hash.add(db_.is_open());
  publisher_.add_state(hash);
  hash.add(up_);
  hash.add(next_order_);
  hash.add(created_);
  hash.add(generation_);
  hash.add(relay_ != nullptr);
  if (relay_) relay_->add_state(hash);
}

}  // namespace producer
