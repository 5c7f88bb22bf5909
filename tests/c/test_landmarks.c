/* SPDX-License-Identifier: MIT */
/* test_landmarks.c — the optimal mode's landmark tables (core/lds_landmarks.c)
** and its searches (core/lds_hpa_exact.c): after every repair of a random
** edit sequence (walls opened and closed, costs and layer values lowered
** and raised) every table is feasible on every edge of the symmetric
** lower-bound graph, exactly as lds_landmarks.h defines it (checked here
** edge by edge, independently of the repair), and the optimal mode's cost
** equals a fresh lds_search A* with the same weights, both with the
** landmark A* and with JPS on a uniform-cost grid. */
#include "harness.h"
#include "lds.h"
#include "lds_hpa_internal.h"
#include "lds_landmarks.h"

#include <math.h>

static uint32_t rng = 2024;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* every G' edge feasible, no reached value next to an unreached one */
static bool feasible(const lds_Hpa *h) {
  const ldsi_Landmarks *m = h->lm;
  const lds_Grid *g = h->grid;
  int32_t x, y;
  int l, d;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t u = ldsi_grid_pidx(g, x, y);
      double cu = ldsi_hpa_cost(h, u);
      if (!isfinite(cu)) continue;
      for (d = 0; d < 8; d++) {
        size_t v;
        double cv, w;
        if (!(g->nbr[u] & (1u << d))) continue;
        v = (size_t)((ptrdiff_t)u + h->off[d]);
        cv = ldsi_hpa_cost(h, v);
        if (!isfinite(cv)) continue;
        w = floor((cu < cv ? cu : cv) * (d < 4 ? 1.0 : LDSI_SQRT2) / m->q);
        for (l = 0; l < m->k; l++) {
          uint32_t a = m->tab[u * (size_t)m->k + (size_t)l], b = m->tab[v * (size_t)m->k + (size_t)l];
          if ((a == LDSI_LM_INF) != (b == LDSI_LM_INF)) return false;
          if (a != LDSI_LM_INF && fabs((double)a - (double)b) > w) return false;
        }
      }
    }
  return true;
}

/* n random queries: the optimal mode against a fresh A* with weights w */
static int compare(lds_Hpa *h, lds_HpaQuery *q, lds_Search *s, const double *w, int nw, int n) {
  const lds_Grid *g = h->grid;
  lds_SearchParams p;
  int i, bad = 0;
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = nw;
  for (i = 0; i < n; i++) {
    int32_t sx = (int32_t)(rnd() % (uint32_t)g->w), sy = (int32_t)(rnd() % (uint32_t)g->h);
    int32_t gx = (int32_t)(rnd() % (uint32_t)g->w), gy = (int32_t)(rnd() % (uint32_t)g->h);
    lds_Status a, o;
    lds_Budget b = {37, 0}; /* sliced */
    if (lds_hpa_query_start(q, LDS_HPA_OPTIMAL, sx, sy, gx, gy) != LDS_OK) {
      bad++;
      continue;
    }
    while ((o = lds_hpa_query_step(q, &b)) == LDS_RUNNING) {}
    CHECK_INT(lds_search_start(s, &p, sx, sy, gx, gy), LDS_OK);
    a = lds_search_step(s, NULL);
    if (a != o) {
      bad++;
      continue;
    }
    if (a == LDS_FOUND && fabs(lds_search_cost(s) - lds_hpa_query_cost(q)) > 1e-9 * lds_search_cost(s))
      bad++;
  }
  return bad;
}

static void random_edit(lds_Grid *g, int layer, bool uniform) {
  int32_t x = (int32_t)(rnd() % (uint32_t)g->w), y = (int32_t)(rnd() % (uint32_t)g->h);
  uint32_t k = uniform ? rnd() % 2 : rnd() % 5;
  if (k == 0) lds_grid_set_blocked(g, x, y, false);        /* a door opens */
  else if (k == 1) lds_grid_set_blocked(g, x, y, true);    /* closes */
  else if (k == 2) lds_grid_set_cost(g, x, y, 1.0f);       /* cheaper */
  else if (k == 3) lds_grid_set_cost(g, x, y, 4.0f);       /* dearer */
  else lds_grid_layer_set(g, layer, x, y, (float)(rnd() % 3)); /* either */
}

void suite_landmarks(void);
void suite_landmarks(void) {
  lds_Grid *g = lds_grid_new(NULL, 70, 50, NULL), *u = lds_grid_new(NULL, 64, 48, NULL);
  lds_HpaParams hp;
  lds_Hpa *h, *ha, *hj;
  lds_HpaQuery *q, *qa, *qj;
  lds_Search *s = lds_search_new(NULL, g, NULL), *su = lds_search_new(NULL, u, NULL);
  double w[1] = {1.5};
  int32_t x, y;
  int layer = -1, round, e, bad = 0, bad_u = 0;
  uint64_t cells = 0;
  CHECK_INT(lds_grid_layer_add(g, "mud", &layer), LDS_OK);
  for (y = 0; y < 50; y++)
    for (x = 0; x < 70; x++) {
      uint32_t r = rnd() % 100;
      if (r < 22) lds_grid_set_blocked(g, x, y, true);
      else if (r < 45) lds_grid_set_cost(g, x, y, (float)(2 + rnd() % 3));
      if (rnd() % 4 == 0) lds_grid_layer_set(g, layer, x, y, 2.0f);
    }
  for (y = 0; y < 48; y++)
    for (x = 0; x < 64; x++)
      if (rnd() % 100 < 25) lds_grid_set_blocked(u, x, y, true);
  lds_hpa_params_init(&hp);
  hp.cluster_size = 8;
  hp.landmarks = 5;
  hp.layer_weights = w;
  hp.n_layer_weights = 1;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  hp.layer_weights = NULL;
  hp.n_layer_weights = 0;
  hp.optimal_jps = false;
  ha = lds_hpa_new(NULL, u, &hp, NULL); /* uniform grid, landmark A* */
  hp.optimal_jps = true;
  hj = lds_hpa_new(NULL, u, &hp, NULL); /* uniform grid, JPS */
  CHECK(h && ha && hj);
  q = lds_hpa_query_new(h, NULL);
  qa = lds_hpa_query_new(ha, NULL);
  qj = lds_hpa_query_new(hj, NULL);
  CHECK_INT(h->lm->k, 5);
  CHECK(feasible(h));
  CHECK(feasible(ha));
  bad += compare(h, q, s, w, 1, 40);
  bad_u += compare(ha, qa, su, NULL, 0, 30) + compare(hj, qj, su, NULL, 0, 30);
  for (round = 0; round < 25; round++) {
    for (e = 0; e < 1 + round % 4; e++) random_edit(g, layer, false);
    random_edit(u, -1, true);
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    CHECK_INT(lds_hpa_repair(ha), LDS_OK);
    CHECK_INT(lds_hpa_repair(hj), LDS_OK);
    cells += h->lm->last_repair_cells;
    CHECK(feasible(h));
    CHECK(feasible(ha));
    bad += compare(h, q, s, w, 1, 12);
    bad_u += compare(ha, qa, su, NULL, 0, 6) + compare(hj, qj, su, NULL, 0, 6);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(bad_u, 0);
  CHECK(h->lm->repairs > 0);
  CHECK(cells > 0); /* decreases were propagated */
  /* the whole grid touched at once (a rule change): repaired as one pass */
  CHECK_INT(lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS), LDS_OK);
  CHECK_INT(lds_hpa_repair(h), LDS_OK);
  CHECK(feasible(h));
  CHECK_INT(compare(h, q, s, w, 1, 30), 0);
  lds_hpa_query_free(q);
  lds_hpa_query_free(qa);
  lds_hpa_query_free(qj);
  lds_hpa_free(h);
  lds_hpa_free(ha);
  lds_hpa_free(hj);
  lds_search_free(s);
  lds_search_free(su);
  lds_grid_free(g);
  lds_grid_free(u);
}
