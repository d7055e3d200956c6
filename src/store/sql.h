#pragma once
// store::Sql — the text of a statement a program runs again and again, with a number of
// its own: Db::statement(const Sql&) finds the connection's prepared statement by the
// number (one read of a table the connection keeps), where Db::statement(text) hashes the
// text's address and compares. Defined once, at namespace scope, beside its callers:
//   const store::Sql kMarkSent{"UPDATE outbox SET sent = 1 WHERE id = ?1"};
//
// Invariants:
//   (1) Each Sql of the program has its own number, below kNumbered, taken when it is
//       constructed (static initialization: no two threads race for one); those beyond
//       kNumbered get kUnnumbered, and their statements are found by text.
//   (2) The number is only a matter of speed: the statement found by it is the one the
//       text would find (same SQL, same connection), so what runs, what a Recorder
//       records and every result are the same.
// REQUIRES: the text outlives the Sql (a literal).

#include <cstdint>
#include <string_view>

namespace store {

class Sql {
 public:
  // The size of each connection's table of numbered statements.
  static constexpr std::uint32_t kNumbered = 48;
  static constexpr std::uint32_t kUnnumbered = kNumbered;

  explicit Sql(std::string_view text) noexcept;
  Sql(const Sql&) = delete;
  Sql& operator=(const Sql&) = delete;

  std::string_view text() const { return text_; }
  std::uint32_t number() const { return number_; }

 private:
  std::string_view text_;
  std::uint32_t number_;
};

}  // namespace store
