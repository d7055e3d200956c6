// The design variations of the scenario format ([consumer] side_effect, idempotency_key,
// dedup_retention, mark, dedup_order; [producer] message_id), each swept over many seeds
// with random faults: every key changes the verdict the way its failure says - in the
// ledger, in the emails, or in neither - and its corrected form is exactly-once in both.
#include <map>
#include <string>

#include "src/world/world.h"
#include "tests/property/property_support.h"
#include "tests/support/status_support.h"

namespace {

// Per-run verdicts of the ledger and of the emails, counted over a range of seeds.
struct Tally {
  std::map<std::string, int> ledger, effects;
  int runs = 0;
  std::int64_t faults = 0;
};

Tally tally(const lab::Scenario& scenario, const std::string& spec, std::uint64_t seeds) {
  lab::SweepOptions options;
  std::map<std::string, sim::Ratio> ratios;
  std::string error;
  REQUIRE(lab::parse_fault_spec(spec, ratios).ok());
  options.ratios = ratios;
  Tally t;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    lab::RunSummary run;
    INFO("seed " << seed << " " << error);
    REQUIRE_OK(lab::run_scenario(lab::sweep_scenario(scenario, options, seed), lab::WorldOptions{},
                                 run, nullptr));
    ++t.runs;
    ++t.ledger[std::string(lab::verdict_name(run.report.ledger_verdict))];
    if (run.report.effects_checked) ++t.effects[std::string(lab::verdict_name(run.report.effect_verdict))];
    t.faults += static_cast<std::int64_t>(run.faults.size());
    CHECK_FALSE(run.step_bound_hit);
  }
  return t;
}

int count(const std::map<std::string, int>& m, const char* verdict) {
  const auto it = m.find(verdict);
  return it == m.end() ? 0 : it->second;
}

lab::Scenario with_email(consumer::SideEffect when, bool key) {
  lab::Scenario s = property::workload(4);
  s.consumer.side_effect = when;
  s.consumer.idempotency_key = key;
  s.random.budget = 4;
  return s;
}

constexpr const char* kCrashes = "crash=1/10,fail=1/15";
constexpr const char* kEverything = "drop=1/15,crash=1/15,fail=1/15,reorder=1/8,restart=1/60";

}  // namespace

TEST_CASE("atomic + outbox + email after the commit with an idempotency key: exactly-once in "
          "the ledger and in the emails over 600 seeds",
          "[property][design]") {
  const Tally t = tally(with_email(consumer::SideEffect::kAfterCommit, true), kEverything, 600);
  CHECK(count(t.ledger, "exactly-once") == t.runs);
  CHECK(count(t.effects, "exactly-once") == t.runs);
  CHECK(t.faults >= t.runs);  // the property means little unless faults fired
}

TEST_CASE("email before the commit: crashes send it twice, the ledger stays exactly-once",
          "[property][design]") {
  const Tally t = tally(with_email(consumer::SideEffect::kBeforeCommit, false), kCrashes, 300);
  CHECK(count(t.ledger, "exactly-once") == t.runs);
  CHECK(count(t.effects, "duplicated") > 0);
  CHECK(count(t.effects, "lost") == 0);
}

TEST_CASE("email after the commit without a key: crashes lose it, never send it twice",
          "[property][design]") {
  const Tally t = tally(with_email(consumer::SideEffect::kAfterCommit, false), kCrashes, 300);
  CHECK(count(t.ledger, "exactly-once") == t.runs);
  CHECK(count(t.effects, "lost") > 0);
  CHECK(count(t.effects, "duplicated") == 0);
}

TEST_CASE("dedup_retention shorter than a redelivery duplicates, keeping keys does not",
          "[property][design]") {
  lab::Scenario s = property::workload(4);
  s.random.budget = 4;
  const Tally kept = tally(s, kCrashes, 300);
  s.consumer.dedup_retention = 5;
  const Tally expiring = tally(s, kCrashes, 300);
  CHECK(count(kept.ledger, "exactly-once") == kept.runs);
  CHECK(count(expiring.ledger, "duplicated") > 0);
  CHECK(count(expiring.ledger, "lost") == 0);
}

TEST_CASE("separate store: marking first loses, marking after the commit duplicates",
          "[property][design]") {
  lab::Scenario s = property::workload(4, "separate-dedup-store");
  s.random.budget = 4;
  const Tally first = tally(s, kCrashes, 300);
  s.consumer.mark = consumer::Mark::kAfterCommit;
  const Tally after = tally(s, kCrashes, 300);
  CHECK(count(first.ledger, "lost") > 0);
  CHECK(count(first.ledger, "duplicated") == 0);
  CHECK(count(after.ledger, "duplicated") > 0);
  CHECK(count(after.ledger, "lost") == 0);
}

TEST_CASE("dedup key last: a redelivery after a lost ack sends the email again, key first "
          "does not",
          "[property][design]") {
  // Only lost frames: every redelivery follows a commit, none a rollback.
  lab::Scenario s = with_email(consumer::SideEffect::kBeforeCommit, false);
  const Tally key_first = tally(s, "drop=1/8", 300);
  s.consumer.dedup_order = consumer::DedupOrder::kEffectFirst;
  const Tally key_last = tally(s, "drop=1/8", 300);
  CHECK(count(key_first.ledger, "exactly-once") == key_first.runs);
  CHECK(count(key_first.effects, "exactly-once") == key_first.runs);
  CHECK(count(key_last.ledger, "exactly-once") == key_last.runs);
  CHECK(count(key_last.effects, "duplicated") > 0);
}

TEST_CASE("message ids made at publish: a republish is debited again, ids from the outbox "
          "are not",
          "[property][design]") {
  lab::Scenario s = property::workload(4);
  s.random.budget = 4;
  const Tally outbox_ids = tally(s, kEverything, 300);
  s.producer.message_id = producer::MessageIdSource::kAtPublish;
  const Tally publish_ids = tally(s, kEverything, 300);
  CHECK(count(outbox_ids.ledger, "exactly-once") == outbox_ids.runs);
  CHECK(count(publish_ids.ledger, "duplicated") > 0);
}
