#pragma once
// The scenario files of the repository (scenarios/*.toml, not its sub-folders), sorted,
// and the scenarios they hold.
// REQUIRES: the compile definition EOSIM_SOURCE_DIR.

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "src/scenario/scenario.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

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

// Every scenario of the repository, listed by lab::scenario_files_in and loaded; fails the
// test, naming the file, line and key, on one that does not load.
inline std::vector<lab::Scenario> load_scenarios() {
  std::vector<std::string> files;
  REQUIRE_OK(lab::scenario_files_in(std::string(EOSIM_SOURCE_DIR) + "/scenarios", files));
  std::vector<lab::Scenario> out;
  for (const auto& file : files) out.push_back(load_scenario_file(file));
  return out;
}

}  // namespace test_support
