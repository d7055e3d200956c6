# Every Catch2 test binary: Catch2 (and the standard headers most tests use) precompiled
# once per binary instead of parsed by every test file, and the test files themselves
# compiled with -Og in optimised builds - the code under test is the libraries, built as
# the build type says; -O3 on the test files only made the cold build slower (-O1 is
# slower than -Og and makes GCC 12 report false string overflows)
# (docs/performance.md, "Build time"). Used by tests/ and ui/.
function(eosim_test_settings target)
  target_precompile_headers(${target} PRIVATE <catch2/catch.hpp> <string> <vector> <map>
    <sstream> <functional> <optional>)
  target_compile_options(${target} PRIVATE
    $<$<OR:$<CONFIG:Release>,$<CONFIG:RelWithDebInfo>,$<CONFIG:MinSizeRel>>:-Og>)
endfunction()
