#!/usr/bin/env bash
# Builds eosim with AddressSanitizer + UndefinedBehaviorSanitizer (any report stops the
# program: halt_on_error) in ./build-asan and runs the tests there. The GUI is left out
# (its tests need a display and add nothing the CLI tests do not), and so are tests that
# start a real RabbitMQ or PostgreSQL (labels live, conformance: not even built,
# EOSIM_BROKER_TESTS=OFF), the benchmark, and the checks of the source tree's text (label
# tree: the layout, layering, vocabulary, determinism and function-length rules, which
# read files, not the program, and run in the Release ctest).
#   --build-only  configure and build, run nothing (.ci/run builds early, at low priority)
#   SANITIZE    address (default: ASan + UBSan) or thread (TSan, in ./build-tsan)
#   EOSIM_TEST_SEED_DIVISOR  the heaviest property tests walk 1/N of their seeds (default
#               4; 1 walks them all): this pass looks for memory and undefined-behaviour
#               errors at 2-3x the cost of a run, the property itself is the Release
#               ctest's, on every seed (tests/support/seed_budget.h)
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
case "${1:-}" in
  "") ;;
  --build-only) build_only=1 ;;
  *) echo "sanitize: unknown argument '$1' (the only one is --build-only)" >&2; exit 2 ;;
esac
kind=${SANITIZE:-address}
case "$kind" in
  address) build_dir=build-asan option=-DEOSIM_ASAN=ON ;;
  thread) build_dir=build-tsan option=-DEOSIM_TSAN=ON ;;
  *) echo "sanitize: SANITIZE must be address or thread, got '$kind'" >&2; exit 2 ;;
esac
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
export EOSIM_TEST_SEED_DIVISOR=${EOSIM_TEST_SEED_DIVISOR:-4}
# -g1: line tables only, enough for a report's stack to name file and line; full -g made a
# batch of src/world 20% slower to compile under ASan (48.0 against 39.9 CPU-s) and its
# object 2.4 times as big.
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$option" -DEOSIM_GUI=OFF \
  -DEOSIM_BROKER_TESTS=OFF -DEOSIM_BROWSER_TESTS=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >/dev/null
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
