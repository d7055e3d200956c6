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

# Binaries that ctest runs by tag specs (eosim_live_tests: one ctest test per tag, and
# live_proxy for every case no other spec names): the cases the specs select add up to
# the cases the binary has, so none runs twice and none is left out. A new tag missing
# from live_proxy's exclusions ran its cases twice (the database-fault tests, 2026-12-05).
function(count_listed binary spec out)
  execute_process(COMMAND ${binary} ${spec} --list-test-names-only
                  RESULT_VARIABLE status OUTPUT_VARIABLE names)
  string(REGEX REPLACE "\n\n+" "\n" names "${names}")
  string(STRIP "${names}" names)
  string(REGEX REPLACE "[^\n]" "" breaks "${names}")
  string(LENGTH "${breaks}" n)
  if(NOT names STREQUAL "")
    math(EXPR n "${n} + 1")
  endif()
  set(${out} ${n} PARENT_SCOPE)
endfunction()
if(SPEC_BINARIES)
  string(REPLACE "|" ";" spec_binaries "${SPEC_BINARIES}")
  foreach(binary IN LISTS spec_binaries)
    count_listed(${binary} "~[.]" all)
    string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" exe "${binary}")
    # (`commands` leaves out each command's first argument: here the -w of "-w NoTests SPEC".)
    string(REGEX MATCHALL "\n${exe}\t NoTests [^\n]*" runs "\n${commands}")
    set(selected 0)
    foreach(run IN LISTS runs)
      string(REGEX REPLACE "^\n[^\t]*\t NoTests " "" spec "${run}")
      count_listed(${binary} "${spec}" n)
      math(EXPR selected "${selected} + ${n}")
    endforeach()
    get_filename_component(name ${binary} NAME)
    if(NOT selected EQUAL all)
      string(APPEND failures "test_count: ${name} has ${all} test cases, its ctest tags select "
                             "${selected}: a tag runs twice or is left out (live_proxy's "
                             "exclusions in tests/CMakeLists.txt)\n")
    endif()
  endforeach()
endif()

if(failures)
  message(FATAL_ERROR "${failures}")
endif()
message(STATUS "test_count: ctest runs each of the ${total} listed test cases once")
