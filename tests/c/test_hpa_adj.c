/* SPDX-License-Identifier: MIT */
/* test_hpa_adj.c — the fast mode's search adjacency (lds_hpa_adj.c) holds
** exactly the abstract graph: per entrance, one edge per inter edge (same
** target cluster and entrance, same cost), then one per finite intra
** distance (same target, same cost), nothing else; after build and after
** every repair of random edits (costs, blocked cells), under two diagonal
** rules. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_hpa_internal.h"

#include <math.h>

static uint32_t rng = 777u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

/* edges of the adjacency that differ from the matrix and inter lists, plus
** the ones missing; *edges counts those compared */
static int adjacency_differs(const lds_Hpa *h, size_t *edges) {
  uint32_t c, i, j;
  int bad = 0;
  for (c = 0; c < h->ncl; c++) {
    const ldsi_HpaCluster *k = &h->cl[c];
    if (k->n == 0) continue;
    bad += k->eoff[0] != 0 || k->eoff[k->n] != k->nedge;
    for (i = 0; i < k->n; i++) {
      const ldsi_HpaEdge *e = k->edge + k->eoff[i], *end = k->edge + k->eoff[i + 1];
      uint32_t m;
      for (m = k->ioff[i]; m < k->ioff[i + 1]; m++) {
        const ldsi_HpaInter *in = &k->inter[m];
        if (e >= end || (uint32_t)((int32_t)c + h->dcl[e->d]) != in->cl || e->i != in->i ||
            e->c != in->c)
          bad++;
        else (*edges)++;
        if (e < end) e++;
      }
      for (j = 0; j < k->n; j++) {
        float d = k->dist[(size_t)i * k->n + j];
        if (j == i || !(d < INFINITY)) continue;
        if (e >= end || e->d != 4 || e->i != j || e->c != d) bad++;
        else (*edges)++;
        if (e < end) e++;
      }
      bad += e != end;
    }
  }
  return bad;
}

static void test_adjacency(void) {
  int rule;
  for (rule = 0; rule < 2; rule++) {
    lds_Grid *g;
    lds_HpaParams hp;
    lds_Hpa *h;
    size_t edges = 0;
    int32_t x, y;
    int round, bad = 0;
    g = lds_grid_new(NULL, 90, 70, NULL);
    lds_grid_set_diagonal(g, rule ? LDS_DIAG_ALWAYS : LDS_DIAG_NO_CORNER_CUTTING);
    for (y = 0; y < 70; y++)
      for (x = 0; x < 90; x++) {
        if (rnd() % 100 < 22) lds_grid_set_blocked(g, x, y, true);
        else if (rnd() % 4 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 5));
      }
    lds_hpa_params_init(&hp);
    hp.cluster_size = 8;
    hp.lower_bounds = false;
    h = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(h != NULL);
    if (!h) {
      lds_grid_free(g);
      continue;
    }
    bad += adjacency_differs(h, &edges);
    for (round = 0; round < 12; round++) {
      int k;
      for (k = 0; k < 8; k++) {
        x = (int32_t)(rnd() % 90);
        y = (int32_t)(rnd() % 70);
        if (rnd() % 3 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4));
        else lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
      }
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      bad += adjacency_differs(h, &edges);
    }
    CHECK_INT(bad, 0);
    CHECK(edges > 20000);
    lds_hpa_free(h);
    lds_grid_free(g);
  }
}

void suite_hpa_adj(void);
void suite_hpa_adj(void) { test_adjacency(); }
