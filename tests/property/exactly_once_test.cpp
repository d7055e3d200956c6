// The property the whole lab is about: the atomic consumer with the transactional outbox
// is exactly-once under every fault the world can inject - lost frames (which take their
// connection down), crashes at every crash site, transient commit errors, reordered ready
// lists and broker restarts - with one consumer and with several competing ones.
#include "tests/property/property_support.h"

namespace {

void require_exactly_once(const lab::SweepSummary& summary) {
  for (const auto& f : summary.failures) {
    UNSCOPED_INFO("seed " << f.seed << ": " << f.verdict << " after " << f.faults
                          << " faults (eosim shrink can make it a scenario)");
  }
  CHECK(summary.failing_runs == 0);
  CHECK(summary.verdicts.at("exactly-once") == summary.runs);
  CHECK(summary.step_bound_hits == 0);
  // The property means little unless faults really happened, of every kind.
  CHECK(summary.faults_fired >= summary.runs);
  for (const char* action : {"drop", "crash", "fail", "reorder", "restart"}) {
    INFO(action);
    CHECK(summary.faults_by_action.count(action) == 1);
  }
}

lab::Scenario under_faults(std::int64_t instances) {
  lab::Scenario s = property::workload(5);
  s.consumer.instances = instances;
  s.random.ratios = property::every_fault_kind();
  s.random.budget = 5;
  return s;
}

// The configuration whose sweep found the dead-letter sync bug (regressions_test.cpp):
// orders refused for want of funds go to a dead-letter queue, one unacked delivery per
// consumer, three consumers, and many more faults per run.
lab::Scenario everything_at_once() {
  lab::Scenario s = property::workload(6);
  s.workload.amount = 100;
  s.workload.initial_balance = 450;
  s.broker.prefetch = 1;
  s.broker.queue = broker::QueueType::kQuorum;
  s.broker.delivery_limit = 4;
  s.broker.dead_letter = true;
  s.consumer.instances = 3;
  s.consumer.work_ticks = 3;
  REQUIRE(
      lab::parse_fault_spec("drop=1/8,crash=1/8,fail=1/8,reorder=1/5,restart=1/30", s.random.ratios)
          .ok());
  s.random.budget = 8;
  return s;
}

}  // namespace

TEST_CASE("atomic + outbox: exactly-once over 1,000 seeds, one consumer", "[property]") {
  require_exactly_once(property::sweep(under_faults(1), 1, 1000));
}

TEST_CASE("atomic + outbox: exactly-once over 1,000 seeds, three competing consumers",
          "[property]") {
  require_exactly_once(property::sweep(under_faults(3), 1, 1000));
}

TEST_CASE("atomic + outbox: exactly-once with slow consumers racing for redeliveries",
          "[property]") {
  // Slow handling widens the window in which a requeued message reaches a second
  // consumer while the first still works on it: the race check-then-act loses.
  lab::Scenario s = under_faults(2);
  s.consumer.work_ticks = 10;
  require_exactly_once(property::sweep(s, 1, 500));
}

TEST_CASE("atomic + outbox: exactly-once when the balance runs out (rejections)",
          "[property]") {
  // Orders the balance cannot cover are refused by a business rule, recorded and acked:
  // an outcome, not a loss, and never a second effect.
  lab::Scenario s = under_faults(2);
  s.workload.initial_balance = 450;  // three of the five orders
  require_exactly_once(property::sweep(s, 1, 300));
}

TEST_CASE("atomic + outbox: exactly-once when the orders drain the account exactly",
          "[property]") {
  // The funds cover every order, the last one taken to the cent: whichever order a
  // consumer takes last finds the balance equal to its amount, and must pay it. A refusal
  // there leaves every order with an outcome and the money wrong (balance-mismatch),
  // so the verdict alone says whether the boundary held.
  lab::Scenario equal = under_faults(2);
  equal.workload.initial_balance = 5 * 150;
  require_exactly_once(property::sweep(equal, 1, 300));
  lab::Scenario uneven = under_faults(2);
  uneven.workload.amounts = {100, 250, 150, 300, 200};
  uneven.workload.initial_balance = 1000;
  require_exactly_once(property::sweep(uneven, 1, 300));
}

TEST_CASE("atomic + outbox: exactly-once on a quorum queue with a delivery limit",
          "[property]") {
  // A message delivered too often is dead-lettered: parked for a person, an outcome too.
  lab::Scenario s = under_faults(2);
  s.broker.queue = broker::QueueType::kQuorum;
  s.broker.delivery_limit = 3;
  s.broker.dead_letter = true;
  require_exactly_once(property::sweep(s, 1, 300));
}

TEST_CASE("atomic + outbox: exactly-once with dead letters, rejections and heavy faults",
          "[property]") {
  require_exactly_once(property::sweep(everything_at_once(), 1, 1000));
}

TEST_CASE("atomic + outbox: exactly-once over 20,000 seeds per configuration",
          "[.sweep][property]") {
  for (const std::int64_t instances : {1, 2, 3}) {
    INFO(instances << " consumer(s)");
    require_exactly_once(property::sweep(under_faults(instances), 1, 20000));
  }
  lab::Scenario ten = under_faults(2);
  ten.workload.orders = 10;
  ten.workload.initial_balance = 10 * 150;
  require_exactly_once(property::sweep(ten, 1, 20000));
  require_exactly_once(property::sweep(everything_at_once(), 1, 20000));
}
