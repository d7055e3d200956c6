// docs/diagrams/: every scenario has its page, listed in the index, and the page's diagram
// is the one `eosim run FILE --format mermaid` draws now (scripts/diagrams.sh makes them).
// A scenario added without its page, or a change that alters runs without regenerating
// the pages, fails here.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/scenario_files.h"

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The text between the page's "```mermaid" line and the closing fence.
std::string mermaid_block(const std::string& page) {
  const std::string open = "```mermaid\n";
  const std::size_t begin = page.find(open);
  if (begin == std::string::npos) return "";
  const std::size_t end = page.rfind("```\n");
  if (end == std::string::npos || end < begin + open.size()) return "";
  return page.substr(begin + open.size(), end - begin - open.size());
}

}  // namespace

TEST_CASE("docs/diagrams has every scenario's page, with the diagram a run draws now",
          "[cli][docs]") {
  namespace fs = std::filesystem;
  const fs::path source(EOSIM_SOURCE_DIR);
  const std::string index = read_text(source / "docs/diagrams/README.md");
  std::size_t pages = 0;
  for (const std::string& file : test_support::scenario_files()) {
    const std::string stem = fs::path(file).stem().string();
    INFO("docs/diagrams/" << stem << ".md (regenerate with: bash scripts/diagrams.sh)");
    const fs::path page_path = source / "docs/diagrams" / (stem + ".md");
    REQUIRE(fs::is_regular_file(page_path));
    CHECK(cli_runner::contains(index, "[" + stem + "](" + stem + ".md)"));
    // From the source folder, as the script runs it: the diagram names the file's path.
    const auto out = cli_runner::run(
        "run " + cli_runner::quoted("scenarios/" + stem + ".toml") + " --format mermaid",
        "2>/dev/null", "cd " + cli_runner::quoted(source.string()) + " && ");
    CHECK(cli_runner::contains(out.text, "sequenceDiagram"));
    CHECK(mermaid_block(read_text(page_path)) == out.text);
    ++pages;
  }
  CHECK(pages >= 30);
}
