#include "src/orders/order_message.h"

#include <charconv>
#include <string_view>

namespace orders {

std::string encode(const OrderMessage& m) {
  // Appended into one buffer sized up front: one allocation, where a chain of operator+
  // grew the string (and allocated again) on the way.
  constexpr std::size_t kTextAndDigits = 64;  // the keys and two 64-bit numbers, signed
  std::string body;
  body.reserve(kTextAndDigits + m.account.size());
  body.append("order=").append(std::to_string(m.order));
  body.append(";amount=").append(std::to_string(m.amount));
  body.append(";account=").append(m.account);
  return body;
}

namespace {

bool take_int(std::string_view& rest, std::string_view key, std::int64_t& out) {
  if (rest.substr(0, key.size()) != key) return false;
  rest.remove_prefix(key.size());
  const auto end = rest.find(';');
  const std::string_view digits = rest.substr(0, end);
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), out);
  if (ec != std::errc() || ptr != digits.data() + digits.size() || end == std::string_view::npos) {
    return false;
  }
  rest.remove_prefix(end + 1);
  return true;
}

}  // namespace

std::optional<OrderMessage> decode(const std::string& body) {
  std::string_view rest(body);
  OrderMessage m;
  if (!take_int(rest, "order=", m.order) || !take_int(rest, "amount=", m.amount)) {
    return std::nullopt;
  }
  constexpr std::string_view kAccount = "account=";
  if (rest.substr(0, kAccount.size()) != kAccount) return std::nullopt;
  m.account = std::string(rest.substr(kAccount.size()));
  return m;
}

std::string message_id_for(std::int64_t order) { return "order-" + std::to_string(order); }

}  // namespace orders
