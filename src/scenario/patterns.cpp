#include "src/scenario/patterns.h"

namespace lab {

const std::vector<AntiPattern>& anti_patterns() {
  using S = consumer::PresetId;
  static const std::vector<AntiPattern> list = {
      {S::kAutoAck, "outbox", Verdict::kLost, "a crash after the delivery, before the commit"},
      {S::kAckBeforeCommit, "outbox", Verdict::kLost, "a crash between the ack and the commit"},
      {S::kNoDedup, "outbox", Verdict::kDuplicated, "any redelivery or republish"},
      {S::kSeparateDedupStore, "outbox", Verdict::kLost,
       "a crash after the dedup mark, before the commit"},
      {S::kCheckThenAct, "outbox", Verdict::kDuplicated,
       "a redelivery to the other consumer while the first still works"},
      {S::kNaiveErrors, "outbox", Verdict::kLost, "a transient commit error taken as a duplicate"},
      {S::kRequeuePoison, "outbox", Verdict::kStuck, "none: the poison message loops by itself"},
      {S::kAtomic, "dual-write", Verdict::kLost, "a crash or a lost publish after the commit"},
      {S::kAtomic, "publish-then-commit", Verdict::kPhantom, "a crash after the publish"},
      {S::kAtomic, "outbox-no-confirm", Verdict::kLost, "a lost publish, or a broker restart"},
  };
  return list;
}

Scenario anti_pattern_scenario(const AntiPattern& p) {
  Scenario s;
  const std::string strategy(sim::name_of(p.strategy));
  s.name = "anti-pattern: " + strategy + " + " + p.producer;
  s.about = "Shows `" + std::string(verdict_name(p.verdict)) + "` under random faults: " + p.why + ".";
  s.workload.orders = 3;
  s.workload.amount = 150;
  s.workload.initial_balance = 550;
  s.consumer.strategy = strategy;
  s.producer.pattern = p.producer;
  if (p.strategy == consumer::PresetId::kCheckThenAct) {
    s.consumer.instances = 2;
    s.consumer.work_ticks = 10;
  }
  if (p.strategy == consumer::PresetId::kRequeuePoison) {
    s.workload.amounts = {150, 5000, 150};
    s.max_steps = 600;
  }
  return s;
}

}  // namespace lab
