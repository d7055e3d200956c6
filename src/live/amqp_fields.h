#pragma once
// Between rabbitmq-c's field tables and the model broker's value types: queue arguments,
// the properties of a publish, and the decoding of a delivered message's properties and
// headers. Internal to src/live (it includes <amqp.h>).

#include <amqp.h>

#include <string>

#include "src/broker/message.h"

namespace live {

std::string to_string(amqp_bytes_t bytes);

// Owns the storage a rabbitmq-c table points into; valid while this object lives.
class FieldTable {
 public:
  void add_string(const std::string& key, const std::string& value);
  void add_int(const std::string& key, std::int64_t value);
  amqp_table_t table();

 private:
  struct Entry {
    std::string key;
    std::string text;
    std::int64_t number = 0;
    bool is_text = false;
  };
  std::vector<Entry> entries_;
  std::vector<amqp_table_entry_t> raw_;
};

// x-queue-type, x-delivery-limit, x-dead-letter-exchange/-routing-key for `options`.
void queue_arguments(const broker::QueueOptions& options, FieldTable& out);
// The "order" application header of `message` (when not 0).
void message_headers(const broker::Message& message, FieldTable& out);
// The "product" and "version" of a broker's connection.start server properties (left
// untouched when absent).
void server_identity(const amqp_table_t& properties, std::string& product, std::string& version);
// message_id, delivery_mode, headers and body of a delivered or returned message.
broker::Message decode_message(const amqp_basic_properties_t& properties, amqp_bytes_t body);

}  // namespace live
