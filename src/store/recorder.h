#pragma once
// store::Recorder — every call a run makes into SQLite through this layer, in order, so
// that bench/ can replay exactly the same SQL on warm prepared connections (replay.h) and
// measure what a sweep would cost with nothing but SQLite in it.
//
// What is recorded: each Db open and close (a close parks or closes the connection, so it
// resets every statement and rolls back an open transaction: a crash), each script run by
// Db::exec, each statement fetch (reset + clear bindings), binding, step (with the result
// code SQLite returned), reset and column read. BEGIN / COMMIT / ROLLBACK are statements
// like any other. An injected fault runs nothing in SQLite, so it records nothing: a
// failed commit shows as the ROLLBACK that follows it.
//
// Invariants:
//   (1) Recording never changes what a run does or returns: it only appends to calls_.
//   (2) Each open gets a new connection number, so a parked connection taken back by the
//       next run is a new connection in the record (the replay decides which of its own
//       connections plays it).
//   (3) Texts (URIs, SQL, bound strings) are stored once and referred to by index.
// REQUIRES: while a Recorder is installed, only one thread uses the store (the benchmark
//   records a sweep with --jobs 1); install and uninstall with no Db in use.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace store {

class Recorder {
 public:
  enum class Kind : std::uint8_t {
    kOpen,        // text: the URI or path as opened
    kClose,       // statements reset, an open transaction rolled back
    kExec,        // text: the script; result: its code
    kFetch,       // text: the SQL; the statement is reset and its bindings cleared
    kBindInt,     // text: the SQL; index, value
    kBindText,    // text: the SQL; index; value: the bound text's index
    kBindNull,    // text: the SQL; index
    kStep,        // text: the SQL; result: SQLITE_ROW, SQLITE_DONE or an error
    kReset,       // text: the SQL
    kColumnInt,   // text: the SQL; index
    kColumnText,  // text: the SQL; index
    kColumnType,  // text: the SQL; index
  };
  struct Call {
    Kind kind;
    std::int32_t conn;   // the connection's number (invariant 2)
    std::int32_t text;   // index into texts()
    std::int32_t index;  // bind or column index (1-based / 0-based, as SQLite's API)
    std::int32_t result; // kStep, kExec: the code SQLite returned
    std::int64_t value;  // kBindInt: the value; kBindText: the text's index
  };

  // Makes `recorder` the process's recorder (nullptr: none). Returns the previous one.
  static Recorder* install(Recorder* recorder);
  // The installed recorder, or nullptr (what the store's hot paths test).
  static Recorder* current();

  const std::vector<Call>& calls() const { return calls_; }
  const std::vector<std::string>& texts() const { return texts_; }
  // The number of `kind` calls recorded.
  std::size_t count(Kind kind) const;

  // Called by the store layer (db.cpp, stmt.cpp, warm.cpp).
  std::int32_t open(std::string_view uri);
  void add(Kind kind, std::int32_t conn, std::string_view text, std::int32_t index = 0,
           std::int32_t result = 0, std::int64_t value = 0);
  void bind_text(std::int32_t conn, std::string_view sql, std::int32_t index,
                 std::string_view value);

 private:
  std::int32_t intern(std::string_view text);

  std::vector<Call> calls_;
  std::vector<std::string> texts_;
  std::map<std::string, std::int32_t, std::less<>> text_ids_;
  std::int32_t next_conn_ = 0;
};

// The installed recorder when connection `conn` is being recorded (conn >= 0), else
// nullptr: `if (Recorder* r = recording(n)) r->add(...)`.
// The connection's number first: an unrecorded connection (every one outside the
// benchmark) costs one comparison, not a call.
inline Recorder* recording(std::int32_t conn) {
  return conn >= 0 ? Recorder::current() : nullptr;
}

}  // namespace store
