#include "src/store/status.h"

#include <utility>

namespace store {

ErrorKind classify(int extended_code) {
  // The low byte of an extended code is its primary code (SQLite's documented layout).
  const int primary = extended_code & 0xff;
  switch (primary) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
      return ErrorKind::kNone;
    case SQLITE_CONSTRAINT:
      if (extended_code == SQLITE_CONSTRAINT_PRIMARYKEY ||
          extended_code == SQLITE_CONSTRAINT_UNIQUE) {
        return ErrorKind::kUniqueViolation;
      }
      return ErrorKind::kConstraint;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return ErrorKind::kBusy;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_NOMEM:
    case SQLITE_CANTOPEN:
      return ErrorKind::kEnvironment;
    case SQLITE_PROTOCOL:
      return ErrorKind::kTransient;
    default:
      return ErrorKind::kOther;
  }
}

const char* kind_name(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kNone: return "none";
    case ErrorKind::kUniqueViolation: return "unique-violation";
    case ErrorKind::kBusy: return "busy";
    case ErrorKind::kTransient: return "transient";
    case ErrorKind::kEnvironment: return "environment";
    case ErrorKind::kConstraint: return "constraint";
    case ErrorKind::kOther: return "other";
  }
  return "other";
}

Status Status::error(int extended_code, std::string message) {
  Status s;
  s.code = extended_code;
  s.kind = classify(extended_code);
  s.message = std::move(message);
  return s;
}

Status Status::injected(int extended_code, std::string message) {
  Status s = error(extended_code, std::move(message));
  if (s.kind != ErrorKind::kBusy) s.kind = ErrorKind::kTransient;
  return s;
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  std::string out = kind_name(kind);
  out += " (";
  out += sqlite3_errstr(code);
  out += ", code ";
  out += std::to_string(code);
  out += "): ";
  out += message;
  return out;
}

}  // namespace store
