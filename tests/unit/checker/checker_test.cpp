// Tests for the checker against hand-built orders/ledger databases (plain INSERTs on a memdb),
// one violation kind at a time, then their precedence.
#include "tests/unit/checker/checker_lab.h"

using checker_lab::kAccount;
using checker_lab::kInitial;
using checker_lab::Lab;
using checker_lab::numbers_of;
using checker_lab::Orders;
using checker_lab::outcome_of;

TEST_CASE("checker: a correct ledger is exactly-once and reports nothing", "[checker]") {
  Lab lab("correct");
  lab.commit_order(1, 100);
  lab.commit_order(2, 250);
  lab.commit_order(3, 5000);
  lab.debit(1, 100);
  lab.debit(2, 250);
  lab.reject(3);  // a business rule refused it: an outcome, not a loss

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kExactlyOnce);
  CHECK(r.lost.empty());
  CHECK(r.duplicated.empty());
  CHECK(r.phantom.empty());
  CHECK(r.stuck.empty());
  CHECK(r.dead_lettered.empty());
  CHECK(r.rejected == Orders{3});
  CHECK(r.balance_initial == kInitial);
  CHECK(r.balance_expected == kInitial - 350);
  CHECK(r.balance_actual == kInitial - 350);
  CHECK_FALSE(r.balance_negative);
  REQUIRE(numbers_of(r) == Orders{1, 2, 3});
  CHECK(outcome_of(r, 1).outcome == lab::Outcome::kDebited);
  CHECK(outcome_of(r, 1).committed);
  CHECK(outcome_of(r, 1).amount == 100);
  CHECK(outcome_of(r, 1).debits == 1);
  CHECK(outcome_of(r, 3).outcome == lab::Outcome::kRejected);
  CHECK(outcome_of(r, 3).rejections == 1);
  CHECK(outcome_of(r, 3).debits == 0);
}

TEST_CASE("checker: a double debit is duplicated and the balance disagrees", "[checker]") {
  Lab lab("double");
  lab.commit_order(1, 100);
  lab.commit_order(2, 150);
  lab.debit(1, 100);
  lab.debit(2, 150);
  lab.debit(2, 150);  // redelivered after commit, no dedup

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  CHECK(r.duplicated == Orders{2});
  CHECK(r.lost.empty());
  CHECK(outcome_of(r, 2).outcome == lab::Outcome::kDuplicated);
  CHECK(outcome_of(r, 2).debits == 2);
  CHECK(r.balance_expected == kInitial - 250);  // each debited order counted once
  CHECK(r.balance_actual == kInitial - 400);
}

TEST_CASE("checker: a committed order with no outcome is lost", "[checker]") {
  Lab lab("lost");
  lab.commit_orders(100, {1, 2, 3});
  lab.debit_orders(100, {1, 3});

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kLost);
  CHECK(r.lost == Orders{2});
  CHECK(r.stuck.empty());
  CHECK(outcome_of(r, 2).outcome == lab::Outcome::kLost);
  CHECK(outcome_of(r, 2).debits + outcome_of(r, 2).rejections + outcome_of(r, 2).dead_letters ==
        0);
  // The business meant to charge all three: the lost order shows as a mismatch.
  CHECK(r.balance_expected == kInitial - 300);
  CHECK(r.balance_actual == kInitial - 200);
}

TEST_CASE("checker: an outcome for an order never committed is a phantom", "[checker]") {
  Lab lab("phantom");
  lab.commit_order(1, 100);
  lab.debit(1, 100);
  lab.debit(9, 70);  // publish-then-commit: the message went out, the commit did not

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kPhantom);
  CHECK(r.phantom == Orders{9});
  CHECK(r.duplicated.empty());
  REQUIRE(numbers_of(r) == Orders{1, 9});
  CHECK_FALSE(outcome_of(r, 9).committed);
  CHECK(outcome_of(r, 9).outcome == lab::Outcome::kPhantom);
  CHECK(outcome_of(r, 9).amount == 70);
  CHECK(r.balance_expected == kInitial - 100);  // phantoms are not expected to be debited
  CHECK(r.balance_actual == kInitial - 170);

  SECTION("a rejection or a dead letter of an uncommitted order is a phantom too") {
    lab.reject(7);
    lab.leftovers.dead_lettered = {8};
    const lab::Report r2 = lab.check();
    CHECK(r2.phantom == Orders{7, 8, 9});
    CHECK(r2.rejected == Orders{7});
    CHECK(r2.dead_lettered == Orders{8});
  }
}

TEST_CASE("checker: messages left in the broker or unsent outbox rows are stuck", "[checker]") {
  Lab lab("stuck");
  lab.commit_orders(100, {1, 2});
  lab.commit_order(3, 100, /*sent=*/false);
  lab.commit_order(4, 100);
  lab.debit(4, 100);

  SECTION("ready, unacked and unsent are stuck, not lost") {
    lab.leftovers.ready = {1, 1};  // a poison message requeued forever, twice in the queue
    lab.leftovers.unacked = {2};

    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kStuck);
    CHECK(r.stuck == Orders{1, 2, 3});
    CHECK(r.lost.empty());
    CHECK(outcome_of(r, 1).outcome == lab::Outcome::kStuck);
    CHECK(outcome_of(r, 1).stuck);
    CHECK(outcome_of(r, 3).outcome == lab::Outcome::kStuck);
    CHECK(outcome_of(r, 4).outcome == lab::Outcome::kDebited);
    CHECK_FALSE(outcome_of(r, 4).stuck);
  }
  SECTION("an order with an outcome and a leftover copy is still stuck") {
    lab.debit_orders(100, {1, 2});
    lab.leftovers.ready = {4};  // debited, yet a copy never drained from the queue
    lab.leftovers.unacked = {1};
    lab.commit_order(5, 100, /*sent=*/false);
    lab.debit(5, 100);  // published and debited, but the relay never marked it sent

    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kStuck);
    CHECK(r.stuck == Orders{1, 3, 4, 5});
    CHECK(outcome_of(r, 4).outcome == lab::Outcome::kStuck);
    CHECK(outcome_of(r, 4).debits == 1);
    CHECK(outcome_of(r, 2).outcome == lab::Outcome::kDebited);
    // Order 3 is committed but still queued: the business meant to charge it.
    CHECK(r.balance_expected == r.balance_actual - 100);
  }
}

TEST_CASE("checker: debited and rejected is duplicated", "[checker]") {
  Lab lab("debit_reject");
  lab.commit_order(1, 100);
  lab.debit(1, 100);
  lab.reject(1);

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  CHECK(r.duplicated == Orders{1});
  CHECK(r.rejected == Orders{1});
  CHECK(outcome_of(r, 1).outcome == lab::Outcome::kDuplicated);
}

TEST_CASE("checker: a dead-lettered order is an outcome, not a loss", "[checker]") {
  Lab lab("dead_letter");
  lab.commit_orders(100, {1, 2});
  lab.debit(1, 100);
  lab.leftovers.dead_lettered = {2};

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kExactlyOnce);
  CHECK(r.lost.empty());
  CHECK(r.dead_lettered == Orders{2});
  CHECK(outcome_of(r, 2).outcome == lab::Outcome::kDeadLettered);
  CHECK(outcome_of(r, 2).dead_letters == 1);
  // The funds covered order 2, but it is parked for a person, who decides: the run is not
  // expected to have debited it (checker.h, Balance).
  CHECK(r.balance_expected == r.balance_actual);

  SECTION("a dead-lettered order that was debited is not set aside: its debit counts") {
    lab.debit(2, 100);  // debited, then its ack lost until the delivery limit parked it
    const lab::Report r2 = lab.check();
    CHECK(r2.verdict == lab::Verdict::kExactlyOnce);
    CHECK(r2.balance_expected == kInitial - 200);
    CHECK(r2.balance_actual == kInitial - 200);
  }
}

TEST_CASE("checker: verdict precedence is duplicated, lost, phantom, stuck", "[checker]") {
  Lab lab("precedence");
  lab.commit_order(1, 100);                   // will be duplicated
  lab.commit_order(2, 100);                   // lost
  lab.commit_order(3, 100, /*sent=*/false);   // stuck
  lab.debit(9, 100);                          // phantom

  SECTION("all four") {
    lab.debit_orders(100, {1, 1});
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kDuplicated);
    // Every list is reported, whatever the verdict.
    CHECK(r.duplicated == Orders{1});
    CHECK(r.lost == Orders{2});
    CHECK(r.phantom == Orders{9});
    CHECK(r.stuck == Orders{3});
  }
  SECTION("lost beats phantom and stuck") {
    lab.debit(1, 100);
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kLost);
  }
  SECTION("phantom beats stuck") {
    lab.debit_orders(100, {1, 2});
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kPhantom);
    CHECK(r.stuck == Orders{3});
  }
}

TEST_CASE("checker: a negative balance is flagged", "[checker]") {
  Lab lab("negative");
  lab.commit_orders(800, {1, 2});
  lab.debit(1, 800);
  lab.debit(2, 800);  // no funds check: the account is overdrawn

  const lab::Report r = lab.check();
  CHECK(r.balance_actual == kInitial - 1600);
  CHECK(r.balance_expected == kInitial - 800);  // the business rule refuses order 2: funds
  CHECK(r.balance_negative);
  // Each order once, but the money is wrong: the balance is the verdict.
  CHECK(r.verdict == lab::Verdict::kBalanceMismatch);
}

TEST_CASE("checker: an unknown account is an error, not a verdict", "[checker]") {
  Lab lab("no_account");
  lab::Report r;
  const store::Status s = lab::check(lab.orders_db(), lab.ledger_db(), {}, "nobody", 0, r);
  CHECK_FALSE(s.ok());
  CHECK(s.message.find("nobody") != std::string::npos);
}

TEST_CASE("schema: the dedup and outbox keys reject duplicates as unique violations",
          "[checker][schema]") {
  Lab lab("schema");
  store::Db& ledger = lab.ledger_db();
  const char* dedup = "INSERT INTO processed_messages(message_id, order_id, tick) VALUES (?1, ?2, ?3)";
  REQUIRE(ledger.statement(dedup).bind(1, "msg-1").bind(2, int64_t{1}).bind(3, int64_t{4}).exec().ok());
  const store::Status again =
      ledger.statement(dedup).bind(1, "msg-1").bind(2, int64_t{1}).bind(3, int64_t{9}).exec();
  CHECK(again.code == SQLITE_CONSTRAINT_PRIMARYKEY);
  CHECK(again.is_unique_violation());

  lab.commit_order(1, 100);
  store::Db& orders = lab.orders_db();
  const store::Status republish = orders.exec(
      "INSERT INTO outbox(order_id, message_id, body, created_tick) VALUES (1, 'msg-1', '{}', 2)");
  CHECK(republish.code == SQLITE_CONSTRAINT_UNIQUE);
  const store::Status same_order =
      orders.exec("INSERT INTO orders(id, account, amount, created_tick) VALUES (1, 'x', 5, 2)");
  CHECK(same_order.code == SQLITE_CONSTRAINT_PRIMARYKEY);
  store::Stmt& st = orders.statement("SELECT sent, sent_tick FROM outbox WHERE order_id = 1");
  bool has_row = false;
  REQUIRE(st.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(st.column_int64(0) == 1);  // commit_order marked it sent
  st.reset();
  // A row written without `sent` starts unsent, with no sent_tick.
  REQUIRE(orders.exec("INSERT INTO outbox(order_id, message_id, body, created_tick) VALUES "
                      "(2, 'msg-2', '{}', 3)").ok());
  store::Stmt& fresh = orders.statement("SELECT sent, sent_tick FROM outbox WHERE order_id = 2");
  REQUIRE(fresh.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(fresh.column_int64(0) == 0);
  CHECK(fresh.column_is_null(1));
  fresh.reset();
  // create_*_schema on a database that already has the tables fails as a value.
  CHECK_FALSE(lab::create_orders_schema(orders).ok());
}

TEST_CASE("checker: the expected balance follows the business rule over committed orders",
          "[checker]") {
  Lab lab("intent");
  lab.commit_order(1, 600);
  lab.commit_order(2, 500);  // 400 left: insufficient funds, refused
  lab.commit_order(3, 300);
  lab.debit(1, 600);
  lab.reject(2);
  // Order 3 was never debited: intent says 100 should be left, the table says 400.
  const lab::Report r = lab.check();
  CHECK(r.balance_expected == kInitial - 900);
  CHECK(r.balance_actual == kInitial - 600);
  CHECK(r.lost == Orders{3});
}

namespace {

// Commits orders 1..n (amount 1, outbox sent) and debits every one of them but `skip`.
void many_orders(Lab& lab, int64_t n, int64_t skip) {
  const std::string count = std::to_string(n);
  const std::string numbers = "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k "
                              "WHERE n < " + count + ") ";
  REQUIRE(lab.orders_db().exec(numbers + "INSERT INTO orders(id, account, amount, created_tick) "
                                         "SELECT n, 'acct-1', 1, 1 FROM k").ok());
  REQUIRE(lab.ledger_db().exec(numbers + "INSERT INTO debits(order_id, message_id, amount, "
                                         "consumer, tick) SELECT n, 'msg-' || n, 1, 1, 5 "
                                         "FROM k WHERE n <> " + std::to_string(skip)).ok());
}

}  // namespace

TEST_CASE("checker: up to kListAllOrders order numbers the report lists every order",
          "[checker]") {
  Lab lab("listall");
  const auto n = static_cast<int64_t>(lab::kListAllOrders);
  many_orders(lab, n, 7);
  const lab::Report r = lab.check();
  CHECK(r.orders.size() == lab::kListAllOrders);
  CHECK(r.orders_unlisted == 0);
  CHECK(r.lost == Orders{7});
  CHECK(outcome_of(r, 7).outcome == lab::Outcome::kLost);
  CHECK(outcome_of(r, n).outcome == lab::Outcome::kDebited);
}

TEST_CASE("checker: beyond kListAllOrders only the orders that went wrong are listed",
          "[checker]") {
  Lab lab("listwrong");
  const auto n = static_cast<int64_t>(lab::kListAllOrders) + 5;
  many_orders(lab, n, 12);
  lab.debit(n, 1);       // the last one twice
  lab.reject(3);         // debited and rejected: duplicated
  lab.leftovers.unacked = {n + 1};  // a number nobody committed, still in the broker
  const lab::Report r = lab.check();
  CHECK(numbers_of(r) == (Orders{3, 12, n, n + 1}));
  CHECK(r.orders_unlisted == n - 3);
  CHECK(r.lost == Orders{12});
  CHECK(r.duplicated == (Orders{3, n}));
  CHECK(r.stuck == Orders{n + 1});
  CHECK(r.rejected == Orders{3});
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  // The expected balance walks every committed order, listed or not: the first kInitial
  // orders of 1 use the balance up.
  CHECK(r.balance_expected == 0);
}

// A live run stopped at its timeout: what had no outcome yet may still be on its way.
TEST_CASE("checker: a run cut short leaves no order lost and is never exactly-once",
          "[checker]") {
  Lab lab("cut_short");
  lab.commit_orders(100, {1, 2, 3});
  lab.debit_orders(100, {1});
  lab.leftovers.ready = {3};  // order 3 still queued, order 2 somewhere in between

  SECTION("orders without an outcome are unsettled, the verdict incomplete") {
    lab::Report r = lab.check();
    REQUIRE(r.verdict == lab::Verdict::kLost);  // what a settled run would say
    lab::cut_short(r);
    CHECK(r.verdict == lab::Verdict::kIncomplete);
    CHECK(r.ledger_verdict == lab::Verdict::kIncomplete);
    CHECK(r.lost.empty());
    CHECK(r.unsettled == Orders{2});
    CHECK(outcome_of(r, 2).outcome == lab::Outcome::kUnsettled);
    CHECK(r.stuck == Orders{3});  // still queued: a fact, listed as before
    CHECK(outcome_of(r, 1).outcome == lab::Outcome::kDebited);
  }
  SECTION("everything through so far is still not exactly-once") {
    lab.debit_orders(100, {2, 3});
    lab.leftovers.ready.clear();
    lab::Report r = lab.check();
    REQUIRE(r.verdict == lab::Verdict::kExactlyOnce);
    lab::cut_short(r);
    CHECK(r.verdict == lab::Verdict::kIncomplete);
    CHECK(r.unsettled.empty());
  }
  SECTION("a double debit stands: more time cannot undo it") {
    lab.debit(1, 100);
    lab::Report r = lab.check();
    lab::cut_short(r);
    CHECK(r.verdict == lab::Verdict::kDuplicated);
    CHECK(r.duplicated == Orders{1});
    CHECK(r.unsettled == Orders{2});
  }
}

TEST_CASE("checker: the separate dedup store's keys count as the order's dedup rows",
          "[checker]") {
  Lab lab("dedup_store");
  lab.commit_orders(100, {1, 2, 3});
  lab.debit_orders(100, {1, 2, 3});
  store::Db seen;
  REQUIRE(store::Db::open("file:/eosim_checker_dedup_" + std::to_string(getpid()) + "?vfs=memdb",
                          seen)
              .ok());
  REQUIRE(lab::ready_dedup_db(seen).ok());
  // Order 1 marked once, order 2 under two ids (a fresh id per publish), order 3 not at
  // all (its key deleted after the retention); order 9's key alone adds no order.
  for (const char* row : {"('msg-1', 1, 5)", "('msg-2', 2, 5)", "('msg-2/p2', 2, 9)",
                          "('msg-9', 9, 9)"}) {
    REQUIRE(seen.exec(std::string("INSERT INTO seen(message_id, order_id, tick) VALUES ") + row)
                .ok());
  }
  lab::Report report;
  REQUIRE(lab::check(lab.orders_db(), lab.ledger_db(), lab.leftovers, kAccount, kInitial, report,
                     nullptr, &seen)
              .ok());
  CHECK(report.dedup_store_read);
  CHECK(numbers_of(report) == Orders{1, 2, 3});
  CHECK(outcome_of(report, 1).dedup_rows == 1);
  CHECK(outcome_of(report, 2).dedup_rows == 2);
  CHECK(outcome_of(report, 3).dedup_rows == 0);
  CHECK(report.verdict == lab::Verdict::kExactlyOnce);

  // Without the store the checker reads the ledger's processed_messages only.
  const lab::Report ledger_only = lab.check();
  CHECK_FALSE(ledger_only.dedup_store_read);
  CHECK(outcome_of(ledger_only, 2).dedup_rows == 0);
}
