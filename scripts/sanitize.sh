#!/usr/bin/env bash
# Builds eosim with AddressSanitizer + UndefinedBehaviorSanitizer (any report stops the
# program: halt_on_error) in ./build-asan and runs the tests there. The GUI is left out
# (its tests need a display and add nothing the CLI tests do not), and so are tests that
# start a real RabbitMQ (labels live, conformance).
#   SANITIZE    address (default: ASan + UBSan) or thread (TSan, in ./build-tsan)
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${SANITIZE:-address}
case "$kind" in
  address) build_dir=build-asan option=-DEOSIM_ASAN=ON ;;
  thread) build_dir=build-tsan option=-DEOSIM_TSAN=ON ;;
  *) echo "sanitize: SANITIZE must be address or thread, got '$kind'" >&2; exit 2 ;;
esac
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$option" -DEOSIM_GUI=OFF >/dev/null
echo "sanitize: building in $build_dir ($kind)"
cmake --build "$build_dir" -j "$(nproc)" 2>&1 | grep -E "error|warning" || true
test -x "$build_dir/eosim"
cd "$build_dir"
ctest --output-on-failure -j "$(nproc)" -LE 'live|conformance'
