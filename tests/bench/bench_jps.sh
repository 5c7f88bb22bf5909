#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_jps.sh — A* vs JPS vs JPS+ on every Moving AI map in $SHARED/data/movingai,
# plus PathFinding.js JumpPointFinder on the same queries ($SHARED/bench/peers).
#
# For each map: queries, total ms and median µs per query for A*, JPS and JPS+
# (`lodestar scen --json`: start + run + full path, one reused search per map;
# the JPS/JPS+ preprocessing is untimed and listed apart), expansions per
# query, and the speed ratios of the totals. Exit status 1 if any algorithm
# reports a mismatch.
#
# Settings (environment):
#   QUICK=1     sample: --stride ${STRIDE:-10} --limit ${LIMIT:-300} per scen file
#   STRIDE, LIMIT  explicit sampling (0 = all); default all queries
#   MAPS="brc202d maze512-32-0"  only these maps (scen basenames without .map.scen)
#   NO_PEERS=1  skip PathFinding.js
#   ROUNDS=N    runs of each lodestar algorithm; the smallest total is kept (3)
#   WALL=1      time lodestar with the wall clock (default: --cpu-clock, the
#               thread's CPU time, so other jobs on a shared machine do not
#               inflate the numbers; the PathFinding.js ratio always compares
#               wall clock with wall clock, measured back to back)
#   PF_ROUNDS=N alternating rounds of PathFinding.js then our JPS (wall clock)
#               per map; each side keeps its smallest total (3; one round
#               moved the ratio by up to 30% between runs)
#   LODESTAR    the CLI (default build/lodestar), SHARED (default ../shared)
set -eu

LODESTAR=${LODESTAR:-build/lodestar}
SHARED=${SHARED:-../shared}
SCEN_DIR=$(cd "$SHARED/data/movingai/scen" 2>/dev/null && pwd) || SCEN_DIR=$SHARED/data/movingai/scen
MAPS_DIR=$(cd "$SHARED/data/movingai/maps" 2>/dev/null && pwd) || MAPS_DIR=$SHARED/data/movingai/maps
PEERS_SRC=$SHARED/bench/peers
if [ "${QUICK:-0}" = 1 ]; then
  STRIDE=${STRIDE:-10}
  LIMIT=${LIMIT:-300}
else
  STRIDE=${STRIDE:-1}
  LIMIT=${LIMIT:-0}
fi

[ -x "$LODESTAR" ] || { echo "bench_jps: $LODESTAR not built (run make)" >&2; exit 2; }
[ -d "$SCEN_DIR" ] || { echo "bench_jps: no scen folder $SCEN_DIR" >&2; exit 2; }

# PathFinding.js: use the shared install, else a private copy under build/peers.
PEERS=""
if [ "${NO_PEERS:-0}" != 1 ] && command -v node >/dev/null 2>&1; then
  if [ -d "$PEERS_SRC/node_modules/pathfinding" ]; then
    PEERS=$(cd "$PEERS_SRC" && pwd)
  elif [ -f "$PEERS_SRC/package-lock.json" ]; then
    mkdir -p build/peers
    cp -R "$PEERS_SRC"/. build/peers/
    (cd build/peers && npm ci --silent >/dev/null 2>&1) && PEERS=$(cd build/peers && pwd)
  fi
fi

# jget KEY JSONLINE: the value of a flat numeric/string field
jget() { printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else printf "-" }'; }

ROUNDS=${ROUNDS:-3}
CLOCK_OPT=--cpu-clock
[ "${WALL:-0}" = 1 ] && CLOCK_OPT=""
lscen1() { # ALGO SCEN [CLOCK_OPT] -> JSON line
  "$LODESTAR" scen "$2" --maps "$MAPS_DIR" --algo "$1" --stride "$STRIDE" --limit "$LIMIT" \
    ${3:-} --json 2>/dev/null | tail -1
}
# lscen ALGO SCEN [CLOCK_OPT]: the run with the smallest total of ROUNDS runs
# (other jobs on a shared machine only ever add time; a run of a few ms moves
# by +-40% from one try to the next)
lscen() {
  best="" r=0
  while [ "$r" -lt "$ROUNDS" ]; do
    line=$(lscen1 "$@")
    if [ -z "$best" ] || awk -v a="$(jget total_ms "$line")" -v b="$(jget total_ms "$best")" \
         'BEGIN { exit !(a < b) }'; then best=$line; fi
    r=$((r + 1))
  done
  printf '%s\n' "$best"
}

echo "# bench_jps: A* vs JPS vs JPS+ (lodestar), PathFinding.js JumpPointFinder"
echo "# stride $STRIDE, limit $LIMIT (0 = all); times: total ms over the queries, median us/query"
echo "# lodestar clock: $( [ -n "$CLOCK_OPT" ] && echo 'thread CPU time (--cpu-clock)' || echo wall ), best of $ROUNDS runs"
echo "# host: $(uname -m), $(nproc 2>/dev/null || echo '?') cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
printf '| %-16s | %5s | %9s %8s | %8s %7s | %8s %7s | %8s %6s %6s | %6s %6s | %8s %7s | %5s | %9s |\n' \
  map queries astar_ms a_med_us jps_ms j_med jps+_ms p_med exp_a/q exp_j/q exp_p/q \
  A*/JPS JPS/J+ pfjs_ms pfjs/J misms prep_ms/MB
printf '|%s|\n' "------------------|-------|--------------------|------------------|------------------|--------------------------|---------------|------------------|-------|-----------|"

fail=0
for scen in "$SCEN_DIR"/*.map.scen; do
  name=$(basename "$scen" .map.scen)
  if [ -n "${MAPS:-}" ]; then
    case " $MAPS " in *" $name "*) ;; *) continue ;; esac
  fi
  a=$(lscen astar "$scen" $CLOCK_OPT)
  j=$(lscen jps "$scen" $CLOCK_OPT)
  p=$(lscen jps+ "$scen" $CLOCK_OPT)
  q=$(jget queries "$j")
  mis=$(( $(jget mismatches "$a") + $(jget mismatches "$j") + $(jget mismatches "$p") ))
  [ "$mis" = 0 ] || fail=1
  pf_ms="-"
  pf_ratio="-"
  if [ -n "$PEERS" ]; then
    # PF_ROUNDS alternating rounds: PathFinding.js, then our JPS right after
    # it (wall clock both); the smallest total of each side is kept
    pf_best="" jw_best="" r=0
    while [ "$r" -lt "${PF_ROUNDS:-3}" ]; do
      pf=$(cd "$PEERS" && node pfjs_bench.js "$scen" "$MAPS_DIR" --algo jps --stride "$STRIDE" \
             $( [ "$LIMIT" != 0 ] && echo --limit "$LIMIT" ) --warmup 100 2>/dev/null | tail -1) || pf=""
      jw=$(lscen1 jps "$scen")
      if [ -n "$pf" ] && [ "$(jget queries "$pf")" = "$q" ]; then
        v=$(jget total_ms "$pf")
        if [ -z "$pf_best" ] || awk -v a="$v" -v b="$pf_best" 'BEGIN { exit !(a < b) }'; then pf_best=$v; fi
      fi
      v=$(jget total_ms "$jw")
      if [ -z "$jw_best" ] || awk -v a="$v" -v b="$jw_best" 'BEGIN { exit !(a < b) }'; then jw_best=$v; fi
      r=$((r + 1))
    done
    if [ -n "$pf_best" ]; then
      pf_ms=$pf_best
      pf_ratio=$(ratio "$pf_ms" "$jw_best")
    fi
  fi
  printf '| %-16s | %5s | %9.1f %8.1f | %8.2f %7.1f | %8.2f %7.1f | %8.0f %6.0f %6.0f | %6s %6s | %8s %7s | %5s | %4.1f/%4.1f |\n' \
    "$name" "$q" "$(jget total_ms "$a")" "$(jget median_us "$a")" \
    "$(jget total_ms "$j")" "$(jget median_us "$j")" \
    "$(jget total_ms "$p")" "$(jget median_us "$p")" \
    "$(awk -v e="$(jget expansions "$a")" -v n="$q" 'BEGIN{print (n>0)?e/n:0}')" \
    "$(awk -v e="$(jget expansions "$j")" -v n="$q" 'BEGIN{print (n>0)?e/n:0}')" \
    "$(awk -v e="$(jget expansions "$p")" -v n="$q" 'BEGIN{print (n>0)?e/n:0}')" \
    "$(ratio "$(jget total_ms "$a")" "$(jget total_ms "$j")")" \
    "$(ratio "$(jget total_ms "$j")" "$(jget total_ms "$p")")" \
    "$pf_ms" "$pf_ratio" "$mis" \
    "$(awk -v u="$(jget prep_us "$p")" 'BEGIN{print u/1000}')" \
    "$(awk -v b="$(jget prep_bytes "$p")" 'BEGIN{print b/1048576}')"
done
echo "# A*/JPS = A* total / JPS total; JPS/J+ = JPS total / JPS+ total; pfjs/J = PathFinding.js"
echo "# JumpPointFinder (OnlyWhenNoObstacles, octile) total / our JPS total, same queries"
echo "# (pfjs times only findPath, after 100 warm-up queries, wall clock; ours time"
echo "# start+run+path, wall clock, run right after it; best of ${PF_ROUNDS:-3} alternating rounds each)."
echo "# prep = JPS+ preprocessing (bit grids + jump tables), untimed in the totals."
exit $fail
