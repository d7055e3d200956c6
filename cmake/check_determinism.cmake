# Fails when code that must be deterministic reaches for something that is not: a run is
# the same for the same scenario and seed only if nothing in it reads a clock, draws from
# the OS or <random>, iterates a hash container, or decides with floating point. Run by
# ctest (and so by .ci/run):
#   cmake -DROOT=<source tree> -P check_determinism.cmake
#
# Everywhere in sim/ and src/ but src/live and src/cli (which run against real time and
# real brokers, or only print): no unordered_ containers, no <random>, no clock.
# In sim/ and the folders that decide what a run does (DECIDING): no float or double
# either. Comments and string literals are not read. docs/style.md says why.

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -P check_determinism.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/read_lines.cmake)

set(EXEMPT "^src/(live|cli)/")
set(DECIDING
  "^sim/" "^src/(broker|catalog|checker|consumer|generals|orders|producer|scenario|status|store|toml|transport|world)/")
# What each rule finds, and what it says.
set(rules unordered random clock float)
set(rule_unordered_regex "unordered_(map|set|multimap|multiset)")
set(rule_unordered_says "an unordered container iterates in an order no seed decides (use std::map, std::set or a sorted vector)")
set(rule_random_regex "#[ \t]*include[ \t]*<random>|std::(random_device|mt19937|default_random_engine|uniform_int_distribution)|[^_a-zA-Z0-9.>](rand|srand|random)[ \t]*\\(")
set(rule_random_says "randomness outside the run's Chooser (sim/rng.h) is not on its tape")
set(rule_clock_regex "#[ \t]*include[ \t]*<(chrono|ctime)>|std::chrono|steady_clock|system_clock|high_resolution_clock|clock_gettime|gettimeofday|[^_a-zA-Z0-9:.>]time[ \t]*\\([ \t]*(nullptr|NULL|0)?[ \t]*\\)")
set(rule_clock_says "a clock outside src/live and src/cli: time in a run is the scheduler's virtual time")
set(rule_float_regex "[^_a-zA-Z0-9](float|double)[^_a-zA-Z0-9]")
set(rule_float_says "floating point in a folder that decides: use integers or sim::Ratio")

file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/sim/*.h ${ROOT}/sim/*.cpp ${ROOT}/src/*.h
     ${ROOT}/src/*.cpp)
list(SORT files)
set(violations 0)
foreach(file IN LISTS files)
  if(file MATCHES "${EXEMPT}")
    continue()
  endif()
  set(deciding FALSE)
  foreach(pattern IN LISTS DECIDING)
    if(file MATCHES "${pattern}")
      set(deciding TRUE)
    endif()
  endforeach()
  eosim_read_lines(${ROOT}/${file} lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    # Code only: string literals emptied, then a // comment cut off (a block comment's
    # inner lines start with * or //-free prose and are rare in this tree).
    string(REGEX REPLACE "\"([^\"\\\\]|\\\\.)*\"" "\"\"" code "${line}")
    string(REGEX REPLACE "//.*$" "" code "${code}")
    if(code MATCHES "^[ \t]*\\*")
      continue()
    endif()
    foreach(rule IN LISTS rules)
      if(rule STREQUAL "float" AND NOT deciding)
        continue()
      endif()
      if(" ${code} " MATCHES "${rule_${rule}_regex}")
        message("determinism: ${file}:${number}: ${rule_${rule}_says}")
        math(EXPR violations "${violations} + 1")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "determinism: ${violations} finding(s); see docs/style.md, Determinism")
endif()
message(STATUS "determinism: ${ROOT}: sim/ and src/ hold no clock, randomness or hash "
               "iteration, and the deciding folders no floating point")
