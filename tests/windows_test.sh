#!/bin/bash
# SPDX-License-Identifier: MIT
# windows_test.sh MAKE WIN WINE CROSS — the Windows build (mk/windows.mk)
# under Wine: builds it, runs the C tests (test_runner.exe), checks that the
# command gives the same paths and demo log as the native build (paths_hash,
# log_hash), that lodestar.dll needs no zlib, and that the Lua module loads
# in the Windows lua.exe and finds a path. Skipped, with a message, without
# the cross compiler or wine (make deps installs both).
# Prints "windows: N passed, N failed".
set -u
MAKE_CMD=$1 WIN=$2 WINE=$3 CROSS=$4
if ! command -v "${CROSS}gcc" >/dev/null 2>&1 || ! command -v "$WINE" >/dev/null 2>&1; then
  echo "windows: ${CROSS}gcc or $WINE not installed: skipped (make deps installs gcc-mingw-w64-x86-64, libz-mingw-w64-dev, wine)"
  exit 0
fi
export WINEDEBUG=-all
export WINEPREFIX=${WINEPREFIX:-$PWD/build/wineprefix}
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL windows: $*" >&2; }
TMP=$(mktemp -d /tmp/lds_win.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
# Lua's source comes from deb.debian.org, like the packages: without the
# network the build cannot run (said, not failed)
if ! $MAKE_CMD --no-print-directory "$WIN/lua.tar.gz" >"$TMP/dl.log" 2>&1; then
  echo "windows: cannot download Lua's source ($(tail -c 200 "$TMP/dl.log")): skipped"
  exit 0
fi
if ! $MAKE_CMD --no-print-directory windows -j2 >"$TMP/build.log" 2>&1; then
  ko "make windows: $(tail -c 1500 "$TMP/build.log")"
  echo "windows: $pass passed, $fail failed"
  exit 1
fi
ok
# the C tests
"$WINE" "$WIN/test_runner.exe" >"$TMP/tests.out" 2>&1
rc=$?
tail -3 "$TMP/tests.out"
line=$(grep -Eo '^[0-9]+ passed, [0-9]+ failed' "$TMP/tests.out" | tail -1)
if [ "$rc" = 0 ] && [ -n "$line" ] && [ "${line#* passed, }" = "0 failed" ]; then ok; else
  ko "test_runner.exe: exit $rc, $(grep FAIL "$TMP/tests.out" | head -5)"; fi
# the same paths as the native command, bit for bit
hash() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().splitlines()[-1])[sys.argv[1]])' "$1"; }
for algo in astar jps; do
  want=$(build/lodestar scen tests/data/den011d.map.scen --algo $algo --json | hash paths_hash)
  got=$("$WINE" "$WIN/lodestar.exe" scen tests/data/den011d.map.scen --algo $algo --json 2>"$TMP/err" | tr -d '\r' | hash paths_hash)
  [ -n "$want" ] && [ "$got" = "$want" ] && ok || ko "lodestar.exe scen --algo $algo: paths_hash '$got', native '$want' $(head -c 300 "$TMP/err")"
done
want=$(build/lodestar demo --frames 60 --agents 30 --deterministic --json | hash log_hash)
got=$("$WINE" "$WIN/lodestar.exe" demo --map tests/data/den011d.map --frames 60 --agents 30 --deterministic --json 2>"$TMP/err" |
  tr -d '\r' | hash log_hash)
[ -n "$want" ] && [ "$got" = "$want" ] && ok || ko "lodestar.exe demo: log_hash '$got', native '$want' $(head -c 300 "$TMP/err")"
v=$("$WINE" "$WIN/lodestar.exe" --version | tr -d '\r')
[ "$v" = "$(build/lodestar --version)" ] && ok || ko "lodestar.exe --version: '$v'"
# the core DLL needs the C runtime alone: no zlib, no Lua
deps=$("${CROSS}objdump" -p "$WIN/lodestar.dll" | sed -n 's/^.*DLL Name: //p' | tr '\n' ' ')
case "$deps" in *zlib*|*libz*|*lua*) ko "lodestar.dll imports $deps" ;; *) ok ;; esac
"${CROSS}objdump" -p "$WIN/lodestar.dll" | grep -q ' lds_search_new$' && ok || ko "lodestar.dll does not export lds_search_new"
# the Lua module in the Windows Lua 5.4
out=$(LUA_PATH='scripts\?.lua;scripts\?\init.lua' LUA_CPATH="$(echo "$WIN" | tr / '\\')\\?.dll" WINEPATH="$WIN" \
  "$WINE" "$WIN/lua.exe" -e '
  local l = require "lodestar"
  local g = l.grid.load("tests/data/arena.map")
  local p = assert(l.find_path(g, 1, 11, 30, 40))
  io.write(l._VERSION, " ", #p, " ", string.format("%.6f", p.cost))' 2>&1 | tr -d '\r')
want=$(. build/env.sh && lua5.4 -e '
  local l = require "lodestar"
  local g = l.grid.load("tests/data/arena.map")
  local p = assert(l.find_path(g, 1, 11, 30, 40))
  io.write(l._VERSION, " ", #p, " ", string.format("%.6f", p.cost))')
[ "$out" = "$want" ] && ok || ko "lua.exe require \"lodestar\": '$out', native '$want'"
echo "windows: $pass passed, $fail failed"
[ "$fail" = 0 ]
