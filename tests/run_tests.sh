#!/bin/bash
# SPDX-License-Identifier: MIT
# run_tests.sh MAKE SUITE... — `make test`: runs each suite (a make target)
# in order, showing its output, and counts what it reports: the sum of
# busted's "N successes / N failures / N errors" lines when it has them, else
# the last "N passed, N failed" line, else the fuzzer's "N checks, N failures" and "ok (N checks)" lines. Ends with one line per suite and the closing line
# "N passed, N failed" (the sums; a suite that exits non-zero without such a
# line counts as one failure). Exit 1 when anything failed.
set -u
MAKE_CMD=$1
shift
total_pass=0
total_fail=0
summary=""
log=$(mktemp /tmp/lds_tests.XXXXXX)
trap 'rm -f "$log"' EXIT
for suite in "$@"; do
  $MAKE_CMD --no-print-directory "$suite" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  p=0
  f=0
  line=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
  if grep -Eq '^[0-9]+ successes / [0-9]+ failures / [0-9]+ errors' "$log"; then
    read -r p f < <(grep -Eo '^[0-9]+ successes / [0-9]+ failures / [0-9]+ errors' "$log" |
      awk '{ s += $1; f += $4 + $7 } END { print s, f }')
  elif [ -n "$line" ]; then
    p=${line%% passed*}
    f=${line#*passed, }
    f=${f%% failed*}
  else
    read -r p f < <(grep -Eo '[0-9]+ checks, [0-9]+ failures|ok \([0-9]+ checks\)' "$log" |
      awk '/^ok/ { gsub(/[^0-9]/, ""); s += $0; next } { s += $1 - $3; f += $3 } END { print s + 0, f + 0 }')
  fi
  if [ "$rc" != 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_pass=$((total_pass + p))
  total_fail=$((total_fail + f))
  summary="$summary$(printf '  %-16s %6d passed, %d failed%s' "$suite" "$p" "$f" \
    "$([ "$rc" != 0 ] && echo " (exit $rc)")")"$'\n'
done
echo "== make test =="
printf '%s' "$summary"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" = 0 ]
