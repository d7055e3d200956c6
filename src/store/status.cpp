#include "src/store/status.h"

#include <string_view>
#include <utility>

namespace store {

ErrorKind classify(int extended_code) {
  // The low byte of an extended code is its primary code (SQLite's documented layout).
  const int primary = extended_code & 0xff;
  switch (primary) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE: return ErrorKind::kNone;
    case SQLITE_CONSTRAINT:
      if (extended_code == SQLITE_CONSTRAINT_PRIMARYKEY ||
          extended_code == SQLITE_CONSTRAINT_UNIQUE) {
        return ErrorKind::kUniqueViolation;
      }
      return ErrorKind::kConstraint;
    case SQLITE_BUSY:
    case SQLITE_LOCKED: return ErrorKind::kBusy;
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_NOMEM:
    case SQLITE_CANTOPEN: return ErrorKind::kEnvironment;
    case SQLITE_PROTOCOL: return ErrorKind::kTransient;
    default: return ErrorKind::kOther;
  }
}

namespace {

constexpr std::array<sim::Named<ErrorKind>, 8> kErrorKindNames{{
    {ErrorKind::kNone, "none", ""},
    {ErrorKind::kUniqueViolation, "unique-violation", ""},
    {ErrorKind::kBusy, "busy", ""},
    {ErrorKind::kTransient, "transient", ""},
    {ErrorKind::kEnvironment, "environment", ""},
    {ErrorKind::kConnectionLost, "connection-lost", ""},
    {ErrorKind::kConstraint, "constraint", ""},
    {ErrorKind::kOther, "other", ""},
}};
static_assert(sim::names_every_value(kErrorKindNames));

}  // namespace

[[gnu::cold]] void Status::copy_text(const Status& other) {
  message = other.message;
  sqlstate = other.sqlstate;
}

[[gnu::cold]] void Status::move_text(Status& other) noexcept {
  message = std::move(other.message);
  sqlstate = std::move(other.sqlstate);
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

namespace {

// SQLSTATEs by code or by class (the first two characters), the codes first: the server's
// word for what happened, read once here at the edge (a table, not string compares).
struct SqlstateKind {
  std::string_view prefix;
  ErrorKind kind;
};
constexpr SqlstateKind kSqlstateKinds[] = {
    {"23505", ErrorKind::kUniqueViolation},  // unique_violation
    {"40001", ErrorKind::kBusy},             // serialization_failure
    {"40P01", ErrorKind::kBusy},             // deadlock_detected
    {"57P01", ErrorKind::kConnectionLost},   // admin_shutdown
    {"57P02", ErrorKind::kConnectionLost},   // crash_shutdown
    {"57P03", ErrorKind::kConnectionLost},   // cannot_connect_now
    {"23", ErrorKind::kConstraint},          // integrity constraint violation
    {"08", ErrorKind::kConnectionLost},      // connection exception
    {"53", ErrorKind::kEnvironment},         // insufficient resources (disk full, memory)
    {"58", ErrorKind::kEnvironment},         // system error (I/O)
};

}  // namespace

ErrorKind classify_sqlstate(const std::string& sqlstate) {
  const std::string_view state(sqlstate);
  for (const SqlstateKind& entry : kSqlstateKinds) {
    if (state.starts_with(entry.prefix)) return entry.kind;
  }
  return ErrorKind::kOther;
}

Status Status::from_sqlstate(std::string sqlstate, std::string message) {
  if (sqlstate.empty()) sqlstate = "08006";
  Status s;
  s.kind = classify_sqlstate(sqlstate);
  switch (s.kind) {  // the SQLite code of the same meaning, for callers that read codes
    case ErrorKind::kUniqueViolation: s.code = SQLITE_CONSTRAINT_UNIQUE; break;
    case ErrorKind::kConstraint: s.code = SQLITE_CONSTRAINT; break;
    case ErrorKind::kBusy: s.code = SQLITE_BUSY; break;
    case ErrorKind::kEnvironment: s.code = SQLITE_IOERR; break;
    default: s.code = SQLITE_ERROR; break;
  }
  s.sqlstate = std::move(sqlstate);
  s.message = std::move(message);
  return s;
}

std::string Status::to_string() const {
  if (ok()) return "ok";
  std::string out(sim::name_of(kind));
  if (!sqlstate.empty()) return out + " (SQLSTATE " + sqlstate + "): " + message;
  out += " (";
  out += sqlite3_errstr(code);
  out += ", code ";
  out += std::to_string(code);
  out += "): ";
  out += message;
  return out;
}

}  // namespace store

namespace sim {
template <>
std::span<const Named<store::ErrorKind>> enum_names<store::ErrorKind>() {
  return store::kErrorKindNames;
}
}  // namespace sim
