#pragma once
// The property the trace fuzzer checks (fuzz/trace_fuzz.cpp), shared with the Catch2 test
// that replays its stored corpus (tests/unit/session/trace_corpus_test.cpp):
//   - the GUI's trace loader (lab::Recording) never crashes, hangs or trips a sanitizer;
//   - a refusal says why; an accepted trace steps to its end and back without trouble,
//     and a refused one leaves the recording as it was.

#include <sstream>
#include <string>
#include <string_view>

#include "src/session/recording.h"

namespace fuzz {

inline bool trace_replay(std::string_view text, std::string& why) {
  lab::Recording r;
  std::istringstream in{std::string(text)};
  const eosim::Status loaded = r.parse(in, "fuzz.jsonl");
  if (!loaded.ok()) {
    if (!r.path().empty()) why = "a refused trace was left loaded";
    if (loaded.message.empty()) why = "refused without a message";
    return why.empty();
  }
  r.seek(~std::uint64_t{0});  // clamped to the end
  if (!r.over()) {
    why = "seeking past the end did not reach it";
    return false;
  }
  r.seek(0);
  for (int i = 0; i < 100 && r.step_forward(); ++i) {
  }
  r.step_back();
  return true;
}

}  // namespace fuzz
