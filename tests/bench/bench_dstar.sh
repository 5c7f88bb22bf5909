#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_dstar.sh — D* Lite vs A* replanning from scratch: the
# navigation simulation `lodestar dstar MAP --scen FILE --unknown --sensor R
# --json` on the Dragon Age: Origins maps and the random maps of
# $SHARED/data/movingai, with sensor radius 3 and 7.
#
#   tests/bench/bench_dstar.sh          (from the repository root; run_bench.sh calls it)
#
# Environment:
#   QUICK=1     5 queries per map and 3 maps (smoke run); default 20 queries, 8 maps
#   QUERIES=N   queries per map (evenly spaced over the scen file, all lengths)
#   MAPS="…"    maps (default: the 6 DAO maps + random512-10-0 random512-40-0)
#   SENSORS="…" sensor radii (default "3 7")
#   SHARED, LDS ../shared, build/lodestar
#
# Each run prints one row: queries, goals reached by both agents, travelled
# cost mismatches (see docs/dstar.md: equal-cost plans differ by tie-breaking,
# so travelled costs may differ; the plans themselves are checked optimal by
# the differential test and by `lodestar dstar --check`), total expansions of
# each agent and the ratio A*/D* Lite (total and median per query), planning
# time and its ratio. Targets: expansion ratio >= 10 and time ratio >= 5.
# Exit 1 when an agent fails to reach a goal, makes an illegal move or a run
# fails; a missed ratio target is reported, not failed (timings depend on the
# machine's load).
set -u
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
SHARED="${SHARED:-../shared}"
LDS="${LDS:-build/lodestar}"
DATA="$SHARED/data/movingai"
QUICK="${QUICK:-0}"
if [ "$QUICK" = 1 ]; then
  QUERIES="${QUERIES:-5}"
  MAPS="${MAPS:-arena den011d random512-40-0}"
else
  QUERIES="${QUERIES:-20}"
  MAPS="${MAPS:-arena brc202d den011d hrt201n lak303d ost003d random512-10-0 random512-40-0}"
fi
SENSORS="${SENSORS:-3 7}"
FAILED=0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/bench_dstar.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

[ -x "$LDS" ] || { echo "bench_dstar: $LDS not built (run make)" >&2; exit 2; }
if [ ! -d "$DATA/scen" ]; then
  echo "bench_dstar: $DATA not found: skipped (set SHARED=...)"
  exit 0
fi

# field NAME JSON -> value of a flat JSON object's key
field() { sed -n "s/.*\"$1\":\\([^,}]*\\).*/\\1/p" <<<"$2"; }

echo "D* Lite vs A* replanning from scratch: lodestar dstar --unknown --sensor R --json"
echo "$QUERIES queries per map, evenly spaced over each scen file; load average $(cut -d' ' -f1 /proc/loadavg)"
for R in $SENSORS; do
  echo
  echo "sensor radius $R"
  printf '  %-16s %4s %5s %6s %12s %12s %8s %8s %10s %10s %7s %7s\n' map q reach cost≠ \
    dstar_exp astar_exp exp_x med_x dstar_ms astar_ms time_x med_x
  tq=0 treach=0 tmis=0 tde=0 tae=0 tdm=0 tam=0
  for m in $MAPS; do
    map="$DATA/maps/$m.map" scen="$DATA/scen/$m.map.scen"
    [ -f "$map" ] || { echo "  $m: map not found"; FAILED=1; continue; }
    out="$TMP/$m.$R.out"
    "$LDS" dstar "$map" --scen "$scen" --limit "$QUERIES" --unknown --sensor "$R" --json \
      >"$out" 2>"$TMP/err"
    rc=$?
    j="$(tail -n 1 "$out")"
    if [ $rc != 0 ] || [ "${j:0:1}" != "{" ]; then
      echo "  $m: FAILED (exit $rc): $(head -c 300 "$TMP/err")"
      FAILED=1
      continue
    fi
    q=$(field queries "$j") reach=$(field reached "$j") mis=$(field cost_mismatches "$j")
    de=$(field dstar_expansions "$j") ae=$(field astar_expansions "$j")
    dm=$(field dstar_ms "$j") am=$(field astar_ms "$j")
    printf '  %-16s %4s %5s %6s %12s %12s %8.2f %8.2f %10.1f %10.1f %7.2f %7.2f\n' "$m" "$q" \
      "$reach" "$mis" "$de" "$ae" "$(field expansion_ratio "$j")" \
      "$(field expansion_ratio_median "$j")" "$dm" "$am" "$(field time_ratio "$j")" \
      "$(field time_ratio_median "$j")"
    [ "$reach" = "$q" ] || FAILED=1
    tq=$((tq + q)) treach=$((treach + reach)) tmis=$((tmis + mis))
    tde=$((tde + de)) tae=$((tae + ae))
    tdm=$(awk -v a="$tdm" -v b="$dm" 'BEGIN { print a + b }')
    tam=$(awk -v a="$tam" -v b="$am" 'BEGIN { print a + b }')
  done
  xr=$(awk -v a="$tae" -v b="$tde" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  tr=$(awk -v a="$tam" -v b="$tdm" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
  printf '  %-16s %4s %5s %6s %12s %12s %8s %8s %10.1f %10.1f %7s\n' "all" "$tq" "$treach" \
    "$tmis" "$tde" "$tae" "$xr" "" "$tdm" "$tam" "$tr"
  verdict=$(awk -v x="$xr" -v t="$tr" 'BEGIN { print (x >= 10 && t >= 5) ? "met" : "MISSED" }')
  echo "  target (expansions >= 10x, time >= 5x, all maps together): $verdict" \
    "(expansions ${xr}x, time ${tr}x)"
done
exit $FAILED
