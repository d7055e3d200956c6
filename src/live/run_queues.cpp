#include "src/live/run_queues.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <variant>

#include "src/live/run_rules.h"
#include "src/world/actor_options.h"

namespace live {

broker::QueueOptions run_queue(const lab::Scenario& s, const std::string& prefix) {
  broker::QueueOptions q = lab::broker_options(s).queue;
  q.name = prefix + q.name;
  if (!q.dead_letter_queue.empty()) q.dead_letter_queue = prefix + q.dead_letter_queue;
  return q;
}

Status declare_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix) {
  const broker::QueueOptions q = run_queue(s, prefix);
  if (!q.dead_letter_queue.empty()) {
    broker::QueueOptions dlq;
    dlq.name = q.dead_letter_queue;
    dlq.durable = true;
    if (Status st = admin.declare_queue(dlq); !st.ok()) return st;
  }
  return admin.declare_queue(q);
}

std::vector<std::string> durable_queues(const broker::QueueOptions& q) {
  std::vector<std::string> names;
  if (q.durable) names.push_back(q.name);
  if (!q.dead_letter_queue.empty()) names.push_back(q.dead_letter_queue);
  return names;
}

Status recovery_verdict(const std::vector<QueueAnswer>& answers, const std::string& site) {
  constexpr int kNotFound = 404;  // AMQP's reply code for a queue the broker does not have
  for (const QueueAnswer& a : answers) {
    if (a.answer.ok()) continue;
    if (a.answer.reply_code == kNotFound) {
      return Status::error("the private RabbitMQ came back from " + site +
                           " without the durable queue " + a.name + " (" + a.answer.message +
                           "): its definition was not on disk, so the run cannot be judged");
    }
    return Status::error("cannot ask the private RabbitMQ, back from " + site +
                         ", for the durable queue " + a.name + ": " + a.answer.message);
  }
  return Status::success();
}

Status check_recovered(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix,
                       const std::string& site) {
  std::vector<QueueAnswer> answers;
  for (const std::string& name : durable_queues(run_queue(s, prefix))) {
    std::uint32_t ready = 0;
    answers.push_back({name, admin.ready_count(name, ready)});
    if (!answers.back().answer.ok()) break;  // the channel is closed: no more answers
  }
  return recovery_verdict(answers, site);
}

// The model's queues are durable from their declaration, so before a run that kills the
// private broker (and after each restart) its definitions are written (seen under load:
// "Recovering 0 queues of type rabbit_classic_queue" after broker.crash).
Status sync_definitions(const lab::Scenario& s, PrivateBroker* broker) {
  if (broker == nullptr || !kills_broker(s)) return Status::success();
  if (Status st = broker->sync_definitions(); !st.ok()) {
    return Status::error("cannot write the private RabbitMQ's queue definitions to disk: " +
                         st.message);
  }
  return Status::success();
}

namespace {

// Waits until `queue` has no consumer left (polled every 20 ms, for 2 s at most), then
// gives its ready count in `left`; `known` false when consumers stayed. RabbitMQ requeues a
// closed channel's unacked messages as it drops its consumers, so with none left the ready
// count holds everything the run's consumers had.
Status count_once_unconsumed(AmqpClient& client, const std::string& queue, bool& known,
                             std::uint32_t& left) {
  for (int waited = 0; waited <= 2000; waited += 20) {
    std::uint32_t consumers = 0;
    if (Status st = client.queue_counts(queue, left, consumers); !st.ok()) return st;
    known = consumers == 0;
    if (known) return Status::success();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Status::success();
}

// Every message left in `queue`, by order number: read without acking (the broker takes
// them all back when this connection closes). The read ends when nothing more came for
// 300 ms; with `counted` (a run that settled drained: nothing was unsent, ready or held,
// so nothing is still on its way to the queue) it ends once the queue's count, read when
// its consumers are gone, has come.
Status drain(const Endpoint& endpoint, const std::string& queue, bool counted,
             std::vector<std::int64_t>& orders) {
  std::unique_ptr<AmqpClient> client;
  Status st = AmqpClient::connect(endpoint, {}, client);
  bool known = false;
  std::uint32_t left = 0;
  if (st.ok() && counted) st = count_once_unconsumed(*client, queue, known, left);
  if (st.ok() && known && left == 0) return Status::success();
  if (st.ok()) st = client->qos(0);
  if (st.ok()) st = client->consume(queue, "eosim-drain", false);
  while (st.ok() && !(known && orders.size() >= left)) {
    const std::optional<Event> event = client->poll(known ? 3000 : 300);
    if (!event) break;  // nothing more came: the queue is read
    if (const auto* d = std::get_if<broker::Delivery>(&*event)) {
      orders.push_back(d->message.order);
    } else if (const auto* lost = std::get_if<ConnectionLost>(&*event)) {
      st = Status::error("the connection was lost: " + std::to_string(lost->code) + " " + lost->text);
    } else if (const auto* closed = std::get_if<broker::ChannelClosed>(&*event)) {
      st = Status::error(std::to_string(closed->code) + " " + closed->text, closed->code);
    }
  }
  if (!st.ok()) {
    return Status::error("cannot read what is left in the run's queue " + queue + " on " +
                             endpoint.url() + " (" + st.message + "): the run has no verdict",
                         st.reply_code);
  }
  return Status::success();
}

}  // namespace

Status leftovers(const lab::Scenario& s, const Endpoint& endpoint, const std::string& prefix,
                 bool drained, lab::BrokerLeftovers& out) {
  const broker::QueueOptions q = run_queue(s, prefix);
  lab::BrokerLeftovers left;
  // The unacked came back when the consumers stopped.
  if (Status st = drain(endpoint, q.name, drained, left.ready); !st.ok()) return st;
  if (!q.dead_letter_queue.empty()) {
    if (Status st = drain(endpoint, q.dead_letter_queue, drained, left.dead_lettered);
        !st.ok()) {
      return st;
    }
  }
  out = std::move(left);
  return Status::success();
}

std::vector<std::string> queue_names(const lab::Scenario& s, const std::string& prefix) {
  const broker::QueueOptions q = run_queue(s, prefix);
  std::vector<std::string> names;
  if (!q.dead_letter_queue.empty()) names.push_back(q.dead_letter_queue);
  names.push_back(q.name);
  return names;
}

Status delete_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix) {
  constexpr int kNotFound = 404;
  for (const std::string& name : queue_names(s, prefix)) {
    if (!admin.channel_open() && admin.connected()) (void)admin.reopen_channel();
    Status st = admin.delete_queue(name);
    if (!st.ok() && st.reply_code != kNotFound) return st;
  }
  return Status::success();
}

}  // namespace live
