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
//   - [[nodiscard]], like live::Status: a caller that drops a failure must say so in code.
//     (The two stay separate types: this one carries an SQLite code and its kind, live's an
//     AMQP reply code; neither side needs the other's.)

#include <sqlite3.h>

#include <string>

namespace store {

enum class ErrorKind {
  kNone,             // SQLITE_OK (and the non-error step results SQLITE_ROW / SQLITE_DONE)
  kUniqueViolation,  // SQLITE_CONSTRAINT_PRIMARYKEY or SQLITE_CONSTRAINT_UNIQUE: a duplicate key
  kBusy,             // SQLITE_BUSY*, SQLITE_LOCKED*: another connection holds the lock
  kTransient,        // SQLITE_PROTOCOL*, and injected faults: retrying may succeed
  kEnvironment,      // SQLITE_IOERR*, SQLITE_FULL, SQLITE_NOMEM, SQLITE_CANTOPEN*: the machine's
                     // trouble (a full disk, ...), never the design's: it ends the run
                     // (store/failure.h)
  kConstraint,       // any other SQLITE_CONSTRAINT_* (NOT NULL, CHECK, FOREIGN KEY, ROWID, ...)
  kOther,            // everything else (syntax, misuse, "no transaction is active", ...)
};

// Maps an extended result code to its kind. Primary codes are accepted too (a bare
// SQLITE_CONSTRAINT is kConstraint: without the extended code we cannot claim "unique").
ErrorKind classify(int extended_code);

// "none", "unique-violation", "busy", "transient", "environment", "constraint", "other".
const char* kind_name(ErrorKind kind);

struct [[nodiscard]] Status {
  int code = SQLITE_OK;  // extended result code
  ErrorKind kind = ErrorKind::kNone;
  std::string message;

  bool ok() const { return code == SQLITE_OK; }
  bool is_unique_violation() const { return kind == ErrorKind::kUniqueViolation; }
  // Busy or transient: the same operation may succeed if tried again later.
  bool is_transient() const { return kind == ErrorKind::kBusy || kind == ErrorKind::kTransient; }

  static Status success() { return Status{}; }
  // An error status for `extended_code`; the kind comes from classify().
  static Status error(int extended_code, std::string message);
  // An error the fault hook injects: kTransient (or kBusy for a busy code) whatever the
  // code, since it stands for what a business database says, not for the machine.
  static Status injected(int extended_code, std::string message);

  // "ok" or "<kind> (<code name> <code>): <message>", for logs and the CLI.
  std::string to_string() const;
};

}  // namespace store
