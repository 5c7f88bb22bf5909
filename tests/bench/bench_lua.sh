#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_lua.sh — designer-rule overhead from Lua 5.4 and LuaJIT (see
# bench_lua.lua). Run by tests/bench/run_bench.sh (`make bench`) after `make`.
# Usage: tests/bench/bench_lua.sh [SCEN MAP REPS]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
LUA_PATH="$root/scripts/?.lua;$root/scripts/?/init.lua;;"
export LUA_PATH
for engine in lua54 luajit; do
  if [ "$engine" = lua54 ]; then interp=${LUA54:-lua5.4}; else interp=${LUAJIT:-luajit}; fi
  if [ ! -f "$BUILD/$engine/lodestar/core.so" ] || ! command -v "$interp" >/dev/null 2>&1; then
    echo "bench_lua: $engine skipped ($BUILD/$engine/lodestar/core.so or $interp missing)"
    continue
  fi
  LUA_CPATH="$root/$BUILD/$engine/?.so;;" "$interp" tests/bench/bench_lua.lua "$@"
done
