/* SPDX-License-Identifier: MIT */
/* test_hpa_level2_ids.c — the fast query's search ids with a second level
** (lds_hpa_query.c layout: the first level's ids, START and GOAL, then one
** run per second-level cluster): one query object kept across rounds of
** random edits, each repaired, answers every query as a query object made
** afresh on the same repaired hierarchy does, cell for cell, while the
** edits change the number of second-level entrances (so the ids are laid
** out again); and with the second level its abstract cost is the first
** level's alone. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"

#include <math.h>

static uint32_t rng = 4242u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static void free_cell(const lds_Grid *g, int32_t *x, int32_t *y) { thf_free_cell(g, &rng, x, y); }

/* runs q from (sx, sy) to (gx, gy); its path (NULL unless found) */
static lds_Path *run(lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  if (lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy) != LDS_OK) return NULL;
  if (lds_hpa_query_step(q, NULL) != LDS_FOUND) return NULL;
  return lds_hpa_query_path(q, NULL);
}

/* 1 when a and b differ (presence, length, a cell) */
static int paths_differ(const lds_Path *a, const lds_Path *b) {
  size_t i;
  if (!a || !b) return (a == NULL) != (b == NULL);
  if (lds_path_length(a) != lds_path_length(b)) return 1;
  for (i = 0; i < lds_path_length(a); i++)
    if (lds_path_node(a, i) != lds_path_node(b, i)) return 1;
  return 0;
}

static void test_kept_query(void) {
  lds_Grid *g = lds_grid_new(NULL, 180, 140, NULL);
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_HpaInfo info;
  size_t n0;
  int32_t x, y;
  int round, i, differ = 0, abstract = 0, found = 0, counts_changed = 0;
  for (y = 0; y < 140; y++)
    for (x = 0; x < 180; x++)
      if (rnd() % 100 < 20) lds_grid_set_blocked(g, x, y, true);
  lds_hpa_params_init(&hp);
  hp.cluster_size = 10;
  hp.level2 = 3;
  hp.fast_weight = 1.0; /* the shortest abstract path: the same through either level */
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) {
    lds_grid_free(g);
    return;
  }
  q = lds_hpa_query_new(h, NULL);
  CHECK(q != NULL);
  lds_hpa_info(h, &info);
  CHECK_INT(info.level2, 3);
  n0 = info.level2_entrances;
  for (round = 0; round < 6; round++) {
    lds_HpaQuery *q2;
    int k;
    if (round > 0) {
      /* walls toggled across second-level borders change their entrances */
      for (k = 0; k < 40; k++) {
        int32_t ex = (int32_t)(rnd() % 180), ey = (int32_t)(rnd() % 140);
        if (rnd() % 2) ex = ex / 30 * 30 + (int32_t)(rnd() % 2) * 29;
        else ey = ey / 30 * 30 + (int32_t)(rnd() % 2) * 29;
        if (ex < 180 && ey < 140) lds_grid_set_blocked(g, ex, ey, !lds_grid_blocked(g, ex, ey));
      }
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      lds_hpa_info(h, &info);
      counts_changed += info.level2_entrances != n0;
    }
    q2 = lds_hpa_query_new(h, NULL);
    CHECK(q2 != NULL);
    if (!q2) break;
    for (i = 0; i < 30; i++) {
      int32_t sx, sy, gx, gy;
      lds_Path *a, *b;
      double ab;
      free_cell(g, &sx, &sy);
      free_cell(g, &gx, &gy);
      a = run(q, sx, sy, gx, gy);
      ab = lds_hpa_query_abstract_cost(q);
      b = run(q2, sx, sy, gx, gy);
      differ += paths_differ(a, b);
      if (a) {
        found++;
        CHECK_INT(lds_hpa_use_level2(h, false), LDS_OK);
        lds_path_free(run(q, sx, sy, gx, gy));
        abstract += fabs(lds_hpa_query_abstract_cost(q) - ab) > 1e-6 * (ab > 1 ? ab : 1);
        CHECK_INT(lds_hpa_use_level2(h, true), LDS_OK);
      }
      lds_path_free(a);
      lds_path_free(b);
    }
    lds_hpa_query_free(q2);
  }
  CHECK_INT(differ, 0);
  CHECK_INT(abstract, 0);
  CHECK(found > 100);
  CHECK(counts_changed > 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_level2_ids(void);
void suite_hpa_level2_ids(void) { test_kept_query(); }
