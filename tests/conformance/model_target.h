#pragma once
// The model broker as a conformance target: broker::Broker driven through its C++ API,
// one connection (one channel) per client, outputs queued per client. Time is virtual
// (1 tick = 1 ms): a drain with nothing queued advances it, which is when
// consumer_timeout and silent-peer detection act - in order, never in seconds.

#include <deque>
#include <map>
#include <memory>

#include "src/broker/broker.h"
#include "tests/conformance/target.h"

namespace conformance {

class ModelTarget : public Target, public broker::Output {
 public:
  ModelTarget();
  bool can_restart() const override { return true; }
  live::Status open(const std::string& client, int heartbeat_s) override;
  live::Status declare(const broker::QueueOptions& queue) override;
  live::Status confirm_select(const std::string& client) override;
  live::Status qos(const std::string& client, std::uint16_t prefetch) override;
  live::Status consume(const std::string& client, const std::string& queue,
                       const std::string& tag, bool auto_ack) override;
  live::Status cancel(const std::string& client, const std::string& tag) override;
  live::Status publish(const std::string& client, const std::string& exchange,
                       const std::string& queue, const broker::Message& message,
                       bool mandatory) override;
  live::Status ack(const std::string& client, std::uint64_t tag, bool multiple) override;
  live::Status nack(const std::string& client, std::uint64_t tag, bool multiple,
                    bool requeue) override;
  live::Status reject(const std::string& client, std::uint64_t tag, bool requeue) override;
  void close(const std::string& client) override;
  void reset(const std::string& client) override;
  void freeze(const std::string& client) override;
  live::Status restart(bool kill) override;
  std::optional<live::Event> next_event(const std::string& client, int budget_ms) override;
  void pause(int ms) override;
  std::vector<live::Event> arrived(const std::string& client) override;
  live::Status ready_count(const std::string& queue, std::uint32_t& ready) override;

 private:
  struct Conn {
    broker::ConnId id = 0;
    int heartbeat_s = 0;
    bool frozen = false;
    std::uint64_t frozen_at = 0;
  };
  // broker::Output: every output is queued for the client that owns the channel.
  void deliver(broker::Delivery d) override { push(d.to.conn, d); }
  void confirm(const broker::Confirm& c) override { push(c.to.conn, c); }
  void returned(const broker::Returned& r) override { push(r.to.conn, r); }
  void channel_closed(const broker::ChannelClosed& c) override { push(c.channel.conn, c); }

  void push(broker::ConnId conn, live::Event event);
  broker::ChannelRef ref(const std::string& client);
  void thaw(const std::string& client);
  // A synchronous method's channel error, taken out of the client's queue as a status.
  live::Status sync_reply(const std::string& client);
  void tick();

  std::unique_ptr<broker::Broker> broker_;
  std::map<std::string, Conn> conns_;  // open connections by client
  std::map<broker::ConnId, std::string> owner_;
  std::map<std::string, std::deque<live::Event>> inbox_;
  broker::ConnId next_conn_ = 1;
  std::uint64_t now_ = 0;
};

}  // namespace conformance
