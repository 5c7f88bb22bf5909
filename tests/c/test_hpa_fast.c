/* SPDX-License-Identifier: MIT */
/* test_hpa_fast.c — what the fast mode reads instead of searching must be
** exact: the landmark copies at the entrances (ldsi_HpaCluster.lmv) equal
** the landmark tables after build and after every repair of random edits
** (cost decreases and opened cells lower table values); the entrances'
** stored trees give the cluster-restricted distance to any cell of the
** cluster (the goal's insertion, and the start's on uniform costs), equal
** to a Dijkstra inside the cluster, unreached cells included; and the
** abstract search guided by the landmarks finds an abstract path of the
** same cost as the octile-guided one (the heuristic is admissible), with a
** legal refined path no dearer than it, across random edits. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_hpa_internal.h"
#include "lds_landmarks.h"

#include <math.h>
#include <stdlib.h>

static uint32_t rng = 4242u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static lds_Grid *random_grid(int32_t w, int32_t h, int pct, int costly) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
      else if (costly && rnd() % 4 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 5));
    }
  return g;
}

/* entrance copies equal the tables, value for value */
static int copies_differ(const lds_Hpa *h) {
  uint32_t c, i;
  int l, bad = 0;
  if (!h->lm) return 1;
  for (c = 0; c < h->ncl; c++) {
    const ldsi_HpaCluster *k = &h->cl[c];
    for (i = 0; i < k->n; i++) {
      const uint32_t *t = ldsi_lm_row(h->lm, k->cell[i]);
      for (l = 0; l < h->lmk; l++) bad += k->lmv[(size_t)i * (size_t)h->lmk + (size_t)l] != t[l];
    }
  }
  return bad;
}

static void random_edits(lds_Grid *g, int n) {
  int k;
  for (k = 0; k < n; k++) {
    int32_t x = (int32_t)(rnd() % (uint32_t)lds_grid_width(g));
    int32_t y = (int32_t)(rnd() % (uint32_t)lds_grid_height(g));
    switch (rnd() % 4) {
    case 0: lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4)); break;
    case 1: lds_grid_set_cost(g, x, y, 1.0f); break; /* a decrease, often */
    default: lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); break;
    }
  }
}

static void test_copies(void) {
  lds_Grid *g = random_grid(96, 80, 20, 1);
  lds_HpaParams hp;
  lds_Hpa *h;
  int round, bad = 0;
  uint64_t lowered = 0;
  lds_hpa_params_init(&hp);
  hp.cluster_size = 8;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) return;
  CHECK_INT(copies_differ(h), 0);
  for (round = 0; round < 25; round++) {
    random_edits(g, 6);
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    lowered += h->lm->last_repair_cells;
    bad += copies_differ(h);
  }
  CHECK_INT(bad, 0);
  CHECK(lowered > 0); /* the repairs did lower table values */
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* tree distances against a Dijkstra inside the cluster: forward from each
** entrance to every cell (the goal's side, any costs), and on a uniform
** grid the reverse too (the start's side) */
static int trees_differ(const lds_Hpa *h, size_t *checked) {
  ldsi_HpaLocal L;
  uint32_t c, i;
  int bad = 0;
  const lds_Grid *g = h->grid;
  if (!ldsi_hpa_local_init(&h->env, &L, (size_t)h->C * (size_t)h->C)) return 1;
  for (c = 0; c < h->ncl; c++) {
    const ldsi_HpaCluster *k = &h->cl[c];
    for (i = 0; i < k->n; i++) {
      int32_t x, y;
      uint32_t src = k->cell[i];
      ldsi_hpa_local_dijkstra(h, &L, k->x0, k->y0, k->x1, k->y1, &src, 1);
      for (y = k->y0; y <= k->y1; y++)
        for (x = k->x0; x <= k->x1; x++) {
          size_t p = ldsi_grid_pidx(g, x, y), steps = 0;
          double want = ldsi_hpa_local_g(h, &L, p), got = ldsi_hpa_tree_cost(h, c, i, p, &steps);
          if (!isfinite(want) || !isfinite(got)) {
            bad += isfinite(want) != isfinite(got);
          } else {
            bad += fabs(want - got) > 1e-9 * (want > 1 ? want : 1);
            (*checked)++;
          }
        }
    }
  }
  ldsi_hpa_local_free(&h->env, &L);
  return bad;
}

static void test_trees(void) {
  int costly;
  for (costly = 0; costly < 2; costly++) {
    lds_Grid *g = random_grid(64, 48, 24, costly);
    lds_HpaParams hp;
    lds_Hpa *h;
    size_t checked = 0;
    int round, bad = 0;
    lds_hpa_params_init(&hp);
    hp.cluster_size = 8;
    hp.lower_bounds = false;
    h = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(h != NULL);
    if (!h) continue;
    bad += trees_differ(h, &checked);
    for (round = 0; round < 5; round++) {
      random_edits(g, 8);
      if (!costly)
        for (int32_t y = 0; y < 48; y++)
          for (int32_t x = 0; x < 64; x++) lds_grid_set_cost(g, x, y, 1.0f);
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      bad += trees_differ(h, &checked);
    }
    CHECK_INT(bad, 0);
    CHECK(checked > 5000);
    lds_hpa_free(h);
    lds_grid_free(g);
  }
}

/* the path's cells are legal moves and cost what the query reports */
static bool legal(const lds_Grid *g, const lds_Path *p, double *cost) {
  double c = 0.0;
  size_t i;
  for (i = 1; i < lds_path_length(p); i++) {
    int32_t ax, ay, bx, by;
    int d;
    lds_path_cell(p, i - 1, &ax, &ay);
    lds_path_cell(p, i, &bx, &by);
    d = lds_direction_of(bx - ax, by - ay);
    if (d < 0 || !lds_grid_can_move(g, ax, ay, d)) return false;
    c += (d < 4 ? 1.0 : sqrt(2.0)) * (double)lds_grid_cost(g, bx, by);
  }
  *cost = c;
  return true;
}

/* landmark-guided vs octile-guided abstract search: the same abstract
** cost (both optimal on the abstract graph), legal refined paths no
** dearer than it, on uniform and costly grids, across edits */
static void test_alt_abstract(void) {
  int costly;
  for (costly = 0; costly < 2; costly++) {
    lds_Grid *g = random_grid(120, 90, 22, costly);
    lds_HpaParams hp;
    lds_Hpa *ha, *ho;
    lds_HpaQuery *qa, *qo;
    int round, differ = 0, bad = 0, found = 0, weighted = 0;
    uint64_t exp_a = 0, exp_o = 0, exp_w = 0;
    lds_hpa_params_init(&hp);
    hp.cluster_size = 10;
    ha = lds_hpa_new(NULL, g, &hp, NULL);
    hp.lower_bounds = false;
    ho = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(ha != NULL && ho != NULL);
    if (!ha || !ho) continue;
    /* both searches on the shortest abstract path (w 1) */
    CHECK_INT(lds_hpa_set_fast_weight(ha, 1.0), LDS_OK);
    CHECK_INT(lds_hpa_set_fast_weight(ho, 1.0), LDS_OK);
    qa = lds_hpa_query_new(ha, NULL);
    qo = lds_hpa_query_new(ho, NULL);
    for (round = 0; round < 6; round++) {
      int k;
      for (k = 0; k < 40; k++) {
        int32_t sx = (int32_t)(rnd() % 120), sy = (int32_t)(rnd() % 90);
        int32_t gx = (int32_t)(rnd() % 120), gy = (int32_t)(rnd() % 90);
        lds_Status sa, so;
        lds_Stats st;
        CHECK_INT(lds_hpa_query_start(qa, LDS_HPA_FAST, sx, sy, gx, gy), LDS_OK);
        CHECK_INT(lds_hpa_query_start(qo, LDS_HPA_FAST, sx, sy, gx, gy), LDS_OK);
        sa = lds_hpa_query_step(qa, NULL);
        so = lds_hpa_query_step(qo, NULL);
        differ += sa != so;
        if (sa != LDS_FOUND || so != LDS_FOUND) continue;
        found++;
        {
          double a = lds_hpa_query_abstract_cost(qa), o = lds_hpa_query_abstract_cost(qo), c;
          lds_Path *p = lds_hpa_query_path(qa, NULL);
          differ += fabs(a - o) > 1e-6 * (o > 1 ? o : 1);
          bad += !p || !legal(g, p, &c) || fabs(c - lds_hpa_query_cost(qa)) > 1e-6 * (c > 1 ? c : 1) ||
                 c > a * (1 + 1e-6);
          lds_path_free(p);
        }
        lds_hpa_query_stats(qa, &st);
        exp_a += st.expansions;
        lds_hpa_query_stats(qo, &st);
        exp_o += st.expansions;
        /* the default weight: an abstract path within LDS_HPA_FAST_WEIGHT x
        ** the shortest, a legal refined path no dearer than it */
        {
          double a = lds_hpa_query_abstract_cost(qa), aw, c;
          lds_Path *p;
          CHECK_INT(lds_hpa_set_fast_weight(ha, LDS_HPA_FAST_WEIGHT), LDS_OK);
          CHECK_INT(lds_hpa_query_start(qa, LDS_HPA_FAST, sx, sy, gx, gy), LDS_OK);
          CHECK_INT(lds_hpa_set_fast_weight(ha, 1.0), LDS_OK); /* the started query keeps its weight */
          CHECK_INT(lds_hpa_query_step(qa, NULL), LDS_FOUND);
          aw = lds_hpa_query_abstract_cost(qa);
          p = lds_hpa_query_path(qa, NULL);
          weighted += aw > a * LDS_HPA_FAST_WEIGHT * (1 + 1e-6) || aw < a * (1 - 1e-6) || !p ||
                      !legal(g, p, &c) || c > aw * (1 + 1e-6);
          lds_path_free(p);
          lds_hpa_query_stats(qa, &st);
          exp_w += st.expansions;
        }
      }
      random_edits(g, 10);
    }
    CHECK_INT(differ, 0);
    CHECK_INT(bad, 0);
    CHECK(found > 100);
    CHECK(exp_a < exp_o); /* the landmarks do guide the abstract search */
    CHECK_INT(weighted, 0);
    CHECK(exp_w < exp_a); /* the weight does cut the abstract search */
    lds_hpa_query_free(qa);
    lds_hpa_query_free(qo);
    lds_hpa_free(ha);
    lds_hpa_free(ho);
    lds_grid_free(g);
  }
}

/* lds_hpa_set_fast_weight and lds_HpaParams.fast_weight: out of range
** and NaN refused with a message, the weight kept */
static void test_weight_args(void) {
  lds_Grid *g = random_grid(40, 30, 10, 0);
  lds_HpaParams hp;
  lds_HpaInfo info;
  lds_Hpa *h;
  lds_Error err;
  lds_hpa_params_init(&hp);
  CHECK(hp.fast_weight == LDS_HPA_FAST_WEIGHT);
  hp.fast_weight = 0.5;
  CHECK(lds_hpa_new(NULL, g, &hp, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "fast_weight 0.5 out of range");
  hp.fast_weight = 2.0;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (h) {
    CHECK_INT(lds_hpa_set_fast_weight(h, 0.99), LDS_E_ARG);
    CHECK_INT(lds_hpa_set_fast_weight(h, NAN), LDS_E_ARG);
    CHECK_INT(lds_hpa_set_fast_weight(h, LDS_HPA_MAX_FAST_WEIGHT * 1.01), LDS_E_ARG);
    CHECK_CONTAINS(lds_hpa_errmsg(h), "out of range (expected 1..10)");
    lds_hpa_info(h, &info);
    CHECK(info.fast_weight == 2.0);
    CHECK_INT(lds_hpa_set_fast_weight(h, 1.5), LDS_OK);
    lds_hpa_info(h, &info);
    CHECK(info.fast_weight == 1.5);
  }
  CHECK_INT(lds_hpa_set_fast_weight(NULL, 1.0), LDS_E_ARG);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_fast(void);
void suite_hpa_fast(void) {
  test_copies();
  test_trees();
  test_alt_abstract();
  test_weight_args();
}
