#pragma once
// store: the machine's own trouble, kept apart from what a database says to its application.
//
// A full disk, an I/O error, memory that ran out or a database file that cannot be opened
// (SQLITE_FULL, SQLITE_IOERR*, SQLITE_NOMEM, SQLITE_CANTOPEN) are faults of the machine
// eosim runs on, not of the design under test: a run that met one has no verdict. Such an
// error reaches the actor that met it as ErrorKind::kEnvironment (never kTransient, so no
// strategy can mistake it for a lock or an injected fault and retry, drop or ack it), and
// it is reported to the calling thread's FailureWatch, which ends the run with it.
//
// Invariants:
//   (1) environment_error() is the one place such a Status is made from SQLite's answer:
//       its message names the database file and the operating system's reason
//       ("/tmp/x/ledger.db: No space left on device (SQLite: database or disk is full,
//       running: INSERT ...)").
//   (2) A FailureWatch keeps the first error reported while it is active; later ones
//       (what the same full disk does to the next statement) add nothing.
//   (3) Injected faults (the fault hook's codes) never pass through here: they are the
//       model's transient errors, Status::injected().
// REQUIRES: a watch is activated and deactivated on one thread (Active is a scope guard).

#include <sqlite3.h>

#include <optional>
#include <string>

#include "src/store/status.h"

namespace store {

class FailureWatch {
 public:
  FailureWatch() = default;
  FailureWatch(const FailureWatch&) = delete;
  FailureWatch& operator=(const FailureWatch&) = delete;

  // Makes `watch` the calling thread's watch for the guard's life; the one active before
  // comes back after it.
  class Active {
   public:
    explicit Active(FailureWatch& watch);
    ~Active();
    Active(const Active&) = delete;
    Active& operator=(const Active&) = delete;

   private:
    FailureWatch* previous_;
  };

  // Records `status` (kind kEnvironment) in the calling thread's active watch, if any.
  static void report(const Status& status);

  bool failed() const { return first_.has_value(); }
  // The first error reported. REQUIRES: failed().
  const Status& first() const { return *first_; }

 private:
  std::optional<Status> first_;
};

// The Status for `code`, an SQLite result code of `db`'s last call (`doing` says what it
// was, e.g. "running: INSERT ..."). For an environment code the message follows invariant
// (1) and the error is reported to the thread's watch; any other code gives the plain
// "<SQLite's message> (<doing>)". `file` names the database when `db` cannot (a failed
// open).
Status sqlite_error(sqlite3* db, int code, const std::string& doing, const std::string& file = "");

// For a step no other connection can make fail (a database the actor alone writes, a
// read between steps): an error can only be the machine's, already reported to the watch.
// True when `status` failed, and then the caller stops what it was doing.
// REQUIRES: a failed `status` is of kind kEnvironment (anything else is a bug).
bool machine_failed(const Status& status);

}  // namespace store
