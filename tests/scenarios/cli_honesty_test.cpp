// The command line never reports success for work that was not done: a search that ran
// nothing or stopped early does not meet an expectation, and a run the step bound cut
// short says so in every format.

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::quoted;

cli_runner::Output eosim(const std::string& args) { return cli_runner::run(args, "2>&1"); }

std::string scenario(const std::string& name) {
  return quoted(std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name);
}

// A scenario file in the temporary folder, removed at the end.
struct TempScenario {
  fs::path path;
  TempScenario(const std::string& name, const std::string& text)
      : path(fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".toml")) {
    std::ofstream(path, std::ios::binary) << text;
  }
  ~TempScenario() {
    std::error_code ec;
    fs::remove(path, ec);
  }
  std::string arg() const { return quoted(path.string()); }
};

}  // namespace

TEST_CASE("cli honesty: explore that runs nothing or stops early meets no exactly-once",
          "[cli][honesty]") {
  const auto none = eosim("explore " + scenario("01-happy-path.toml") +
                          " --max-runs 0 --expect exactly-once --strategy no-dedup");
  CHECK(none.exit_code == 1);
  CHECK(contains(none.text, "expect exactly-once: NOT met (nothing was explored"));
  const auto cut = eosim("explore " + scenario("01-happy-path.toml") +
                         " --max-runs 5 --expect exactly-once");
  CHECK(cut.exit_code == 1);
  CHECK(contains(cut.text, "truncated"));
}

TEST_CASE("cli honesty: a run cut short by the step bound is incomplete in every format",
          "[cli][honesty]") {
  const TempScenario file("eosim-incomplete",
                          "name = \"big\"\nmax_steps = 300\n[workload]\norders = 100\n"
                          "[expect]\nverdict = \"exactly-once\"\n");
  const auto text = eosim("run " + file.arg());
  CHECK(text.exit_code == 1);
  CHECK(contains(text.text, "INCOMPLETE (step bound 300, "));
  CHECK(contains(text.text, " orders never produced)"));
  const auto json = eosim("run " + file.arg() + " --format json");
  CHECK(json.exit_code == 1);
  CHECK(contains(json.text, "\"verdict\":\"incomplete\""));
  CHECK(contains(json.text, "\"step_bound\":300"));
  const auto mermaid = eosim("run " + file.arg() + " --format mermaid");
  CHECK(contains(mermaid.text, "%% verdict: INCOMPLETE (step bound 300"));

  const auto poison = eosim("run " + scenario("10-poison-requeue-forever.toml") + " -q");
  CHECK(poison.exit_code == 0);
  CHECK(contains(poison.text, "STUCK (orders 2) - the step bound (5000) ended the run"));
}
