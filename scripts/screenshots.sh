#!/usr/bin/env bash
# Regenerates docs/screenshots/: the pictures docs/gui.md shows, drawn by eosim-gui itself
# (--screenshot) in a virtual X server at 1600x960 (and four at 1280x800), each checked
# against the diagram layout's invariants (--check-layout: no label over another or past
# the panel's edge, every lane's title and the current event inside the panel).
# Needs xvfb-run and a build with the GUI (cmake --build build --target eosim-gui).
set -euo pipefail
cd "$(dirname "$0")/.."
gui=${EOSIM_GUI:-build/ui/eosim-gui}
out=docs/screenshots
mkdir -p "$out"
shot() {
  local name=$1
  shift
  xvfb-run -a -s '-screen 0 1600x960x24' "$gui" --size 1600x960 --check-layout --force \
    --screenshot "$out/$name.png" "$@"
}
shot explore-crash-between-commit-and-ack --step 34 scenarios/02-crash-between-commit-and-ack.toml
shot explore-no-dedup-double-debit --step 100 scenarios/03-crash-between-commit-and-ack-no-dedup.toml
shot compare-atomic-vs-no-dedup --mode compare --step 38 scenarios/02-crash-between-commit-and-ack.toml
shot two-generals --mode generals --step 100 scenarios/02-crash-between-commit-and-ack.toml
shot explore-two-consumers-check-then-act --step 100 scenarios/16-competing-consumers-check-then-act.toml
shot explore-separate-dedup-store --step 100 scenarios/07-separate-dedup-store.toml
# A laptop's window (1280x800): every lane on screen, the fault in view.
laptop() {
  local name=$1
  shift
  xvfb-run -a -s '-screen 0 1600x960x24' "$gui" --size 1280x800 --layout none --check-layout \
    --force --screenshot "$out/$name.png" "$@"
}
laptop laptop-02-crash-between-commit-and-ack --step 22 scenarios/02-crash-between-commit-and-ack.toml
laptop laptop-16-competing-consumers --step 24 scenarios/16-competing-consumers-check-then-act.toml
laptop laptop-24-zombie-consumer --step 19 scenarios/24-zombie-consumer.toml
laptop laptop-31-side-effect-before-commit --step 34 scenarios/31-side-effect-before-commit.toml
# A recorded live run (a real RabbitMQ, real processes), stepped read-only to its last event.
shot live-recording-no-dedup --step 21 --trace tests/data/live/recorded-02-no-dedup.jsonl
echo "wrote $(ls "$out"/*.png | wc -l) screenshots in $out/"
