#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_edits.sh — edits under the scheduler (issue 18's measure,
# docs/scheduler.md "Edits"): AR0011SR, 200 requests (every k-th problem of
# its .scen), a 500 µs budget per frame, one cell near a corner whose cost
# changes every frame, and every 10 frames (costs 2 <-> 3; also 1 <-> 2,
# which flips the grid between uniform and not). Prints stale requests,
# frames to finish all, expansions, restarts, non-optimal paths (each
# delivered path against a one-shot A* on the grid at delivery). Fails when
# a request ends stale or a path is not optimal.
#
# usage: tests/bench/bench_edits.sh   (from the repo root; SHARED may be set;
#        BASELINE=/path/to/an/other/checkout with its build/ done measures
#        that library too, e.g. BASELINE=/work/main for "before")
set -u
SHARED=${SHARED:-../shared}
CC=${CC:-cc}
MAP="$SHARED/data/movingai/maps/AR0011SR.map"
SCEN="$SHARED/data/movingai/scen/AR0011SR.map.scen"
BIN=build/bench_edits
status=0

if [ ! -f build/liblodestar.a ] || [ ! -f build/liblodestar_io.a ]; then
  echo "bench_edits: build/liblodestar.a not built (run make)" >&2
  exit 2
fi
if [ ! -f "$MAP" ] || [ ! -f "$SCEN" ]; then
  echo "bench_edits: $MAP or $SCEN not found (set SHARED)" >&2
  exit 2
fi
$CC -O2 -std=c11 -DLDS_HAVE_EDIT_STATS -Icore -Iio -o "$BIN" tests/bench/bench_edits.c build/liblodestar_io.a \
  build/liblodestar.a -lm -lz || exit 2
if [ -n "${BASELINE:-}" ]; then
  $CC -O2 -std=c11 -I"$BASELINE/core" -I"$BASELINE/io" -o build/bench_edits_baseline \
    tests/bench/bench_edits.c "$BASELINE/build/liblodestar_io.a" "$BASELINE/build/liblodestar.a" \
    -lm -lz || exit 2
fi

jget() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

echo "== bench_edits: AR0011SR, 200 requests, 500 us budget, one cell's cost changed every E frames"
echo "   load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '   %-9s %-6s %-6s %6s %7s %11s %9s %11s   %-28s\n' build every costs stale frames expansions restarts nonoptimal \
  "deterministic: stale frames"
for spec in "1 2,3" "10 2,3" "1 1,2" "1 2,3 --random" "1000000 2,3"; do
  set -- $spec
  extra=${3:-}
  for b in after baseline; do
    if [ $b = after ]; then bin=$BIN; else
      [ -n "${BASELINE:-}" ] || continue
      bin=build/bench_edits_baseline
    fi
    out=$("$bin" "$MAP" "$SCEN" --requests 200 --budget-us 500 --every "$1" --costs "$2" $extra |
      grep '"requests"')
    det=$("$bin" "$MAP" "$SCEN" --requests 200 --budget-us 500 --every "$1" --costs "$2" $extra \
      --deterministic | grep '"requests"')
    every=$1
    [ "$1" = 1000000 ] && every=once
    [ -n "$extra" ] && every="$1,rnd"
    printf '   %-9s %-6s %-6s %6s %7s %11s %9s %11s   %6s %6s\n' $b "$every" "$2" "$(jget "$out" stale)" \
      "$(jget "$out" frames)" "$(jget "$out" expansions)" "$(jget "$out" restarts)" \
      "$(jget "$out" nonoptimal)" "$(jget "$det" stale)" "$(jget "$det" frames)"
    if [ $b = after ]; then
      if [ "$(jget "$out" stale)" != 0 ] || [ "$(jget "$out" nonoptimal)" != 0 ] ||
         [ "$(jget "$out" unfinished)" != 0 ] || [ "$(jget "$det" stale)" != 0 ] ||
         [ "$(jget "$det" nonoptimal)" != 0 ]; then
        echo "bench_edits: FAILED ($out)"
        status=1
      fi
    fi
  done
done
echo "   (N,rnd: a random passable cell each time, inside searches in progress;"
echo "    every=once: one edit at frame 0 only, the cost of the searches without edits;"
echo "    deterministic: the budget counted as 2000 expansions per frame, frames repeat exactly)"
[ $status = 0 ] && echo "bench_edits: ok (0 stale, every path optimal at delivery)"
exit $status
