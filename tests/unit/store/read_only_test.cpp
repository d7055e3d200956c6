// Tests for src/store/read_only.h and the statement cache's use of it (db.cpp).
#include <unistd.h>
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <string>

#include "src/store/db.h"
#include "src/store/read_only.h"

namespace {

char g_writable[] = "SELECT 1";  // writable data, not read only

store::Db open_memdb(const std::string& tag) {
  store::Db db;
  const store::Status s = store::Db::open(
      "file:/eosim_read_only_" + tag + "_" + std::to_string(getpid()) + "?vfs=memdb", db);
  INFO(s.to_string());
  REQUIRE(s.ok());
  return db;
}

}  // namespace

TEST_CASE("read_only_text: literals are read only, buffers are not", "[store]") {
  CHECK(store::read_only_text("SELECT 1"));
  static constexpr std::array<char, 4> kConstant{'a', 'b', 'c', '\0'};
  CHECK(store::read_only_text(std::string_view(kConstant.data(), 3)));
  const std::string heap(100, 'x');  // beyond the small-string buffer: on the heap
  CHECK_FALSE(store::read_only_text(heap));
  const std::string small = "SELECT 1";  // in the string object, on the stack
  CHECK_FALSE(store::read_only_text(small));
  std::array<char, 8> stack{'S', 'E', 'L', 'E', 'C', 'T', ' ', '1'};
  CHECK_FALSE(store::read_only_text(std::string_view(stack.data(), stack.size())));
  CHECK_FALSE(store::read_only_text(std::string_view(g_writable, 8)));
  CHECK_FALSE(store::read_only_text(std::string_view()));
}

// The statement cache skips the comparison of the text only for read-only texts: a heap
// buffer that holds another text of the same size at the same address must still get that
// text's statement (the small-string case is in store_test.cpp).
TEST_CASE("a reused heap SQL buffer with another text gets that text's statement", "[store]") {
  store::Db db = open_memdb("heap");
  auto sql = std::make_unique<std::string>("SELECT 1 AS a_column_name_long_enough_for_the_heap");
  REQUIRE(!store::read_only_text(*sql));
  store::Stmt& one = db.statement(*sql);
  CHECK(&db.statement(*sql) == &one);  // a hit of the address cache
  (*sql)[7] = '2';                     // same buffer, same size, another text
  store::Stmt& two = db.statement(*sql);
  CHECK(&two != &one);
  bool has_row = false;
  REQUIRE(two.step(has_row).ok());
  REQUIRE(has_row);
  CHECK(two.column_int64(0) == 2);
  two.reset();
  // A literal is found again by its address alone: the same statement each time.
  store::Stmt& literal = db.statement("SELECT 3");
  CHECK(&db.statement("SELECT 3") == &literal);
  REQUIRE(literal.step(has_row).ok());
  CHECK(literal.column_int64(0) == 3);
}
