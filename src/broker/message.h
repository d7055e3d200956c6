#pragma once
// Value types shared by the model broker and its users (the lab wiring, the checker, the GUI).
//
// Invariants:
//  - A Message is the publisher's: the broker never sets nor deduplicates message_id (item 15).
//    The broker only writes the two header fields RabbitMQ writes: x_delivery_count (quorum
//    queues, item 9) and x_death (dead-lettering, item 12).
//  - x_death lists the newest event first; one entry per {queue, reason} with a count.
//  - A Message's dead-letter headers live out of line (DeathBox): absent until written,
//    and an absent box reads, compares and hashes as empty headers.
//  - ChannelRef orders by (conn, channel), so std::map<ChannelRef, ...> iterates a
//    connection's channels together and in a deterministic order.
// Item numbers refer to docs/amqp-semantics.md.

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/named.h"

namespace broker {

// One x-death entry, with RabbitMQ 3.10's fields (conformance row 6). A repeat of the same
// {queue, reason} only increments `count`: exchange, routing keys and time stay those of
// the first time.
struct XDeath {
  std::string queue;
  std::string reason;  // "rejected" | "delivery_limit" ("expired", "maxlen" are not modelled)
  int64_t count = 1;
  std::string exchange;                   // the exchange it had been published to; "" = default
  std::vector<std::string> routing_keys;  // the routing keys it had in that queue
  std::optional<uint64_t> time;  // when: the model's virtual time; a real broker's Unix time
  bool operator==(const XDeath&) const = default;
};

// The headers dead-lettering writes (item 12).
struct DeathHeaders {
  std::vector<XDeath> x_death;  // newest first
  // x-first-death-queue/-reason/-exchange: set at the first dead-lettering, then kept.
  std::string x_first_death_queue;
  std::string x_first_death_reason;
  std::string x_first_death_exchange;
  bool operator==(const DeathHeaders&) const = default;
};

// A message's DeathHeaders, held by one pointer that stays null until something writes
// them (a dead-lettering, or a real broker's headers decoded): almost no message is ever
// dead-lettered, and every message is moved and copied many times on its way.
// A value like the headers it holds: a copy copies them.
class DeathBox {
 public:
  DeathBox() = default;
  DeathBox(const DeathBox& other);
  DeathBox& operator=(const DeathBox& other);
  DeathBox(DeathBox&&) noexcept = default;
  DeathBox& operator=(DeathBox&&) noexcept = default;
  ~DeathBox() = default;

  const DeathHeaders& get() const;  // empty headers while none were written
  DeathHeaders& edit();             // allocates them at the first write
  bool operator==(const DeathBox& other) const { return get() == other.get(); }

 private:
  std::unique_ptr<DeathHeaders> headers_;
};

struct Message {
  std::string message_id;  // "" = none. The publisher's string; the broker never sets or dedups it.
  std::string body;
  bool persistent = true;  // delivery_mode 2
  int64_t order = 0;       // application header "order" (for traces / fault matching only)
  // Quorum queues: absent on the 1st delivery, 1 on the 2nd, ... (item 9).
  std::optional<int64_t> x_delivery_count;
  DeathBox deaths;  // x-death and x-first-death-* (item 12)
  bool operator==(const Message&) const = default;
};

using ConnId = uint64_t;
using ChannelId = uint16_t;

struct ChannelRef {
  ConnId conn = 0;
  ChannelId channel = 1;
  auto operator<=>(const ChannelRef&) const = default;
};

// The queue types a scenario may declare ([broker] queue); names in queue.cpp.
enum class QueueType { kClassic, kQuorum };

struct QueueOptions {
  std::string name;
  QueueType type = QueueType::kClassic;
  bool durable = true;         // REQUIRES: true for quorum queues (RabbitMQ refuses transient ones)
  int64_t delivery_limit = 0;  // quorum only, 0 = unlimited (item 10)
  std::string dead_letter_queue;  // "" = no DLX: dead-lettering discards (item 12)
  bool operator==(const QueueOptions&) const = default;
};

}  // namespace broker

namespace sim {
template <>
std::span<const Named<broker::QueueType>> enum_names<broker::QueueType>();
}  // namespace sim
