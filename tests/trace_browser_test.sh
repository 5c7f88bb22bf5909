#!/bin/bash
# SPDX-License-Identifier: MIT
# trace_browser_test.sh CLI [OUT_DIR] — `lodestar trace`'s command line
# (bad input, exit statuses, every expansion recorded), then its replay page
# in headless Chromium: for A* and JPS on den011d.map, the page stepped to
# the end through its URL (#step=END) must show in its panel the numbers
# `lodestar path --json` gives (expansions, path cells, cost), its step
# counter must reach the expansion count, a page stepped to #step=7 must
# say 7; and a screenshot must show the path colour (#ff00c8) at the centre
# of each path cell (start and goal have their own colours), none of it at
# step 0. The page of `lodestar demo --html` must show the demo's frames,
# budget, total expansions and p99 frame time. The browser part is skipped
# with a message when chromium or python3 is missing.
# Prints "N passed, N failed".
set -u
CLI=$1
OUT=${2:-$(mktemp -d /tmp/lds_trace.XXXXXX)}
mkdir -p "$OUT" && OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# the command line first (no browser needed): bad input, a query without a path
MAP="$HERE/data/den011d.map"
expect() { # expect RC PATTERN ARGS... : exit status and a line of stderr/stdout
  local want=$1 pat=$2 out rc
  shift 2
  out=$("$CLI" "$@" 2>&1)
  rc=$?
  if [ $rc -eq "$want" ] && printf '%s' "$out" | grep -q -- "$pat"; then ok; else bad "lodestar $*: exit $rc, '$out' (expected $want, /$pat/)"; fi
}
expect 2 "missing --html FILE" trace "$MAP" 10 20 200 150
expect 2 "cannot write /nonexistent-dir/x.html" trace "$MAP" 10 20 200 150 --html /nonexistent-dir/x.html
expect 2 "unknown algorithm 'dfs'" trace "$MAP" 10 20 200 150 --algo dfs --html "$OUT/x.html"
expect 2 "start (999,20) out of bounds (map is 247x167)" trace "$MAP" 999 20 200 150 --html "$OUT/x.html"
expect 1 "0 expansions recorded (0 in the unstepped run), no_path" trace "$MAP" 0 0 200 150 --html "$OUT/nopath.html"
expect 0 "5517 expansions recorded (5517 in the unstepped run), found" trace "$MAP" 10 20 200 150 --html "$OUT/x.html"
expect 0 "104 expansions recorded (104 in the unstepped run), found" trace "$MAP" 10 20 200 150 --algo jps --html "$OUT/x.html"
expect 0 "expansions recorded" trace "$MAP" 10 20 200 150 --neighbourhood 4 --algo dijkstra --html "$OUT/x.html"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [ -z "$CHROMIUM" ] || ! command -v "$CHROMIUM" >/dev/null || ! command -v python3 >/dev/null; then
  echo "trace_browser_test: SKIPPED: chromium or python3 not installed (Debian: apt-get install chromium python3)"
  echo "trace_browser: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
fi
browse() { # browse URL ARGS... : headless Chromium, its own profile, 1300x900 at scale 1
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --user-data-dir="$OUT/profile" \
    --force-device-scale-factor=1 --window-size=1300,900 "${@:2}" "$1" 2>/dev/null
}
field() { # field NAME JSON : a number from a flat JSON object
  printf '%s' "$2" | grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2
}
panel() { # panel ID DOM : the text of element id="ID"
  printf '%s' "$2" | grep -o "id=\"$1\"[^>]*>[^<]*<" | head -1 | sed 's/.*>\([^<]*\)<$/\1/'
}
for algo in astar jps; do
  page="$OUT/trace-$algo.html"
  if "$CLI" trace "$MAP" 10 20 200 150 --algo $algo --html "$page" >"$OUT/trace-$algo.out"; then ok; else bad "$algo: lodestar trace failed"; continue; fi
  if grep -q 'https\?://' "$page" && grep -Eq '<(script|link|img)[^>]+(src|href)=' "$page"; then
    bad "$algo: the page loads something from outside"
  else ok; fi
  json=$("$CLI" path "$MAP" 10 20 200 150 --algo $algo --json)
  dom=$(browse "file://$page#step=END" --dump-dom)
  for k in expansions cells cost; do
    want=$(field $k "$json") got=$(panel "p-$k" "$dom")
    # the panel shows the cost to 6 significant digits; the JSON has all 17
    if [ -n "$want" ] && { [ "$want" = "$got" ] || { [ $k = cost ] && python3 -c 'import sys
w, g = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(w - g) > 5e-6 * max(1.0, abs(w)))' "$want" "$got" 2>/dev/null; }; }; then ok
    else bad "$algo: panel $k '$got', lodestar path --json says '$want'"; fi
  done
  steps=$(panel p-steps "$dom") step=$(panel p-step "$dom")
  if [ "$step" = "$(field expansions "$json")" ] && [ "$steps" = "$step" ]; then ok; else bad "$algo: #step=END shows step $step of $steps"; fi
  dom7=$(browse "file://$page#step=7" --dump-dom)
  if [ "$(panel p-step "$dom7")" = 7 ]; then ok; else bad "$algo: #step=7 shows step '$(panel p-step "$dom7")'"; fi
  scale=$(printf '%s' "$dom" | grep -o 'data-scale="[0-9]*"' | grep -o '[0-9]*')
  if [ -n "$scale" ] && [ "$scale" -ge 1 ]; then ok; else bad "$algo: no data-scale on the canvas"; continue; fi
  # the centre pixel of each path cell but the first and last
  pts=$(printf '%s' "$json" | grep -o '"path":\[\[[^a-z]*\]\]' | grep -o '\[[0-9]*,[0-9]*\]' | sed '1d;$d' |
    tr -d '[]' | awk -F, -v s="$scale" '{ printf "%d %d ", $1 * s + s / 2, $2 * s + s / 2 }')
  n=$(printf '%s' "$json" | grep -o '"cells":[0-9]*' | cut -d: -f2)
  for at in END 0; do
    shot="$OUT/trace-$algo-$at.png"
    rm -f "$shot"
    browse "file://$page#step=$at" --screenshot="$shot" >/dev/null
    # shellcheck disable=SC2086
    cols=$(python3 "$HERE/png_read.py" "$shot" $pts) || { bad "$algo: cannot read the screenshot $shot"; continue; }
    hits=$(printf '%s\n' "$cols" | grep -c '^#ff00c8$')
    if [ "$at" = END ]; then
      if [ "$hits" -eq $((n - 2)) ] && [ "$hits" -gt 10 ]; then ok; else bad "$algo: $hits of $((n - 2)) path cells in the path colour at the end"; fi
    else
      if [ "$hits" -eq 0 ]; then ok; else bad "$algo: $hits path cells in the path colour before any expansion"; fi
    fi
  done
done
# the demo host's page: its panel against the demo's own --json summary
demo_page="$OUT/demo.html"
if demo_json=$("$CLI" demo --frames 300 --agents 40 --deterministic --json --html "$demo_page" | tail -1); then ok; else bad "lodestar demo --html failed"; fi
dom=$(browse "file://$demo_page" --dump-dom)
for pair in frames:p-frames budget_us:p-budget expansions_total:p-expansions frame_us_p99:p-p99; do
  want=$(field "${pair%%:*}" "$demo_json") got=$(panel "${pair#*:}" "$dom")
  if [ -n "$want" ] && [ "$want" = "$got" ]; then ok; else bad "demo page ${pair#*:} '$got', demo --json ${pair%%:*} '$want'"; fi
done
echo "trace_browser: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
