#pragma once
// A database server's connection for tests of the store layer's remote seam
// (src/store/remote.h) whose tables are SQLite's: it takes SQLite's SQL as it is (no
// dialect) and runs each statement on an SQLite database, all rows at once, values as
// text (NULL as nullopt), as a server's connection answers. A test derives from it to
// make the "server" misbehave (refuse, break, stage nothing).

#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "src/store/db.h"
#include "src/store/remote.h"

namespace test_support {

class SqliteServer : public store::RemoteConn {
 public:
  explicit SqliteServer(const std::string& uri) { REQUIRE(store::Db::open(uri, db_).ok()); }

  store::Status run(const std::string& sql, const std::vector<store::Value>& params,
                    store::RemoteRows& out) override {
    store::Stmt& st = db_.statement(sql);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const int index = static_cast<int>(i) + 1;
      if (params[i]) {
        st.bind(index, *params[i]);
      } else {
        st.bind_null(index);
      }
    }
    out.rows.clear();
    bool row = false;
    store::Status s = st.step(row);
    for (; s.ok() && row; s = st.step(row)) {
      std::vector<store::Value>& values = out.rows.emplace_back();
      for (int c = 0; c < st.column_count(); ++c) {
        values.push_back(st.column_is_null(c) ? store::Value() : store::Value(st.column_text(c)));
      }
    }
    st.reset();
    out.changes = db_.changes();
    return s;
  }
  store::Status run_script(const std::string& sql) override { return db_.exec(sql); }
  bool in_transaction() const override { return db_.in_transaction(); }
  std::string dialect(std::string_view sqlite_sql) const override {
    return std::string(sqlite_sql);
  }

 private:
  store::Db db_;
};

}  // namespace test_support
