#pragma once
// The words for a run that is not over yet, shared by every view that steps through a run
// (the GUI's panels, the HTML page of `eosim run --format html`): mid-run the checker's
// verdict is only a guess about the end, so the views say what is already certain and
// nothing more.
//
// Invariants:
//  (1) Once the run is over, every function here gives the checker's own name.
//  (2) Before that, a verdict is named only when no later step can undo it (a double
//      effect); "stuck" only means "on its way".

#include <string>

#include "src/checker/verdict.h"

namespace lab {

// Whether verdict_so_far names a verdict (rather than "in progress").
bool verdict_known_so_far(Verdict verdict, bool over);
// "duplicated (already)", "in progress", or the verdict's name once the run is over.
std::string verdict_so_far(Verdict verdict, bool over);
// An order still on its way mid-run: the checker says "stuck", a person reads "pending".
bool outcome_pending(Outcome outcome, bool over);
// "pending" for an outcome_pending order, else the outcome's name.
std::string outcome_so_far(Outcome outcome, bool over);

}  // namespace lab
