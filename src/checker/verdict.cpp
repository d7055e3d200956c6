#include "src/checker/verdict.h"

#include <array>
#include <ostream>
#include <utility>

namespace lab {

namespace {

// verdict.h invariant 1 rests on these two tables.
constexpr std::array<sim::Named<Verdict>, 7> kVerdictNames{{
    {Verdict::kExactlyOnce, "exactly-once",
     "every committed order took effect once, nothing left behind"},
    {Verdict::kDuplicated, "duplicated", "some order took effect twice or more"},
    {Verdict::kLost, "lost", "some committed order took no effect at all"},
    {Verdict::kPhantom, "phantom", "some effect belongs to an order that was never committed"},
    {Verdict::kStuck, "stuck", "messages or outbox rows were still pending when the run ended"},
    {Verdict::kBalanceMismatch, "balance-mismatch",
     "no order went wrong by the lists above, yet the account's balance is not the "
     "expected one (e.g. an order refused that the funds covered)"},
    {Verdict::kIncomplete, "incomplete",
     "the step bound ended the run before the workload was produced (raise max_steps), "
     "or a live run was stopped at its timeout before it settled: no verdict on the design"},
}};
static_assert(sim::names_every_value(kVerdictNames));

constexpr std::array<sim::Named<Outcome>, 8> kOutcomeNames{{
    {Outcome::kDebited, "debited", ""},
    {Outcome::kRejected, "rejected", ""},
    {Outcome::kDeadLettered, "dead-lettered", ""},
    {Outcome::kDuplicated, "duplicated", ""},
    {Outcome::kLost, "lost", ""},
    {Outcome::kStuck, "stuck", ""},
    {Outcome::kPhantom, "phantom", ""},
    {Outcome::kUnsettled, "unsettled", ""},
}};
static_assert(sim::names_every_value(kOutcomeNames));

}  // namespace

std::string_view verdict_name(Verdict verdict) { return sim::name_of(verdict); }

std::optional<Verdict> parse_verdict(std::string_view name) {
  return sim::value_named<Verdict>(name);
}

std::string_view outcome_name(Outcome outcome) { return sim::name_of(outcome); }

std::optional<Outcome> parse_outcome(std::string_view name) {
  return sim::value_named<Outcome>(name);
}

std::optional<Expectation> parse_expectation(std::string_view text) {
  if (text == "violation") return Expectation{true, Verdict::kExactlyOnce};
  const std::optional<Verdict> verdict = parse_verdict(text);
  if (!verdict) return std::nullopt;
  return Expectation{false, *verdict};
}

std::string_view expectation_name(const Expectation& expect) {
  return expect.violation ? "violation" : verdict_name(expect.verdict);
}

std::ostream& operator<<(std::ostream& out, Verdict verdict) {
  return out << verdict_name(verdict);
}

std::ostream& operator<<(std::ostream& out, Outcome outcome) {
  return out << outcome_name(outcome);
}

}  // namespace lab

namespace sim {
template <>
std::span<const Named<lab::Verdict>> enum_names<lab::Verdict>() {
  return lab::kVerdictNames;
}
template <>
std::span<const Named<lab::Outcome>> enum_names<lab::Outcome>() {
  return lab::kOutcomeNames;
}
}  // namespace sim
