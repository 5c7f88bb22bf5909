#!/bin/sh
# SPDX-License-Identifier: MIT
# bench_connectivity.sh — connectivity and the path cache on big maps
# (docs/big-maps.md):
#   build/components_bench MAP: on Berlin_0_1024, an unreachable query (an
#     island made by a ring of walls) with and without the connectivity
#     index (verdict: >= 1000x faster, 0 expansions), and 1000 toggles of a
#     3-cell door between the two halves of the map (verdict: median <= 100 µs);
#   build/path_cache_bench MAP: 1000 agents from 10 barracks to 10
#     destinations through the scheduler, crates toggled every 10 frames,
#     with and without the path cache, every path checked against a fresh A*
#     (verdict: <= 0.2 searches per delivered path, 0 wrong paths);
#   build/path_cache_bench --edits MAP 3 N: the cost of lds_grid_set_blocked
#     to a cache of 3 grown trees, on Berlin_0_1024 (N = 100) and on the
#     4096x4096 Dragon Age map of bench_hier.sh (N = 20; ~1 GB, its trees
#     take ~10 s to grow) (verdict: median <= 1000 µs, 0 wrong answers).
# Settings: SHARED (default ../shared), BUILD (default build),
#   CACHE_MAP (default Berlin_0_256; the cache's trees take 16 bytes per
#   cell each), GEN_TILED (default build/gen_tiled_map). Exit 1 if a verdict
#   failed, 2 if a program or map is missing.
set -u
SHARED=${SHARED:-../shared}
BUILD=${BUILD:-build}
MAPS=$SHARED/data/movingai/maps
CACHE_MAP=${CACHE_MAP:-Berlin_0_256}
for p in "$BUILD/components_bench" "$BUILD/path_cache_bench"; do
  [ -x "$p" ] || { echo "bench_connectivity: $p not built (make bench builds it)" >&2; exit 2; }
done
[ -f "$MAPS/Berlin_0_1024.map" ] || { echo "bench_connectivity: no $MAPS/Berlin_0_1024.map" >&2; exit 2; }
rc=0
echo "--- connectivity: $BUILD/components_bench $MAPS/Berlin_0_1024.map"
"$BUILD/components_bench" "$MAPS/Berlin_0_1024.map" || rc=1
echo
echo "--- path cache: $BUILD/path_cache_bench $MAPS/$CACHE_MAP.map"
"$BUILD/path_cache_bench" "$MAPS/$CACHE_MAP.map" || rc=1
echo
echo "--- path cache edits: $BUILD/path_cache_bench --edits $MAPS/Berlin_0_1024.map 3 100"
"$BUILD/path_cache_bench" --edits "$MAPS/Berlin_0_1024.map" 3 100 || rc=1
GEN_TILED=${GEN_TILED:-build/gen_tiled_map}
if [ -x "$GEN_TILED" ]; then
  mkdir -p build/maps
  "$GEN_TILED" dao 4096 1 build/maps/dao4096.map "$MAPS/brc202d.map" "$MAPS/den011d.map" \
    "$MAPS/ost003d.map" "$MAPS/lak303d.map" "$MAPS/hrt201n.map" || rc=1
  echo
  echo "--- path cache edits: $BUILD/path_cache_bench --edits build/maps/dao4096.map 3 20"
  "$BUILD/path_cache_bench" --edits build/maps/dao4096.map 3 20 || rc=1
else
  echo "bench_connectivity: $GEN_TILED not built: no 4096x4096 edit cost (make bench builds it)" >&2
  rc=2
fi
exit $rc
