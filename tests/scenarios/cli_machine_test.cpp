// The machine's own trouble is an error, never a verdict (store/failure.h): a run whose
// databases meet a full filesystem ends with exit 2, a message naming the database file and
// "No space left on device", and no verdict, for every producer and every strategy; its
// private folder is gone afterwards, as it is when a signal ends the run (temp_dir.h).
//
// The full filesystem is real: a 192 KiB tmpfs mounted in a mount namespace of the eosim
// process alone (unshare -m), so nothing is left mounted whatever happens. That needs
// root (as in CI); elsewhere the tests say so and check nothing.

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/cli_runner.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cli_runner::contains;
using cli_runner::quoted;
using test_support::TempDir;

// 6000 orders: their databases need 400 KiB or more, whatever the design.
constexpr const char* kFullDiskScenario = R"(name = "a run on a full disk"
about = "6000 orders on a filesystem too small for their databases."
seed = 1

[workload]
orders = 6000
amount = 1
initial_balance = 1000000

[producer]
pattern = "outbox"

[consumer]
strategy = "atomic"
)";

// Mounts a 192 KiB tmpfs on $1 in the script's own mount namespace, points TMPDIR at it
// and runs the rest of its arguments; 77 when the mount is refused.
// With FILL=1 the filesystem is full from the start but for an empty folder "full".
constexpr const char* kFullDiskMount = R"sh(mount -t tmpfs -o size=192k tmpfs "$1" || exit 77
dir=$1
shift
if [ -n "$FILL" ]; then
  mkdir "$dir/full"
  head -c 1048576 /dev/zero > "$dir/.filler" 2>/dev/null
fi
TMPDIR=$dir "$@"
status=$?
rm -f "$dir/.filler"
echo "left in the mount: $(ls -A "$dir" | tr '\n' ' ')"
exit $status
)sh";

struct FullDisk {
  TempDir tmp{"full-disk"};
  std::string scenario = tmp / "full.toml";
  std::string script = tmp / "mount.sh";
  std::string mount = tmp / "mnt";

  FullDisk() {
    std::ofstream(scenario) << kFullDiskScenario;
    std::ofstream(script) << kFullDiskMount;
    fs::create_directories(mount);
  }

  // `eosim ARGS` with the small filesystem mounted on `mount` (and TMPDIR there); `filled`:
  // full from the start.
  cli_runner::Output eosim(const std::string& args, bool filled = false) const {
    return cli_runner::run(args, "2>&1",
                           std::string(filled ? "FILL=1 " : "") + "unshare -m sh " +
                               quoted(script) + " " + quoted(mount) + " ");
  }
};

bool can_mount_tmpfs() {
  if (::geteuid() != 0) {
    WARN("not root: no tmpfs can be mounted, the full-disk tests check nothing here");
    return false;
  }
  return true;
}

// What every run on the full filesystem must show: exit 2, the file, the OS's reason, no
// verdict.
void check_full_disk_error(const cli_runner::Output& out, const std::string& file) {
  INFO(out.text);
  REQUIRE(out.exit_code != 77);  // the mount itself worked
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "No space left on device"));
  CHECK(contains(out.text, file));
  CHECK_FALSE(contains(out.text, "verdict:"));    // text
  CHECK_FALSE(contains(out.text, "\"verdict\""));  // json
  CHECK_FALSE(contains(out.text, "ssertion"));
}

}  // namespace

TEST_CASE("full disk: run --keep-db on a full filesystem is an error for every design",
          "[cli][full-disk]") {
  if (!can_mount_tmpfs()) return;
  const FullDisk disk;
  for (const char* producer : {"outbox", "dual-write", "publish-then-commit", "outbox-no-confirm"}) {
    for (const char* strategy : {"atomic", "auto-ack", "ack-before-commit", "no-dedup",
                                 "separate-dedup-store", "check-then-act", "naive-errors",
                                 "requeue-poison"}) {
      INFO(producer << " / " << strategy);
      const auto out = disk.eosim("run " + quoted(disk.scenario) + " --producer " + producer +
                                  " --strategy " + strategy + " --keep-db " +
                                  quoted(disk.mount + "/db"));
      check_full_disk_error(out, disk.mount + "/db/");
    }
  }
}

TEST_CASE("full disk: a run's private database folder in a full TMPDIR is an error and is "
          "removed", "[cli][full-disk]") {
  if (!can_mount_tmpfs()) return;
  const FullDisk disk;
  for (const char* producer : {"outbox", "dual-write"}) {
    INFO(producer);
    const auto out = disk.eosim("run " + quoted(disk.scenario) + " --db files --producer " +
                                producer);
    check_full_disk_error(out, disk.mount + "/eosim-");
    // The run's folder (eosim-XXXXXX) is removed although the run failed.
    CHECK(contains(out.text, "left in the mount: \n"));
  }
}

namespace {

// The entries of `dir` whose name starts with "eosim-".
std::vector<std::string> eosim_folders_in(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().filename().string().rfind("eosim-", 0) == 0) out.push_back(entry.path());
  }
  return out;
}

}  // namespace

TEST_CASE("machine: a signal that ends a run removes its private folder", "[cli][signal]") {
  TempDir tmp("signal");
  const std::string scenario = tmp / "long.toml";
  std::string text = kFullDiskScenario;
  text.replace(text.find("orders = 6000"), 13, "orders = 100000");
  std::ofstream(scenario) << text;
  const std::string runs = tmp / "tmpdir";
  fs::create_directories(runs);
  for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGABRT}) {
    INFO("signal " << sig);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      ::setenv("TMPDIR", runs.c_str(), 1);
      for (const int s : {SIGTERM, SIGINT, SIGHUP, SIGABRT}) ::signal(s, SIG_DFL);
      const int null = ::open("/dev/null", O_WRONLY);
      ::dup2(null, 1);
      ::execl(EOSIM_BINARY, "eosim", "run", scenario.c_str(), "--db", "files",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    // Wait until the run has its folder and its databases (at most 60 s on a busy machine).
    bool started = false;
    for (int i = 0; i < 600 && !started; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      const auto folders = eosim_folders_in(runs);
      started = folders.size() == 1 && fs::exists(folders.front() + "/ledger.db");
    }
    CHECK(started);
    ::kill(child, sig);
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == sig);
    CHECK(eosim_folders_in(runs).empty());
  }
}

TEST_CASE("full disk: --plot on a full filesystem is an error and leaves nothing",
          "[cli][full-disk]") {
  if (!can_mount_tmpfs()) return;
  const FullDisk disk;
  // The chart (~10 KB) cannot be written: before, a truncated file stayed and the old
  // content was gone.
  const auto out = disk.eosim("sweep " + cli_runner::scenario_arg("01-happy-path.toml") +
                              " --seeds 1..5 --plot-x seeds --plot " +
                              quoted(disk.mount + "/full/rates.svg"),
                              /*filled=*/true);
  INFO(out.text);
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "No space left on device"));
  CHECK(contains(out.text, "left in the mount: full \n"));  // the folder, empty
}

TEST_CASE("full disk: a report that cannot be written is an error", "[cli][full-disk]") {
  // /dev/full: every write fails with ENOSPC. Before, eosim exited 0 with nothing written.
  const auto out = cli_runner::run("run " + cli_runner::scenario_arg("01-happy-path.toml") +
                                       " --format json",
                                   "2>&1 >/dev/full");  // stderr to the pipe, stdout to /dev/full
  CHECK(out.exit_code == 2);
  CHECK(contains(out.text, "cannot write the output (standard output): No space left on device"));
}
