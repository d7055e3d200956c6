#pragma once
// The two databases of an eosim run, exactly as the CLI's --keep-db leaves them and as the
// producer, the consumers and the checker code against them.
//
// orders.db (the producer's):
//   orders   one row per committed order; id is the 1-based order number.
//   outbox   one row per message to publish, written in the order's transaction; message_id
//            is fixed there (UNIQUE), so a republish is a recognisable duplicate; sent=1 only
//            after the broker confirmed it. A partial index keeps the unsent rows at hand.
// ledger.db (shared by every consumer instance, one connection each):
//   accounts             the balance being debited.
//   processed_messages   the dedup record: PRIMARY KEY on message_id, written in the same
//                        transaction as the effect (the atomic consumer).
//   debits               one row per applied debit (duplicates are what the checker finds).
//   rejections           one row per order refused by a business rule (e.g. no funds).
// dedup.db (dedup = separate-store only): seen, one key per message marked done, with the
//   order and the tick it was marked at (a retention cleanup deletes old keys).
// effects.db (side_effect != none): emails, the mail server's log of every email it
//   accepted; outside every transaction of the consumers. idempotency_key is UNIQUE where
//   set, so the server ignores a repeat of a key it has seen.
// There is deliberately no CHECK(balance >= 0): a strategy that overdraws must be able to,
// so the checker can report it.
// REQUIRES: the database is empty (CREATE TABLE fails on an existing table).

#include <cstdint>
#include <string>

#include "src/store/db.h"
#include "src/store/status.h"

namespace lab {

extern const char* const kOrdersSchema;
extern const char* const kLedgerSchema;
extern const char* const kDedupStoreSchema;
extern const char* const kEffectsSchema;

// Creates orders and outbox, in one transaction.
store::Status create_orders_schema(store::Db& db);
// Creates the ledger tables and the one account with its initial balance, in one transaction.
store::Status create_ledger_schema(store::Db& db, const std::string& account,
                                   int64_t initial_balance);

// The same databases as the two functions above, made by copying the pages of a template
// that this thread built once with them (sqlite3_backup): a world then parses no schema
// SQL, which was most of the cost of setting up a small run. The copy replaces whatever
// `db` held, so these do not fail on a database that is not empty.
// REQUIRES: no other connection uses `db`'s database while it is copied into.
store::Status clone_orders_schema(store::Db& db);
store::Status clone_ledger_schema(store::Db& db, const std::string& account,
                                  int64_t initial_balance);

// What a World calls: the empty orders (ledger) database of a run. A fresh database gets
// the template's copy; one that a warm connection kept from the last run
// (store::Db::reused(), store/warm.h) is emptied in place instead - every row deleted,
// AUTOINCREMENT counters and the account reset - which keeps every connection's prepared
// statements valid. Both leave the same rows, with the same rowids, so a run cannot tell
// them apart; when emptying fails (the last run left no schema) it clones after all.
// `kept`: the connection itself served the last run (a World reset in place keeps it
// open), which makes its database one to empty as well.
store::Status ready_orders_db(store::Db& db, bool kept = false);
store::Status ready_ledger_db(store::Db& db, const std::string& account,
                              int64_t initial_balance, bool kept = false);
// The same for the separate dedup store's one table (`seen`).
store::Status ready_dedup_db(store::Db& db);

}  // namespace lab
