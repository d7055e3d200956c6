#!/usr/bin/env bash
# Sets up and builds eosim, then runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
# One test per core. Two per core (most of a live test is waiting: live_compare 386 s of
# wall for 59 CPU-s) was tried on 2026-12-05 and live_compare's scenario 16 lost its
# margin of a few ticks beside three other tests on a machine at load 12-20: the longest
# tests start first instead (COST, tests/CMakeLists.txt; docs/testing.md, "CI").
ctest --output-on-failure -j "$(nproc)"
