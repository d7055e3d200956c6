// `eosim sweep --shard I/N` and `eosim merge` as a batch system uses them: N processes each
// write one JSON result, merge prints what one sweep over the whole range prints.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::Output;

const std::string kSweep = "sweep " + cli_runner::scenario_arg("01-happy-path.toml") +
                           " --seeds 1..45 --strategy no-dedup --show 4";

// Everything but the timing: the JSON's last four keys, the text's last line.
std::string without_timing(const std::string& text) {
  const auto at = text.find("\"jobs\":");
  if (at != std::string::npos) return text.substr(0, at);
  const auto line = text.rfind("time: ");
  REQUIRE(line != std::string::npos);
  return text.substr(0, line);
}

// Runs shard I/N into DIR/shard-I.json; returns the path.
std::string run_shard(const fs::path& dir, int index, int count) {
  const fs::path path = dir / ("shard-" + std::to_string(index) + ".json");
  const Output out = cli_runner::run(kSweep + " --jobs 1 --format json --shard " +
                                         std::to_string(index) + "/" + std::to_string(count) +
                                         " > " + cli_runner::quoted(path.string()),
                                     "");
  REQUIRE(out.exit_code == 0);
  return cli_runner::quoted(path.string());
}

}  // namespace

TEST_CASE("cli merge: the shards of a sweep merge into the single sweep's report",
          "[cli][sweep][merge]") {
  const test_support::TempDir tmp("cli-merge");
  const fs::path& dir = tmp.path;
  std::string shards;
  for (int i = 3; i >= 0; --i) shards += " " + run_shard(dir, i, 4);  // any order

  for (const std::string format : {"json", "text"}) {
    const Output whole = cli_runner::run(kSweep + " --expect exactly-once --format " + format, "");
    const Output merged =
        cli_runner::run("merge" + shards + " --show 4 --expect exactly-once --format " + format, "");
    CHECK(whole.exit_code == 1);  // no-dedup double-debits
    CHECK(merged.exit_code == whole.exit_code);
    CHECK(contains(merged.text, "duplicated"));
    CHECK(without_timing(merged.text) == without_timing(whole.text));
  }
  // A shard's own report says which slice it is.
  const Output one = cli_runner::run(kSweep + " --shard 1/4", "");
  CHECK(contains(one.text, "seeds 13..23"));
  CHECK(contains(one.text, "shard 1/4 of seeds 1..45"));
}

TEST_CASE("cli merge: a missing, repeated or foreign shard is bad input", "[cli][merge]") {
  const test_support::TempDir tmp("cli-merge-bad");
  const fs::path& dir = tmp.path;
  const std::string s0 = run_shard(dir, 0, 3);
  const std::string s1 = run_shard(dir, 1, 3);
  const Output missing = cli_runner::run("merge " + s0 + " " + s1, "2>&1");
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.text, "shard 2/3 is missing"));
  const Output twice = cli_runner::run("merge " + s0 + " " + s1 + " " + s1, "2>&1");
  CHECK(twice.exit_code == 2);
  CHECK(contains(twice.text, "again"));
  const fs::path other = dir / "other.json";
  REQUIRE(cli_runner::run("sweep " + cli_runner::scenario_arg("01-happy-path.toml") +
                              " --seeds 1..45 --shard 2/3 --format json > " +
                              cli_runner::quoted(other.string()),
                          "")
              .exit_code == 0);
  const Output foreign =
      cli_runner::run("merge " + s0 + " " + s1 + " " + cli_runner::quoted(other.string()), "2>&1");
  CHECK(foreign.exit_code == 2);
  CHECK(contains(foreign.text, "another sweep"));
  std::ofstream(dir / "junk.json") << "{\"runs\": 3}";
  const Output junk =
      cli_runner::run("merge " + cli_runner::quoted((dir / "junk.json").string()), "2>&1");
  CHECK(junk.exit_code == 2);
  CHECK(contains(junk.text, "junk.json"));
  CHECK(cli_runner::run(kSweep + " --shard 3/3", "2>&1").exit_code == 2);
  CHECK(cli_runner::run(kSweep + " --shard x", "2>&1").exit_code == 2);
  fs::remove_all(dir);
}
