// The strict scenario loader (src/scenario/scenario.h) and the catalog of names
// (src/catalog/catalog.h): good files load field by field, every kind of bad input names the
// right key and line, and to_toml writes what the loader reads back.

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "src/catalog/catalog.h"
#include "src/orders/order_key.h"
#include "src/scenario/scenario.h"
#include "tests/support/scenario_load.h"

namespace {

std::string data_path(const std::string& relative) {
  return std::string(EOSIM_SOURCE_DIR) + "/tests/data/" + relative;
}

lab::Scenario load_good(const std::string& relative) {
  return test_support::load_scenario_file(data_path(relative));
}

using test_support::parse_bad;

using Orders = std::vector<std::int64_t>;

// A scenario that must be refused: its text (or fixture file), and where and why.
struct Refusal {
  const char* input;
  std::int64_t line;
  const char* key;
  const char* message_part;
};

// The error names `file`, the case's line and key, and says the case's words.
void check_refusal(const lab::LoadError& error, const std::string& file, const Refusal& c) {
  INFO(error.to_string());
  CHECK(error.file == file);
  CHECK(error.line == c.line);
  CHECK(error.key == c.key);
  CHECK(error.message.find(c.message_part) != std::string::npos);
}

}  // namespace

TEST_CASE("a full scenario file loads with every field", "[scenario]") {
  const lab::Scenario s = load_good("good/full.toml");
  CHECK(s.path == data_path("good/full.toml"));
  CHECK(s.name == "every field");
  CHECK(s.about ==
        "Sets every key of the format, so the loader test can check each one.\n"
        "Second line, with \"quotes\" and a backslash \\ in it.");
  CHECK(s.seed == 42);
  CHECK(s.max_steps == 5000);

  CHECK(s.workload.orders == 4);
  CHECK(s.workload.amount == 99);
  CHECK(s.workload.initial_balance == 2000);
  CHECK(s.workload.account == "bob");
  CHECK(s.workload.amounts == Orders{100, 200, 300, 400});
  CHECK(s.workload.without_message_id == Orders{2, 4});  // sorted
  CHECK(s.workload.interval_ticks == 7);
  CHECK(s.workload.amount_of(3) == 300);

  CHECK(s.producer.pattern == "dual-write");
  CHECK(s.broker.queue == broker::QueueType::kQuorum);
  CHECK(s.broker.prefetch == 2);
  CHECK(s.broker.delivery_limit == 3);
  CHECK(s.broker.dead_letter);
  CHECK_FALSE(s.broker.durable);
  CHECK_FALSE(s.broker.persistent);
  CHECK(s.consumer.strategy == "check-then-act");
  CHECK(s.consumer.instances == 2);
  CHECK(s.network.latency_min == 2);
  CHECK(s.network.latency_max == 6);
  CHECK(s.network.heartbeat_timeout == 40);
  CHECK(s.network.reconnect_delay == 8);

  CHECK(s.random.budget == 5);
  CHECK(s.random.horizon == 900);
  const std::map<std::string, sim::Ratio> ratios = {{"crash", {1, 30}},
                                                    {"drop", {1, 20}},
                                                    {"fail", {0, 1}},
                                                    {"reorder", {1, 1}},
                                                    {"restart", {2, 7}}};
  CHECK(s.random.ratios == ratios);

  REQUIRE(s.script.size() == 3);
  sim::FaultRule crash;
  crash.site = "consumer.after_commit";
  crash.action = sim::FaultAction::kCrash;
  crash.key[orders::kOrder] = 2;
  crash.key[orders::kAttempt] = 1;
  crash.key[orders::kInstance] = 2;
  CHECK(s.script[0] == crash);
  sim::FaultRule drop;
  drop.site = "net.consumer->broker";
  drop.action = sim::FaultAction::kDrop;
  drop.frame = "basic.ack";
  drop.nth = 2;
  drop.times = 3;
  CHECK(s.script[1] == drop);
  sim::FaultRule restart;
  restart.site = "broker.restart";
  restart.action = sim::FaultAction::kRestart;
  restart.tick = 120;
  CHECK(s.script[2] == restart);

  CHECK(s.expect.verdict == lab::Verdict::kDuplicated);
  CHECK(s.expect.balance == std::optional<std::int64_t>(700));
  CHECK(s.expect.lost == std::optional<Orders>(Orders{}));
  CHECK(s.expect.duplicated == std::optional<Orders>(Orders{1, 3}));
  CHECK(s.expect.phantom == std::optional<Orders>(Orders{4}));
  CHECK(s.expect.stuck == std::optional<Orders>(Orders{2}));
  CHECK(s.expect.dead_lettered == std::optional<Orders>(Orders{1}));
  CHECK(s.expect.rejected == std::optional<Orders>(Orders{4}));
}

TEST_CASE("a scenario with only a name takes the documented defaults", "[scenario]") {
  const lab::Scenario s = load_good("good/minimal.toml");
  lab::Scenario expected;
  expected.path = data_path("good/minimal.toml");
  expected.name = "only a name";
  CHECK(s == expected);
  // The defaults themselves, as docs/scenario-format.md states them.
  CHECK(s.seed == 1);
  CHECK(s.workload.orders == 3);
  CHECK(s.workload.amount == 150);
  CHECK(s.workload.initial_balance == 1000);
  CHECK(s.workload.amount_of(2) == 150);
  CHECK(s.producer.pattern == "outbox");
  CHECK(s.broker.queue == broker::QueueType::kClassic);
  CHECK(s.broker.prefetch == 5);
  CHECK(s.broker.delivery_limit == 0);
  CHECK(s.consumer.strategy == "atomic");
  CHECK(s.consumer.instances == 1);
  CHECK(s.random.ratios.empty());
  CHECK(s.script.empty());
  CHECK_FALSE(s.expect.verdict.has_value());
  CHECK_FALSE(s.expect.lost.has_value());
}

TEST_CASE("each bad fixture file names its file, line and key", "[scenario]") {
  const Refusal c = GENERATE(values<Refusal>({
      {"bad/malformed.toml", 5, "", ""},
      {"bad/unknown_top_key.toml", 3, "colour", "unknown key"},
      {"bad/unknown_script_key.toml", 10, "faults.script[2].atempt", "unknown key"},
      {"bad/wrong_type.toml", 4, "workload.orders", "expected an integer, found a string"},
      {"bad/bad_value.toml", 5, "consumer.instances", "between 1 and 16, got 17"},
      {"bad/bad_ratio.toml", 5, "faults.random.crash", "bad ratio \"3/2\""},
      {"bad/bad_site.toml", 4, "faults.script[1].at",
       "unknown fault site \"consumer.after_lunch\""},
      {"bad/bad_action.toml", 6, "faults.script[1].do", "not allowed at consumer.after_commit"},
      {"bad/missing_name.toml", 0, "name", "required"},
  }));
  const std::string path = data_path(c.input);
  const std::string error = test_support::refused(lab::load_scenario(path));
  check_refusal(test_support::error_parts(error, path), path, c);
}

TEST_CASE("a missing file is a 'cannot open' error without line or key", "[scenario]") {
  const std::string path = data_path("no/such/file.toml");
  const std::string text = test_support::refused(lab::load_scenario(path));
  const lab::LoadError error = test_support::error_parts(text, path);
  CHECK(error.file == path);
  CHECK(error.line == 0);
  CHECK(error.key.empty());
  CHECK(error.message == "cannot open the file: No such file or directory");
  CHECK(text == path + ": " + error.message);
  // A directory is no scenario file either.
  CHECK(test_support::refused(lab::load_scenario(data_path("good"))).find("is a folder") !=
        std::string::npos);
}

TEST_CASE("LoadError::to_string reads FILE:LINE: key `K`: MESSAGE", "[scenario]") {
  const lab::LoadError full{"a.toml", 12, "broker.prefetch", "must be at least 0, got -1"};
  CHECK(full.to_string() == "a.toml:12: key `broker.prefetch`: must be at least 0, got -1");
  const lab::LoadError no_key{"a.toml", 3, "", "expected '='"};
  CHECK(no_key.to_string() == "a.toml:3: expected '='");
}

TEST_CASE("every kind of bad value is an error naming its key and line", "[scenario]") {
  // Line 1 is always the name, so each problem sits on a known later line.
  const Refusal c = GENERATE(values<Refusal>({
      {"name = 'x'\n[workload]\norders = 0\n", 3, "workload.orders", "between 1 and 1000000"},
      {"name = 'x'\n[workload]\norders = 1000001\n", 3, "workload.orders", "got 1000001"},
      {"name = 'x'\n[workload]\namount = -1\n", 3, "workload.amount", "got -1"},
      {"name = 'x'\n[workload]\namount = 1.5\n", 3, "workload.amount",
       "expected an integer, found a floating-point number"},
      {"name = 'x'\n[workload]\norders = 2\namounts = [1, 2, 3]\n", 4, "workload.amounts",
       "3 entries but workload.orders is 2"},
      {"name = 'x'\n[workload]\namounts = [1, 'two', 3]\n", 3, "workload.amounts",
       "expected an integer"},
      {"name = 'x'\n[workload]\norders = 2\nwithout_message_id = [3]\n", 4,
       "workload.without_message_id", "between 1 and 2, got 3"},
      {"name = 'x'\n[workload]\nwithout_message_id = [1, 1]\n", 3, "workload.without_message_id",
       "twice"},
      {"name = 'x'\n[workload]\naccount = ''\n", 3, "workload.account", "must not be empty"},
      {"name = ''\n", 1, "name", "must not be empty"},
      {"name = 'x'\nseed = -4\n", 2, "seed", "at least 0"},
      {"name = 'x'\nseed = 'abc'\n", 2, "seed", "non-negative integer"},
      {"name = 'x'\nmax_steps = 0\n", 2, "max_steps", "got 0"},
      {"name = 'x'\ndraws = 'random'\n", 2, "draws", "expected one of: sequence, keyed"},
      {"name = 'x'\nworkload = 3\n", 2, "workload", "expected a table"},
      {"name = 'x'\n[producer]\npattern = 'carrier-pigeon'\n", 3, "producer.pattern",
       "unknown producer pattern \"carrier-pigeon\""},
      {"name = 'x'\n[broker]\nqueue = 'stream'\n", 3, "broker.queue", "unknown queue type"},
      {"name = 'x'\n[broker]\nprefetch = -1\n", 3, "broker.prefetch", "got -1"},
      {"name = 'x'\n[broker]\ndead_letter = 'yes'\n", 3, "broker.dead_letter",
       "expected a boolean"},
      {"name = 'x'\n[broker]\ndelivery_limit = 3\n", 3, "broker.delivery_limit", "quorum"},
      {"name = 'x'\n[network]\nheartbeat = 5\nheartbeat_timeout = 9\n", 4,
       "network.heartbeat_timeout", "not both"},
      {"name = 'x'\n[network]\nclient_timeout = 9\n", 3, "network.client_timeout",
       "needs heartbeat"},
      {"name = 'x'\n[network]\nheartbeat = 0\nclient_timeout = 9\n", 4, "network.client_timeout",
       "heartbeat = 0"},
      {"name = 'x'\n[network]\nheartbeat = -1\n", 3, "network.heartbeat", "got -1"},
      {"name = 'x'\n[faults.random]\nfreeze = '1/2'\n", 3, "faults.random.freeze", "scripted only"},
      {"name = 'x'\n[broker]\nexchange = 'x'\n", 3, "broker.exchange", "unknown key"},
      {"name = 'x'\n[consumer]\nstrategy = 'optimistic'\n", 3, "consumer.strategy",
       "unknown strategy \"optimistic\""},
      {"name = 'x'\n[consumer]\ninstances = 0\n", 3, "consumer.instances", "got 0"},
      {"name = 'x'\n[network]\nlatency_min = 5\nlatency_max = 2\n", 4, "network.latency_max",
       "latency_min (5) is above latency_max (2)"},
      {"name = 'x'\n[network]\nlatency_min = 4\n", 3, "network.latency_min",
       "above latency_max (3)"},
      {"name = 'x'\n[faults]\nbudget = -1\n", 3, "faults.budget", "got -1"},
      {"name = 'x'\n[faults.random]\nflood = '1/2'\n", 3, "faults.random.flood",
       "unknown fault kind"},
      {"name = 'x'\n[faults.random]\ndrop = 0.05\n", 3, "faults.random.drop",
       "expected a ratio string"},
      {"name = 'x'\n[faults.random]\ndrop = '1/0'\n", 3, "faults.random.drop", "bad ratio"},
      {"name = 'x'\n[faults]\nscript = 'all'\n", 3, "faults.script", "array of tables"},
      {"name = 'x'\n[faults]\nscript = [1]\n", 3, "faults.script[1]", "expected a table"},
      {"name = 'x'\n[[faults.script]]\ndo = 'crash'\n", 2, "faults.script[1].at",
       "required key is missing"},
      {"name = 'x'\n[[faults.script]]\nat = 'db.commit'\n", 2, "faults.script[1].do",
       "required key is missing"},
      {"name = 'x'\n[[faults.script]]\nat = 'db.commit'\ndo = 'explode'\n", 4,
       "faults.script[1].do", "unknown action \"explode\""},
      {"name = 'x'\n[[faults.script]]\nat = 'db.commit'\ndo = 'crash'\n", 4, "faults.script[1].do",
       "allowed: fail"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.after_ack'\nframe = 'basic.ack'\n"
       "do = 'crash'\n",
       4, "faults.script[1].frame", "only to network sites"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.consumer->broker'\nframe = 'basic.deliver'\n"
       "do = 'drop'\n",
       4, "faults.script[1].frame", "never travels on net.consumer->broker"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.consumer->broker'\nframe = 'smoke.signal'\n"
       "do = 'drop'\n",
       4, "faults.script[1].frame", "unknown frame kind"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\norder = 4\n", 5,
       "faults.script[1].order", "between 1 and 3, got 4"},
      // A kill on a network site: a consumer's link only, at its frame, never at a moment.
      {"name = 'x'\n[[faults.script]]\nat = 'net.relay->broker'\nframe = 'basic.publish'\n"
       "do = 'crash'\n",
       5, "faults.script[1].do", "allowed: drop, freeze)"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.broker->consumer'\ndo = 'crash'\n", 4,
       "faults.script[1].do", "kills the consumer at a frame: give `frame = \"basic.deliver\"`"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.broker->consumer'\nframe = 'channel.close'\n"
       "do = 'crash'\n",
       4, "faults.script[1].frame", "applies only to frame basic.deliver, not channel.close"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.consumer->broker'\nframe = 'basic.ack'\n"
       "do = 'crash'\ntick = 5\n",
       6, "faults.script[1].tick", "fires at its frame, not at a moment"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\nattempt = 0\n", 5,
       "faults.script[1].attempt", "got 0"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\nnth = 0\n", 5,
       "faults.script[1].nth", "got 0"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\ninstance = 2\n", 5,
       "faults.script[1].instance", "between 1 and 1, got 2"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\ntick = 9\n", 5,
       "faults.script[1].tick", "applies only to consumer.process, broker.restart"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.on_deliver'\ndo = 'crash'\ntimes = 0\n", 5,
       "faults.script[1].times", "got 0"},
      {"name = 'x'\n[expect]\nverdict = 'fine'\n", 3, "expect.verdict",
       "exactly-once, duplicated, lost, phantom, stuck"},
      {"name = 'x'\n[expect]\nbalance = '550'\n", 3, "expect.balance", "expected an integer"},
      {"name = 'x'\n[expect]\nlost = [0]\n", 3, "expect.lost", "between 1 and 3, got 0"},
      {"name = 'x'\n[expect]\nduplicated = 2\n", 3, "expect.duplicated", "expected an array"},
      {"name = 'x'\n[expect]\nlate = [1]\n", 3, "expect.late", "unknown key"},
  }));
  check_refusal(parse_bad(c.input), "inline.toml", c);
}

TEST_CASE("order numbers are checked against orders wherever [workload] appears", "[scenario]") {
  // [expect] before [workload] in the file: the range still comes from workload.orders.
  lab::Scenario s = test_support::loaded(lab::parse_scenario(
      "name = 'x'\n[expect]\nlost = [5]\n[workload]\norders = 5\n", "inline.toml"));
  CHECK(s.expect.lost == std::optional<Orders>(Orders{5}));
  const lab::LoadError error =
      test_support::parse_bad("name = 'x'\n[expect]\nlost = [6]\n[workload]\norders = 5\n");
  CHECK(error.key == "expect.lost");
  CHECK(error.line == 3);
}

TEST_CASE("a TOML syntax error reports the parser's line and message", "[scenario]") {
  const lab::LoadError error = parse_bad("name = 'x'\nseed = 1\n[workload\norders = 2\n");
  CHECK(error.line == 3);
  CHECK(error.key.empty());
  CHECK_FALSE(error.message.empty());
  CHECK(error.to_string().rfind("inline.toml:3: ", 0) == 0);
}

TEST_CASE("to_toml writes a file that loads back to the same scenario", "[scenario]") {
  lab::Scenario original;
  SECTION("the full fixture") { original = load_good("good/full.toml"); }
  SECTION("the minimal fixture") { original = load_good("good/minimal.toml"); }
  SECTION("awkward strings, a huge seed and an empty expect list") {
    original.name = "quotes \" and \\ backslash\tand a tab";
    original.about = "line one\nline \"two\" ends in a quote\"\n\x01 control, caf\xc3\xa9\n";
    original.seed = std::numeric_limits<std::uint64_t>::max();
    original.workload.account = "o'brien";
    sim::FaultRule rule{.site = "db.commit", .action = sim::FaultAction::kFail};
    rule.key = sim::KeyMatch{{3, 2, std::nullopt}};
    rule.nth = 1;
    rule.times = 4;
    original.script.push_back(rule);
    original.expect.stuck = Orders{};
    original.expect.verdict = lab::Verdict::kStuck;
  }
  SECTION("keyed draws, as explore --draws keyed writes them") {
    original.name = "keyed";
    original.draws = sim::Draws::kKeyed;
  }
  SECTION("a one-line about and the largest signed seed") {
    original.name = "n";
    original.about = "one line";
    original.seed = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    original.random.ratios["drop"] = sim::Ratio{3, 1000};
  }
  SECTION("heartbeats with a client timeout, and a freeze rule") {
    original.name = "hb";
    original.network.heartbeat = 5;
    original.network.client_timeout = 0;
    original.consumer.instances = 2;
    sim::FaultRule freeze;
    freeze.site = "net.broker->consumer";
    freeze.action = sim::FaultAction::kFreeze;
    freeze.frame = "basic.deliver";
    freeze.key[orders::kInstance] = 2;
    original.script.push_back(freeze);
  }
  const std::string text = lab::to_toml(original);
  INFO(text);
  lab::Scenario reread = test_support::loaded(lab::parse_scenario(text, "written.toml"));
  reread.path = original.path;
  CHECK(reread == original);
  // Writing is deterministic: the same scenario always gives the same text.
  CHECK(lab::to_toml(reread) == text);
}

TEST_CASE("parse_fault_spec reads the sweep's --faults option", "[scenario]") {
  std::map<std::string, sim::Ratio> ratios;
  REQUIRE(lab::parse_fault_spec("drop=1/20,crash=1/30", ratios).ok());
  CHECK(ratios == std::map<std::string, sim::Ratio>{{"crash", {1, 30}}, {"drop", {1, 20}}});
  REQUIRE(lab::parse_fault_spec(" fail = 1 , restart=0", ratios).ok());
  CHECK(ratios == std::map<std::string, sim::Ratio>{{"fail", {1, 1}}, {"restart", {0, 1}}});
  REQUIRE(lab::parse_fault_spec("", ratios).ok());
  CHECK(ratios.empty());

  struct Case {
    const char* spec;
    const char* message_part;
  };
  const Case c = GENERATE(values<Case>({
      {"drop", "not KIND=RATIO"},
      {"drop=1/20,,crash=1/2", "not KIND=RATIO"},
      {"flood=1/2", "unknown fault kind \"flood\""},
      {"drop=1/2,drop=1/3", "given twice"},
      {"drop=3/2", "bad ratio \"3/2\""},
      {"drop=0.05", "bad ratio"},
      {"drop=1/20,", "ends with a comma"},
      {"freeze=1/20", "scripted only"},
  }));
  std::map<std::string, sim::Ratio> untouched = {{"reorder", {1, 9}}};
  INFO(c.spec);
  const eosim::Status refused = lab::parse_fault_spec(c.spec, untouched);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.message.find(c.message_part) != std::string::npos);
  CHECK(untouched == std::map<std::string, sim::Ratio>{{"reorder", {1, 9}}});
}

TEST_CASE("the catalog is consistent and finds exactly its own names", "[catalog]") {
  const auto names_of = [](const auto& list) {
    std::vector<std::string> names;
    for (const auto& entry : list) names.emplace_back(entry.name);
    return names;
  };
  CHECK(names_of(lab::strategies()) ==
        std::vector<std::string>{"atomic", "auto-ack", "ack-before-commit", "no-dedup",
                                 "separate-dedup-store", "check-then-act", "naive-errors",
                                 "requeue-poison"});
  CHECK(names_of(lab::producers()) == std::vector<std::string>{"outbox", "dual-write",
                                                               "publish-then-commit",
                                                               "outbox-no-confirm"});
  CHECK(names_of(lab::fault_kinds()) ==
        std::vector<std::string>{"drop", "crash", "fail", "reorder", "restart", "kill", "freeze"});

  std::set<std::string> sites;
  for (const lab::FaultSite& site : lab::fault_sites()) {
    INFO(site.name);
    CHECK(sites.insert(std::string(site.name)).second);
    CHECK_FALSE(site.meaning.empty());
    CHECK(lab::find_fault_kind(lab::action_name(site.action)));
    for (const lab::SiteFrame& frame : site.frames) CHECK(lab::find_frame_kind(frame.kind));
    CHECK(site.is_network() == (site.name.substr(0, 4) == "net."));
    CHECK(lab::find_fault_site(site.name) == &site);
  }
  for (const char* name : {"consumer.on_deliver",
                           "consumer.after_dedup_insert",
                           "consumer.after_side_effect",
                           "consumer.before_commit",
                           "consumer.after_commit",
                           "consumer.after_ack",
                           "consumer.process",
                           "relay.after_publish",
                           "relay.after_confirm",
                           "producer.after_commit",
                           "producer.after_publish",
                           "db.commit",
                           "db.commit_reply",
                           "db.restart",
                           "db.producer_commit_reply",
                           "db.producer_restart",
                           "db.serialization_failure",
                           "db.deadlock",
                           "dedup.mark_reply",
                           "broker.restart",
                           "broker.crash",
                           "broker.reorder",
                           "net.relay->broker",
                           "net.broker->relay",
                           "net.producer->broker",
                           "net.broker->consumer",
                           "net.consumer->broker"}) {
    CHECK(sites.count(name) == 1);
  }
  CHECK(sites.size() == 27);

  const lab::FaultSite* acks = lab::find_fault_site("net.consumer->broker");
  REQUIRE(acks);
  CHECK(acks->allows(lab::Action::kDrop));
  CHECK(acks->allows(lab::Action::kFreeze));
  CHECK(acks->allows(lab::Action::kCrash));  // a kill at a frame (basic.ack only)
  CHECK(acks->frame("basic.ack")->kills);
  CHECK_FALSE(acks->frame("basic.nack")->kills);
  CHECK_FALSE(lab::find_fault_site("net.relay->broker")->allows(lab::Action::kCrash));
  CHECK(acks->carries("basic.ack"));
  CHECK_FALSE(acks->carries("basic.deliver"));
  CHECK(lab::find_fault_site("db.commit")->allows(lab::Action::kFail));
  CHECK_FALSE(lab::find_fault_site("db.commit")->allows(lab::Action::kFreeze));
  // The couriers' duplicate is the fault plan's, not a scenario's.
  CHECK_FALSE(lab::parse_action("duplicate"));
  CHECK(lab::parse_action("kill") == lab::Action::kKill);

  CHECK(lab::find_strategy("atomic") == &lab::strategies().front());
  CHECK(lab::find_strategy("Atomic") == nullptr);
  CHECK(lab::find_producer("outbox-no-confirm") != nullptr);
  CHECK(lab::find_producer("outbox-") == nullptr);
  CHECK(lab::find_queue_type("quorum") != nullptr);
  CHECK(lab::find_frame_kind("basic.return") != nullptr);
  CHECK(lab::find_frame_kind("basic") == nullptr);
  CHECK(lab::find_verdict("exactly-once") != nullptr);
  CHECK(lab::find_verdict("") == nullptr);
  CHECK(lab::join_names(lab::queue_types()) == "classic, quorum");
}

TEST_CASE("a rule that can never fire is refused with its key, line and who passes the site",
          "[scenario][fault_sites]") {
  const Refusal c = GENERATE(values<Refusal>({
      {"name = 'x'\n[[faults.script]]\nat = 'producer.after_publish'\ndo = 'crash'\n", 3,
       "faults.script[1].at", "passed by: producer patterns dual-write, publish-then-commit"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.producer->broker'\ndo = 'drop'\n", 3,
       "faults.script[1].at", "never passed under producer outbox"},
      {"name = 'x'\n[producer]\npattern = 'dual-write'\n[[faults.script]]\n"
       "at = 'relay.after_publish'\ndo = 'crash'\n",
       5, "faults.script[1].at", "passed by: producer patterns outbox, outbox-no-confirm"},
      {"name = 'x'\n[consumer]\nstrategy = 'no-dedup'\n[[faults.script]]\n"
       "at = 'consumer.after_dedup_insert'\ndo = 'crash'\n",
       5, "faults.script[1].at", "never passed under consumer no-dedup"},
      {"name = 'x'\n[consumer]\nstrategy = 'auto-ack'\n[[faults.script]]\n"
       "at = 'net.consumer->broker'\nframe = 'basic.ack'\ndo = 'drop'\n",
       6, "faults.script[1].frame", "basic.ack on net.consumer->broker is never passed"},
      {"name = 'x'\n[producer]\npattern = 'dual-write'\n[[faults.script]]\n"
       "at = 'producer.after_commit'\norder = 2\nattempt = 2\ndo = 'crash'\n",
       7, "faults.script[1].attempt", "always 1"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.broker->relay'\nframe = 'confirm.ack'\n"
       "order = 1\ndo = 'drop'\n",
       5, "faults.script[1].order", "confirm.ack carries no order"},
      {"name = 'x'\n[[faults.script]]\nat = 'net.broker->relay'\nattempt = 1\ndo = 'drop'\n", 4,
       "faults.script[1].attempt", "cannot match on `attempt`"},
      {"name = 'x'\n[[faults.script]]\nat = 'relay.after_publish'\ninstance = 1\n"
       "do = 'crash'\n",
       4, "faults.script[1].instance", "cannot match on `instance`"},
      {"name = 'x'\n[[faults.script]]\nat = 'broker.restart'\ntick = 20\norder = 2\n"
       "do = 'restart'\n",
       5, "faults.script[1].order", "fires at that moment"},
      {"name = 'x'\n[[faults.script]]\nat = 'consumer.process'\nstep = 4\nnth = 1\n"
       "do = 'crash'\n",
       5, "faults.script[1].nth", "fires at that moment"},
  }));
  check_refusal(parse_bad(c.input), "inline.toml", c);
}

TEST_CASE("check_script refuses a rule the command line's strategy never passes",
          "[scenario][fault_sites]") {
  lab::Scenario s =
      test_support::loaded(lab::parse_scenario("name = 'x'\n[[faults.script]]\n"
                                               "at = 'consumer.after_dedup_insert'\ndo = 'crash'\n",
                                               "f.toml"));
  CHECK(lab::check_script(s).ok());
  s.consumer.strategy = "check-then-act";
  const eosim::Status checked = lab::check_script(s);
  REQUIRE_FALSE(checked.ok());
  const lab::LoadError error = test_support::error_parts(checked.message, "f.toml");
  CHECK(error.file == "f.toml");
  CHECK(error.key == "faults.script[1].at");
  CHECK(error.message.find("consumer check-then-act") != std::string::npos);
}

TEST_CASE("optional = true loads, and to_toml writes it back", "[scenario]") {
  lab::Scenario s = test_support::loaded(
      lab::parse_scenario("name = 'x'\n[[faults.script]]\nat = 'consumer.after_commit'\n"
                          "nth = 9\noptional = true\ndo = 'crash'\n",
                          "f.toml"));
  REQUIRE(s.script.size() == 1);
  CHECK(s.script[0].optional);
  const lab::Scenario back = test_support::loaded(lab::parse_scenario(lab::to_toml(s), "f.toml"));
  CHECK(back.script == s.script);
}
