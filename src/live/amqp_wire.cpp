#include "src/live/amqp_wire.h"

#include <amqp.h>

#include <map>

#include "src/live/amqp_fields.h"

namespace live {

namespace {

constexpr std::size_t kFrameOverheadBytes = 8;     // type, channel, size, ..., frame-end
constexpr std::uint32_t kFrameSizeMax = 1u << 24;  // far above any frame_max a broker offers
constexpr std::uint8_t kMethodFrame = 1;
constexpr std::uint8_t kHeaderFrame = 2;
constexpr std::uint8_t kBodyFrame = 3;
constexpr std::uint8_t kHeartbeatFrame = 8;
constexpr std::uint8_t kFrameEnd = 0xCE;
constexpr std::size_t kHeaderFixedBytes = 12;  // class, weight, body size; then properties

std::uint16_t be16(const std::uint8_t* p) { return static_cast<std::uint16_t>((p[0] << 8) | p[1]); }
std::uint32_t be32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}
std::uint64_t be64(const std::uint8_t* p) { return (std::uint64_t{be32(p)} << 32) | be32(p + 4); }

// The frame at `pos`: its length with overhead, 0 while incomplete, kNotAmqp if malformed.
std::size_t frame_length(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  if (size - pos < kFrameOverheadBytes) return 0;
  const std::uint32_t payload = be32(data + pos + 3);
  if (payload > kFrameSizeMax) return kNotAmqp;
  const std::size_t total = payload + kFrameOverheadBytes;
  if (size - pos < total) return 0;
  if (data[pos + total - 1] != kFrameEnd) return kNotAmqp;
  return total;
}

bool has_content(const MethodId& m) {
  // basic.publish, basic.return, basic.deliver, basic.get-ok
  return m.class_id == 60 &&
         (m.method_id == 40 || m.method_id == 50 || m.method_id == 60 || m.method_id == 71);
}

amqp_bytes_t bytes_of(const std::uint8_t* p, std::size_t n) {
  amqp_bytes_t b;
  b.len = n;
  b.bytes = const_cast<std::uint8_t*>(p);
  return b;
}

// The delivery tag a decoded method carries (0 for the others).
std::uint64_t tag_of(amqp_method_number_t number, void* decoded) {
  switch (number) {
    case AMQP_BASIC_DELIVER_METHOD:
      return static_cast<amqp_basic_deliver_t*>(decoded)->delivery_tag;
    case AMQP_BASIC_ACK_METHOD: return static_cast<amqp_basic_ack_t*>(decoded)->delivery_tag;
    case AMQP_BASIC_NACK_METHOD: return static_cast<amqp_basic_nack_t*>(decoded)->delivery_tag;
    case AMQP_BASIC_REJECT_METHOD: return static_cast<amqp_basic_reject_t*>(decoded)->delivery_tag;
    default: return 0;
  }
}

bool settles_many(amqp_method_number_t number, void* decoded) {
  if (number == AMQP_BASIC_ACK_METHOD) {
    return static_cast<amqp_basic_ack_t*>(decoded)->multiple != 0;
  }
  if (number == AMQP_BASIC_NACK_METHOD) {
    return static_cast<amqp_basic_nack_t*>(decoded)->multiple != 0;
  }
  return false;
}

bool consumes_without_acks(amqp_method_number_t number, void* decoded) {
  return number == AMQP_BASIC_CONSUME_METHOD &&
         static_cast<amqp_basic_consume_t*>(decoded)->no_ack != 0;
}

}  // namespace

bool method_by_name(const std::string& name, MethodId& out) {
  static const std::map<std::string, MethodId> kMethods = {
      {"connection.close", {10, 50}}, {"channel.close", {20, 40}}, {"queue.declare", {50, 10}},
      {"basic.qos", {60, 10}},        {"basic.consume", {60, 20}}, {"basic.cancel", {60, 30}},
      {"basic.publish", {60, 40}},    {"basic.return", {60, 50}},  {"basic.deliver", {60, 60}},
      {"basic.ack", {60, 80}},        {"basic.reject", {60, 90}},  {"basic.nack", {60, 120}},
      {"confirm.select", {85, 10}},
  };
  const auto it = kMethods.find(name);
  if (it == kMethods.end()) return false;
  out = it->second;
  return true;
}

std::size_t command_end(const std::uint8_t* data, std::size_t size, std::size_t pos) {
  const std::size_t first = frame_length(data, size, pos);
  if (first == 0 || first == kNotAmqp) return first;
  const std::uint32_t payload = be32(data + pos + 3);
  if (data[pos] != kMethodFrame || payload < 4 ||
      !has_content({be16(data + pos + 7), be16(data + pos + 9)})) {
    return pos + first;
  }
  // The content header, then body frames until the header's body size is there.
  std::size_t at = pos + first;
  bool header_seen = false;
  std::uint64_t body_left = 0;
  while (!header_seen || body_left > 0) {
    const std::size_t n = frame_length(data, size, at);
    if (n == 0 || n == kNotAmqp) return n;
    const std::uint8_t type = data[at];
    const std::size_t length = be32(data + at + 3);
    if (type == kHeaderFrame && !header_seen) {
      if (length < kHeaderFixedBytes) return kNotAmqp;
      header_seen = true;
      body_left = be64(data + at + 7 + 4);
    } else if (type == kBodyFrame && header_seen) {
      if (length > body_left) return kNotAmqp;
      body_left -= length;
    } else if (type != kHeartbeatFrame) {
      return kNotAmqp;  // another command inside a content sequence: not what we forward
    }
    at += n;
  }
  return at;
}

bool read_command(const std::uint8_t* data, std::size_t size, SeenFrame& out) {
  if (size < kFrameOverheadBytes + 4 || data[0] != kMethodFrame) return false;
  const std::size_t payload = be32(data + 3);
  out.method = {be16(data + 7), be16(data + 9)};
  out.order = 0;
  out.delivery_tag = 0;
  out.multiple = false;
  out.no_ack = false;
  const auto number = static_cast<amqp_method_number_t>((std::uint32_t{out.method.class_id} << 16) |
                                                        out.method.method_id);
  amqp_pool_t pool;
  init_amqp_pool(&pool, 4096);
  void* decoded = nullptr;
  if (amqp_decode_method(number, &pool, bytes_of(data + 11, payload - 4), &decoded) == 0) {
    out.delivery_tag = tag_of(number, decoded);
    out.multiple = settles_many(number, decoded);
    out.no_ack = consumes_without_acks(number, decoded);
  }
  // The content header, if any: the first header frame after the method.
  for (std::size_t at = payload + kFrameOverheadBytes; at + kFrameOverheadBytes <= size;) {
    const std::size_t length = be32(data + at + 3);
    if (data[at] == kHeaderFrame && length >= kHeaderFixedBytes) {
      void* properties = nullptr;
      const std::uint8_t* p = data + at + 7;
      if (amqp_decode_properties(be16(p), &pool,
                                 bytes_of(p + kHeaderFixedBytes, length - kHeaderFixedBytes),
                                 &properties) == 0 &&
          be16(p) == 60) {
        const auto* basic = static_cast<const amqp_basic_properties_t*>(properties);
        out.order = decode_message(*basic, amqp_empty_bytes).order;
      }
      break;
    }
    at += length + kFrameOverheadBytes;
  }
  empty_amqp_pool(&pool);
  return true;
}

}  // namespace live
