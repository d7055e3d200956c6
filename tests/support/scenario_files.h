#pragma once
// The scenario files of the repository (scenarios/*.toml, not its sub-folders), sorted.
// REQUIRES: the compile definition EOSIM_SOURCE_DIR.

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace test_support {

inline std::vector<std::string> scenario_files() {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(EOSIM_SOURCE_DIR) / "scenarios")) {
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace test_support
