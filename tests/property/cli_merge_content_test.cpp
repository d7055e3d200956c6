// `eosim merge` refuses shards that ran different things: a scenario file edited between
// two shards (its content hash differs), or another eosim (its version differs). Either
// would merge into a digest that matches neither.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::Output;

std::string read_all(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs shard I/2 of `scenario` into DIR/NAME; returns the quoted path.
std::string run_shard(const fs::path& scenario, const fs::path& dir, int index,
                      const std::string& name) {
  const fs::path path = dir / name;
  const Output out = cli_runner::run("sweep " + cli_runner::quoted(scenario.string()) +
                                         " --seeds 1..20 --jobs 1 --format json --shard " +
                                         std::to_string(index) + "/2 > " +
                                         cli_runner::quoted(path.string()),
                                     "");
  REQUIRE(out.exit_code == 0);
  return cli_runner::quoted(path.string());
}

}  // namespace

TEST_CASE("cli merge: shards of an edited scenario or another eosim are refused",
          "[cli][merge]") {
  const test_support::TempDir tmp("cli-merge-content");
  const fs::path& dir = tmp.path;
  const fs::path scenario = dir / "s.toml";
  fs::copy_file(fs::path(EOSIM_SOURCE_DIR) / "scenarios/01-happy-path.toml", scenario);
  const std::string s0 = run_shard(scenario, dir, 0, "s0.json");
  const std::string s1 = run_shard(scenario, dir, 1, "s1.json");
  REQUIRE(cli_runner::run("merge " + s0 + " " + s1, "2>&1").exit_code == 0);

  std::ofstream(scenario, std::ios::app) << "\n# edited between the shards\n";
  const std::string edited = run_shard(scenario, dir, 1, "s1-edited.json");
  const Output mixed = cli_runner::run("merge " + s0 + " " + edited, "2>&1");
  INFO(mixed.text);
  CHECK(mixed.exit_code == 2);
  CHECK(contains(mixed.text, "s1-edited.json"));
  CHECK(contains(mixed.text, "s0.json"));
  CHECK(contains(mixed.text, "scenario content"));

  std::string text = read_all(dir / "s1.json");
  const std::string version = "\"eosim_version\":\"";
  const auto at = text.find(version);
  REQUIRE(at != std::string::npos);
  text.insert(at + version.size(), "9.9.9-other-");
  std::ofstream(dir / "s1-other.json") << text;
  const Output other = cli_runner::run(
      "merge " + s0 + " " + cli_runner::quoted((dir / "s1-other.json").string()), "2>&1");
  INFO(other.text);
  CHECK(other.exit_code == 2);
  CHECK(contains(other.text, "9.9.9-other-"));
}
