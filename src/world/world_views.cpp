// World's read-only views for the GUI: the live database tables and the actors' status.
// Everything here reads; nothing changes what the run does next.

#include <sqlite3.h>

#include "sim/assert.h"
#include "src/world/world.h"
#include "src/world/world_impl.h"

namespace lab {

namespace {

// "SELECT * FROM table" through the raw handle: the column list comes from SQLite, so a
// schema change shows up here without an edit.
DbTable read_table(const store::Db& db, const char* database, const char* table) {
  DbTable out;
  out.database = database;
  out.name = table;
  const std::string sql = std::string("SELECT * FROM ") + table + " ORDER BY rowid";
  sqlite3_stmt* stmt = nullptr;
  const int prepared = sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt, nullptr);
  // Between steps no transaction is open and the schema is the lab's own: a failure here
  // is a bug, not an operating error, unless the machine failed (store/failure.h: the
  // table is shown as far as it could be read).
  if (prepared != SQLITE_OK) {
    EOSIM_ASSERT(store::classify(prepared) == store::ErrorKind::kEnvironment);
    sqlite3_finalize(stmt);
    return out;
  }
  const int columns = sqlite3_column_count(stmt);
  for (int c = 0; c < columns; ++c) out.columns.emplace_back(sqlite3_column_name(stmt, c));
  int rc = SQLITE_ROW;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    std::vector<std::string> row;
    for (int c = 0; c < columns; ++c) {
      const unsigned char* text = sqlite3_column_text(stmt, c);
      row.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    out.rows.push_back(std::move(row));
  }
  EOSIM_ASSERT(rc == SQLITE_DONE || store::classify(rc) == store::ErrorKind::kEnvironment);
  sqlite3_finalize(stmt);
  return out;
}

}  // namespace

std::uint64_t World::steps() const { return impl_->kernel_->scheduler.steps(); }

std::vector<DbTable> World::tables() const {
  const WorldImpl& w = *impl_;
  std::vector<DbTable> out;
  for (const char* table : {"orders", "outbox"}) {
    out.push_back(read_table(w.orders_anchor_, "orders.db", table));
  }
  for (const char* table : {"accounts", "processed_messages", "debits", "rejections"}) {
    out.push_back(read_table(w.ledger_anchor_, "ledger.db", table));
  }
  if (w.dedup_anchor_.is_open()) out.push_back(read_table(w.dedup_anchor_, "dedup.db", "seen"));
  if (w.effects_anchor_.is_open()) {
    out.push_back(read_table(w.effects_anchor_, "effects.db", "emails"));
  }
  return out;
}

std::vector<ActorStatus> World::actors() const {
  const WorldImpl& w = *impl_;
  std::vector<ActorStatus> out;
  ActorStatus broker;
  broker.name = "broker";
  broker.up = w.broker_->up();
  out.push_back(broker);
  for (const auto& c : w.consumers_) {
    ActorStatus s;
    s.name = c->name();
    s.up = c->up();
    s.holding = static_cast<std::int64_t>(c->inbox_size());
    s.deliveries = c->stats().deliveries;
    s.applied = c->stats().applied;
    s.duplicates = c->stats().duplicates;
    s.crashes = c->stats().crashes;
    out.push_back(s);
  }
  return out;
}

}  // namespace lab
