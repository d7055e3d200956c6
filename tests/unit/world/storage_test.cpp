// DbStorage: a run on files in a private folder is the in-memory run, decision for
// decision. Over every scenario file, every consumer strategy and a few seeds, both give
// the same trace hash, the same JSON report (verdict, lists, balances, counters) and the
// same final rows; and the private folder is gone once the world is.
#include <catch2/catch.hpp>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "src/catalog/catalog.h"
#include "src/report/report_format.h"
#include "src/scenario/scenario.h"
#include "src/world/world.h"
#include "tests/support/named_check.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_files.h"
#include "tests/support/scenario_load.h"
#include "tests/support/seed_budget.h"
#include "tests/support/status_support.h"
#include "tests/support/temp_dir.h"

namespace {

struct StoredRun {
  std::string json;
  std::uint64_t trace_hash = 0;
  std::vector<lab::DbTable> tables;
};

StoredRun run_in(const lab::Scenario& s, lab::DbStorage storage) {
  lab::WorldOptions options;
  options.keep_trace = false;
  options.record_tape = false;
  options.storage = storage;
  lab::RunSummary run;
  StoredRun out;
  REQUIRE_OK(lab::run_scenario(s, options, run, nullptr, &out.tables));
  const std::vector<std::string> unmet = lab::unmet_expectations(s, run);
  out.json = lab::report_json_line({s, run, unmet, "replay"});
  out.trace_hash = run.trace_hash;
  return out;
}

bool same_rows(const std::vector<lab::DbTable>& a, const std::vector<lab::DbTable>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].database != b[i].database || a[i].name != b[i].name ||
        a[i].columns != b[i].columns || a[i].rows != b[i].rows) {
      return false;
    }
  }
  return true;
}

// The entries of `dir` right now.
std::set<std::string> entries(const std::filesystem::path& dir) {
  std::set<std::string> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    out.insert(entry.path().filename().string());
  }
  return out;
}

// Points TMPDIR at `dir` while it lives (worlds make their folders there).
using test_support::TmpdirAt;

}  // namespace

TEST_CASE("storage: files and memory give the same run on every scenario x strategy",
          "[world][storage]") {
  const std::vector<std::string> files = test_support::scenario_files();
  REQUIRE(files.size() >= 10);
  // Three seeds of each file and design; one under the sanitizers (seed_budget.h), which
  // still puts every file and design through both storages once.
  const std::uint64_t seeds = test_support::last_seed(3);
  std::size_t compared = 0, violations = 0;
  for (const auto& file : files) {
    lab::Scenario base = test_support::loaded(lab::load_scenario(file));
    std::vector<std::string> strategies = {""};  // the file's own design first
    for (const auto& strategy : lab::strategies()) strategies.emplace_back(strategy.name);
    for (const auto& strategy : strategies) {
      for (std::uint64_t seed = base.seed; seed < base.seed + seeds; ++seed) {
        INFO(file << " with " << (strategy.empty() ? "its own design" : strategy)
                  << ", seed " << seed);
        const lab::Scenario s = test_support::overridden(base, {.seed = seed, .strategy = strategy});
        const StoredRun memory = run_in(s, lab::DbStorage::kMemory);
        const StoredRun files_run = run_in(s, lab::DbStorage::kTempFiles);
        CHECK(files_run.trace_hash == memory.trace_hash);
        CHECK(files_run.json == memory.json);
        CHECK(same_rows(files_run.tables, memory.tables));
        ++compared;
        if (nlohmann::json::parse(memory.json)["verdict"] != "exactly-once") ++violations;
      }
    }
  }
  CHECK(compared == files.size() * (lab::strategies().size() + 1) * seeds);
  // The comparison covers runs that go wrong, not only clean ones.
  CHECK(violations > compared / 10);
}

TEST_CASE("storage: the private folder exists while the world does, then is removed",
          "[world][storage]") {
  test_support::TempDir tmp("storage");
  TmpdirAt tmpdir(tmp.path.string());
  lab::Scenario s;
  s.name = "folder";
  lab::WorldOptions options;
  options.storage = lab::DbStorage::kTempFiles;
  {
    auto world = run_support::world(s, options);
    REQUIRE(world);
    const std::set<std::string> during = entries(tmp.path);
    REQUIRE(during.size() == 1);
    const std::filesystem::path folder = tmp.path / *during.begin();
    CHECK(folder.filename().string().rfind("eosim-", 0) == 0);
    // owner.lock: held while the run lives, so no later eosim takes the folder for a dead
    // run's (store/temp_dir.h).
    CHECK(entries(folder) == std::set<std::string>{"ledger.db", "orders.db", "owner.lock"});
    // mkdtemp's mode: nobody else may read the run's data.
    CHECK((std::filesystem::status(folder).permissions() & std::filesystem::perms::all) ==
          std::filesystem::perms::owner_all);
    world->run();
    CHECK(world->summary().report.verdict == lab::Verdict::kExactlyOnce);
  }
  CHECK(entries(tmp.path).empty());
}

TEST_CASE("storage: a folder that cannot be made is an error, not a crash", "[world][storage]") {
  test_support::TempDir tmp("storage");
  TmpdirAt tmpdir(tmp / "missing");
  lab::Scenario s;
  lab::WorldOptions options;
  options.storage = lab::DbStorage::kTempFiles;
  const eosim::Result<std::unique_ptr<lab::World>> world = lab::World::create(s, options);
  CHECK_FALSE(world.ok());
  CHECK(world.message().find("cannot make a temporary folder in " + (tmp / "missing")) !=
        std::string::npos);
}

TEST_CASE("storage: auto takes files from kTempFilesFromOrders orders on", "[world][storage]") {
  lab::Scenario s;
  s.workload.orders = lab::kTempFilesFromOrders - 1;
  CHECK(lab::auto_storage(s) == lab::DbStorage::kMemory);
  s.workload.orders = lab::kTempFilesFromOrders;
  CHECK(lab::auto_storage(s) == lab::DbStorage::kTempFiles);
}

TEST_CASE("storage: the kinds `eosim run --db` names are DbStorage's table", "[storage]") {
  check_named_round_trip<lab::DbStorage>();
  CHECK(sim::value_named<lab::DbStorage>("files") == lab::DbStorage::kTempFiles);
  CHECK_FALSE(sim::value_named<lab::DbStorage>("auto"));  // auto_storage decides
}
