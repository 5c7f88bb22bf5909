#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run_bench.sh — what `make bench` runs: every tests/bench/bench_*.sh, in name
# order (bench_astar.sh: our A* on every Moving AI map, the peers on the same
# queries, query set-up time, valgrind; other helpers add JPS, D* Lite,
# graphs, Lua, demo...). Each script prints its own tables and verdicts.
#
#   tests/bench/run_bench.sh            (from the repository root; make bench)
#   QUICK=1 tests/bench/run_bench.sh    fewer maps and queries
#
# Environment passed on to the scripts: QUICK, SHARED (default ../shared),
# LDS (default build/lodestar), SETUP_BENCH (default build/setup_bench). Exit status 1 when any script failed.
set -u
export LC_ALL=C
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
export SHARED="${SHARED:-../shared}" LDS="${LDS:-build/lodestar}" QUICK="${QUICK:-0}"
export SETUP_BENCH="${SETUP_BENCH:-build/setup_bench}"

echo "lodestar benchmarks — $(date -u '+%Y-%m-%d %H:%M:%S UTC'), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)$([ "$QUICK" = 1 ] && echo ', QUICK=1')"
echo "(timings are medians; the machine is shared, so read them with the load average)"

summary=()
failed=0
for f in tests/bench/bench_*.sh; do
  [ -f "$f" ] || continue
  echo
  echo "=================================================================== $f"
  t0=$(date +%s)
  bash "$f"
  rc=$?
  t1=$(date +%s)
  summary+=("$(printf '%-34s %s (%ds, load %s)' "$f" "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc)")" \
    $((t1 - t0)) "$(cut -d' ' -f1 /proc/loadavg)")")
  [ $rc = 0 ] || failed=1
done

echo
echo "=================================================================== summary"
for s in "${summary[@]}"; do echo "  $s"; done
exit $failed
