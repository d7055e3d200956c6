#pragma once
// The anti-patterns as experiments: each strategy or producer pattern that
// breaks exactly-once, the kind of violation it teaches, and a small workload on which a
// random sweep shows it. The property tests and the benchmark sweep exactly these.
//
// Invariants:
//  (1) Every entry names a strategy and a producer of catalog/catalog.h, and its verdict is a
//      violation verdict of the catalog (never "exactly-once").
//  (2) anti_pattern_scenario() has no faults of its own (no script, no random ratios):
//      whatever a sweep finds comes from the seed's random faults.

#include <string>
#include <vector>

#include "src/consumer/strategy.h"
#include "src/scenario/scenario.h"

namespace lab {

struct AntiPattern {
  consumer::PresetId strategy;  // consumer strategy
  std::string producer;  // producer pattern
  Verdict verdict;       // the violation it teaches
  std::string why;       // one line: the fault that shows it
};

// In teaching order: the consumer strategies, then the producer patterns.
const std::vector<AntiPattern>& anti_patterns();

// Three orders with everything else at the scenario defaults, except what the pattern
// needs to show at all: two slow consumers for check-then-act (a race), an order the
// balance can never cover for requeue-poison (a poison message, with a short step bound
// because it loops until then).
Scenario anti_pattern_scenario(const AntiPattern& pattern);

}  // namespace lab
