#!/usr/bin/env bash
# Behaviour fingerprint: every scenario's trace hash and the digest of a few sweeps.
# A refactoring that should not change behaviour must print the same lines before and
# after; diff two outputs to see what moved.
#   scripts/fingerprint.sh [path/to/eosim] > before.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
eosim=${1:-$root/build/eosim}
cd "$root"
for f in scenarios/*.toml; do
  "$eosim" run "$f" --format json 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(sys.argv[1], d["verdict"], d["trace_hash"])' "$f" || true
done
sweep() {
  "$eosim" sweep "$@" --format json --jobs 2 2>/dev/null |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print("sweep", " ".join(sys.argv[1:]), d["digest"], json.dumps(d["verdicts"], sort_keys=True))' "$@" || true
}
sweep scenarios/01-happy-path.toml --seeds 1..500
sweep scenarios/01-happy-path.toml --seeds 1..500 --strategy no-dedup
sweep scenarios/16-competing-consumers-check-then-act.toml --seeds 1..200
sweep scenarios/15-outbox-no-confirm-restart.toml --seeds 1..200
