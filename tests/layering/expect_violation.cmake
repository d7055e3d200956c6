# The layering check must have teeth: run it over tests/data/layering (a tree with one
# upward include and one include of a folder that is no library) and require that it
# fails and names both, and nothing else.
#   cmake -DSCRIPT=... -DROOT=... -DRULES=... -P expect_violation.cmake
cmake_minimum_required(VERSION 3.22)
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} -DRULES=${RULES} -P ${SCRIPT}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(result EQUAL 0)
  message(FATAL_ERROR "the layering check passed a tree with planted violations:\n${all}")
endif()
set(expected
  "layering: src/store/upward.h includes \"src/consumer/consumer.h\", but src/store/"
  "layering: src/consumer/stale.cpp includes \"src/lab/world.h\": src/lab/ is no library folder")
foreach(line IN LISTS expected)
  string(FIND "${all}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layering check did not report:\n  ${line}\nit printed:\n${all}")
  endif()
endforeach()
string(REGEX MATCHALL "layering: [^\n]*includes" reported "${all}")
list(LENGTH reported count)
if(NOT count EQUAL 2)
  message(FATAL_ERROR "expected exactly 2 violations, got ${count}:\n${all}")
endif()
message(STATUS "the layering check reported both planted violations")
