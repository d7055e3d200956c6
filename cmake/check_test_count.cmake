# Every test case a Catch2 binary lists is run by ctest, once, and an entry that matches
# no test fails. For each binary: the number of test cases it lists (without the hidden
# ones, as catch_discover_tests asks) must equal the number of ctest tests that run it,
# and each of those must pass `-w NoTests` (Catch2 exits 0 when a name matches nothing).
# A test name that ctest split (check_test_names.cmake) shows here as one test too many.
#   cmake -DCTEST=<ctest> -DBUILD=<build dir> -DBINARIES=<binary>|<binary>|...
#         -P check_test_count.cmake
cmake_minimum_required(VERSION 3.22)
foreach(required CTEST BUILD BINARIES)
  if(NOT ${required})
    message(FATAL_ERROR "usage: cmake -DCTEST=... -DBUILD=... -DBINARIES=a|b -P "
                        "check_test_count.cmake (${required} is missing)")
  endif()
endforeach()
execute_process(COMMAND ${CTEST} --show-only=json-v1 WORKING_DIRECTORY ${BUILD}
                RESULT_VARIABLE result OUTPUT_VARIABLE json ERROR_VARIABLE err)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "test_count: ctest --show-only failed (${result}):\n${err}")
endif()
# ctest's commands, one line each: "<binary>\t<arguments after the test name>". Reading
# the JSON once per test would parse it ~400 times; the commands are all this needs.
string(JSON tests GET "${json}" tests)
string(JSON count LENGTH "${tests}")
set(commands "")
math(EXPR last "${count} - 1")
foreach(i RANGE ${last})
  string(JSON test GET "${tests}" ${i})
  string(JSON args ERROR_VARIABLE no_command LENGTH "${test}" command)
  if(no_command)
    continue()
  endif()
  string(JSON exe GET "${test}" command 0)
  set(rest "")
  if(args GREATER 2)
    math(EXPR last_arg "${args} - 1")
    foreach(a RANGE 2 ${last_arg})
      string(JSON arg GET "${test}" command ${a})
      string(APPEND rest " ${arg}")
    endforeach()
  endif()
  string(APPEND commands "${exe}\t${rest}\n")
endforeach()

string(REPLACE "|" ";" binaries "${BINARIES}")
set(failures "")
set(total 0)
foreach(binary IN LISTS binaries)
  # Catch2 2 exits with the number of tests it listed, but at most 255: the names are
  # counted instead, one per line (a name never holds a line break).
  execute_process(COMMAND ${binary} "~[.]" --list-test-names-only
                  RESULT_VARIABLE status OUTPUT_VARIABLE names)
  if(NOT status MATCHES "^[0-9]+$")
    string(APPEND failures "test_count: ${binary} could not list its tests (${status})\n")
    continue()
  endif()
  string(REGEX REPLACE "\n\n+" "\n" names "${names}")
  string(STRIP "${names}" names)
  string(REGEX REPLACE "[^\n]" "" breaks "${names}")
  string(LENGTH "${breaks}" listed)
  if(NOT names STREQUAL "")
    math(EXPR listed "${listed} + 1")
  endif()
  string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" exe "${binary}")
  string(REGEX MATCHALL "\n${exe}\t[^\n]*" runs "\n${commands}")
  list(LENGTH runs run)
  string(REGEX MATCHALL "\n${exe}\t -w NoTests( [^\n]*)?" strict "\n${commands}")
  list(LENGTH strict strict_runs)
  get_filename_component(name ${binary} NAME)
  if(NOT run EQUAL listed)
    string(APPEND failures
           "test_count: ${name} lists ${listed} test cases, ctest runs it ${run} times\n")
  endif()
  if(NOT strict_runs EQUAL run)
    math(EXPR loose "${run} - ${strict_runs}")
    string(APPEND failures
           "test_count: ${name}: ${loose} ctest tests run it without -w NoTests\n")
  endif()
  math(EXPR total "${total} + ${listed}")
endforeach()
if(failures)
  message(FATAL_ERROR "${failures}")
endif()
message(STATUS "test_count: ctest runs each of the ${total} listed test cases once")
