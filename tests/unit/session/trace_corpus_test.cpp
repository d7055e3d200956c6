// Replays the trace fuzzer's stored corpus (tests/data/fuzz/trace/) in the ordinary GCC
// build: every input is refused with a message or loads and steps, the property
// fuzz/trace_fuzz.cpp checks under clang and libFuzzer.

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/trace_replay.h"

TEST_CASE("trace corpus: every stored input is refused cleanly or loads and steps",
          "[fuzz][recording]") {
  const std::filesystem::path dir =
      std::filesystem::path(EOSIM_SOURCE_DIR) / "tests/data/fuzz/trace";
  int inputs = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    std::string why;
    INFO(entry.path().filename().string());
    CHECK(fuzz::trace_replay(text.str(), why));
    INFO(why);
    lab::Recording r;
    std::istringstream again(text.str());
    accepted += r.parse(again, "corpus").ok() ? 1 : 0;
    ++inputs;
  }
  // Both sides are present: traces the loader accepts and traces it refuses.
  CHECK(inputs >= 8);
  CHECK(accepted >= 3);
  CHECK(accepted < inputs);
}
