#include "src/producer/producer.h"

namespace producer {

namespace {

// A mandatory publish to the default exchange, built in the method's own storage and
// returned in place: a PublishFrame temporary would move the message once more.
broker::ClientMethod publish_method(const std::string& queue, broker::Message&& message,
                                    std::uint64_t seq) {
  broker::ClientMethod method(std::in_place_type<broker::PublishFrame>);
  auto& publish = std::get<broker::PublishFrame>(method);
  publish.routing_key = queue;
  publish.message = std::move(message);
  publish.mandatory = true;
  publish.seq = seq;
  return method;
}

}  // namespace

Publisher::Publisher(transport::Transport& net, bool confirms) : net_(net), confirms_(confirms) {}

bool Publisher::ensure_connected() {
  if (conn_ != 0 && net_.is_open(conn_)) return true;
  conn_ = net_.connect();
  next_seq_ = 0;  // a new channel numbers its publishes from 1 again
  if (conn_ == 0) return false;
  if (confirms_) {
    net_.send(conn_, {broker::ConfirmSelectFrame{}, 0, 0});
  }
  return true;
}

std::optional<std::uint64_t> Publisher::publish(const std::string& queue,
                                                broker::Message&& message, std::int64_t attempt) {
  const std::int64_t order = message.order;
  const std::uint64_t seq = confirms_ ? next_seq_ + 1 : 0;  // for the trace (frames.h)
  const bool sent = net_.send(conn_, {publish_method(queue, std::move(message), seq), order, attempt});
  if (!sent) return std::nullopt;
  return confirms_ ? ++next_seq_ : 0;
}

void Publisher::drop() {
  conn_ = 0;
  next_seq_ = 0;
}

void Publisher::add_state(sim::StateHash& hash) const {
  hash.add(confirms_);
  hash.add(static_cast<std::uint64_t>(conn_));
  hash.add(next_seq_);
}

}  // namespace producer
