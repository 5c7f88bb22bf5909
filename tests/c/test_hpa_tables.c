/* SPDX-License-Identifier: MIT */
/* test_hpa_tables.c — the tables the hierarchy's fast mode reads instead of
** searching (lds_hpa_internal.h): every entrance's parent tree gives, for
** every entrance it reaches, a legal path inside the cluster whose cost is
** the stored intra distance; the inter-edge lists equal the legal moves out
** of each entrance onto an entrance of a neighbouring cluster; and after
** random edits (blocks, opens, terrain costs, under layer weights too) the
** repaired tables equal a fresh build's, cell for cell. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_hpa_internal.h"

#include <math.h>
#include <stdlib.h>

static uint32_t rng = 777u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static lds_Grid *random_grid(int32_t w, int32_t h, int pct, lds_Diagonal diag) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  lds_grid_set_diagonal(g, diag);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
      else if (rnd() % 4 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 5));
    }
  return g;
}

/* cost of the move from padded a to padded b (one legal move), INFINITY if
** it is not one */
static double move_cost(const lds_Hpa *h, uint32_t a, uint32_t b) {
  int d;
  for (d = 0; d < 8; d++)
    if ((ptrdiff_t)a + h->off[d] == (ptrdiff_t)b) {
      if (!ldsi_hpa_can(h, a, d, h->off)) return INFINITY;
      return ldsi_hpa_move_len(d) * ldsi_hpa_cost(h, b);
    }
  return INFINITY;
}

/* parent trees: the traced intra paths are legal, stay in their cluster,
** and cost the stored distance (a float rounded down: within 1e-5) */
static int check_traces(const lds_Hpa *h, size_t *paths) {
  uint32_t c, i, j, *buf = malloc((size_t)h->C * (size_t)h->C * sizeof(uint32_t));
  int bad = 0;
  for (c = 0; c < h->ncl; c++) {
    const ldsi_HpaCluster *k = &h->cl[c];
    for (i = 0; i < k->n; i++)
      for (j = 0; j < k->n; j++) {
        double dist = (double)k->dist[(size_t)i * k->n + j], cost = 0.0;
        size_t n = ldsi_hpa_intra_trace(h, c, i, j, buf, (size_t)h->C * (size_t)h->C), m;
        if (!isfinite(dist)) {
          bad += n != 0;
          continue;
        }
        if (n == 0 || buf[0] != k->cell[i] || buf[n - 1] != k->cell[j]) {
          bad++;
          continue;
        }
        for (m = 0; m + 1 < n; m++) {
          int32_t x, y;
          ldsi_grid_pxy(h->grid, buf[m + 1], &x, &y);
          if (ldsi_hpa_cluster_of(h, x, y) != c) cost = INFINITY;
          cost += move_cost(h, buf[m], buf[m + 1]);
        }
        if (!(cost >= dist - 1e-9 && cost <= dist * (1 + 1e-5) + 1e-9)) bad++;
        (*paths)++;
      }
  }
  free(buf);
  return bad;
}

/* inter edges: equal to the brute-force list of legal moves from each
** entrance onto an entrance of another cluster, with their costs */
static int check_inter(const lds_Hpa *h) {
  uint32_t c, i;
  int bad = 0;
  for (c = 0; c < h->ncl; c++) {
    const ldsi_HpaCluster *k = &h->cl[c];
    size_t total = 0;
    for (i = 0; i < k->n; i++) {
      uint32_t e = k->ioff[i];
      int d;
      for (d = 0; d < 8; d++) {
        int32_t x, y;
        uint32_t p = k->cell[i], t, tc;
        uint8_t ni;
        ldsi_grid_pxy(h->grid, p, &x, &y);
        x += ldsi_dir_dx[d];
        y += ldsi_dir_dy[d];
        if (!lds_grid_in_bounds(h->grid, x, y)) continue;
        tc = ldsi_hpa_cluster_of(h, x, y);
        ni = h->nidx[(size_t)y * (size_t)h->grid->w + (size_t)x];
        t = (uint32_t)((ptrdiff_t)p + h->off[d]);
        if (tc == c || !ni || !isfinite(move_cost(h, p, t))) continue;
        if (e >= k->ioff[i + 1] || k->inter[e].cl != tc || k->inter[e].i != (uint32_t)(ni - 1) ||
            h->cl[tc].cell[ni - 1] != t || k->inter[e].xy != ((uint32_t)x | (uint32_t)y << 16) ||
            k->inter[e].c != (float)move_cost(h, p, t))
          bad++;
        e++;
        total++;
      }
      bad += e != k->ioff[i + 1];
    }
    bad += k->n && total != k->ninter;
  }
  return bad;
}

/* the tables of two hierarchies of the same grid are equal */
static int same_tables(const lds_Hpa *a, const lds_Hpa *b) {
  uint32_t c, i, j;
  int bad = 0;
  uint32_t *ba = malloc((size_t)a->C * (size_t)a->C * sizeof(uint32_t));
  uint32_t *bb = malloc((size_t)a->C * (size_t)a->C * sizeof(uint32_t));
  for (c = 0; c < a->ncl; c++) {
    const ldsi_HpaCluster *ka = &a->cl[c], *kb = &b->cl[c];
    if (ka->n != kb->n || ka->ninter != kb->ninter) {
      bad++;
      continue;
    }
    for (i = 0; i < ka->n; i++) {
      bad += ka->cell[i] != kb->cell[i] || ka->ioff[i] != kb->ioff[i];
      for (j = 0; j < ka->n; j++) {
        size_t na = ldsi_hpa_intra_trace(a, c, i, j, ba, (size_t)a->C * (size_t)a->C);
        size_t nb = ldsi_hpa_intra_trace(b, c, i, j, bb, (size_t)a->C * (size_t)a->C), m;
        bad += ka->dist[(size_t)i * ka->n + j] != kb->dist[(size_t)i * kb->n + j] || na != nb;
        for (m = 0; m < na && m < nb; m++) bad += ba[m] != bb[m];
      }
    }
    for (i = 0; i < ka->ninter; i++)
      bad += ka->inter[i].cl != kb->inter[i].cl || ka->inter[i].i != kb->inter[i].i ||
             ka->inter[i].c != kb->inter[i].c;
  }
  free(ba);
  free(bb);
  return bad;
}

static void test_tables_fresh(void) {
  static const lds_Diagonal rules[] = {LDS_DIAG_NO_CORNER_CUTTING, LDS_DIAG_ALLOW_ONE_BLOCKED,
                                       LDS_DIAG_ALWAYS, LDS_DIAG_NEVER};
  size_t r;
  for (r = 0; r < sizeof rules / sizeof rules[0]; r++) {
    lds_Grid *g = random_grid(70, 53, 22, rules[r]);
    lds_HpaParams hp;
    lds_Hpa *h;
    size_t paths = 0;
    lds_hpa_params_init(&hp);
    hp.cluster_size = 8 + 4 * (int)r;
    h = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(h != NULL);
    if (!h) continue;
    CHECK_INT(check_traces(h, &paths), 0);
    CHECK(paths > 200); /* the check ran on real paths */
    CHECK_INT(check_inter(h), 0);
    lds_hpa_free(h);
    lds_grid_free(g);
  }
}

/* random edits (blocks, opens, costs; with a weighted layer), each round
** repaired: the tables equal a fresh build's */
static void test_tables_repair(void) {
  lds_Grid *g = random_grid(90, 75, 18, LDS_DIAG_NO_CORNER_CUTTING);
  lds_HpaParams hp;
  double w[1] = {2.0};
  lds_Hpa *h, *fresh;
  int round, diff = 0, bad = 0;
  size_t paths = 0;
  lds_grid_layer_add(g, "mud", NULL);
  lds_hpa_params_init(&hp);
  hp.layer_weights = w;
  hp.n_layer_weights = 1;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) return;
  for (round = 0; round < 10; round++) {
    int k;
    for (k = 0; k < 8; k++) {
      int32_t x = (int32_t)(rnd() % 90), y = (int32_t)(rnd() % 75);
      switch (rnd() % 4) {
      case 0: lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4)); break;
      case 1: lds_grid_layer_set(g, 0, x, y, (float)(rnd() % 3)); break;
      default: lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); break;
      }
    }
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    fresh = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(fresh != NULL);
    if (!fresh) break;
    diff += same_tables(h, fresh);
    bad += check_inter(h) + check_traces(h, &paths);
    lds_hpa_free(fresh);
  }
  CHECK_INT(diff, 0);
  CHECK_INT(bad, 0);
  CHECK(paths > 1000);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_tables(void);
void suite_hpa_tables(void) {
  test_tables_fresh();
  test_tables_repair();
}
