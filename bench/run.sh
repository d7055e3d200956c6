#!/usr/bin/env bash
# The benchmark behind docs/performance.md: builds eosim and eosim_bench (Release, no GUI,
# no tests) and prints every figure the document reports. Not run by ctest.
#
#   bench/run.sh            # the full set (a few minutes on 2 cores)
#   RUNS=500 bench/run.sh   # fewer runs per throughput measurement (one job, ROUNDS=10 rounds)
#   BUILD_DIR=... JOBS=1 bench/run.sh   # where to build, and how many compile jobs
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build-bench}"
runs="${RUNS:-4000}"

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DEOSIM_GUI=OFF -DEOSIM_TESTS=OFF >/dev/null
cmake --build "$build" -j "${JOBS:-$(nproc)}" --target eosim eosim_bench >/dev/null
eosim="$build/eosim"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

echo "== machine"
lscpu | grep -E '^(Model name|CPU\(s\)|Thread\(s\) per core)' || true
grep MemTotal /proc/meminfo
echo "sqlite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1 || echo '(cli not installed)'), $(g++ --version | head -1)"

echo
echo "== throughput: a sweep of bench/ten-orders.toml beside the SQLite-only statements"
"$build/bench/eosim_bench" throughput --scenario bench/ten-orders.toml --runs "$runs" \
  --jobs 1 --rounds "${ROUNDS:-10}"

echo
echo "== instructions of one sweep beside the replay of its SQL (callgrind, load-independent)"
if command -v valgrind >/dev/null; then
  BENCH="$build/bench/eosim_bench" RUNS=300 bench/instructions.sh
else
  echo "  (valgrind is not installed: skipped)"
fi

echo
echo "== the same through the CLI (random faults on, every run must be exactly-once)"
"$eosim" sweep bench/ten-orders.toml --seeds "1..$runs" --expect exactly-once | tail -2

echo
echo "== every anti-pattern: first failing seed of 500, shrink time and size"
"$build/bench/eosim_bench" anti-patterns --seeds 500

echo
echo "== long runs: time and peak memory (one run, in-memory databases, no trace kept)"
for orders in 25000 50000 100000; do
  sed -e "s/^orders = 100000/orders = $orders/" \
      -e "s/^initial_balance = 100000/initial_balance = $orders/" \
      -e "s/^name .*/name = \"bench: $orders orders\"/" \
      bench/hundred-thousand-orders.toml > "$tmp/long-$orders.toml"
  /usr/bin/time -v "$eosim" run "$tmp/long-$orders.toml" --quiet \
    > "$tmp/run-$orders.txt" 2> "$tmp/time-$orders.txt"
  grep -q 'expect ok' "$tmp/run-$orders.txt" || { cat "$tmp/run-$orders.txt"; exit 1; }
  wall=$(grep 'Elapsed (wall clock)' "$tmp/time-$orders.txt" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$tmp/time-$orders.txt" | awk '{print $NF}')
  echo "  $orders orders: wall $wall, peak RSS $((rss / 1024)) MB"
done

echo
echo "== exhaustive: two orders, every placement of up to 2 faults and 1 scheduler change"
"$eosim" explore bench/two-orders.toml --max-faults 2 --max-deviations 1 --expect exactly-once \
  | grep -E '^(the fault-free|schedules explored|distinct outcomes|violations|time)'
