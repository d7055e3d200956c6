#pragma once
// The conformance script format: AMQP actions run against the model broker and against a
// real RabbitMQ, one step at a time, each target writing the same kind of log. A case
// passes when the two logs are equal (the real log is the reference).
//
// Names in a script are logical: queues, clients ("c1", "p"), message bodies ("m1"). A
// real target prefixes queue names so runs never share a queue; logs never show it.
//
// What a log holds (one line per observation, in script order):
//   "c1: deliver m1 tag=1 redelivered=0 [xdc=N] [x-death=...] [first=...] [id=...]"
//   "p: confirm 3 ack"        one line per publish seq, whatever the batching of the frames
//   "p: return 312 seq 4 m9"  basic.return (reply code, the returned publish's seq, body)
//   "c1: channel.close 406"   the broker closed the channel (code only: texts differ)
//   "c1: connection lost 320" connection.close from the broker; "lost (no close)" = socket died
//   "count q1: 2"             ready messages (passive declare), or "count q1: error 404"
//   "c1: ack m1 refused: channel closed"   an action the client library refuses locally
//   "unread c2: deliver m1 tag=2 ..."      at the end, every event a client was given and
//                                          no drain showed (after a short settle pause)
// Only what RabbitMQ guarantees is logged: never a time, never an order across two clients
// (each drain names one client).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "src/broker/message.h"

namespace conformance {

enum class Op {
  kDeclare,        // queue (through the admin client)
  kOpen,           // client, heartbeat_s: a connection with channel 1
  kConfirmSelect,  // client
  kQos,            // client, number = prefetch
  kConsume,        // client, queue, tag, flag = auto_ack
  kCancel,         // client, tag
  kPublish,        // client, exchange, queue (routing key), message, flag = mandatory
  kAck,            // client, body (its latest delivery on client) or number = raw tag; multiple
  kNack,           // client, body or number; flag = requeue; multiple
  kReject,         // client, body or number; flag = requeue
  kClose,          // client: connection.close
  kReset,          // client: TCP reset
  kFreeze,         // client: stops reading and writing (a silent peer)
  kRestart,        // broker: clean stop and start; flag = kill (SIGKILL) instead
  kDrain,          // client, number = how many log lines to wait for (up to a deadline)
  kCount,          // queue: ready messages
  kSurvivors,      // queue: after a crash, what came back vs what was confirmed/published
  kPause,          // number = ms (virtual for the model); unfrozen clients keep talking
  kPeek,           // client: takes the events already there; logs how many unless flag (quiet)
};

struct Step {
  Op op = Op::kDrain;
  std::string client;
  std::string queue;
  std::string tag;
  std::string exchange;
  broker::QueueOptions queue_options;
  broker::Message message;
  std::int64_t number = 0;
  bool flag = false;
  bool multiple = false;
};

// A case: one behaviour of the conformance note, checked by one script.
struct Case {
  std::string id;         // "row04-quorum-nack-tail": the test's name
  int row = 0;            // row of the conformance table (docs/conformance.md)
  std::string behaviour;  // what is checked, one line
  std::string rabbitmq;   // what RabbitMQ 3.10.8 does, one line
  std::string model;      // how the model does it (or why it does not), one line
  std::vector<int> also_rows;  // further rows this case checks (one restart serves several)
  bool needs_private_broker = false;  // restarts or kills the broker, or needs its config
  // Non-empty: a known difference the model does not fix yet. The test then requires the
  // logs to DIFFER, so fixing the model without updating the case fails loudly.
  std::string model_differs;
  std::vector<Step> steps;
};

// The list, in table order (cases.cpp).
const std::vector<Case>& all_cases();

// The broker settings every case assumes (a private broker is started with them; a user's
// broker from EOSIM_AMQP_URL may differ, so cases that need them are skipped there).
constexpr int kConsumerTimeoutMs = 6000;
constexpr int kChannelTickMs = 500;

// --- builders, so a case reads like the behaviour it checks ---
broker::QueueOptions classic(const std::string& name, const std::string& dlq = "");
broker::QueueOptions transient_queue(const std::string& name);
broker::QueueOptions quorum(const std::string& name, std::int64_t limit = 0,
                            const std::string& dlq = "");
Step declare(const broker::QueueOptions& q);
Step open(const std::string& client, int heartbeat_s = 0);
Step confirm_select(const std::string& client);
Step qos(const std::string& client, std::int64_t prefetch);
Step consume(const std::string& client, const std::string& queue, const std::string& tag,
             bool auto_ack = false);
Step cancel(const std::string& client, const std::string& tag);
// Persistent, message_id = "id-" + body, header order = 0.
Step publish(const std::string& client, const std::string& queue, const std::string& body);
Step publish_with(const std::string& client, const std::string& exchange,
                  const std::string& queue, broker::Message message, bool mandatory);
Step ack(const std::string& client, const std::string& body, bool multiple = false);
Step ack_tag(const std::string& client, std::int64_t tag);
Step nack(const std::string& client, const std::string& body, bool requeue,
          bool multiple = false);
Step reject(const std::string& client, const std::string& body, bool requeue);
Step close(const std::string& client);
Step reset(const std::string& client);
Step freeze(const std::string& client);
Step restart();
Step kill_broker();
Step drain(const std::string& client, std::int64_t lines);
Step count(const std::string& queue);
Step survivors(const std::string& queue);
Step pause(std::int64_t ms);
Step peek(const std::string& client, bool quiet = false);
broker::Message message(const std::string& body, bool persistent = true);

}  // namespace conformance
