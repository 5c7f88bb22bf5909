/* SPDX-License-Identifier: MIT */
/* test_hpa_smooth.c — the fast query's refinement and smoothing
** (core/lds_hpa_query.c: raw_append, line_walk, smooth): on random maps
** with and without terrain costs, the path is legal, its reported cost is
** the cost recomputed from its cells (to rounding), it never costs more
** than its abstract path (to the float rounding of the stored distances),
** it is the same cell for cell whole, sliced and asked again, and the
** prefix after every slice is a prefix of the final path; on a grid taller than 32768 rows (coordinates kept as x | y << 16)
** the smoothing straightens an open column to within 1 % of the octile
** cost. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"

#include <stdlib.h>
#include <string.h>

static uint32_t rng = 777u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static void free_cell(const lds_Grid *g, int32_t *x, int32_t *y) { thf_free_cell(g, &rng, x, y); }

/* the fast path's cells; status into *st; NULL when not found */
static lds_Path *fast_path(lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                           uint64_t slice, int *prefix_bad) {
  lds_Budget b = {slice, 0};
  lds_Status st;
  lds_Path *pre[64];
  int np = 0, i;
  lds_Path *p;
  if (lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy) != LDS_OK) return NULL;
  while ((st = lds_hpa_query_step(q, slice ? &b : NULL)) == LDS_RUNNING)
    if (np < 64) pre[np++] = lds_hpa_query_prefix(q, NULL);
  p = st == LDS_FOUND ? lds_hpa_query_path(q, NULL) : NULL;
  for (i = 0; i < np; i++) {
    size_t n = pre[i] ? lds_path_length(pre[i]) : 0;
    if (p && n && (n > lds_path_length(p) ||
                   memcmp(lds_path_nodes(pre[i]), lds_path_nodes(p), n * sizeof(uint32_t)) != 0))
      (*prefix_bad)++;
    lds_path_free(pre[i]);
  }
  return p;
}

static int same_path(const lds_Path *a, const lds_Path *b) {
  return a && b && lds_path_length(a) == lds_path_length(b) &&
         memcmp(lds_path_nodes(a), lds_path_nodes(b), lds_path_length(a) * sizeof(uint32_t)) == 0;
}

static void random_queries(bool costs, int cluster) {
  lds_Grid *g = lds_grid_new(NULL, 160, 130, NULL);
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *q;
  int32_t x, y;
  int i, illegal = 0, dear = 0, cost_off = 0, differ = 0, prefix_bad = 0, found = 0;
  for (y = 0; y < 130; y++)
    for (x = 0; x < 160; x++) {
      if ((int)(rnd() % 100) < 22) lds_grid_set_blocked(g, x, y, true);
      else if (costs && rnd() % 3 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4));
    }
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  q = lds_hpa_query_new(h, NULL);
  CHECK(q != NULL);
  for (i = 0; i < 60; i++) {
    int32_t sx, sy, gx, gy;
    lds_Path *whole, *sliced, *again;
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    double c, ab;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    whole = fast_path(q, sx, sy, gx, gy, 0, &prefix_bad);
    if (!whole) continue;
    found++;
    c = lds_hpa_query_cost(q);
    ab = lds_hpa_query_abstract_cost(q);
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = sx;
    pc.sy = sy;
    pc.gx = gx;
    pc.gy = gy;
    if (lds_path_check(g, whole, &pc, &rep, NULL) != LDS_OK) illegal++;
    if (fabs(rep.cost - c) > 1e-9 * (c > 1 ? c : 1)) cost_off++;
    if (c > ab * (1 + 1e-6)) dear++; /* the stored distances are floats rounded down */
    sliced = fast_path(q, sx, sy, gx, gy, 7 + (uint64_t)(i % 5) * 13, &prefix_bad);
    again = fast_path(q, sx, sy, gx, gy, 0, &prefix_bad);
    if (!same_path(whole, sliced) || !same_path(whole, again)) differ++;
    lds_path_free(whole);
    lds_path_free(sliced);
    lds_path_free(again);
  }
  CHECK(found > 30); /* most random pairs on a 22 % blocked map connect */
  CHECK_INT(illegal, 0);
  CHECK_INT(cost_off, 0);
  CHECK_INT(dear, 0);
  CHECK_INT(differ, 0);
  CHECK_INT(prefix_bad, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* a 6 x 40000 open grid: rows past 32767 (the top bit of x | y << 16's y
** half set); the fast path down a column, whose entrances sit at the
** clusters' middles, smooths to within 1 % of the octile cost */
static void tall_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, 6, 40000, NULL);
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *q;
  static const int32_t pairs[][4] = {{0, 39990, 5, 32770}, {5, 32700, 0, 33100}, {1, 100, 4, 39999}};
  int i, bad = 0, illegal = 0;
  lds_hpa_params_init(&hp);
  hp.lower_bounds = false; /* no landmark tables: 240,000 cells */
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  q = lds_hpa_query_new(h, NULL);
  CHECK(q != NULL);
  for (i = 0; i < 3; i++) {
    const int32_t *k = pairs[i];
    int32_t ax = abs(k[2] - k[0]), ay = abs(k[3] - k[1]);
    double oct = (double)(ax > ay ? ax - ay : ay - ax) + (double)(ax < ay ? ax : ay) * 1.4142135623730951;
    int pb = 0;
    lds_Path *p = fast_path(q, k[0], k[1], k[2], k[3], (uint64_t)i * 50, &pb);
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    CHECK(p != NULL);
    if (!p) continue;
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = k[0];
    pc.sy = k[1];
    pc.gx = k[2];
    pc.gy = k[3];
    if (lds_path_check(g, p, &pc, &rep, NULL) != LDS_OK || pb) illegal++;
    if (lds_hpa_query_cost(q) > oct * 1.01 || lds_hpa_query_cost(q) < oct - 1e-9) bad++;
    lds_path_free(p);
  }
  CHECK_INT(illegal, 0);
  CHECK_INT(bad, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_smooth(void);
void suite_hpa_smooth(void) {
  random_queries(false, 16);
  random_queries(false, 8);
  random_queries(true, 16);
  tall_grid();
}
