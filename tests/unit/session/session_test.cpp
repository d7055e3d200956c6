// The session model behind eosim-gui (src/session/session.h) and the World views and
// commands it uses: going back and scrubbing show exactly the states stepping forward
// showed, faults made by hand replay from an exported file to the same trace hash, and
// the step triggers of fault rules load, write and fire as documented.

#include "src/session/session.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "src/broker/broker.h"
#include "src/orders/event_kinds.h"
#include "src/orders/order_key.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

using test_support::load_example;

void open(lab::Session& session, const lab::Scenario& scenario) {
  REQUIRE_OK(session.open(scenario));
}

// Everything the GUI shows at a step, flattened so two states compare with one ==.
struct Shown {
  std::uint64_t step = 0;
  std::uint64_t trace_hash = 0;
  std::uint64_t trace_events = 0;
  std::vector<std::string> tables;
  std::vector<std::string> broker;
  std::vector<std::string> actors;
  std::string verdict;
  std::int64_t balance = 0;
  bool operator==(const Shown&) const = default;
};

Shown shown(lab::Session& session) {
  const lab::StepView& v = session.view();
  Shown s;
  s.step = v.step;
  s.trace_hash = session.world().kernel().trace.hash();
  s.trace_events = session.world().kernel().trace.size();
  for (const lab::DbTable& t : v.tables) {
    for (const auto& row : t.rows) {
      std::string line = t.name + ":";
      for (const auto& cell : row) line += " " + cell;
      s.tables.push_back(line);
    }
  }
  for (const auto& r : v.ready) {
    s.broker.push_back("ready " + std::to_string(r.seq) + " " + r.message.message_id +
                       (r.redelivered ? " redelivered" : ""));
  }
  for (const auto& c : v.channels) {
    for (const auto& u : c.unacked) {
      s.broker.push_back("unacked " + u.consumer_tag + " tag=" + std::to_string(u.delivery_tag) +
                         " " + u.message.message_id + (u.redelivered ? " redelivered" : ""));
    }
  }
  for (const auto& d : v.dead_letters) s.broker.push_back("dead " + d.message.message_id);
  s.broker.push_back("delivered " + std::to_string(v.counters.delivered) + " acked " +
                     std::to_string(v.counters.acked));
  for (const auto& a : v.actors) {
    s.actors.push_back(a.name + (a.up ? " up " : " down ") + std::to_string(a.holding));
  }
  s.verdict = lab::verdict_name(v.summary.report.verdict);
  s.balance = v.summary.report.balance_actual;
  return s;
}

}  // namespace

TEST_CASE("stepping back and scrubbing show exactly the states stepping forward showed",
          "[session]") {
  const std::string file = GENERATE(std::string("02-crash-between-commit-and-ack.toml"),
                                    std::string("10-poison-requeue-forever.toml"));
  lab::Scenario scenario = load_example(file);
  scenario.max_steps = 400;  // the poison loop would run to 5000
  lab::Session session;
  open(session, scenario);

  std::vector<Shown> forward;
  forward.push_back(shown(session));
  while (session.step_forward()) forward.push_back(shown(session));
  REQUIRE(forward.size() > 30);
  CHECK(forward.back().step == session.end().steps);
  CHECK(forward.back().trace_hash == session.end().trace_hash);

  // One step back at a time, from the end to the start.
  for (std::size_t k = forward.size() - 1; k-- > 0;) {
    session.step_back();
    INFO("step back to " << k);
    REQUIRE(shown(session) == forward[k]);
  }
  // Scrubbing: jumps forward and back, each settled by pump() in small slices.
  for (const std::uint64_t k : {25u, 3u, 30u, 29u, 0u, 17u, 31u, 12u}) {
    session.request(k);
    while (session.pump(4)) {
    }
    INFO("scrub to " << k);
    REQUIRE(session.settled());
    REQUIRE(shown(session) == forward[k]);
  }
  // Asking past the end stops at the end.
  session.seek(forward.size() + 100);
  CHECK(shown(session) == forward.back());
}

TEST_CASE("while a replay is under way the session keeps showing the last settled state",
          "[session]") {
  lab::Session session;
  open(session, load_example("02-crash-between-commit-and-ack.toml"));
  session.seek(30);
  const Shown at30 = shown(session);
  session.request(20);
  CHECK(session.pump(5));  // 5 of 20 steps replayed aside
  CHECK_FALSE(session.settled());
  CHECK(shown(session) == at30);
  while (session.pump(5)) {
  }
  CHECK(session.step() == 20);
}

TEST_CASE("the live tables show the redelivered order deduplicated by the atomic consumer",
          "[session]") {
  lab::Session session;
  open(session, load_example("02-crash-between-commit-and-ack.toml"));
  session.seek(session.end().steps);
  const lab::StepView& v = session.view();
  const auto table = [&](const std::string& name) -> const lab::DbTable& {
    for (const auto& t : v.tables) {
      if (t.name == name) return t;
    }
    FAIL("no table " << name);
    return v.tables.front();
  };
  CHECK(table("orders").rows.size() == 3);
  CHECK(table("outbox").rows.size() == 3);
  CHECK(table("debits").rows.size() == 3);
  CHECK(table("processed_messages").rows.size() == 3);
  CHECK(table("rejections").rows.empty());
  REQUIRE(table("accounts").rows.size() == 1);
  CHECK(table("accounts").rows[0] == std::vector<std::string>{"alice", "550"});
  CHECK(v.summary.report.verdict == lab::Verdict::kExactlyOnce);
  CHECK(v.summary.redeliveries == 1);

  lab::Session no_dedup;
  open(no_dedup, load_example("02-crash-between-commit-and-ack.toml"));
  REQUIRE_OK(no_dedup.configure({.strategy = "no-dedup"}));
  no_dedup.seek(no_dedup.end().steps);
  CHECK(no_dedup.view().summary.report.verdict == lab::Verdict::kDuplicated);
  CHECK(no_dedup.view().summary.report.balance_actual == 400);
  // The two strategies share every event up to the redelivery's dedup check.
  const auto d = lab::first_divergence(session.world().kernel().trace.events(),
                                       no_dedup.world().kernel().trace.events());
  REQUIRE(d.diverged);
  CHECK(session.world().kernel().trace.events()[d.event].kind == orders::event::kDuplicate);
  CHECK(no_dedup.world().kernel().trace.events()[d.event].kind == orders::event::kCommit);
}

TEST_CASE("a fault made by hand is exported as a file that replays to the same trace hash",
          "[session]") {
  using K = lab::HandFaultKind;
  struct Case {
    lab::HandFault fault;
    std::uint64_t at;
  };
  const Case c =
      GENERATE(Case{{K::kCrashAfterCommit, "", "", 1}, 5}, Case{{K::kCrashNow, "", "", 1}, 19},
               Case{{K::kDropNext, "net.consumer->broker", "basic.ack", 0}, 9},
               Case{{K::kDropNext, "net.broker->consumer", "basic.deliver", 1}, 0},
               Case{{K::kBreakConnection, "net.broker->consumer", "", 0}, 17},
               Case{{K::kBreakConnection, "net.relay->broker", "", 0}, 12},
               Case{{K::kRestartBroker, "", "", 0}, 16}, Case{{K::kFailNextCommit, "", "", 0}, 10});
  INFO(lab::describe_rule(lab::rule_for(c.fault, c.at)));

  lab::Session session;
  open(session, load_example("01-happy-path.toml"));
  const lab::RunSummary untouched = session.end();
  session.seek(c.at);
  REQUIRE(session.step() == c.at);
  session.inject(c.fault);
  REQUIRE(session.hand_rules().size() == 1);
  // The fault fired (now, or at the next opportunity) and changed the run.
  session.seek(session.end().steps);
  const lab::RunSummary& live = session.view().summary;
  CHECK(live.trace_hash == session.end().trace_hash);
  REQUIRE(live.faults.size() == untouched.faults.size() + 1);
  CHECK(live.trace_hash != untouched.trace_hash);

  // Export, load back (the strict loader), run as `eosim run` would.
  const std::string text = session.export_toml();
  INFO(text);
  lab::Scenario replay = test_support::loaded(lab::parse_scenario(text, "exported.toml"));
  lab::RunSummary run;
  REQUIRE_OK(lab::run_scenario(replay, lab::WorldOptions{}, run, nullptr));
  CHECK(run.trace_hash == live.trace_hash);
  CHECK(run.steps == live.steps);
  CHECK(lab::unmet_expectations(replay, run).empty());

  // And scrubbing back over the fault and forward again replays it too.
  session.seek(c.at > 0 ? c.at - 1 : 0);
  session.seek(session.end().steps);
  CHECK(session.world().kernel().trace.hash() == live.trace_hash);
}

TEST_CASE("crashing the consumer by hand between commit and ack shows the redelivery",
          "[session]") {
  lab::Session session;
  open(session, load_example("01-happy-path.toml"));
  session.inject({lab::HandFaultKind::kCrashAfterCommit, "", "", 1});
  session.seek(session.end().steps);
  const lab::RunSummary& s = session.view().summary;
  REQUIRE(s.faults.size() == 1);
  CHECK(s.faults[0].site == "consumer.after_commit");
  CHECK(s.redeliveries >= 1);
  CHECK(s.report.verdict == lab::Verdict::kExactlyOnce);
  bool duplicate_seen = false;
  for (const auto& e : session.world().kernel().trace.events()) {
    duplicate_seen = duplicate_seen || e.kind == orders::event::kDuplicate;
  }
  CHECK(duplicate_seen);
}

TEST_CASE("a fault made at an earlier step drops the hand faults of the abandoned future",
          "[session]") {
  lab::Session session;
  open(session, load_example("01-happy-path.toml"));
  session.seek(30);
  session.inject({lab::HandFaultKind::kRestartBroker, "", "", 0});
  session.seek(12);
  session.inject({lab::HandFaultKind::kCrashNow, "", "", 1});
  REQUIRE(session.hand_rules().size() == 1);
  CHECK(session.hand_rules()[0].site == "consumer.process");
  CHECK(session.step() == 12);
  // The state equals a fresh run of the exported scenario at step 12.
  const std::string text = session.export_toml();
  lab::Scenario replay = test_support::loaded(lab::parse_scenario(text, "x.toml"));
  auto world = run_support::world(replay, lab::WorldOptions{});
  REQUIRE(world);
  for (int i = 0; i < 12; ++i) world->step();
  CHECK(world->kernel().trace.hash() == session.world().kernel().trace.hash());
  CHECK(world->actors()[1].up == false);  // consumer1 crashed at step 12, in both
  CHECK(session.view().actors[1].up == false);

  session.remove_hand_rule(0);
  CHECK(session.hand_rules().empty());
  CHECK(session.step() == 12);
  CHECK(session.view().actors[1].up == true);
}

TEST_CASE("step triggers load, write back and are checked strictly", "[session][scenario]") {
  const std::string head = "name = \"x\"\n[consumer]\ninstances = 2\n";
  lab::Scenario s = test_support::loaded(
      lab::parse_scenario(head + "[[faults.script]]\nat = \"consumer.process\"\ndo = "
                                 "\"crash\"\nstep = 12\ninstance = 2\n"
                                 "[[faults.script]]\nat = \"net.consumer->broker\"\ndo = "
                                 "\"drop\"\nframe = \"basic.ack\"\nafter_step = 40\n",
                          "ok.toml"));
  REQUIRE(s.script.size() == 2);
  CHECK(s.script[0].step == 12);
  CHECK(s.script[0].key[orders::kInstance] == 2);
  CHECK(s.script[1].after_step == 40);
  lab::Scenario again = test_support::loaded(lab::parse_scenario(lab::to_toml(s), "again.toml"));
  again.path = s.path;
  CHECK(again == s);

  const auto bad = [&](const std::string& rule, const std::string& key) {
    INFO(rule);
    const lab::LoadError e = test_support::error_parts(
        test_support::refused(lab::parse_scenario(head + "[[faults.script]]\n" + rule, "bad.toml")),
        "bad.toml");
    CHECK(e.key == "faults.script[1]." + key);
  };
  bad("at = \"consumer.process\"\ndo = \"crash\"\n", "at");                   // needs a moment
  bad("at = \"consumer.after_commit\"\ndo = \"crash\"\nstep = 3\n", "step");  // not timed
  bad("at = \"broker.restart\"\ndo = \"restart\"\nstep = 3\ntick = 9\n", "step");
  bad("at = \"broker.restart\"\ndo = \"restart\"\nafter_step = 3\nstep = 4\n", "after_step");
  bad("at = \"consumer.process\"\ndo = \"crash\"\nafter_step = 3\n", "after_step");
  bad("at = \"db.commit\"\ndo = \"fail\"\nafter_step = -1\n", "after_step");
}

TEST_CASE("an after_step rule matches no opportunity up to its step, then the next one",
          "[session]") {
  lab::Scenario s = load_example("01-happy-path.toml");
  // Without a trigger this rule would drop the very first basic.deliver.
  sim::FaultRule rule;
  rule.site = "net.broker->consumer";
  rule.action = sim::FaultAction::kDrop;
  rule.frame = "basic.deliver";
  rule.after_step = 20;
  s.script.push_back(rule);
  lab::RunSummary run;
  REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, nullptr));
  REQUIRE(run.faults.size() == 1);
  CHECK(run.faults[0].step > 20);
  CHECK(run.faults[0].frame == "basic.deliver");
  CHECK(run.faults[0].nth > 1);  // earlier deliveries went through
}
