// docs/scenario-format.md against the code: its generated reference is exactly what the
// loader's tables produce, and each worked example loads and meets its own expectations.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/report/scenario_doc.h"
#include "src/scenario/scenario.h"
#include "src/scenario/scenario_keys.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_load.h"

namespace {

std::string doc_text() {
  std::ifstream in(std::string(EOSIM_SOURCE_DIR) + "/docs/scenario-format.md");
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> toml_blocks(const std::string& doc) {
  std::vector<std::string> blocks;
  const std::string open = "```toml\n";
  for (std::size_t at = doc.find(open); at != std::string::npos; at = doc.find(open, at)) {
    at += open.size();
    const std::size_t end = doc.find("```", at);
    REQUIRE(end != std::string::npos);
    blocks.push_back(doc.substr(at, end - at));
  }
  return blocks;
}

}  // namespace

TEST_CASE("docs: scenario-format.md holds the generated reference", "[docs]") {
  const std::string doc = doc_text();
  const std::size_t begin = doc.find(lab::kFormatBegin);
  const std::size_t end = doc.find(lab::kFormatEnd);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  const std::size_t from = begin + lab::kFormatBegin.size() + 1;  // after its newline
  INFO("regenerate: build/eosim list format, between the markers of docs/scenario-format.md");
  CHECK(doc.substr(from, end - from) == lab::scenario_format_reference());
  // Every key the loader accepts is in the reference.
  for (const lab::ScenarioKey& k : lab::scenario_keys()) {
    INFO(k.table << "." << k.key);
    CHECK(doc.find("| `" + std::string(k.key) + "` |") != std::string::npos);
  }
}

TEST_CASE("docs: every worked example loads and meets its expectations", "[docs]") {
  const std::vector<std::string> blocks = toml_blocks(doc_text());
  REQUIRE(blocks.size() == 3);
  for (const std::string& text : blocks) {
    INFO(text);
    lab::Scenario s = test_support::loaded(lab::parse_scenario(text, "example.toml"));
    const lab::RunSummary run = run_support::run(s);
    CHECK(lab::unmet_expectations(s, run).empty());
  }
}
