// The broker's code cites the behaviours it copies as "item N"; each N must be a numbered
// item of docs/amqp-semantics.md, and each citing file must say where the items live, so a
// reader can always follow the reference inside the repository.
#include <catch2/catch.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The numbers of the items the doc defines: lines such as "12. **Why ...".
std::set<int> documented_items(const std::string& doc) {
  std::set<int> items;
  const std::regex item_line(R"((^|\n)(\d+)\. \*\*)");
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), item_line);
       it != std::sregex_iterator(); ++it) {
    items.insert(std::stoi((*it)[2].str()));
  }
  return items;
}

// Every code file under src/ and sim/, sorted so that failures read the same each run.
std::vector<fs::path> code_files() {
  std::vector<fs::path> files;
  for (const char* top : {"src", "sim"}) {
    for (const auto& entry : fs::recursive_directory_iterator(fs::path(EOSIM_SOURCE_DIR) / top)) {
      const auto ext = entry.path().extension();
      if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp")) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("every \"item N\" in the code is an item of docs/amqp-semantics.md") {
  const std::string doc = read_all(fs::path(EOSIM_SOURCE_DIR) / "docs/amqp-semantics.md");
  const std::set<int> items = documented_items(doc);
  REQUIRE(items.size() == 17);
  CHECK(*items.begin() == 1);
  CHECK(*items.rbegin() == 17);

  const std::regex citation(R"(\bitems? (\d+))");
  int citations = 0;
  for (const fs::path& file : code_files()) {
    const std::string text = read_all(file);
    bool cites = false;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), citation);
         it != std::sregex_iterator(); ++it) {
      const int n = std::stoi((*it)[1].str());
      INFO(file.string() << " cites item " << n);
      CHECK(items.count(n) == 1);
      cites = true;
      ++citations;
    }
    if (cites) {
      INFO(file.string() << " cites items without naming docs/amqp-semantics.md");
      CHECK(text.find("docs/amqp-semantics.md") != std::string::npos);
    }
  }
  CHECK(citations >= 40);  // the broker cites its items throughout; zero means a bad scan
}
