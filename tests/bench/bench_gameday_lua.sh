#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_gameday_lua.sh — the game-day scenario (tests/bench/gameday.lua)
# from Lua 5.4 and LuaJIT through lodestar.scheduler, timed mode: 1000
# agents of 4 classes, 3000 frames, a 1000 µs budget, on AR0011SR and
# Berlin_0_1024. Prints requests completed, failed by cause, restarts,
# events and the frame times against the budget. Run by
# tests/bench/run_bench.sh (`make bench`) after `make`; QUICK=1: 300 frames.
# Usage: tests/bench/bench_gameday_lua.sh [FRAMES [AGENTS [BUDGET_US]]]
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
frames=${1:-3000}
[ "${QUICK:-0}" = 1 ] && frames=${1:-300}
agents=${2:-1000}
budget=${3:-1000}
LUA_PATH="$root/scripts/?.lua;$root/scripts/?/init.lua;;"
export LUA_PATH
for map in AR0011SR Berlin_0_1024; do
  for engine in lua54 luajit; do
    if [ "$engine" = lua54 ]; then interp=${LUA54:-lua5.4}; else interp=${LUAJIT:-luajit}; fi
    if [ ! -f "$BUILD/$engine/lodestar/core.so" ] || ! command -v "$interp" >/dev/null 2>&1; then
      echo "bench_gameday_lua: $engine skipped ($BUILD/$engine/lodestar/core.so or $interp missing)"
      continue
    fi
    LUA_CPATH="$root/$BUILD/$engine/?.so;;" "$interp" tests/bench/gameday.lua \
      "$SHARED/data/movingai/maps/$map.map" "$SHARED/data/movingai/scen/$map.map.scen" \
      "$frames" "$agents" "$budget"
  done
done
