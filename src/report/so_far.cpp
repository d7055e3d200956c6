#include "src/report/so_far.h"

namespace lab {

bool verdict_known_so_far(Verdict verdict, bool over) {
  // A debit or an email cannot be taken back: a duplicate is final the moment it happens.
  // A phantom is not: an email sent before a crash is "phantom" until the redelivery's
  // debit (scenario 31 at step 22, a run that ends duplicated).
  return over || verdict == Verdict::kDuplicated;
}

std::string verdict_so_far(Verdict verdict, bool over) {
  const std::string name(verdict_name(verdict));
  if (over) return name;
  return verdict_known_so_far(verdict, over) ? name + " (already)" : "in progress";
}

bool outcome_pending(Outcome outcome, bool over) { return !over && outcome == Outcome::kStuck; }

std::string outcome_so_far(Outcome outcome, bool over) {
  return outcome_pending(outcome, over) ? "pending" : std::string(outcome_name(outcome));
}

}  // namespace lab
