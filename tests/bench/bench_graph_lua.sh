#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_graph_lua.sh — graph searches from Lua 5.4 and LuaJIT on a road graph
# (see bench_graph_lua.lua). Run by tests/bench/run_bench.sh (`make bench`).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
LUA_PATH="$root/scripts/?.lua;$root/scripts/?/init.lua;;"
export LUA_PATH LDS_SHARED="${SHARED:-../shared}"
for engine in lua54 luajit; do
  if [ "$engine" = lua54 ]; then interp=${LUA54:-lua5.4}; else interp=${LUAJIT:-luajit}; fi
  if [ ! -f "$BUILD/$engine/lodestar/core.so" ] || ! command -v "$interp" >/dev/null 2>&1; then
    echo "bench_graph_lua: $engine skipped ($BUILD/$engine/lodestar/core.so or $interp missing)"
    continue
  fi
  echo "-- $engine"
  LUA_CPATH="$root/$BUILD/$engine/?.so;;" "$interp" tests/bench/bench_graph_lua.lua "$@"
done
