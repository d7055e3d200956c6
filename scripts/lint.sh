#!/usr/bin/env bash
# Runs the house's two static checks and exits non-zero when either finds something
# (docs/style.md lists every rule and where it is checked):
#   clang-format (.clang-format) on the lines changed since BASE (default: where this branch
#     left main, `git merge-base main HEAD`, so lines main gained since are not touched), so new
#     code follows the layout without reformatting every file other branches are editing;
#     --all checks every file instead (cmake/check_format.cmake), but the files still pending
#     in cmake/format_pending.txt, a list that only shrinks (--all --fix lays out the others).
#   clang-tidy (.clang-tidy) on the .cpp files of sim/, src/, ui/ and bench/ in
#     compile_commands.json of TIDY_DIR (default: build-tidy, configured here without unity
#     batches when it is missing, so that every file is parsed on its own): those changed
#     since BASE (default), every one (--all: about 18 CPU minutes for 140 files), or those
#     of sim/ and the folders that decide a run (--core: what .ci/run checks, about 2.5 CPU
#     minutes for 55 files; the rest is mostly the CLI, live and GUI, whose headers are the
#     slow part). Files named on the command line are checked instead.
# Usage: scripts/lint.sh [--all] [--core] [--fix] [--format-only | --tidy-only] [FILE.cpp...]
#   JOBS  parallel clang-tidy processes (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

all=0 core=0 fix=0 do_format=1 do_tidy=1
files=()
for arg in "$@"; do
  case "$arg" in
    --all) all=1 ;;
    --core) core=1 ;;
    --fix) fix=1 ;;
    --format-only) do_tidy=0 ;;
    --tidy-only) do_format=0 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    -*) echo "lint: unknown option $arg" >&2; exit 2 ;;
    *) files+=("$arg") ;;
  esac
done

for tool in clang-format clang-tidy; do
  command -v "$tool" >/dev/null || { echo "lint: $tool is missing (sudo bash scripts/setup.sh)" >&2; exit 2; }
done

status=0
if [ "$do_format" = 1 ]; then
  if [ "$all" = 1 ]; then
    if [ "$fix" = 1 ]; then
      mapfile -t sources < <(git ls-files '*.h' '*.cpp' | grep -Ev '^(fuzz/corpus|tests/data)/' |
                             grep -vxFf <(grep -v '^#' cmake/format_pending.txt))
      clang-format -i "${sources[@]}"
    elif ! cmake -DROOT="$PWD" -DALLOWLIST="$PWD/cmake/format_pending.txt" \
           -P cmake/check_format.cmake; then
      echo "lint: clang-format: files above differ (docs/style.md, Layout)" >&2
      status=1
    fi
  else
    # The fork point, not main itself: once main moves on, a diff against main would
    # include (and --fix would reformat) lines other branches changed.
    base=${BASE:-$(git merge-base main HEAD)}
    if [ "$fix" = 1 ]; then
      git clang-format --quiet "$base" -- '*.h' '*.cpp' || true
    else
      changes=$(git clang-format --diff "$base" -- '*.h' '*.cpp' || true)
      if [ -n "$changes" ] && ! grep -q '^no modified files\|did not modify any files' <<<"$changes"; then
        echo "$changes"
        echo "lint: clang-format: lines changed since $base differ from .clang-format" \
             "(scripts/lint.sh --fix applies it)" >&2
        status=1
      else
        echo "lint: clang-format: lines changed since $base are formatted"
      fi
    fi
  fi
fi

if [ "$do_tidy" = 1 ]; then
  build=${TIDY_DIR:-build-tidy}
  if [ ! -f "$build/compile_commands.json" ]; then
    # Unity batches would hand clang-tidy batch files, not the files themselves.
    cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DEOSIM_UNITY=OFF \
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null ||
      { echo "lint: cannot configure $build for clang-tidy" >&2; exit 2; }
  fi
  if [ ${#files[@]} -eq 0 ]; then
    # The files this configuration compiles (GUI or live left out: their files too).
    mapfile -t files < <(grep -o '"file": *"[^"]*"' "$build/compile_commands.json" |
                         sed -E 's/.*"([^"]*)"$/\1/; s|^'"$PWD"'/||' |
                         grep -E '^(sim|src|ui|bench)/.*\.cpp$' | sort -u)
    if [ "$core" = 1 ]; then
      # The deciding folders of cmake/check_determinism.cmake (DECIDING).
      mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -E \
        '^(sim/|src/(broker|catalog|checker|consumer|generals|orders|producer|scenario|status|store|toml|transport|world)/)')
    elif [ "$all" = 0 ]; then
      base=${BASE:-$(git merge-base main HEAD)}
      mapfile -t files < <(printf '%s\n' "${files[@]}" |
                           grep -xFf <(git diff --name-only "$base" -- '*.cpp'))
    fi
  fi
  if [ ${#files[@]} -eq 0 ]; then
    echo "lint: clang-tidy: no file to check"
    exit "$status"
  fi
  # GCC's warning flags in the compile commands mean nothing to clang: not an error.
  if ! printf '%s\n' "${files[@]}" |
       xargs -P "${JOBS:-2}" -n 4 clang-tidy --quiet -p "$build" \
         --extra-arg=-Wno-unknown-warning-option 2>/dev/null; then
    echo "lint: clang-tidy: findings above (.clang-tidy says which checks run)" >&2
    status=1
  else
    echo "lint: clang-tidy: ${#files[@]} files clean"
  fi
fi
exit "$status"
