#pragma once
// src/orders: the order message, what the producer publishes and the consumer parses. One
// codec for both sides, so they cannot drift apart; it lives below both, so neither
// includes the other. Uses only the standard library.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace orders {

struct OrderMessage {
  std::int64_t order = 0;
  std::int64_t amount = 0;
  std::string account;
};

// "order=3;amount=150;account=alice"
std::string encode(const OrderMessage& message);
// The same from the parts, without building an OrderMessage (a copy of the account).
std::string encode(std::int64_t order, std::int64_t amount, std::string_view account);
// nullopt when the body is not an order message.
std::optional<OrderMessage> decode(const std::string& body);
// The message id fixed when the order (and its outbox row) is written: stable across
// republishes, so a consumer can recognise a duplicate.
std::string message_id_for(std::int64_t order);

}  // namespace orders
