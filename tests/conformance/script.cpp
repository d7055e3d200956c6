#include "tests/conformance/script.h"

namespace conformance {

broker::QueueOptions classic(const std::string& name, const std::string& dlq) {
  broker::QueueOptions q;
  q.name = name;
  q.dead_letter_queue = dlq;
  return q;
}

broker::QueueOptions transient_queue(const std::string& name) {
  broker::QueueOptions q = classic(name);
  q.durable = false;
  return q;
}

broker::QueueOptions quorum(const std::string& name, std::int64_t limit, const std::string& dlq) {
  broker::QueueOptions q = classic(name, dlq);
  q.type = broker::QueueType::kQuorum;
  q.delivery_limit = limit;
  return q;
}

broker::Message message(const std::string& body, bool persistent) {
  broker::Message m;
  m.body = body;
  m.message_id = "id-" + body;
  m.persistent = persistent;
  return m;
}

namespace {
Step make(Op op, const std::string& client = "") {
  Step s;
  s.op = op;
  s.client = client;
  return s;
}
Step settle(Op op, const std::string& client, const std::string& body, bool requeue,
            bool multiple) {
  Step s = make(op, client);
  s.message.body = body;
  s.flag = requeue;
  s.multiple = multiple;
  return s;
}
}  // namespace

Step declare(const broker::QueueOptions& q) {
  Step s = make(Op::kDeclare);
  s.queue = q.name;
  s.queue_options = q;
  return s;
}

Step open(const std::string& client, int heartbeat_s) {
  Step s = make(Op::kOpen, client);
  s.number = heartbeat_s;
  return s;
}

Step confirm_select(const std::string& client) { return make(Op::kConfirmSelect, client); }

Step qos(const std::string& client, std::int64_t prefetch) {
  Step s = make(Op::kQos, client);
  s.number = prefetch;
  return s;
}

Step consume(const std::string& client, const std::string& queue, const std::string& tag,
             bool auto_ack) {
  Step s = make(Op::kConsume, client);
  s.queue = queue;
  s.tag = tag;
  s.flag = auto_ack;
  return s;
}

Step cancel(const std::string& client, const std::string& tag) {
  Step s = make(Op::kCancel, client);
  s.tag = tag;
  return s;
}

Step publish(const std::string& client, const std::string& queue, const std::string& body) {
  return publish_with(client, "", queue, message(body), false);
}

Step publish_with(const std::string& client, const std::string& exchange,
                  const std::string& queue, broker::Message m, bool mandatory) {
  Step s = make(Op::kPublish, client);
  s.exchange = exchange;
  s.queue = queue;
  s.message = std::move(m);
  s.flag = mandatory;
  return s;
}

Step ack(const std::string& client, const std::string& body, bool multiple) {
  return settle(Op::kAck, client, body, false, multiple);
}

Step ack_tag(const std::string& client, std::int64_t tag) {
  Step s = make(Op::kAck, client);
  s.number = tag;
  return s;
}

Step nack(const std::string& client, const std::string& body, bool requeue, bool multiple) {
  return settle(Op::kNack, client, body, requeue, multiple);
}

Step reject(const std::string& client, const std::string& body, bool requeue) {
  return settle(Op::kReject, client, body, requeue, false);
}

Step close(const std::string& client) { return make(Op::kClose, client); }
Step reset(const std::string& client) { return make(Op::kReset, client); }
Step freeze(const std::string& client) { return make(Op::kFreeze, client); }
Step restart() { return make(Op::kRestart); }

Step kill_broker() {
  Step s = make(Op::kRestart);
  s.flag = true;
  return s;
}

Step drain(const std::string& client, std::int64_t lines) {
  Step s = make(Op::kDrain, client);
  s.number = lines;
  return s;
}

Step count(const std::string& queue) {
  Step s = make(Op::kCount);
  s.queue = queue;
  return s;
}

Step survivors(const std::string& queue) {
  Step s = make(Op::kSurvivors);
  s.queue = queue;
  return s;
}

Step pause(std::int64_t ms) {
  Step s = make(Op::kPause);
  s.number = ms;
  return s;
}

Step peek(const std::string& client, bool quiet) {
  Step s = make(Op::kPeek, client);
  s.flag = quiet;
  return s;
}

}  // namespace conformance
