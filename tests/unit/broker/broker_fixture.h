#pragma once
// Shared by the broker tests: an Output that records everything, and a fixture with one
// broker, checked after every call, one publisher channel (conn 100) and small helpers.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/broker/broker.h"

using broker::Broker;
using broker::ChannelRef;
using broker::Message;
using broker::QueueOptions;
using broker::QueueType;
using broker::XDeath;

namespace broker_test {

// Captures every output, plus one line per output in call order.
struct Recorder : broker::Output {
  struct Dead {
    Message message;
    std::string from;
    std::string reason;
  };
  std::vector<broker::Delivery> deliveries;
  std::vector<broker::Confirm> confirms;
  std::vector<broker::Returned> returns;
  std::vector<broker::ChannelClosed> closes;
  std::vector<Dead> dead;
  std::vector<Dead> dropped;
  std::vector<std::string> log;

  static std::string ref(ChannelRef r) {
    return std::to_string(r.conn) + "/" + std::to_string(r.channel);
  }
  void deliver(broker::Delivery d) override {
    deliveries.push_back(d);
    log.push_back("deliver " + ref(d.to) + " " + d.consumer_tag + " tag=" +
                  std::to_string(d.delivery_tag) + " " + d.message.message_id +
                  (d.redelivered ? " redelivered" : ""));
  }
  void confirm(const broker::Confirm& c) override {
    confirms.push_back(c);
    log.push_back("confirm " + ref(c.to) + " seq=" + std::to_string(c.seq) +
                  (c.multiple ? " multiple" : ""));
  }
  void returned(const broker::Returned& r) override {
    returns.push_back(r);
    log.push_back("return " + ref(r.to) + " " + r.message.message_id);
  }
  void channel_closed(const broker::ChannelClosed& c) override {
    closes.push_back(c);
    log.push_back("close " + ref(c.channel) + " " + std::to_string(c.code));
  }
  void dead_lettered(const Message& m, const std::string& from, const std::string& reason) override {
    dead.push_back(Dead{m, from, reason});
    log.push_back("dead-letter " + m.message_id + " " + reason);
  }
  void discarded(const Message& m, const std::string& from, const std::string& reason) override {
    dropped.push_back(Dead{m, from, reason});
    log.push_back("discard " + m.message_id + " " + reason);
  }
};

inline Message msg(const std::string& id, bool persistent = true) {
  Message m;
  m.message_id = id;
  m.body = "body-" + id;
  m.persistent = persistent;
  return m;
}

inline QueueOptions classic(const std::string& name, const std::string& dlq = "") {
  QueueOptions o;
  o.name = name;
  o.dead_letter_queue = dlq;
  return o;
}

inline QueueOptions quorum(const std::string& name, int64_t limit, const std::string& dlq = "") {
  QueueOptions o;
  o.name = name;
  o.type = QueueType::kQuorum;
  o.delivery_limit = limit;
  o.dead_letter_queue = dlq;
  return o;
}

// The broker under test, checked after every method: `f.broker->ack(...)` calls it, and
// when the statement's full expression ends the invariants of broker.h must hold
// (Broker::check_invariants; a failure names the first one broken).
class CheckedBroker {
 public:
  explicit CheckedBroker(broker::Output& out) : broker_(out) {}

  class Call {
   public:
    explicit Call(Broker& broker) : broker_(broker) {}
    Call(const Call&) = delete;
    Call& operator=(const Call&) = delete;
    ~Call() { CHECK(broker_.check_invariants() == ""); }
    Broker* operator->() const { return &broker_; }

   private:
    Broker& broker_;
  };

  Call operator->() { return Call(broker_); }
  const Broker* operator->() const { return &broker_; }  // a const view changes nothing

 private:
  Broker broker_;
};

// One broker, one publisher channel (conn 100) and helpers.
struct Fixture {
  Recorder out;
  CheckedBroker broker{out};
  ChannelRef pub{100, 1};
  Fixture() { broker->open_channel(pub); }

  // A quorum queue delivers only committed messages (conformance row 11): publishing to
  // one commits (syncs) right after, as the lab's broker node does a moment later.
  void publish(const std::vector<std::string>& ids, const std::string& queue = "q") {
    for (const auto& id : ids) broker->publish(pub, queue, msg(id), false);
    if (broker->has_queue(queue) && broker->queue(queue).options.type == QueueType::kQuorum) {
      broker->sync();
    }
  }
  void consumer(ChannelRef ch, const std::string& tag, uint32_t prefetch,
                const std::string& queue = "q", bool auto_ack = false) {
    if (!broker->channel_open(ch)) broker->open_channel(ch);
    broker->basic_qos(ch, prefetch);
    broker->basic_consume(ch, queue, tag, auto_ack);
  }
  std::vector<std::string> ready_ids(const std::string& queue = "q") const {
    std::vector<std::string> ids;
    for (const auto& r : broker->ready(queue)) ids.push_back(r.message.message_id);
    return ids;
  }
  std::vector<std::string> delivered_ids(std::size_t from = 0) const {
    std::vector<std::string> ids;
    for (std::size_t i = from; i < out.deliveries.size(); ++i) {
      ids.push_back(out.deliveries[i].message.message_id);
    }
    return ids;
  }
};

using Ids = std::vector<std::string>;

}  // namespace broker_test

using broker_test::Fixture;
using broker_test::Ids;
using broker_test::classic;
using broker_test::msg;
using broker_test::quorum;
