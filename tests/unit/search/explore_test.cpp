#include "src/search/explore.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "src/scenario/patterns.h"

namespace {

lab::Scenario orders(std::int64_t n, const std::string& strategy = "atomic") {
  lab::Scenario s;
  s.name = "explore test";
  s.workload.orders = n;
  s.consumer.strategy = strategy;
  return s;
}

lab::ExploreResult run_explore(const lab::Scenario& s, lab::ExploreOptions options) {
  lab::ExploreResult r;
  std::string error;
  INFO(error);
  REQUIRE(lab::explore(s, options, r, error));
  return r;
}

}  // namespace

TEST_CASE("explore: the fault plan logs every opportunity with its occurrence number",
          "[explore]") {
  lab::WorldOptions options;
  options.keep_trace = false;
  options.log_opportunities = true;
  std::string error;
  auto world = lab::World::create(orders(2), options, error);
  REQUIRE(world);
  world->run();
  const auto& log = world->kernel().faults.opportunities();
  REQUIRE(log.size() > 20);
  std::map<std::pair<std::string, std::string>, std::int64_t> seen;
  std::uint64_t step = 0;
  for (const auto& o : log) {
    CHECK(o.nth == ++seen[{o.site, o.frame}]);  // nth counts per (site, frame)
    CHECK(o.step >= step);                      // in the order they happened
    step = o.step;
    CHECK_FALSE(o.action.empty());
  }
  CHECK(seen.count({"consumer.after_commit", ""}) == 1);
  CHECK(seen.at({"consumer.after_commit", ""}) == 2);  // once per order
  // Off by default.
  auto quiet = lab::World::create(orders(2), {}, error);
  quiet->run();
  CHECK(quiet->kernel().faults.opportunities().empty());
}

TEST_CASE("explore: one fault at each opportunity, each firing where it was placed",
          "[explore]") {
  lab::ExploreOptions options;
  options.max_faults = 1;
  options.max_deviations = 0;
  const lab::Scenario s = orders(1);
  const lab::ExploreResult r = run_explore(s, options);
  CHECK(r.runs == 1 + r.base_opportunities);
  REQUIRE(r.runs_by_faults.size() == 2);
  CHECK(r.runs_by_faults[1] == r.base_opportunities);
  CHECK(r.violations == 0);  // atomic + outbox survives every single fault
  REQUIRE(r.outcomes.size() == 1);
  CHECK(r.outcomes[0].verdict == lab::Verdict::kExactlyOnce);
  CHECK_FALSE(r.truncated);
  // The rule made from an opportunity fires there and nowhere else: the run up to it is
  // the root's, since rules draw nothing from the chooser.
  lab::WorldOptions logging;
  logging.log_opportunities = true;
  std::string error;
  auto root = lab::World::create(lab::explore_root(s), logging, error);
  root->run();
  for (const auto& o : root->kernel().faults.opportunities()) {
    lab::ExplorePath path;
    path.faults.push_back(lab::rule_from_fired(o, true, 1));
    lab::RunSummary run;
    REQUIRE(lab::run_path(s, path, run, error));
    INFO(o.site << " " << o.frame << " #" << o.nth);
    REQUIRE(run.faults.size() == 1);
    CHECK(run.faults[0].site == o.site);
    CHECK(run.faults[0].nth == o.nth);
    CHECK(run.faults[0].step == o.step);
  }
}

TEST_CASE("explore: an anti-pattern's violation is found with the fewest faults",
          "[explore]") {
  lab::ExploreOptions options;
  options.max_faults = 2;
  options.max_deviations = 0;
  options.kinds = {"crash"};
  const lab::Scenario s = orders(2, "no-dedup");
  const lab::ExploreResult r = run_explore(s, options);
  REQUIRE(r.first_violation);
  CHECK(r.first_violation->faults.size() == 1);  // breadth first: one crash is enough
  CHECK(r.violations > 0);
  lab::RunSummary replay;
  std::string error;
  REQUIRE(lab::run_path(s, *r.first_violation, replay, error));
  CHECK(replay.report.verdict == lab::Verdict::kDuplicated);
  CHECK(replay.faults.size() == 1);
  // And it becomes a scenario file.
  lab::ShrinkResult file;
  REQUIRE(lab::counterexample(s, *r.first_violation, file, error) == lab::ShrinkStatus::kShrunk);
  CHECK(file.minimal.size() == 1);
  CHECK(file.minimal_scenario.about.rfind("Found by `eosim explore`", 0) == 0);
}

TEST_CASE("explore: scheduler choice points, each alternative once", "[explore]") {
  lab::ExploreOptions options;
  options.max_faults = 0;
  options.max_deviations = 1;
  const lab::ExploreResult r = run_explore(orders(2), options);
  CHECK(r.base_choice_points > 0);
  CHECK(r.runs == 1 + r.base_alternatives);
  CHECK(r.distinct + r.duplicates == r.runs);
  CHECK(r.violations == 0);
}

TEST_CASE("explore: the same result for any number of jobs, and max_runs truncates",
          "[explore]") {
  lab::ExploreOptions options;
  options.max_faults = 2;
  options.max_deviations = 0;
  options.kinds = {"drop"};
  const lab::Scenario s = orders(2, "no-dedup");
  options.jobs = 1;
  const lab::ExploreResult one = run_explore(s, options);
  options.jobs = 2;
  const lab::ExploreResult two = run_explore(s, options);
  CHECK(one.runs == two.runs);
  CHECK(one.distinct == two.distinct);
  CHECK(one.violations == two.violations);
  CHECK(one.outcomes.size() == two.outcomes.size());
  REQUIRE(one.first_violation);
  REQUIRE(two.first_violation);
  CHECK(one.first_violation->faults == two.first_violation->faults);
  options.max_runs = 10;
  const lab::ExploreResult cut = run_explore(s, options);
  CHECK(cut.truncated);
  CHECK(cut.runs == 10);
}

namespace {

std::set<std::string> verdicts_of(const lab::ExploreResult& r) {
  std::set<std::string> out;
  for (const auto& c : r.outcomes) out.insert(c.verdict);
  return out;
}

// Explores every anti-pattern with and without state merging; `kinds` empty = every kind.
// requeue-poison is left out when `quick`: its runs all go on to the step bound.
void compare_anti_patterns(int max_faults, int max_deviations, const std::set<std::string>& kinds,
                           bool quick) {
  std::uint64_t cut = 0;
  for (const lab::AntiPattern& p : lab::anti_patterns()) {
    if (quick && p.strategy == "requeue-poison") continue;
    const lab::Scenario s = lab::anti_pattern_scenario(p);
    lab::ExploreOptions options;
    options.max_faults = max_faults;
    options.max_deviations = max_deviations;
    options.kinds = kinds;
    options.merge_states = false;
    const lab::ExploreResult all = run_explore(s, options);
    options.merge_states = true;
    const lab::ExploreResult merged = run_explore(s, options);
    cut += merged.merged;
    INFO(p.strategy << " / " << p.producer << ": " << all.runs << " runs without merging, "
                    << merged.runs << " with, " << merged.merged << " cut");
    CHECK(verdicts_of(merged) == verdicts_of(all));
    CHECK((merged.violations > 0) == (all.violations > 0));
    CHECK(all.merged == 0);
    CHECK(merged.runs <= all.runs);
    if (all.first_violation) {
      REQUIRE(merged.first_violation);
      CHECK(merged.first_violation->faults.size() == all.first_violation->faults.size());
    }
  }
  CHECK(cut > 0);  // merging had something to merge
}

}  // namespace

TEST_CASE("explore: state merging finds the anti-patterns' verdicts (crashes, K=2, D=0)",
          "[explore][merge]") {
  compare_anti_patterns(2, 0, {"crash"}, true);
}

// Hidden (tens of thousands of runs, minutes): eosim_core_tests "[.merge]".
TEST_CASE("explore: state merging finds every anti-pattern's verdicts (every kind, K=1, D=1)",
          "[.merge]") {
  compare_anti_patterns(1, 1, {}, false);
}

namespace {

// Explores `s` with merging, then without it up to ten times as many runs: the reduction
// is at least tenfold when that is not enough for the whole tree.
void check_tenfold(const lab::Scenario& s, lab::ExploreOptions options) {
  options.merge_states = true;
  const lab::ExploreResult merged = run_explore(s, options);
  options.merge_states = false;
  options.max_runs = merged.runs * 10;
  const lab::ExploreResult all = run_explore(s, options);
  INFO(merged.runs << " runs with merging (" << merged.merged << " cut), " << all.runs
                   << (all.truncated ? "+" : "") << " without");
  CHECK(!merged.truncated);
  CHECK(merged.merged > 0);
  CHECK(all.truncated);
  CHECK(verdicts_of(merged) == verdicts_of(all));
}

}  // namespace

TEST_CASE("explore: state merging cuts two orders at K=2 D=1 at least tenfold",
          "[explore][merge]") {
  lab::ExploreOptions options;
  options.max_faults = 2;
  options.max_deviations = 1;
  check_tenfold(orders(2), options);
}

// Hidden (about 15,000 runs): the figure of issue 13, three orders at K=2 D=1.
TEST_CASE("explore: state merging cuts three orders at K=2 D=1 at least tenfold", "[.merge]") {
  lab::ExploreOptions options;
  options.max_faults = 2;
  options.max_deviations = 1;
  check_tenfold(orders(3), options);
}
