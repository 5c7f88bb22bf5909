#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_costview.sh — issue 18's measure of two agent classes in one
# scheduler, before and after cost views: Berlin_0_1024 with two cost
# layers, 400 requests alternating two layer-weight sets, a 1000 µs budget
# per frame (build/bench_costview, tests/bench/bench_costview.c). Prints, for
# this tree ("after") and for the library of git ref $BASE ("before", built
# from `git archive` in a temporary folder): frames, frames over 1.1x the
# budget (thread CPU time of the tick), tick CPU mean and max, and the time
# of one weighted search start (same weights, other weights, after one
# set_blocked).
#
# Settings (environment):
#   BASE=ref         the "before" library (default main); NO_BEFORE=1 skips it
#   QUICK=1          100 requests instead of 400
#   COSTVIEW_BENCH   the program (default build/bench_costview), SHARED (../shared)
set -eu

SHARED=${SHARED:-../shared}
BENCH=${COSTVIEW_BENCH:-build/bench_costview}
MAP=$SHARED/data/movingai/maps/Berlin_0_1024.map
BASE=${BASE:-main}
NREQ=400
[ "${QUICK:-0}" = 1 ] && NREQ=100
if [ ! -f "$MAP" ]; then
  echo "bench_costview: skipped ($MAP not found)"
  exit 0
fi
[ -x "$BENCH" ] || make -s "$BENCH"

echo "after (this tree, $(git rev-parse --short HEAD 2>/dev/null || echo '?')):"
"$BENCH" "$MAP" "$NREQ" 1000

if [ "${NO_BEFORE:-0}" != 1 ] && git rev-parse --verify -q "$BASE^{commit}" >/dev/null; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  git archive "$BASE" | tar -x -C "$tmp"
  make -C "$tmp" -s -j2 build/liblodestar.a build/liblodestar_io.a >/dev/null 2>&1
  ${CC:-cc} -std=c11 -O2 -I"$tmp/core" -I"$tmp/io" -o "$tmp/bench_before" \
    tests/bench/bench_costview.c "$tmp/build/liblodestar_io.a" "$tmp/build/liblodestar.a" -lm -lz
  echo "before ($BASE, $(git rev-parse --short "$BASE")):"
  "$tmp/bench_before" "$MAP" "$NREQ" 1000
else
  echo "before: skipped (NO_BEFORE=1 or no git ref $BASE)"
fi
