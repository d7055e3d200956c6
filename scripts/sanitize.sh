#!/usr/bin/env bash
# Builds eosim with AddressSanitizer + UndefinedBehaviorSanitizer (any report stops the
# program: halt_on_error) in ./build-asan and runs the tests there. The GUI is left out
# (its tests need a display and add nothing the CLI tests do not), and so are tests that
# start a real RabbitMQ or PostgreSQL (labels live, conformance: not even built,
# EOSIM_BROKER_TESTS=OFF), the tests that open pages in Chromium (not instrumented;
# EOSIM_BROWSER_TESTS=OFF), the benchmark, and the checks of the source tree's text (label
# tree: the layout, layering, vocabulary, determinism and function-length rules, which
# read files, not the program, and run in the Release ctest).
# The tree is clang's and holds the libFuzzer targets too (EOSIM_FUZZ: every library
# carries libFuzzer's coverage, which the tests do not use): scripts/fuzz.sh fuzzes in it,
# so the libraries are compiled once for both. clang compiles it in about half the CPU
# time GCC took for the ASan tree alone (a batch of src/world: 19.9 against 34.1 CPU-s);
# the Release build (GCC, -Werror) is the one that holds the warnings, so this one does
# not stop on them.
#   --build-only      configure and build, run nothing (.ci/run builds early, at low
#                     priority)
#   --configure-only  configure the tree and stop (scripts/fuzz.sh)
#   SANITIZE    address (default: ASan + UBSan, clang) or thread (TSan, GCC, in
#               ./build-tsan)
#   EOSIM_TEST_SEED_DIVISOR  the heaviest property tests walk 1/N of their seeds (default
#               8; 1 walks them all): this pass looks for memory and undefined-behaviour
#               errors at 2-3x the cost of a run, the property itself is the Release
#               ctest's, on every seed (tests/support/seed_budget.h)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0 configure_only=0
case "${1:-}" in
  "") ;;
  --build-only) build_only=1 ;;
  --configure-only) configure_only=1 ;;
  *) echo "sanitize: unknown argument '$1' (--build-only or --configure-only)" >&2; exit 2 ;;
esac
kind=${SANITIZE:-address}
case "$kind" in
  address)
    build_dir=build-asan
    options=(-DEOSIM_ASAN=ON -DEOSIM_FUZZ=ON -DEOSIM_WERROR=OFF)
    export CC=clang CXX=clang++
    ;;
  thread) build_dir=build-tsan options=(-DEOSIM_TSAN=ON) ;;
  *) echo "sanitize: SANITIZE must be address or thread, got '$kind'" >&2; exit 2 ;;
esac
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
export EOSIM_TEST_SEED_DIVISOR=${EOSIM_TEST_SEED_DIVISOR:-8}
# -g1: line tables only, enough for a report's stack to name file and line; full -g made a
# batch of src/world 20% slower to compile under ASan (48.0 against 39.9 CPU-s) and its
# object 2.4 times as big.
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${options[@]}" -DEOSIM_GUI=OFF \
  -DEOSIM_BROKER_TESTS=OFF -DEOSIM_BROWSER_TESTS=OFF -DEOSIM_TEST_TIMEOUT=3600 \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
[ "$configure_only" = 0 ] || exit 0
echo "sanitize: building in $build_dir ($kind; seeds of the heaviest tests / $EOSIM_TEST_SEED_DIVISOR)"
build_log=$(mktemp)
if ! cmake --build "$build_dir" -j "$(nproc)" >"$build_log" 2>&1; then
  grep -E "error|warning" "$build_log" || tail -40 "$build_log"
  rm -f "$build_log"
  echo "sanitize: the build in $build_dir failed" >&2
  exit 1
fi
grep -E "warning" "$build_log" || true
rm -f "$build_log"
[ "$build_only" = 0 ] || exit 0
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" -LE 'live|conformance|tree'
