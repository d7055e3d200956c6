// A broker restart that loses one of the run's durable queues ends the run with an error
// naming that queue, never with a verdict. The queue goes missing for real: when the run
// says it is restarting the private broker (its progress line), the test deletes the
// run's queue on that broker and has the deletion written to disk, and only then does the
// run SIGKILL the node. Nothing but the run's supervisor declares queues, so the node comes
// back without it, whatever the timing.
#include <catch2/catch.hpp>

#include <memory>
#include <string>

#include "src/live/actor_process.h"
#include "src/live/amqp_client.h"
#include "src/live/launcher.h"
#include "src/live/live_run.h"
#include "src/live/run_queues.h"
#include "src/orders/order_key.h"
#include "tests/live/live_cli.h"
#include "tests/support/scenario_load.h"

namespace {

using live_test::kSource;
using live_test::processes_mentioning;
using live_test::TempDir;

// Deletes `queue` on `broker` and writes the deletion to disk (a node SIGKILLed right
// after a delete-ok could otherwise come back with the queue).
live::Status delete_for_good(live::PrivateBroker& broker, const std::string& queue) {
  std::unique_ptr<live::AmqpClient> client;
  if (live::Status st = live::AmqpClient::connect(broker.endpoint(), {}, client); !st.ok()) {
    return st;
  }
  if (live::Status st = client->delete_queue(queue); !st.ok()) return st;
  client.reset();
  return broker.sync_definitions();
}

}  // namespace

TEST_CASE("live: a durable queue missing after broker.crash ends the run with an error, "
          "not a verdict", "[live-recovery]") {
  TempDir dir;
  std::unique_ptr<live::PrivateBroker> broker;  // stopped by PID when it goes, also on failure
  const live::Status started = live::PrivateBroker::start({}, broker);
  INFO(started.message);
  REQUIRE(started.ok());
  lab::Scenario s = test_support::loaded(
      lab::load_scenario(kSource + "/scenarios/23-broker-crash-redelivered-lies.toml"));

  live::LiveOptions o;
  o.keep_db = dir.path + "/run";
  o.self_exe = EOSIM_BINARY;
  o.broker = broker.get();
  live::LiveResult out;
  std::string deleted;
  live::Status deletion = live::Status::error("the run never restarted the broker");
  o.progress = [&](const std::string& line) {
    if (!deleted.empty() || line.find("restarting the private RabbitMQ") == std::string::npos) {
      return;
    }
    deleted = live::run_queue(s, out.queue_prefix).name;
    deletion = delete_for_good(*broker, deleted);
  };
  const live::Status ran = live::run_live(s, broker->endpoint(), o, out);
  INFO(ran.message);
  INFO(deletion.message);
  REQUIRE(deletion.ok());
  REQUIRE(deleted.rfind("eosim-live-", 0) == 0);  // the run's own queue, by its prefix

  CHECK_FALSE(ran.ok());
  CHECK(ran.message.find("came back from broker.crash without the durable queue " + deleted) !=
        std::string::npos);
  // Not judged: no summary, no trace, no verdict.
  CHECK(out.summary.scenario.empty());
  CHECK(out.trace.empty());
  // The crash did fire, at order 3's publish (the scenario's rule), and every actor process
  // is gone.
  const std::vector<sim::FiredFault> fired = live::read_fired(o.keep_db);
  REQUIRE(fired.size() == 1);
  CHECK(fired[0].site == "broker.crash");
  CHECK(fired[0].key[orders::kOrder] == 3);
  CHECK(processes_mentioning(o.keep_db) == 0);
}
