#pragma once
// What went wrong in one run, in the checker's words: its verdict and the orders each
// violation names. One value for every place a run's outcome is kept: the checker's
// Report is one (with what else it read), and so are a sweep's failure, an explore
// outcome class and a matrix cell, so none of them copies the lists field by field or
// can forget one (the emails sent twice, say). Each is written to JSON one way
// (put_violations) and names its orders one way (orders_named).
//
// Invariants:
//  (1) Every list is sorted and unique (the checker files orders in number order).
//  (2) A non-empty list of lost, duplicated or phantom orders, or of effect duplicates,
//      means a verdict other than exactly-once (checker.h, Verdict); the order lists the
//      verdict is named after are never empty, but a duplicated verdict may come from the
//      effects alone.

#include <cstdint>
#include <string>
#include <vector>

#include "src/checker/verdict.h"

namespace lab {

struct Violations {
  Verdict verdict = Verdict::kExactlyOnce;
  std::vector<std::int64_t> lost, duplicated, phantom, stuck;
  // Orders whose external effect (an email) happened twice: a design with a side effect
  // can debit once and still be duplicated (checker.h, External effects).
  std::vector<std::int64_t> effect_duplicated;
  friend bool operator==(const Violations&, const Violations&) = default;
};

// The orders the verdict is named after: the duplicated ones (the ledger's, else the
// effects'), or the lost, phantom or stuck ones; nullptr for a verdict that names no
// order (exactly-once, balance-mismatch, incomplete).
const std::vector<std::int64_t>* orders_named(const Violations& v);

// The one JSON form, written into the object `json` in this order: "verdict", "lost",
// "duplicated", "phantom", "stuck", "effects_duplicated" (order numbers as integers).
template <class Json>
void put_violations(Json& json, const Violations& v) {
  json["verdict"] = std::string(verdict_name(v.verdict));
  json["lost"] = v.lost;
  json["duplicated"] = v.duplicated;
  json["phantom"] = v.phantom;
  json["stuck"] = v.stuck;
  json["effects_duplicated"] = v.effect_duplicated;
}

}  // namespace lab
