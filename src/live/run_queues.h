#pragma once
// The queues of one live run on the broker: the scenario's queue and its dead-letter queue
// under names of this run's own (a prefix "eosim-live-<pid>-<time>-"), declared before the
// actors start and again after each broker restart, checked to have survived a restart,
// read at the end and deleted.
//
// Invariant: only queues named with the run's prefix are declared, read or deleted, so a
// broker of the user's (--broker) keeps everything of theirs.

#include <string>
#include <vector>

#include "src/broker/message.h"
#include "src/checker/checker.h"
#include "src/live/amqp_client.h"
#include "src/live/endpoint.h"
#include "src/live/launcher.h"
#include "src/live/status.h"
#include "src/scenario/scenario.h"

namespace live {

// The scenario's queue under this run's name (its dead-letter queue too, if it has one).
broker::QueueOptions run_queue(const lab::Scenario& s, const std::string& prefix);

// Declares the dead-letter queue (durable), if any, and then the queue.
Status declare_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix);

// The queues of `q` that must survive a broker restart: the queue itself if durable, and
// its dead-letter queue (always declared durable). A transient queue is gone after any
// restart, in the model too.
std::vector<std::string> durable_queues(const broker::QueueOptions& q);

// What the broker answered, after a restart, for one durable queue of the run (a passive
// queue.declare): success, or its error - reply_code 404 when it has no such queue.
struct QueueAnswer {
  std::string name;
  Status answer;
};

// The decision after a broker restart, from what the broker answered: success when it had
// every queue; else an error naming the first queue it did not have and the fault `site`
// (the run is then not judged: a lost queue would make its confirmed messages look lost by
// the design under test), or, when it could not be asked, an error saying so.
Status recovery_verdict(const std::vector<QueueAnswer>& answers, const std::string& site);

// A broker.restart or broker.crash (`site`) brought the node back: asks it for each of the
// run's durable queues, up to the first it lacks (RabbitMQ closes the channel after a 404),
// and gives recovery_verdict() of the answers.
Status check_recovered(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix,
                       const std::string& site);

// RabbitMQ answers queue.declare-ok before Mnesia has written the declaration to disk: a
// node SIGKILLed within a second or two may come back without the queue, and without the
// confirmed persistent messages it held. For a scenario that kills the broker, `broker`
// (null: the user's, never killed) writes its definitions to disk now.
Status sync_definitions(const lab::Scenario& s, PrivateBroker* broker);

// What is left in the run's queues at the end, read without acking. An error naming the
// queue and the broker's reason when one cannot be read: never counted as empty.
// `drained`: the run settled drained (settle.h), so each queue's count, once its consumers
// are gone, is all there is to read, and the read need not wait for stragglers.
Status leftovers(const lab::Scenario& s, const Endpoint& endpoint, const std::string& prefix,
                 bool drained, lab::BrokerLeftovers& out);

// The names of the run's queues, the dead-letter queue first.
std::vector<std::string> queue_names(const lab::Scenario& s, const std::string& prefix);

// Deletes the run's queues; a queue already gone is no error. An error when the broker
// could not be asked.
Status delete_queues(const lab::Scenario& s, AmqpClient& admin, const std::string& prefix);

}  // namespace live
