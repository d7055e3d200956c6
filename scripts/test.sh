#!/usr/bin/env bash
# Sets up and builds eosim, then runs the whole test suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)"
