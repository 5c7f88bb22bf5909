#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# cli_test.sh — tests of the `lodestar` command: bad input gives exactly one
# line on stderr naming the argument/file/line and exit status 2; `scen
# --json` ends with one JSON object; `path --ascii` draws the path; the C
# snippet of README.md compiles with README's line and runs.
#
#   tests/cli_test.sh [build/lodestar]      (run from the repository root)
#
# Prints "N passed, N failed" and exits 1 on any failure.
set -u
LDS="${1:-build/lodestar}"
DATA="tests/data"
PASS=0 FAIL=0
TMP="$(mktemp -d "${TMPDIR:-/tmp}/lds_cli.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT

ok() { PASS=$((PASS + 1)); }
ko() { FAIL=$((FAIL + 1)); echo "FAIL cli: $*" >&2; }

# bad WANT_SUBSTRING ARGS... : exit 2, exactly one stderr line containing WANT
bad() {
  local want="$1" rc lines
  shift
  "$LDS" "$@" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  lines=$(wc -l <"$TMP/err")
  if [ "$rc" != 2 ]; then
    ko "lodestar $*: exit $rc, expected 2 (stderr: $(head -c 300 "$TMP/err"))"
  elif [ "$lines" != 1 ]; then
    ko "lodestar $*: $lines stderr lines, expected 1: $(head -c 300 "$TMP/err")"
  elif ! grep -qF -- "$want" "$TMP/err"; then
    ko "lodestar $*: stderr '$(cat "$TMP/err")' lacks '$want'"
  else
    ok
  fi
}

# json_field FILE KEY : prints the value of KEY in the last line of FILE
json_field() {
  python3 -c 'import json,sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(d[sys.argv[2]])' "$1" "$2"
}

[ -x "$LDS" ] || { echo "cli_test.sh: $LDS not built" >&2; echo "0 passed, 1 failed"; exit 1; }

# ---------------------------------------------------------------- bad input
bad "unknown command 'frob'" frob
bad "nofile.scen" scen "$TMP/nofile.scen"
bad "No such file or directory" scen "$TMP/nofile.scen"
# the message starts with the command, not with the library function's name
bad "lodestar scen: cannot open $TMP/nofile.scen (No such file or directory)" scen "$TMP/nofile.scen"
bad "lodestar path: cannot open $TMP/nofile.map (No such file or directory)" path "$TMP/nofile.map" 0 0 1 1
bad "--limit: expected an integer in 0..1000000000, got 'abc'" scen "$DATA/arena.map.scen" --limit abc
bad "--limit: expected an integer" scen "$DATA/arena.map.scen" --limit -3
bad "--stride: expected an integer in 1..1000000000, got '0'" scen "$DATA/arena.map.scen" --stride 0
bad "--weight: expected a number in 1..1e+09, got '0.5'" scen "$DATA/arena.map.scen" --algo wastar --weight 0.5
bad "--limit: missing value" scen "$DATA/arena.map.scen" --limit
bad "unknown option '--frobnicate'" scen "$DATA/arena.map.scen" --frobnicate
bad "--algo: unknown algorithm 'bfs'" scen "$DATA/arena.map.scen" --algo bfs
bad "unexpected argument 'extra.scen'" scen "$DATA/arena.map.scen" extra.scen
bad "map 'arena.map' not found in $TMP" scen "$DATA/arena.map.scen" --maps "$TMP"

printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n0\tarena.map\t49\t49\t1\t12\n' >"$TMP/short.scen"
bad "$TMP/short.scen:3: expected 9 fields" scen "$TMP/short.scen" --maps "$DATA"
printf 'version 1\n0\tarena.map\t49\t49\tx\t11\t1\t12\t1\n' >"$TMP/nan.scen"
bad "$TMP/nan.scen:2: field 5 (start x): expected a non-negative integer, got 'x'" scen "$TMP/nan.scen" --maps "$DATA"
printf 'version 1\n0\tarena.map\t49\t49\t49\t11\t1\t12\t1\n' >"$TMP/oob.scen"
bad "$TMP/oob.scen:2: start (49,11) or goal (1,12) outside the 49x49 map" scen "$TMP/oob.scen" --maps "$DATA"
printf 'bogus\n' >"$TMP/hdr.scen"
bad "$TMP/hdr.scen:1: expected 'version 1'" scen "$TMP/hdr.scen"
printf 'version 1\n0\tarena.map\t50\t49\t1\t11\t1\t12\t1\n' >"$TMP/size.scen"
bad "problem 1 expects a 50x49 map, arena.map is 49x49" scen "$TMP/size.scen" --maps "$DATA"
# ------------------------------------- a bad .scen row: FILE:LINE names it
# (blank lines are skipped, so problem 2 is on line 4)
printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n\n0\tarena.map\t50\t49\t1\t11\t1\t12\t1\n' >"$TMP/size2.scen"
bad "lodestar scen: $TMP/size2.scen:4: problem 2 expects a 50x49 map, arena.map is 49x49" scen "$TMP/size2.scen" --maps "$DATA"
bad "lodestar dstar: $TMP/size2.scen:4: problem 2 expects a 50x49 map, $DATA/arena.map is 49x49" dstar "$DATA/arena.map" --scen "$TMP/size2.scen"
printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n0\tnothere.map\t49\t49\t1\t11\t1\t12\t1\n' >"$TMP/nomap.scen"
bad "lodestar scen: $TMP/nomap.scen:3: problem 2: map 'nothere.map' not found in $DATA" scen "$TMP/nomap.scen" --maps "$DATA"
mkdir -p "$TMP/nm"
cp "$TMP/nomap.scen" "$DATA/arena.map" "$TMP/nm/"
bad "lodestar scen: $TMP/nm/nomap.scen:3: problem 2: map 'nothere.map' not found in $TMP/nm or ../maps beside it (use --maps DIR)" scen "$TMP/nm/nomap.scen"
# one map more than the command holds: the row that names the 65th
mkdir -p "$TMP/many"
printf 'version 1\n' >"$TMP/many/many.scen"
for k in $(seq 1 65); do
  printf 'type octile\nheight 1\nwidth 2\nmap\n..\n' >"$TMP/many/m$k.map"
  printf '0\tm%d.map\t2\t1\t0\t0\t1\t0\t1\n' "$k" >>"$TMP/many/many.scen"
done
bad "lodestar scen: $TMP/many/many.scen:66: problem 65: more than 64 different maps" scen "$TMP/many/many.scen"
# a NUL byte in a row: the reader names its line and exact offset
printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n0\tarena.map\t49\t49\t1\t1\0\t1\t12\t1\n' >"$TMP/nul.scen"
bad "lodestar scen: $TMP/nul.scen:3: binary data (a NUL byte at offset 61; expected a text file)" scen "$TMP/nul.scen" --maps "$DATA"
bad "lodestar dstar: $TMP/nul.scen:3: binary data (a NUL byte at offset 61; expected a text file)" dstar "$DATA/arena.map" --scen "$TMP/nul.scen"
printf 'type octile\nheight 3\nwidth 4\nmap\n....\n...\n....\n' >"$TMP/bad.map"
printf 'version 1\n0\tbad.map\t4\t3\t0\t0\t1\t1\t1.41421356\n' >"$TMP/bad.map.scen"
bad "$TMP/bad.map:6: map row 1 has 3 characters (expected 4)" scen "$TMP/bad.map.scen"
bad "$TMP/bad.map:6: map row 1 has 3 characters (expected 4)" path "$TMP/bad.map" 0 0 1 1
# a tiny file must not make the loaders allocate what its header declares
printf 'type octile\nheight 60000\nwidth 60000\nmap\n....\n' > "$TMP/huge.map"
bad "$TMP/huge.map:5: map row 0 has 4 characters (expected 60000)" path "$TMP/huge.map" 0 0 1 1
# endless sources (a pipe that never ends, /dev/zero) stop at the line the
# format does not allow, in memory bounded by one line
bad "lodestar scen: /dev/zero:1: binary data (a NUL byte at offset 0; expected a text file)" scen /dev/zero
bad "/dev/stdin:7: unexpected text after the 2 map rows" path /dev/stdin 0 0 1 1 \
  < <(printf 'type octile\nheight 2\nwidth 3\nmap\n'; yes '...')
bad "lodestar path: /dev/stdin:1: line longer than 65535 bytes (expected a header line" path /dev/stdin 0 0 1 1 \
  < <(tr '\0' 't' </dev/zero)
bad "/dev/stdin:1048578: more than 1048576 comment or blank lines (expected 'c', 'p' or 'a' lines)" \
  graph /dev/stdin --queries "$TMP/huge.queries" < <(printf 'p sp 2 1\n'; yes c)
bad "lodestar path: /dev/zero:1: binary data (a NUL byte at offset 0; expected a text file)" path /dev/zero 0 0 1 1
printf 'p sp 200000000 2\na 1 2 5\na 2 3 7\n' > "$TMP/huge.gr"
printf '1 2 5\n' > "$TMP/huge.queries"
bad "$TMP/huge.gr:1: the p line declares 200000000 nodes for 2 arcs" graph "$TMP/huge.gr" --queries "$TMP/huge.queries"

bad "nofile.map" path "$TMP/nofile.map" 0 0 1 1
bad "GX: expected an integer in 0..65534, got '1x'" path "$DATA/arena.map" 1 11 1x 12
bad "SY: expected an integer in 0..65534, got '-1'" path "$DATA/arena.map" 1 -1 1 12
bad "goal (100,12) out of bounds (map is 49x49)" path "$DATA/arena.map" 1 11 100 12
bad "start (49,0) out of bounds (map is 49x49)" path "$DATA/arena.map" 49 0 1 12
bad "--diagonal: unknown rule 'sometimes'" path "$DATA/arena.map" 1 11 1 12 --diagonal sometimes
bad "--heuristic: unknown heuristic 'l2'" path "$DATA/arena.map" 1 11 1 12 --heuristic l2
bad "--neighbourhood: expected 4 or 8, got '6'" path "$DATA/arena.map" 1 11 1 12 --neighbourhood 6
bad "--algo: unknown algorithm 'bfs'" path "$DATA/arena.map" 1 11 1 12 --algo bfs
bad "unknown option '--bogus'" path "$DATA/arena.map" 1 11 1 12 --bogus
bad "unexpected argument '7'" path "$DATA/arena.map" 1 11 1 12 7

# ------------------------------------------------ missing arguments, dirs
# one line naming what is missing, not the whole usage
bad "lodestar: missing COMMAND (usage: lodestar COMMAND [ARGS]; try 'lodestar --help')"
bad "lodestar path: missing GY (usage: lodestar path MAP SX SY GX GY ...; try 'lodestar path --help')" path "$DATA/arena.map" 1 3 40
bad "lodestar path: missing MAP (usage: lodestar path MAP SX SY GX GY" path
bad "lodestar scen: missing FILE.scen (usage: lodestar scen FILE.scen" scen
bad "lodestar scen: missing FILE.scen" scen --limit 3
bad "lodestar dstar: missing MAP (usage: lodestar dstar MAP" dstar
bad "lodestar dstar: missing MAP" dstar --unknown
bad "lodestar graph: missing FILE.gr (usage: lodestar graph FILE.gr --queries FILE" graph
bad "lodestar graph: missing --queries FILE (usage:" graph "$TMP/huge.gr"
bad "lodestar demo: --agents: missing value" demo --agents
# a directory where a file is expected: the reason, not just "cannot read"
mkdir -p "$TMP/adir"
bad "lodestar path: $TMP/adir: cannot read (Is a directory)" path "$TMP/adir" 1 1 1 1
bad "lodestar scen: $TMP/adir: cannot read (Is a directory)" scen "$TMP/adir"
bad "lodestar dstar: $TMP/adir: cannot read (Is a directory)" dstar "$TMP/adir"
bad "lodestar demo: $TMP/adir: cannot read (Is a directory)" demo --map "$TMP/adir"
# --weight only with wastar, in scen as in path
bad "lodestar scen: --weight applies to --algo wastar only (algorithm is astar)" scen "$DATA/arena.map.scen" --weight 3
bad "lodestar scen: --weight applies to --algo wastar only (algorithm is jps)" scen "$DATA/arena.map.scen" --algo jps --weight 3
bad "lodestar scen: --weight applies to --algo wastar only (algorithm is dijkstra)" scen "$DATA/arena.map.scen" --weight 2 --algo dijkstra

# ------------------------------------------- an option given twice: exit 2
# no option is meant to repeat; the last one used to win silently
# (`path ... --algo jps --algo astar` ran astar)
bad "lodestar path: --algo given twice (each option may be given once)" path "$DATA/arena.map" 1 11 1 12 --algo jps --algo astar
bad "lodestar path: --ascii given twice (each option may be given once)" path "$DATA/arena.map" 1 11 1 12 --ascii --partial --ascii
bad "lodestar scen: --limit given twice (each option may be given once)" scen "$DATA/arena.map.scen" --limit 5 --json --limit 6
bad "lodestar graph: --queries given twice (each option may be given once)" graph "$TMP/huge.gr" --queries a.q --queries b.q
bad "lodestar dstar: --sensor given twice (each option may be given once)" dstar "$DATA/arena.map" --sensor 3 --sensor 3
bad "lodestar demo: --mods given twice (each option may be given once)" demo --mods mods --watch --mods mods
bad "lodestar demo: --json given twice (each option may be given once)" demo --json --frames 1 --json
# a value that looks like an option is a value, not an occurrence
bad "lodestar demo: cannot open --json (No such file or directory)" demo --map --json --json
for c in path scen graph dstar demo; do
  "$LDS" $c --help | grep -qx 'Each option may be given once.' && ok || ko "lodestar $c --help does not say each option may be given once"
done
# every option of a usage line has a line of its own in --help
"$LDS" path --help | grep -q '^  --neighbourhood' && ok || ko "lodestar path --help does not describe --neighbourhood"

# ------------------------------------------------------- graph query files
# a 3-node graph 1 -> 2 -> 3
printf 'p sp 3 2\na 1 2 5\na 2 3 7\n' >"$TMP/tiny.gr"
printf '1 3 12\n' >"$TMP/tiny.q"
# the DIMACS loader words a missing file as the Moving AI loaders do
bad "lodestar graph: cannot open $TMP/nofile.gr (No such file or directory)" graph "$TMP/nofile.gr" --queries "$TMP/tiny.q"
"$LDS" graph "$TMP/tiny.gr" --queries "$TMP/tiny.q" --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && [ "$(json_field "$TMP/json" queries)" = 1 ] && [ "$(json_field "$TMP/json" mismatches)" = 0 ] &&
  ok || ko "graph tiny: exit $rc: $(cat "$TMP/err")"
# weighted A*: an explicit --weight 1 is honoured (optimal: 0 mismatches on
# arena), the default is 1.5 (19 of 160 costs above the optimum; exit 0:
# a bounded-suboptimal algorithm is not held to the optimum)
"$LDS" scen "$DATA/arena.map.scen" --algo wastar --weight 1 --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && [ "$(json_field "$TMP/json" mismatches)" = 0 ] && ok || ko "wastar --weight 1: exit $rc, $(tail -1 "$TMP/json")"
"$LDS" scen "$DATA/arena.map.scen" --algo wastar --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && [ "$(json_field "$TMP/json" mismatches)" = 19 ] && ok || ko "wastar default: exit $rc, $(tail -1 "$TMP/json")"
# an endless stream of valid queries: --limit N reads N of them and stops
# (the stream used to be read whole first); timeout only guards the harness
timeout 60 "$LDS" graph "$TMP/tiny.gr" --queries <(yes '1 3 12') --limit 5 --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && [ "$(json_field "$TMP/json" queries)" = 5 ] && ok ||
  ko "graph --limit on an endless query stream: exit $rc: $(head -c 200 "$TMP/err")"
# lines past --limit are not read, so not checked either
printf '1 3 12\n1 2 5\nnot a query\n' >"$TMP/limit.q"
"$LDS" graph "$TMP/tiny.gr" --queries "$TMP/limit.q" --limit 2 --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && [ "$(json_field "$TMP/json" queries)" = 2 ] && ok ||
  ko "graph --limit 2 before a bad line: exit $rc: $(head -c 200 "$TMP/err")"
bad "lodestar graph: $TMP/limit.q:3: expected 's t dist', got 'not a query'" graph "$TMP/tiny.gr" --queries "$TMP/limit.q"
# /dev/zero: an endless stream of NULs without a newline used to spin forever
bad "lodestar graph: /dev/zero:1: binary data (a NUL byte at offset 0; expected a text file)" \
  graph "$TMP/tiny.gr" --queries /dev/zero
bad "lodestar graph: $TMP/adir: cannot read (Is a directory)" graph "$TMP/tiny.gr" --queries "$TMP/adir"
bad "lodestar graph: --weight applies to --algo wastar only (algorithm is dijkstra)" graph "$TMP/tiny.gr" --queries "$TMP/tiny.q" --algo dijkstra --weight 2
# without --co the heuristic is zero: a user scale was silently ignored
bad "lodestar graph: --h-scale needs --co coordinates" graph "$TMP/tiny.gr" --queries "$TMP/tiny.q" --h-scale 5
"$LDS" graph "$TMP/tiny.gr" --queries "$TMP/tiny.q" --h-scale 0 >/dev/null 2>"$TMP/err" && ok ||
  ko "graph --h-scale 0 (automatic) without --co: $(cat "$TMP/err")"
"$LDS" graph --help | grep -q -- '--limit N .*(0 = all' && ok || ko "graph --help does not say --limit 0 means all"
# greedy's max error prints as the costs do (27040, not 2.704e+04)
printf 'p sp 3 3\na 1 2 27042\na 1 3 1\na 3 2 1\n' >"$TMP/detour.gr"
printf '1 2 2\n' >"$TMP/detour.q"
"$LDS" graph "$TMP/detour.gr" --queries "$TMP/detour.q" --algo greedy >"$TMP/out" 2>"$TMP/err"
grep -qF "(greedy is not optimal: 1 of 1 distances differ, max error 27040)" "$TMP/out" && ok ||
  ko "graph greedy max error: $(cat "$TMP/out" "$TMP/err")"
# a NaN distance prints as "nan" whatever its sign bit (printf wrote "-nan")
printf '1 3 -nan\n' >"$TMP/nan.q"
bad "lodestar graph: $TMP/nan.q:1: expected a distance >= 0 or -1, got nan" graph "$TMP/tiny.gr" --queries "$TMP/nan.q"
printf '\0\0\0\n1 3 12\n' >"$TMP/nul1.q"
bad "lodestar graph: $TMP/nul1.q:1: binary data (a NUL byte at offset 0; expected a text file)" graph "$TMP/tiny.gr" --queries "$TMP/nul1.q"
printf '1 3 12\n1 2\0 5\n' >"$TMP/nul2.q"
bad "lodestar graph: $TMP/nul2.q:2: binary data (a NUL byte at offset 10; expected a text file)" graph "$TMP/tiny.gr" --queries "$TMP/nul2.q"
: >"$TMP/empty.q"
bad "lodestar graph: $TMP/empty.q: no queries in the file (expected lines 's t dist')" graph "$TMP/tiny.gr" --queries "$TMP/empty.q"
printf 'c only a comment\n\n' >"$TMP/comment.q"
bad "lodestar graph: $TMP/comment.q: no queries in the file" graph "$TMP/tiny.gr" --queries "$TMP/comment.q"
# a line longer than the reader's buffer, without any newline
head -c 5000 /dev/zero | tr '\0' '1' >"$TMP/long.q"
bad "lodestar graph: $TMP/long.q:1: line longer than 511 characters" graph "$TMP/tiny.gr" --queries "$TMP/long.q"
# the echoed line ends before its "\r\n" (one stderr line, closing quote on it)
printf '1 3 12\r\nhello world\r\n' >"$TMP/garb.q"
bad "lodestar graph: $TMP/garb.q:2: expected 's t dist', got 'hello world'" graph "$TMP/tiny.gr" --queries "$TMP/garb.q"
printf '1 3 12\r\n2 3 7\r\n' >"$TMP/crlf.q"
"$LDS" graph "$TMP/tiny.gr" --queries "$TMP/crlf.q" --json >"$TMP/json" 2>"$TMP/err" &&
  [ "$(json_field "$TMP/json" queries)" = 2 ] && ok || ko "graph CRLF queries: $(cat "$TMP/err")"

# ------------------------------------------- blocked start/goal in a .scen
# arena.map (0,0) is 'T'; the blank line is skipped, so problem 2 is line 5
printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n\n\n0\tarena.map\t49\t49\t1\t11\t0\t0\t20\n' >"$TMP/blocked.scen"
bad "lodestar scen: $TMP/blocked.scen:5: problem 2: goal (0,0) is blocked on arena.map ('T'; expected a passable cell)" scen "$TMP/blocked.scen" --maps "$DATA"
bad "lodestar dstar: $TMP/blocked.scen:5: problem 2: goal (0,0) is blocked on $DATA/arena.map ('T'; expected a passable cell)" dstar "$DATA/arena.map" --scen "$TMP/blocked.scen"
printf 'version 1\n0\tarena.map\t49\t49\t0\t0\t1\t12\t20' >"$TMP/blocked2.scen"
bad "lodestar scen: $TMP/blocked2.scen:2: problem 1: start (0,0) is blocked on arena.map ('T'" scen "$TMP/blocked2.scen" --maps "$DATA" --algo jps
bad "lodestar dstar: $TMP/blocked2.scen:2: problem 1: start (0,0) is blocked" dstar "$DATA/arena.map" --scen "$TMP/blocked2.scen" --unknown

# the scen file cannot be read again to find the row's line (a pipe): the
# message names the file alone, not "FILE:0:"
cat "$TMP/blocked.scen" | bad "lodestar scen: /dev/stdin: problem 2: goal (0,0) is blocked on arena.map ('T'; expected a passable cell)" scen /dev/stdin --maps "$DATA"
cat "$TMP/blocked.scen" | bad "lodestar dstar: /dev/stdin: problem 2: goal (0,0) is blocked on $DATA/arena.map ('T'" dstar "$DATA/arena.map" --scen /dev/stdin

# ---------------------------------------- scen: no path is a failure for all
# a row whose goal the map walls off: every algorithm, optimal or not, exits
# 1 and names the row (wastar and greedy used to exit 0)
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' >"$TMP/wall.map"
printf 'version 1\n0\twall.map\t5\t3\t0\t1\t1\t1\t1\n0\twall.map\t5\t3\t0\t1\t4\t1\t4\n' >"$TMP/nopath.scen"
for algo in astar dijkstra wastar greedy jps jps+; do
  for j in "" --json; do
    "$LDS" scen "$TMP/nopath.scen" --algo "$algo" $j >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 1 ] && [ "$(cat "$TMP/err")" = "problem 2: (0,1)->(4,1) no path found, expected 4" ] &&
      { [ -n "$j" ] || grep -q "FAIL: 1 of 2 queries found no path" "$TMP/out"; } && ok ||
      ko "scen --algo $algo $j, a row without a path: exit $rc, stderr '$(cat "$TMP/err")', $(grep FAIL "$TMP/out")"
  done
done
# scen prints its max error as graph does (%.10g: 0.123456789, not 0.1235 or
# 0.123457), both for an optimal algorithm's FAIL line and a non-optimal one's
printf 'version 1\n0\twall.map\t5\t3\t0\t0\t1\t0\t1.123456789\n' >"$TMP/err.scen"
"$LDS" scen "$TMP/err.scen" --algo astar >"$TMP/out" 2>"$TMP/err"
grep -qF "FAIL: 1 of 1 costs differ from the optimal length (max |error| 0.123456789)" "$TMP/out" && ok ||
  ko "scen astar max |error|: $(grep -i error "$TMP/out")"
"$LDS" scen "$TMP/err.scen" --algo greedy >"$TMP/out" 2>"$TMP/err"
grep -qF "(greedy is not optimal: 1 of 1 costs differ from the optimum, max error 0.123456789)" "$TMP/out" && ok ||
  ko "scen greedy max error: $(grep -i error "$TMP/out")"
# graph likewise: a query the file gives a distance for (tiny.gr has no arc
# 3 -> 1) fails every algorithm; one the file marks -1 (unreachable) is fine
printf '1 3 12\n3 1 12\n' >"$TMP/nopath.q"
printf '1 3 12\n3 1 -1\n' >"$TMP/unreach.q"
printf '1 3 -1\n' >"$TMP/phantom.q"
for algo in astar dijkstra wastar greedy; do
  for j in "" --json; do
    "$LDS" graph "$TMP/tiny.gr" --queries "$TMP/nopath.q" --algo "$algo" $j >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 1 ] && [ "$(cat "$TMP/err")" = "query 2: 3->1 no path found, expected 12" ] &&
      { [ -n "$j" ] || grep -q "FAIL: 1 of 2 queries found no path" "$TMP/out"; } && ok ||
      ko "graph --algo $algo $j, a connected pair without a path: exit $rc, stderr '$(cat "$TMP/err")', $(grep FAIL "$TMP/out")"
    "$LDS" graph "$TMP/tiny.gr" --queries "$TMP/unreach.q" --algo "$algo" $j >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 0 ] && [ ! -s "$TMP/err" ] && ! grep -q FAIL "$TMP/out" && ok ||
      ko "graph --algo $algo $j, an unreachable pair expected unreachable: exit $rc, stderr '$(cat "$TMP/err")', $(grep FAIL "$TMP/out")"
    # a path found for a pair the file marks unreachable (1 -> 3 exists) fails too
    "$LDS" graph "$TMP/tiny.gr" --queries "$TMP/phantom.q" --algo "$algo" $j >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" = 1 ] && grep -q "^query 1: 1->3 found cost .*, expected unreachable$" "$TMP/err" &&
      { [ -n "$j" ] || grep -q "FAIL: 1 of 1 queries found a path the query file marks unreachable" "$TMP/out"; } && ok ||
      ko "graph --algo $algo $j, a path for a pair marked unreachable: exit $rc, stderr '$(cat "$TMP/err")', $(grep FAIL "$TMP/out")"
  done
done
"$LDS" graph --help >"$TMP/help" 2>&1
grep -q "query with no path found (for any algorithm" "$TMP/help" && ok ||
  ko "graph --help: the exit status does not say that no path exits 1 for any algorithm: $(grep -A5 '^Exit' "$TMP/help")"
"$LDS" scen --help >"$TMP/help" 2>&1
grep -q "^problem with no path found (for any algorithm" "$TMP/help" && ok ||
  ko "scen --help: the exit status does not say that no path exits 1 for any algorithm: $(grep -A5 '^Exit' "$TMP/help")"

# ------------------------------------------------------ dstar stderr quiet
# unknown terrain: the agents travel different (each optimal-so-far) costs in
# some queries; those lines appear only with --verbose
"$LDS" dstar "$DATA/arena.map" --unknown --limit 5 --json >"$TMP/json" 2>"$TMP/err"
rc=$?
diffs=$(json_field "$TMP/json" cost_mismatches)
[ "$rc" = 0 ] && [ "$diffs" -gt 0 ] && [ ! -s "$TMP/err" ] && ok ||
  ko "dstar --json: exit $rc, $diffs cost differences, stderr '$(head -c 300 "$TMP/err")' (expected empty)"
"$LDS" dstar "$DATA/arena.map" --unknown --limit 5 >/dev/null 2>"$TMP/err"
[ ! -s "$TMP/err" ] && ok || ko "dstar without --verbose wrote to stderr: $(head -c 300 "$TMP/err")"
"$LDS" dstar "$DATA/arena.map" --unknown --limit 5 --verbose >/dev/null 2>"$TMP/err"
[ "$(grep -c '^query [0-9]* (.*): D\* Lite travelled' "$TMP/err")" = "$diffs" ] && ok ||
  ko "dstar --verbose: expected $diffs 'travelled' lines: $(head -c 300 "$TMP/err")"
# a failed query is always reported (known terrain, goal walled off)
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' >"$TMP/wall.map"
printf 'version 1\n0\twall.map\t5\t3\t0\t1\t4\t1\t4\n' >"$TMP/wall.scen"
"$LDS" dstar "$TMP/wall.map" --scen "$TMP/wall.scen" --json >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -qx 'query 1 (0,1)->(4,1): D\* Lite did not reach the goal, A\* did not reach the goal' "$TMP/err" &&
  ok || ko "dstar unreachable goal: exit $rc, stderr '$(cat "$TMP/err")'"
# the same in unknown terrain: the agents learn the wall, then find no path (exit 1)
"$LDS" dstar "$TMP/wall.map" --scen "$TMP/wall.scen" --unknown --sensor 1 >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -q 'D\* Lite did not reach the goal, A\* did not reach the goal' "$TMP/err" &&
  ok || ko "dstar --unknown unreachable goal: exit $rc, stderr '$(cat "$TMP/err")'"
# the exit status as documented: an unreachable goal is no path, exit 1, as
# in `lodestar path` and `lodestar scen` (the help used to say "reachable")
"$LDS" dstar --help >"$TMP/help" 2>&1
grep -q "^Exit status: 0 every goal reached" "$TMP/help" &&
  grep -q "that the true map does not connect to the start" "$TMP/help" && ok ||
  ko "dstar --help: the exit status does not say that an unreachable goal exits 1: $(grep -A4 '^Exit' "$TMP/help")"

# ------------------------------------------------------------- scen --json
"$LDS" scen "$DATA/arena.map.scen" --json >"$TMP/json" 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ]; then ok; else ko "scen arena --json: exit $rc: $(head -c 300 "$TMP/err")"; fi
if python3 -c 'import json,sys
d = json.loads(open(sys.argv[1]).read().splitlines()[-1])
need = ["algo","queries","mismatches","max_abs_error","expansions","median_us","p99_us","total_ms"]
missing = [k for k in need if k not in d]
assert not missing, missing
assert d["algo"] == "astar", d["algo"]
assert d["queries"] > 0 and d["mismatches"] == 0 and d["expansions"] >= d["queries"]
assert 0 <= d["median_us"] <= d["p99_us"] and d["total_ms"] >= 0
assert d["max_abs_error"] < 1e-4
' "$TMP/json"; then ok; else ko "scen --json: last line not the expected JSON object: $(tail -1 "$TMP/json")"; fi
rows=$(($(grep -c . "$DATA/arena.map.scen") - 1))
[ "$(json_field "$TMP/json" queries)" = "$rows" ] && ok || ko "scen arena: queries != $rows rows"
# --stride K keeps rows 0, K, 2K... (the peers' semantics), then --limit N
"$LDS" scen "$DATA/arena.map.scen" --stride 7 --json >"$TMP/json" 2>/dev/null
[ "$(json_field "$TMP/json" queries)" = "$(((rows + 6) / 7))" ] && ok || ko "--stride 7: queries $(json_field "$TMP/json" queries), expected $(((rows + 6) / 7))"
"$LDS" scen "$DATA/arena.map.scen" --stride 7 --limit 5 --json >"$TMP/json" 2>/dev/null
[ "$(json_field "$TMP/json" queries)" = 5 ] && ok || ko "--stride 7 --limit 5: queries != 5"
# the 5 strided queries are rows 0,7,14,21,28: solving exactly those gives the same expansions
awk 'NR == 1 || (NR - 2) % 7 == 0 && (NR - 2) / 7 < 5' "$DATA/arena.map.scen" >"$TMP/five.scen"
"$LDS" scen "$TMP/five.scen" --maps "$DATA" --json >"$TMP/json5" 2>/dev/null
[ "$(json_field "$TMP/json" expansions)" = "$(json_field "$TMP/json5" expansions)" ] && ok ||
  ko "--stride 7 --limit 5 did not solve rows 0,7,14,21,28"
# dijkstra is optimal too; greedy is not checked for optimality (exit 0)
"$LDS" scen "$DATA/arena.map.scen" --algo dijkstra --limit 200 --json >"$TMP/json" 2>&1 &&
  [ "$(json_field "$TMP/json" mismatches)" = 0 ] && ok || ko "scen --algo dijkstra"
"$LDS" scen "$DATA/arena.map.scen" --algo greedy --json >"$TMP/json" 2>&1 &&
  [ "$(json_field "$TMP/json" algo)" = greedy ] && ok || ko "scen --algo greedy: exit not 0"
# a wrong optimum is a mismatch: exit 1
printf 'version 1\n0\tarena.map\t49\t49\t1\t11\t1\t12\t2\n' >"$TMP/wrong.scen"
"$LDS" scen "$TMP/wrong.scen" --maps "$DATA" --json >"$TMP/json" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && [ "$(json_field "$TMP/json" mismatches)" = 1 ] && ok || ko "wrong optimum: exit $rc, expected 1"
# the default maps folder: ../maps beside the scen folder
mkdir -p "$TMP/set/scen" "$TMP/set/maps"
cp "$DATA/arena.map" "$TMP/set/maps/"
head -20 "$DATA/arena.map.scen" >"$TMP/set/scen/arena.map.scen"
"$LDS" scen "$TMP/set/scen/arena.map.scen" --json >"$TMP/json" 2>"$TMP/err" &&
  [ "$(json_field "$TMP/json" queries)" = 19 ] && ok || ko "maps in ../maps not found: $(cat "$TMP/err")"

# ------------------------------------------------------------ path --ascii
# last problem of arena.map.scen: its optimal length is in the file
read -r _ _ _ _ sx sy gx gy opt < <(tail -1 "$DATA/arena.map.scen")
"$LDS" path "$DATA/arena.map" "$sx" "$sy" "$gx" "$gy" --ascii >"$TMP/path" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && ok || ko "path --ascii: exit $rc: $(cat "$TMP/err")"
cost=$(awk '$1 == "cost" { print $2 }' "$TMP/path")
python3 -c "import sys; sys.exit(0 if abs($cost - $opt) < 1e-3 else 1)" && ok ||
  ko "path cost $cost, expected $opt"
ncells=$(awk '$1 == "cells" { print $2 }' "$TMP/path")
# the drawing: 49 rows of 49 characters after the text lines, one 'S', one
# 'G', and ncells - 2 '*' exactly where the path is
python3 - "$TMP/path" "$sx" "$sy" "$gx" "$gy" "$ncells" <<'EOF' && ok || ko "path --ascii drawing wrong"
import re, sys
lines = open(sys.argv[1]).read().splitlines()
sx, sy, gx, gy, n = map(int, sys.argv[2:])
pic = lines[-49:]
assert all(len(r) == 49 for r in pic), "49x49 drawing"
cells = [tuple(map(int, c)) for c in re.findall(r"\((\d+),(\d+)\)", [l for l in lines if l.startswith("path")][0])]
assert len(cells) == n
assert pic[sy][sx] == "S" and pic[gy][gx] == "G"
stars = {(x, y) for y, r in enumerate(pic) for x, c in enumerate(r) if c == "*"}
assert stars == set(cells[1:-1]), "stars are the inner cells"
for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
    assert max(abs(x1 - x0), abs(y1 - y0)) == 1
    assert pic[y1][x1] in "*G"
EOF
# jps on a grid where it falls back to A*: no jump-point line
"$LDS" path "$DATA/arena.map" 1 10 32 4 --algo jps+ --neighbourhood 4 >"$TMP/path" 2>&1 &&
  grep -q '^algorithm *jps+ (ran astar' "$TMP/path" && ! grep -q '^jumps' "$TMP/path" && ok ||
  ko "jps+ fallback prints no jumps: $(head -c 300 "$TMP/path")"
# jps+ under `always` runs JPS, and says why: JPS+ needs no_corner_cutting
"$LDS" path "$DATA/arena.map" 1 10 32 4 --algo jps+ --diagonal always >"$TMP/path" 2>&1 &&
  grep -q '^algorithm *jps+ (ran jps: JPS+ needs the no_corner_cutting diagonal rule)$' "$TMP/path" &&
  ok || ko "jps+ under always names its own rule: $(head -c 300 "$TMP/path")"
# the automatic heuristic is manhattan without diagonal moves: as few
# expansions as --heuristic manhattan, fewer than octile
e_auto=$("$LDS" path "$DATA/arena.map" 3 1 45 47 --diagonal never | sed -n 's/^expansions *//p')
e_man=$("$LDS" path "$DATA/arena.map" 3 1 45 47 --diagonal never --heuristic manhattan | sed -n 's/^expansions *//p')
e_oct=$("$LDS" path "$DATA/arena.map" 3 1 45 47 --diagonal never --heuristic octile | sed -n 's/^expansions *//p')
[ -n "$e_auto" ] && [ "$e_auto" = "$e_man" ] && [ "$e_auto" -lt "$e_oct" ] && ok ||
  ko "auto heuristic under --diagonal never: auto $e_auto, manhattan $e_man, octile $e_oct"
"$LDS" path "$DATA/arena.map" 1 10 32 4 --algo jps >"$TMP/path" 2>&1 && grep -q '^jumps ' "$TMP/path" &&
  ok || ko "jps prints its jump points: $(head -c 300 "$TMP/path")"
# start == goal, and an unreachable goal with --partial
"$LDS" path "$DATA/arena.map" "$sx" "$sy" "$sx" "$sy" >"$TMP/path" 2>&1 &&
  grep -q '^cells *1$' "$TMP/path" && grep -q '^cost *0.000000$' "$TMP/path" && ok || ko "path start == goal"
"$LDS" path "$DATA/arena.map" "$sx" "$sy" 0 0 >"$TMP/path" 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^status *no_path: goal (0,0) is blocked' "$TMP/path" && ok ||
  ko "path to a blocked goal (exit 1 expected, got $rc): $(cat "$TMP/path")"
# a partial path: 'E' where it ends, 'G' on the unreachable goal
printf 'type octile\nheight 3\nwidth 5\nmap\n..@..\n..@..\n..@..\n' > "$TMP/wall.map"
"$LDS" path "$TMP/wall.map" 0 1 4 1 --partial --ascii >"$TMP/path" 2>&1; rc=$?
[ $rc = 1 ] && grep -q '^SE@\.G$' "$TMP/path" && ok || ko "partial path drawing (exit $rc): $(cat "$TMP/path")"
# the goal on a blocked cell: the same partial path for every algorithm
printf 'type octile\nheight 3\nwidth 6\nmap\n...@..\n...@..\n......\n' > "$TMP/bgoal.map"
for algo in astar dijkstra jps jps+; do
  "$LDS" path "$TMP/bgoal.map" 0 0 3 0 --partial --ascii --algo "$algo" >"$TMP/path" 2>&1; rc=$?
  [ $rc = 1 ] && grep -q '^S\*EG\.\.$' "$TMP/path" && grep -q '^cost *2.000000 (partial' "$TMP/path" &&
    ok || ko "partial path to a blocked goal, $algo (exit $rc): $(cat "$TMP/path")"
done
bad "--weight applies to --algo wastar only (algorithm is astar)" path "$DATA/arena.map" 1 11 1 12 --weight 3
"$LDS" path "$DATA/arena.map" "$sx" "$sy" "$gx" "$gy" --diagonal never --neighbourhood 4 >"$TMP/path" 2>&1 &&
  python3 -c "import sys; c=float('$(awk '$1 == "cost" { print $2 }' "$TMP/path")'); sys.exit(0 if c >= $opt - 1e-6 and c == int(c) else 1)" && ok ||
  ko "path 4-connected: cost not an integer >= the octile optimum"

# ---------------------------------------------------------- demo --realtime
# paced at 60 frames per second of wall time: 30 frames take at least 29/60 s
# (without it they run back to back); the simulation is the same (same
# --deterministic log_hash as an unpaced run)
t0=$(date +%s%N)
"$LDS" demo --realtime --frames 30 --agents 20 --deterministic --json >"$TMP/json" 2>"$TMP/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
"$LDS" demo --frames 30 --agents 20 --deterministic --json >"$TMP/json2" 2>&1
[ "$rc" = 0 ] && [ "$ms" -ge 480 ] &&
  [ "$(json_field "$TMP/json" log_hash)" = "$(json_field "$TMP/json2" log_hash)" ] && ok ||
  ko "demo --realtime --frames 30: exit $rc after $ms ms (expected >= 480), log_hash $(json_field "$TMP/json" log_hash) vs $(json_field "$TMP/json2" log_hash): $(head -c 300 "$TMP/err")"
"$LDS" demo --help | grep -q '^  --realtime  *run the frames at 60 per second of wall time' && ok ||
  ko "demo --help does not document --realtime"

# ------------------------------------------------- path --json, file names
# one JSON object on one line with the path's cells; the same path as the text
"$LDS" path "$DATA/arena.map" 1 11 1 12 --json >"$TMP/pj" 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ] && [ "$(wc -l <"$TMP/pj")" = 1 ] && python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
assert d["status"] == "found" and d["start"] == [1, 11] and d["goal"] == [1, 12], d
assert d["path"][0] == [1, 11] and d["path"][-1] == [1, 12] and d["cells"] == len(d["path"]), d
assert abs(d["cost"] - 1.0) < 1e-12 and d["partial"] is False and d["expansions"] >= 1, d' "$TMP/pj"; then ok; else
  ko "path --json: exit $rc: $(head -c 300 "$TMP/pj") $(head -c 200 "$TMP/err")"; fi
text=$("$LDS" path "$DATA/arena.map" 1 11 30 40 | sed -n 's/^path *//p' | grep -o '[0-9]*,[0-9]*' | tr ',' ' ')
json=$("$LDS" path "$DATA/arena.map" 1 11 30 40 --json | python3 -c 'import json,sys
print(" ".join("%d %d" % (x, y) for x, y in json.load(sys.stdin)["path"]))')
[ -n "$json" ] && [ "$(echo $text)" = "$json" ] && ok || ko "path --json cells differ from the text output"
"$LDS" path "$DATA/arena.map" 0 0 30 40 --json >"$TMP/pj" 2>&1
rc=$?
[ "$rc" = 1 ] && [ "$(json_field "$TMP/pj" status)" = no_path ] && [ "$(json_field "$TMP/pj" cost)" = None ] && ok ||
  ko "path --json from a blocked start: exit $rc, $(head -c 300 "$TMP/pj")"
bad "--ascii and --json: give one of them" path "$DATA/arena.map" 1 11 1 12 --json --ascii
# a file name with bytes that are not UTF-8 (0xFF) still gives valid JSON
ff=$(printf 'x\377y')
cp "$DATA/arena.map" "$TMP/$ff.map"
printf 'version 1\n0\t%s.map\t49\t49\t1\t11\t1\t12\t1\n' "$ff" >"$TMP/$ff.scen"
for cmd in "scen $TMP/$ff.scen" "path $TMP/$ff.map 1 11 1 12"; do
  ext=${cmd%% *}
  [ "$ext" = path ] && ext=map
  # shellcheck disable=SC2086
  "$LDS" $cmd --json >"$TMP/ffj" 2>"$TMP/err"
  if python3 -c 'import json,sys
d = json.loads(open(sys.argv[1], "rb").read().splitlines()[-1].decode("utf-8"))
name = d.get("scen", d.get("map"))
assert name.endswith("x\ufffdy." + sys.argv[2]), name' "$TMP/ffj" "$ext" 2>"$TMP/perr"; then ok; else
    ko "$cmd --json with byte 0xFF in the name: not valid UTF-8 JSON: $(head -c 300 "$TMP/perr")"; fi
done
# the progress line: on a terminal's stderr (script(1) gives one), never in a pipe
if command -v script >/dev/null 2>&1; then
  script -qec "$LDS scen $DATA/den011d.map.scen --algo dijkstra --stride 1" /dev/null >"$TMP/tty" 2>&1
  grep -aq 'lodestar scen: [0-9]*/[0-9]* problems ([0-9]*%), [0-9.]* s' "$TMP/tty" && ok ||
    ko "scen on a terminal: no progress line: $(tail -c 200 "$TMP/tty" | tr -d '\r')"
else
  echo "cli: script(1) missing: the progress line on a terminal is not checked"
fi
"$LDS" scen "$DATA/den011d.map.scen" --algo dijkstra >/dev/null 2>"$TMP/err"
[ ! -s "$TMP/err" ] && ok || ko "scen into a pipe wrote to stderr: $(head -c 200 "$TMP/err")"

# ------------------------------------------------- pictures (--png)
"$LDS" path "$DATA/arena.map" 1 11 30 40 --png "$TMP/p.png" --scale 3 >/dev/null 2>"$TMP/err"
rc=$?
if [ "$rc" = 0 ] && python3 -c 'import struct,sys
b = open(sys.argv[1], "rb").read(33)
assert b[:8] == b"\x89PNG\r\n\x1a\n", b[:8]
w, h = struct.unpack(">II", b[16:24])
assert (w, h) == (147, 147), (w, h)' "$TMP/p.png"; then ok; else ko "path --png --scale 3: exit $rc, $(head -c 200 "$TMP/err")"; fi
mkdir -p "$TMP/pics"
"$LDS" scen "$DATA/arena.map.scen" --png "$TMP/pics" --stride 20 >/dev/null 2>"$TMP/err"
n=$(ls "$TMP/pics" | wc -l)
want=$(( ($(grep -c . "$DATA/arena.map.scen") - 1 + 19) / 20 ))
[ "$n" = "$want" ] && [ -s "$TMP/pics/problem-1.png" ] && ok || ko "scen --png --stride 20: $n pictures, expected $want"
bad "--png: '$TMP/nodir' is not a directory" scen "$DATA/arena.map.scen" --png "$TMP/nodir"
{ echo "version 1"; for i in $(seq 1200); do printf '0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n'; done; } >"$TMP/big.scen"
bad "--png writes one picture per problem: choose at most 1000 with --limit or --stride (this run has 1200)" \
  scen "$TMP/big.scen" --png "$TMP/pics" --maps "$DATA"
bad "lodestar path: --png: cannot write $TMP/nodir/x.png (No such file or directory)" \
  path "$DATA/arena.map" 1 11 1 12 --png "$TMP/nodir/x.png"
# ------------------------------------------------- any-angle, mesh-build
# theta on the kept scenario: legal waypoint paths, none above the optimum
"$LDS" scen tests/data/den011d.map.scen --algo lazytheta --limit 100 --json >"$TMP/out" 2>"$TMP/err" &&
  [ "$(json_field "$TMP/out" above_opt)" = 0 ] && [ "$(json_field "$TMP/out" illegal_paths)" = 0 ] && ok ||
  ko "scen --algo lazytheta: $(tail -c 300 "$TMP/out") $(head -c 300 "$TMP/err")"
"$LDS" mesh-build tests/data/den011d.map -o "$TMP/den.nav" --json >"$TMP/out" 2>"$TMP/err" &&
  head -1 "$TMP/den.nav" | grep -q '^navmesh 1 [0-9]* [0-9]* [0-9]*$' &&
  [ "$(json_field "$TMP/out" holes)" = 27 ] && ok ||
  ko "mesh-build den011d: $(head -c 300 "$TMP/out") $(head -c 300 "$TMP/err")"
# --poly: a file that is not a .poly is bad input (exit 2), named with its line
: >"$TMP/empty.poly"
printf 'junk text\n' >"$TMP/junk.poly"
printf 'poly 1 2 2 1 1 4\n# no rings\n' >"$TMP/norings.poly"
printf 'poly 1 2 2 1 1 4\no 4 0 0 2 0 2 2 0 2\nnavmesh 1 3 1 3\n' >"$TMP/mixed.poly"
for c in "empty.poly:1: empty file" "junk.poly:1: expected the .poly header 'poly 1 ...' (got 'junk text')" \
         "norings.poly:2: no rings" "mixed.poly:3: unknown line 'navmesh 1 3 1 3'"; do
  f=${c%%:*}
  "$LDS" mesh-build tests/data/den011d.map -o "$TMP/x.nav" --poly "$TMP/$f" >"$TMP/out" 2>&1; rc=$?
  [ "$rc" = 2 ] && grep -qF "lodestar mesh-build: --poly: $TMP/$c" "$TMP/out" && ok ||
    ko "mesh-build --poly $f: exit $rc, $(head -c 300 "$TMP/out")"
done
"$LDS" mesh-build tests/data/den011d.map >"$TMP/out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q 'lodestar mesh-build: missing -o OUT.nav' "$TMP/out" && ok ||
  ko "mesh-build without -o: exit $rc, $(head -c 300 "$TMP/out")"
"$LDS" mesh-build tests/data/den011d.map -o "$TMP/x.nav" --max-verts 3 >"$TMP/out" 2>&1; rc=$?
[ "$rc" = 2 ] && grep -q -- '--max-verts' "$TMP/out" && ok ||
  ko "mesh-build --max-verts 3: exit $rc, $(head -c 300 "$TMP/out")"

# ------------------------------------------------- README's C snippet
# the block that starts "/* game.c */", built with README's own compile
# line, run from a directory that looks like the repository root after make
# (core/, io/, tests/data/, build/ = the directory of this lodestar)
mkdir -p "$TMP/root"
ln -s "$PWD/core" "$TMP/root/core"
ln -s "$PWD/io" "$TMP/root/io"
ln -s "$PWD/tests" "$TMP/root/tests"
ln -s "$(cd "$(dirname "$LDS")" && pwd)" "$TMP/root/build"
awk '/^```c$/ { inb = 1; n = 0; next } /^```/ { if (keep) exit; inb = 0; next }
     inb { if (n++ == 0 && $0 == "/* game.c */") keep = 1; if (keep) print }' README.md >"$TMP/root/game.c"
line=$(grep -m1 '^cc .* game\.c ' README.md)
if [ ! -s "$TMP/root/game.c" ] || [ -z "$line" ]; then
  ko "README: no C block starting '/* game.c */' or no 'cc ... game.c' line"
elif (cd "$TMP/root" && sh -c "$line") >"$TMP/out" 2>&1 && grep -q '^[0-9]* cells, cost ' "$TMP/out"; then
  ok
else
  ko "README's C snippet, built with '$line': $(head -c 400 "$TMP/out")"
fi

# ------------------------------------------------------------ lodestar mesh
NAV="${SHARED:-../shared}/data/navmesh/2d"
bad "lodestar mesh: missing --queries FILE" mesh "$NAV/arena.nav"
bad "lodestar mesh: --algo 'x': expected funnel or optimal" mesh "$NAV/arena.nav" --algo x
bad "lodestar mesh: cannot open $TMP/no.nav" mesh "$TMP/no.nav" --queries "$TMP/no.q"
if [ -f "$NAV/arena.queries" ]; then
  "$LDS" mesh "$NAV/arena.nav" --queries "$NAV/arena.queries" --algo optimal --json >"$TMP/json" 2>"$TMP/err"
  rc=$?
  if [ "$rc" = 0 ] && [ "$(json_field "$TMP/json" mismatches_vs_opt)" = 0 ] &&
     [ "$(json_field "$TMP/json" reached)" = 160 ] && [ "$(json_field "$TMP/json" illegal)" = 0 ]; then
    ok
  else
    ko "mesh arena optimal: exit $rc: $(head -c 300 "$TMP/err") $(tail -n 1 "$TMP/json")"
  fi
  printf '1.5 0 7.5 47.5 0 46.5 1 2 1\n' >"$TMP/wrong.q" # an optimum of 1: must be a mismatch
  "$LDS" mesh "$NAV/arena.nav" --queries "$TMP/wrong.q" --algo optimal --json >"$TMP/json" 2>"$TMP/err"
  [ $? = 1 ] && [ "$(json_field "$TMP/json" mismatches_vs_opt)" = 1 ] && ok || ko "mesh: a wrong opt_len is not reported"
  # a start off the mesh on a query Detour did not reach: reported, exit 0
  printf '1.5 0 7.5 47.5 0 46.5 -1 0\n500 0 500 47.5 0 46.5 -1 0\n' >"$TMP/off.q"
  "$LDS" mesh "$NAV/arena.nav" --queries "$TMP/off.q" >"$TMP/out" 2>"$TMP/err"
  rc=$?
  [ "$rc" = 0 ] && grep -q "lodestar mesh: $TMP/off.q:2: lds_navsearch_start: start (500, 0, 500) is not on the mesh" "$TMP/err" &&
    ok || ko "mesh: an off-mesh query Detour missed: exit $rc, $(head -c 300 "$TMP/err")"
fi
# longer than Detour: Detour's path runs from the query points as given, ours
# from them snapped onto the surface (undulating line 286: the query heights
# are 7.8e-5 and 2.1e-5 off it after the float rounding of x and z, and our
# straight path is 2.8e-5 longer than Detour's 1.997782 for that alone); a
# length 3e-4 shorter than ours is longer than the endpoints explain
U="${SHARED:-../shared}/data/navmesh/3d"
if [ -f "$U/undulating.queries" ]; then
  sed -n 286p "$U/undulating.queries" >"$TMP/u.q"
  "$LDS" mesh "$U/undulating.nav" --queries "$TMP/u.q" --json >"$TMP/json" 2>"$TMP/err" &&
    [ "$(json_field "$TMP/json" longer_than_detour)" = 0 ] && ok ||
    ko "mesh undulating:286: counted longer than Detour: $(tail -n 1 "$TMP/json")"
  awk '{$7 = "1.9975"; print}' "$TMP/u.q" >"$TMP/u2.q"
  "$LDS" mesh "$U/undulating.nav" --queries "$TMP/u2.q" --json >"$TMP/json" 2>"$TMP/err" &&
    [ "$(json_field "$TMP/json" longer_than_detour)" = 1 ] && ok ||
    ko "mesh undulating:286 with detour_len 1.9975: not counted longer: $(tail -n 1 "$TMP/json")"
  "$LDS" mesh "$U/undulating.nav" --queries "$U/undulating.queries" --json >"$TMP/json" 2>"$TMP/err" &&
    [ "$(json_field "$TMP/json" longer_than_detour)" = 0 ] && ok ||
    ko "mesh undulating: longer than Detour: $(tail -n 1 "$TMP/json")"
fi

# lodestar hier: bad input, then the hierarchy on arena's problems: every
# optimal-mode cost matches, every path is legal (exit 0), JSON keys present
bad "missing MAP" hier
bad "missing --scen FILE or --pairs N" hier "$DATA/arena.map"
bad "--cluster: expected an integer in 4..64, got '2'" hier "$DATA/arena.map" --pairs 3 --cluster 2
bad "unknown option '--bogus'" hier "$DATA/arena.map" --bogus 1
bad "is outside the 49x49 map" hier "$DATA/arena.map" --scen "$DATA/den011d.map.scen"
# --doors on a map without a cell off the border (was SIGFPE); --pairs on a
# map without a passable cell (was an endless loop); --level2 out of range
printf 'type octile\nheight 2\nwidth 2\nmap\n..\n..\n' >"$TMP/two.map"
printf 'type octile\nheight 3\nwidth 3\nmap\n@@@\n@@@\n@@@\n' >"$TMP/allblocked.map"
bad "lodestar hier: --doors: a door is a cell not on the map's border, and $TMP/two.map (2x2) has none" hier "$TMP/two.map" --pairs 1 --doors 1
printf 'type octile\nheight 5\nwidth 2\nmap\n..\n..\n..\n..\n..\n' >"$TMP/narrow.map"
bad "(2x5) has none" hier "$TMP/narrow.map" --pairs 1 --doors 2
"$LDS" hier "$TMP/two.map" --pairs 2 >/dev/null 2>&1 && ok || ko "lodestar hier on a 2x2 map without --doors failed"
timeout 20 "$LDS" hier "$TMP/allblocked.map" --pairs 1 >/dev/null 2>"$TMP/err"
rc=$?
[ "$rc" = 2 ] && grep -qF "lodestar hier: --pairs: $TMP/allblocked.map has no passable cell to draw a pair from" "$TMP/err" && ok ||
  ko "lodestar hier --pairs on a map without a passable cell: exit $rc (124: still running after 20 s), stderr '$(cat "$TMP/err")'"
bad "lodestar hier: --level2: expected 'auto' (8 on maps of 4096x4096 cells or more, else none), 0 (none) or an integer in 2..31 (the largest K with K*K*4*16 below 65535 for --cluster 16, at most 32), got '1'" hier "$DATA/arena.map" --pairs 1 --level2 1
bad "--level2: expected 'auto' (8 on maps of 4096x4096 cells or more, else none), 0 (none) or an integer in 2..31" hier "$DATA/arena.map" --pairs 1 --level2 32
bad "or an integer in 2..15 (the largest K with K*K*4*64" hier "$DATA/arena.map" --pairs 1 --cluster 64 --level2 16
bad "or an integer in 2..32 (the largest K with K*K*4*4" hier "$DATA/arena.map" --pairs 1 --cluster 4 --level2 33
bad "--level2: expected 'auto' (8 on maps of 4096x4096 cells or more, else none), 0 (none) or an integer in 2..31 (the largest K with K*K*4*16 below 65535 for --cluster 16, at most 32), got 'on'" hier "$DATA/arena.map" --pairs 1 --level2 on
"$LDS" hier "$DATA/arena.map" --pairs 1 --level2 auto >"$TMP/out" 2>&1 && ! grep -q "level 2 (" "$TMP/out" && ok ||
  ko "lodestar hier --level2 auto on a small map: refused or built a second level ($(head -c 300 "$TMP/out"))"
"$LDS" hier "$DATA/arena.map" --pairs 1 --level2 2 2>&1 | grep -qF "level 2 (2 x 2 clusters" && ok || ko "lodestar hier --level2 2: no second level line"
"$LDS" hier "$DATA/arena.map" --pairs 1 --level2 31 >/dev/null 2>&1 && ok || ko "lodestar hier --level2 31 (cluster 16) refused"
"$LDS" hier "$DATA/arena.map" --pairs 1 --help | grep -qF "M is 31 at" && ok || ko "lodestar hier --help: no exact --level2 range"
# with a second level: border doors kept closed leave second-level clusters
# stale, lds_hpa_refresh rebuilds them (both timed, non-null in the JSON)
if "$LDS" hier "$DATA/arena.map" --pairs 3 --cluster 4 --level2 2 --doors 3 --json >"$TMP/out" 2>&1 &&
  [ "$(json_field "$TMP/out" border_kept_repair_median_us)" != None ] &&
  [ "$(json_field "$TMP/out" level2_refresh_median_us)" != None ] &&
  grep -q "border doors kept closed: repair median [0-9]" "$TMP/out"; then
  ok
else
  ko "lodestar hier --level2 2 --doors 3 on arena: $(tail -c 400 "$TMP/out")"
fi
# without one: both null
if "$LDS" hier "$DATA/arena.map" --pairs 3 --doors 3 --json >"$TMP/out" 2>&1 &&
  [ "$(json_field "$TMP/out" border_kept_repair_median_us)" = None ]; then
  ok
else
  ko "lodestar hier --doors 3 on arena without a second level: $(tail -c 400 "$TMP/out")"
fi
if "$LDS" hier "$DATA/arena.map" --scen "$DATA/arena.map.scen" --doors 3 --json >"$TMP/out" 2>&1 &&
  [ "$(json_field "$TMP/out" optimal_mismatches)" = 0 ] && [ "$(json_field "$TMP/out" illegal)" = 0 ] &&
  [ "$(json_field "$TMP/out" optimal)" = True ] && [ "$(json_field "$TMP/out" optimal_median_us)" != None ] &&
  grep -q "optimal median [0-9]" "$TMP/out"; then
  ok
else
  ko "lodestar hier on arena: $(tail -c 400 "$TMP/out")"
fi
# --no-optimal: the optimal mode's lines say it was skipped and its JSON
# fields are null (nothing measured), while the fast mode and A* still report
if "$LDS" hier "$DATA/arena.map" --scen "$DATA/arena.map.scen" --no-optimal --json >"$TMP/out" 2>&1 &&
  [ "$(json_field "$TMP/out" optimal)" = False ] && [ "$(json_field "$TMP/out" optimal_median_us)" = None ] &&
  [ "$(json_field "$TMP/out" optimal_speedup)" = None ] && [ "$(json_field "$TMP/out" optimal_mismatches)" = None ] &&
  [ "$(json_field "$TMP/out" astar_mismatches)" = 0 ] && [ "$(json_field "$TMP/out" illegal)" = 0 ] &&
  grep -qF "optimal mode skipped (--no-optimal)" "$TMP/out" && grep -qF "optimal mode skipped, A* mismatches 0" "$TMP/out" &&
  grep -qF ", optimal skipped" "$TMP/out" && ! grep -q "optimal median\|optimal mode mismatches" "$TMP/out"; then
  ok
else
  ko "lodestar hier --no-optimal on arena: $(tail -c 600 "$TMP/out")"
fi
# --costs: terrain-cost patches, the optimal mode (landmark A*) against Dijkstra's optimum
bad "--costs: expected an integer" hier "$DATA/arena.map" --pairs 3 --costs x
if "$LDS" hier "$DATA/den011d.map" --scen "$DATA/den011d.map.scen" --stride 20 --costs 7 --json >"$TMP/out" 2>&1 &&
  [ "$(json_field "$TMP/out" optimal_mismatches)" = 0 ] && [ "$(json_field "$TMP/out" astar_mismatches)" = 0 ] &&
  [ "$(json_field "$TMP/out" costs)" = True ] && grep -q "terrain costs 1..4 (seed 7)" "$TMP/out"; then
  ok
else
  ko "lodestar hier --costs on den011d: $(tail -c 400 "$TMP/out")"
fi

# ------------------------------------- contradictory options: one line, exit 2
# (each pair asks for two things that cannot both hold; none is dropped silently)
A="$DATA/arena.map"
bad "lodestar hier: --no-optimal and --alt contradict each other" hier "$A" --pairs 3 --no-optimal --alt
bad "lodestar hier: --no-optimal and --alt contradict each other" hier "$A" --pairs 3 --alt --no-optimal
bad "lodestar hier: --scen and --seed contradict each other" hier "$A" --scen "$DATA/arena.map.scen" --seed 3
bad "lodestar hier: --pairs and --stride contradict each other" hier "$A" --pairs 3 --stride 2
bad "lodestar hier: --pairs and --limit contradict each other" hier "$A" --pairs 3 --limit 2
bad "lodestar mesh: --fast and --algo optimal contradict each other" mesh "$TMP/none.nav" --queries "$TMP/none.q" --fast --algo optimal
bad "lodestar mesh: --algo given twice" mesh "$TMP/none.nav" --queries "$TMP/none.q" --algo funnel --algo optimal
bad "lodestar path: --neighbourhood 4 and --diagonal always contradict each other" path "$A" 1 11 1 12 --neighbourhood 4 --diagonal always
bad "lodestar trace: --neighbourhood 4 and --diagonal allow_one_blocked contradict each other" trace "$A" 1 11 1 12 --diagonal allow_one_blocked --neighbourhood 4 --html "$TMP/x.html"
bad "lodestar dstar: --sensor needs --unknown" dstar "$A" --sensor 2 --limit 1
bad "lodestar demo: --exp-per-us needs --deterministic" demo --frames 2 --exp-per-us 3
# the agreeing combinations still run
"$LDS" hier "$A" --scen "$DATA/arena.map.scen" --seed 3 --doors 1 --limit 2 >/dev/null 2>&1 && ok ||
  ko "hier --scen --seed --doors (the seed picks the doors) should run"
"$LDS" path "$A" 1 11 1 12 --neighbourhood 4 --diagonal never >/dev/null 2>&1 && ok ||
  ko "path --neighbourhood 4 --diagonal never should run"
"$LDS" dstar "$A" --unknown --sensor 2 --limit 1 >/dev/null 2>&1 && ok || ko "dstar --unknown --sensor should run"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
