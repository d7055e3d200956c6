#!/usr/bin/env bash
# Fuzzes the scenario loader with libFuzzer (clang, ASan + UBSan) for a bounded time:
# builds ./build-fuzz, starts from the stored corpus tests/data/fuzz/scenario/ (copied, so
# the repository is not changed) and fuzz/toml.dict, and fails on any crash, sanitizer
# report or broken to_toml round trip. Prints the executions and coverage reached.
#   FUZZ_SECONDS  how long to fuzz (default 60)
#   FUZZ_SAVE     a folder to keep the grown corpus in (default: a temporary one)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEOSIM_FUZZ=ON \
  -DEOSIM_GUI=OFF -DEOSIM_TESTS=OFF -DEOSIM_WERROR=OFF >/dev/null
echo "fuzz: building build-fuzz/fuzz/eosim_scenario_fuzz"
cmake --build build-fuzz --target eosim_scenario_fuzz -j "$(nproc)" 2>&1 | grep -E "error" || true
corpus=${FUZZ_SAVE:-$(mktemp -d)}
mkdir -p "$corpus"
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
log=$(mktemp)
status=0
build-fuzz/fuzz/eosim_scenario_fuzz "$corpus" tests/data/fuzz/scenario -dict=fuzz/toml.dict \
  -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$corpus/" -print_final_stats=1 >"$log" 2>&1 || status=$?
grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|failed|SUMMARY" "$log" || true
if [ "$status" -ne 0 ]; then
  tail -40 "$log"
  echo "fuzz: FAILED (crash input saved in $corpus)" >&2
  exit 1
fi
echo "fuzz: clean after ${seconds} s; corpus $(ls "$corpus" | wc -l) inputs in $corpus"
