#include "src/checker/violations.h"

namespace lab {

const std::vector<std::int64_t>* orders_named(const Violations& v) {
  switch (v.verdict) {
    case Verdict::kDuplicated:
      // Debited once, emailed twice: the effects name the orders (invariant 2).
      return v.duplicated.empty() ? &v.effect_duplicated : &v.duplicated;
    case Verdict::kLost: return &v.lost;
    case Verdict::kPhantom: return &v.phantom;
    case Verdict::kStuck: return &v.stuck;
    case Verdict::kExactlyOnce:
    case Verdict::kBalanceMismatch:
    case Verdict::kIncomplete: return nullptr;
  }
  return nullptr;
}

}  // namespace lab
