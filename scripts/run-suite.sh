#!/usr/bin/env bash
# Sets up and builds eosim, then runs every scripted failure scenario and prints each
# verdict. Exit code 0 when every scenario met its [expect] block.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec "${BUILD_DIR:-build}/eosim" run scenarios/
