// The names a comparison heads its runs with (src/web/compare_page.h): a run under another
// consumer strategy than its file's is never headed by the file's strategy.

#include "src/web/compare_page.h"

#include <catch2/catch.hpp>

TEST_CASE("web: a run under another strategy is headed by its own", "[web][compare]") {
  // The file's own strategy: the name as it is.
  CHECK(web::run_name("crash between commit and ack (atomic)", "atomic", "atomic") ==
        "crash between commit and ack (atomic)");
  // The file's strategy in parentheses, hyphenated or spaced, gives way to the run's.
  CHECK(web::run_name("crash between commit and ack (atomic)", "atomic", "no-dedup") ==
        "crash between commit and ack (no-dedup)");
  CHECK(web::run_name("crash between commit and ack (no dedup)", "no-dedup", "atomic") ==
        "crash between commit and ack (atomic)");
  // Any other name, or parentheses that name something else, gain the run's strategy.
  CHECK(web::run_name("two consumers, check then act", "check-then-act", "atomic") ==
        "two consumers, check then act, consumer atomic");
  CHECK(web::run_name("separate dedup store (the Redis anti-pattern)", "separate-dedup-store",
                      "atomic") ==
        "separate dedup store (the Redis anti-pattern), consumer atomic");
}
