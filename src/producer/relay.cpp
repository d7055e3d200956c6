#include "src/producer/producer.h"

#include <algorithm>
#include <type_traits>

#include "sim/assert.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/store/failure.h"

namespace producer {

using orders::Site;

namespace {
// The relay's statements, numbered (store/sql.h): each is fetched by its number.
const store::Sql kSelectUnsent{
    "SELECT id, order_id, message_id, body FROM outbox WHERE sent = 0 ORDER BY id"};
const store::Sql kMarkSent{"UPDATE outbox SET sent = 1, sent_tick = ?1 WHERE id = ?2"};
}  // namespace

Relay::Relay(transport::Env env, const ProducerOptions& options)
    : k_(env), options_(options), publisher_(env.net, options.pattern == Pattern::kOutbox) {
  transport::Handlers handlers;
  handlers.on_frame = [this](transport::ConnId conn, broker::BrokerMethod& method) {
    on_frame(conn, method);
  };
  handlers.on_disconnect = [this](transport::ConnId conn) { on_disconnect(conn); };
  k_.net.set_handlers(std::move(handlers));
  ids_made_ = options_.publish_ids_from;
}

template <class Fn>
void Relay::after(sim::Tick delay, const char* label, Fn) {
  static_assert(std::is_empty_v<Fn> && std::is_default_constructible_v<Fn>,
                "after() takes a lambda without captures: [](Relay& r) { ... }");
  const std::uint64_t generation = generation_;
  k_.scheduler.after(
      delay, label,
      [this, generation] {
        if (generation == generation_) Fn{}(*this);
      },
      0, sim::event_tag(generation));
}

void Relay::start() {
  up_ = true;
  // The world made orders.db: failing to open it is the machine's trouble (failure.h).
  if (store::machine_failed(store::Db::open(options_.orders_uri, db_))) return stop();
  kick();
  if (options_.poll_ticks > 0) after(options_.poll_ticks, "relay.poll", [](Relay& r) { r.poll(); });
}

// A relay in a process of its own is not kicked by the order service: it looks.
void Relay::poll() {
  kick();
  after(options_.poll_ticks, "relay.poll", [](Relay& r) { r.poll(); });
}

// While a reconnect is pending a kick adds nothing: the reconnect pumps. (Each kick used
// to start a retry chain of its own while the broker was down, so a relay that polls
// piled up one more chain per poll - thousands of refused connects during a restart.)
void Relay::kick() {
  if (!up_ || pump_scheduled_ || reconnect_pending_) return;
  pump_scheduled_ = true;
  after(1, "relay.pump", [](Relay& r) {
    r.pump_scheduled_ = false;
    r.pump();
  });
}

bool Relay::fault(Site site, std::int64_t order, std::int64_t attempt) {
  const auto action = k_.faults.check(
      {orders::site_id(site), sim::FaultAction::kCrash, orders::order_key(order, attempt)});
  if (!action) return false;
  crash("fault at " + std::string(orders::site_name(site)));
  return true;
}

// The connection died and nothing has told this end yet (the broker's frame was lost, so
// the broker noticed first): the relay finds out as it goes to publish, as a client whose
// socket write fails. Traced, or the new connection and the republish that follow would
// have no cause in the trace. Cold, as are the rare paths below: out of pump's way.
[[gnu::cold]] void Relay::trace_found_dead(transport::ConnId conn) {
  const std::string again = in_flight_.empty() ? ""
                                               : "; its " + std::to_string(in_flight_.size()) +
                                                     " unconfirmed publish(es) go out again";
  k_.trace.record("relay", sim::EventKind::kDisconnected, "broker", 0,
                  "connection " + std::to_string(conn) + ", found dead when publishing" + again);
}

void Relay::pump() {
  if (!up_) return;
  const transport::ConnId before = publisher_.conn();
  if (before != 0 && !k_.net.is_open(before)) trace_found_dead(before);
  if (!publisher_.ensure_connected()) {
    ++refused_in_a_row_;
    schedule_reconnect();
    return;
  }
  refused_in_a_row_ = 0;
  if (publisher_.conn() != before) {
    // A new connection, opened before the old one's close was noticed: its confirms will
    // never come (on_disconnect ignores the old connection), and the new channel numbers
    // its publishes from 1 again. Whatever was unconfirmed must be published again.
    in_flight_.clear();
    returned_.clear();
  }
  std::vector<OutboxRow> rows;
  if (!read_unsent(rows)) return;
  for (OutboxRow& row : rows) {
    bool pending = false;
    for (const auto& [seq, f] : in_flight_) pending = pending || f.row == row.id;
    if (pending) continue;
    broker::Message m;
    m.message_id = std::move(row.message_id);
    if (options_.message_id == MessageIdSource::kAtPublish) {
      // A fresh id per publish, as a client that generates ids when it sends would do:
      // a republish of the same row can no longer be recognised downstream.
      m.message_id += "/p" + std::to_string(++ids_made_);
    }
    for (const auto missing : options_.without_message_id) {
      if (missing == row.order) m.message_id.clear();
    }
    m.body = std::move(row.body);
    m.order = row.order;
    m.persistent = options_.persistent;
    const std::int64_t attempt = publishes_[row.order] + 1;
    const auto seq = publisher_.publish(options_.queue, std::move(m), attempt);
    if (!seq) return;  // the connection is known dead; on_disconnect starts over
    publishes_[row.order] = attempt;
    if (options_.pattern == Pattern::kOutbox) in_flight_[*seq] = {row.id, row.order, attempt};
    if (fault(Site::kRelayAfterPublish, row.order, attempt)) return;
    if (options_.pattern == Pattern::kOutboxNoConfirm) {
      if (mark_sent(row.id)) {
        k_.trace.record("relay", orders::event::kSent, "", row.order,
                        "outbox row marked sent at publish, without waiting for a confirm");
      }
    }
  }
}

// A failed read is not "no rows": the rows it missed would wait for the next kick, and
// after the last order nothing kicks again, so they would never be published. The relay
// traces the error and reads again later - at its next poll when it polls, else after
// reconnect_ticks - and publishes nothing from a partial read (the rows read before the
// error are read again then). In the simulator nothing holds orders.db's lock between
// steps, so this happens in live runs (a lock another process holds too long) and tests.
bool Relay::read_unsent(std::vector<OutboxRow>& rows) {
  store::Stmt& select = db_.statement(kSelectUnsent);
  bool has_row = false;
  store::Status st = select.step(has_row);
  for (; st.ok() && has_row; st = select.step(has_row)) {
    rows.push_back({select.column_int64(0), select.column_int64(1), select.column_text(2),
                    select.column_text(3)});
  }
  select.reset();
  if (st.ok()) return true;
  rows.clear();
  read_failed(st);
  return false;
}

[[gnu::cold]] void Relay::read_failed(const store::Status& st) {
  if (st.kind == store::ErrorKind::kEnvironment) {  // the machine's trouble: the run is over
    stop();
    return;
  }
  const bool polls = options_.poll_ticks > 0;
  k_.trace.record("relay", orders::event::kDbError, "", 0,
                  "reading the outbox: " + st.to_string() +
                      (polls ? " -> read again at the next poll" : " -> read again later"));
  if (!polls) after(options_.reconnect_ticks, "relay.retry", [](Relay& r) { r.kick(); });
}

bool Relay::mark_sent(std::int64_t row) {
  const store::Status st = db_.statement(kMarkSent)
                               .bind(1, static_cast<std::int64_t>(k_.scheduler.now()))
                               .bind(2, row)
                               .exec();
  if (st.ok()) return true;
  if (st.kind == store::ErrorKind::kConnectionLost) {
    // A database server broke the connection (a live run's database restart): the row
    // stays unsent and is published again at the next poll - a second copy the
    // consumers' dedup must absorb. The simulator's SQLite file breaks none.
    k_.trace.record("relay", orders::event::kDbError, "", 0,
                    "marking outbox row " + std::to_string(row) + " sent: " + st.to_string() +
                        " -> it stays unsent");
    return false;
  }
  // Nothing else writes while the relay runs its step: any other error is the machine's.
  (void)store::machine_failed(st);
  stop();
  return false;
}

// After a machine error: nothing more happens in this process (the run is over).
void Relay::stop() {
  up_ = false;
  ++generation_;
}

void Relay::on_frame(transport::ConnId conn, const broker::BrokerMethod& method) {
  if (!up_ || conn != publisher_.conn()) return;
  std::visit(broker::Overloaded{
                 [&](const broker::Confirm& c) { on_confirm(c); },
                 // The ack that follows a return does not mean "enqueued".
                 [&](const broker::Returned& r) { returned_.insert(r.seq); },
                 // The relay never consumes; a channel error closes the connection, which
                 // on_disconnect handles when the network reports it.
                 [](const broker::DeliverFrame&) {},
                 [](const broker::ChannelClosed&) {},
             },
             method);
}

void Relay::on_confirm(const broker::Confirm& confirm) {
  std::vector<std::pair<std::uint64_t, InFlight>> settled;
  for (const auto& [seq, f] : in_flight_) {
    if (seq == confirm.seq || (confirm.multiple && seq < confirm.seq)) settled.push_back({seq, f});
  }
  for (const auto& [seq, f] : settled) {
    in_flight_.erase(seq);
    if (!confirm.ack || returned_.count(seq)) {
      kick();  // nacked or unroutable: try again later
      continue;
    }
    if (fault(Site::kRelayAfterConfirm, f.order, f.attempt)) return;
    if (!mark_sent(f.row)) {
      if (!up_) return;  // the machine failed: the relay stopped
      continue;
    }
    k_.trace.record("relay", orders::event::kSent, "", f.order,
                    "outbox row marked sent after confirm");
  }
}

void Relay::on_disconnect(transport::ConnId conn) {
  if (!up_ || conn != publisher_.conn()) return;
  publisher_.drop();
  // Whatever was unconfirmed may or may not be in the queue: publish it again.
  in_flight_.clear();
  returned_.clear();
  schedule_reconnect();
}

// One reconnect at a time, after reconnect_ticks doubled for each refusal in a row, at
// most kMaxBackoffShift times: a broker that is down for long is asked a few times, not
// every reconnect_ticks, and one that is back is found within 8 x reconnect_ticks.
void Relay::schedule_reconnect() {
  if (reconnect_pending_) return;
  reconnect_pending_ = true;
  const int shift = std::min(refused_in_a_row_, kMaxBackoffShift);
  after(options_.reconnect_ticks << shift, "relay.reconnect", [](Relay& r) {
    r.reconnect_pending_ = false;
    r.pump();
  });
}

void Relay::crash(const std::string& why) {
  if (!up_) return;
  k_.trace.record("relay", sim::EventKind::kCrash, "", 0, why);
  up_ = false;
  ++generation_;  // cancels a pending pump or reconnect
  pump_scheduled_ = false;
  reconnect_pending_ = false;
  refused_in_a_row_ = 0;
  db_.close();
  k_.net.reset_all();
  publisher_.drop();
  in_flight_.clear();
  returned_.clear();
  after(options_.relay_restart_ticks, "relay.restart", [](Relay& r) {
    r.k_.trace.record("relay", sim::EventKind::kRestart, "", 0, "process restarted");
    r.start();
  });
}

std::int64_t Relay::republished() const {
  std::int64_t again = 0;
  for (const auto& [order, count] : publishes_) again += count - 1;
  return again;
}

void Relay::add_state(sim::StateHash& hash) const {
  hash.add(db_.is_open());
  publisher_.add_state(hash);
  hash.add(up_);
  hash.add(pump_scheduled_);
  hash.add(generation_);
  hash.add(static_cast<std::uint64_t>(in_flight_.size()));
  for (const auto& [seq, f] : in_flight_) {
    hash.add(seq);
    hash.add(f.row);
    hash.add(f.order);
    hash.add(f.attempt);
  }
  hash.add(static_cast<std::uint64_t>(returned_.size()));
  for (const std::uint64_t seq : returned_) hash.add(seq);
  hash.add(ids_made_);
  hash.add(static_cast<std::uint64_t>(publishes_.size()));
  for (const auto& [order, count] : publishes_) {
    hash.add(order);
    hash.add(count);
  }
}

}  // namespace producer
