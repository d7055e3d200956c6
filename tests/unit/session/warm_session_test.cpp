// The GUI's sessions keep their worlds warm (store::shared_warm_scope, src/session/
// session.h): a rewind (a replay built aside), a re-run (configure) and the whole run's
// end() take back the connections and prepared statements an earlier world parked, and
// every state they show is byte-identical to a cold world's - trace hash, every table row,
// the verdict - for every scenario.

#include <catch2/catch.hpp>
#include <string>
#include <thread>
#include <vector>

#include "src/scenario/scenario.h"
#include "src/session/session.h"
#include "src/store/warm.h"
#include "src/world/world.h"
#include "tests/support/run_support.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

// What a state shows, flattened so two compare with one ==.
struct WorldState {
  std::uint64_t step = 0;
  std::uint64_t hash = 0;
  std::vector<std::string> rows;  // "db.table: col=value ..." per row
  bool operator==(const WorldState&) const = default;
};

WorldState state_of(const lab::World& world) {
  WorldState s;
  s.step = world.steps();
  s.hash = world.kernel().trace.hash();
  for (const lab::DbTable& t : world.tables()) {
    for (const auto& row : t.rows) {
      std::string line = t.database + "." + t.name + ":";
      for (std::size_t i = 0; i < row.size(); ++i) line += " " + t.columns[i] + "=" + row[i];
      s.rows.push_back(line);
    }
  }
  return s;
}

// The cold reference, on a thread of its own: a thread without a WarmScope builds its
// worlds on fresh connections, as every run did before warm worlds.
struct Cold {
  std::vector<WorldState> at;  // at[i]: the state after steps[i] steps
  std::uint64_t end_hash = 0;
  decltype(lab::Report::verdict) end_verdict{};
};

Cold cold_run(const lab::Scenario& s, const std::vector<std::uint64_t>& steps) {
  Cold out;
  std::thread worker([&] {
    REQUIRE(store::WarmScope::current() == nullptr);
    for (const std::uint64_t k : steps) {
      auto world = run_support::world(s, lab::WorldOptions{});
      REQUIRE(world);
      while (world->steps() < k && world->step()) {
      }
      out.at.push_back(state_of(*world));
    }
    lab::RunSummary summary;
    REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, summary, nullptr));
    out.end_hash = summary.trace_hash;
    out.end_verdict = summary.report.verdict;
  });
  worker.join();
  return out;
}

}  // namespace

TEST_CASE("a session's rewinds and re-runs use warm worlds that show what cold ones show",
          "[session][warm]") {
  std::vector<std::string> files;
  REQUIRE(lab::scenario_files_in(std::string(EOSIM_SOURCE_DIR) + "/scenarios", files).ok());
  REQUIRE(files.size() > 10);
  for (const std::string& file : files) {
    lab::Scenario s = test_support::loaded(lab::load_scenario(file));
    INFO(file);
    lab::Session session;
    REQUIRE_OK(session.open(s));
    store::WarmScope* warm = store::WarmScope::current();
    REQUIRE(warm != nullptr);  // the session made the thread's scope
    const std::uint64_t reused_before = warm->reused();
    const std::uint64_t end = session.end().steps;
    // Forward to the end, then rewinds: each a replay built aside while the shown world
    // still holds its databases, so two warm worlds are alive at once.
    const std::vector<std::uint64_t> steps = {end, end / 2, end > 0 ? end - 1 : 0, 3, 0};
    const Cold cold = cold_run(session.scenario(), steps);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      session.seek(steps[i]);
      INFO("step " << steps[i]);
      CHECK(state_of(session.world()) == cold.at[i]);
    }
    // A re-run with the same choices: a new world at step 0, and a new whole-run end.
    REQUIRE_OK(session.configure({.seed = s.seed}));
    CHECK(state_of(session.world()) == cold.at.back());
    CHECK(session.end().trace_hash == cold.end_hash);
    CHECK((session.end().report.verdict == cold.end_verdict));
    CHECK(warm->reused() > reused_before);  // the worlds did take parked connections back
  }
  CHECK(store::WarmScope::current() == nullptr);  // gone with the last session
}
