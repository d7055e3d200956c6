#!/usr/bin/env bash
# Instructions of a sweep beside those of the replay of its own SQL (the SQL-only
# ceiling), counted by callgrind: unlike CPU time, the count does not move with the
# machine's load. Runs `eosim_bench instructions` under valgrind, which dumps each part
# alone, and prints each part's instructions per run and their ratio (replay / sweep,
# the instruction counterpart of the throughput ratio sweep rate / replay rate).
#
#   bench/instructions.sh                    # 300 runs of bench/ten-orders.toml, faults on
#   RUNS=100 FAULTS=off bench/instructions.sh
#   BENCH=build/bench/eosim_bench bench/instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bench="${BENCH:-build/bench/eosim_bench}"
runs="${RUNS:-300}"
scenario="${SCENARIO:-bench/ten-orders.toml}"
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }
[ -x "$bench" ] || { echo "$bench: not built (cmake --build build --target eosim_bench)" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bench" instructions \
  --scenario "$scenario" --runs "$runs" --faults "${FAULTS:-on}" >"$tmp/out" 2>"$tmp/err" || {
  cat "$tmp/out" "$tmp/err" >&2
  exit 3
}
part() {  # the instructions of the dump made at client request $1
  local f
  f=$(grep -l "^desc: Trigger: Client Request: $1\$" "$tmp"/cg.* | head -1)
  [ -n "$f" ] || { echo "no callgrind dump named $1" >&2; exit 3; }
  grep -E '^(summary|totals):' "$f" | head -1 | awk '{print $2}'
}
sweep=$(part sweep)
replay=$(part replay)
grep '^recorded' "$tmp/out"
awk -v s="$sweep" -v r="$replay" -v n="$runs" 'BEGIN {
  printf "instructions, %d runs: sweep %.1fM (%.0fk per run), replay of its SQL %.1fM (%.0fk per run)\n", n, s / 1e6, s / n / 1e3, r / 1e6, r / n / 1e3
  printf "instruction ratio, replay / sweep: %.3f (the sweep runs %.3f instructions per instruction of its SQL)\n", r / s, s / r
}'
