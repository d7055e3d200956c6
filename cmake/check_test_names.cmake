# Refuses a Catch2 test name that ctest would split. catch_discover_tests reads a binary's
# test names as one CMake list, so a name with a `;` becomes two ctest tests, neither of
# which names a test: without `-w NoTests` both "passed" without running anything (13 test
# cases never ran that way). Run after every Catch2 binary is linked (the build fails),
# and by ctest over planted names (tests/data/test_names/):
#   cmake -DBINARY=<Catch2 binary> -P check_test_names.cmake
#   cmake -DROOT=<file of test names, one a line> -P check_test_names.cmake
cmake_minimum_required(VERSION 3.22)
if(BINARY)
  execute_process(COMMAND ${BINARY} --list-test-names-only
                  RESULT_VARIABLE result OUTPUT_VARIABLE names ERROR_VARIABLE err)
  # Catch2 exits with the number of tests listed; a negative or text result is a crash.
  if(NOT result MATCHES "^[0-9]+$")
    message(FATAL_ERROR "test_names: ${BINARY} could not list its tests (${result}):\n${err}")
  endif()
  set(source "${BINARY}")
elseif(ROOT)
  file(READ ${ROOT} names)
  set(source "${ROOT}")
else()
  message(FATAL_ERROR "usage: cmake -DBINARY=<Catch2 binary> | -DROOT=<names file> "
                      "-P check_test_names.cmake")
endif()
# Each offending name on a line of its own, starting "test_names: ", its `;` written as
# "<semicolon>" (a raw one would split these lines as it splits the test).
string(REPLACE ";" "<semicolon>" flat "${names}")
string(REGEX MATCHALL "[^\n]*<semicolon>[^\n]*" bad "${flat}")
if(bad)
  foreach(name IN LISTS bad)
    message("test_names: ${name}")
  endforeach()
  message(FATAL_ERROR "test names in ${source} contain a semicolon, which ctest splits into "
                      "tests that run nothing: use ',' instead")
endif()
