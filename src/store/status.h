#pragma once
// store::Status — the result of every SQLite operation in eosim, as a value.
//
// Invariants:
//   - `code` is always an SQLite *extended* result code (SQLITE_CONSTRAINT_PRIMARYKEY, not
//     SQLITE_CONSTRAINT), or SQLITE_OK for success.
//   - `kind == classify(code)` (build errors with Status::error()): the kind is derived from
//     the code, never from message text. The one exception is Status::injected(): a fault
//     the model injects (site db.commit) stands for what a business database returns to
//     its application, a transient error, whatever code it carries.
//     Guessing "duplicate" from a message (or answering "yes" to
//     every error) turns a transient failure into a silently dropped message; eosim's
//     `naive-errors` strategy teaches exactly that bug, so this layer must be exact.
//   - A database server's error (PostgreSQL, remote.h) carries its SQLSTATE in `sqlstate`
//     and is made by Status::from_sqlstate(): the kind comes from the SQLSTATE, and `code`
//     is the SQLite code of the same meaning (23505 is SQLITE_CONSTRAINT_UNIQUE), so every
//     caller that reads kind or code reads a server's answer as it reads SQLite's.
//   - [[nodiscard]], like live::Status: a caller that drops a failure must say so in code.
//     (The two stay separate types: this one carries an SQLite code and its kind, live's an
//     AMQP reply code; neither side needs the other's.)

#include <sqlite3.h>

#include <string>

#include "sim/named.h"

namespace store {

enum class ErrorKind {
  kNone,             // SQLITE_OK (and the non-error step results SQLITE_ROW / SQLITE_DONE)
  kUniqueViolation,  // SQLITE_CONSTRAINT_PRIMARYKEY or SQLITE_CONSTRAINT_UNIQUE: a duplicate key
  kBusy,             // SQLITE_BUSY*, SQLITE_LOCKED*: another connection holds the lock
  kTransient,        // SQLITE_PROTOCOL*, and injected faults: retrying may succeed
  kEnvironment,      // SQLITE_IOERR*, SQLITE_FULL, SQLITE_NOMEM, SQLITE_CANTOPEN*: the machine's
                     // trouble (a full disk, ...), never the design's: it ends the run
                     // (store/failure.h)
  kConnectionLost,   // a server's connection broke (SQLSTATE 08xxx, 57P01-57P03): whether
                     // the statement in flight (a COMMIT) took effect is unknown
  kConstraint,       // any other SQLITE_CONSTRAINT_* (NOT NULL, CHECK, FOREIGN KEY, ROWID, ...)
  kOther,            // everything else (syntax, misuse, "no transaction is active", ...)
};

// Maps an extended result code to its kind. Primary codes are accepted too (a bare
// SQLITE_CONSTRAINT is kConstraint: without the extended code we cannot claim "unique").
ErrorKind classify(int extended_code);

// What a PostgreSQL SQLSTATE means here: 23505 unique violation; other 23xxx constraint;
// 40001 (serialization failure) and 40P01 (deadlock) busy - the transaction may be run
// again; 08xxx and 57P01-57P03 (connection lost, server shut down) connection lost; 53xxx
// (out of disk, memory) and 58xxx (I/O) the machine's; anything else other.
ErrorKind classify_sqlstate(const std::string& sqlstate);

}  // namespace store

namespace sim {
// "none", "unique-violation", "busy", "transient", "environment", "connection-lost",
// "constraint", "other" (Status::to_string begins with it).
template <>
std::span<const Named<store::ErrorKind>> enum_names<store::ErrorKind>();
}  // namespace sim

namespace store {

struct [[nodiscard]] Status {
  int code = SQLITE_OK;  // extended result code
  ErrorKind kind = ErrorKind::kNone;
  std::string message;
  std::string sqlstate;  // a database server's five-character code; "" for SQLite

  // Copies and moves as the members' own would, in a few instructions for the usual
  // status without texts (success, every step and statement that went well): the two
  // strings are touched only when either side has a text, out of line. (The strings'
  // own copies and moves, inlined at every `st = stmt.exec()`, made an actor's function
  // twice its size.) They name every member, and copy_text and move_text the strings: a
  // member added to Status must be added to all six.
  Status() = default;
  ~Status() = default;
  Status(const Status& other) : code(other.code), kind(other.kind) {
    if (other.has_text()) [[unlikely]]
      copy_text(other);
  }
  Status(Status&& other) noexcept : code(other.code), kind(other.kind) {
    if (other.has_text()) [[unlikely]]
      move_text(other);
  }
  Status& operator=(const Status& other) {
    code = other.code;
    kind = other.kind;
    if (has_text() || other.has_text()) [[unlikely]]
      copy_text(other);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    code = other.code;
    kind = other.kind;
    if (has_text() || other.has_text()) [[unlikely]]
      move_text(other);
    return *this;
  }

  bool ok() const { return code == SQLITE_OK; }
  bool is_unique_violation() const { return kind == ErrorKind::kUniqueViolation; }
  // Busy, transient or a lost connection: the same operation may succeed if tried again.
  bool is_transient() const {
    return kind == ErrorKind::kBusy || kind == ErrorKind::kTransient ||
           kind == ErrorKind::kConnectionLost;
  }

  static Status success() { return Status{}; }
  // An error status for `extended_code`; the kind comes from classify().
  static Status error(int extended_code, std::string message);
  // An error the fault hook injects: kTransient (or kBusy for a busy code) whatever the
  // code, since it stands for what a business database says, not for the machine.
  static Status injected(int extended_code, std::string message);
  // A database server's error; "" (no answer at all: the connection is gone) counts as
  // 08006, connection failure.
  static Status from_sqlstate(std::string sqlstate, std::string message);

  // "ok" or "<kind> (<code name> <code>): <message>", for logs and the CLI; a server's
  // error shows "<kind> (SQLSTATE <sqlstate>): <message>".
  std::string to_string() const;

 private:
  bool has_text() const { return !message.empty() || !sqlstate.empty(); }
  void copy_text(const Status& other);     // message and sqlstate, copied
  void move_text(Status& other) noexcept;  // message and sqlstate, moved
};

}  // namespace store
