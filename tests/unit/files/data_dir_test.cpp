#include "src/files/data_dir.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace {

bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

std::size_t index_of(const std::vector<std::string>& list, const std::string& item) {
  return static_cast<std::size_t>(std::find(list.begin(), list.end(), item) - list.begin());
}

}  // namespace

TEST_CASE(
    "data_dir: eosim's scenarios are looked for here, beside the program and under "
    "its prefix, in that order",
    "[files]") {
  const std::vector<std::string> installed = files::scenario_dir_candidates("/opt/eo/bin/eosim");
  REQUIRE(!installed.empty());
  CHECK(installed.front() == "scenarios");  // the current folder first
  CHECK(has(installed, "/opt/eo/bin/scenarios"));
  CHECK(has(installed, "/opt/eo/scenarios"));
  CHECK(has(installed, "/opt/eo/share/eosim/scenarios"));
  CHECK(index_of(installed, "/opt/eo/bin/scenarios") < index_of(installed, "/opt/eo/scenarios"));
  CHECK(index_of(installed, "/opt/eo/scenarios") <
        index_of(installed, "/opt/eo/share/eosim/scenarios"));

  // The GUI of a build tree: build/ui/eosim-gui finds the checkout's scenarios two up.
  const std::vector<std::string> gui = files::scenario_dir_candidates("/src/eo/build/ui/eosim-gui");
  CHECK(has(gui, "/src/eo/scenarios"));

  // A program at the root, or an unknown one, still has the current folder.
  CHECK(files::scenario_dir_candidates("/eosim").front() == "scenarios");
  CHECK(files::scenario_dir_candidates("").front() == "scenarios");
}

TEST_CASE(
    "data_dir: a folder the user names wins, and none found is an error that says where "
    "it looked",
    "[files]") {
  const eosim::Result<std::string> given = files::scenarios_dir_or_found("my/own", "lessons");
  REQUIRE(given.ok());
  CHECK(given.value() == "my/own");

  // This test binary sits in the build tree of a checkout: the lessons are found.
  const std::string lessons = files::find_scenarios_dir("lessons");
  REQUIRE(!lessons.empty());
  CHECK(std::filesystem::is_directory(lessons));
  CHECK(std::filesystem::path(lessons).filename() == "lessons");

  const eosim::Result<std::string> none = files::scenarios_dir_or_found("", "no-such-folder");
  REQUIRE(!none.ok());
  CHECK(none.status().bad_input);
  CHECK(none.status().message.find("--dir") != std::string::npos);
  CHECK(none.status().message.find("scenarios/no-such-folder") != std::string::npos);
}
