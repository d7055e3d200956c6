#pragma once
// Assertions for programmer errors. They stay on in every build type: a broken
// invariant in a simulator silently produces wrong verdicts, which is worse than a crash.
// Operating errors (bad input, a store's errors, injected faults) travel as values instead.

#include <cstdio>
#include <cstdlib>

#define EOSIM_ASSERT(cond)                                                               \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "eosim: assertion failed: %s (%s:%d)\n", #cond, __FILE__,    \
                   __LINE__);                                                            \
      std::abort();                                                                      \
    }                                                                                    \
  } while (false)
