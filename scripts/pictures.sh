#!/usr/bin/env bash
# Regenerates docs/pictures/: the sequence diagram as SVG (02, 07, 16) and as one HTML
# page (16), two runs compared as one page (02: atomic vs no-dedup), drawn by `eosim run --format svg|html` from the layout the GUI draws, and a
# sweep chart (`eosim sweep --plot`). Run it again after a change to the trace.
set -euo pipefail
cd "$(dirname "$0")/.."
eosim=${EOSIM:-build/eosim}
out=docs/pictures
mkdir -p "$out"
for stem in 02-crash-between-commit-and-ack 07-separate-dedup-store \
            16-competing-consumers-check-then-act; do
  "$eosim" run "scenarios/$stem.toml" --format svg > "$out/$stem.svg"
done
"$eosim" run scenarios/16-competing-consumers-check-then-act.toml --format html \
  > "$out/16-competing-consumers-check-then-act.html"
"$eosim" compare scenarios/02-crash-between-commit-and-ack.toml --vs no-dedup --format html \
  > "$out/02-atomic-vs-no-dedup.html"
"$eosim" sweep scenarios/01-happy-path.toml --seeds 1..200 --plot-x ratio --force \
  --plot "$out/violation-rate-by-fault-ratio.svg" > /dev/null
echo "wrote $(ls "$out" | wc -l) pictures in $out/"
