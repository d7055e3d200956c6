# The vocabulary check must have teeth: run it over tests/data/vocabulary (a tree with
# three planted comparisons, one known comparison and one in a boundary file) and require
# that it fails and names exactly the three planted ones.
#   cmake -DSCRIPT=... -DROOT=... -P expect_violation.cmake
cmake_minimum_required(VERSION 3.22)
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} -P ${SCRIPT}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(result EQUAL 0)
  message(FATAL_ERROR "the vocabulary check passed a tree with planted violations:\n${all}")
endif()
set(expected
  "vocabulary: src/report/planted.cpp compares with \"exactly-once\""
  "vocabulary: src/report/planted.cpp compares with \"crash\""
  "vocabulary: sim/network.cpp compares with \"crash\"")
foreach(line IN LISTS expected)
  string(FIND "${all}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the vocabulary check did not report:\n  ${line}\nit printed:\n${all}")
  endif()
endforeach()
string(REGEX MATCHALL "vocabulary: [^\n]*compares with" reported "${all}")
list(LENGTH reported count)
if(NOT count EQUAL 3)
  message(FATAL_ERROR "expected exactly 3 violations, got ${count}:\n${all}")
endif()
message(STATUS "the vocabulary check reported the three planted violations")
