#!/bin/sh
# SPDX-License-Identifier: MIT
# demo_mods_test.sh LODESTAR — hot reload in the demo (issue 7): runs
#   lodestar demo --mods <temp copy of mods/> --watch ...
# in the background, rewrites mods/terrain/mod.lua while it runs (the forest
# layer's rule reaches 3 cells from a tree instead of 1, and the walker
# profile weights it 10 instead of 1), and checks from the demo's output:
#   - the reload was reported ("mod: frame F terrain reloaded in X ms");
#   - walker paths change within a bounded number of frames: the mean path
#     cost per step of terrain.walker agents in the first 60-frame window
#     that starts after the reload (it ends at most 120 frames after it) is
#     above the highest window before it, and the mean over all windows
#     after is at least 1.5 x the mean before;
#   - agents of a profile the edit does not touch (terrain.ranger) keep
#     their cost per step (the mean after is within 25 % of the mean before);
#   - no request is lost: submitted = finished + cancelled + in flight;
#   - the process exits 0 (every checked path optimal, no failed request).
# No wall-clock limits are asserted: frames are counted, and the waits for
# the file change to be noticed (mtime poll) are generous (up to 300 s).
set -u
LDS=${1:-build/lodestar}
tmp=$(mktemp -d /tmp/lds_demo_mods.XXXXXX)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap 'cleanup; exit 1' INT TERM
cp -r mods "$tmp/mods"
out="$tmp/out"
: > "$out" # exists before the demo opens it (the wait loop greps it)
fail() { echo "demo_mods_test: FAIL: $*"; echo "--- output:"; cat "$out"; cleanup; echo "0 passed, 1 failed"; exit 1; }

"$LDS" demo --mods "$tmp/mods" --watch --poll-frames 10 --exit-after-reload 600 \
  --frames 200000 --agents 150 --deterministic > "$out" 2>&1 &
pid=$!

# wait for 3 windows (180 frames) before the edit
i=0
while [ "$(grep -c '^window ' "$out" 2>/dev/null || true)" -lt 3 ]; do
  kill -0 $pid 2>/dev/null || fail "the demo ended before the edit"
  i=$((i + 1)); [ $i -gt 3000 ] && fail "no progress after 300 s"
  sleep 0.1
done
sleep 1 # a different mtime second than the first scan (the manager compares content too)
sed -e 's/rules.near("T", 1, view)/rules.near("T", 3, view)/' \
    -e 's/walker = { weights = { swamp = 2, forest = 1, water = 1 } }/walker = { weights = { swamp = 2, forest = 10, water = 1 } }/' \
    mods/terrain/mod.lua > "$tmp/mod.lua.new"
cmp -s mods/terrain/mod.lua "$tmp/mod.lua.new" && fail "the edit did not apply (mods/terrain/mod.lua changed?)"
mv "$tmp/mod.lua.new" "$tmp/mods/terrain/mod.lua"

i=0
while kill -0 $pid 2>/dev/null; do
  i=$((i + 1)); [ $i -gt 3000 ] && fail "the demo did not stop within 300 s of the edit (reload not noticed?)"
  sleep 0.1
done
wait $pid
rc=$?
[ $rc -eq 0 ] || fail "exit status $rc"

reload=$(sed -n 's/^mod: frame \([0-9]*\) terrain reloaded in \([0-9.]*\) ms (restarted \([0-9]*\)).*/\1 \2 \3/p' "$out" | head -1)
[ -n "$reload" ] || fail "no 'terrain reloaded' line"
set -- $reload
rframe=$1 rms=$2 rrestarted=$3

# windows: "window frame END ... terrain.walker=C/N ... terrain.ranger=C/N"
awk -v r="$rframe" '
  /^window / {
    end = $3; w = ""; g = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^terrain.walker=/) { split(substr($i, 16), a, "/"); w = a[1]; wn = a[2] }
      if ($i ~ /^terrain.ranger=/) { split(substr($i, 16), b, "/"); g = b[1]; gn = b[2] }
    }
    if (end <= r) {                      # window entirely before the reload
      if (wn > 0 && w > wmax) wmax = w
      if (gn > 0) { gsum_b += g * gn; gn_b += gn }
      if (wn > 0) { wsum_b += w * wn; wn_b += wn }
    } else if (end - 60 >= r) {          # window entirely after it
      na++
      if (na == 1) { first = end; fw = w; if (wn == 0 || w <= wmax) bad = end ":" w "/" wn }
      if (wn > 0) { wsum_a += w * wn; wn_a += wn }
      if (gn > 0) { gsum_a += g * gn; gn_a += gn }
    }
  }
  END {
    if (wmax == 0 || wn_a == 0) { print "FAIL no walker paths before/after"; exit 1 }
    if (first - r > 120) { print "FAIL first window after the reload ends at " first; exit 1 }
    if (bad != "") { print "FAIL first window after the reload: walker cost/step not above the pre-reload max " wmax ": " bad; exit 1 }
    if (wsum_a / wn_a < 1.5 * wsum_b / wn_b) { print "FAIL walker cost/step mean " wsum_b / wn_b " -> " wsum_a / wn_a; exit 1 }
    gb = gsum_b / gn_b; ga = gsum_a / gn_a
    if (ga > 1.25 * gb || ga < gb / 1.25) { print "FAIL ranger cost/step moved: " gb " -> " ga; exit 1 }
    printf "walker cost/step mean before %.4f (max %.4f), first window after %.4f, mean after %.4f (%d windows); ranger %.4f -> %.4f\n",
      wsum_b / wn_b, wmax, fw, wsum_a / wn_a, na, gb, ga
  }' "$out" > "$tmp/verdict" || { cat "$tmp/verdict"; fail "path costs"; }

acct=$(sed -n 's/^  accounting    submitted \([0-9]*\) = finished \([0-9]*\) + cancelled \([0-9]*\) + in flight \([0-9]*\)$/\1 \2 \3 \4/p' "$out")
[ -n "$acct" ] || fail "no accounting line"
set -- $acct
[ "$1" -eq $(($2 + $3 + $4)) ] || fail "requests lost: submitted $1 != finished $2 + cancelled $3 + in flight $4"
grep -q "^  paths         0 non-optimal (0 illegal)" "$out" || fail "non-optimal or illegal paths"

verdict=$(cat "$tmp/verdict")
pid=
cleanup
echo "demo_mods_test: ok: reload at frame $rframe ($rms ms, $rrestarted restarted); $verdict; requests submitted $1 = $2 + $3 + $4"
# the checks above: exit status, reload reported, path costs changed (3 checks in the awk
# verdict), ranger unchanged, no request lost, every path optimal
echo "8 passed, 0 failed"
