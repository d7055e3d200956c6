#pragma once
// One AMQP 0-9-1 connection to a real broker with one channel (channel 1), over rabbitmq-c
// (librabbitmq, Debian's librabbitmq-dev). It speaks the model broker's value types
// (broker::Message, broker::Delivery, ...), so what a real broker does can be compared
// with what the model does, field by field.
//
// Contract:
//  - Every method returns a Status. A channel error from the broker (404, 406, ...) comes
//    back as an error with reply_code set; the channel is then closed (close-ok sent) and
//    channel_open() is false until reopen_channel(). A connection error or a lost socket
//    makes connected() false for good.
//  - Methods with a reply (declare, qos, consume, cancel, confirm_select) wait for it.
//    Frames that arrive meanwhile (deliveries, confirms) are kept, in order, for poll().
//  - poll() returns at most one event, waiting up to timeout_ms; it also answers the
//    broker's heartbeats. A client nobody polls sends no heartbeats: that is how a test
//    makes a silent peer.
//  - Acks and publishes on a closed channel are refused locally (error, nothing sent), as
//    a client library does: a late ack after the broker closed the channel fails.
//  - In confirm mode a basic.return carries the seq of the publish it returns (AMQP's
//    frame has none): the earliest unconfirmed publish with the same routing key,
//    message id and order. RabbitMQ sends the return before that publish's ack, so a
//    publisher can tell "acked but unroutable" (never enqueued) from "enqueued".
// Not thread-safe: one thread per client.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "src/broker/message.h"
#include "src/broker/output.h"
#include "src/live/endpoint.h"
#include "src/live/status.h"

struct amqp_connection_state_t_;

namespace live {

// The connection ended: `code` 320 (CONNECTION_FORCED, a broker shutting down cleanly) or
// another connection.close code; 0 when the socket just died (reset, EOF, heartbeat).
struct ConnectionLost {
  int code = 0;
  std::string text;
};

using Event = std::variant<broker::Delivery, broker::Confirm, broker::Returned,
                           broker::ChannelClosed, ConnectionLost>;

// What the broker said it is in connection.start ("RabbitMQ", "3.10.8"); "" when it did
// not say.
struct ServerInfo {
  std::string product;
  std::string version;
};

struct ClientOptions {
  int heartbeat_s = 0;  // 0 = no heartbeats (the broker never notices a silent client)
};

class AmqpClient {
 public:
  static Status connect(const Endpoint& endpoint, const ClientOptions& options,
                        std::unique_ptr<AmqpClient>& out);
  ~AmqpClient();  // a clean connection.close if still connected
  AmqpClient(const AmqpClient&) = delete;
  AmqpClient& operator=(const AmqpClient&) = delete;

  bool connected() const { return conn_ != nullptr && !lost_; }
  bool channel_open() const { return connected() && channel_open_; }
  const ServerInfo& server() const { return server_; }
  // This end's TCP port (0 if unknown): with a delivery tag it names one delivery for a
  // proxy in between, which sees the same port as the client's.
  int local_port() const { return local_port_; }

  // x-queue-type, x-delivery-limit and x-dead-letter-exchange ("") with
  // x-dead-letter-routing-key from the options.
  Status declare_queue(const broker::QueueOptions& options);
  // Passive declare: the queue's ready messages. A missing queue is error 404.
  Status ready_count(const std::string& queue, std::uint32_t& ready);
  // The same, with the queue's consumers.
  Status queue_counts(const std::string& queue, std::uint32_t& ready, std::uint32_t& consumers);
  Status delete_queue(const std::string& queue);
  Status qos(std::uint16_t prefetch);
  Status confirm_select();
  Status consume(const std::string& queue, const std::string& consumer_tag, bool auto_ack);
  Status cancel(const std::string& consumer_tag);
  Status reopen_channel();

  // Publishes `message` (message_id, delivery_mode, header "order", body). `seq` is the
  // publish seq in confirm mode (from 1), else 0.
  Status publish(const std::string& exchange, const std::string& routing_key,
                 const broker::Message& message, bool mandatory, std::uint64_t& seq);
  Status ack(std::uint64_t tag, bool multiple);
  Status nack(std::uint64_t tag, bool multiple, bool requeue);
  Status reject(std::uint64_t tag, bool requeue);

  // The next event, or nullopt if none came within timeout_ms.
  std::optional<Event> poll(int timeout_ms);

  void close();  // connection.close and its close-ok
  void reset();  // drop the TCP connection with a RST, sending nothing first

 private:
  AmqpClient() = default;
  Status check_reply(const char* what);
  Status guard(const char* what) const;
  Status sent(int status, const char* what);
  std::optional<Event> read_event(const void* frame);
  std::uint64_t returned_seq(const std::string& routing_key, const broker::Message& m) const;
  void settle(std::uint64_t seq, bool multiple);
  void mark_lost();
  void read_server_properties();

  // A confirm-mode publish not yet acked or nacked: what a basic.return is matched on.
  struct Unconfirmed {
    std::string routing_key;
    std::string message_id;
    std::int64_t order = 0;
  };

  amqp_connection_state_t_* conn_ = nullptr;
  ServerInfo server_;
  int local_port_ = 0;
  bool lost_ = false;
  bool channel_open_ = false;
  bool confirm_mode_ = false;
  std::uint64_t publish_seq_ = 0;
  std::map<std::uint64_t, Unconfirmed> unconfirmed_;  // by publish seq
};

}  // namespace live
