// The conformance cases: one or more per row of the table in docs/conformance.md. Each reads
// as the behaviour it checks; the same steps run against the model and a real RabbitMQ.
#include <string>
#include <vector>

#include "tests/conformance/script.h"

namespace conformance {

namespace {

// `client` publishes bodies prefix+from .. prefix+to to `queue`.
void publish_range(std::vector<Step>& steps, const std::string& client, const std::string& queue,
                   int from, int to, const std::string& prefix = "m") {
  for (int i = from; i <= to; ++i) steps.push_back(publish(client, queue, prefix + std::to_string(i)));
}

std::vector<Step> concat(std::initializer_list<std::vector<Step>> parts) {
  std::vector<Step> out;
  for (const auto& part : parts) out.insert(out.end(), part.begin(), part.end());
  return out;
}

std::vector<Step> publishes(const std::string& client, const std::string& queue, int from, int to,
                            const std::string& prefix = "m") {
  std::vector<Step> steps;
  publish_range(steps, client, queue, from, to, prefix);
  return steps;
}

Case row01_reset() {
  return {"row01-classic-reset-requeues-in-place", 1,
          "classic queue: the consumer's connection is reset while it holds 3 messages",
          "all 3 ready again, redelivered=true, in their original order",
          "connection_lost requeues every unacked delivery to its original position",
          {}, false, "",
          concat({{declare(classic("q")), open("p"), open("c1"), consume("c1", "q", "t1")},
                  publishes("p", "q", 1, 3),
                  {drain("c1", 3), reset("c1"), open("c2"), consume("c2", "q", "t2"),
                   drain("c2", 3)}})};
}

Case row01_close() {
  Case c = row01_reset();
  c.id = "row01-classic-close-requeues-in-place";
  c.behaviour = "classic queue: the consumer closes its connection while holding 3 messages";
  for (Step& s : c.steps) {
    if (s.op == Op::kReset) s.op = Op::kClose;
  }
  return c;
}

Case row02() {
  return {"row02-classic-nack-requeue-original-position", 2,
          "classic queue: nack(requeue) of the first of two held messages (prefetch 2)",
          "back ahead of later messages; redelivered at once to the same consumer",
          "a requeued message goes back in front of every message published after it",
          {}, false, "",
          concat({{declare(classic("q")), open("p"), open("c1"), qos("c1", 2),
                   consume("c1", "q", "t1")},
                  publishes("p", "q", 1, 4),
                  {drain("c1", 2), nack("c1", "m1", true), drain("c1", 1), ack("c1", "m2"),
                   drain("c1", 1)}})};
}

Case row03() {
  return {"row03-quorum-limit-requeue-to-head", 3,
          "quorum queue with x-delivery-limit: nack(requeue), then the connection closes",
          "back to the head both times; x-delivery-count 1, then 2",
          "returns go to the head in return order; every return counts",
          {}, false, "",
          concat({{declare(quorum("q", 5)), open("p"), open("c1"), qos("c1", 1),
                   consume("c1", "q", "t1")},
                  publishes("p", "q", 1, 3),
                  {drain("c1", 1), nack("c1", "m1", true), drain("c1", 1), close("c1"),
                   open("c2"), qos("c2", 1), consume("c2", "q", "t2"), drain("c2", 1)}})};
}

Case row04() {
  return {"row04-quorum-no-limit-nack-to-tail", 4,
          "quorum queue without a delivery limit: nack(requeue), then a connection closes",
          "a nacked message goes to the TAIL (later ones pass it); a connection-loss return "
          "goes to the head",
          "the same: nack/reject requeue to the tail, returns of a lost channel to the head",
          {}, false, "",
          concat({{declare(quorum("q")), open("p"), open("c1"), qos("c1", 1),
                   consume("c1", "q", "t1")},
                  publishes("p", "q", 1, 3),
                  {drain("c1", 1), nack("c1", "m1", true), drain("c1", 1), ack("c1", "m2"),
                   drain("c1", 1), close("c1"), open("c2"), qos("c2", 1),
                   consume("c2", "q", "t2"), drain("c2", 1), ack("c2", "m3"),
                   drain("c2", 1)}})};
}

Case row05() {
  return {"row05-reject-no-dlx-drops", 5,
          "classic queue without dead-lettering: reject(requeue=false)",
          "the message is dropped",
          "the same: dead-lettering with no dead-letter queue discards",
          {}, false, "",
          {declare(classic("q")), open("p"), publish("p", "q", "m1"), open("c1"),
           consume("c1", "q", "t1"), drain("c1", 1), reject("c1", "m1", false), close("c1"),
           count("q")}};
}

Case row06() {
  return {"row06-x-death-fields-and-cycle", 6,
          "dead-letter headers through a q1 -> q2 -> q1 cycle of rejects",
          "x-death entries {count, reason, queue, time, exchange, routing-keys}, newest "
          "first; x-first-death-queue/-reason/-exchange; message_id kept; redelivered=false",
          "the same fields (time is virtual); one entry per {queue, reason}, moved to the front",
          {}, false, "",
          {declare(classic("q1", "q2")), declare(classic("q2", "q1")), open("p"),
           publish("p", "q1", "m1"), open("c1"), consume("c1", "q1", "t1"), open("c2"),
           consume("c2", "q2", "t2"), drain("c1", 1), reject("c1", "m1", false),
           drain("c2", 1), reject("c2", "m1", false), drain("c1", 1), reject("c1", "m1", false),
           drain("c2", 1), ack("c2", "m1")}};
}

Case row07() {
  return {"row07-quorum-delivery-limit-dead-letters", 7,
          "quorum queue, x-delivery-limit=2, returned by nack and by a closed connection",
          "3 deliveries (x-delivery-count absent, 1, 2), then dead-lettered with reason "
          "delivery_limit and no x-delivery-count",
          "the same",
          {}, false, "",
          {declare(classic("dlq")), declare(quorum("q", 2, "dlq")), open("p"),
           publish("p", "q", "m1"), open("c1"), qos("c1", 1), consume("c1", "q", "t1"),
           drain("c1", 1), nack("c1", "m1", true), drain("c1", 1), close("c1"), open("c2"),
           qos("c2", 1), consume("c2", "q", "t2"), drain("c2", 1), nack("c2", "m1", true),
           open("c3"), consume("c3", "dlq", "t3"), drain("c3", 1)}};
}

Case row08() {
  broker::Message lost = message("m9");
  return {"row08-confirms-and-returns", 8,
          "publisher confirms for 3 publishes; a mandatory publish nobody can route",
          "every seq confirmed once (one batched ack or several, varying run to run); "
          "basic.return 312 NO_ROUTE before its ack",
          "every seq confirmed once; the batching is drawn from the seed in the lab",
          {}, false, "",
          concat({{declare(classic("q")), open("p"), confirm_select("p")},
                  publishes("p", "q", 1, 3),
                  {drain("p", 3), publish_with("p", "", "nowhere", lost, true), drain("p", 2)}})};
}

Case row09() {
  return {"row09-reset-with-unconfirmed-publishes", 9,
          "the publisher's connection resets with 300 publishes not all confirmed",
          "some enqueued but never confirmed; every confirmed one is in the queue",
          "enqueued at once; confirms die with the channel",
          {}, false, "",
          concat({{declare(classic("q")), open("p"), confirm_select("p")},
                  publishes("p", "q", 1, 300),
                  {drain("p", 1), reset("p"), survivors("q")}})};
}

// One SIGKILL for rows 10, 11 and 12 (a restart costs seconds). The quorum queue is
// declared first and the kill comes seconds later: a quorum queue killed within about a
// second of its declaration once came back without a leader (notes, n=1 of 5).
Case crash() {
  return {"row10-11-12-broker-sigkill", 10,
          "broker SIGKILLed mid-stream: classic queue with 20 confirmed + 20 unconfirmed; "
          "quorum queue with a consumer holding what it was given",
          "no confirmed message lost; every quorum message a consumer got came back (quorum "
          "queues deliver only committed messages); every classic message comes back "
          "redelivered=true, even one never delivered",
          "only synced messages survive; quorum messages are delivered only once synced; "
          "a crash marks every recovered classic message redelivered",
          {11, 12}, true, "",
          concat({{declare(quorum("qq")), declare(classic("q")), open("p"), confirm_select("p"),
                   open("c1"), consume("c1", "qq", "t1"), pause(3000)},
                  publishes("p", "q", 1, 20),
                  {drain("p", 20)},
                  publishes("p", "q", 21, 40),
                  publishes("p", "qq", 1, 20, "n"),
                  {peek("c1", true), kill_broker(), survivors("q"), survivors("qq")}})};
}

Case row12_clean() {
  broker::Message transient = message("t1", false);
  return {"row12-clean-restart", 12,
          "clean broker restart, same data: durable/transient queues, persistent/transient "
          "messages, a held classic and a held quorum message",
          "clients get connection.close 320; transient message and non-durable queue gone "
          "(404); held messages back redelivered=true (quorum: x-delivery-count=1); a "
          "never-delivered message redelivered=false",
          "the same",
          {}, true, "",
          {declare(classic("qd")), declare(transient_queue("qt")), declare(quorum("qq")),
           open("p"), confirm_select("p"), publish("p", "qd", "p1"),
           publish_with("p", "", "qd", transient, false), publish("p", "qd", "p2"),
           publish("p", "qt", "x1"), publish("p", "qq", "q1"), drain("p", 5), open("c1"),
           qos("c1", 1), consume("c1", "qd", "t1"), drain("c1", 1), open("c2"), qos("c2", 1),
           consume("c2", "qq", "t2"), drain("c2", 1), restart(), drain("c1", 1), drain("c2", 1),
           count("qt"), open("c3"), consume("c3", "qd", "t3"), drain("c3", 2), open("c4"),
           consume("c4", "qq", "t4"), drain("c4", 1)}};
}

Case row13() {
  return {"row13-two-consumers-round-robin", 13,
          "two consumers with prefetch 1 on one queue; the first one's connection closes",
          "round-robin in registration order; the closed consumer's message goes to the "
          "next with capacity, redelivered, ahead of newer messages",
          "the same",
          {}, false, "",
          concat({{declare(classic("q")), open("p"), open("c1"), qos("c1", 1),
                   consume("c1", "q", "t1"), open("c2"), qos("c2", 1), consume("c2", "q", "t2")},
                  publishes("p", "q", 1, 3),
                  {drain("c1", 1), drain("c2", 1), close("c1"), ack("c2", "m2"), drain("c2", 1),
                   ack("c2", "m1"), drain("c2", 1)}})};
}

Case row14() {
  return {"row14-unknown-tag-closes-channel", 14,
          "ack of a delivery tag the channel never gave out",
          "channel closed 406 PRECONDITION_FAILED; its unacked messages requeued; tags "
          "restart at 1 on a new channel",
          "the same",
          {}, false, "",
          {declare(classic("q")), open("p"), publish("p", "q", "m1"), publish("p", "q", "m2"),
           open("c1"), consume("c1", "q", "t1"), drain("c1", 2), ack_tag("c1", 99),
           drain("c1", 1), ack("c1", "m1"), open("c2"), consume("c2", "q", "t2"),
           drain("c2", 2)}};
}

Case row15() {
  broker::Message no_id = message("m1");
  no_id.message_id.clear();
  broker::Message dup2 = message("m2"), dup3 = message("m3");
  dup2.message_id = dup3.message_id = "same";
  return {"row15-message-id-is-the-publishers", 15,
          "a message without message_id; two messages with the same message_id",
          "accepted, confirmed and delivered with no id; the same id twice is delivered twice",
          "the same: the broker never sets nor deduplicates message_id",
          {}, false, "",
          {declare(classic("q")), open("p"), confirm_select("p"),
           publish_with("p", "", "q", no_id, false), publish_with("p", "", "q", dup2, false),
           publish_with("p", "", "q", dup3, false), drain("p", 3), open("c1"),
           consume("c1", "q", "t1"), drain("c1", 3)}};
}

Case row16_auto_ack() {
  return {"row16-auto-ack-ignores-prefetch", 16,
          "auto-ack consumer with prefetch 1, 5 messages ready; then its connection resets",
          "all 5 pushed at once; after the reset none comes back",
          "the same: auto-ack deliveries are settled when sent",
          {}, false, "",
          concat({{declare(classic("q")), open("p")},
                  publishes("p", "q", 1, 5),
                  {open("c1"), qos("c1", 1), consume("c1", "q", "t1", true), drain("c1", 5),
                   reset("c1"), count("q")}})};
}

Case row16_cancel() {
  return {"row16-cancel-and-late-qos", 16,
          "basic.cancel with a message in flight; basic.qos after basic.consume",
          "the in-flight message stays unacked and can still be acked; the later qos does "
          "not limit the consumer created before it",
          "the same",
          {}, false, "",
          {declare(classic("q")), open("p"), publish("p", "q", "m1"), publish("p", "q", "m2"),
           open("c1"), qos("c1", 1), consume("c1", "q", "t1"), drain("c1", 1),
           cancel("c1", "t1"), ack("c1", "m1"), close("c1"), count("q"), open("c2"),
           consume("c2", "q", "t2"), qos("c2", 1), publish("p", "q", "m3"),
           publish("p", "q", "m4"), drain("c2", 3)}};
}

Case row17() {
  return {"row17-consumer-timeout", 17,
          "a consumer holds 2 messages past consumer_timeout (6 s here)",
          "its channel is closed with 406 (on the next channel tick); both messages are "
          "requeued and redelivered to another consumer; its late ack fails",
          "the same, in virtual time: [broker] consumer_timeout in ticks",
          {}, true, "",
          {declare(classic("q")), open("p"), publish("p", "q", "m1"), publish("p", "q", "m2"),
           open("c1"), qos("c1", 2), consume("c1", "q", "t1"), drain("c1", 2), drain("c1", 1),
           ack("c1", "m1"), open("c2"), consume("c2", "q", "t2"), drain("c2", 2)}};
}

Case row18() {
  return {"row18-silent-peer", 18,
          "a consumer goes silent (stops reading and writing) while holding a message; with "
          "heartbeat 1 s, and with heartbeats off",
          "heartbeat 1 s: after a few missed heartbeats the broker requeues its message to "
          "another consumer; heartbeat 0: the message stays held until the socket resets",
          "the model broker gives up on a silent peer after 3 missed heartbeats, never "
          "with heartbeat 0 (broker/heartbeat.h); in the lab, [network] heartbeat gives each "
          "side its own detection (a client after client_timeout, by default 7 heartbeats, "
          "or never) and a `freeze` rule silences a connection: scenario 24, the zombie "
          "consumer",
          {}, false, "",
          {declare(classic("q")), declare(classic("q0")), open("p"), open("c1", 1), qos("c1", 1),
           consume("c1", "q", "t1"), publish("p", "q", "m1"), drain("c1", 1), open("c2"),
           consume("c2", "q", "t2"), freeze("c1"), drain("c2", 1), drain("c1", 1),
           open("c3", 0), qos("c3", 1), consume("c3", "q0", "t3"), publish("p", "q0", "n1"),
           drain("c3", 1), open("c4"), consume("c4", "q0", "t4"), freeze("c3"), pause(2500),
           peek("c4"), reset("c3"), drain("c4", 1)}};
}

Case row19() {
  return {"row19-missing-exchange", 19,
          "publish to an exchange that does not exist",
          "channel closed 404 NOT_FOUND",
          "only the default exchange exists; any other name is missing (404); topic/fanout "
          "exchanges, basic.get, TTL, max-length and publisher nacks are not modelled",
          {}, false, "",
          {declare(classic("q")), open("p"),
           publish_with("p", "no-such-exchange", "q", message("m1"), false), drain("p", 1)}};
}

}  // namespace

const std::vector<Case>& all_cases() {
  static const std::vector<Case> cases = {
      row01_reset(), row01_close(), row02(), row03(), row04(), row05(), row06(), row07(),
      row08(), row09(), crash(), row12_clean(), row13(), row14(), row15(), row16_auto_ack(),
      row16_cancel(), row17(), row18(), row19()};
  return cases;
}

}  // namespace conformance
