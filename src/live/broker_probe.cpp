#include "src/live/broker_probe.h"

#include <unistd.h>

#include <string>

namespace live {

namespace {

constexpr int kAccessRefused = 403;  // AMQP reply codes a user's settings cause
constexpr int kNotAllowed = 530;
constexpr int kInvalidPath = 402;

// The probe's one message, read back so the read permission is proven too.
Status round_trip(AmqpClient& client, const std::string& queue) {
  broker::Message probe;
  probe.message_id = "eosim-probe";
  probe.persistent = false;
  std::uint64_t seq = 0;
  if (Status st = client.publish("", queue, probe, false, seq); !st.ok()) return st;
  if (Status st = client.consume(queue, "eosim-probe", true); !st.ok()) return st;
  for (int waited = 0; waited < 5000; waited += 250) {
    const std::optional<Event> event = client.poll(250);
    if (!event) continue;
    if (std::holds_alternative<broker::Delivery>(*event)) return Status::success();
    if (const auto* closed = std::get_if<broker::ChannelClosed>(&*event)) {
      return Status::error("basic.publish: " + std::to_string(closed->code) + " " + closed->text,
                           closed->code);
    }
    if (const auto* lost = std::get_if<ConnectionLost>(&*event)) {
      return Status::error("the connection was closed: " + std::to_string(lost->code) + " " +
                               lost->text,
                           lost->code);
    }
  }
  return Status::error("a message published to " + queue + " did not come back within 5 s");
}

}  // namespace

Status probe_broker(const Endpoint& endpoint, ServerInfo& server) {
  std::unique_ptr<AmqpClient> client;
  if (Status st = AmqpClient::connect(endpoint, {}, client); !st.ok()) return st;
  server = client->server();
  broker::QueueOptions q;
  q.name = "eosim-live-" + std::to_string(::getpid()) + "-probe";
  q.durable = false;
  const std::string where = "on " + endpoint.url() + ": ";
  if (Status st = client->declare_queue(q); !st.ok()) {
    return Status::error("cannot declare a queue " + where + st.message, st.reply_code);
  }
  Status st = round_trip(*client, q.name);
  if (!client->channel_open() && client->connected()) (void)client->reopen_channel();
  if (client->channel_open()) (void)client->delete_queue(q.name);
  if (!st.ok()) {
    return Status::error("cannot publish to and consume from a queue " + where + st.message,
                         st.reply_code);
  }
  return Status::success();
}

bool is_access_error(const Status& status) {
  return status.reply_code == kAccessRefused || status.reply_code == kNotAllowed ||
         status.reply_code == kInvalidPath;
}

}  // namespace live
