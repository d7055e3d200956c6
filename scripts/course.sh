#!/usr/bin/env bash
# Regenerates the course as a static site (docs/course-site/), its pictures (docs/course/*.svg:
# each lesson run's diagram as the site's page draws it) and docs/course.md, which shows
# those pictures, from scenarios/lessons/.
# tests/scenarios/cli_lesson_test.cpp fails when they are out of date.
set -euo pipefail
cd "$(dirname "$0")/.."
eosim=${EOSIM:-build/eosim}
"$eosim" course --html docs/course-site --pictures docs/course --dir scenarios/lessons --force
"$eosim" lesson --course --dir scenarios/lessons --pictures docs/course > docs/course.md.new
mv docs/course.md.new docs/course.md
echo "wrote docs/course-site/, docs/course/*.svg and docs/course.md"
