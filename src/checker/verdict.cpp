#include "src/checker/verdict.h"

#include <array>
#include <ostream>
#include <utility>

namespace lab {

namespace {

// In the enums' order (verdict.h invariant 1 rests on these two tables).
constexpr std::array<std::string_view, 7> kVerdictNames = {
    "exactly-once", "duplicated", "lost", "phantom", "stuck", "balance-mismatch", "incomplete"};
constexpr std::array<std::string_view, 8> kOutcomeNames = {
    "debited", "rejected", "dead-lettered", "duplicated", "lost", "stuck", "phantom", "unsettled"};

template <class Enum, std::size_t N>
std::optional<Enum> parse_in(const std::array<std::string_view, N>& names,
                             std::string_view name) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view verdict_name(Verdict verdict) {
  return kVerdictNames.at(static_cast<std::size_t>(verdict));
}

std::optional<Verdict> parse_verdict(std::string_view name) {
  return parse_in<Verdict>(kVerdictNames, name);
}

std::string_view outcome_name(Outcome outcome) {
  return kOutcomeNames.at(static_cast<std::size_t>(outcome));
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  return parse_in<Outcome>(kOutcomeNames, name);
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
