// libFuzzer target for what `eosim merge` reads (cli::read_sweep_json), with the property
// of fuzz/merge_read.h. Built by -DEOSIM_FUZZ=ON with clang; run by scripts/fuzz.sh with
// the stored corpus tests/data/fuzz/merge/.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/merge_read.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string why;
  if (!fuzz::merge_read(text, why)) {
    std::fprintf(stderr, "merge read failed: %s\n", why.c_str());
    std::abort();
  }
  return 0;
}
