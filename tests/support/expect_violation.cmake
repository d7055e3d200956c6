# A source check must have teeth: run SCRIPT (cmake/check_layering.cmake,
# cmake/check_vocabulary.cmake, ...) over ROOT, a tree with planted violations, and require
# that it fails, reports every line of EXPECTED, and reports nothing else. One script
# serves every such check: the checks share their output shape, one line per violation
# that starts at column 0 with "NAME: ".
#   cmake -DSCRIPT=<check script> -DROOT=<planted tree> [-DRULES=<rules file>]
#         [-DALLOWLIST=<the check's allowlist for the planted tree>]
#         -DNAME=<check name> -DEXPECTED=<file, one expected line each>
#         -P expect_violation.cmake
cmake_minimum_required(VERSION 3.22)
foreach(required SCRIPT ROOT NAME EXPECTED)
  if(NOT ${required})
    message(FATAL_ERROR "usage: cmake -DSCRIPT=... -DROOT=... [-DRULES=...] -DNAME=... "
                        "-DEXPECTED=... -P expect_violation.cmake (${required} is missing)")
  endif()
endforeach()
set(pass_rules "")
if(RULES)
  set(pass_rules -DRULES=${RULES})
endif()
if(ALLOWLIST)
  list(APPEND pass_rules -DALLOWLIST=${ALLOWLIST})
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${ROOT} ${pass_rules} -P ${SCRIPT}
                RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
if(result EQUAL 0)
  message(FATAL_ERROR "the ${NAME} check passed a tree with planted violations:\n${all}")
endif()
file(STRINGS ${EXPECTED} expected)
list(LENGTH expected wanted)
if(wanted EQUAL 0)
  message(FATAL_ERROR "${EXPECTED} lists no expected violation")
endif()
foreach(line IN LISTS expected)
  string(FIND "${all}" "${line}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the ${NAME} check did not report:\n  ${line}\nit printed:\n${all}")
  endif()
endforeach()
# A violation is a line that starts with "NAME: "; the closing summary of a failed check
# is indented under "CMake Error at ...", so it is not counted. Semicolons in the quoted
# source lines would split the list of matches, so they go first.
string(REPLACE ";" "," flat "${all}")
string(REGEX MATCHALL "\n${NAME}: [^\n]*" reported "\n${flat}")
list(LENGTH reported count)
if(NOT count EQUAL wanted)
  message(FATAL_ERROR "expected exactly ${wanted} violations, got ${count}:\n${all}")
endif()
message(STATUS "the ${NAME} check reported the ${wanted} planted violations")
