#pragma once
// What the tests of `eosim live --compare scenarios/` share, whatever the store (SQLite
// files: live_compare_test.cpp; PostgreSQL: live_postgres_compare_test.cpp): every
// scenario file of the folder is either compared or refused with its reason, never both
// and never neither; a refusal is not a pass (exit 2); nothing is left running.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/live/live_cli.h"

namespace live_test {

// The names of the scenario files (*.toml) directly in `folder`, sorted.
inline std::vector<std::string> scenario_names(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

struct SuiteCount {
  std::size_t files = 0;
  std::size_t compared = 0;
  std::size_t refused = 0;
};

// For each scenario file NAME of `folder`, `compared(NAME)` and `refused(NAME)` say what
// the command's output shows for it (each checks there what it can: agreement, a
// reason); exactly one must hold. The counts.
template <typename Compared, typename Refused>
SuiteCount each_compared_or_refused(const std::string& folder, Compared compared, Refused refused) {
  SuiteCount c;
  for (const std::string& name : scenario_names(folder)) {
    INFO(name);
    const bool ran = compared(name);
    const bool was_refused = refused(name);
    CHECK(ran != was_refused);
    ++c.files;
    c.compared += ran ? 1 : 0;
    c.refused += was_refused ? 1 : 0;
  }
  return c;
}

// What holds of any run over the whole folder: every file accounted for, exit 2 exactly
// when one was refused, most of the lab run live, no process carrying `tmpdir_env` (the
// test's TMPDIR=...: actors, RabbitMQ, epmd, PostgreSQL) left behind.
inline void check_suite(const SuiteCount& c, int exit_code, const std::string& tmpdir_env) {
  CHECK(c.files > 0);
  CHECK(c.compared + c.refused == c.files);
  CHECK(exit_code == (c.refused > 0 ? 2 : 0));
  CHECK(c.compared > c.refused);
  CHECK(processes_with_env(tmpdir_env) == 0);
}

}  // namespace live_test
