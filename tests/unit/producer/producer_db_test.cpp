// The order service on a database server whose connection breaks (a live run's database
// restart, src/live/postgres_store.h): a lost connection is no machine failure, the order
// is written again once the server answers, and a COMMIT whose reply was lost is not
// written twice (the order's row is found: a unique violation). The "server" is an SQLite
// memdb behind the store layer's remote seam (src/store/remote.h), breaking when told.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "src/orders/event_kinds.h"
#include "src/producer/producer.h"
#include "src/store/db.h"
#include "src/store/remote.h"
#include "src/transport/sim_transport.h"
#include "src/world/schema.h"
#include "tests/support/db_query.h"
#include "tests/support/sqlite_server.h"

namespace {

const char* const kFile = "file:/producer-db-test?vfs=memdb";

struct Breaks {
  int commit_reply_lost = 0;  // the nth COMMIT takes effect, its answer is lost (0: none)
  int begins_refused = 0;     // then this many BEGINs fail (the server is restarting)
  int commits = 0;
};
Breaks g_breaks;

// SQLite's SQL as it is (dialect), run on the memdb; its connection breaks as g_breaks says.
class BreakingConn final : public test_support::SqliteServer {
 public:
  BreakingConn() : SqliteServer(kFile) {}
  store::Status run(const std::string& sql, const std::vector<store::Value>& params,
                    store::RemoteRows& out) override {
    if (sql.starts_with("BEGIN") && g_breaks.begins_refused > 0) {
      --g_breaks.begins_refused;
      return store::Status::from_sqlstate("08001", "the server is starting up");
    }
    const store::Status s = SqliteServer::run(sql, params, out);
    if (sql == "COMMIT" && s.ok() && ++g_breaks.commits == g_breaks.commit_reply_lost) {
      return store::Status::from_sqlstate("", "server closed the connection unexpectedly");
    }
    return s;
  }
};

store::Status open_breaking(const std::string&, std::unique_ptr<store::RemoteConn>& out) {
  out = std::make_unique<BreakingConn>();
  return store::Status::success();
}

}  // namespace

TEST_CASE("order service: a lost COMMIT reply and a restarting server lose no order",
          "[producer]") {
  store::Db file;  // holds the memdb open for the whole test
  REQUIRE(store::Db::open(kFile, file).ok());
  REQUIRE(lab::create_orders_schema(file).ok());
  store::set_remote_opener(&open_breaking);
  g_breaks = {1, 3, 0};  // order 1's COMMIT answer lost, then three BEGINs refused

  sim::Kernel k{5};
  transport::name_lab_ids(k.faults);
  transport::SimTransport net{k.network, "producer"};
  producer::ProducerOptions o;
  o.pattern = producer::Pattern::kOutbox;
  o.orders_uri = "postgres://eosim@fake/orders";
  o.orders = 2;
  o.amounts = {150, 200};
  o.interval_ticks = 100;  // order 2 after order 1's tries (5 ticks apart)
  producer::OrderService service(transport::sim_env(k, net), std::nullopt, o);
  service.start();
  k.scheduler.run(1000);
  store::set_remote_opener(nullptr);

  CHECK(test_support::query_int(file, "SELECT COUNT(*) FROM orders") == 2);
  CHECK(test_support::query_int(file, "SELECT COUNT(*) FROM outbox") == 2);
  CHECK(g_breaks.begins_refused == 0);  // the order was written again after each refusal
  int lost = 0;
  int committed = 0;
  int found = 0;
  for (const sim::TraceEvent& e : k.trace.events()) {
    if (e.actor != "producer") continue;
    lost += e.kind == orders::event::kDbError && e.subject == 1;
    committed += e.kind == orders::event::kCommit;
    found += e.kind == orders::event::kDuplicate && e.subject == 1;
  }
  CHECK(lost == 4);       // the lost answer, then the three refusals
  CHECK(committed == 1);  // order 2; order 1's COMMIT took effect unanswered
  CHECK(found == 1);      // order 1 found written on its fifth try, not committed again
}
