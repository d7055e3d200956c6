#pragma once
// The store layer's backend seam: a store::Db is either an SQLite connection (the
// simulator, and `eosim live` by default) or a connection to a database server
// (PostgreSQL, `eosim live --store postgres`). The actors, the checker and the schema code
// use Db, Stmt and Txn alone and cannot tell the two apart; no strategy is written twice.
//
// The SQL they write is SQLite's. What PostgreSQL spells differently is translated here, in
// the store layer (postgres_sql), never in an actor: `?N` parameters, INSERT OR IGNORE,
// BEGIN IMMEDIATE, AUTOINCREMENT and INTEGER columns. Errors come back as store::Status
// with the server's SQLSTATE (Status::from_sqlstate): 23505 is a unique violation as
// SQLite's is, so errors = "classify" reads the real server's answer.
//
// The server side's code (libpq) is not part of the simulator: the program that has it
// (the live side) registers an opener once (set_remote_opener), and Db::open hands it every
// URI that names a server (is_remote_uri). The simulator registers none and never reaches
// this code: its runs, traces and speed are those of SQLite alone.
//
// Invariants:
//  (1) A RemoteConn answers one statement at a time, all its rows at once: Stmt::step
//      then hands them out one by one, as SQLite's steps would.
//  (2) Values travel as text (NULL as nullopt), both ways; the server types a parameter
//      by where it is used, as SQLite's type affinity would.
//  (3) A connection the server broke (08xxx, 57P01) is reopened by the next statement:
//      the transaction it was in is gone, as a crash's would be in SQLite.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/store/status.h"

namespace store {

using Value = std::optional<std::string>;

struct RemoteRows {
  std::vector<std::vector<Value>> rows;
  std::int64_t changes = 0;  // rows an INSERT / UPDATE / DELETE touched
};

// A competing transaction a fault site asks a server for (Db::stage_conflict): one whose
// change makes this transaction's next UPDATE fail with 40001, or one that deadlocks with
// this transaction's next INSERT (40P01).
enum class Conflict : std::uint8_t { kSerialization, kDeadlock };

class RemoteConn {
 public:
  virtual ~RemoteConn() = default;
  // One statement in the server's dialect, with its parameters.
  virtual Status run(const std::string& sql, const std::vector<Value>& params, RemoteRows& out) = 0;
  // A script of statements without parameters (schema).
  virtual Status run_script(const std::string& sql) = 0;
  // Inside a transaction the server still holds for this connection.
  virtual bool in_transaction() const = 0;
  // Makes `conflict` real on the server, against this connection's open transaction and
  // the account `account`: the server's own answer to the transaction's next statement is
  // then 40001 or 40P01. An error when this server cannot (by default: none can).
  virtual Status stage_conflict(Conflict conflict, const std::string& account);
  // The statement as this server spells it ("" = nothing to run there, as a PRAGMA): by
  // default PostgreSQL's (postgres_sql). A server that is no SQL database (the Redis dedup
  // store, src/live/redis_store.h) reads SQLite's text and answers only the statements it
  // knows.
  virtual std::string dialect(std::string_view sqlite_sql) const;
};

// Opens the server `uri` names.
using RemoteOpener = Status (*)(const std::string& uri, std::unique_ptr<RemoteConn>& out);
// Set once, before any Db::open of a server's URI (the live side's main does it).
void set_remote_opener(RemoteOpener opener);
RemoteOpener remote_opener();

// postgres://, postgresql:// and redis:// URLs name a server; anything else is SQLite's.
bool is_remote_uri(std::string_view uri);

// SQLite's SQL as PostgreSQL spells it (see the header comment); "" for a statement with no
// PostgreSQL meaning (PRAGMA). Quoted text is left alone.
std::string postgres_sql(std::string_view sqlite_sql);

}  // namespace store
