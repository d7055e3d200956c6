#pragma once
// `eosim live FILES --jobs N`: several scenario files (with or without --compare), N runs at
// once on the one broker. A run that restarts the broker or the database, or sets the
// broker's consumer_timeout, would do it to every run beside it: those run afterwards, one
// at a time, with the broker to themselves. Each run's report (or comparison) and its
// errors are printed whole as it ends, so blocks come in the order the runs end. Only with
// EOSIM_HAVE_LIVE.

#include <functional>
#include <iosfwd>
#include <vector>

#include "src/cli/live_compare.h"
#include "src/cli/live_sweep.h"

namespace cli {

// Runs one scenario: its report on `out`, its errors on `err`, a comparison counted in
// `tally`; the exit code.
using RunOne =
    std::function<int(const Loaded& l, CompareTally& tally, std::ostream& out, std::ostream& err)>;

// Every run of `runs`: first those that run alongside others, o.jobs at a time, then the
// rest one at a time; each counted into `tally`. The worst exit code. Stops taking new
// runs once interrupted (live::interrupted()).
int run_batch(const LiveCommandOptions& o, const std::vector<Loaded>& runs, const RunOne& run_one,
              CompareTally& tally, std::ostream& out, std::ostream& err);

}  // namespace cli
