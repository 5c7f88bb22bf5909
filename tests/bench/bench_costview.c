/* SPDX-License-Identifier: MIT */
/*
** bench_costview.c — issue 18's measure of two agent classes in one
** scheduler: a Moving AI map (default Berlin_0_1024) with two cost layers,
** 400 requests alternating two layer-weight sets, all submitted at frame 0,
** served by lds_scheduler_step with a 1000 µs budget per frame (timed mode,
** h_scale set as docs/scheduler.md advises). Prints the frames, the frames
** whose tick took more than 1.1x the budget of thread CPU time, the tick CPU
** mean and max, and then the time of one weighted lds_search_start: on the
** weight set the search used last, on the other set, and right after one
** lds_grid_set_blocked.
**
**   build/bench_costview MAP [REQUESTS [BUDGET_US]]
**
** It uses only the scheduler and search API, so the same file builds against
** a library without cost views (tests/bench/bench_costview.sh builds it
** against main as "before"); with them it also prints the view cells built
** and the views' memory.
*/
#define _POSIX_C_SOURCE 200809L
#include "lds.h"
#include "lds_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t cpu_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static uint64_t wall_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (unsigned)((rng * 2685821657736338717ULL) >> 33) % n;
}

/* a random passable cell; with near, one within 96 cells of (nx, ny) */
static void pick(const lds_Grid *g, bool near, int32_t nx, int32_t ny, int32_t *x, int32_t *y) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  for (;;) {
    *x = near ? nx - 96 + (int32_t)rnd(193) : (int32_t)rnd((unsigned)w);
    *y = near ? ny - 96 + (int32_t)rnd(193) : (int32_t)rnd((unsigned)h);
    if (lds_grid_in_bounds(g, *x, *y) && !lds_grid_blocked(g, *x, *y)) return;
  }
}

/* median µs of one weighted start on search s (w: the weight set) */
static double start_us(lds_Search *s, const double *w, const double *other, int reps, bool alternate) {
  uint64_t *t = (uint64_t *)malloc((size_t)reps * sizeof(uint64_t));
  lds_SearchParams p;
  double med;
  int i;
  lds_search_params_init(&p);
  p.n_layer_weights = 2;
  p.h_scale = 1.0;
  for (i = 0; i < reps; i++) {
    uint64_t t0;
    if (alternate) { /* the other set first, untimed */
      p.layer_weights = other;
      lds_search_start(s, &p, 1, 1, 2, 2);
    }
    p.layer_weights = w;
    t0 = wall_ns();
    lds_search_start(s, &p, 1, 1, 2, 2);
    t[i] = wall_ns() - t0;
  }
  qsort(t, (size_t)reps, sizeof *t, cmp_u64);
  med = (double)t[reps / 2] / 1000.0;
  free(t);
  return med;
}

int main(int argc, char **argv) {
  const char *map = argc > 1 ? argv[1] : "../shared/data/movingai/maps/Berlin_0_1024.map";
  int nreq = argc > 2 ? atoi(argv[2]) : 400;
  uint64_t budget = argc > 3 ? (uint64_t)atoll(argv[3]) : 1000;
  const double wa[2] = {2.0, 0.0}, wb[2] = {0.0, 3.0};
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, map, &err);
  lds_Scheduler *sc;
  lds_Search *s;
  int32_t x, y, w, h;
  int i, mud, threat;
  uint64_t frames = 0, over = 0, sum = 0, mx = 0, found = 0;
  if (!g || nreq < 1 || budget < 1) {
    fprintf(stderr, "bench_costview: %s\n", g ? "bad REQUESTS or BUDGET_US" : err.msg);
    return 2;
  }
  w = lds_grid_width(g);
  h = lds_grid_height(g);
  /* two layers: mud in 32-cell patches (0..2), threat in diagonal bands (0..1) */
  lds_grid_layer_add(g, "mud", &mud);
  lds_grid_layer_add(g, "threat", &threat);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      lds_grid_layer_set(g, mud, x, y, (float)((x / 32 + y / 32) % 3));
      lds_grid_layer_set(g, threat, x, y, (float)((x + 2 * y) % 64 < 16 ? 1 : 0));
    }
  sc = lds_scheduler_new(NULL, NULL, &err);
  if (!sc || lds_scheduler_add_grid(sc, g, 0) != LDS_OK) {
    fprintf(stderr, "bench_costview: %s\n", sc ? lds_scheduler_errmsg(sc) : err.msg);
    return 2;
  }
  for (i = 0; i < nreq; i++) {
    lds_Request rq;
    int32_t sx, sy, gx, gy;
    lds_RequestId id;
    pick(g, false, 0, 0, &sx, &sy);
    pick(g, true, sx, sy, &gx, &gy);
    lds_request_init(&rq, g, sx, sy, gx, gy);
    rq.params.layer_weights = i % 2 ? wb : wa;
    rq.params.n_layer_weights = 2;
    rq.params.h_scale = 1.0; /* docs/scheduler.md: set h_scale for weighted requests */
    rq.flags = LDS_REQ_AUTO_RELEASE;
    if (lds_scheduler_submit(sc, &rq, &id) != LDS_OK) {
      fprintf(stderr, "bench_costview: %s\n", lds_scheduler_errmsg(sc));
      return 2;
    }
  }
  while (lds_scheduler_pending(sc) > 0) {
    lds_Budget b = {0, budget};
    lds_TickStats ts;
    uint64_t t0 = cpu_us(), dt;
    lds_scheduler_step(sc, &b, &ts);
    dt = cpu_us() - t0;
    sum += dt;
    if (dt > mx) mx = dt;
    if ((double)dt > 1.1 * (double)budget) {
      over++;
      if (getenv("BENCH_VERBOSE"))
        fprintf(stderr, "  frame %llu: %llu us CPU, %llu us measured, %llu expansions, %u started, "
                "%u finished\n", (unsigned long long)frames, (unsigned long long)dt,
                (unsigned long long)ts.elapsed_us, (unsigned long long)ts.expansions, ts.started,
                ts.finished);
#ifdef LDS_COST_VIEW_H
      if (getenv("BENCH_VERBOSE")) fprintf(stderr, "    view cells %llu\n", (unsigned long long)ts.view_cells);
#endif
    }
    found += ts.found;
    frames++;
  }
  printf("map %s (%dx%d), %d requests alternating 2 weight sets, budget %llu us, h_scale 1\n",
         map, (int)w, (int)h, nreq, (unsigned long long)budget);
  printf("  frames %llu, over 1.1x budget %llu (%.1f%%), tick CPU mean %.0f us, max %llu us, "
         "found %llu\n",
         (unsigned long long)frames, (unsigned long long)over, 100.0 * (double)over / (double)frames,
         (double)sum / (double)frames, (unsigned long long)mx, (unsigned long long)found);
#ifdef LDS_COST_VIEW_H
  {
    lds_TickStats tot;
    lds_scheduler_totals(sc, &tot);
    printf("  cost views: %d, %llu cells built, %zu bytes\n", lds_cost_views_count(g),
           (unsigned long long)tot.view_cells, lds_cost_views_mem_used(g));
  }
#endif
  s = lds_search_new(NULL, g, &err);
  {
    double same = start_us(s, wa, wb, 201, false), alt = start_us(s, wa, wb, 21, true), edit;
    lds_SearchParams p;
    uint64_t t0;
    lds_search_params_init(&p);
    p.layer_weights = wa;
    p.n_layer_weights = 2;
    p.h_scale = 1.0;
    lds_search_start(s, &p, 1, 1, 2, 2);
    lds_grid_set_blocked(g, w / 2, h / 2, !lds_grid_blocked(g, w / 2, h / 2));
    t0 = wall_ns();
    lds_search_start(s, &p, 1, 1, 2, 2);
    edit = (double)(wall_ns() - t0) / 1000.0;
    printf("  weighted start (median): same weights %.2f us, other weights %.2f us; "
           "first start after one set_blocked %.2f us\n",
           same, alt, edit);
  }
  lds_search_free(s);
  lds_scheduler_free(sc);
  lds_grid_free(g);
  return 0;
}
