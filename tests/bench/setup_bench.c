/* SPDX-License-Identifier: MIT */
/*
** setup_bench.c — shows that starting a query does not cost time
** proportional to the map: times lds_search_start + a 1-expansion step on a
** 64x64 and a 2048x2048 grid (same search object reused, as in a game), and
** prints both medians and their ratio. For scale it also times what an
** O(cells) set-up would cost on 2048x2048 (one memset of the node records).
**
** Then the largest grid the core issue asks for: 8192x8192 (about 4.2 GB with
** its search), one corner-to-corner query through a gap in a wall, checked
** against its closed-form optimum (SKIP_BIG=1 skips it).
**
**   build/setup_bench [REPS]      (REPS samples of BATCH queries, default 2000)
**
** Two placements are timed: "fixed" (the same start cell every time: pure
** set-up cost, caches warm) and "random" (start and goal anywhere: includes
** the cache misses of touching a cold node record on a big map, which is not
** set-up work but is what a game sees).
*/
#define _POSIX_C_SOURCE 200809L
#include "lds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define BATCH 64

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return v[n / 2];
}

static uint64_t rng(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

/* Median ns of one start + 1-expansion step, over reps batches. */
static double time_setup(int32_t side, int reps, bool random_cells, int *errors) {
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, side, side, &err);
  lds_Search *s;
  double *t;
  uint64_t seed = 0x9E3779B97F4A7C15ULL;
  int r, k;
  int32_t xs[BATCH], ys[BATCH], xg[BATCH], yg[BATCH];
  if (!g) {
    fprintf(stderr, "setup_bench: %s\n", err.msg);
    exit(2);
  }
  s = lds_search_new(NULL, g, &err);
  t = (double *)malloc((size_t)reps * sizeof *t);
  if (!s || !t) {
    fprintf(stderr, "setup_bench: %s\n", s ? "out of memory" : err.msg);
    exit(2);
  }
  /* warm up: one full query touches every page once */
  lds_search_start(s, NULL, 0, 0, side - 1, side - 1);
  lds_search_step(s, NULL);
  for (r = 0; r < reps; r++) {
    uint64_t t0, t1;
    for (k = 0; k < BATCH; k++) {
      if (random_cells) {
        xs[k] = (int32_t)(rng(&seed) % (uint64_t)side);
        ys[k] = (int32_t)(rng(&seed) % (uint64_t)side);
        xg[k] = (int32_t)(rng(&seed) % (uint64_t)side);
        yg[k] = (int32_t)(rng(&seed) % (uint64_t)side);
      } else {
        xs[k] = side / 2;
        ys[k] = side / 2;
        xg[k] = side / 2 + 20;
        yg[k] = side / 2 + 10;
      }
    }
    t0 = now_ns();
    for (k = 0; k < BATCH; k++) {
      if (lds_search_start(s, NULL, xs[k], ys[k], xg[k], yg[k]) != LDS_OK) (*errors)++;
      if (lds_search_step(s, &(lds_Budget){1, 0}) < 0) (*errors)++;
    }
    t1 = now_ns();
    t[r] = (double)(t1 - t0) / BATCH;
  }
  lds_search_free(s);
  lds_grid_free(g);
  {
    double m = median(t, reps);
    free(t);
    return m;
  }
}

/* What an O(cells) set-up would cost: clearing 24 bytes per padded cell. */
static double time_clear(int32_t side) {
  size_t n = (size_t)(side + 2) * (size_t)(side + 2) * 24;
  unsigned char *buf = (unsigned char *)malloc(n);
  double t[9];
  int r;
  if (!buf) return -1;
  memset(buf, 1, n);
  for (r = 0; r < 9; r++) {
    uint64_t t0 = now_ns();
    memset(buf, r, n);
#if defined(__GNUC__) || defined(__clang__)
    __asm__ volatile("" : : "r"(buf) : "memory"); /* keep the memset */
#endif
    t[r] = (double)(now_ns() - t0);
  }
  free(buf);
  return median(t, 9);
}

/* The largest grid the core issue asks for, 8192x8192: a wall across the
** middle with one gap, a query from one corner to the other. Prints the
** memory of grid and search, the time, expansions and cost (the optimum is
** known in closed form for this map). Returns the number of errors. */
static int big_grid(void) {
  const int32_t n = 8192, gap = 4096;
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, n, n, &err);
  lds_Search *s;
  lds_Stats st;
  uint64_t t0, t1;
  double cost, want;
  int32_t x;
  bool found;
  if (!g) {
    printf("8192x8192: %s\n", err.msg);
    return 1;
  }
  for (x = 0; x < n; x++)
    if (x != gap) lds_grid_set_blocked(g, x, n / 2, true);
  s = lds_search_new(NULL, g, &err);
  if (!s) {
    printf("8192x8192: %s\n", err.msg);
    lds_grid_free(g);
    return 1;
  }
  t0 = now_ns();
  lds_search_start(s, NULL, 0, 0, n - 1, n - 1);
  lds_search_step(s, NULL);
  t1 = now_ns();
  lds_search_stats(s, &st);
  cost = lds_search_cost(s);
  /* (0,0) -> (4096,4095), through the gap straight down (no corner cutting
  ** into it), (4096,4097) -> (8191,8191): 1 + 4095 sqrt2 + 2 + 1 + 4094 sqrt2 */
  want = 4.0 + 8189.0 * 1.4142135623730951;
  printf("8192x8192 grid: %.0f MB grid + %.0f MB search; corner-to-corner query through a\n"
         "  one-cell gap in a wall across the middle: %s, cost %.6f (optimum %.6f), %llu expansions, %.1f ms\n",
         lds_grid_mem_used(g) / 1e6, lds_search_mem_used(s) / 1e6,
         lds_status_name(lds_search_status(s)), cost, want, (unsigned long long)st.expansions,
         (double)(t1 - t0) / 1e6);
  found = lds_search_status(s) == LDS_FOUND;
  lds_search_free(s);
  lds_grid_free(g);
  return found && fabs(cost - want) <= 1e-6 ? 0 : 1;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 2000, errors = 0;
  double fs, fb, rs, rb, clr;
  if (reps < 9) reps = 9;
  fs = time_setup(64, reps, false, &errors);
  fb = time_setup(2048, reps, false, &errors);
  rs = time_setup(64, reps, true, &errors);
  rb = time_setup(2048, reps, true, &errors);
  clr = time_clear(2048);
  printf("query set-up = lds_search_start + 1-expansion step, median of %d x %d queries\n", reps,
         BATCH);
  printf("  %-22s %12s %12s %8s\n", "placement", "64x64 ns", "2048x2048 ns", "ratio");
  printf("  %-22s %12.1f %12.1f %8.2f\n", "fixed start/goal", fs, fb, fb / fs);
  printf("  %-22s %12.1f %12.1f %8.2f\n", "random start/goal", rs, rb, rb / rs);
  printf("  cells ratio 2048^2/64^2 = 1024; an O(cells) reset (memset of the node records)\n"
         "  on 2048x2048 would cost %.0f ns = %.0fx the measured fixed set-up\n",
         clr, clr / fb);
  printf("{\"setup_ns_64\":%.1f,\"setup_ns_2048\":%.1f,\"ratio_fixed\":%.3f,"
         "\"setup_ns_64_random\":%.1f,\"setup_ns_2048_random\":%.1f,\"ratio_random\":%.3f,"
         "\"memset_ns_2048\":%.0f,\"errors\":%d}\n",
         fs, fb, fb / fs, rs, rb, rb / rs, clr, errors);
  if (!getenv("SKIP_BIG")) errors += big_grid();
  return errors ? 1 : 0;
}
