#include "src/matrix/matrix.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "src/catalog/catalog.h"
#include "src/matrix/matrix_format.h"
#include "src/world/world.h"
#include "tests/support/scenario_load.h"
#include "tests/support/status_support.h"

namespace {

const std::string kStandard = "scenarios/01-happy-path.toml";

// The standard scenario, loaded from the source tree.
lab::Scenario load_standard() {
  return test_support::load_scenario_file(std::string(EOSIM_SOURCE_DIR) + "/" + kStandard);
}

lab::Matrix build(const lab::Scenario& s, lab::MatrixOptions options) {
  lab::Matrix m;
  REQUIRE_OK(lab::build_matrix(s, options, m));
  return m;
}

lab::Matrix standard(unsigned jobs) {
  lab::MatrixOptions options;
  options.path = kStandard;
  options.jobs = jobs;
  return build(load_standard(), options);
}

std::size_t design_index(const lab::Matrix& m, const std::string& label) {
  for (std::size_t d = 0; d < m.designs.size(); ++d) {
    if (m.designs[d].label == label) return d;
  }
  FAIL("no design " << label);
  return 0;
}

std::size_t fault_index(const lab::Matrix& m, const std::string& label) {
  for (std::size_t f = 0; f < m.faults.size(); ++f) {
    if (m.faults[f].label == label) return f;
  }
  FAIL("no fault row " << label);
  return 0;
}

}  // namespace

TEST_CASE("matrix: the README shows the standard workload's matrix as generated now",
          "[matrix]") {
  std::ifstream in(std::string(EOSIM_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string readme = buffer.str();
  const std::string begin = "<!-- matrix:begin";
  const std::string end = "<!-- matrix:end -->";
  const std::size_t b = readme.find(begin);
  const std::size_t e = readme.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  const std::size_t body = readme.find('\n', b) + 1;
  INFO("regenerate with: eosim matrix " << kStandard << " --format markdown");
  CHECK(readme.substr(body, e - body) == lab::format_matrix_markdown(standard(0)));
}

TEST_CASE("matrix: every cell applies where the design passes the site, and its fault fired",
          "[matrix]") {
  const lab::Matrix m = standard(2);
  REQUIRE(m.designs.size() == lab::strategies().size() + lab::producers().size() - 1);
  REQUIRE(m.cells.size() == m.faults.size());
  for (std::size_t f = 0; f < m.faults.size(); ++f) {
    bool some = false;
    for (const lab::MatrixCell& cell : m.cells[f]) {
      some = some || cell.applies;
      if (!cell.applies) continue;
      CHECK(cell.fired);
      CHECK(cell.rule.site == m.faults[f].site);
      CHECK(lab::find_verdict(lab::verdict_name(cell.verdict)) != nullptr);
      CHECK(cell.command.find("--fault ") != std::string::npos);
    }
    CHECK(some);  // a row nobody passes would not be listed
  }
  // The lessons of the article, as the matrix must show them.
  const std::size_t atomic = design_index(m, "atomic");
  for (const auto& row : m.cells) {
    if (row[atomic].applies) CHECK(row[atomic].verdict == lab::Verdict::kExactlyOnce);
  }
  const auto& after_commit = m.cells[fault_index(m, "consumer.after_commit")];
  CHECK(after_commit[design_index(m, "no-dedup")].verdict == lab::Verdict::kDuplicated);
  CHECK(after_commit[design_index(m, "no-dedup")].duplicated == std::vector<std::int64_t>{1});
  const auto& before_commit = m.cells[fault_index(m, "consumer.before_commit")];
  CHECK(before_commit[design_index(m, "auto-ack")].verdict == lab::Verdict::kLost);
  // A producer crash after its publish exists only for publish-then-commit and dual-write.
  const auto& after_publish = m.cells[fault_index(m, "producer.after_publish")];
  CHECK_FALSE(after_publish[atomic].applies);
  CHECK(after_publish[design_index(m, "publish-then-commit")].verdict == lab::Verdict::kPhantom);
}

TEST_CASE("matrix: a cell's command reproduces it, and the thread count changes nothing",
          "[matrix]") {
  const lab::Matrix one = standard(1);
  const lab::Matrix four = standard(4);
  CHECK(lab::matrix_json(one) == lab::matrix_json(four));

  // Rebuild each violating cell from its --fault text, as `eosim run` does, and run it.
  const lab::Scenario file = load_standard();
  int checked = 0;
  for (std::size_t f = 0; f < one.faults.size(); ++f) {
    for (std::size_t d = 0; d < one.designs.size(); ++d) {
      const lab::MatrixCell& cell = one.cells[f][d];
      if (!cell.applies || cell.verdict == lab::Verdict::kExactlyOnce) continue;
      lab::Scenario s = test_support::overridden(
          file, {.strategy = one.designs[d].strategy, .producer = one.designs[d].producer});
      sim::FaultRule rule;
      REQUIRE(lab::parse_fault_rule(lab::fault_rule_text(cell.rule), s, rule).ok());
      CHECK(rule == cell.rule);
      s.script = {rule};
      lab::RunSummary run;
      REQUIRE_OK(lab::run_scenario(s, lab::WorldOptions{}, run, nullptr));
      CHECK(run.report.verdict == cell.verdict);
      ++checked;
    }
  }
  CHECK(checked >= 10);
}

TEST_CASE("matrix: the random row counts seeds and names the first failing one", "[matrix]") {
  lab::MatrixOptions options;
  options.path = kStandard;
  options.first_seed = 5;
  options.last_seed = 14;
  const lab::Matrix m = build(load_standard(), options);
  const lab::MatrixRandom& no_dedup = m.random[design_index(m, "no-dedup")];
  CHECK(no_dedup.runs == 10);
  REQUIRE(no_dedup.first_failing_seed);
  CHECK(*no_dedup.first_failing_seed >= 5);
  CHECK(no_dedup.command.find("--seed " + std::to_string(*no_dedup.first_failing_seed)) !=
        std::string::npos);
  std::uint64_t total = 0;
  for (const auto& [verdict, count] : no_dedup.verdicts) total += count;
  CHECK(total == 10);
  CHECK(no_dedup.violations == 10 - (no_dedup.verdicts.count("exactly-once")
                                         ? no_dedup.verdicts.at("exactly-once")
                                         : 0));
  options.seeds = false;
  const lab::Matrix none = build(load_standard(), options);
  CHECK(none.random.at(0).runs == 0);
  CHECK(lab::format_matrix_text(none).find("random") == std::string::npos);
}

TEST_CASE("fault rule specs: read like a [[faults.script]] rule, errors name the key",
          "[matrix][scenario]") {
  const lab::Scenario s = load_standard();
  sim::FaultRule rule;
  REQUIRE(lab::parse_fault_rule("net.consumer->broker:frame=basic.ack,nth=2", s, rule).ok());
  CHECK(rule.site == "net.consumer->broker");
  CHECK(rule.action == sim::FaultAction::kDrop);  // the site's only action
  CHECK(rule.frame == std::optional<std::string>("basic.ack"));
  CHECK(rule.nth == std::optional<std::int64_t>(2));
  CHECK(lab::fault_rule_text(rule) == "net.consumer->broker:frame=basic.ack,nth=2");

  const auto refusal = [&](const std::string& spec) {
    const eosim::Status refused = lab::parse_fault_rule(spec, s, rule);
    CHECK_FALSE(refused.ok());
    return refused.message;
  };
  CHECK(refusal("consumer.after_commit:order=9").find("key `order`") != std::string::npos);
  CHECK(refusal("consumer.after_comit").find("unknown fault site") != std::string::npos);
  CHECK(refusal("consumer.after_commit:do=drop").find("key `do`") != std::string::npos);
  refusal("consumer.after_commit:order");
  refusal("consumer.after_commit:order=\"1");
  CHECK(rule.site == "net.consumer->broker");  // untouched by the failures
}
