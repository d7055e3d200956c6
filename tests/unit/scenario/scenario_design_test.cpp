// Composed designs (src/scenario/scenario_design.cpp and the [consumer]/[producer] keys): every
// preset is exactly its choices - the same run, to the trace hash, on every scenario - and
// keys given beside a preset replace its values and are reported.

#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "src/catalog/choice_flags.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_files.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

std::vector<lab::Scenario> every_scenario() {
  std::vector<lab::Scenario> out = test_support::load_scenarios();
  REQUIRE(out.size() >= 19);
  return out;
}

using run_support::run;

lab::Scenario parse(const std::string& text) {
  lab::Scenario s = test_support::loaded(lab::parse_scenario(text, "inline.toml"));
  return s;
}

using test_support::parse_bad;

}  // namespace

TEST_CASE("design: every consumer preset runs exactly as its four choices, on every scenario",
          "[design]") {
  for (const lab::Scenario& file : every_scenario()) {
    for (const consumer::Preset& preset : consumer::presets()) {
      INFO(file.name << " / " << preset.name);
      const lab::Scenario named =
          test_support::overridden(file, {.strategy = std::string(preset.name)});
      // The same design spelled as choices on top of a preset that differs.
      const char* other = preset.name == "atomic" ? "no-dedup" : "atomic";
      lab::Scenario spelled = test_support::overridden(file, {.strategy = other});
      spelled.consumer.ack = preset.choices.ack;
      spelled.consumer.dedup = preset.choices.dedup;
      spelled.consumer.errors = preset.choices.errors;
      spelled.consumer.poison = preset.choices.poison;
      REQUIRE(spelled.consumer.choices() == named.consumer.choices());
      const lab::RunSummary a = run(named);
      const lab::RunSummary b = run(spelled);
      CHECK(a.trace_hash == b.trace_hash);
      CHECK(a.report.verdict == b.report.verdict);
      CHECK(b.strategy.find("(= " + std::string(preset.name) + ")") != std::string::npos);
    }
  }
}

TEST_CASE("design: every producer pattern runs exactly as its choices, on every scenario",
          "[design]") {
  for (const lab::Scenario& file : every_scenario()) {
    for (const producer::PatternPreset& preset : producer::patterns()) {
      INFO(file.name << " / " << preset.name);
      const lab::Scenario named =
          test_support::overridden(file, {.producer = std::string(preset.name)});
      lab::Scenario spelled = test_support::overridden(
          file, {.producer = preset.name == "outbox" ? "dual-write" : "outbox"});
      spelled.producer.delivery = preset.choices.delivery;
      spelled.producer.confirms = preset.choices.confirms;
      spelled.producer.order = preset.choices.order;
      CHECK(run(named).trace_hash == run(spelled).trace_hash);
    }
  }
}

TEST_CASE("design: a key beside a preset replaces its value and is reported", "[design]") {
  const lab::Scenario s = parse(
      "name = 'x'\n[consumer]\nstrategy = 'atomic'\ndedup = 'separate-store'\n"
      "ack = 'after-commit'\n[producer]\npattern = 'outbox'\nconfirms = false\n");
  CHECK(s.consumer.choices().dedup == consumer::Dedup::kSeparateStore);
  CHECK(s.consumer.choices().ack == consumer::AckTiming::kAfterCommit);
  // A key that repeats the preset's value changes nothing and is not listed.
  CHECK(s.consumer.overrides() ==
        std::vector<std::string>{"dedup = separate-store (atomic has same-transaction)"});
  CHECK(s.consumer.label() == "atomic + dedup=separate-store (= separate-dedup-store)");
  CHECK(s.producer.label() == "outbox + confirms=false (= outbox-no-confirm)");
  const lab::Scenario custom =
      parse("name = 'x'\n[consumer]\nstrategy = 'atomic'\nack = 'before-commit'\n"
            "dedup = 'none'\n");
  CHECK(custom.consumer.label() == "atomic + ack=before-commit + dedup=none");
  // Written back and read again: the same scenario.
  lab::Scenario again = test_support::loaded(lab::parse_scenario(lab::to_toml(s), "again.toml"));
  again.path = s.path;
  CHECK(again == s);
  // --strategy replaces the whole design: the keys given beside the file's preset go too.
  const lab::Scenario replaced = test_support::overridden(s, {.strategy = "no-dedup", .producer = "outbox"});
  CHECK(replaced.consumer.overrides().empty());
  CHECK(replaced.producer.overrides().empty());
  CHECK(replaced.consumer.choices() == consumer::find_preset("no-dedup")->choices);
}

TEST_CASE("design: bad choices name the key, the line and the valid values", "[design]") {
  lab::LoadError e = parse_bad("name = 'x'\n[consumer]\ndedup = 'redis'\n");
  CHECK(e.key == "consumer.dedup");
  CHECK(e.line == 3);
  CHECK(e.message.find("same-transaction, separate-store, check-then-act, none") !=
        std::string::npos);
  e = parse_bad("name = 'x'\n[consumer]\npoison = true\n");
  CHECK(e.key == "consumer.poison");
  CHECK(e.message.find("expected a string") != std::string::npos);
  e = parse_bad("name = 'x'\n[producer]\npattern = 'dual-write'\nconfirms = true\n");
  CHECK(e.key == "producer.confirms");
  CHECK(e.line == 4);
  e = parse_bad("name = 'x'\n[producer]\norder = 'publish-first'\n");
  CHECK(e.key == "producer.order");
  CHECK(e.message.find("delivery = \"direct\"") != std::string::npos);
}

TEST_CASE("design: command-line choice flags are checked, applied and replayed", "[design]") {
  lab::ChoiceFlags flags;
  flags.dedup = "none";
  REQUIRE(lab::check_choice_flags(flags).ok());
  lab::Scenario s = parse("name = 'x'\n");
  lab::apply_choice_flags(flags, s);
  CHECK(s.consumer.choices() == consumer::find_preset("no-dedup")->choices);
  CHECK(lab::choice_flags_text(flags) == " --dedup none");
  flags.ack = "eventually";
  const eosim::Status refused = lab::check_choice_flags(flags);
  CHECK_FALSE(refused.ok());
  CHECK(refused.message ==
        "unknown value `eventually` for --ack; valid values: after-commit, "
        "before-commit, auto");
}

TEST_CASE("design: the variation keys load, round-trip, and refuse what would do nothing",
          "[design]") {
  const lab::Scenario s = parse(
      "name = 'x'\n[consumer]\nstrategy = 'separate-dedup-store'\nmark = 'after-commit'\n"
      "side_effect = 'after-commit'\nidempotency_key = true\ndedup_retention = 40\n"
      "[producer]\nmessage_id = 'at-publish'\n");
  CHECK(s.consumer.mark == consumer::Mark::kAfterCommit);
  CHECK(s.consumer.side_effect == consumer::SideEffect::kAfterCommit);
  CHECK(s.consumer.idempotency_key);
  CHECK(s.consumer.dedup_retention == 40);
  CHECK(s.producer.message_id == producer::MessageIdSource::kAtPublish);
  lab::Scenario again = test_support::loaded(lab::parse_scenario(lab::to_toml(s), "again.toml"));
  again.path = s.path;
  CHECK(again == s);

  CHECK(parse_bad("name = 'x'\n[consumer]\nmark = 'after-commit'\n").key == "consumer.mark");
  CHECK(parse_bad("name = 'x'\n[consumer]\nstrategy = 'no-dedup'\ndedup_order = "
                  "'effect-first'\n").key == "consumer.dedup_order");
  CHECK(parse_bad("name = 'x'\n[consumer]\nidempotency_key = true\n").key ==
        "consumer.idempotency_key");
  CHECK(parse_bad("name = 'x'\n[consumer]\nstrategy = 'no-dedup'\ndedup_retention = 5\n").key ==
        "consumer.dedup_retention");
  CHECK(parse_bad("name = 'x'\n[consumer]\nside_effect = 'sometimes'\n").message.find(
            "none, before-commit, after-commit") != std::string::npos);
}

TEST_CASE("design: isolation and check load, round-trip, and refuse a bad value by its line",
          "[design][isolation]") {
  const lab::Scenario s = parse(
      "name = 'x'\n[consumer]\nstrategy = 'check-then-act'\ncheck = 'in-transaction'\n"
      "isolation = 'serializable'\n");
  CHECK(s.consumer.check == consumer::Check::kInTransaction);
  CHECK(s.consumer.isolation == store::Isolation::kSerializable);
  CHECK(s.consumer.design().isolation == store::Isolation::kSerializable);
  lab::Scenario again = test_support::loaded(lab::parse_scenario(lab::to_toml(s), "again.toml"));
  again.path = s.path;
  CHECK(again == s);
  CHECK_FALSE(parse("name = 'x'\n").consumer.isolation.has_value());  // the server's default

  const lab::LoadError bad =
      parse_bad("name = 'x'\n[consumer]\nstrategy = 'atomic'\nisolation = 'snapshot'\n");
  CHECK(bad.key == "consumer.isolation");
  CHECK(bad.line == 4);
  CHECK(bad.message.find("read-committed, repeatable-read, serializable") != std::string::npos);
  CHECK(parse_bad("name = 'x'\n[consumer]\ncheck = 'in-transaction'\n").key == "consumer.check");
}

TEST_CASE("design: a fixed twin applies its assignments to the same scenario", "[design]") {
  const lab::Scenario s = parse(
      "name = 'x'\nseed = 9\nfixed = \"consumer.strategy = 'atomic'\"\n[consumer]\n"
      "strategy = 'separate-dedup-store'\nmark = 'after-commit'\n[expect]\nverdict = "
      "'duplicated'\n");
  const lab::Scenario twin = test_support::loaded(lab::fixed_twin(s));
  CHECK(twin.name == "x (fixed)");
  CHECK(twin.seed == 9);
  CHECK(twin.fixed.empty());
  CHECK(twin.consumer.choices() == consumer::find_preset("atomic")->choices);
  // The new preset replaced the whole design: the old preset's `mark` went with it.
  CHECK(twin.consumer.mark == consumer::Mark::kBeforeCommit);
  CHECK(twin.expect.verdict == lab::Verdict::kExactlyOnce);

  lab::LoadError e = parse_bad("name = 'x'\n\nfixed = 'consumer.strategy = '\n");
  CHECK(e.key == "fixed");
  CHECK(e.line == 3);
  e = parse_bad("name = 'x'\nfixed = \"consumer.strategy = 'optimistic'\"\n");
  CHECK(e.key == "fixed");
  CHECK(e.message.find("consumer.strategy") != std::string::npos);
}

TEST_CASE("design: the checker counts emails apart from debits, and dedup rows", "[design]") {
  const std::string dir = std::string(EOSIM_SOURCE_DIR) + "/scenarios/";
  lab::Scenario s =
      test_support::loaded(lab::load_scenario(dir + "31-side-effect-before-commit.toml"));
  lab::RunSummary r = run(s);
  CHECK(r.report.effects_checked);
  CHECK(r.report.ledger_verdict == lab::Verdict::kExactlyOnce);
  CHECK(r.report.effect_verdict == lab::Verdict::kDuplicated);
  CHECK(r.report.verdict == lab::Verdict::kDuplicated);
  CHECK(r.report.effect_duplicated == std::vector<std::int64_t>{2});
  for (const lab::OrderOutcome& o : r.report.orders) {
    CHECK(o.debits == 1);
    CHECK(o.dedup_rows == 1);
    CHECK(o.effects == (o.order == 2 ? 2 : 1));
  }
  s = test_support::loaded(lab::load_scenario(dir + "32-side-effect-after-commit-no-key.toml"));
  r = run(s);
  CHECK(r.report.ledger_verdict == lab::Verdict::kExactlyOnce);
  CHECK(r.report.verdict == lab::Verdict::kLost);
  CHECK(r.report.effect_lost == std::vector<std::int64_t>{2});
  // Without a side effect nothing is counted and the verdict is the ledger's.
  s = test_support::loaded(
      lab::load_scenario(dir + "03-crash-between-commit-and-ack-no-dedup.toml"));
  r = run(s);
  CHECK_FALSE(r.report.effects_checked);
  CHECK(r.report.ledger_verdict == r.report.verdict);
}

TEST_CASE("design: the one-line meaning follows check = in-transaction and mark = after-commit",
          "[design]") {
  lab::ConsumerConfig c;
  c.strategy = "check-then-act";
  const std::string outside = c.meaning();
  CHECK(outside.find("SELECTs the dedup table, then debits in another transaction") == 0);
  c.check = consumer::Check::kInTransaction;
  const std::string inside = c.meaning();
  CHECK(inside.find("inside the debit's own transaction") != std::string::npos);
  CHECK(inside.find("isolation level") != std::string::npos);
  CHECK(inside.find("in another transaction") == std::string::npos);
  c.strategy = "atomic";  // check is read by check-then-act only
  CHECK(c.meaning().find("dedup key in the same transaction") != std::string::npos);
  c.strategy = "separate-dedup-store";
  CHECK(c.meaning().find("before the debit commits") != std::string::npos);
  c.mark = consumer::Mark::kAfterCommit;
  CHECK(c.meaning().find("commits the debit, then marks") == 0);
  c.strategy = "atomic";  // atomic + dedup = none is no-dedup: its meaning
  c.dedup = consumer::Dedup::kNone;
  CHECK(c.meaning().find("keeps no dedup key") != std::string::npos);
}
