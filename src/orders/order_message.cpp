#include "src/orders/order_message.h"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace orders {

namespace {

// The characters of the longest 64-bit number, "-9223372036854775808".
constexpr std::size_t kDigits = 20;

// `value` in decimal at `out`, which has room for kDigits characters; returns the end.
// Out of line: one copy of the digit conversion serves every number of a body and an id,
// where each std::to_string put its own in line (a body was 4 KB of code).
[[gnu::noinline]] char* put_number(char* out, std::int64_t value) {
  return std::to_chars(out, out + kDigits, value).ptr;
}

char* put_text(char* out, std::string_view text) {
  return std::copy(text.begin(), text.end(), out);
}

}  // namespace

std::string encode(std::int64_t order, std::int64_t amount, std::string_view account) {
  // The part before the account built on the stack, then one allocation for the body.
  constexpr std::string_view kOrder = "order=";
  constexpr std::string_view kAmount = ";amount=";
  constexpr std::string_view kAccount = ";account=";
  char head[kOrder.size() + kAmount.size() + kAccount.size() + 2 * kDigits];
  char* end = put_number(put_text(head, kOrder), order);
  end = put_number(put_text(end, kAmount), amount);
  end = put_text(end, kAccount);
  std::string body;
  body.reserve(static_cast<std::size_t>(end - head) + account.size());
  body.append(head, end).append(account);
  return body;
}

std::string encode(const OrderMessage& m) { return encode(m.order, m.amount, m.account); }

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

std::string message_id_for(std::int64_t order) {
  constexpr std::string_view kPrefix = "order-";
  char id[kPrefix.size() + kDigits];
  return std::string(id, put_number(put_text(id, kPrefix), order));
}

}  // namespace orders
