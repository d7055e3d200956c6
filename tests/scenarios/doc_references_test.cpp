// The project's texts stand alone: every file path that the code's comments, the docs and
// the README name (src/..., docs/..., tests/..., ...) is a file of the repository, so a
// reader can always follow a reference. Paths with placeholders (FILE, *) are not paths.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kRoot = EOSIM_SOURCE_DIR;

std::string read_all(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool is_text(const fs::path& path) {
  static const std::set<std::string> kinds = {".h", ".cpp", ".md", ".cmake", ".txt", ".sh"};
  return kinds.count(path.extension().string()) > 0;
}

// "name:line: reference" for every reference in `text` to a file that does not exist.
void missing_in(const std::string& name, const std::string& text,
                std::vector<std::string>& missing) {
  static const std::regex reference(
      R"((?:^|[^\w./-])((?:src|docs|tests|scripts|notes|sim|fuzz|cmake|bench)/[\w./-]+\.(?:md|h|cpp|toml|sh|cmake))(?![\w]))");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), reference);
       it != std::sregex_iterator(); ++it) {
    const std::string ref = (*it)[1].str();
    if (fs::exists(kRoot / ref)) continue;
    const auto line = 1 + std::count(text.begin(), text.begin() + it->position(1), '\n');
    missing.push_back(name + ":" + std::to_string(line) + ": " + ref);
  }
}

void missing_in(const fs::path& file, std::vector<std::string>& missing) {
  missing_in(fs::relative(file, kRoot).string(), read_all(file), missing);
}

}  // namespace

TEST_CASE("docs: every file the code and the docs name is in the repository", "[docs]") {
  std::vector<std::string> missing;
  std::size_t files = 0;
  for (const char* dir : {"src", "sim", "docs", "scripts"}) {
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / dir)) {
      if (!entry.is_regular_file() || !is_text(entry.path())) continue;
      missing_in(entry.path(), missing);
      ++files;
    }
  }
  missing_in(kRoot / "README.md", missing);
  CHECK(files > 100);  // the walk found the tree
  std::string list;
  for (const auto& m : missing) list += m + "\n";
  INFO(list);
  CHECK(missing.empty());
}

TEST_CASE("docs: the reference check finds a file that is not there", "[docs]") {
  std::vector<std::string> missing;
  missing_in("planted", "// see src/store/db.h,\n// and notes/amqp-conformance-3.10.md.\n",
             missing);
  CHECK(missing == std::vector<std::string>{"planted:2: notes/amqp-conformance-3.10.md"});
}
