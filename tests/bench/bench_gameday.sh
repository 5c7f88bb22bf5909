#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# bench_gameday.sh — the game-day scenario of issue 18 (tests/bench/bench_gameday.c)
# on AR0011SR and Berlin_0_1024: 1,000 agents of 4 classes, a door toggled every
# 6 frames, a cost change every frame, 3,000 frames with a 1,000 µs budget, the
# scheduler timed on the thread's CPU clock. Prints the measured numbers and one
# PASS/MISS line per target; the targets do not decide the exit status (a
# failure to run does). QUICK=1: 600 frames.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 2
GAMEDAY="${GAMEDAY:-build/bench_gameday}"
SHARED="${SHARED:-../shared}"
maps=()
for m in AR0011SR Berlin_0_1024; do
  f="$SHARED/data/movingai/maps/$m.map"
  if [ -f "$f" ]; then maps+=("$f"); else echo "bench_gameday: skipping $m (no $f)"; fi
done
[ ${#maps[@]} -gt 0 ] || { echo "bench_gameday: no map found; skipped"; exit 0; }
frames=3000
[ "${QUICK:-0}" = 1 ] && frames=600
echo "command: $GAMEDAY --frames $frames ${maps[*]}"
"$GAMEDAY" --frames "$frames" "${maps[@]}"
