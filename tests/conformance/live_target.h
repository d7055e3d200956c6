#pragma once
// A real RabbitMQ as a conformance target: one rabbitmq-c connection per client, plus an
// admin connection for declares and counts. Queue names get a prefix unique to this
// target (so runs and cases never share a queue) and lose it again in every event.
// The queues it declared are deleted when it is destroyed.

#include <deque>
#include <map>
#include <memory>
#include <set>

#include "src/live/amqp_client.h"
#include "src/live/launcher.h"
#include "tests/conformance/target.h"

namespace conformance {

class LiveTarget : public Target {
 public:
  // `broker` may be null (a user's broker from EOSIM_AMQP_URL): then restarts are refused.
  LiveTarget(live::Endpoint endpoint, live::PrivateBroker* broker, std::string prefix);
  ~LiveTarget() override;
  bool can_restart() const override { return broker_ != nullptr; }
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
  live::AmqpClient* client(const std::string& name);
  live::Status admin(live::AmqpClient*& out);
  std::string real(const std::string& queue) const { return prefix_ + queue; }
  std::string logical(const std::string& name) const;
  void unprefix(live::Event& event) const;
  void poll_others(const std::string& except);

  live::Endpoint endpoint_;
  live::PrivateBroker* broker_;
  std::string prefix_;
  std::map<std::string, std::unique_ptr<live::AmqpClient>> clients_;
  std::map<std::string, std::deque<live::Event>> inbox_;
  std::set<std::string> frozen_;
  std::unique_ptr<live::AmqpClient> admin_;
  std::set<std::string> declared_;
};

}  // namespace conformance
