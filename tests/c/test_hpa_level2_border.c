/* SPDX-License-Identifier: MIT */
/* test_hpa_level2_border.c — doors on cluster borders under a second level
** (lds_hpa_level2.c): a 256 x 256 random map, clusters of 8, second-level
** clusters of 4 x 4; cells on cluster borders toggled in a random sequence,
** each toggle repaired. A toggle that changes an entrance list leaves its
** second-level cluster stale; after each one, fast queries (weight 1) are
** legal, cost at least the A* optimum and at most their abstract cost,
** whose value equals the first level's alone (lds_hpa_use_level2 off), and
** optimal queries cost the A* optimum. Doors closed then opened make a
** stale cluster exact again; lds_hpa_refresh rebuilds the oldest, ending a
** fast query running across it with LDS_E_STALE; refreshed to none stale,
** the second level equals a fresh build's entrance and edge counts. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_hpa_level2_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t rng = 4242u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static void free_cell(const lds_Grid *g, int32_t *x, int32_t *y) { thf_free_cell(g, &rng, x, y); }

static lds_Status run(lds_HpaQuery *q, lds_HpaMode m, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  if (lds_hpa_query_start(q, m, sx, sy, gx, gy) != LDS_OK) return LDS_E_STATE;
  return lds_hpa_query_step(q, NULL);
}

static bool legal(const lds_Grid *g, const lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx,
                  int32_t gy) {
  return thf_legal(g, q, NULL, 0, sx, sy, gx, gy);
}

/* n random queries on h against A*; adds the failures to *bad, the found
** ones to *found, the queries that crossed a stale cluster's cells to
** nothing (all are checked the same way) */
static void check_queries(lds_Grid *g, lds_Hpa *h, lds_HpaQuery *q, lds_Search *s, int n, int *bad,
                          int *found) {
  lds_SearchParams sp;
  int i;
  lds_search_params_init(&sp);
  for (i = 0; i < n; i++) {
    int32_t sx, sy, gx, gy;
    lds_Status sa, st;
    double a, c, ab, ab1;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    CHECK_INT(lds_search_start(s, &sp, sx, sy, gx, gy), LDS_OK);
    sa = lds_search_step(s, NULL);
    a = lds_search_cost(s);
    CHECK_INT(lds_hpa_use_level2(h, true), LDS_OK);
    st = run(q, LDS_HPA_FAST, sx, sy, gx, gy);
    if ((st == LDS_FOUND) != (sa == LDS_FOUND)) {
      (*bad)++;
      continue;
    }
    if (st != LDS_FOUND) continue;
    (*found)++;
    c = lds_hpa_query_cost(q);
    ab = lds_hpa_query_abstract_cost(q);
    *bad += !legal(g, q, sx, sy, gx, gy);
    *bad += c < a * (1 - 1e-9);
    *bad += c > ab * (1 + 1e-6);
    /* the first level alone: the same abstract cost */
    CHECK_INT(lds_hpa_use_level2(h, false), LDS_OK);
    st = run(q, LDS_HPA_FAST, sx, sy, gx, gy);
    ab1 = lds_hpa_query_abstract_cost(q);
    *bad += st != LDS_FOUND || fabs(ab1 - ab) > 1e-6 * (ab > 1 ? ab : 1);
    CHECK_INT(lds_hpa_use_level2(h, true), LDS_OK);
    /* the optimal mode: the A* optimum */
    st = run(q, LDS_HPA_OPTIMAL, sx, sy, gx, gy);
    *bad += st != LDS_FOUND || fabs(lds_hpa_query_cost(q) - a) > 1e-6 * (a > 1 ? a : 1);
  }
}

static void test_border_doors(void) {
  enum { W = 256, C = 8, K = 4, NDOOR = 48, TOGGLES = 120 };
  lds_Grid *g = lds_grid_new(NULL, W, W, NULL);
  lds_HpaParams hp;
  lds_Hpa *h, *fresh;
  lds_HpaQuery *q;
  lds_Search *s;
  lds_HpaInfo info;
  int32_t dx[NDOOR], dy[NDOOR];
  int32_t x, y;
  int t, bad = 0, found = 0, stale_seen = 0, max_stale = 0, across = 0;
  for (y = 0; y < W; y++)
    for (x = 0; x < W; x++)
      if (rnd() % 100 < 18) lds_grid_set_blocked(g, x, y, true);
  /* doors: passable cells on a cluster's border row or column */
  for (t = 0; t < NDOOR; t++) {
    do {
      x = 1 + (int32_t)(rnd() % (W - 2));
      y = 1 + (int32_t)(rnd() % (W - 2));
      if (rnd() % 2) x = x / C * C + (rnd() % 2 ? C - 1 : 0);
      else y = y / C * C + (rnd() % 2 ? C - 1 : 0);
    } while (lds_grid_blocked(g, x, y) || x < 1 || y < 1 || x > W - 2 || y > W - 2);
    dx[t] = x;
    dy[t] = y;
  }
  lds_hpa_params_init(&hp);
  hp.cluster_size = C;
  hp.level2 = K;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) {
    lds_grid_free(g);
    return;
  }
  CHECK_INT(lds_hpa_set_fast_weight(h, 1.0), LDS_OK);
  q = lds_hpa_query_new(h, NULL);
  s = lds_search_new(NULL, g, NULL);
  for (t = 0; t < TOGGLES; t++) {
    int d = (int)(rnd() % NDOOR);
    lds_grid_set_blocked(g, dx[d], dy[d], !lds_grid_blocked(g, dx[d], dy[d]));
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    lds_hpa_info(h, &info);
    stale_seen += info.level2_stale > 0;
    if ((int)info.level2_stale > max_stale) max_stale = (int)info.level2_stale;
    check_queries(g, h, q, s, 4, &bad, &found);
    if (t % 30 == 29 && info.level2_stale > 0) {
      /* a fast query running across a refresh ends stale */
      lds_Budget b = {1, 0};
      int32_t sx, sy, gx, gy;
      free_cell(g, &sx, &sy);
      free_cell(g, &gx, &gy);
      CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy), LDS_OK);
      CHECK_INT(lds_hpa_refresh(h), LDS_OK);
      across += lds_hpa_query_step(q, &b) == LDS_E_STALE;
      lds_hpa_info(h, &info);
      check_queries(g, h, q, s, 4, &bad, &found);
    }
  }
  printf("  level2 border doors: %d toggles, %d queries found, stale after %d repairs (at most %d), "
         "%llu exact again, %llu rebuilt\n",
         TOGGLES, found, stale_seen, max_stale, (unsigned long long)h->l2->unstaled,
         (unsigned long long)h->l2->refreshed);
  CHECK_INT(bad, 0);
  CHECK(found > 300);
  /* repairs left clusters stale, at most LDSI_L2_STALE_MAX */
  CHECK(stale_seen > 0);
  CHECK(max_stale <= LDSI_L2_STALE_MAX);
  CHECK(across > 0);
  /* doors opened again made stale clusters exact without a rebuild; the
  ** refreshes and the bound rebuilt others */
  CHECK(h->l2->unstaled > 0);
  CHECK(h->l2->refreshed > 0);
  for (t = 0; t < 100 && (lds_hpa_info(h, &info), info.level2_stale > 0); t++)
    CHECK_INT(lds_hpa_refresh(h), LDS_OK);
  CHECK_INT(info.level2_stale, 0);
  fresh = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(fresh != NULL);
  if (fresh) {
    lds_HpaInfo fi;
    lds_hpa_info(fresh, &fi);
    CHECK(fi.level2_entrances == info.level2_entrances);
    CHECK(fresh->l2->edges == h->l2->edges);
    lds_hpa_free(fresh);
  }
  check_queries(g, h, q, s, 20, &bad, &found);
  CHECK_INT(bad, 0);
  lds_search_free(s);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_level2_border(void);
void suite_hpa_level2_border(void) { test_border_doors(); }
