// A consumer's stand-in for tests/live/failpoint_test.cpp: asks the failpoint NAME for
// each ORDER in turn through helpers/eosim_failpoint.h, printing "passed N" after each.
//   eosim_failpoint_probe NAME ORDER...
// Exit 0 when every call returned, 1 when one failed.
#include <cstdio>
#include <cstdlib>

#include "helpers/eosim_failpoint.h"

int main(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const long long order = std::atoll(argv[i]);
    if (eosim_failpoint(argv[1], order) != 0) {
      std::perror("eosim_failpoint");
      return 1;
    }
    std::printf("passed %lld\n", order);
    std::fflush(stdout);
  }
  return 0;
}
