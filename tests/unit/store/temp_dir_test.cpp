// store::TempDir (temp_dir.h): a dead process's folder is removed by the next TempDir made
// beside it; a live process's folder, or a folder eosim did not make, never is. (Removal at
// a signal is tested through the command line, tests/scenarios/cli_machine_test.cpp: a
// test framework's own signal handlers stand in the way here.)

#include "src/store/temp_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;

// A folder like one a TempDir of another process made: "eosim-XXXXXX" with owner.lock.
std::string fake_run_folder(const test_support::TempDir& tmp, const std::string& suffix,
                            bool with_lock) {
  const std::string folder = tmp / ("eosim-" + suffix);
  fs::create_directories(folder);
  std::ofstream(folder + "/ledger.db") << "pages";
  if (with_lock) std::ofstream(folder + "/owner.lock") << "";
  return folder;
}

}  // namespace

TEST_CASE("temp dir: a dead process's folder is removed by the next one, nothing else is",
          "[store][temp-dir]") {
  test_support::TempDir tmp("stale");
  test_support::TmpdirAt tmpdir(tmp.path.string());
  const std::string dead = fake_run_folder(tmp, "dead01", true);
  const std::string foreign = fake_run_folder(tmp, "user01", false);  // no owner.lock
  const std::string live = fake_run_folder(tmp, "live01", true);
  const std::string other_name = fake_run_folder(tmp, "not-a-run", true);
  // The live one's owner holds its lock (here: this process, through another open file).
  const int held = ::open((live + "/owner.lock").c_str(), O_RDONLY);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);

  store::TempDir dir;
  REQUIRE(store::TempDir::create(dir).ok());
  CHECK_FALSE(fs::exists(dead));
  CHECK(fs::exists(foreign + "/ledger.db"));
  CHECK(fs::exists(live + "/ledger.db"));
  CHECK(fs::exists(other_name + "/ledger.db"));
  // Its own folder holds its lock: another TempDir made now leaves it alone.
  store::TempDir second;
  REQUIRE(store::TempDir::create(second).ok());
  CHECK(fs::exists(dir.path() + "/owner.lock"));
  ::close(held);
}
