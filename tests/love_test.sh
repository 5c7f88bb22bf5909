#!/bin/bash
# SPDX-License-Identifier: MIT
# love_test.sh [OUT_DIR] — the LÖVE example (examples/love) under xvfb-run
# with its scripted input (LODESTAR_LOVE_SCRIPT=1: the overlay key, two door
# clicks, an edit of its mod at frame 100), 300 frames on the LuaJIT build
# of lodestar.core. The game writes summary.json and a screenshot
# (love.graphics.captureScreenshot); this checks that it exited cleanly, the
# agents moved and got paths, the mod was hot-reloaded and its new weight
# is in force, both doors are closed on the screenshot, and the overlay's
# probe path is drawn in its colour (#ff00ff) at its cells' centres.
# Skipped with a message when love, xvfb-run or python3 is missing, or the
# LuaJIT module was not built. Prints "N passed, N failed".
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$(mktemp -d /tmp/lds_love.XXXXXX)}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
for tool in love xvfb-run python3; do
  if ! command -v $tool >/dev/null; then
    echo "love_test: SKIPPED: $tool not installed (Debian: apt-get install love xvfb xauth python3)"
    echo "0 passed, 0 failed"
    exit 0
  fi
done
if [ ! -f "$ROOT/build/luajit/lodestar/core.so" ]; then
  echo "love_test: SKIPPED: build/luajit/lodestar/core.so not built (LuaJIT headers missing: apt-get install libluajit-5.1-dev)"
  echo "0 passed, 0 failed"
  exit 0
fi
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
rm -rf "$OUT/mods" "$OUT/summary.json" "$OUT/screenshot.png" "$OUT/error.txt"
cp -r "$ROOT/examples/love/mods" "$OUT/mods" # the game edits its mod: give it a copy
LODESTAR_LOVE_SCRIPT=1 LODESTAR_LOVE_OUT="$OUT" LODESTAR_LOVE_MODS="$OUT/mods" LODESTAR_ROOT="$ROOT" \
  xvfb-run -a -s "-screen 0 1024x768x24" love "$ROOT/examples/love" >"$OUT/love.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "love exited with $rc (log: $OUT/love.log)"; fi
if [ -f "$OUT/error.txt" ]; then bad "the game raised: $(head -3 "$OUT/error.txt")"; else ok; fi
if [ -f "$OUT/summary.json" ] && [ -f "$OUT/screenshot.png" ]; then ok; else
  bad "no summary.json or screenshot.png in $OUT"
  echo "love: $pass passed, $fail failed"
  exit 1
fi
S=$(cat "$OUT/summary.json")
num() { printf '%s' "$S" | grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2; }
check() { # check KEY OP VALUE
  local v
  v=$(num "$1")
  if [ -n "$v" ] && awk -v a="$v" -v b="$3" "BEGIN { exit !(a $2 b) }"; then ok; else bad "summary $1 = '$v', expected $2 $3"; fi
}
check frame == 300
check agents == 16
check moved '>=' 12          # agents that left their start cell
check delivered '>=' 16      # every agent got at least one path
check door_toggles == 2
check reloads == 1           # the edit at frame 100 was picked up
check scout_weight == 1      # ... and its new weight is the profile's
check max_frame_expansions '>' 0
if printf '%s' "$S" | grep -q '"ok":true' && printf '%s' "$S" | grep -q '"overlay":true'; then ok; else bad "summary: ok/overlay not true"; fi
# the overlay's probe path: its colour at the centre of its cells
pts=$(printf '%s' "$S" | grep -o '"probe_pixels":\[[^a-z]*\]\]' | grep -o '\[[0-9]*,[0-9]*\]' | tr -d '[]' | tr ',' ' ' | tr '\n' ' ')
n=$(printf '%s\n' $pts | grep -c .)
n=$((n / 2))
# shellcheck disable=SC2086
cols=$(python3 "$ROOT/tests/png_read.py" "$OUT/screenshot.png" $pts | tail -n +2)
hits=$(printf '%s\n' "$cols" | grep -c '^#ff00ff$')
if [ "$n" -ge 5 ] && [ "$hits" -eq "$n" ]; then ok; else bad "$hits of $n probe path cells are #ff00ff on the screenshot"; fi
# the two closed doors: dark red tiles (red well above green and blue)
dpts=$(printf '%s' "$S" | grep -o '"closed_door_pixels":\[[^a-z]*\]\]' | grep -o '\[[0-9]*,[0-9]*\]' | tr -d '[]' | tr ',' ' ' | tr '\n' ' ')
# shellcheck disable=SC2086
dcols=$(python3 "$ROOT/tests/png_read.py" "$OUT/screenshot.png" $dpts | tail -n +2)
nd=0
for c in $dcols; do
  r=$((16#${c:1:2})) g=$((16#${c:3:2})) b=$((16#${c:5:2}))
  if [ $r -gt $((g + 40)) ] && [ $r -gt $((b + 40)) ]; then nd=$((nd + 1)); fi
done
if [ "$nd" -eq 2 ]; then ok; else bad "closed doors on the screenshot: $nd of 2 dark red ($dcols)"; fi
echo "love: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
