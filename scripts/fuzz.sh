#!/usr/bin/env bash
# Fuzzes, for a bounded time, what eosim reads from users (libFuzzer, clang, ASan + UBSan,
# toml++ compiled from its sources with the same instrumentation):
#   eosim_scenario_fuzz  the scenario loader (fuzz/toml.dict), inputs up to the 1 MiB cap;
#   eosim_trace_fuzz     the GUI's trace loader (fuzz/json.dict);
#   eosim_merge_fuzz     what `eosim merge` reads (fuzz/json.dict).
# Each starts from its stored corpus tests/data/fuzz/<name>/ (copied, so the repository is
# not changed) and fails the script on any crash, sanitizer report or broken property.
#   FUZZ_SECONDS  the fuzzing time of all three together (default 60: 30 for scenarios,
#                 15 each for traces and merge results); the scenario fuzzer runs beside
#                 the other two, one after the other, so on 2 cores it takes half of that
#   --build-only  configure and build the three targets, fuzz nothing
#   FUZZ_SAVE     a folder to keep the grown corpora in (default: a temporary one)
# The targets are built in build-asan, the sanitizer tree of scripts/sanitize.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
build_only=0
case "${1:-}" in
  "") ;;
  --build-only) build_only=1 ;;
  *) echo "fuzz: unknown argument '$1' (the only one is --build-only)" >&2; exit 2 ;;
esac
seconds=${FUZZ_SECONDS:-60}
# The targets live in the sanitizer tree (build-asan, clang, configured by
# scripts/sanitize.sh): its libraries carry libFuzzer's coverage, so they are compiled once
# for the tests under the sanitizers and for the fuzzers.
SANITIZE=address bash scripts/sanitize.sh --configure-only
targets="eosim_scenario_fuzz eosim_trace_fuzz eosim_merge_fuzz"
echo "fuzz: building $targets in build-asan"
build_log=$(mktemp)
# shellcheck disable=SC2086
if ! cmake --build build-asan --target $targets -j "$(nproc)" >"$build_log" 2>&1; then
  grep -E "error" "$build_log" || tail -40 "$build_log"
  rm -f "$build_log"
  echo "fuzz: the build of $targets failed" >&2
  exit 1
fi
rm -f "$build_log"
[ "$build_only" = 0 ] || exit 0
save=${FUZZ_SAVE:-$(mktemp -d)}
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# run NAME SECONDS DICT MAX_LEN: fuzzes, then prints its figures (and on failure the
# log's end) all at once, so two runs side by side do not interleave their lines.
run() {
  local name=$1 time=$2 dict=$3 max_len=$4
  local corpus=$save/$name log
  mkdir -p "$corpus"
  log=$(mktemp)
  local status=0
  build-asan/fuzz/eosim_${name}_fuzz "$corpus" "tests/data/fuzz/$name" -dict="$dict" \
    -max_total_time="$time" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$corpus/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  {
    echo "fuzz $name (${time} s):"
    grep -E "^#[0-9]+ +DONE|stat::number_of_executed_units|ERROR|failed|SUMMARY" "$log" |
      sed 's/^/  /' || true
    if [ "$status" -ne 0 ]; then
      tail -40 "$log"
      echo "fuzz: $name FAILED (the input is saved in $corpus)"
    fi
  } >"$log.report"
  cat "$log.report"
  rm -f "$log" "$log.report"
  return "$status"
}
run scenario $((seconds / 2)) fuzz/toml.dict 1048576 &
scenario_job=$!
failed=0
run trace $((seconds / 4)) fuzz/json.dict 65536 || failed=1
run merge $((seconds - seconds / 2 - seconds / 4)) fuzz/json.dict 65536 || failed=1
wait "$scenario_job" || failed=1
[ "$failed" -eq 0 ] || { echo "fuzz: a target FAILED (see above)" >&2; exit 1; }
echo "fuzz: clean after ${seconds} s of fuzzing; corpora in $save"
