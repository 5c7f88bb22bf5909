#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_graph.sh — A* with the great-circle heuristic (automatic consistent
# scale) versus Dijkstra on the DIMACS road graphs of ../shared/data/roads:
# expansions and time ratios, load time, bytes per node and per arc.
# Each graph: its 200 queries per algorithm, REPEAT times (default 3); the
# run with the median total time is reported (the machine may be shared).
# Run from the repository root after `make` (tests/bench/run_bench.sh does).
#   BUILD=build SHARED=../shared REPEAT=3 tests/bench/bench_graph.sh
set -eu
BUILD=${BUILD:-build}
SHARED=${SHARED:-../shared}
REPEAT=${REPEAT:-3}
CLI="$BUILD/lodestar"
ROADS="$SHARED/data/roads"
[ -x "$CLI" ] || { echo "bench_graph: $CLI not built (run make)" >&2; exit 2; }
[ -d "$ROADS" ] || { echo "bench_graph: $ROADS not found (set SHARED)" >&2; exit 2; }

# key FIELD JSON -> the value of "FIELD" in a one-line JSON object
key() { printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
# run ARGS... -> the JSON line of the run with the median total_ms of REPEAT runs
run() {
  i=0; all=""
  while [ "$i" -lt "$REPEAT" ]; do
    j=$("$CLI" graph "$@" --json | tail -n 1) || return 1
    all="$all$(key total_ms "$j") $j
"
    i=$((i + 1))
  done
  printf '%s' "$all" | sort -n | sed -n "$(( (REPEAT + 1) / 2 ))p" | cut -d' ' -f2-
}

fail=0
echo "== bench_graph: A* (great-circle h, automatic scale) vs Dijkstra, 200 queries per graph, median of $REPEAT runs =="
printf '%-11s %7s %7s %8s %9s %6s %6s | %11s %11s %6s | %9s %9s %6s | %8s %8s\n' \
  graph nodes arcs load_ms scale B/node B/arc astar_exp dijk_exp exp_x astar_med dijk_med med_x \
  astar_ms dijk_ms
for g in ny1000 monaco andorra luxembourg; do
  [ -f "$ROADS/$g.gr" ] || continue
  a=$(run "$ROADS/$g.gr" --co "$ROADS/$g.co" --queries "$ROADS/$g.queries" --algo astar) || fail=1
  d=$(run "$ROADS/$g.gr" --co "$ROADS/$g.co" --queries "$ROADS/$g.queries" --algo dijkstra) || fail=1
  for j in "$a" "$d"; do [ "$(key mismatches "$j")" = 0 ] || { echo "bench_graph: $g mismatches" >&2; fail=1; }; done
  printf '%-11s %7s %7s %8s %9.6f %6s %6s | %11s %11s %6s | %9s %9s %6s | %8s %8s\n' "$g" \
    "$(key nodes "$a")" "$(key arcs "$a")" "$(key load_ms "$a")" "$(key h_scale "$a")" \
    "$(key bytes_per_node "$a")" "$(key bytes_per_edge "$a")" \
    "$(key expansions "$a")" "$(key expansions "$d")" \
    "$(ratio "$(key expansions "$d")" "$(key expansions "$a")")" \
    "$(key median_us "$a")" "$(key median_us "$d")" \
    "$(ratio "$(key median_us "$d")" "$(key median_us "$a")")" \
    "$(key total_ms "$a")" "$(key total_ms "$d")"
done
echo "(exp_x = Dijkstra expansions / A* expansions; med_x = Dijkstra median us / A* median us)"
echo "== graphs without coordinates (zero heuristic = Dijkstra) =="
printf '%-11s %7s %7s %8s %6s %6s | %11s %9s %8s\n' graph nodes arcs load_ms B/node B/arc \
  expansions median_us total_ms
for g in rome99 bremen; do
  [ -f "$ROADS/$g.gr" ] || continue
  d=$(run "$ROADS/$g.gr" --queries "$ROADS/$g.queries" --algo dijkstra) || fail=1
  [ "$(key mismatches "$d")" = 0 ] || { echo "bench_graph: $g mismatches" >&2; fail=1; }
  printf '%-11s %7s %7s %8s %6s %6s | %11s %9s %8s\n' "$g" "$(key nodes "$d")" "$(key arcs "$d")" \
    "$(key load_ms "$d")" "$(key bytes_per_node "$d")" "$(key bytes_per_edge "$d")" \
    "$(key expansions "$d")" "$(key median_us "$d")" "$(key total_ms "$d")"
done
exit $fail
