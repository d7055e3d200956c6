// The isolation race in the model (scenarios 49 and 50, check = "in-transaction"): two
// consumers' transactions each check order 1's debit before either commits. Read
// committed lets both debit; serializable refuses the second with 40001 and the retry's
// check finds the debit. The scenarios' [expect] blocks are checked by the suite; this
// test checks the interleaving that gives them: both checks came before the first commit.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "src/orders/event_kinds.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

struct IsolationRun {
  lab::RunSummary summary;
  std::vector<sim::TraceEvent> trace;

  // Steps of the events by `actor` whose kind is named `kind` and detail holds `text`.
  std::vector<std::uint64_t> steps(const std::string& kind, const std::string& text) const {
    std::vector<std::uint64_t> out;
    for (const sim::TraceEvent& e : trace) {
      if (orders::event_kind_name(e.kind) == kind && e.detail.find(text) != std::string::npos) {
        out.push_back(e.step);
      }
    }
    return out;
  }
};

IsolationRun run_isolation_race(const std::string& file) {
  IsolationRun r;
  const lab::Scenario s = test_support::load_example(file);
  REQUIRE_OK(lab::run_scenario(s, {}, r.summary, &r.trace));
  return r;
}

}  // namespace

TEST_CASE("isolation race: read committed, both transactions check, both debit",
          "[isolation][run]") {
  const IsolationRun r = run_isolation_race("49-check-in-transaction-read-committed.toml");
  CHECK(r.summary.report.verdict == lab::Verdict::kDuplicated);
  const auto checks = r.steps("checked", "not in debits");
  const auto commits = r.steps("commit", "debit ");
  REQUIRE(checks.size() == 2);
  REQUIRE(commits.size() == 2);
  CHECK(checks[1] < commits[0]);  // the second check came inside the first's transaction
  CHECK(r.steps("db-error", "40001").empty());
}

TEST_CASE("isolation race: serializable refuses the second writer with 40001", "[isolation][run]") {
  const IsolationRun r = run_isolation_race("50-check-in-transaction-serializable.toml");
  CHECK(r.summary.report.verdict == lab::Verdict::kExactlyOnce);
  const auto checks = r.steps("checked", "not in debits");
  const auto commits = r.steps("commit", "debit ");
  const auto refused = r.steps("db-error", "40001");
  REQUIRE(checks.size() == 2);
  REQUIRE(commits.size() == 1);
  REQUIRE(refused.size() == 1);
  CHECK(checks[1] < commits[0]);
  CHECK(commits[0] < refused[0]);  // the first committer won
  CHECK_FALSE(r.steps("duplicate", "already debited (checked inside the transaction)").empty());
}
