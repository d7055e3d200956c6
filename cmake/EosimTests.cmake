# Every Catch2 test binary: Catch2 (and the standard headers most tests use) precompiled
# ONCE for all of them - target eosim_test_pch builds the header, every test binary reuses
# it (a copy per binary cost ~3.6 s of CPU each, 8 of them) - instead of parsed by every
# test file, and the test files themselves compiled with -Og in optimised builds - the code
# under test is the libraries, built as the build type says; -O3 on the test files only
# made the cold build slower (-O1 is slower than -Og and makes GCC 12 report false string
# overflows) (docs/performance.md, "Build time"). Used by tests/ and ui/. A reused header
# must be built with its users' flags: the anchor target takes the same -Og and warnings.
set(EOSIM_TEST_OPT $<$<OR:$<CONFIG:Release>,$<CONFIG:RelWithDebInfo>,$<CONFIG:MinSizeRel>>:-Og>)
function(eosim_test_settings target)
  if(NOT TARGET eosim_test_pch)
    file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/generated/test_pch_anchor.cpp
         CONTENT "// The object that carries the tests' shared precompiled header.\n")
    add_library(eosim_test_pch OBJECT ${PROJECT_BINARY_DIR}/generated/test_pch_anchor.cpp)
    target_link_libraries(eosim_test_pch PRIVATE Catch2::Catch2 eosim_warnings)
    target_precompile_headers(eosim_test_pch PRIVATE <catch2/catch.hpp> <string> <vector>
      <map> <sstream> <functional> <optional>)
    target_compile_options(eosim_test_pch PRIVATE ${EOSIM_TEST_OPT})
  endif()
  target_precompile_headers(${target} REUSE_FROM eosim_test_pch)
  target_compile_options(${target} PRIVATE ${EOSIM_TEST_OPT})
  # Test files are batched like the libraries (EOSIM_UNITY): a batch is one scope, so a
  # file-local helper must not share its name with another test file's of the same binary
  # (they compile as one batch too when all of a binary's files are put in one:
  # UNITY_BUILD_BATCH_SIZE 0). A helper two files need lives once, in tests/support/.
endfunction()

# A Catch2 binary whose test cases ctest runs one by one. Its test names are checked when
# it is linked (cmake/check_test_names.cmake: a `;` would split a name into two ctest tests
# that run nothing), every ctest test passes `-w NoTests` (a name that matches no test
# case fails instead of passing), and the binary joins EOSIM_CATCH_BINARIES, which the
# test catch_tests_all_run (tests/CMakeLists.txt) counts.
# EOSIM_TEST_TIMEOUT: the limit of one test case, 600 s; scripts/sanitize.sh raises it,
# for .ci/run runs that tree's tests at the lowest priority beside the Release ctest, where
# a test may wait minutes for a core.
set(EOSIM_TEST_TIMEOUT 600 CACHE STRING "Seconds one Catch2 test case may take under ctest")
function(eosim_discover_tests target)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${target}>
            -P ${PROJECT_SOURCE_DIR}/cmake/check_test_names.cmake
    VERBATIM)
  catch_discover_tests(${target} TEST_SPEC "~[.]" EXTRA_ARGS -w NoTests
                       PROPERTIES TIMEOUT ${EOSIM_TEST_TIMEOUT})
  set_property(GLOBAL APPEND PROPERTY EOSIM_CATCH_BINARIES $<TARGET_FILE:${target}>)
endfunction()
