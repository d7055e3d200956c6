// The command line never reports success for work that was not done (a search that ran
// nothing or stopped early does not meet an expectation; a run the step bound cut short
// says so in every format), and meets bad input and a bad environment with exit 2 and a
// reason (exit 3 for a thread the system will not start), never a crash or a hang.

#include <sys/stat.h>
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
using cli_runner::eosim;
using cli_runner::scenario_arg;

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

// Built with ASan or TSan: GCC says so with __SANITIZE_ADDRESS__/__SANITIZE_THREAD__,
// clang (the sanitizer tree of scripts/sanitize.sh) with __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EOSIM_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EOSIM_TEST_SANITIZED 1
#endif
#endif
#ifndef EOSIM_TEST_SANITIZED
#define EOSIM_TEST_SANITIZED 0
#endif

TEST_CASE("cli honesty: explore that runs nothing or stops early meets no exactly-once",
          "[cli][honesty]") {
  const auto none = eosim("explore " + scenario_arg("01-happy-path.toml") +
                          " --max-runs 0 --expect exactly-once --strategy no-dedup");
  CHECK(none.exit_code == 1);
  CHECK(contains(none.text, "expect exactly-once: NOT met (nothing was explored"));
  const auto cut = eosim("explore " + scenario_arg("01-happy-path.toml") +
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

  const auto poison = eosim("run " + scenario_arg("10-poison-requeue-forever.toml") + " -q");
  CHECK(poison.exit_code == 0);
  CHECK(contains(poison.text, "STUCK (orders 2) - the step bound (5000) ended the run"));
}

TEST_CASE("cli honesty: counts are never negative and --jobs is capped", "[cli][honesty]") {
  const std::string file = scenario_arg("01-happy-path.toml");
  const auto show = eosim("sweep " + file + " --seeds 1..2 --show -1");
  CHECK(show.exit_code == 2);
  CHECK(contains(show.text, "--show: must be an integer from 0"));
  const auto runs = eosim("explore " + file + " --max-runs -1");
  CHECK(runs.exit_code == 2);
  CHECK(contains(runs.text, "--max-runs: must be an integer from 0"));
  const auto jobs = eosim("sweep " + file + " --seeds 1..2 --jobs 1000");
  CHECK(jobs.exit_code == 2);
  CHECK(contains(jobs.text, "--jobs: must be an integer from 0 to 256, got 1000"));
  CHECK(eosim("sweep " + file + " --seeds 1..2 --jobs 256 --format json").exit_code == 0);
}

TEST_CASE("cli honesty: a worker thread that cannot start is a clean exit 3",
          "[cli][honesty]") {
#if EOSIM_TEST_SANITIZED
  SUCCEED("sanitizers reserve more address space than the limit below allows");
#else
  // Thread stacks of 1 GiB under a 2.9 GB address-space limit: the third thread cannot
  // start, while the two running workers keep ~0.7 GB for their worlds, so the thread
  // start is the only limit met (a tighter limit also let a worker's allocation fail).
  const auto out = cli_runner::run(
      "sweep " + scenario_arg("01-happy-path.toml") + " --seeds 1..400 --jobs 200",
      "2>&1)", "(ulimit -s 1048576; ulimit -v 3000000; ");
  CHECK(out.exit_code == 3);
  CHECK(contains(out.text, "cannot start worker thread"));
  CHECK_FALSE(contains(out.text, "terminate called"));
#endif
}

TEST_CASE("cli honesty: special files are refused at once, naming the file",
          "[cli][honesty]") {
  const auto zero = eosim("run /dev/zero");
  CHECK(zero.exit_code == 2);
  CHECK(contains(zero.text, "/dev/zero: is not a regular file"));
  const fs::path fifo = fs::temp_directory_path() / ("eosim-fifo-" + std::to_string(::getpid()));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto out = eosim("run " + quoted(fifo.string()));  // would hang on an open()
  fs::remove(fifo);
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "is not a regular file"));
}

TEST_CASE("cli honesty: control characters from a file reach the terminal escaped",
          "[cli][honesty]") {
  const TempScenario file("eosim-control",
                          "name = \"evil\\u001b[31mred\"\n"
                          "about = \"title\\u001b]0;x\\u0007\"\n"
                          "[consumer]\nstrategy = \"atomic\"\n");
  for (const char* options : {"", " -q", " --format mermaid"}) {
    const auto out = eosim("run " + file.arg() + options);
    INFO(options);
    CHECK(out.exit_code == 0);
    CHECK(contains(out.text, "evil\\x1b[31mred"));
    CHECK_FALSE(contains(out.text, "\x1b"));
    CHECK_FALSE(contains(out.text, "\x07"));
  }
  const TempScenario bad("eosim-control-bad",
                         "name = \"x\"\n[consumer]\nstrategy = \"\\u001b[2J\"\n");
  const auto error = eosim("run " + bad.arg());
  CHECK(error.exit_code == 2);
  CHECK(contains(error.text, "\\x1b[2J"));
  CHECK_FALSE(contains(error.text, "\x1b"));
}
