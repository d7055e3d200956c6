// `eosim sweep` and `eosim shrink` as a user meets them: the built binary, its exit codes
// and what it prints; the shrunk file is then run with `eosim run`.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "src/scenario/scenario.h"
#include "tests/support/cli_runner.h"
#include "tests/support/scenario_load.h"
#include "tests/support/temp_dir.h"

namespace {

using cli_runner::contains;
using cli_runner::Output;

Output run_cli(const std::string& args, const std::string& streams = "2>&1") {
  return cli_runner::run(args, streams);
}

const std::string kHappy = cli_runner::scenario_arg("01-happy-path.toml");

}  // namespace

TEST_CASE("cli sweep: json is the same for --jobs 1 and --jobs 2 but for the timing",
          "[cli][sweep]") {
  const Output one = run_cli("sweep " + kHappy + " --seeds 1..60 --jobs 1 --format json", "");
  const Output two = run_cli("sweep " + kHappy + " --seeds 1..60 --jobs 2 --format json", "");
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  auto a = nlohmann::json::parse(one.text);
  auto b = nlohmann::json::parse(two.text);
  CHECK(a["jobs"] == 1);
  CHECK(b["jobs"] == 2);
  CHECK(a["runs"] == 60);
  CHECK(a["verdicts"]["exactly-once"] == 60);
  CHECK(a["first_failure"].is_null());
  CHECK(a["runs_per_s"].get<double>() > 0);
  for (auto* j : {&a, &b}) {
    for (const char* timing : {"jobs", "seconds", "runs_per_s", "steps_per_s"}) j->erase(timing);
  }
  CHECK(a == b);
}

TEST_CASE("cli sweep: --expect decides the exit code", "[cli][sweep]") {
  const std::string no_dedup = "sweep " + kHappy + " --seeds 1..40 --strategy no-dedup";
  const Output violated = run_cli(no_dedup + " --expect exactly-once");
  CHECK(violated.exit_code == 1);
  CHECK(contains(violated.text, "expect exactly-once: NOT met"));
  CHECK(contains(violated.text, "eosim shrink"));  // each failure says how to shrink it
  CHECK(run_cli(no_dedup + " --expect violation").exit_code == 0);
  CHECK(run_cli(no_dedup + " --expect duplicated").exit_code == 0);
  CHECK(run_cli(no_dedup + " --expect phantom").exit_code == 1);  // no-dedup makes none
  CHECK(run_cli(no_dedup).exit_code == 0);                          // no expectation: report only
  const Output clean = run_cli("sweep " + kHappy + " --seeds 1..40 --expect exactly-once");
  CHECK(clean.exit_code == 0);
  CHECK(contains(clean.text, "runs/s"));
  CHECK(contains(clean.text, "steps/s"));
}

TEST_CASE("cli sweep: bad input exits 2 and says what is wrong", "[cli][sweep]") {
  const Output backwards = run_cli("sweep " + kHappy + " --seeds 9..3");
  CHECK(backwards.exit_code == 2);
  CHECK(contains(backwards.text, "--seeds"));
  const Output spec = run_cli("sweep " + kHappy + " --faults bogus=1/2");
  CHECK(spec.exit_code == 2);
  CHECK(contains(spec.text, "bogus"));
  CHECK(run_cli("sweep " + kHappy + " --expect fine").exit_code == 2);
  CHECK(run_cli("sweep " + kHappy + " --strategy nope").exit_code == 2);
  CHECK(run_cli("sweep /nonexistent/file.toml").exit_code == 2);
  CHECK(run_cli("shrink " + kHappy).exit_code == 2);  // --seed is required
}

TEST_CASE("cli shrink: writes a minimal scenario that eosim run reproduces", "[cli][shrink]") {
  namespace fs = std::filesystem;
  const test_support::TempDir tmp("cli-shrink");
  const fs::path out = tmp.path / "shrunk.toml";
  // Find a failing seed the way a user would, then shrink it.
  const Output found = run_cli(
      "sweep " + kHappy + " --seeds 1..100 --strategy no-dedup --format json", "");
  REQUIRE(found.exit_code == 0);
  const auto sweep = nlohmann::json::parse(found.text);
  REQUIRE(sweep["first_failure"].is_object());
  const std::string seed = std::to_string(sweep["first_failure"]["seed"].get<std::uint64_t>());
  const Output shrunk = run_cli("shrink " + kHappy + " --strategy no-dedup --seed " + seed +
                              " -o '" + out.string() + "'");
  INFO(shrunk.text);
  REQUIRE(shrunk.exit_code == 0);
  CHECK(contains(shrunk.text, "minimal: "));
  lab::Scenario minimal = test_support::loaded(lab::load_scenario(out.string()));
  CHECK(minimal.script.size() <= 2);
  CHECK(minimal.random.ratios.empty());
  CHECK(minimal.expect.verdict == lab::Verdict::kDuplicated);
  const Output replay = run_cli("run '" + out.string() + "'");
  CHECK(replay.exit_code == 0);  // its [expect] holds
  CHECK(contains(replay.text, "DUPLICATED"));
  // Without -o the scenario itself goes to stdout.
  const Output to_stdout =
      run_cli("shrink " + kHappy + " --strategy no-dedup --seed " + seed, "2>/dev/null");
  CHECK(to_stdout.exit_code == 0);
  CHECK(contains(to_stdout.text, "[[faults.script]]"));
}

TEST_CASE("cli shrink: a seed that does not fail exits 1", "[cli][shrink]") {
  const Output clean = run_cli("shrink " + kHappy + " --seed 1 --faults drop=0");
  CHECK(clean.exit_code == 1);
  CHECK(contains(clean.text, "exactly-once"));
}

TEST_CASE("cli explore: every single fault on the happy path is exactly-once",
          "[cli][explore]") {
  const Output clean = run_cli("explore " + kHappy +
                             " --max-faults 1 --max-deviations 0 --expect exactly-once");
  INFO(clean.text);
  CHECK(clean.exit_code == 0);
  CHECK(contains(clean.text, "schedules explored: "));
  CHECK(contains(clean.text, "violations: 0"));
  CHECK(contains(clean.text, "distinct outcomes: 1"));
}

TEST_CASE("cli explore: finds the no-dedup violation and writes it as a scenario",
          "[cli][explore]") {
  namespace fs = std::filesystem;
  const test_support::TempDir tmp("cli-explore");
  const fs::path out = tmp.path / "counterexample.toml";
  const Output found =
      run_cli("explore " + kHappy + " --strategy no-dedup --kinds crash --max-faults 1 "
            "--max-deviations 0 --expect violation --format json -o '" + out.string() + "'",
            "");
  REQUIRE(found.exit_code == 0);
  const auto j = nlohmann::json::parse(found.text);
  CHECK(j["violations"].get<int>() > 0);
  CHECK(j["first_counterexample"].is_string());
  CHECK(j["counterexample_toml"].is_string());
  // Keyed draws are the default, and the written file says so, for `eosim run`.
  CHECK(contains(j["counterexample_toml"].get<std::string>(), "draws = \"keyed\""));
  const Output replay = run_cli("run '" + out.string() + "'");
  CHECK(replay.exit_code == 0);
  CHECK(contains(replay.text, "DUPLICATED"));
  CHECK(run_cli("explore " + kHappy + " --strategy no-dedup --max-faults 1 --max-deviations 0 "
              "--kinds crash --expect exactly-once")
            .exit_code == 1);
  CHECK(run_cli("explore " + kHappy + " --kinds nosuch").exit_code == 2);
  CHECK(run_cli("explore " + kHappy + " --max-faults 9").exit_code == 2);
}

TEST_CASE("cli explore: keyed draws unless --draws sequence", "[cli][explore]") {
  const std::string explore = "explore " + kHappy + " --max-faults 1 --max-deviations 1";
  const Output keyed = run_cli(explore);
  REQUIRE(keyed.exit_code == 0);
  CHECK(contains(keyed.text, ", draws keyed\n"));
  CHECK(contains(keyed.text, "pruned: "));  // only keyed draws prune
  const Output sequence = run_cli(explore + " --draws sequence");
  REQUIRE(sequence.exit_code == 0);
  CHECK(contains(sequence.text, ", draws sequence\n"));
  CHECK_FALSE(contains(sequence.text, "pruned: "));
  CHECK(run_cli(explore + " --draws sometimes").exit_code == 2);
}

TEST_CASE("cli shrink --as-run: shrinks the scripted run eosim run makes", "[cli][shrink]") {
  // Scenario 03 double-debits order 2 after one scripted crash: nothing random to remove.
  const std::string file = std::string("'") + EOSIM_SOURCE_DIR +
                           "/scenarios/03-crash-between-commit-and-ack-no-dedup.toml'";
  lab::Scenario s = test_support::loaded(lab::load_scenario(
      std::string(EOSIM_SOURCE_DIR) + "/scenarios/03-crash-between-commit-and-ack-no-dedup.toml"));
  const Output shrunk =
      run_cli("shrink " + file + " --seed " + std::to_string(s.seed) + " --as-run", "2>&1");
  INFO(shrunk.text);
  REQUIRE(shrunk.exit_code == 0);
  CHECK(contains(shrunk.text, "original run: duplicated with 1 fault(s)"));
  CHECK(contains(shrunk.text, "minimal: 1 fault(s)"));
  CHECK(contains(shrunk.text, "random faults none"));  // the file has no [faults.random]
}

TEST_CASE("cli sweep and explore: --progress lines writes plain lines where stderr is no "
          "terminal, while auto and off keep a short run quiet",
          "[cli][sweep][explore]") {
  const std::string sweep = "sweep " + kHappy + " --seeds 1..60 --jobs 1";
  const std::string stderr_only = "2>&1 >/dev/null";
  const Output lines = run_cli(sweep + " --progress lines", stderr_only);
  CHECK(lines.exit_code == 0);
  CHECK(lines.text == "[##############################] 60/60 seeds\n");  // no \r redraws
  // auto off a terminal writes a line only every 10 s: nothing for a run this short.
  CHECK(run_cli(sweep, stderr_only).text.empty());
  CHECK(run_cli(sweep + " --progress off", stderr_only).text.empty());
  const Output refused = run_cli(sweep + " --progress sometimes");
  CHECK(refused.exit_code == 2);
  CHECK(contains(refused.text, "--progress"));

  const Output explore = run_cli("explore " + kHappy +
                                     " --max-faults 1 --max-deviations 0 --progress lines",
                                 stderr_only);
  INFO(explore.text);
  CHECK(explore.exit_code == 0);
  CHECK(contains(explore.text, " runs, "));
  CHECK(contains(explore.text, " schedules known\n"));
  CHECK_FALSE(contains(explore.text, "\r"));
}
