#pragma once
// store::Replay — plays what a store::Recorder recorded on connections and prepared
// statements of its own, with nothing else in the way: no scheduler, broker, trace, fault
// plan, checker logic, statement cache lookups or Status values. bench/ times it beside
// the sweep it recorded, so that "SQL only" means exactly the SQL those runs executed:
// the same statements with the same bindings, on as many connections, in the same order,
// with the same transactions, rollbacks after crashes and failed commits, redeliveries'
// duplicate inserts and busy answers.
//
// Invariants:
//   (1) compile() maps each recorded connection onto one of the replay's connections to
//       the same database, never onto one that another recorded connection holds at that
//       moment, and prepares every statement once; play() then only binds, steps, resets
//       and reads columns.
//   (2) A recorded close is played as a park is (warm.h): every statement of the
//       connection reset, an open transaction rolled back.
//   (3) play() checks each step's result code against the recorded one: a replay that
//       did different work says so (mismatches), it does not pass as the ceiling.
// REQUIRES: the recorded databases still exist when compile() runs (for the in-memory
//   ones: the WarmScope that recorded them is still alive) and hold the schema the
//   recording ended with; the record opens and closes each connection it uses (a sweep
//   does); one thread at a time.

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/store/recorder.h"
#include "src/store/status.h"

namespace store {

class Replay {
 public:
  Replay() = default;
  ~Replay();
  Replay(const Replay&) = delete;
  Replay& operator=(const Replay&) = delete;

  // Opens the connections and prepares the statements for `record`, which the Replay
  // copies. An error names what could not be opened or prepared.
  Status compile(const Recorder& record);

  // Plays every recorded call once. Returns how many steps returned another code than
  // recorded (0: the same work).
  std::uint64_t play();

  std::size_t connections() const { return conns_.size(); }
  std::size_t calls() const { return ops_.size(); }

 private:
  struct Conn {
    sqlite3* handle = nullptr;
    std::vector<sqlite3_stmt*> by_text;   // prepared statement per recorded text, or null
    std::vector<sqlite3_stmt*> prepared;  // every one of them, for a close
  };
  struct Op {
    Recorder::Kind kind;
    std::int32_t index;
    std::int32_t result;
    Conn* conn;
    sqlite3_stmt* stmt;
    std::int64_t value;
    const std::string* text;  // kExec: the script; kBindText: the value
  };

  Status open(const std::string& uri, Conn*& out);
  Status statement(Conn& conn, std::int32_t text, sqlite3_stmt*& out);
  void close(Conn& conn);

  std::vector<std::string> texts_;
  std::vector<std::unique_ptr<Conn>> conns_;
  std::vector<Op> ops_;
  std::uint64_t sink_ = 0;  // column bytes read, so the reads are not optimised away
};

}  // namespace store
