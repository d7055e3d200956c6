// The differential test: every case runs against the model broker and against a real
// RabbitMQ, and the two logs must be equal (or, for a known difference, must differ).
// One private broker serves the whole run: starting it is most of the run's time.
// EOSIM_AMQP_URL=amqp://... uses a broker of yours instead (cases that restart the broker
// or need its settings are then skipped, and said so).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "src/live/launcher.h"
#include "src/live/process.h"
#include "tests/conformance/live_target.h"
#include "tests/conformance/model_target.h"

namespace conformance {
namespace {

struct RealBroker {
  std::unique_ptr<live::PrivateBroker> broker;  // null with EOSIM_AMQP_URL
  live::Endpoint endpoint;
  std::string error;
};

RealBroker start_real_broker() {
  RealBroker r;
  if (const char* url = std::getenv("EOSIM_AMQP_URL"); url != nullptr && *url != '\0') {
    if (live::Status s = live::parse_amqp_url(url, r.endpoint); !s.ok()) r.error = s.message;
    return r;
  }
  live::LaunchOptions options;
  options.consumer_timeout_ms = kConsumerTimeoutMs;
  options.channel_tick_ms = kChannelTickMs;
  if (live::Status s = live::PrivateBroker::start(options, r.broker); !s.ok()) {
    r.error = s.message;
  } else {
    r.endpoint = r.broker->endpoint();
  }
  return r;
}

RealBroker& real_broker() {
  static RealBroker broker = start_real_broker();
  return broker;
}

std::string side_by_side(const std::vector<std::string>& real,
                         const std::vector<std::string>& model) {
  std::ostringstream out;
  for (std::size_t i = 0; i < std::max(real.size(), model.size()); ++i) {
    const std::string r = i < real.size() ? real[i] : "(none)";
    const std::string m = i < model.size() ? model[i] : "(none)";
    out << (r == m ? "   " : "!! ") << "rabbitmq: " << r << "\n";
    if (r != m) out << "!!    model: " << m << "\n";
  }
  return out.str();
}

// A line that says the script itself could not run: never a valid observation.
bool is_harness_failure(const std::string& line) {
  return line.find(" failed: ") != std::string::npos ||
         line.find(" within the deadline") != std::string::npos ||
         line.find("script error") != std::string::npos;
}

bool process_mentions(const std::string& text) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::string cmdline;
    try {
      std::ifstream in(entry.path() / "cmdline");
      cmdline.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::exception&) {
      continue;  // the process ended while it was read (ESRCH): it mentions nothing now
    }
    if (!cmdline.empty() && cmdline.find(text) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("conformance: every case, model against a real RabbitMQ", "[conformance]") {
  RealBroker& rb = real_broker();
  INFO(rb.error);
  REQUIRE(rb.error.empty());
  for (const Case& c : all_cases()) {
    if (rb.broker == nullptr && c.needs_private_broker) {
      WARN(c.id << ": skipped, it needs the private broker (unset EOSIM_AMQP_URL)");
      continue;
    }
    ModelTarget model;
    const std::vector<std::string> model_log = run_case(c, model);
    std::vector<std::string> real_log;
    {
      LiveTarget real(rb.endpoint, rb.broker.get(),
                      "eosim-" + std::to_string(::getpid()) + "-" + c.id + "-");
      real_log = run_case(c, real);
    }
    INFO(c.id << " (row " << c.row << "): " << c.behaviour << "\n" << side_by_side(real_log, model_log));
    for (const std::string& line : real_log) CHECK_FALSE(is_harness_failure(line));
    CHECK_FALSE(real_log.empty());
    if (c.model_differs.empty()) {
      CHECK(model_log == real_log);
    } else {
      INFO("known difference: " << c.model_differs);
      CHECK(model_log != real_log);
    }
  }
}

// Declared after the cases, so it runs after them (Catch2 runs in declaration order).
TEST_CASE("conformance: stopping the private broker leaves nothing running", "[conformance]") {
  RealBroker& rb = real_broker();
  if (rb.broker == nullptr) {
    WARN("a user's broker (EOSIM_AMQP_URL): nothing of ours to stop");
    return;
  }
  const pid_t node = rb.broker->node_pid();
  const pid_t epmd = rb.broker->epmd_pid();
  const std::string dir = rb.broker->data_dir();
  REQUIRE(node > 0);
  REQUIRE(epmd > 0);
  REQUIRE(live::group_alive(node));
  CHECK(rb.broker->stop());
  CHECK_FALSE(live::group_alive(node));
  CHECK_FALSE(live::group_alive(epmd));
  CHECK_FALSE(std::filesystem::exists(dir));
  CHECK_FALSE(process_mentions(dir));
}

}  // namespace conformance
