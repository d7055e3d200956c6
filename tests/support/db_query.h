#pragma once
// One whole number read with SQL (a count, a sum, a balance): the tests' way of looking at
// a table. Fails the test when the statement fails or returns no row.

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "src/store/db.h"

namespace test_support {

inline std::int64_t query_int(store::Db& db, std::string_view sql) {
  store::Stmt& st = db.statement(sql);
  bool row = false;
  const auto status = st.step(row);
  INFO(status.to_string());
  REQUIRE(status.ok());
  REQUIRE(row);
  const std::int64_t n = st.column_int64(0);
  st.reset();
  return n;
}

// The rows of `table` now.
inline std::int64_t count_rows(store::Db& db, const std::string& table) {
  return query_int(db, "SELECT count(*) FROM " + table);
}

}  // namespace test_support
