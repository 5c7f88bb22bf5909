#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_navmesh.sh — `lodestar mesh` (funnel, funnel --fast and optimal) against the Detour
# runner (findNearestPoly + findPath + findStraightPath, Debian's
# librecast-dev) on the same .queries files of ../shared/data/navmesh, in the
# same run: median µs per query of each, their ratio, and the quality columns
# (funnel paths longer than Detour's; optimal mismatches against opt_len).
# The four runs of one mesh follow each other (same machine load); each is
# repeated REPEAT times (default 3) and the run with the median median_us is
# kept. The Detour runner is built from ../shared/bench/peers/detour into
# $BUILD/peers when librecast-dev is installed (make deps), else its column
# reads "-".
#   BUILD=build SHARED=../shared REPEAT=3 tests/bench/bench_navmesh.sh
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
REPEAT=${REPEAT:-3}
CLI="$BUILD/lodestar"
DATA="$SHARED/data/navmesh"
PEER_SRC="$SHARED/bench/peers/detour"
DETOUR="$BUILD/peers/detour_bench"
[ -x "$CLI" ] || { echo "bench_navmesh: $CLI not built (run make)" >&2; exit 2; }
[ -d "$DATA" ] || { echo "bench_navmesh: $DATA not found (set SHARED)" >&2; exit 2; }

if [ ! -x "$DETOUR" ] && [ -f /usr/include/recastnavigation/DetourNavMesh.h ]; then
  mkdir -p "$BUILD/peers"
  V=$(dpkg-query -W -f='${Version}' librecast-dev 2>/dev/null || echo unknown)
  c++ -DPEER_RECAST_VERSION="\"$V\"" -O2 -std=c++17 -ffp-contract=off -I"$SHARED/bench/peers" \
    -I/usr/include/recastnavigation -o "$DETOUR" "$PEER_SRC/detour_bench.cpp" -lDetour -lm
fi

key() { printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0 && a != "-") printf "%.2f", a / b; else print "-" }'; }
# median_of CMD... -> the JSON line with the median median_us of REPEAT runs
median_of() {
  i=0; all=""
  while [ "$i" -lt "$REPEAT" ]; do
    j=$("$@" 2>/dev/null | tail -n 1) || true
    all="$all$(key median_us "$j") $j
"
    i=$((i + 1))
  done
  printf '%s' "$all" | sort -n | sed -n "$(( (REPEAT + 1) / 2 ))p" | cut -d' ' -f2-
}

echo "navmesh queries: median µs per query (point location + search + path), same run, REPEAT=$REPEAT"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| mesh | queries | Detour µs | funnel µs | Detour / funnel | funnel longer than Detour | fast µs | Detour / fast | fast longer than Detour | optimal µs | Detour / optimal | optimal mismatches |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
fail=0
for nav in "$DATA"/2d/*.nav "$DATA"/3d/*.nav; do
  q="${nav%.nav}.queries"
  [ -f "$q" ] || continue
  name=$(basename "$(dirname "$nav")")/$(basename "$nav" .nav)
  if [ -x "$DETOUR" ]; then
    dj=$(median_of "$DETOUR" "$nav" "$q" --quiet --warmup 100)
    d=$(key median_us "$dj")
  else
    d="-"
  fi
  fj=$(median_of "$CLI" mesh "$nav" --queries "$q" --warmup 100 --json)
  sj=$(median_of "$CLI" mesh "$nav" --queries "$q" --warmup 100 --fast --json)
  oj=$(median_of "$CLI" mesh "$nav" --queries "$q" --warmup 100 --algo optimal --json)
  f=$(key median_us "$fj")
  o=$(key median_us "$oj")
  fs=$(key median_us "$sj")
  mism=$(key mismatches_vs_opt "$oj")
  [ -n "$mism" ] || mism="-"
  echo "| $name | $(key queries "$fj") | $d | $f | $(ratio "$d" "$f") | $(key longer_than_detour "$fj") of $(key reached "$fj") | $fs | $(ratio "$d" "$fs") | $(key longer_than_detour "$sj") of $(key reached "$sj") | $o | $(ratio "$d" "$o") | $mism |"
  case "$mism" in ''|-|0) ;; *) fail=1 ;; esac
  [ "$(key illegal "$fj")" = 0 ] && [ "$(key illegal "$sj")" = 0 ] && [ "$(key illegal "$oj")" = 0 ] || fail=1
done
exit $fail
