// libFuzzer target for the GUI's trace loader (lab::Recording::parse), with the property
// of fuzz/trace_replay.h. Built by -DEOSIM_FUZZ=ON with clang; run by scripts/fuzz.sh with
// the stored corpus tests/data/fuzz/trace/.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/trace_replay.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (!fuzz::trace_replay(text, why)) {
    std::fprintf(stderr, "trace replay failed: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
