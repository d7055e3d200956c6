#pragma once
// The order service and its outbox relay.
//
// The order service writes one order every `interval_ticks`. How it gets the order to
// the broker is the pattern under test:
//   outbox               order + outbox row in one transaction; the relay publishes.
//   outbox-no-confirm    the same, but the relay marks rows sent without confirms.
//   dual-write           commit the order, then publish it directly (two writes, no atomicity).
//   publish-then-commit  publish first, then commit the order.
// The relay (node "relay") publishes unsent outbox rows with publisher confirms and marks a
// row sent only once its confirm arrives; after a lost confirm or connection it republishes
// every unsent row, with the message id fixed in the row, so duplicates are detectable.
//
// With message_id = at-publish the relay makes a new id at each publish instead, so a
// republish is not recognisable as the same message.
//
// Each actor reaches the broker, the clock, faults and the trace through its own
// transport::Env (node "producer" or "relay"), so the same code runs in the simulator and
// as a live process. In a live run the relay is its own process and finds new rows by
// polling the outbox every `poll_ticks`.
//
// Fault sites: producer.after_commit, producer.after_publish, relay.after_publish,
// relay.after_confirm (all crash); the order service's database link,
// db.producer_restart (before the order's COMMIT) and db.producer_commit_reply (after it).

#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "src/broker/frames.h"
#include "src/orders/fault_site.h"
#include "src/producer/design.h"
#include "src/store/db.h"
#include "src/transport/transport.h"

namespace producer {


struct ProducerOptions {
  Pattern pattern = Pattern::kOutbox;
  MessageIdSource message_id = MessageIdSource::kOutbox;
  std::string orders_uri;
  std::string queue = "orders";
  std::string account = "alice";
  std::int64_t orders = 3;
  std::vector<std::int64_t> amounts;             // one per order
  std::vector<std::int64_t> without_message_id;  // published with no message_id
  bool persistent = true;
  sim::Tick interval_ticks = 10;
  sim::Tick restart_ticks = 20;        // a crashed order service is back after this
  sim::Tick relay_restart_ticks = 20;  // a crashed relay is back after this
  sim::Tick reconnect_ticks = 5;
  sim::Tick poll_ticks = 0;  // the relay also looks for unsent rows this often (0 = never)
  std::int64_t first_order = 1;  // a restarted live producer goes on after its last order
  std::uint64_t publish_ids_from = 0;  // message_id = at-publish: the relay's first id - 1
};

// Publishes on one connection of its own; shared by the order service's direct patterns
// and by the relay, so both speak AMQP the same way.
class Publisher {
 public:
  Publisher(transport::Transport& net, bool confirms);
  // Connects if needed. False when the broker refused the connection.
  bool ensure_connected();
  // The publish sequence number (0 outside confirm mode); nullopt when the connection is
  // known dead and nothing was sent. `attempt` is the how-manyth publish of this order it
  // is: the frame carries it, for fault rules. The message is moved into the frame once.
  std::optional<std::uint64_t> publish(const std::string& queue, broker::Message&& message,
                                       std::int64_t attempt);
  void drop();  // forget the connection (crash / disconnect)
  transport::ConnId conn() const { return conn_; }
  void add_state(sim::StateHash& hash) const;  // explore's state merging

 private:
  transport::Transport& net_;
  bool confirms_;
  transport::ConnId conn_ = 0;
  std::uint64_t next_seq_ = 0;
};

class Relay {
 public:
  Relay(transport::Env env, const ProducerOptions& options);
  void start();
  void kick();  // new rows may be waiting
  void crash(const std::string& why);
  std::size_t in_flight() const { return in_flight_.size(); }
  // Publishes of a row the relay had published before (after a lost confirm, a lost
  // connection or its own crash): the source of a duplicate no redelivery explains.
  std::int64_t republished() const;
  void add_state(sim::StateHash& hash) const;  // explore's state merging: every field

 private:
  void pump();
  void on_frame(transport::ConnId conn, const broker::BrokerMethod& method);
  void on_disconnect(transport::ConnId conn);
  void schedule_reconnect();
  void poll();
  void on_confirm(const broker::Confirm& confirm);
  struct OutboxRow {
    std::int64_t id = 0, order = 0;
    std::string message_id, body;
  };
  // The unsent rows in id order. False (and nothing in `rows`) when the read failed; the
  // relay then reads again later by itself.
  bool read_unsent(std::vector<OutboxRow>& rows);
  void read_failed(const store::Status& st);  // traces it, and reads again later
  void trace_found_dead(transport::ConnId conn);  // pump's: its connection is gone
  // False when the row is not marked: after a machine error (the relay stopped), or a
  // connection a database server broke (the row stays unsent, for the next poll).
  bool mark_sent(std::int64_t row);
  void stop();
  bool fault(orders::Site site, std::int64_t order, std::int64_t attempt);
  // Runs Fn{}(*this) after `delay` unless the relay crashed meanwhile. `Fn` is a
  // captureless lambda taking the relay: the event's closure is then two words, which
  // std::function keeps inline instead of allocating one per pump.
  template <class Fn>
  void after(sim::Tick delay, const char* label, Fn);

  struct InFlight {
    std::int64_t row = 0;
    std::int64_t order = 0;
    std::int64_t attempt = 0;  // the how-manyth publish of the row this was
  };

  transport::Env k_;  // transport, clock, faults and trace
  const ProducerOptions& options_;
  store::Db db_;
  Publisher publisher_;
  bool up_ = false;
  bool pump_scheduled_ = false;
  bool reconnect_pending_ = false;  // kicks wait for it (schedule_reconnect)
  int refused_in_a_row_ = 0;        // connects refused since the last one that worked
  static constexpr int kMaxBackoffShift = 3;  // the backoff stops at 8 x reconnect_ticks
  std::uint64_t generation_ = 0;
  std::map<std::uint64_t, InFlight> in_flight_;  // publish seq -> outbox row
  std::set<std::uint64_t> returned_;             // seqs that came back unroutable
  std::uint64_t ids_made_ = 0;  // message_id = at-publish: ids made so far (never reused)
  // Publishes of each order's row so far, over the whole run (a restart keeps counting):
  // the `attempt` of relay fault sites.
  std::map<std::int64_t, std::int64_t> publishes_;
};

class OrderService {
 public:
  // `relay_env`: where the outbox patterns' relay runs in this process (the simulator);
  // nullopt when it is a process of its own (live), which polls the outbox.
  OrderService(transport::Env env, std::optional<transport::Env> relay_env,
               ProducerOptions options);
  ~OrderService();
  void start();  // the relay, if any, is started on its own: it is its own process
  void crash(const std::string& why);
  const ProducerOptions& options() const { return options_; }
  Relay* relay() { return relay_.get(); }
  // How many orders the service has started to create (1..n in order); the rest of the
  // workload was never produced.
  std::int64_t orders_created() const { return created_; }
  // For explore's state merging: every field of the service, its publisher and its relay.
  void add_state(sim::StateHash& hash) const;

 private:
  void create(std::int64_t order);
  void commit_order(std::int64_t order);  // the order's write, then what follows its commit
  // kFound: a try after a lost COMMIT reply met the order's row (the lost try wrote it).
  enum class Written { kYes, kFound, kAgain, kMachineFailed };
  Written write_order(std::int64_t order, std::int64_t amount, std::int64_t now, bool outbox,
                      store::Status& lost);
  Written lose_connection(const char* sqlstate, const char* why, store::Status& lost);
  void stop();
  bool fault(orders::Site site, std::int64_t order,
             sim::FaultAction kind = sim::FaultAction::kCrash);
  broker::Message message_for(std::int64_t order) const;
  void schedule_next();

  transport::Env k_;  // transport, clock, faults and trace
  ProducerOptions options_;
  store::Db db_;
  Publisher publisher_;
  std::unique_ptr<Relay> relay_;
  bool up_ = false;
  std::int64_t next_order_ = 1;
  std::int64_t created_ = 0;
  std::uint64_t generation_ = 0;
};

}  // namespace producer
