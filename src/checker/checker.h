#pragma once
// The checker: after a run, decide from the SQLite tables alone (never from what the actors
// believe) what happened to every order, and give the run its verdict.
//
// Sources of truth:
//   committed order  = a row in orders.db `orders` (its id is the order number);
//   debit            = a row in ledger.db `debits`;  rejection = a row in `rejections`;
//   dead letter      = an entry in BrokerLeftovers::dead_lettered (the DLQ at the end);
//   leftover message = an entry in BrokerLeftovers::ready / unacked;
//   unsent outbox    = a row in orders.db `outbox` with sent = 0.
// Classification of an order number n:
//   outcomes(n)   = debits + rejections + dead_letters.
//   duplicated(n) : committed, and debited >= 2 times, or debited and rejected.
//   phantom(n)    : not committed, and outcomes(n) >= 1.
//   stuck(n)      : a ready/unacked copy of n is left in the broker, or n has an unsent outbox
//                   row. This holds even when n also has an outcome (the queue or the outbox
//                   did not drain, so the run is not finished) and even for an uncommitted n
//                   (a message nobody committed, still queued, is still a queue that did not
//                   drain). A stuck order is never lost.
//   lost(n)       : committed, outcomes(n) == 0, and not stuck.
//   rejected / dead_lettered: every n with >= 1 rejection / dead letter (information only).
// Each OrderOutcome.outcome names the worst that applies, in this order:
//   "phantom" (uncommitted with an outcome), "duplicated", "stuck", "debited", "rejected",
//   "dead-lettered", "lost". Several rejections of one order are "rejected", not duplicated:
//   a rejection changes no balance (docs/glossary.md: duplicated = debited twice, or
//   debited and rejected).
// Balance: expected = what the business intended, from orders.db and the business rule, never
//   from what was debited: start at the initial balance and walk the committed orders in
//   order-number order; each is accepted when the running balance covers its amount (the
//   consumer's rule: insufficient funds refuse it) and then subtracted. An order set aside
//   for a person is skipped: never debited, and dead-lettered or rejected for a reason other
//   than insufficient funds (no message_id) - the run handed it over, the report lists it
//   (dead_lettered, rejected), and a person decides. So a lost order, a double debit, a
//   debit of the wrong amount or an order refused for want of funds that the funds covered
//   shows as a mismatch. Limitation: the walk is in order-number order, so with amounts
//   of different sizes that the funds cannot all cover, consumers that take the orders in
//   another order may pay another subset and show a mismatch. actual = accounts.balance;
//   balance_negative = actual < 0 (only the final balance is observable in the tables).
//   kBalanceRule says this in words for reports.
// Verdict: "exactly-once" when lost, duplicated, phantom and stuck are all empty and the
//   actual balance is the expected one; otherwise the first non-empty of duplicated, lost,
//   phantom, stuck, else "balance-mismatch". A lost or duplicated order moves the balance
//   too, but is named for what happened to it; balance-mismatch is the verdict of a run
//   whose orders each have a fitting outcome and whose money is still wrong (an order
//   refused that the funds covered, a debit of the wrong amount).
// External effects (only when check() is given the mail server's log): per order, the
//   emails in effects.db `emails`. Every order with a debit should have exactly one:
//   effect_duplicated(n): emails >= 2; effect_lost(n): debited, not stuck, no email;
//   effect_phantom(n): an email but no debit. The effect verdict is the first non-empty of
//   those three; the run's verdict becomes the worse of the ledger's and the effects'.
// Streaming: every table is read once, sorted by order number, and the streams are merged,
//   so the checker holds one order at a time (a 10^6-order run's report costs no more than
//   its violations). Report::orders lists every order up to kListAllOrders order numbers;
//   beyond that only the orders that went wrong, and orders_unlisted counts the others.
// REQUIRES: both databases have the lab schema (src/world/schema.h) and no other connection
//   holds a write lock on them (the run has quiesced).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/checker/verdict.h"
#include "src/checker/violations.h"
#include "src/store/db.h"
#include "src/store/status.h"

namespace lab {

// Order numbers (a number may repeat) still in the broker when the run ended.
struct BrokerLeftovers {
  std::vector<int64_t> ready, unacked, dead_lettered;
};

struct OrderOutcome {
  int64_t order = 0;
  bool committed = false;
  int64_t amount = 0;  // orders.amount; for an uncommitted order, its smallest debit (or 0)
  int64_t debits = 0;
  int64_t rejections = 0;
  int64_t dead_letters = 0;
  int64_t dedup_rows = 0;  // ledger.processed_messages rows for the order, plus the keys
                           // of the separate dedup store (dedup.db seen) when it is read
  int64_t effects = 0;     // emails in the mail server's log (when checked)
  bool stuck = false;
  Outcome outcome = Outcome::kLost;
};

// How balance_expected is computed, in one sentence for people (the text report prints it).
inline constexpr const char* kBalanceRule =
    "expected = initial - each committed order the business accepts, funds allowing "
    "(orders set aside for a person excepted)";

// Above this many order numbers the report lists only the orders that went wrong.
inline constexpr std::size_t kListAllOrders = 10000;

// The run's Violations (verdict, lost, duplicated, phantom, stuck, effect_duplicated),
// and what else the checker read.
struct Report : Violations {
  // Sorted by order number: every committed order, plus every uncommitted order number that
  // has an outcome or a leftover. Beyond kListAllOrders of them, only those whose outcome
  // is lost, duplicated, phantom or stuck or whose effect is wrong; the rest are counted
  // in orders_unlisted.
  std::vector<OrderOutcome> orders;
  std::int64_t orders_unlisted = 0;
  // Sorted, unique order numbers (the violations' lists too).
  std::vector<int64_t> dead_lettered, rejected;
  std::vector<int64_t> unsettled;  // only after cut_short: what would have read "lost"
  int64_t balance_initial = 0;
  int64_t balance_expected = 0;
  int64_t balance_actual = 0;
  bool balance_negative = false;
  // Violations::verdict is never kIncomplete here (the world sets that).
  // Filled when check() reads effects (effect_duplicated is one of the Violations);
  // effects_checked stays false for a design without side effect.
  bool effects_checked = false;
  std::vector<int64_t> effect_lost, effect_phantom;
  // Whether check() read the separate dedup store (dedup.db `seen`), whose keys then count
  // in each order's dedup_rows; false for a design without one, or a store not read.
  bool dedup_store_read = false;
  Verdict ledger_verdict = Verdict::kExactlyOnce;  // the verdict of the ledger alone
  Verdict effect_verdict = Verdict::kExactlyOnce;  // of the external effects alone (when checked)
};

// Fills `out` (replacing what it held). `effects_db` is the mail server's log (table
// `emails`) of a design with a side effect, or nullptr; `dedup_store_db` the separate
// dedup store (table `seen`) of a design that keeps one, or nullptr. Fails, as a value, on an
// SQLite error or when `account` is missing from ledger.accounts; `out` is then incomplete.
store::Status check(store::Db& orders_db, store::Db& ledger_db, const BrokerLeftovers& leftovers,
                    const std::string& account, int64_t initial_balance, Report& out,
                    store::Db* effects_db = nullptr, store::Db* dedup_store_db = nullptr);

// A run stopped before it settled (a live run at its timeout): an order with no outcome
// yet may still be on its way, so it is unsettled, not lost (lost, effect_lost and the
// verdicts say nothing about it any more; nor does the balance, which its debit may still
// move). The verdict becomes incomplete - never
// exactly-once - unless it is duplicated or phantom, which more time cannot undo.
void cut_short(Report& report);

}  // namespace lab
