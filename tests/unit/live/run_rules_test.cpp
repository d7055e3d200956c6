// What a live run takes of a scenario (src/live/run_rules.h), how it counts the rules that
// fired (src/live/actor_process.h) and how it shows a broker URL (src/live/endpoint.h).
// Pure: no broker, no process.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/live/actor_process.h"
#include "src/live/broker_probe.h"
#include "src/live/endpoint.h"
#include "src/live/run_rules.h"
#include "src/orders/order_key.h"
#include "tests/support/scenario_load.h"

namespace {

bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

lab::Scenario scenario(const std::string& toml) {
  lab::Scenario s = test_support::loaded(lab::parse_scenario("name = \"t\"\n" + toml, "t.toml"));
  return s;
}

sim::FiredFault fault(const std::string& site, std::int64_t order, std::int64_t attempt) {
  sim::FiredFault f;
  f.site = site;
  f.action = sim::FaultAction::kCrash;
  f.key[orders::kOrder] = order;
  f.key[orders::kAttempt] = attempt;
  return f;
}

}  // namespace

TEST_CASE("live refuses, naming the key, what it cannot honour", "[live-unit]") {
  CHECK(live::live_refusal(scenario("[workload]\norders = 3\n")).empty());
  CHECK(mentions(live::live_refusal(scenario("[network]\nlatency_max = 9\n")), "latency_max = 9"));
  CHECK(mentions(live::live_refusal(scenario("seed_sensitive = true\n")), "seed_sensitive"));
  const std::string nth = live::live_refusal(
      scenario("[[faults.script]]\nat = \"consumer.after_commit\"\nnth = 2\ndo = \"crash\"\n"));
  CHECK(mentions(nth, "faults.script[1].nth"));
  // nth on a network rule is the fault proxy's, counted over the run: taken.
  CHECK(live::live_refusal(scenario("[[faults.script]]\nat = \"net.consumer->broker\"\n"
                                    "frame = \"basic.ack\"\nnth = 2\ndo = \"drop\"\n"))
            .empty());
}

TEST_CASE("live --jobs runs beside others only what leaves the broker and database alone",
          "[live-unit]") {
  CHECK(live::runs_alongside(scenario("[workload]\norders = 3\n")));
  CHECK(live::runs_alongside(
      scenario("[[faults.script]]\nat = \"consumer.after_commit\"\norder = 2\ndo = \"crash\"\n")));
  // A clean restart cuts every run's connections as a crash does (scenario 15's rule).
  CHECK_FALSE(live::runs_alongside(
      scenario("[[faults.script]]\nat = \"broker.restart\"\norder = 2\ndo = \"restart\"\n")));
  CHECK_FALSE(live::runs_alongside(
      scenario("[[faults.script]]\nat = \"broker.crash\"\norder = 3\ndo = \"kill\"\n")));
  CHECK_FALSE(live::runs_alongside(scenario(
      "[[faults.script]]\nat = \"db.restart\"\norder = 2\nattempt = 1\ndo = \"restart\"\n")));
  CHECK_FALSE(live::runs_alongside(scenario("[broker]\nconsumer_timeout = 105\n")));
}

TEST_CASE("live counts each fired fault for the first rule it matches", "[live-unit]") {
  const lab::Scenario s = scenario(
      "[[faults.script]]\nat = \"consumer.after_commit\"\norder = 2\ndo = \"crash\"\n"
      "[[faults.script]]\nat = \"consumer.after_commit\"\norder = 2\nattempt = 2\ndo = \"crash\"\n"
      "[[faults.script]]\nat = \"consumer.after_commit\"\norder = 3\ndo = \"crash\"\n");
  // Order 2's first crash is the first rule's; its second (attempt 2) the second rule's.
  const std::vector<sim::FiredFault> fired = {fault("consumer.after_commit", 2, 1),
                                              fault("consumer.after_commit", 2, 2)};
  CHECK(live::times_fired(s.script, fired) == std::vector<std::int64_t>{1, 1, 0});
  CHECK(live::times_fired(s.script, {}) == std::vector<std::int64_t>{0, 0, 0});
}

TEST_CASE("a broker URL is never shown with its password", "[live-unit]") {
  CHECK(live::redacted_url("amqp://me:S3cret@host:5672/v") == "amqp://me:***@host:5672/v");
  CHECK(live::redacted_url("amqp://host:5672/") == "amqp://host:5672/");
  CHECK(live::redacted_url("amqp://me@host/") == "amqp://me@host/");
  live::Endpoint e;
  const live::Status bad = live::parse_amqp_url("amqp://me:S3cret@host:99999/", e);
  CHECK(!bad.ok());
  CHECK(!mentions(bad.message, "S3cret"));
}

TEST_CASE("what the user can fix at their broker is bad input", "[live-unit]") {
  CHECK(live::is_access_error(live::Status::error("403 ACCESS_REFUSED", 403)));
  CHECK(live::is_access_error(live::Status::error("530 NOT_ALLOWED", 530)));
  CHECK(!live::is_access_error(live::Status::error("404 NOT_FOUND", 404)));
  CHECK(!live::is_access_error(live::Status::error("connection lost")));
}
