// The files the command line writes for the user (src/cli/files.h): `run --keep-db` and
// `shrink/explore -o` never replace or delete anything without --force, never write over
// the input, give each run its own folder, and report a bad place before the work starts,
// with the operating system's reason and exit 2.

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::quoted;

using cli_runner::eosim;

std::string scenario(const std::string& name) {
  return std::string(EOSIM_SOURCE_DIR) + "/scenarios/" + name;
}

using test_support::TempDir;

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A folder the process cannot create files in, whoever it runs as (root ignores modes).
std::string unwritable_folder(const TempDir& tmp) {
  if (::geteuid() == 0) return "/proc/self";
  const std::string dir = tmp / "readonly";
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
  return dir;
}

}  // namespace

TEST_CASE("cli files: --keep-db refuses databases already there and names them",
          "[cli][files]") {
  TempDir tmp("refuse");
  write_file(tmp / "ledger.db", "the user's own ledger");
  const auto out = eosim("run " + quoted(scenario("01-happy-path.toml")) + " --keep-db " +
                         quoted(tmp.path.string()));
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "ledger.db"));
  CHECK(contains(out.text, "--force"));
  CHECK(read_file(tmp / "ledger.db") == "the user's own ledger");
  CHECK_FALSE(fs::exists(tmp / "orders.db"));
}

TEST_CASE("cli files: --keep-db --force replaces only the databases the run uses",
          "[cli][files]") {
  TempDir tmp("force");
  write_file(tmp / "ledger.db", "old");
  write_file(tmp / "dedup.db", "not used by the atomic strategy");
  write_file(tmp / "notes.txt", "unrelated");
  const auto out = eosim("run " + quoted(scenario("01-happy-path.toml")) + " --keep-db " +
                         quoted(tmp.path.string()) + " --force");
  CHECK(out.exit_code == 0);
  CHECK(read_file(tmp / "ledger.db").rfind("SQLite format 3", 0) == 0);
  CHECK(read_file(tmp / "dedup.db") == "not used by the atomic strategy");
  CHECK(read_file(tmp / "notes.txt") == "unrelated");

  // A strategy with a separate dedup store writes dedup.db, and only then.
  TempDir other("dedup");
  const auto dedup = eosim("run " + quoted(scenario("07-separate-dedup-store.toml")) +
                           " --keep-db " + quoted(other.path.string()));
  CHECK(dedup.exit_code == 0);
  CHECK(fs::exists(other / "dedup.db"));
}

TEST_CASE("cli files: --keep-db gives every run its own folder, even when names repeat",
          "[cli][files]") {
  TempDir tmp("unique");
  for (const char* sub : {"a", "b", "c"}) fs::create_directories(tmp / sub);
  fs::copy_file(scenario("01-happy-path.toml"), tmp / "a/x.toml");
  fs::copy_file(scenario("03-crash-between-commit-and-ack-no-dedup.toml"), tmp / "b/x.toml");
  fs::copy_file(scenario("01-happy-path.toml"), tmp / "c/x-2.toml");
  const std::string keep = tmp / "keep";
  const auto out = eosim("run " + quoted(tmp / "a/x.toml") + " " + quoted(tmp / "b/x.toml") +
                         " " + quoted(tmp / "c/x-2.toml") + " --keep-db " + quoted(keep) +
                         " -q");
  CHECK(out.exit_code == 0);
  int folders = 0;
  for (const auto& entry : fs::directory_iterator(keep)) {
    CHECK(fs::exists(entry.path() / "ledger.db"));
    ++folders;
  }
  CHECK(folders == 3);

  // A second invocation into the same folder would replace the first one's databases.
  const auto again = eosim("run " + quoted(tmp / "a/x.toml") + " " + quoted(tmp / "b/x.toml") +
                           " --keep-db " + quoted(keep) + " -q");
  CHECK(again.exit_code == 2);
  CHECK(contains(again.text, "holds files this run would replace"));
}

TEST_CASE("cli files: --keep-db on a bad place is exit 2 with the reason", "[cli][files]") {
  TempDir tmp("bad");
  fs::create_directories(tmp / "folder/ledger.db");
  const auto folder = eosim("run " + quoted(scenario("01-happy-path.toml")) + " --keep-db " +
                            quoted(tmp / "folder") + " --force");
  CHECK(folder.exit_code == 2);
  CHECK(contains(folder.text, "is a folder where the run's database file belongs"));

  const auto unwritable = eosim("run " + quoted(scenario("01-happy-path.toml")) +
                                " --keep-db " + quoted(unwritable_folder(tmp)));
  CHECK(unwritable.exit_code == 2);
  CHECK(contains(unwritable.text, "cannot create the database file: "));

  write_file(tmp / "plain", "a file");
  const auto file = eosim("run " + quoted(scenario("01-happy-path.toml")) + " --keep-db " +
                          quoted(tmp / "plain"));
  CHECK(file.exit_code == 2);
  CHECK(contains(file.text, "cannot use it as the --keep-db folder"));
}

TEST_CASE("cli files: shrink -o never writes over the input, even with --force",
          "[cli][files]") {
  TempDir tmp("input");
  const std::string input = tmp / "f.toml";
  fs::copy_file(scenario("01-happy-path.toml"), input);
  const std::string before = read_file(input);
  for (const char* force : {"", " --force"}) {
    const auto out = eosim("shrink " + quoted(input) + " --strategy no-dedup --seed 2 -o " +
                           quoted(input) + force);
    CHECK(out.exit_code == 2);
    CHECK(contains(out.text, "this is the input file"));
    CHECK_FALSE(contains(out.text, "searched"));  // refused before the search
  }
  CHECK(read_file(input) == before);
}

TEST_CASE("cli files: shrink and explore -o refuse an existing file unless --force",
          "[cli][files]") {
  TempDir tmp("exists");
  const std::string output = tmp / "min.toml";
  write_file(output, "keep me");
  const std::string file = quoted(scenario("01-happy-path.toml"));
  const auto shrink = eosim("shrink " + file + " --strategy no-dedup --seed 2 -o " + quoted(output));
  CHECK(shrink.exit_code == 2);
  CHECK(contains(shrink.text, "already exists; add --force"));
  const auto explore = eosim("explore " + file + " --strategy no-dedup --kinds crash -o " +
                             quoted(output));
  CHECK(explore.exit_code == 2);
  CHECK(read_file(output) == "keep me");

  const auto forced =
      eosim("shrink " + file + " --strategy no-dedup --seed 2 -o " + quoted(output) + " --force");
  CHECK(forced.exit_code == 0);
  CHECK(contains(read_file(output), "[[faults.script]]"));
}

TEST_CASE("cli files: -o into a place that cannot be written fails before the search",
          "[cli][files]") {
  TempDir tmp("nowhere");
  const std::string file = quoted(scenario("01-happy-path.toml"));
  const auto missing = eosim("shrink " + file + " --strategy no-dedup --seed 2 -o " +
                             quoted(tmp / "no/such/folder/min.toml"));
  CHECK(missing.exit_code == 2);
  CHECK(contains(missing.text, "No such file or directory"));
  CHECK_FALSE(contains(missing.text, "searched"));

  const auto unwritable = eosim("explore " + file + " --strategy no-dedup --kinds crash -o " +
                                quoted(unwritable_folder(tmp) + "/ce.toml"));
  CHECK(unwritable.exit_code == 2);
  CHECK(contains(unwritable.text, "cannot create a file in"));
  CHECK_FALSE(contains(unwritable.text, "schedules explored"));

  const auto folder = eosim("shrink " + file + " --strategy no-dedup --seed 2 -o " +
                            quoted(tmp.path.string()));
  CHECK(folder.exit_code == 2);
  CHECK(contains(folder.text, "it is a folder"));
}

TEST_CASE("cli files: --plot never replaces the input, nor writes through a dangling link",
          "[cli][files]") {
  TempDir tmp("plot-input");
  const std::string input = tmp / "mine.toml";
  fs::copy_file(scenario("01-happy-path.toml"), input);
  const std::string before = read_file(input);
  const std::string sweep = "sweep " + quoted(input) + " --seeds 1..5 --plot-x seeds --plot ";
  // Before, --force replaced the scenario with the chart.
  const auto onto_input = eosim(sweep + quoted(input) + " --force");
  CHECK(onto_input.exit_code == 2);
  CHECK(contains(onto_input.text, "the input file"));
  CHECK(read_file(input) == before);
  // A link to the input is the input.
  fs::create_symlink(input, tmp / "link.toml");
  CHECK(eosim(sweep + quoted(tmp / "link.toml") + " --force").exit_code == 2);
  CHECK(read_file(input) == before);
  // A link to a missing file: before, the chart was written where it pointed.
  fs::create_symlink(tmp / "elsewhere.svg", tmp / "dangling.svg");
  for (const char* force : {"", " --force"}) {
    const auto through = eosim(sweep + quoted(tmp / "dangling.svg") + force);
    INFO(through.text);
    CHECK(through.exit_code == 2);
    CHECK(contains(through.text, "symbolic link"));
    CHECK_FALSE(fs::exists(tmp / "elsewhere.svg"));
  }
  // Nothing of the attempts is left behind (no temporary file).
  std::set<std::string> left;
  for (const auto& entry : fs::directory_iterator(tmp.path)) {
    left.insert(entry.path().filename().string());
  }
  CHECK(left == std::set<std::string>{"mine.toml", "link.toml", "dangling.svg"});
}
