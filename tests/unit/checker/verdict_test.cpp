// The checker's vocabulary: one name per value, parsed back to the same value, and the
// catalog (`eosim list verdicts`, the scenario loader) naming exactly the same verdicts.

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <set>
#include <sstream>
#include <string>

#include "src/catalog/catalog.h"
#include "src/checker/verdict.h"
#include "src/checker/violations.h"
#include "tests/support/named_check.h"

namespace {

constexpr lab::Verdict kVerdicts[] = {lab::Verdict::kExactlyOnce, lab::Verdict::kDuplicated,
                                      lab::Verdict::kLost,        lab::Verdict::kPhantom,
                                      lab::Verdict::kStuck,       lab::Verdict::kBalanceMismatch,
                                      lab::Verdict::kIncomplete};
constexpr lab::Outcome kOutcomes[] = {lab::Outcome::kDebited,    lab::Outcome::kRejected,
                                      lab::Outcome::kDeadLettered, lab::Outcome::kDuplicated,
                                      lab::Outcome::kLost,       lab::Outcome::kStuck,
                                      lab::Outcome::kPhantom,    lab::Outcome::kUnsettled};

}  // namespace

TEST_CASE("verdict names parse back to the same verdict, and are distinct", "[verdict]") {
  std::set<std::string> names;
  for (const lab::Verdict v : kVerdicts) {
    const std::string name(lab::verdict_name(v));
    CHECK(lab::parse_verdict(name) == v);
    names.insert(name);
  }
  CHECK(names.size() == std::size(kVerdicts));
  CHECK(lab::verdict_name(lab::Verdict::kExactlyOnce) == "exactly-once");
  CHECK_FALSE(lab::parse_verdict("exactly_once"));  // a typo is no verdict
  CHECK_FALSE(lab::parse_verdict(""));
}

TEST_CASE("outcome names parse back to the same outcome, and are distinct", "[verdict]") {
  std::set<std::string> names;
  for (const lab::Outcome o : kOutcomes) {
    const std::string name(lab::outcome_name(o));
    CHECK(lab::parse_outcome(name) == o);
    names.insert(name);
  }
  CHECK(names.size() == std::size(kOutcomes));
  CHECK(lab::outcome_name(lab::Outcome::kDeadLettered) == "dead-lettered");
  CHECK_FALSE(lab::parse_outcome("exactly-once"));  // a verdict, not an outcome
}

TEST_CASE("the catalog lists exactly the verdicts of the enum, in its order", "[verdict]") {
  const auto& listed = lab::verdicts();
  REQUIRE(listed.size() == std::size(kVerdicts));
  for (std::size_t i = 0; i < listed.size(); ++i) {
    CHECK(listed[i].name == lab::verdict_name(kVerdicts[i]));
  }
}

TEST_CASE("an expectation is `violation` or a verdict name", "[verdict]") {
  const auto violation = lab::parse_expectation("violation");
  REQUIRE(violation);
  CHECK(violation->violation);
  CHECK(lab::expectation_name(*violation) == "violation");
  const auto lost = lab::parse_expectation("lost");
  REQUIRE(lost);
  CHECK_FALSE(lost->violation);
  CHECK(lost->verdict == lab::Verdict::kLost);
  CHECK(lab::expectation_name(*lost) == "lost");
  CHECK_FALSE(lab::parse_expectation("violations"));
}

TEST_CASE("verdicts stream as their names", "[verdict]") {
  std::ostringstream out;
  out << lab::Verdict::kPhantom << ' ' << lab::Outcome::kDebited;
  CHECK(out.str() == "phantom debited");
}

TEST_CASE("violations: the orders a verdict is named after, the emails' when the ledger has none",
          "[checker]") {
  lab::Violations v;
  CHECK(lab::orders_named(v) == nullptr);  // exactly-once names no order
  v.lost = {4};
  v.stuck = {5};
  v.verdict = lab::Verdict::kLost;
  CHECK(lab::orders_named(v) == &v.lost);
  v.verdict = lab::Verdict::kStuck;
  CHECK(lab::orders_named(v) == &v.stuck);
  v.verdict = lab::Verdict::kDuplicated;
  v.effect_duplicated = {2};
  CHECK(lab::orders_named(v) == &v.effect_duplicated);  // debited once, emailed twice
  v.duplicated = {3};
  CHECK(lab::orders_named(v) == &v.duplicated);
  v.verdict = lab::Verdict::kBalanceMismatch;
  CHECK(lab::orders_named(v) == nullptr);
}

TEST_CASE("violations: one JSON form, the same keys in the same order", "[checker]") {
  lab::Violations v;
  v.verdict = lab::Verdict::kDuplicated;
  v.effect_duplicated = {2};
  nlohmann::ordered_json j;
  j["seed"] = 3;
  lab::put_violations(j, v);
  CHECK(j.dump() == R"({"seed":3,"verdict":"duplicated","lost":[],"duplicated":[],"phantom":[],)"
                    R"("stuck":[],"effects_duplicated":[2]})");
}

TEST_CASE("verdicts and outcomes are named by their tables", "[verdict]") {
  check_named_round_trip<lab::Verdict>();
  check_named_round_trip<lab::Outcome>();
  CHECK(sim::meaning_of(lab::Verdict::kLost) == "some committed order took no effect at all");
}
