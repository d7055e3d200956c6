#!/usr/bin/env bash
# Regenerates docs/course.md and its pictures (docs/course/*.svg) from scenarios/lessons/.
# tests/scenarios/cli_lesson_test.cpp fails when they are out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
eosim=${EOSIM:-build/eosim}
"$eosim" lesson --course --dir scenarios/lessons --pictures docs/course --force > docs/course.md.new
mv docs/course.md.new docs/course.md
echo "wrote docs/course.md and docs/course/*.svg"
