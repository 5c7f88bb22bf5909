/* SPDX-License-Identifier: MIT */
/*
** components_bench.c — the connectivity index (core/lds_components.h) on a
** big map: an unreachable query with and without the index, and door
** toggles between two big regions.
**
**   build/components_bench MAP [ROUNDS]
**
** 1. Island: a ring of blocked cells (radius 12) around a passable cell
**    near the map's centre; the query from a far passable cell to the
**    island's centre is timed (lds_search_start + run, A*) on the grid
**    without an index (today: the search floods everything reachable) and
**    with one; medians of ROUNDS (default 21) runs each. Verdict: with the
**    index <= 1/1000 of the time without, and 0 expansions.
** 2. Door: a wall across the map at the middle column with a door of 3
**    cells, so the two halves are joined by the door only; 1000 toggles
**    (close: 3 cells blocked; open: 3 cells freed) timed each, the index
**    following; median and max in µs. Verdict: median <= 100 µs. The last
**    state is checked against the index (closed: the halves apart).
** Prints the index's bytes per cell and its creation time. Exit 1 on a
** failed verdict, 2 on bad input.
*/
#define _POSIX_C_SOURCE 199309L
#include "lds.h"
#include "lds_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof(double), cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Times one A* query ROUNDS times; fills the median and the expansions. */
static double time_query(lds_Search *s, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                         int rounds, uint64_t *exp, lds_Status *st) {
  double *t = malloc(sizeof(double) * (size_t)rounds), m;
  int i;
  for (i = 0; i < rounds; i++) {
    lds_Stats stt;
    double t0 = now_us();
    lds_search_start(s, NULL, sx, sy, gx, gy);
    *st = lds_search_run(s);
    t[i] = now_us() - t0;
    lds_search_stats(s, &stt);
    *exp = stt.expansions;
  }
  m = median(t, rounds);
  free(t);
  return m;
}

int main(int argc, char **argv) {
  lds_Error err;
  lds_Grid *g, *plain;
  lds_Components *c;
  lds_Search *s, *sp;
  int rounds = argc > 2 ? atoi(argv[2]) : 21, fail = 0, i;
  int32_t w, h, cx, cy, sx = -1, sy = -1, x, y, r = 12, wallx, doory = -1;
  double t0, tbuild, t_plain, t_index, *tog;
  uint64_t e_plain, e_index;
  lds_Status st_plain, st_index;
  if (argc < 2 || rounds < 1) {
    fprintf(stderr, "usage: components_bench MAP [ROUNDS]\n");
    return 2;
  }
  g = lds_map_load(NULL, argv[1], &err);
  if (!g) {
    fprintf(stderr, "components_bench: %s\n", err.msg);
    return 2;
  }
  w = lds_grid_width(g);
  h = lds_grid_height(g);
  /* island centre: the passable cell nearest the centre with a clear ring */
  for (cx = w / 2, cy = h / 2; cx < w - r - 1 && lds_grid_blocked(g, cx, cy); cx++) {}
  for (y = cy - r; y <= cy + r; y++)
    for (x = cx - r; x <= cx + r; x++)
      if ((x - cx) * (x - cx) + (y - cy) * (y - cy) >= (r - 1) * (r - 1) &&
          (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r)
        lds_grid_set_blocked(g, x, y, true);
  lds_grid_set_blocked(g, cx, cy, false);
  plain = lds_grid_clone(g, &err);
  t0 = now_us();
  c = lds_components_new(NULL, g, 0, &err);
  tbuild = now_us() - t0;
  if (!c) {
    fprintf(stderr, "components_bench: %s\n", err.msg);
    return 2;
  }
  /* start: the first cell of the largest component (the worst case today) */
  {
    uint32_t n = lds_components_count(c), best = 0, id;
    size_t *size = calloc((size_t)n + 1, sizeof(size_t));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) size[lds_components_id(c, x, y)]++;
    for (id = 1; id <= n; id++)
      if (size[id] > size[best]) best = id;
    for (y = 0; y < h && sx < 0; y++)
      for (x = 0; x < w && sx < 0; x++)
        if (lds_components_id(c, x, y) == best) {
          sx = x;
          sy = y;
        }
    printf("largest component: %zu of %zu passable cells\n", size[best], lds_grid_passable_count(g));
    free(size);
  }
  s = lds_search_new(NULL, g, &err);
  sp = lds_search_new(NULL, plain, &err);
  if (!plain || !s || !sp) {
    fprintf(stderr, "components_bench: %s\n", err.msg);
    return 2;
  }
  printf("map %s (%dx%d), %u components, index built in %.0f µs, %zu bytes = %.2f bytes per cell\n",
         argv[1], (int)w, (int)h, lds_components_count(c), tbuild, lds_components_mem_used(c),
         (double)lds_components_mem_used(c) / ((double)w * (double)h));
  t_plain = time_query(sp, sx, sy, cx, cy, rounds, &e_plain, &st_plain);
  t_index = time_query(s, sx, sy, cx, cy, rounds, &e_index, &st_index);
  printf("unreachable query (%d,%d) -> island (%d,%d), median of %d:\n", (int)sx, (int)sy, (int)cx,
         (int)cy, rounds);
  printf("  %-18s %12s %12s %s\n", "", "median_us", "expansions", "status");
  printf("  %-18s %12.2f %12llu %s\n", "A*, no index", t_plain, (unsigned long long)e_plain,
         lds_status_name(st_plain));
  printf("  %-18s %12.3f %12llu %s\n", "A*, with index", t_index, (unsigned long long)e_index,
         lds_status_name(st_index));
  printf("  ratio %.0fx (verdict: >= 1000x and 0 expansions: %s)\n", t_plain / t_index,
         t_plain >= 1000.0 * t_index && e_index == 0 && st_index == LDS_NO_PATH ? "ok" : "FAILED");
  if (!(t_plain >= 1000.0 * t_index && e_index == 0 && st_index == LDS_NO_PATH)) fail = 1;

  /* the door: a wall at the middle column, a door of 3 cells at the row
  ** nearest the middle whose cells both sides of the wall are passable */
  wallx = w / 2;
  for (y = h / 2; y < h - 3 && doory < 0; y++)
    if (!lds_grid_blocked(g, wallx - 1, y) && !lds_grid_blocked(g, wallx + 1, y) &&
        !lds_grid_blocked(g, wallx - 1, y + 2) && !lds_grid_blocked(g, wallx + 1, y + 2))
      doory = y;
  if (doory < 0) {
    fprintf(stderr, "components_bench: no place for a door\n");
    return 2;
  }
  for (y = 0; y < h; y++) lds_grid_set_blocked(g, wallx, y, y < doory || y > doory + 2);
  tog = malloc(sizeof(double) * 1000);
  for (i = 0; i < 1000; i++) {
    bool close = i % 2 == 0;
    t0 = now_us();
    for (y = doory; y <= doory + 2; y++) lds_grid_set_blocked(g, wallx, y, close);
    tog[i] = now_us() - t0;
  }
  {
    lds_ComponentsStats cs;
    double mx = 0, med;
    bool apart;
    for (i = 0; i < 1000; i++) mx = tog[i] > mx ? tog[i] : mx;
    med = median(tog, 1000);
    lds_components_stats(c, &cs);
    /* 1000 toggles: the last one opened the door; close it and check */
    for (y = doory; y <= doory + 2; y++) lds_grid_set_blocked(g, wallx, y, true);
    apart = !lds_components_connected(c, wallx - 1, doory, wallx + 1, doory);
    printf("door of 3 cells at (%d,%d..%d) in a wall across the map, 1000 toggles (3 cell edits each):\n",
           (int)wallx, (int)doory, (int)doory + 2);
    printf("  median %.1f µs, max %.1f µs per toggle; %llu relabels in %llu edits; graph of %llu local"
           " components, %llu border edges; %u components; halves apart when closed: %s\n",
           med, mx, (unsigned long long)cs.relabels, (unsigned long long)cs.updates,
           (unsigned long long)cs.graph_nodes, (unsigned long long)cs.graph_edges,
           lds_components_count(c), apart ? "yes" : "NO");
    printf("  verdict: median <= 100 µs: %s\n", med <= 100.0 && apart ? "ok" : "FAILED");
    if (!(med <= 100.0 && apart)) fail = 1;
  }
  free(tog);
  lds_search_free(s);
  lds_search_free(sp);
  lds_grid_free(g);
  lds_grid_free(plain);
  return fail;
}
