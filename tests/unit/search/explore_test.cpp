#include "src/search/explore.h"

#include <catch2/catch.hpp>

#include <map>

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
