// The separate dedup store's URL pointed at the fault proxy (src/live/redis_store.h,
// redis_via_proxy): only the host and port change - the user, password, database and the
// run's parameters (passfile, prefix, TTL) stay, and the result reads back to the same
// parts with the proxy's address.
#include <catch2/catch.hpp>

#include <string>

#include "src/live/redis_store.h"

TEST_CASE("redis url: through the proxy, only host and port change", "[redis-url]") {
  CHECK(live::redis_via_proxy("redis://127.0.0.1:6400?passfile=/r/pw&prefix=p:&ttl_ms=50", 5555) ==
        "redis://127.0.0.1:5555?passfile=/r/pw&prefix=p:&ttl_ms=50");
  CHECK(live::redis_via_proxy("redis://localhost", 5555) == "redis://127.0.0.1:5555");
  const std::string via = live::redis_via_proxy("redis://u:s@cret@db.example:6379/3?prefix=x:", 7);
  CHECK(via == "redis://u:s@cret@127.0.0.1:7/3?prefix=x:");
  live::RedisUrl u;
  REQUIRE(live::parse_redis_url(via, u).ok());
  CHECK(u.host == "127.0.0.1");
  CHECK(u.port == 7);
  CHECK(u.user == "u");
  CHECK(u.password == "s@cret");
  CHECK(u.db == 3);
  CHECK(u.prefix == "x:");
  CHECK(live::redis_via_proxy("postgres://h:1/db", 7) == "postgres://h:1/db");  // not Redis
}
