#pragma once
// The checker's vocabulary as types: a run's verdict and an order's outcome. Inside the
// program they are enums, so a misspelt verdict does not compile; their names appear only
// where text crosses the edge (scenario files, CLI options, JSON and text reports), through
// each enum's name table (sim::enum_names, verdict.cpp); the name/parse pairs below are
// short-hands for sim::name_of and sim::value_named.
//
// Invariants:
//  (1) verdict_name and parse_verdict are inverse on every Verdict (likewise for outcomes).
//  (2) The violation verdicts are ordered by precedence (docs/scenario-format.md):
//      duplicated, lost, phantom, stuck, balance-mismatch; the checker gives the first
//      that applies.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "sim/named.h"

namespace lab {

enum class Verdict : std::uint8_t {
  kExactlyOnce,
  kDuplicated,
  kLost,
  kPhantom,
  kStuck,
  // Every order has a fitting outcome, yet the account's balance is not the one the
  // business meant (checker.h, Balance): an order refused that the funds covered, say.
  kBalanceMismatch,
  // Not the checker's: the run hit its step bound before the workload was produced, or a
  // live run was stopped at its timeout before it settled (cut_short in checker.h).
  kIncomplete,
};

// What became of one order number (checker.h says which applies).
enum class Outcome : std::uint8_t {
  kDebited,
  kRejected,
  kDeadLettered,
  kDuplicated,
  kLost,
  kStuck,
  kPhantom,
  // Not the checker's: a live run stopped at its timeout before this order had an outcome
  // (cut_short in checker.h). Not "lost": it may simply not have arrived yet.
  kUnsettled,
};

}  // namespace lab

namespace sim {
template <>
std::span<const Named<lab::Verdict>> enum_names<lab::Verdict>();
template <>
std::span<const Named<lab::Outcome>> enum_names<lab::Outcome>();
}  // namespace sim

namespace lab {

std::string_view verdict_name(Verdict verdict);  // "exactly-once", "duplicated", ...
std::optional<Verdict> parse_verdict(std::string_view name);
std::string_view outcome_name(Outcome outcome);  // "debited", "dead-lettered", ...
std::optional<Outcome> parse_outcome(std::string_view name);

// What a search's `--expect V` asks of its runs: a verdict, or any violation.
struct Expectation {
  bool violation = false;                 // "violation": any verdict but the two below
  Verdict verdict = Verdict::kExactlyOnce;  // when !violation
};
// "violation" or a verdict name; nullopt for anything else.
std::optional<Expectation> parse_expectation(std::string_view text);
std::string_view expectation_name(const Expectation& expect);

// Text reports stream the names; so do test failure messages.
std::ostream& operator<<(std::ostream& out, Verdict verdict);
std::ostream& operator<<(std::ostream& out, Outcome outcome);

// JSON reports write the names (nlohmann::json finds these by argument-dependent lookup;
// without them an enum would be written as a number).
template <class Json>
void to_json(Json& json, Verdict verdict) {
  json = std::string(verdict_name(verdict));
}
template <class Json>
void to_json(Json& json, Outcome outcome) {
  json = std::string(outcome_name(outcome));
}

}  // namespace lab
