// The fault proxy's reading of AMQP bytes (src/live/amqp_wire.h), on frames built with
// rabbitmq-c's own encoders: where a command ends, and the order and delivery tag a rule
// matches. No broker needed.
#include <amqp.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "src/live/amqp_wire.h"

namespace {

using Bytes = std::vector<std::uint8_t>;

void put16(Bytes& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.push_back(static_cast<std::uint8_t>(v));
}
void put32(Bytes& b, std::uint32_t v) {
  put16(b, static_cast<std::uint16_t>(v >> 16));
  put16(b, static_cast<std::uint16_t>(v));
}
void put64(Bytes& b, std::uint64_t v) {
  put32(b, static_cast<std::uint32_t>(v >> 32));
  put32(b, static_cast<std::uint32_t>(v));
}

void frame(Bytes& out, std::uint8_t type, const Bytes& payload) {
  out.push_back(type);
  put16(out, 1);  // channel
  put32(out, static_cast<std::uint32_t>(payload.size()));
  out.insert(out.end(), payload.begin(), payload.end());
  out.push_back(0xCE);
}

void method(Bytes& out, amqp_method_number_t number, void* decoded) {
  std::vector<std::uint8_t> buffer(512);
  amqp_bytes_t encoded{buffer.size(), buffer.data()};
  const int n = amqp_encode_method(number, decoded, encoded);
  REQUIRE(n >= 0);
  Bytes payload;
  put32(payload, number);
  payload.insert(payload.end(), buffer.begin(), buffer.begin() + n);
  frame(out, 1, payload);
}

// basic.deliver of a message with header order = `order`, body `body`, its body split in
// two frames with a heartbeat between them.
Bytes delivery(std::uint64_t tag, std::int64_t order, const std::string& body) {
  Bytes out;
  amqp_basic_deliver_t d{};
  d.consumer_tag = amqp_cstring_bytes("c1");
  d.delivery_tag = tag;
  d.routing_key = amqp_cstring_bytes("orders");
  method(out, AMQP_BASIC_DELIVER_METHOD, &d);

  amqp_table_entry_t entry{};
  entry.key = amqp_cstring_bytes("order");
  entry.value.kind = AMQP_FIELD_KIND_I64;
  entry.value.value.i64 = order;
  amqp_basic_properties_t p{};
  p._flags = AMQP_BASIC_HEADERS_FLAG | AMQP_BASIC_MESSAGE_ID_FLAG;
  p.headers.num_entries = 1;
  p.headers.entries = &entry;
  p.message_id = amqp_cstring_bytes("m-7");
  std::vector<std::uint8_t> buffer(512);
  const int n = amqp_encode_properties(60, &p, amqp_bytes_t{buffer.size(), buffer.data()});
  REQUIRE(n >= 0);
  Bytes header;
  put16(header, 60);
  put16(header, 0);
  put64(header, body.size());
  header.insert(header.end(), buffer.begin(), buffer.begin() + n);
  frame(out, 2, header);
  const std::size_t half = body.size() / 2;
  frame(out, 3, Bytes(body.begin(), body.begin() + static_cast<long>(half)));
  out.insert(out.end(), {8, 0, 0, 0, 0, 0, 0, 0xCE});  // a heartbeat
  frame(out, 3, Bytes(body.begin() + static_cast<long>(half), body.end()));
  return out;
}

Bytes ack(std::uint64_t tag) {
  Bytes out;
  amqp_basic_ack_t a{};
  a.delivery_tag = tag;
  method(out, AMQP_BASIC_ACK_METHOD, &a);
  return out;
}

}  // namespace

TEST_CASE("a delivery is one command: method, header and every body frame", "[proxy]") {
  const Bytes d = delivery(9, 42, "debit 150");
  Bytes stream = d;
  const Bytes next = ack(9);
  stream.insert(stream.end(), next.begin(), next.end());
  CHECK(live::command_end(stream.data(), stream.size(), 0) == d.size());
  CHECK(live::command_end(stream.data(), stream.size(), d.size()) == stream.size());
  // Any prefix of the delivery is incomplete, never a shorter command.
  for (std::size_t cut = 0; cut < d.size(); ++cut) {
    INFO(cut);
    CHECK(live::command_end(d.data(), cut, 0) == 0);
  }
}

TEST_CASE("the order comes from the message's header, the tag from the method", "[proxy]") {
  const Bytes d = delivery(9, 42, "debit 150");
  live::SeenFrame seen;
  REQUIRE(live::read_command(d.data(), d.size(), seen));
  CHECK(seen.method == live::MethodId{60, 60});
  CHECK(seen.order == 42);
  CHECK(seen.delivery_tag == 9);

  const Bytes a = ack(9);
  live::SeenFrame acked;
  REQUIRE(live::read_command(a.data(), a.size(), acked));
  CHECK(acked.method == live::MethodId{60, 80});
  CHECK(acked.order == 0);
  CHECK(acked.delivery_tag == 9);
}

TEST_CASE("basic.consume says whether the broker settles each delivery itself", "[proxy]") {
  for (const bool no_ack : {false, true}) {
    Bytes c;
    amqp_basic_consume_t consume{};
    consume.queue = amqp_cstring_bytes("orders");
    consume.consumer_tag = amqp_cstring_bytes("c1");
    consume.no_ack = no_ack ? 1 : 0;
    consume.arguments = amqp_empty_table;
    method(c, AMQP_BASIC_CONSUME_METHOD, &consume);
    live::SeenFrame seen;
    seen.no_ack = !no_ack;  // read_command sets it either way
    REQUIRE(live::read_command(c.data(), c.size(), seen));
    CHECK(seen.method == live::MethodId{60, 20});
    CHECK(seen.no_ack == no_ack);
  }
}

TEST_CASE("bytes that are not AMQP frames are said so", "[proxy]") {
  Bytes junk = ack(1);
  junk.back() = 0x00;  // no frame-end octet
  CHECK(live::command_end(junk.data(), junk.size(), 0) == live::kNotAmqp);
  const Bytes heartbeat = {8, 0, 0, 0, 0, 0, 0, 0xCE};
  CHECK(live::command_end(heartbeat.data(), heartbeat.size(), 0) == heartbeat.size());
  live::SeenFrame seen;
  CHECK_FALSE(live::read_command(heartbeat.data(), heartbeat.size(), seen));
}
