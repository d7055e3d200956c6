# Fails when the kernel names the lab above it. sim/ carries, hashes and writes what a
# layer hands in (key parts, event kinds, fault sites, frame kinds) and never knows what
# they mean, so none of the lab's words may appear in sim/, in code, text or comments.
# Run by ctest:
#   cmake -DROOT=<source tree> -P check_kernel_words.cmake
# The words are whole words, any case. "order" is not one of them: the kernel orders
# events in its own sense of the word.

cmake_minimum_required(VERSION 3.22)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<dir> -P check_kernel_words.cmake")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/read_lines.cmake)

set(WORDS
  broker brokers consumer consumers producer producers relay outbox dedup ledger amqp
  sqlite sql database debit debits email emails enqueue requeue dead-letter commit generals)
string(REPLACE ";" "|" alternatives "${WORDS}")
set(word_regex "(^|[^a-z0-9_-])(${alternatives})([^a-z0-9_-]|$)")

file(GLOB_RECURSE files RELATIVE ${ROOT} ${ROOT}/sim/*.h ${ROOT}/sim/*.cpp
     ${ROOT}/sim/CMakeLists.txt)
list(SORT files)
set(violations 0)
foreach(file IN LISTS files)
  eosim_read_lines(${ROOT}/${file} lines)
  string(TOLOWER "${lines}" lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "${word_regex}")
      message("kernel_words: ${file}:${number}: the lab's word \"${CMAKE_MATCH_2}\"")
      math(EXPR violations "${violations} + 1")
    endif()
  endforeach()
endforeach()

if(violations GREATER 0)
  message(FATAL_ERROR "kernel_words: ${violations} line(s) of sim/ name the lab: hand the name "
                      "in from above (sim/names.h, sim/key.h, sim/event_kind.h)")
endif()
message(STATUS "kernel_words: ${ROOT}/sim names nothing of the lab")
