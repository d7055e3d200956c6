// run_scenario, overrides and expectations: the thin layer the CLI, sweeps and tests share.
#include <algorithm>

#include "src/lab/world.h"

namespace lab {

bool run_scenario(const Scenario& scenario, const WorldOptions& options, RunSummary& out,
                  std::vector<sim::TraceEvent>* trace, std::string& error) {
  WorldOptions effective = options;
  effective.keep_trace = options.keep_trace || trace != nullptr;
  auto world = World::create(scenario, effective, error);
  if (!world) return false;
  world->run();
  out = world->summary();
  if (trace) *trace = world->kernel().trace.events();
  return true;
}

Scenario with_overrides(Scenario scenario, std::optional<std::uint64_t> seed,
                        const std::string& strategy, const std::string& producer) {
  if (seed) scenario.seed = *seed;
  if (!strategy.empty()) scenario.consumer.strategy = strategy;
  if (!producer.empty()) scenario.producer.pattern = producer;
  return scenario;
}

std::vector<std::string> diagram_lanes(const Scenario& scenario) {
  std::vector<std::string> lanes = {"producer", "orders", "relay", "broker"};
  for (std::int64_t i = 1; i <= scenario.consumer.instances; ++i) {
    lanes.push_back("consumer" + std::to_string(i));
  }
  // The separate dedup store is a store of its own, drawn as its own lane.
  if (scenario.consumer.strategy == "separate-dedup-store") lanes.push_back("dedup");
  lanes.push_back("ledger");
  return lanes;
}

namespace {

std::string list_text(const std::vector<std::int64_t>& orders) {
  if (orders.empty()) return "[]";
  std::string s = "[";
  for (std::size_t i = 0; i < orders.size(); ++i) s += (i ? ", " : "") + std::to_string(orders[i]);
  return s + "]";
}

void expect_list(const char* name, const std::optional<std::vector<std::int64_t>>& want,
                 std::vector<std::int64_t> got, std::vector<std::string>& unmet) {
  if (!want) return;
  std::vector<std::int64_t> expected = *want;
  std::sort(expected.begin(), expected.end());
  std::sort(got.begin(), got.end());
  if (expected != got) {
    unmet.push_back(std::string(name) + ": expected " + list_text(expected) + ", got " +
                    list_text(got));
  }
}

}  // namespace

std::vector<std::string> unmet_expectations(const Scenario& scenario, const RunSummary& run) {
  std::vector<std::string> unmet;
  const Expect& e = scenario.expect;
  const Report& r = run.report;
  if (e.verdict && *e.verdict != r.verdict) {
    unmet.push_back("verdict: expected " + *e.verdict + ", got " + r.verdict);
  }
  if (e.balance && *e.balance != r.balance_actual) {
    unmet.push_back("balance: expected " + std::to_string(*e.balance) + ", got " +
                    std::to_string(r.balance_actual));
  }
  expect_list("lost", e.lost, r.lost, unmet);
  expect_list("duplicated", e.duplicated, r.duplicated, unmet);
  expect_list("phantom", e.phantom, r.phantom, unmet);
  expect_list("stuck", e.stuck, r.stuck, unmet);
  expect_list("dead_lettered", e.dead_lettered, r.dead_lettered, unmet);
  expect_list("rejected", e.rejected, r.rejected, unmet);
  return unmet;
}

}  // namespace lab
