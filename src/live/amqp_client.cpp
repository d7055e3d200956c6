#include "src/live/amqp_client.h"

#include <amqp.h>
#include <amqp_tcp_socket.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <poll.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <cerrno>
#include <cstring>

#include "src/live/amqp_fields.h"

namespace live {

namespace {

constexpr amqp_channel_t kChannel = 1;

std::string library_error(int status) { return amqp_error_string2(status); }

// Why a TCP connection to `e` fails ("Connection refused", "No route to host", "timed out
// after 5 s"), or "" when it does not fail (or the host cannot be resolved, which says so
// itself): one connect of our own, bounded by `timeout_ms`.
std::string socket_reason(const Endpoint& e, int timeout_ms) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int resolved = ::getaddrinfo(e.host.c_str(), std::to_string(e.port).c_str(), &hints, &found);
  if (resolved != 0) return std::string("cannot resolve ") + e.host + ": " + ::gai_strerror(resolved);
  std::string reason;
  const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
    int error = errno;
    if (error == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      socklen_t length = sizeof error;
      error = ::poll(&p, 1, timeout_ms) == 1 &&
                      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0
                  ? error
                  : ETIMEDOUT;
    }
    if (error != 0) reason = std::strerror(error);
  }
  if (fd >= 0) ::close(fd);
  ::freeaddrinfo(found);
  return reason;
}

// What the broker (or the socket) said when a connection attempt failed: the AMQP reply
// code and text of its connection.close ("403 ACCESS_REFUSED - Login was refused ...",
// "530 NOT_ALLOWED - vhost ... not found"), or the library's socket error.
Status login_error(const amqp_rpc_reply_t& reply, const std::string& what) {
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION) {
    return Status::error(what + ": " + library_error(reply.library_error));
  }
  if (reply.reply_type == AMQP_RESPONSE_SERVER_EXCEPTION &&
      reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
    const auto* m = static_cast<amqp_connection_close_t*>(reply.reply.decoded);
    return Status::error(what + ": " + std::to_string(m->reply_code) + " " + to_string(m->reply_text),
                         m->reply_code);
  }
  return Status::error(what + ": no answer the client understood");
}

}  // namespace

Status AmqpClient::connect(const Endpoint& endpoint, const ClientOptions& options,
                           std::unique_ptr<AmqpClient>& out) {
  std::unique_ptr<AmqpClient> client(new AmqpClient());
  client->conn_ = amqp_new_connection();
  amqp_socket_t* socket = amqp_tcp_socket_new(client->conn_);
  if (socket == nullptr) return Status::error("rabbitmq-c: cannot create a socket");
  timeval timeout{5, 0};
  const int rc = amqp_socket_open_noblock(socket, endpoint.host.c_str(), endpoint.port, &timeout);
  if (rc != AMQP_STATUS_OK) {
    client->mark_lost();
    std::string why = library_error(rc);
    // rabbitmq-c says only "a socket error occurred": ask the socket layer itself why.
    if (const std::string os = socket_reason(endpoint, 5000); !os.empty()) why = os;
    return Status::error("broker unreachable: cannot connect to " + endpoint.url() + ": " + why);
  }
  const amqp_rpc_reply_t login =
      amqp_login(client->conn_, endpoint.vhost.c_str(), 0, 131072, options.heartbeat_s,
                 AMQP_SASL_METHOD_PLAIN, endpoint.user.c_str(), endpoint.password.c_str());
  if (login.reply_type != AMQP_RESPONSE_NORMAL) {
    client->mark_lost();
    return login_error(login, "login to " + endpoint.url() + " failed");
  }
  client->read_server_properties();
  sockaddr_in local{};
  socklen_t length = sizeof local;
  if (::getsockname(amqp_get_sockfd(client->conn_), reinterpret_cast<sockaddr*>(&local),
                    &length) == 0 && local.sin_family == AF_INET) {
    client->local_port_ = ntohs(local.sin_port);
  }
  if (Status s = client->reopen_channel(); !s.ok()) return s;
  out = std::move(client);
  return Status::success();
}

AmqpClient::~AmqpClient() {
  if (connected()) close();
  if (conn_ != nullptr) amqp_destroy_connection(conn_);
}

void AmqpClient::read_server_properties() {
  const amqp_table_t* props = amqp_get_server_properties(conn_);
  if (props != nullptr) server_identity(*props, server_.product, server_.version);
}

void AmqpClient::mark_lost() {
  lost_ = true;
  channel_open_ = false;
}

Status AmqpClient::guard(const char* what) const {
  if (!connected()) return Status::error(std::string(what) + ": connection is closed");
  if (!channel_open_) return Status::error(std::string(what) + ": channel is closed");
  return Status::success();
}

Status AmqpClient::sent(int status, const char* what) {
  if (status == AMQP_STATUS_OK) return Status::success();
  mark_lost();
  return Status::error(std::string(what) + ": " + library_error(status));
}

// The reply of the last synchronous method. A channel.close or connection.close from the
// broker is answered with its close-ok here.
Status AmqpClient::check_reply(const char* what) {
  const amqp_rpc_reply_t reply = amqp_get_rpc_reply(conn_);
  if (reply.reply_type == AMQP_RESPONSE_NORMAL) return Status::success();
  if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION) {
    mark_lost();
    return Status::error(std::string(what) + ": " + library_error(reply.library_error));
  }
  if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
    const auto* m = static_cast<amqp_channel_close_t*>(reply.reply.decoded);
    amqp_channel_close_ok_t ok{};
    amqp_send_method(conn_, kChannel, AMQP_CHANNEL_CLOSE_OK_METHOD, &ok);
    channel_open_ = false;
    return Status::error(std::string(what) + ": " + std::to_string(m->reply_code) + " " +
                             to_string(m->reply_text),
                         m->reply_code);
  }
  if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
    const auto* m = static_cast<amqp_connection_close_t*>(reply.reply.decoded);
    amqp_connection_close_ok_t ok{};
    amqp_send_method(conn_, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
    mark_lost();
    return Status::error(std::string(what) + ": " + std::to_string(m->reply_code) + " " +
                             to_string(m->reply_text),
                         m->reply_code);
  }
  mark_lost();
  return Status::error(std::string(what) + ": unexpected reply from the broker");
}

Status AmqpClient::reopen_channel() {
  if (!connected()) return Status::error("channel.open: connection is closed");
  amqp_channel_open(conn_, kChannel);
  if (Status s = check_reply("channel.open"); !s.ok()) return s;
  channel_open_ = true;
  confirm_mode_ = false;
  publish_seq_ = 0;
  unconfirmed_.clear();
  return Status::success();
}

Status AmqpClient::declare_queue(const broker::QueueOptions& options) {
  if (Status s = guard("queue.declare"); !s.ok()) return s;
  FieldTable args;
  queue_arguments(options, args);
  amqp_queue_declare(conn_, kChannel, amqp_cstring_bytes(options.name.c_str()), 0,
                     options.durable, 0, 0, args.table());
  return check_reply("queue.declare");
}

Status AmqpClient::ready_count(const std::string& queue, std::uint32_t& ready) {
  std::uint32_t consumers = 0;
  return queue_counts(queue, ready, consumers);
}

Status AmqpClient::queue_counts(const std::string& queue, std::uint32_t& ready,
                                std::uint32_t& consumers) {
  if (Status s = guard("queue.declare passive"); !s.ok()) return s;
  const amqp_queue_declare_ok_t* ok = amqp_queue_declare(
      conn_, kChannel, amqp_cstring_bytes(queue.c_str()), 1, 0, 0, 0, amqp_empty_table);
  if (Status s = check_reply("queue.declare passive"); !s.ok()) return s;
  ready = ok->message_count;
  consumers = ok->consumer_count;
  return Status::success();
}

Status AmqpClient::delete_queue(const std::string& queue) {
  if (Status s = guard("queue.delete"); !s.ok()) return s;
  amqp_queue_delete(conn_, kChannel, amqp_cstring_bytes(queue.c_str()), 0, 0);
  return check_reply("queue.delete");
}

Status AmqpClient::qos(std::uint16_t prefetch) {
  if (Status s = guard("basic.qos"); !s.ok()) return s;
  amqp_basic_qos(conn_, kChannel, 0, prefetch, 0);
  return check_reply("basic.qos");
}

Status AmqpClient::confirm_select() {
  if (Status s = guard("confirm.select"); !s.ok()) return s;
  amqp_confirm_select(conn_, kChannel);
  if (Status s = check_reply("confirm.select"); !s.ok()) return s;
  confirm_mode_ = true;
  return Status::success();
}

Status AmqpClient::consume(const std::string& queue, const std::string& consumer_tag,
                           bool auto_ack) {
  if (Status s = guard("basic.consume"); !s.ok()) return s;
  amqp_basic_consume(conn_, kChannel, amqp_cstring_bytes(queue.c_str()),
                     amqp_cstring_bytes(consumer_tag.c_str()), 0, auto_ack, 0, amqp_empty_table);
  return check_reply("basic.consume");
}

Status AmqpClient::cancel(const std::string& consumer_tag) {
  if (Status s = guard("basic.cancel"); !s.ok()) return s;
  amqp_basic_cancel(conn_, kChannel, amqp_cstring_bytes(consumer_tag.c_str()));
  return check_reply("basic.cancel");
}

Status AmqpClient::publish(const std::string& exchange, const std::string& routing_key,
                           const broker::Message& message, bool mandatory, std::uint64_t& seq) {
  seq = 0;
  if (Status s = guard("basic.publish"); !s.ok()) return s;
  FieldTable headers;
  message_headers(message, headers);
  amqp_basic_properties_t props{};
  props._flags = AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_HEADERS_FLAG;
  props.delivery_mode = message.persistent ? 2 : 1;
  props.headers = headers.table();
  if (!message.message_id.empty()) {
    props._flags |= AMQP_BASIC_MESSAGE_ID_FLAG;
    props.message_id = amqp_cstring_bytes(message.message_id.c_str());
  }
  amqp_bytes_t body{message.body.size(), const_cast<char*>(message.body.data())};
  const int rc = amqp_basic_publish(conn_, kChannel, amqp_cstring_bytes(exchange.c_str()),
                                    amqp_cstring_bytes(routing_key.c_str()), mandatory, 0,
                                    &props, body);
  if (rc == AMQP_STATUS_OK && confirm_mode_) {
    seq = ++publish_seq_;
    unconfirmed_[seq] = {routing_key, message.message_id, message.order};
  }
  return sent(rc, "basic.publish");
}

Status AmqpClient::ack(std::uint64_t tag, bool multiple) {
  if (Status s = guard("basic.ack"); !s.ok()) return s;
  return sent(amqp_basic_ack(conn_, kChannel, tag, multiple), "basic.ack");
}

Status AmqpClient::nack(std::uint64_t tag, bool multiple, bool requeue) {
  if (Status s = guard("basic.nack"); !s.ok()) return s;
  return sent(amqp_basic_nack(conn_, kChannel, tag, multiple, requeue), "basic.nack");
}

Status AmqpClient::reject(std::uint64_t tag, bool requeue) {
  if (Status s = guard("basic.reject"); !s.ok()) return s;
  return sent(amqp_basic_reject(conn_, kChannel, tag, requeue), "basic.reject");
}

std::optional<Event> AmqpClient::poll(int timeout_ms) {
  if (!connected()) return std::nullopt;
  if (!amqp_frames_enqueued(conn_) && !amqp_data_in_buffer(conn_)) {
    amqp_maybe_release_buffers(conn_);
  }
  amqp_frame_t frame{};
  timeval tv{timeout_ms / 1000, static_cast<suseconds_t>(timeout_ms % 1000) * 1000};
  const int rc = amqp_simple_wait_frame_noblock(conn_, &frame, &tv);
  if (rc == AMQP_STATUS_TIMEOUT) return std::nullopt;
  if (rc != AMQP_STATUS_OK) {
    mark_lost();
    return ConnectionLost{0, library_error(rc)};
  }
  if (frame.frame_type != AMQP_FRAME_METHOD) return std::nullopt;
  return read_event(&frame);
}

std::optional<Event> AmqpClient::read_event(const void* raw) {
  const auto& frame = *static_cast<const amqp_frame_t*>(raw);
  const amqp_method_t& method = frame.payload.method;
  const broker::ChannelRef ref{0, kChannel};
  switch (method.id) {
    case AMQP_BASIC_DELIVER_METHOD: {
      const auto* d = static_cast<amqp_basic_deliver_t*>(method.decoded);
      broker::Delivery delivery{ref, to_string(d->consumer_tag), d->delivery_tag,
                                d->redelivered != 0, to_string(d->routing_key), {}};
      amqp_message_t message{};
      if (amqp_read_message(conn_, frame.channel, &message, 0).reply_type !=
          AMQP_RESPONSE_NORMAL) {
        mark_lost();
        return ConnectionLost{0, "connection lost while reading a delivery"};
      }
      delivery.message = decode_message(message.properties, message.body);
      amqp_destroy_message(&message);
      return delivery;
    }
    case AMQP_BASIC_RETURN_METHOD: {
      const auto* r = static_cast<amqp_basic_return_t*>(method.decoded);
      broker::Returned returned{ref, 0, r->reply_code, to_string(r->reply_text), {}};
      amqp_message_t message{};
      if (amqp_read_message(conn_, frame.channel, &message, 0).reply_type !=
          AMQP_RESPONSE_NORMAL) {
        mark_lost();
        return ConnectionLost{0, "connection lost while reading a return"};
      }
      returned.message = decode_message(message.properties, message.body);
      amqp_destroy_message(&message);
      returned.seq = returned_seq(to_string(r->routing_key), returned.message);
      return returned;
    }
    case AMQP_BASIC_ACK_METHOD: {
      const auto* a = static_cast<amqp_basic_ack_t*>(method.decoded);
      settle(a->delivery_tag, a->multiple != 0);
      return broker::Confirm{ref, a->delivery_tag, a->multiple != 0, true};
    }
    case AMQP_BASIC_NACK_METHOD: {
      const auto* n = static_cast<amqp_basic_nack_t*>(method.decoded);
      settle(n->delivery_tag, n->multiple != 0);
      return broker::Confirm{ref, n->delivery_tag, n->multiple != 0, false};
    }
    case AMQP_CHANNEL_CLOSE_METHOD: {
      const auto* c = static_cast<amqp_channel_close_t*>(method.decoded);
      broker::ChannelClosed closed{ref, c->reply_code, to_string(c->reply_text)};
      amqp_channel_close_ok_t ok{};
      amqp_send_method(conn_, kChannel, AMQP_CHANNEL_CLOSE_OK_METHOD, &ok);
      channel_open_ = false;
      return closed;
    }
    case AMQP_CONNECTION_CLOSE_METHOD: {
      const auto* c = static_cast<amqp_connection_close_t*>(method.decoded);
      ConnectionLost lost{c->reply_code, to_string(c->reply_text)};
      amqp_connection_close_ok_t ok{};
      amqp_send_method(conn_, 0, AMQP_CONNECTION_CLOSE_OK_METHOD, &ok);
      mark_lost();
      return lost;
    }
    default:
      return std::nullopt;  // e.g. a broker-sent basic.cancel: not used here
  }
}

// 0 when no unconfirmed publish matches (outside confirm mode, say).
std::uint64_t AmqpClient::returned_seq(const std::string& routing_key,
                                       const broker::Message& m) const {
  for (const auto& [seq, u] : unconfirmed_) {
    if (u.routing_key == routing_key && u.message_id == m.message_id && u.order == m.order) {
      return seq;
    }
  }
  return 0;
}

void AmqpClient::settle(std::uint64_t seq, bool multiple) {
  if (multiple) {
    unconfirmed_.erase(unconfirmed_.begin(), unconfirmed_.upper_bound(seq));
  } else {
    unconfirmed_.erase(seq);
  }
}

void AmqpClient::close() {
  if (!connected()) return;
  amqp_connection_close(conn_, AMQP_REPLY_SUCCESS);
  mark_lost();
}

void AmqpClient::reset() {
  if (conn_ == nullptr) return;
  const int fd = amqp_get_sockfd(conn_);
  if (fd >= 0) {
    // Linger 0: close() sends a RST instead of a FIN, as a crashed process's kernel may.
    linger hard{1, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  }
  amqp_destroy_connection(conn_);  // closes the socket without sending connection.close
  conn_ = nullptr;
  mark_lost();
}

}  // namespace live
