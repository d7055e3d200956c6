#include "src/scenario/patterns.h"

namespace lab {

const std::vector<AntiPattern>& anti_patterns() {
  static const std::vector<AntiPattern> list = {
      {"auto-ack", "outbox", Verdict::kLost, "a crash after the delivery, before the commit"},
      {"ack-before-commit", "outbox", Verdict::kLost, "a crash between the ack and the commit"},
      {"no-dedup", "outbox", Verdict::kDuplicated, "any redelivery or republish"},
      {"separate-dedup-store", "outbox", Verdict::kLost,
       "a crash after the dedup mark, before the commit"},
      {"check-then-act", "outbox", Verdict::kDuplicated,
       "a redelivery to the other consumer while the first still works"},
      {"naive-errors", "outbox", Verdict::kLost, "a transient commit error taken as a duplicate"},
      {"requeue-poison", "outbox", Verdict::kStuck, "none: the poison message loops by itself"},
      {"atomic", "dual-write", Verdict::kLost, "a crash or a lost publish after the commit"},
      {"atomic", "publish-then-commit", Verdict::kPhantom, "a crash after the publish"},
      {"atomic", "outbox-no-confirm", Verdict::kLost, "a lost publish, or a broker restart"},
  };
  return list;
}

Scenario anti_pattern_scenario(const AntiPattern& p) {
  Scenario s;
  s.name = "anti-pattern: " + p.strategy + " + " + p.producer;
  s.about = "Shows `" + std::string(verdict_name(p.verdict)) + "` under random faults: " + p.why + ".";
  s.workload.orders = 3;
  s.workload.amount = 150;
  s.workload.initial_balance = 550;
  s.consumer.strategy = p.strategy;
  s.producer.pattern = p.producer;
  if (p.strategy == "check-then-act") {
    s.consumer.instances = 2;
    s.consumer.work_ticks = 10;
  }
  if (p.strategy == "requeue-poison") {
    s.workload.amounts = {150, 5000, 150};
    s.max_steps = 600;
  }
  return s;
}

}  // namespace lab
