#pragma once
// eosim::Status and eosim::Result<T> - how an operation that can fail for reasons outside
// the program (a bad scenario file, a folder that cannot be read, a database that cannot be
// created, a command-line value out of range) says so: as a value the caller must look at.
// Programmer errors assert instead (sim/assert.h).
//
// The live side uses this type too (live::Status names it), with the AMQP reply code of a
// broker's refusal in `reply_code`. The SQLite layer keeps its own (store::Status carries
// the extended result code and its kind) and follows the same convention: [[nodiscard]],
// ok(), a message a user can act on.
//
// Invariants:
//   (1) Status: ok() <=> message is empty; Status::error() refuses an empty message.
//   (2) Result<T>: holds a value exactly when status().ok().
//
// Use:
//   eosim::Status s = write_file(...);
//   if (!s.ok()) return s;
//   eosim::Result<Scenario> r = load(...);
//   if (!r.ok()) return r.status();
//   use(r.value());

#include <optional>
#include <string>
#include <utility>

#include "sim/assert.h"

namespace eosim {

struct [[nodiscard]] Status {
  std::string message;  // empty = success; otherwise one line a user can act on
  // The machine's own trouble (a full disk, an unwritable folder, no memory), which the
  // user can fix: the command line exits 2 for it, never 3, and reports no verdict.
  bool machine = false;
  // The AMQP reply code when a broker closed the channel or connection (403, 404, 406,
  // 530, ...), else 0.
  int reply_code = 0;
  // The user's input is at fault where it is not parsed up front (their consumer command,
  // their effects query): exit 2, never a verdict.
  bool bad_input = false;

  bool ok() const { return message.empty(); }
  static Status success() { return {}; }
  static Status error(std::string text, int code = 0) {
    EOSIM_ASSERT(!text.empty());
    Status status;
    status.message = std::move(text);
    status.reply_code = code;
    return status;
  }
  static Status machine_error(std::string text) {
    Status s = error(std::move(text));
    s.machine = true;
    return s;
  }
  static Status bad_input_error(std::string text) {
    Status s = error(std::move(text));
    s.bad_input = true;
    return s;
  }
  // The same error with `prefix` before its message (e.g. "seed 7: ").
  Status prefixed(const std::string& prefix) const {
    Status s = *this;
    if (!s.ok()) s.message = prefix + s.message;
    return s;
  }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: success converts implicitly
  Result(Status status) : status_(std::move(status)) {  // NOLINT: so does a failure
    EOSIM_ASSERT(!status_.ok());
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  // The error's text. REQUIRES: !ok().
  const std::string& message() const { return status_.message; }
  // REQUIRES: ok().
  T& value() {
    EOSIM_ASSERT(ok());
    return *value_;
  }
  const T& value() const {
    EOSIM_ASSERT(ok());
    return *value_;
  }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace eosim
