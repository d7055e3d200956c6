// The checker's violations that need more than one consumer instance or more than the
// order lists: duplicates made by several consumers, and the balance as a verdict.
#include "tests/unit/checker/checker_lab.h"

using checker_lab::Lab;
using checker_lab::Orders;
using checker_lab::outcome_of;

// Debits are counted per order, whoever made them: a duplicate is a duplicate whether one
// consumer instance debited twice or two instances once each.
TEST_CASE("checker: two consumers debiting one order is duplicated", "[checker]") {
  Lab lab("two_consumers");
  lab.commit_orders(100, {1, 2});
  lab.debit(1, 100, 1);
  lab.debit(2, 100, 1);
  lab.debit(2, 100, 2);  // a second instance took the requeued copy and debited it too

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  CHECK(r.duplicated == Orders{2});
  CHECK(outcome_of(r, 2).outcome == lab::Outcome::kDuplicated);
  CHECK(outcome_of(r, 2).debits == 2);
  CHECK(outcome_of(r, 1).outcome == lab::Outcome::kDebited);
}

TEST_CASE("checker: one consumer debiting one order twice is duplicated", "[checker]") {
  Lab lab("one_consumer_twice");
  lab.commit_orders(100, {1, 2});
  lab.debit(1, 100, 2);
  lab.debit(2, 100, 2);
  lab.debit(2, 100, 2);

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  CHECK(r.duplicated == Orders{2});
  CHECK(outcome_of(r, 2).debits == 2);
  CHECK(outcome_of(r, 1).outcome == lab::Outcome::kDebited);
}

TEST_CASE("checker: a debit by one consumer and a rejection of the same order is duplicated",
          "[checker]") {
  Lab lab("debit_reject_two");
  lab.commit_orders(100, {1, 2});
  lab.debit(1, 100, 1);
  lab.debit(2, 100, 2);
  lab.reject(2);  // another instance, seeing the balance after the debit, refused it

  const lab::Report r = lab.check();
  CHECK(r.verdict == lab::Verdict::kDuplicated);
  CHECK(r.duplicated == Orders{2});
  CHECK(r.rejected == Orders{2});
  CHECK(outcome_of(r, 2).outcome == lab::Outcome::kDuplicated);
  CHECK(outcome_of(r, 2).debits == 1);
  CHECK(outcome_of(r, 2).rejections == 1);
}

// The balance joins the verdict: every order can have a fitting outcome and the money
// still be wrong.
TEST_CASE("checker: a refusal the funds covered is a balance mismatch", "[checker]") {
  Lab lab("exact_drain");
  lab.commit_order(1, 600);
  lab.commit_order(2, 400);  // exactly what is left after order 1
  lab.debit(1, 600);

  SECTION("debited: the account is drained to 0, exactly-once") {
    lab.debit(2, 400);
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kExactlyOnce);
    CHECK(r.balance_expected == 0);
    CHECK(r.balance_actual == 0);
  }
  SECTION("refused for want of funds: every order has an outcome, the balance is wrong") {
    lab.reject(2);
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kBalanceMismatch);
    CHECK(r.ledger_verdict == lab::Verdict::kBalanceMismatch);
    CHECK(r.lost.empty());
    CHECK(r.duplicated.empty());
    CHECK(r.rejected == Orders{2});
    CHECK(outcome_of(r, 2).outcome == lab::Outcome::kRejected);
    CHECK(r.balance_expected == 0);
    CHECK(r.balance_actual == 400);
  }
  SECTION("refused for want of an id: set aside for a person, not expected to be paid") {
    lab.reject(2, "missing message_id");
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kExactlyOnce);
    CHECK(r.balance_expected == 400);
  }
  SECTION("a debit of the wrong amount") {
    lab.debit(2, 350);
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kBalanceMismatch);
    CHECK(r.balance_actual == 50);
  }
  SECTION("a violation an order names comes first: stuck beats balance-mismatch") {
    lab.leftovers.ready = {2};  // still queued: the mismatch is explained
    const lab::Report r = lab.check();
    CHECK(r.verdict == lab::Verdict::kStuck);
  }
  SECTION("a run cut short is incomplete, not a mismatch: the debit may still come") {
    lab.reject(2);
    lab::Report r = lab.check();
    REQUIRE(r.verdict == lab::Verdict::kBalanceMismatch);
    lab::cut_short(r);
    CHECK(r.verdict == lab::Verdict::kIncomplete);
  }
}
