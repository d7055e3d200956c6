#!/usr/bin/env bash
# Sets up and builds eosim, then runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
# Two tests per core: most of the live tests' time is waiting for a server to start or for
# a tick, not CPU (live_compare: 386 s of wall for 59 CPU-s, live_truth 131 s for 25), so
# with one test per core the run was bound by its slots, the CPU half idle
# (docs/testing.md, "CI").
ctest --output-on-failure -j "$(($(nproc) * 2))"
