#pragma once
// The property the merge fuzzer checks (fuzz/merge_fuzz.cpp), shared with the test that
// replays its stored corpus through `eosim merge` (tests/property/cli_merge_test.cpp):
//   - reading a sweep result (cli::read_sweep_json) never crashes, hangs or trips a
//     sanitizer (UBSan catches a float converted to a too small integer);
//   - a refusal says why; an accepted result written back reads again to the same text
//     (write(read(x)) is a fixed point), and merging it alone succeeds.

#include <sstream>
#include <string>
#include <string_view>

#include "src/cli/sweep_report.h"
#include "src/search/sweep.h"

namespace fuzz {

inline bool merge_read(std::string_view text, std::string& why) {
  cli::SweepReport first;
  const eosim::Status read = cli::read_sweep_json(std::string(text), first);
  if (!read.ok()) {
    if (read.message.empty()) why = "refused without a message";
    return why.empty();
  }
  std::ostringstream written;
  cli::write_sweep_json(first, written);
  cli::SweepReport second;
  if (const eosim::Status again = cli::read_sweep_json(written.str(), second); !again.ok()) {
    why = "an accepted result, written back, is refused: " + again.message;
    return false;
  }
  std::ostringstream rewritten;
  cli::write_sweep_json(second, rewritten);
  if (rewritten.str() != written.str()) {
    why = "read -> write is not a fixed point:\n" + written.str() + "\n" + rewritten.str();
    return false;
  }
  lab::SweepSummary merged;
  if (const eosim::Status one = lab::merge_sweeps({first.summary}, 0, merged); !one.ok()) {
    why = "an accepted result does not merge alone: " + one.message;
    return false;
  }
  return true;
}

}  // namespace fuzz
