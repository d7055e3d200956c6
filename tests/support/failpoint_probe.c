/* A consumer's stand-in for tests/live/failpoint_test.cpp, in C99 as a user's C program
 * would be: asks the failpoint NAME for each ORDER in turn through
 * helpers/eosim_failpoint.h, printing "passed N" after each.
 *   eosim_failpoint_probe NAME ORDER...
 * Exit 0 when every call returned, 1 when one failed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "helpers/eosim_failpoint.h"

int main(int argc, char** argv) {
  int i;
  for (i = 2; i < argc; ++i) {
    const long long order = atoll(argv[i]);
    if (eosim_failpoint(argv[1], order) != 0) {
      perror("eosim_failpoint");
      return 1;
    }
    printf("passed %lld\n", order);
    fflush(stdout);
  }
  return 0;
}
