// `eosim matrix` and `eosim run --fault/--faults` as a user meets them: the command a
// matrix cell names, pasted into the shell, gives that cell's verdict.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

using cli_runner::contains;
using cli_runner::quoted;

// Runs a command line the matrix printed (it starts with "eosim ") with the built binary.
cli_runner::Output printed(const std::string& line, const std::string& streams) {
  REQUIRE(line.rfind("eosim ", 0) == 0);
  return cli_runner::run(line.substr(6) + " " + streams, "");
}

std::string file() {
  return quoted(std::string(EOSIM_SOURCE_DIR) + "/scenarios/01-happy-path.toml");
}

}  // namespace

TEST_CASE("eosim matrix: json cells name commands that reproduce them", "[cli][matrix]") {
  const auto out = cli_runner::run("matrix " + file() + " --seeds 1..3 --format json", "2>&1");
  REQUIRE(out.exit_code == 0);
  const auto j = nlohmann::json::parse(out.text);
  int checked = 0;
  for (const auto& row : j.at("faults")) {
    for (const auto& cell : row.at("cells")) {
      if (!cell.at("applies").get<bool>() || cell.at("verdict") == "exactly-once") continue;
      if (checked == 3) break;
      const auto run = printed(cell.at("command").get<std::string>() + " --format json",
                                 "2>/dev/null");
      CHECK(run.exit_code == 1);  // the file expects exactly-once; this cell is not
      const auto report = nlohmann::json::parse(run.text);
      CHECK(report.at("verdict") == cell.at("verdict"));
      CHECK(report.at("faults_fired").size() == 1);
      ++checked;
    }
  }
  CHECK(checked == 3);
  CHECK(j.at("random").at("cells").size() == j.at("designs").size());
}

TEST_CASE("eosim matrix and run --fault: bad input exits 2 and says why", "[cli][matrix]") {
  auto out = cli_runner::run("matrix " + file() + " --seeds 9..2", "2>&1");
  CHECK(out.exit_code == 2);
  out = cli_runner::run("matrix " + file() + " --format svg", "2>&1");
  CHECK(out.exit_code == 2);
  out = cli_runner::run("run " + file() + " --fault consumer.after_commit:order=7", "2>&1");
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "key `order`"));
  out = cli_runner::run("run " + file() + " --faults drop=3/2", "2>&1");
  CHECK(out.exit_code == 2);
  out = cli_runner::run("matrix " + file() + " --seeds none --format html", "2>&1");
  CHECK(out.exit_code == 0);
  CHECK(contains(out.text, "<table>"));
  CHECK(contains(out.text, "class=\"v-duplicated\""));
}
