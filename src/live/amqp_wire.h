#pragma once
// AMQP 0-9-1 as bytes on the wire, as far as the fault proxy needs it: where a command
// ends, and what a rule can match in it (method, the message's "order" header, the
// delivery tag). A frame is type(1) channel(2) size(4) payload(size) 0xCE; a command is a
// method frame, and for basic.publish / basic.return / basic.deliver / basic.get-ok its
// content header frame and body frames (heartbeats may come between them).
//
// Invariants:
//  (1) command_end never reads past `size` and never returns a position <= `pos` other
//      than 0 (incomplete) or kNotAmqp.
//  (2) read_command decodes with rabbitmq-c's own decoders; a frame it cannot decode is
//      seen with its method and nothing else (order 0, tag 0), never an error.

#include <cstddef>
#include <cstdint>
#include <string>

namespace live {

enum class Direction { kClientToBroker, kBrokerToClient };

// A method by AMQP class and method id, e.g. basic.ack = {60, 80}.
struct MethodId {
  std::uint16_t class_id = 0;
  std::uint16_t method_id = 0;
  bool operator==(const MethodId&) const = default;
};

// "basic.ack", "basic.deliver", "basic.publish", "basic.nack", "basic.reject",
// "basic.consume", "confirm.select", "queue.declare", "channel.close", "connection.close"
// (and a few more) to ids; false for a name it does not know.
bool method_by_name(const std::string& name, MethodId& out);

// One method frame passing the proxy, with what a fault rule can match on.
struct SeenFrame {
  int listener = 0;              // which of the proxy's ports the client came in on
  std::uint64_t connection = 0;  // the proxy's id of the client's connection, from 1
  // The client's own port on that connection: what the client knows of it too (its local
  // port), so both ends can name one delivery by (port, delivery tag).
  std::uint16_t client_port = 0;
  Direction direction = Direction::kClientToBroker;
  MethodId method;
  std::int64_t order = 0;          // the message's "order" header (0: none, no content)
  std::uint64_t delivery_tag = 0;  // basic.deliver, .ack, .nack, .reject (0 otherwise)
  bool multiple = false;           // basic.ack, .nack: every tag up to delivery_tag
  bool no_ack = false;             // basic.consume: the broker settles each delivery itself
};

inline constexpr std::size_t kProtocolHeaderBytes = 8;  // "AMQP" 0 0 9 1, client side only
inline constexpr std::size_t kNotAmqp = static_cast<std::size_t>(-1);

// Where the command starting at `pos` ends (one past its last byte): 0 while it is not
// all there yet, kNotAmqp when the bytes cannot be AMQP frames.
std::size_t command_end(const std::uint8_t* data, std::size_t size, std::size_t pos);

// The command in [data, data + size) (as command_end delimits it): false if it does not
// start with a method frame (a heartbeat); else its method, order and delivery tag.
bool read_command(const std::uint8_t* data, std::size_t size, SeenFrame& out);

}  // namespace live
