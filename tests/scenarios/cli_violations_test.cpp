// A run's violations as sweep and matrix show them: each holds the checker's Violations, so
// a verdict that comes from the emails alone (scenario 31: the ledger debits once, the mail
// goes out twice) names its orders there too, where a field-by-field copy of the ledger's
// lists once printed "duplicated []".

#include <catch2/catch.hpp>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"

namespace {

using cli_runner::contains;
using cli_runner::quoted;

std::string emailed_twice() {
  return quoted(std::string(EOSIM_SOURCE_DIR) + "/scenarios/31-side-effect-before-commit.toml");
}

}  // namespace

TEST_CASE("violations: a sweep failure names the orders emailed twice", "[cli][violations]") {
  // The run itself: the ledger is exactly-once, the emails duplicate order 2.
  const auto run =
      cli_runner::run("run " + emailed_twice() + " --seed 3 --format json", "2>/dev/null");
  const auto report = nlohmann::json::parse(run.text);
  REQUIRE(report.at("verdict") == "duplicated");
  REQUIRE(report.at("ledger_verdict") == "exactly-once");
  const auto emailed = report.at("effects").at("duplicated");
  REQUIRE(emailed.size() == 1);
  CHECK(report.at("effects_duplicated") == emailed);

  const std::string order = std::to_string(emailed[0].get<std::int64_t>());
  const auto text = cli_runner::run("sweep " + emailed_twice() + " --seeds 3..3", "2>&1");
  CHECK(contains(text.text, "seed 3: duplicated [" + order + "]"));
  const auto json =
      cli_runner::run("sweep " + emailed_twice() + " --seeds 3..3 --format json", "2>/dev/null");
  const auto failures = nlohmann::json::parse(json.text).at("failures");
  REQUIRE(failures.size() == 1);
  CHECK(failures[0].at("effects_duplicated") == emailed);
  CHECK(failures[0].at("duplicated").empty());
}

TEST_CASE("violations: a matrix cell whose emails duplicate names the orders",
          "[cli][violations]") {
  const auto out =
      cli_runner::run("matrix " + emailed_twice() + " --seeds none --format json", "2>/dev/null");
  REQUIRE(out.exit_code == 0);
  const auto j = nlohmann::json::parse(out.text);
  int from_emails = 0;
  for (const auto& row : j.at("faults")) {
    for (const auto& cell : row.at("cells")) {
      if (!cell.at("applies").get<bool>() || cell.at("verdict") != "duplicated") continue;
      // Every duplicated cell names orders: the ledger's, or else the emails'.
      CHECK((!cell.at("duplicated").empty() || !cell.at("effects_duplicated").empty()));
      if (cell.at("duplicated").empty()) ++from_emails;
    }
  }
  CHECK(from_emails > 0);
  // In the table too: every DUP cell of a fault row is followed by its orders.
  const auto text = cli_runner::run("matrix " + emailed_twice() + " --seeds none", "2>&1");
  std::istringstream lines(text.text);
  int cells = 0;
  for (std::string line; std::getline(lines, line);) {
    if (!contains(line, ":order=")) continue;
    for (auto at = line.find("DUP"); at != std::string::npos; at = line.find("DUP", at + 1)) {
      INFO(line);
      const bool numbered = at + 4 < line.size() && line[at + 3] == ' ' &&
                            std::isdigit(static_cast<unsigned char>(line[at + 4]));
      CHECK(numbered);
      ++cells;
    }
  }
  CHECK(cells >= from_emails);
}
