#pragma once
// Pinned values (golden trace hashes) live in text files under tests/golden/, one
// `key value` line each, so that changing one on purpose is a reviewed data change rather
// than an edit of test code.
//
// check_golden(file, key, actual) CHECKs that `file` pins `actual` for `key`.
// With EOSIM_UPDATE_GOLDEN=1 in the environment it rewrites the pinned value instead (every
// other line kept as it is), prints the change as a diff (`-key old`, `+key new`) on stdout
// and passes. Use it only when a change to the runs is intended:
//   EOSIM_UPDATE_GOLDEN=1 ctest --test-dir build -R pinned; git diff tests/golden
// and say in the commit message why the runs changed.
// REQUIRES: the compile definition EOSIM_SOURCE_DIR; one test case per golden file (ctest
// may run test cases in parallel processes, and two writers of one file would race).

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace golden {

inline bool updating() {
  const char* flag = std::getenv("EOSIM_UPDATE_GOLDEN");
  return flag != nullptr && std::string(flag) == "1";
}

inline std::string path_of(const std::string& file) {
  return std::string(EOSIM_SOURCE_DIR) + "/tests/golden/" + file;
}

inline std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The value pinned for `key` ("" when none) and the index of its line (-1 when none).
inline std::string pinned(const std::vector<std::string>& lines, const std::string& key,
                          long& index) {
  index = -1;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::istringstream words(lines[i]);
    std::string k, v;
    if (!(words >> k >> v) || k != key) continue;
    index = static_cast<long>(i);
    return v;
  }
  return "";
}

inline void check_golden(const std::string& file, const std::string& key,
                         const std::string& actual) {
  const std::string path = path_of(file);
  std::vector<std::string> lines = read_lines(path);
  long index = -1;
  const std::string expected = pinned(lines, key, index);
  if (!updating()) {
    INFO(path << " pins " << key << " (rewrite on purpose with EOSIM_UPDATE_GOLDEN=1)");
    CHECK(actual == expected);
    return;
  }
  if (actual == expected) return;
  const std::string line = key + " " + actual;
  if (index < 0) {
    lines.push_back(line);
  } else {
    lines[static_cast<std::size_t>(index)] = line;
  }
  std::ofstream out(path, std::ios::trunc);
  for (const std::string& l : lines) out << l << '\n';
  REQUIRE(out.good());
  std::cout << "golden: " << path << "\n";
  if (index >= 0) std::cout << "-" << key << " " << expected << "\n";
  std::cout << "+" << line << "\n";
}

}  // namespace golden
