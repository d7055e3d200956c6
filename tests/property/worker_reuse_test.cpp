// A sweep worker's later seed runs exactly as that seed alone: what one thread keeps
// across its runs (store/warm.h: its connections, their prepared statements and the
// databases they hold, emptied between runs; the per-thread schema templates) leaves
// nothing of an earlier seed behind. Seed B run after seed A in one worker must give
// B's summary, trace hash and final tables of B run first in a fresh worker, for every A.
#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "src/scenario/scenario.h"
#include "src/search/sweep.h"
#include "src/store/warm.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"

namespace {

// What the sweep reads of a run (sweep.cpp's reduce), and more: a difference in any of
// it changes this text.
std::string summary_text(const lab::RunSummary& r) {
  std::string t = std::to_string(r.trace_hash) + " events " + std::to_string(r.trace_events) +
                  " steps " + std::to_string(r.steps) + " time " + std::to_string(r.time) +
                  " verdict " + std::string(lab::verdict_name(r.report.verdict)) + " balance " +
                  std::to_string(r.report.balance_actual) + " redelivered " +
                  std::to_string(r.redeliveries) + " republished " +
                  std::to_string(r.republished.value_or(-1)) + " orders " +
                  std::to_string(r.report.orders.size()) + " unfired " +
                  std::to_string(r.unfired.size()) + " faults";
  for (const sim::FiredFault& f : r.faults) {
    t += " " + f.site + "/" + std::string(sim::fault_action_name(f.action)) + "@" +
         std::to_string(f.step) + "#" + std::to_string(f.nth);
  }
  for (const std::int64_t order : r.report.dead_lettered) t += " dead " + std::to_string(order);
  for (const std::int64_t order : r.report.rejected) t += " rejected " + std::to_string(order);
  return t;
}

// Every row of the run's databases at its end, ids included (an AUTOINCREMENT counter a
// reset left running shows here even when the trace does not name the ids).
std::string tables_text(const std::vector<lab::DbTable>& tables) {
  std::string t;
  for (const lab::DbTable& table : tables) {
    t += "\n" + table.database + "." + table.name + ":";
    for (const std::vector<std::string>& row : table.rows) {
      t += "\n";
      for (const std::string& cell : row) t += cell + "|";
    }
  }
  return t;
}

// Runs `seed` as a sweep worker does; `tables`, when given, receives its final rows.
lab::RunSummary run_seed(const lab::Scenario& base, std::uint64_t seed,
                         std::string* tables = nullptr) {
  lab::SweepOptions options;  // the sweep's default fault ratios when the file has none
  lab::WorldOptions world;    // as a sweep worker runs a seed
  world.keep_trace = false;
  world.record_tape = false;
  lab::RunSummary run;
  std::vector<lab::DbTable> rows;
  const eosim::Status ran = lab::run_scenario(lab::sweep_scenario(base, options, seed), world, run,
                                              nullptr, tables != nullptr ? &rows : nullptr);
  INFO(ran.message);
  REQUIRE(ran.ok());
  if (tables != nullptr) *tables = tables_text(rows);
  return run;
}

}  // namespace

TEST_CASE("worker reuse: seed B after seed A in one worker equals B alone",
          "[property][warm][reuse]") {
  const lab::Scenario base = test_support::loaded(
      lab::load_scenario(std::string(EOSIM_SOURCE_DIR) + "/bench/ten-orders.toml"));
  std::size_t faulted_a = 0;
  for (std::uint64_t b = 7; b <= 9; ++b) {
    std::string alone, alone_rows;
    {
      store::WarmScope fresh;
      alone = summary_text(run_seed(base, b, &alone_rows));
    }
    for (std::uint64_t a = 1; a <= 6; ++a) {
      INFO("seed " << b << " after seed " << a);
      store::WarmScope worker;
      const lab::RunSummary first = run_seed(base, a);
      faulted_a += first.faults.empty() ? 0 : 1;
      std::string after_rows;
      const std::string after = summary_text(run_seed(base, b, &after_rows));
      CHECK(worker.reused() > 0);  // B ran on A's connections and databases
      CHECK(after == alone);
      CHECK(after_rows == alone_rows);
    }
  }
  CHECK(faulted_a > 0);  // some A left faults behind: crashes, failed commits, restarts
}

// A sweep worker's World is reset in place for its next seed (lab::ReusedWorld): every
// seed must give the summary, trace hash and final tables of a World built for it alone,
// also when the design changes between runs (a separate dedup store, a mail server's log).
TEST_CASE("worker reuse: a World reset in place for each seed equals a new World",
          "[property][warm][reuse]") {
  const std::string dir = std::string(EOSIM_SOURCE_DIR);
  const std::vector<lab::Scenario> bases = {
      test_support::loaded(lab::load_scenario(dir + "/bench/ten-orders.toml")),
      test_support::loaded(lab::load_scenario(dir + "/scenarios/07-separate-dedup-store.toml")),
      test_support::loaded(lab::load_scenario(dir + "/scenarios/36-side-effect-idempotent.toml"))};
  // Which scenario each run takes: mostly the sweep's file, its seeds in a row, then a
  // change of design and back.
  const std::vector<std::pair<std::size_t, std::uint64_t>> runs = {
      {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 6}, {0, 7}, {2, 8}, {2, 9}, {0, 10}};
  std::vector<std::string> alone(runs.size()), alone_rows(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    store::WarmScope fresh;
    alone[i] = summary_text(run_seed(bases[runs[i].first], runs[i].second, &alone_rows[i]));
  }
  store::WarmScope worker;
  lab::ReusedWorld reused;  // after the scope: destroyed before it
  lab::WorldOptions world;
  world.keep_trace = false;
  world.record_tape = false;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    INFO("run " << i << ": seed " << runs[i].second << " of scenario " << runs[i].first);
    lab::RunSummary run;
    std::vector<lab::DbTable> rows;
    const lab::Scenario base =
        lab::sweep_scenario(bases[runs[i].first], lab::SweepOptions{}, runs[i].second);
    const eosim::Status ran = reused.run(base, runs[i].second, world, run, &rows);
    INFO(ran.message);
    REQUIRE(ran.ok());
    CHECK(summary_text(run) == alone[i]);
    CHECK(tables_text(rows) == alone_rows[i]);
  }
  CHECK(reused.resets() == runs.size() - 1);  // one World, reset for every run after its first
}
