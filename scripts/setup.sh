#!/usr/bin/env bash
# Installs what eosim needs from Debian 12's packages (only what is missing), then
# configures and builds it in ./build. Safe to run again: it does only what is left.
#   --packages-only  install the missing packages and stop (.ci/run, before it starts the
#                    sanitizer and fuzz builds beside the README's test command)
#   BUILD_DIR   where to build (default: build)
#   BUILD_TYPE  CMake build type (default: Release)
set -euo pipefail
cd "$(dirname "$0")/.."
packages_only=0
case "${1:-}" in
  "") ;;
  --packages-only) packages_only=1 ;;
  *) echo "setup: unknown argument '$1' (the only one is --packages-only)" >&2; exit 2 ;;
esac

packages=(build-essential cmake pkg-config libboost-dev libsqlite3-dev catch2 libcli11-dev
  libimgui-dev libglfw3-dev libgl-dev libtomlplusplus-dev nlohmann-json3-dev
  xvfb xauth libgl1-mesa-dri sqlite3
  chromium)  # chromium: tests open the HTML/SVG pictures in a headless browser

# The conformance tests start a private RabbitMQ and talk to it through rabbitmq-c.
packages+=(rabbitmq-server librabbitmq-dev)

# `eosim live --store postgres` starts a private PostgreSQL 15 (initdb in its own folder)
# and talks to it through libpq; the Redis anti-pattern runs on redis-server through
# hiredis. The packages' own services are not started (policy-rc.d below): eosim starts a
# private server per run on loopback.
packages+=(postgresql libpq-dev redis-server libhiredis-dev)

# `eosim live --consumer CMD`: the example consumers in examples/consumers/python use pika,
# and atomic_pg.py psycopg2 for its ledger on PostgreSQL (docs/your-consumer.md).
packages+=(python3-pika python3-psycopg2)

# CI's fuzz run (scripts/fuzz.sh): clang with libFuzzer and the sanitizer runtimes.
packages+=(clang libclang-rt-14-dev)

# scripts/lint.sh: the layout and static checks (.clang-format, .clang-tidy); the
# function-length ratchet (cmake/check_function_length.cmake) reads functions with ctags.
packages+=(clang-format clang-tidy universal-ctags)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  # No package may start a system service (rabbitmq-server would start one on 5672 and
  # 4369, postgresql its cluster `main` on 5432, redis-server one on 6379): policy-rc.d answers 101 ("not allowed") during the install, then is restored.
  policy=/usr/sbin/policy-rc.d
  saved=$(mktemp)
  had_policy=0
  if [ -e "$policy" ]; then "${sudo_cmd[@]}" cp -p "$policy" "$saved"; had_policy=1; fi
  restore_policy() {
    if [ "$had_policy" = 1 ]; then "${sudo_cmd[@]}" cp -p "$saved" "$policy"
    else "${sudo_cmd[@]}" rm -f "$policy"; fi
    rm -f "$saved"
  }
  trap restore_policy EXIT
  printf '#!/bin/sh\nexit 101\n' | "${sudo_cmd[@]}" tee "$policy" >/dev/null
  "${sudo_cmd[@]}" chmod 755 "$policy"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
  restore_policy
  trap - EXIT
fi

[ "$packages_only" = 0 ] || exit 0

build_dir=${BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" >/dev/null
echo "setup: building in $build_dir (a cold build takes a few minutes on 2 cores)"
cmake --build "$build_dir" -j "$(nproc)" 2>&1 | grep -E "error|warning|Built target eosim$" || true
test -x "$build_dir/eosim"
