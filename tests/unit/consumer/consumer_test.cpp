// The consumer actor against a fake broker node: what it writes to the ledger and what
// it sends back, strategy by strategy.
#include <catch2/catch.hpp>

#include <atomic>
#include <memory>
#include <utility>
#include <string>
#include <vector>

#include "src/consumer/consumer.h"
#include "src/orders/order_message.h"
#include "src/store/db.h"
#include "src/store/remote.h"
#include "src/transport/sim_transport.h"
#include "src/world/schema.h"
#include "tests/support/db_query.h"
#include "tests/support/named_check.h"
#include "tests/support/sqlite_server.h"
#include "tests/support/temp_dir.h"

namespace {

std::atomic<int> g_db_counter{0};

// A broker stand-in: accepts the consumer, records the frames it sends, and can deliver.
struct FakeConsumerBroker {
  sim::Kernel k{1};
  std::vector<std::string> received;  // frame kinds, in order
  std::vector<std::uint64_t> acked_tags;
  sim::ConnId conn = 0;
  std::uint64_t next_tag = 0;
  store::Db ledger;  // keeps the in-memory ledger alive and lets the test read it
  transport::SimTransport consumer_net{k.network, "consumer1"};
  transport::Env env() { return transport::sim_env(k, consumer_net); }
  std::string uri;

  FakeConsumerBroker() {
    transport::name_lab_ids(k);  // before a test's rules name sites
    sim::NodeHandlers h;
    h.on_accept = [this](sim::ConnId c, const sim::NodeId&) { conn = c; next_tag = 0; };
    h.on_frame = [this](sim::ConnId, const sim::Frame& f) {
      received.emplace_back(k.faults.frames().name(f.kind));
      if (const auto* a = std::get_if<broker::AckFrame>(&broker::client_method(f))) {
        acked_tags.push_back(a->tag);
      }
    };
    h.on_disconnect = [](sim::ConnId) {};
    k.network.attach("broker", h);
    uri = "file:/consumer-test-" + std::to_string(++g_db_counter) + "?vfs=memdb";
    REQUIRE(store::Db::open(uri, ledger).ok());
    REQUIRE(lab::create_ledger_schema(ledger, "alice", 1000).ok());
  }

  void deliver(std::int64_t order, std::int64_t amount, bool redelivered = false,
               const std::string& id = "") {
    broker::Delivery d = unlabelled(order, amount);
    d.redelivered = redelivered;
    d.queue = "orders";
    d.message.message_id = id.empty() ? orders::message_id_for(order) : id;
    send(d, 1);
  }

  // A delivery of `order` that carries no message_id.
  broker::Delivery unlabelled(std::int64_t order, std::int64_t amount) {
    broker::Delivery d;
    d.message.order = order;
    d.message.body = orders::encode({order, amount, "alice"});
    return d;
  }

  // Sends `d` on the consumer's channel with the next delivery tag, as the `attempt`-th
  // delivery of its order.
  void send(broker::Delivery d, std::int64_t attempt) {
    d.to = {conn, 1};
    d.delivery_tag = ++next_tag;
    k.network.send(conn, "broker",
                   broker::make_frame(broker::DeliverFrame{d, attempt},
                                      d.message.order, attempt));
  }

  // A consumer with `strategy`'s choices, started and connected.
  std::unique_ptr<consumer::Consumer> start_consumer(const char* strategy);

  std::int64_t count(const char* sql) { return test_support::query_int(ledger, sql); }
  std::int64_t balance() { return count("SELECT balance FROM accounts WHERE id = 'alice'"); }
  std::int64_t debits() { return count("SELECT COUNT(*) FROM debits"); }
};

consumer::ConsumerOptions options_for(const FakeConsumerBroker& b, const char* strategy) {
  consumer::ConsumerOptions o;
  o.ledger_uri = b.uri;
  const consumer::Preset* preset = consumer::find_preset(strategy);
  REQUIRE(preset != nullptr);
  o.strategy.choices = preset->choices;
  return o;
}

std::unique_ptr<consumer::Consumer> FakeConsumerBroker::start_consumer(const char* strategy) {
  auto c = std::make_unique<consumer::Consumer>(env(), options_for(*this, strategy));
  c->start();
  k.scheduler.run(100);
  return c;
}

consumer::Choices atomic_choices() { return consumer::find_preset("atomic")->choices; }

// A database server whose role cannot stage a competing transaction (RemoteConn's
// stage_conflict refuses, as a PostgreSQL role without superuser does), its tables SQLite's
// underneath: "postgres://unstaged/NAME" is the memdb NAME.
store::Status open_unstaged(const std::string& uri, std::unique_ptr<store::RemoteConn>& out) {
  const std::string prefix = "postgres://unstaged/";
  REQUIRE(uri.rfind(prefix, 0) == 0);
  out = std::make_unique<test_support::SqliteServer>(uri.substr(prefix.size()));
  return store::Status::success();
}

}  // namespace

TEST_CASE("consumer: strategies are named presets of the four choices", "[consumer]") {
  const consumer::Preset* atomic = consumer::find_preset("atomic");
  REQUIRE(atomic != nullptr);
  CHECK(atomic->choices.ack == consumer::AckTiming::kAfterCommit);
  CHECK(atomic->choices.dedup == consumer::Dedup::kSameTxn);
  const consumer::Preset* naive = consumer::find_preset("naive-errors");
  REQUIRE(naive != nullptr);
  CHECK(naive->choices.errors == consumer::ErrorPolicy::kAllDuplicate);
  const consumer::Preset* auto_ack = consumer::find_preset("auto-ack");
  REQUIRE(auto_ack != nullptr);
  CHECK(auto_ack->choices.ack == consumer::AckTiming::kAuto);
  CHECK(consumer::find_preset("exactly-once-please") == nullptr);
}

TEST_CASE("consumer: presets are unique and every choice value has one name", "[consumer]") {
  const auto presets = consumer::presets();
  for (std::size_t i = 0; i < presets.size(); ++i) {
    CHECK(consumer::preset_of(presets[i].choices) == presets[i].name);
    for (std::size_t j = i + 1; j < presets.size(); ++j) {
      CHECK(presets[i].name != presets[j].name);
      CHECK_FALSE(presets[i].choices == presets[j].choices);
    }
  }
  for (const auto& entry : sim::enum_names<consumer::Dedup>()) {
    CHECK(sim::value_named<consumer::Dedup>(entry.name) == entry.value);
    CHECK(sim::name_of(entry.value) == entry.name);
  }
  CHECK(sim::enum_names<consumer::PoisonPolicy>().size() == 3);
  CHECK_FALSE(sim::value_named<consumer::AckTiming>("sometimes").has_value());
  CHECK(consumer::describe(atomic_choices()) ==
        "ack=after-commit dedup=same-transaction errors=classify poison=dead-letter");
}

TEST_CASE("consumer: each preset has its PresetId, named from the preset table", "[consumer]") {
  const auto presets = consumer::presets();
  REQUIRE(sim::enum_names<consumer::PresetId>().size() == presets.size());
  for (const consumer::Preset& p : presets) {
    CHECK(&consumer::preset(p.id) == &p);
    CHECK(sim::name_of(p.id) == p.name);
    CHECK(sim::value_named<consumer::PresetId>(p.name) == p.id);
  }
  CHECK(sim::name_of(consumer::PresetId::kCheckThenAct) == "check-then-act");
  CHECK(consumer::preset(consumer::PresetId::kRequeuePoison).choices.poison ==
        consumer::PoisonPolicy::kRequeue);
  CHECK_FALSE(sim::value_named<consumer::PresetId>("Atomic").has_value());
}

TEST_CASE("consumer: atomic debits once, then acks, and a redelivery is acked without effect",
          "[consumer]") {
  FakeConsumerBroker b;
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("atomic");
  CHECK(b.received == std::vector<std::string>{"basic.qos", "basic.consume"});
  b.deliver(1, 150);
  b.k.scheduler.run(100);
  CHECK(b.balance() == 850);
  CHECK(b.acked_tags == std::vector<std::uint64_t>{1});
  b.deliver(1, 150, true);  // the same message again
  b.k.scheduler.run(100);
  CHECK(b.balance() == 850);
  CHECK(b.debits() == 1);
  CHECK(b.acked_tags == std::vector<std::uint64_t>{1, 2});
  CHECK(c->stats().duplicates == 1);
}

TEST_CASE("consumer: no-dedup applies a redelivery a second time", "[consumer]") {
  FakeConsumerBroker b;
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("no-dedup");
  b.deliver(1, 150);
  b.deliver(1, 150, true);
  b.k.scheduler.run(100);
  CHECK(b.debits() == 2);
  CHECK(b.balance() == 700);
}

TEST_CASE("consumer: a crash before commit leaves nothing and sends no ack", "[consumer]") {
  FakeConsumerBroker b;
  sim::FaultRule crash;
  crash.site = "consumer.before_commit";
  crash.action = sim::FaultAction::kCrash;
  b.k.faults.set_rules({crash});
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("atomic");
  b.deliver(1, 150);
  while (c->stats().crashes == 0 && b.k.scheduler.step()) {
  }
  CHECK(b.debits() == 0);  // rolled back by closing the connection
  CHECK(b.acked_tags.empty());
  CHECK(c->stats().crashes == 1);
  CHECK_FALSE(c->up());
  b.k.scheduler.run(1000);
  CHECK(c->up());  // restarted and reconnected
}

TEST_CASE("consumer: insufficient funds is recorded and acked, or requeued forever",
          "[consumer]") {
  FakeConsumerBroker atomic;
  const std::unique_ptr<consumer::Consumer> a = atomic.start_consumer("atomic");
  atomic.deliver(1, 5000);
  atomic.k.scheduler.run(100);
  CHECK(atomic.count("SELECT COUNT(*) FROM rejections WHERE reason = 'insufficient funds'") == 1);
  CHECK(atomic.acked_tags == std::vector<std::uint64_t>{1});
  CHECK(atomic.balance() == 1000);

  FakeConsumerBroker poison;
  const std::unique_ptr<consumer::Consumer> p = poison.start_consumer("requeue-poison");
  poison.deliver(1, 5000);
  poison.k.scheduler.run(100);
  CHECK(poison.received.back() == "basic.nack");
  CHECK(poison.count("SELECT COUNT(*) FROM rejections") == 0);
}

TEST_CASE("consumer: a transient commit error is a nack, or a false duplicate when naive",
          "[consumer]") {
  for (const char* strategy : {"atomic", "naive-errors"}) {
    FakeConsumerBroker b;
    sim::FaultRule fail;
    fail.site = "db.commit";
    fail.action = sim::FaultAction::kFail;
    b.k.faults.set_rules({fail});
    const std::unique_ptr<consumer::Consumer> c = b.start_consumer(strategy);
    b.deliver(1, 150);
    b.k.scheduler.run(100);
    CHECK(b.debits() == 0);
    if (std::string(strategy) == "atomic") {
      CHECK(b.received.back() == "basic.nack");
    } else {
      CHECK(b.received.back() == "basic.ack");  // the effect is lost
    }
  }
}

TEST_CASE("consumer: a message without message_id is rejected without requeue", "[consumer]") {
  FakeConsumerBroker b;
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("atomic");
  b.send(b.unlabelled(4, 150), 1);
  b.k.scheduler.run(100);
  CHECK(b.received.back() == "basic.reject");
  CHECK(b.count("SELECT COUNT(*) FROM rejections WHERE order_id = 4") == 1);
  CHECK(b.debits() == 0);
}

TEST_CASE("consumer: a rejection that cannot be recorded is nacked, and recorded when it "
          "comes again",
          "[consumer]") {
  FakeConsumerBroker b;
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("atomic");
  broker::Delivery d = b.unlabelled(4, 150);
  // Another connection holds the ledger's write lock: the rejection INSERT gets SQLITE_BUSY.
  REQUIRE(b.ledger.exec("BEGIN IMMEDIATE").ok());
  b.send(d, 1);
  b.k.scheduler.run(100);
  // Not rejected for good with nothing recorded: nacked back to the queue instead.
  CHECK(b.received.back() == "basic.nack");
  CHECK(b.count("SELECT COUNT(*) FROM rejections") == 0);
  REQUIRE(b.ledger.exec("ROLLBACK").ok());
  d.redelivered = true;
  b.send(d, 2);
  b.k.scheduler.run(100);
  CHECK(b.received.back() == "basic.reject");
  CHECK(b.count("SELECT COUNT(*) FROM rejections WHERE order_id = 4") == 1);
}

TEST_CASE("order message: encode and decode agree, garbage is refused", "[consumer]") {
  const auto m = orders::decode(orders::encode({7, 250, "bob"}));
  REQUIRE(m);
  CHECK(m->order == 7);
  CHECK(m->amount == 250);
  CHECK(m->account == "bob");
  CHECK_FALSE(orders::decode("order=x;amount=1;account=a"));
  CHECK_FALSE(orders::decode("hello"));
  CHECK(orders::message_id_for(3) == "order-3");
}

namespace {

// What a crash of the consumer would leave at the start of each statement its ledger
// connection runs. A crash closes that connection without commit (consumer.h, invariant
// 2), so SQLite keeps exactly what was committed before it: the rows a second connection
// reads at that moment. Seen at every statement, that is a crash at every statement.
struct CrashPoints {
  store::Db* reader = nullptr;
  std::vector<std::string> statements;                    // the statement about to run
  std::vector<std::pair<std::int64_t, std::int64_t>> left;  // (debits, dedup keys) committed
  std::vector<std::string> errors;  // reads that failed (a callback must not throw)
};
CrashPoints* g_crash_points = nullptr;

std::int64_t committed_rows(CrashPoints& p, const char* sql) {
  store::Stmt& st = p.reader->statement(sql);
  bool row = false;
  const store::Status s = st.step(row);
  const std::int64_t n = s.ok() && row ? st.column_int64(0) : -1;
  st.reset();
  if (n < 0) p.errors.push_back(std::string(sql) + ": " + s.to_string());
  return n;
}

int on_statement(unsigned, void*, void* statement, void*) {
  CrashPoints& p = *g_crash_points;
  p.statements.emplace_back(sqlite3_sql(static_cast<sqlite3_stmt*>(statement)));
  p.left.emplace_back(committed_rows(p, "SELECT count(*) FROM debits"),
                      committed_rows(p, "SELECT count(*) FROM processed_messages"));
  return 0;
}

// Registered with sqlite3_auto_extension: runs for every connection opened meanwhile,
// here only the consumer's ledger connection (the test's reader opened before).
int watch_connection(sqlite3* db, char**, const sqlite3_api_routines*) {
  sqlite3_trace_v2(db, SQLITE_TRACE_STMT, on_statement, nullptr);
  return SQLITE_OK;
}

}  // namespace

TEST_CASE("consumer: atomic writes the debit and its dedup key in one COMMIT", "[consumer]") {
  FakeConsumerBroker b;
  // A ledger in a file: a second connection reads it while the consumer's transaction is
  // open (the in-memory database locks readers out until the commit).
  const test_support::TempDir dir("consumer-commit");
  b.uri = dir / "ledger.db";
  REQUIRE(store::Db::open(b.uri, b.ledger).ok());
  REQUIRE(lab::create_ledger_schema(b.ledger, "alice", 1000).ok());
  CrashPoints points;
  points.reader = &b.ledger;
  g_crash_points = &points;
  // void(*)(void) is the type SQLite takes; it stands for the real entry point's type.
  const auto entry = reinterpret_cast<void (*)()>(&watch_connection);
  REQUIRE(sqlite3_auto_extension(entry) == SQLITE_OK);
  const std::unique_ptr<consumer::Consumer> c = b.start_consumer("atomic");
  sqlite3_cancel_auto_extension(entry);
  b.deliver(1, 150);
  b.k.scheduler.run(100);
  b.deliver(1, 150, true);  // the redelivery finds the key and changes nothing
  b.k.scheduler.run(100);
  g_crash_points = nullptr;

  for (const std::string& e : points.errors) UNSCOPED_INFO(e);
  REQUIRE(points.errors.empty());
  REQUIRE(b.debits() == 1);
  REQUIRE(b.count("SELECT count(*) FROM processed_messages") == 1);
  // The key, the balance, the debit row and the COMMIT, twice: every statement was seen.
  REQUIRE(points.left.size() >= 8);
  std::size_t flips = 0;
  for (std::size_t i = 0; i < points.left.size(); ++i) {
    INFO("before statement " << i << ": " << points.statements[i]);
    const auto [debits, keys] = points.left[i];
    CHECK(debits == keys);  // both or neither
    CHECK(debits <= 1);
    if (i > 0 && points.left[i] != points.left[i - 1]) {
      ++flips;
      // They became visible together, through the COMMIT just before.
      CHECK(points.statements[i - 1] == "COMMIT");
    }
  }
  CHECK(flips == 1);
  CHECK(points.left.front() == std::pair<std::int64_t, std::int64_t>{0, 0});
  CHECK(points.left.back() == std::pair<std::int64_t, std::int64_t>{1, 1});
}

TEST_CASE("consumer: the strategy's choices and presets are named by their tables", "[consumer]") {
  check_named_round_trip<consumer::PresetId>();
  check_named_round_trip<consumer::AckTiming>();
  check_named_round_trip<consumer::Dedup>();
  check_named_round_trip<consumer::ErrorPolicy>();
  check_named_round_trip<consumer::PoisonPolicy>();
  check_named_round_trip<consumer::Mark>();
  check_named_round_trip<consumer::DedupOrder>();
  check_named_round_trip<consumer::SideEffect>();
  // Listed in this order by `eosim list strategies` and error messages.
  CHECK(sim::names_list<consumer::Dedup>() ==
        "same-transaction, separate-store, check-then-act, none");
}

TEST_CASE("consumer: a conflict the server cannot stage is given its SQLSTATE, and retried",
          "[consumer][unstaged]") {
  // The fallback of db.serialization_failure and db.deadlock on a server where the
  // competing transaction cannot be staged: the consumer says so in its trace, gives the
  // statement the server's SQLSTATE itself, rolls back and nacks; the redelivery debits.
  struct OpenerScope {
    OpenerScope() { store::set_remote_opener(&open_unstaged); }
    ~OpenerScope() { store::set_remote_opener(nullptr); }  // other tests expect none
  } opener;
  for (const char* site : {"db.serialization_failure", "db.deadlock"}) {
    INFO(site);
    FakeConsumerBroker b;
    b.k.trace.keep(true);
    sim::FaultRule conflict;
    conflict.site = site;
    conflict.action = sim::FaultAction::kFail;
    b.k.faults.set_rules({conflict});
    consumer::ConsumerOptions o = options_for(b, "atomic");
    o.ledger_uri = "postgres://unstaged/" + b.uri;
    consumer::Consumer c(b.env(), o);
    c.start();
    b.k.scheduler.run(100);
    b.deliver(1, 150);
    b.k.scheduler.run(100);
    CHECK(b.debits() == 0);
    CHECK(b.received.back() == "basic.nack");
    std::string errors;
    for (const sim::TraceEvent& e : b.k.trace.events()) errors += e.detail + "\n";
    CHECK(errors.find("the conflict could not be staged on the server") != std::string::npos);
    CHECK(errors.find(std::string(site) == "db.deadlock" ? "SQLSTATE 40P01" : "SQLSTATE 40001") !=
          std::string::npos);
    b.deliver(1, 150, true);  // the redelivery (the rule fired its one time)
    b.k.scheduler.run(100);
    CHECK(b.debits() == 1);
    CHECK(b.balance() == 850);
  }
}
