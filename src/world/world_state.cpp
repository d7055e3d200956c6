// World::abstract_state: what explore's state merging compares (explore.h). Everything a
// future step can depend on that is cheap to read, with the history taken out: database
// rows without their tick columns or AUTOINCREMENT ids, broker queues and unacked
// deliveries without delivery tags or sequence numbers, frames in flight without times or
// connection ids, and whether each actor is up and what it holds. Left out, so the
// merging is optimistic: timers not yet due and the random draws still to come.

#include "sim/assert.h"
#include "sim/state_hash.h"
#include "src/world/world.h"
#include "src/world/world_impl.h"

namespace lab {

namespace {

// Every row of `sql` (no parameters, `columns` columns), as text ("" for NULL, marked).
void add_rows(sim::StateHash& hash, store::Db& db, const char* sql, int columns) {
  store::Stmt& st = db.statement(sql);
  bool has_row = false;
  std::uint64_t rows = 0;
  while (true) {
    const store::Status s = st.step(has_row);
    // Between steps no transaction is open and the schema is the lab's own.
    EOSIM_ASSERT(s.ok());
    if (!has_row) break;
    ++rows;
    for (int c = 0; c < columns; ++c) {
      hash.add(st.column_is_null(c));
      hash.add(std::string_view(st.column_text(c)));
    }
  }
  st.reset();
  hash.add(rows);
}

void add_message(sim::StateHash& hash, const broker::Message& m) {
  hash.add(std::string_view(m.message_id));
  hash.add(m.order);
  hash.add(m.x_delivery_count.value_or(-1));
  hash.add(static_cast<std::uint64_t>(m.x_death.size()));
}

void add_broker(sim::StateHash& hash, const broker::Broker& b) {
  for (const std::string& name : b.queue_names()) {
    const broker::QueueView q = b.queue(name);
    hash.add(std::string_view(name));
    hash.add(static_cast<std::uint64_t>(q.ready.size()));
    for (const auto& r : q.ready) {
      hash.add(r.redelivered);
      add_message(hash, r.message);
    }
    hash.add(static_cast<std::uint64_t>(q.unacked));
    hash.add(static_cast<std::uint64_t>(q.consumers.size()));
  }
  for (const broker::ChannelView& c : b.channels()) {
    hash.add(c.confirm_mode);
    hash.add(static_cast<std::uint64_t>(c.unconfirmed.size()));
    hash.add(static_cast<std::uint64_t>(c.unacked.size()));
    for (const auto& u : c.unacked) {
      hash.add(std::string_view(u.queue));
      hash.add(u.redelivered);
      add_message(hash, u.message);
    }
  }
}

}  // namespace

std::uint64_t World::abstract_state() {
  WorldImpl& w = *impl_;
  sim::StateHash hash;
  add_rows(hash, w.orders_anchor_, "SELECT id, account, amount FROM orders ORDER BY id", 3);
  add_rows(hash, w.orders_anchor_,
           "SELECT order_id, message_id, body, sent FROM outbox ORDER BY id", 4);
  add_rows(hash, w.ledger_anchor_, "SELECT id, balance FROM accounts ORDER BY id", 2);
  add_rows(hash, w.ledger_anchor_,
           "SELECT message_id, order_id FROM processed_messages ORDER BY message_id", 2);
  add_rows(hash, w.ledger_anchor_,
           "SELECT order_id, message_id, amount, consumer FROM debits ORDER BY id", 4);
  add_rows(hash, w.ledger_anchor_,
           "SELECT order_id, message_id, reason FROM rejections ORDER BY id", 3);
  if (w.dedup_anchor_.is_open()) {
    add_rows(hash, w.dedup_anchor_, "SELECT message_id, order_id FROM seen ORDER BY message_id", 2);
  }
  if (w.effects_anchor_.is_open()) {
    add_rows(hash, w.effects_anchor_,
             "SELECT order_id, message_id, idempotency_key, consumer FROM emails ORDER BY id", 4);
  }
  hash.add(w.broker_->up());
  add_broker(hash, w.broker_->model());
  w.kernel_.network.add_state(hash);
  hash.add(w.producer_->orders_created());
  for (const auto& c : w.consumers_) {
    hash.add(c->up());
    hash.add(static_cast<std::uint64_t>(c->inbox_size()));
  }
  return hash.value();
}

}  // namespace lab
