#pragma once
// `eosim live --compare`: one scenario's model run next to its live run, per order (outcome,
// debits, emails), the verdict, and the scripted faults each side fired - with the reason
// next to a disagreement where one can be named. Then a tally over every scenario of the
// command (agree, disagree, refused, not compared, failed), as text or as JSON: one object
// per scenario, then {"tally": ...}. Built only with librabbitmq-dev (EOSIM_HAVE_LIVE).

#ifdef EOSIM_HAVE_LIVE

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "src/live/live_run.h"
#include "src/world/world.h"

namespace cli {

struct CompareTally {
  int agree = 0;
  int disagree = 0;
  int refused = 0;       // could not run live (the reason was printed)
  int not_compared = 0;  // the live run was cut short at its timeout
  int failed = 0;        // eosim's own trouble or the broker's: no live result
};

// What the live side of one comparison took.
struct LiveTiming {
  double model_s = 0;
  double live_s = 0;
};

// Prints (text) or writes (json, one line) the comparison of `model` and the live run
// `real` of `file`, and counts it in `tally`. True when they agree.
bool compare_one(const std::string& file, const lab::RunSummary& model,
                 const live::LiveResult& real, const LiveTiming& timing, bool json,
                 int timeout_s, std::ostream& out, CompareTally& tally);

// A scenario that could not be compared: refused live (`refused`) or failed (`error`).
void compare_skipped(const std::string& file, const std::string& refused,
                     const std::string& error, bool json, std::ostream& out,
                     CompareTally& tally);

// The last line: "compare: 29 agree, 0 disagree, 1 refused, 0 not compared, 0 failed", or
// {"tally": {...}} in JSON.
void print_tally(const CompareTally& tally, bool json, std::ostream& out);

}  // namespace cli

#endif
