// The order message's text: numbers of any size and sign are written whole, in both the
// body and the message id (each number goes through one fixed-size buffer).

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

#include "src/orders/order_message.h"

TEST_CASE("order message: the widest numbers of both signs are written whole", "[orders]") {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  const std::string body = orders::encode({kMin, kMax, "a long account name, past any SSO"});
  CHECK(body ==
        "order=-9223372036854775808;amount=9223372036854775807;account=a long account name, "
        "past any SSO");
  CHECK(orders::encode(kMin, kMax, "a long account name, past any SSO") == body);
  const auto m = orders::decode(body);
  REQUIRE(m);
  CHECK(m->order == kMin);
  CHECK(m->amount == kMax);
  CHECK(orders::encode({0, -1, ""}) == "order=0;amount=-1;account=");
  CHECK(orders::message_id_for(kMin) == "order--9223372036854775808");
  CHECK(orders::message_id_for(kMax) == "order-9223372036854775807");
  CHECK(orders::message_id_for(0) == "order-0");
}
