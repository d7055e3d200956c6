#pragma once
// What a conformance script runs against: the model broker (model_target.cpp) or a real
// RabbitMQ (live_target.cpp). A target only performs actions and hands back events; the
// interpreter (interpreter.cpp) keeps the books and writes the log, so both targets are
// judged by one piece of code.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "src/broker/message.h"
#include "src/live/amqp_client.h"
#include "src/live/status.h"
#include "tests/conformance/script.h"

namespace conformance {

class Target {
 public:
  virtual ~Target() = default;
  virtual bool can_restart() const = 0;

  virtual live::Status open(const std::string& client, int heartbeat_s) = 0;
  virtual live::Status declare(const broker::QueueOptions& queue) = 0;
  virtual live::Status confirm_select(const std::string& client) = 0;
  virtual live::Status qos(const std::string& client, std::uint16_t prefetch) = 0;
  virtual live::Status consume(const std::string& client, const std::string& queue,
                               const std::string& tag, bool auto_ack) = 0;
  virtual live::Status cancel(const std::string& client, const std::string& tag) = 0;
  virtual live::Status publish(const std::string& client, const std::string& exchange,
                               const std::string& queue, const broker::Message& message,
                               bool mandatory) = 0;
  virtual live::Status ack(const std::string& client, std::uint64_t tag, bool multiple) = 0;
  virtual live::Status nack(const std::string& client, std::uint64_t tag, bool multiple,
                            bool requeue) = 0;
  virtual live::Status reject(const std::string& client, std::uint64_t tag, bool requeue) = 0;
  virtual void close(const std::string& client) = 0;
  virtual void reset(const std::string& client) = 0;
  // The client stops reading and writing until its next action (no heartbeats either).
  virtual void freeze(const std::string& client) = 0;
  virtual live::Status restart(bool kill) = 0;
  // The client's next event, waiting up to budget_ms (real or virtual); nullopt if none.
  // Queue names in it are logical.
  virtual std::optional<live::Event> next_event(const std::string& client, int budget_ms) = 0;
  // Lets `ms` pass (virtual for the model); clients that are not frozen keep talking and
  // their events are kept for later.
  virtual void pause(int ms) = 0;
  // The client's events that have already arrived, without waiting.
  virtual std::vector<live::Event> arrived(const std::string& client) = 0;
  virtual live::Status ready_count(const std::string& queue, std::uint32_t& ready) = 0;
};

// Runs the case's steps against `target` and returns its log (script.h).
std::vector<std::string> run_case(const Case& c, Target& target);

}  // namespace conformance
