#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_demo.sh — the per-frame budget benchmark:
#   lodestar demo --agents 1000 --budget-us 1000 --frames 600
# on 512x512 Moving AI maps. Checks p99 time per frame <= 1.10 x budget,
# max <= 1.5 x budget, every delivered path optimal (one-shot A* check), and
# that --deterministic gives the same log_hash twice. Prints the measured
# numbers and the load average (the machine is shared: time the OS gives to
# other processes shows up as wall-time overshoot; the demo also reports the
# thread CPU time per frame, which excludes it).
#
# usage: tests/bench/bench_demo.sh        (from the repo root; SHARED, LODESTAR,
#        BENCH_MAPS and BENCH_FRAMES may be set in the environment)
set -u
SHARED=${SHARED:-../shared}
LODESTAR=${LODESTAR:-build/lodestar}
MAPS=${BENCH_MAPS:-"AR0011SR.map Aftershock.map"}
FRAMES=${BENCH_FRAMES:-600}
AGENTS=1000
BUDGET=1000
status=0

if [ ! -x "$LODESTAR" ]; then
  echo "bench_demo: $LODESTAR not built (run make)" >&2
  exit 2
fi

# value of a numeric or string key in a one-line JSON object
jget() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([^,\"}]*\).*/\1/p"; }

echo "== bench_demo: lodestar demo --agents $AGENTS --budget-us $BUDGET --frames $FRAMES"
echo "   load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')  cores: $(nproc 2>/dev/null || echo '?')"
for m in $MAPS; do
  map="$SHARED/data/movingai/maps/$m"
  if [ ! -f "$map" ]; then
    echo "bench_demo: $map not found (set SHARED)" >&2
    status=2
    continue
  fi
  out=$("$LODESTAR" demo --map "$map" --agents $AGENTS --budget-us $BUDGET --frames "$FRAMES" --json | tail -n 1)
  p50=$(jget "$out" frame_us_median); p99=$(jget "$out" frame_us_p99); mx=$(jget "$out" frame_us_max)
  c99=$(jget "$out" frame_cpu_us_p99); cmx=$(jget "$out" frame_cpu_us_max)
  pre=$(jget "$out" preempted_frames); done_=$(jget "$out" requests_completed)
  l50=$(jget "$out" latency_frames_median); l99=$(jget "$out" latency_frames_p99)
  lmx=$(jget "$out" latency_frames_max); old=$(jget "$out" oldest_pending_frames)
  bound=$(jget "$out" latency_bound_frames)
  nonopt=$(jget "$out" nonoptimal_paths); epf=$(jget "$out" expansions_per_frame_median)
  doors=$(jget "$out" door_toggles); rs=$(jget "$out" restarts)
  echo "-- $m"
  echo "   frame_us     median $p50  p99 $p99  max $mx   (budget $BUDGET)"
  echo "   cpu_us       p99 $c99  max $cmx   ($pre frames lost > 100 us to other processes)"
  echo "   requests     $done_ completed; latency frames median $l50 p99 $l99 max $lmx; oldest pending $old; bound (agents/throughput) $bound"
  echo "   expansions   $epf per frame (median); door toggles $doors; restarts $rs; non-optimal $nonopt"
  # Wall time is the real criterion; on a shared machine, frames the OS gave
  # to other processes are reported, and the CPU-time verdict (the
  # scheduler's own overshoot) decides the exit status when more than 1% of
  # the frames were preempted.
  verdict=$(awk -v p99="$p99" -v mx="$mx" -v c99="$c99" -v cmx="$cmx" -v b=$BUDGET -v n="$nonopt" \
                -v pre="$pre" -v f="$FRAMES" 'BEGIN {
    w = ""; if (p99 > 1.10 * b) w = w " p99>1.10xbudget"; if (mx > 1.5 * b) w = w " max>1.5xbudget";
    c = ""; if (c99 > 1.10 * b) c = c " p99>1.10xbudget"; if (cmx > 1.5 * b) c = c " max>1.5xbudget";
    o = (n != 0) ? " non-optimal-paths" : "";
    loaded = pre > 0.01 * f;
    printf "wall: %s; cpu: %s; paths: %s", (w == "" ? "PASS" : "FAIL" w),
           (c == "" ? "PASS" : "FAIL" c), (o == "" ? "PASS" : "FAIL" o);
    if (loaded) printf " (machine loaded: %d frames preempted; judged on cpu time)", pre;
    bad = (o != "") || (loaded ? c != "" : w != "");
    print (bad ? " => FAIL" : " => PASS") }')
  echo "   $verdict"
  case "$verdict" in *"=> PASS") ;; *) status=1 ;; esac
  echo "   json $out"
done

# determinism: the same inputs give the same frames
map="$SHARED/data/movingai/maps/$(echo $MAPS | cut -d' ' -f1)"
if [ -f "$map" ]; then
  h1=$(jget "$("$LODESTAR" demo --map "$map" --agents 300 --frames 300 --deterministic --no-check --json | tail -n 1)" log_hash)
  h2=$(jget "$("$LODESTAR" demo --map "$map" --agents 300 --frames 300 --deterministic --no-check --json | tail -n 1)" log_hash)
  if [ -n "$h1" ] && [ "$h1" = "$h2" ]; then
    echo "-- deterministic: log_hash $h1 twice: PASS"
  else
    echo "-- deterministic: log_hash $h1 vs $h2: FAIL"
    status=1
  fi
fi
echo "   load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
exit $status
