#!/usr/bin/env bash
# Regenerates docs/course.md, its pictures (docs/course/*.svg) and the course as a static
# site (docs/course-site/) from scenarios/lessons/.
# tests/scenarios/cli_lesson_test.cpp fails when they are out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
eosim=${EOSIM:-build/eosim}
"$eosim" lesson --course --dir scenarios/lessons --pictures docs/course --force > docs/course.md.new
mv docs/course.md.new docs/course.md
"$eosim" course --html docs/course-site --dir scenarios/lessons --force
echo "wrote docs/course.md, docs/course/*.svg and docs/course-site/"
