#include "src/live/amqp_fields.h"

#include <optional>

namespace live {

namespace {

std::optional<std::int64_t> as_int(const amqp_field_value_t& v) {
  switch (v.kind) {
    case AMQP_FIELD_KIND_I8: return v.value.i8;
    case AMQP_FIELD_KIND_U8: return v.value.u8;
    case AMQP_FIELD_KIND_I16: return v.value.i16;
    case AMQP_FIELD_KIND_U16: return v.value.u16;
    case AMQP_FIELD_KIND_I32: return v.value.i32;
    case AMQP_FIELD_KIND_U32: return v.value.u32;
    case AMQP_FIELD_KIND_I64: return v.value.i64;
    case AMQP_FIELD_KIND_U64:
    case AMQP_FIELD_KIND_TIMESTAMP: return static_cast<std::int64_t>(v.value.u64);
    default: return std::nullopt;
  }
}

std::string as_text(const amqp_field_value_t& v) {
  return v.kind == AMQP_FIELD_KIND_UTF8 || v.kind == AMQP_FIELD_KIND_BYTES
             ? to_string(v.value.bytes)
             : std::string();
}

broker::XDeath decode_x_death(const amqp_table_t& entry) {
  broker::XDeath death;
  for (int i = 0; i < entry.num_entries; ++i) {
    const std::string key = to_string(entry.entries[i].key);
    const amqp_field_value_t& v = entry.entries[i].value;
    if (key == "queue") death.queue = as_text(v);
    if (key == "reason") death.reason = as_text(v);
    if (key == "exchange") death.exchange = as_text(v);
    if (key == "count") death.count = as_int(v).value_or(0);
    if (key == "time" && as_int(v)) death.time = static_cast<std::uint64_t>(*as_int(v));
    if (key == "routing-keys" && v.kind == AMQP_FIELD_KIND_ARRAY) {
      for (int k = 0; k < v.value.array.num_entries; ++k) {
        death.routing_keys.push_back(as_text(v.value.array.entries[k]));
      }
    }
  }
  return death;
}

void decode_header(const std::string& key, const amqp_field_value_t& v, broker::Message& m) {
  if (key == "order") m.order = as_int(v).value_or(0);
  if (key == "x-delivery-count") m.x_delivery_count = as_int(v);
  if (key == "x-first-death-queue") m.deaths.edit().x_first_death_queue = as_text(v);
  if (key == "x-first-death-reason") m.deaths.edit().x_first_death_reason = as_text(v);
  if (key == "x-first-death-exchange") m.deaths.edit().x_first_death_exchange = as_text(v);
  if (key == "x-death" && v.kind == AMQP_FIELD_KIND_ARRAY) {
    std::vector<broker::XDeath>& deaths = m.deaths.edit().x_death;
    for (int k = 0; k < v.value.array.num_entries; ++k) {
      const amqp_field_value_t& item = v.value.array.entries[k];
      if (item.kind == AMQP_FIELD_KIND_TABLE) deaths.push_back(decode_x_death(item.value.table));
    }
  }
}

}  // namespace

std::string to_string(amqp_bytes_t bytes) {
  return bytes.len == 0 ? std::string()
                        : std::string(static_cast<const char*>(bytes.bytes), bytes.len);
}

void FieldTable::add_string(const std::string& key, const std::string& value) {
  entries_.push_back(Entry{key, value, 0, true});
}

void FieldTable::add_int(const std::string& key, std::int64_t value) {
  entries_.push_back(Entry{key, "", value, false});
}

amqp_table_t FieldTable::table() {
  raw_.clear();
  for (Entry& e : entries_) {
    amqp_table_entry_t raw{};
    raw.key = amqp_cstring_bytes(e.key.c_str());
    if (e.is_text) {
      raw.value.kind = AMQP_FIELD_KIND_UTF8;
      raw.value.value.bytes = amqp_cstring_bytes(e.text.c_str());
    } else {
      raw.value.kind = AMQP_FIELD_KIND_I64;
      raw.value.value.i64 = e.number;
    }
    raw_.push_back(raw);
  }
  amqp_table_t t{};
  t.num_entries = static_cast<int>(raw_.size());
  t.entries = raw_.empty() ? nullptr : raw_.data();
  return t;
}

void queue_arguments(const broker::QueueOptions& options, FieldTable& out) {
  if (options.type == broker::QueueType::kQuorum) {
    out.add_string("x-queue-type", "quorum");
    if (options.delivery_limit > 0) out.add_int("x-delivery-limit", options.delivery_limit);
  }
  if (!options.dead_letter_queue.empty()) {
    // The model's "dead-letter queue" is RabbitMQ's default exchange plus a routing key.
    out.add_string("x-dead-letter-exchange", "");
    out.add_string("x-dead-letter-routing-key", options.dead_letter_queue);
  }
}

void message_headers(const broker::Message& message, FieldTable& out) {
  if (message.order != 0) out.add_int("order", message.order);
}

broker::Message decode_message(const amqp_basic_properties_t& p, amqp_bytes_t body) {
  broker::Message m;
  m.body = to_string(body);
  if (p._flags & AMQP_BASIC_MESSAGE_ID_FLAG) m.message_id = to_string(p.message_id);
  m.persistent = (p._flags & AMQP_BASIC_DELIVERY_MODE_FLAG) && p.delivery_mode == 2;
  if (p._flags & AMQP_BASIC_HEADERS_FLAG) {
    for (int i = 0; i < p.headers.num_entries; ++i) {
      decode_header(to_string(p.headers.entries[i].key), p.headers.entries[i].value, m);
    }
  }
  return m;
}

void server_identity(const amqp_table_t& properties, std::string& product, std::string& version) {
  for (int i = 0; i < properties.num_entries; ++i) {
    const amqp_table_entry_t& e = properties.entries[i];
    if (e.value.kind != AMQP_FIELD_KIND_UTF8 && e.value.kind != AMQP_FIELD_KIND_BYTES) continue;
    const std::string key = to_string(e.key);
    if (key == "product") product = to_string(e.value.value.bytes);
    if (key == "version") version = to_string(e.value.value.bytes);
  }
}

}  // namespace live
