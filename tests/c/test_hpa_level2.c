/* SPDX-License-Identifier: MIT */
/* test_hpa_level2.c — the hierarchy's second level (lds_hpa_level2.c), on
** random maps with terrain costs and layer weights, small clusters and
** small second-level clusters so that most of a query's abstract search
** runs on the second level: the fast path through both levels is legal,
** costs no more than its abstract path and at most 25 % above the optimum
** (the bound test_hpa.c asserts for the first level; on terrain costs
** unless the first level alone is above it on that query), and its abstract
** cost equals the first level's alone (the second level's distances are
** exact over the first level); sliced queries give the same path; after
** rounds of random edits the repaired second level equals a fresh build's
** (entrances, edges, leaving inter edges, landmark copies, parent trees) and answers every query with the same
** path cost. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_hpa_level2_internal.h"
#include "lds_landmarks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 777u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static lds_Grid *random_grid(int32_t w, int32_t h, int pct, bool costs) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
      else if (costs && rnd() % 4 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 5));
    }
  return g;
}

static void free_cell(const lds_Grid *g, int32_t *x, int32_t *y) { thf_free_cell(g, &rng, x, y); }

static void random_edits(lds_Grid *g, int n) {
  int k;
  for (k = 0; k < n; k++) {
    int32_t x = (int32_t)(rnd() % (uint32_t)lds_grid_width(g));
    int32_t y = (int32_t)(rnd() % (uint32_t)lds_grid_height(g));
    switch (rnd() % 4) {
    case 0: lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4)); break;
    case 1: lds_grid_set_cost(g, x, y, 1.0f); break;
    default: lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); break;
    }
  }
}

static lds_Status run_sliced(lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                             uint64_t slice) {
  lds_Budget b = {slice, 0};
  lds_Status st;
  if (lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy) != LDS_OK) return LDS_E_STATE;
  while ((st = lds_hpa_query_step(q, slice ? &b : NULL)) == LDS_RUNNING) {
  }
  return st;
}

static bool legal(const lds_Grid *g, const lds_HpaQuery *q, const double *w, int nw, int32_t sx,
                  int32_t sy, int32_t gx, int32_t gy) {
  return thf_legal(g, q, w, nw, sx, sy, gx, gy);
}

/* the second levels of a and b are the same, edge for edge and tree for
** tree, and a's landmark copies equal a's tables; returns the differences */
static int level2_differ(const lds_Hpa *a, const lds_Hpa *b) {
  const ldsi_HpaL2 *x = a->l2, *y = b->l2;
  uint32_t k;
  int bad = 0;
  if (!x || !y) return 1;
  if (x->n2 != y->n2 || (!x->nstale && (x->entrances != y->entrances || x->edges != y->edges))) return 1;
  for (k = 0; k < x->n2; k++) {
    const ldsi_HpaL2Cluster *p = &x->cl[k], *r = &y->cl[k];
    uint32_t s, e;
    /* a stale cluster is not searched on the second level (its members'
    ** first-level edges are) */
    if (p->stale) continue;
    if (p->n != r->n || p->nb != r->nb) {
      bad++;
      continue;
    }
    for (s = 0; s < p->n; s++)
      bad += p->ent[s].cl != r->ent[s].cl || p->ent[s].i != r->ent[s].i ||
             p->ent[s].loc != r->ent[s].loc || p->eoff[s + 1] != r->eoff[s + 1];
    if (bad) continue;
    for (e = 0; e < p->eoff[p->n]; e++)
      bad += p->edge[e].t != r->edge[e].t || p->edge[e].c != r->edge[e].c;
    /* the leaving inter edges and the landmark copies */
    for (s = 0; s <= p->n; s++) bad += p->xoff[s] != r->xoff[s];
    if (bad) continue;
    for (e = 0; e < p->xoff[p->n]; e++)
      bad += p->xin[e].cl != r->xin[e].cl || p->xin[e].i != r->xin[e].i ||
             p->xin[e].xy != r->xin[e].xy || p->xin[e].c != r->xin[e].c;
    /* the landmark copies follow a's own tables (a repair keeps them
    ** feasible, not equal to a fresh build's) */
    for (s = 0; s < p->n && a->lm; s++)
      bad += memcmp(p->lmv + (size_t)s * (size_t)a->lmk,
                    ldsi_lm_row(a->lm, a->cl[p->ent[s].cl].cell[p->ent[s].i]),
                    (size_t)a->lmk * sizeof(uint32_t)) != 0;
    bad += memcmp(p->par, r->par, (size_t)p->n * p->nb * sizeof(uint16_t)) != 0;
  }
  return bad;
}

/* queries on a hierarchy with a second level; *worst the largest fast / A* ratio */
static void check_queries(lds_Grid *g, lds_Hpa *h, lds_Hpa *fresh, const double *w, int nw, int n,
                          bool costs, double *worst, uint64_t *exp2, uint64_t *exp1, int *found) {
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL), *qf = fresh ? lds_hpa_query_new(fresh, NULL) : NULL;
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams sp;
  int i, illegal = 0, above = 0, bound = 0, abstract = 0, sliced = 0, reach = 0, vs_fresh = 0;
  int weighted = 0;
  lds_search_params_init(&sp);
  /* the shortest abstract path (w 1), the same through either level; the
  ** default weight is checked against it below */
  CHECK_INT(lds_hpa_set_fast_weight(h, 1.0), LDS_OK);
  if (fresh) CHECK_INT(lds_hpa_set_fast_weight(fresh, 1.0), LDS_OK);
  sp.layer_weights = w;
  sp.n_layer_weights = nw;
  for (i = 0; i < n; i++) {
    int32_t sx, sy, gx, gy;
    lds_Status st, sa;
    lds_Stats stats;
    double a, c, ab, ab1, c2;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    CHECK_INT(lds_search_start(s, &sp, sx, sy, gx, gy), LDS_OK);
    sa = lds_search_step(s, NULL);
    a = lds_search_cost(s);
    CHECK_INT(lds_hpa_use_level2(h, true), LDS_OK);
    st = run_sliced(q, sx, sy, gx, gy, 0);
    reach += (st == LDS_FOUND) != (sa == LDS_FOUND);
    if (st != LDS_FOUND) continue;
    (*found)++;
    lds_hpa_query_stats(q, &stats);
    *exp2 += stats.expansions;
    c = lds_hpa_query_cost(q);
    ab = lds_hpa_query_abstract_cost(q);
    illegal += !legal(g, q, w, nw, sx, sy, gx, gy);
    above += c > ab * (1 + 1e-6);
    if (a > 0) {
      if (!costs && c / a > *worst) *worst = c / a;
    }
    /* the default weight through the second level: an abstract path
    ** within LDS_HPA_FAST_WEIGHT x the shortest, a legal path no dearer */
    CHECK_INT(lds_hpa_set_fast_weight(h, LDS_HPA_FAST_WEIGHT), LDS_OK);
    st = run_sliced(q, sx, sy, gx, gy, 0);
    weighted += st != LDS_FOUND || lds_hpa_query_abstract_cost(q) > ab * LDS_HPA_FAST_WEIGHT * (1 + 1e-6) ||
                lds_hpa_query_cost(q) > lds_hpa_query_abstract_cost(q) * (1 + 1e-6) ||
                !legal(g, q, w, nw, sx, sy, gx, gy);
    CHECK_INT(lds_hpa_set_fast_weight(h, 1.0), LDS_OK);
    /* sliced: the same path cost */
    st = run_sliced(q, sx, sy, gx, gy, 1 + (uint64_t)(i % 5) * 7);
    sliced += st != LDS_FOUND || fabs(lds_hpa_query_cost(q) - c) > 1e-9 * (c > 1 ? c : 1);
    /* the first level alone: the same abstract cost */
    CHECK_INT(lds_hpa_use_level2(h, false), LDS_OK);
    st = run_sliced(q, sx, sy, gx, gy, 0);
    ab1 = lds_hpa_query_abstract_cost(q);
    /* the bound: 25 % above the optimum, unless the first level alone is
    ** above it too (terrain costs: there is no bound in general, see
    ** docs/hierarchy.md) */
    if (a > 0 && (c / a > 1.25 || c < a * (1 - 1e-9)) && lds_hpa_query_cost(q) / a <= 1.25) bound++;
    abstract += st != LDS_FOUND || fabs(ab1 - ab) > 1e-6 * (ab > 1 ? ab : 1);
    lds_hpa_query_stats(q, &stats);
    *exp1 += stats.expansions;
    /* a fresh build's answer: the same abstract cost (among abstract paths
    ** of equal cost a repaired and a fresh second level may take different
    ** ones, whose smoothed costs differ), a legal path within the bound */
    if (qf) {
      st = run_sliced(qf, sx, sy, gx, gy, 0);
      c2 = lds_hpa_query_abstract_cost(qf);
      vs_fresh += st != LDS_FOUND || fabs(c2 - ab) > 1e-6 * (ab > 1 ? ab : 1) ||
                  lds_hpa_query_cost(qf) > c2 * (1 + 1e-6) ||
                  !legal(g, qf, w, nw, sx, sy, gx, gy);
    }
  }
  CHECK_INT(reach, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(above, 0);
  CHECK_INT(bound, 0);
  CHECK_INT(sliced, 0);
  CHECK_INT(abstract, 0);
  CHECK_INT(vs_fresh, 0);
  CHECK_INT(weighted, 0);
  CHECK_INT(lds_hpa_use_level2(h, true), LDS_OK);
  CHECK_INT(lds_hpa_set_fast_weight(h, LDS_HPA_FAST_WEIGHT), LDS_OK);
  lds_search_free(s);
  lds_hpa_query_free(q);
  lds_hpa_query_free(qf);
}

static void run_map(lds_Grid *g, int cluster, int K, const double *w, int nw, bool costs,
                    double *worst) {
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaInfo info;
  uint64_t exp2 = 0, exp1 = 0;
  int round, found = 0, differ = 0, stale = 0;
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  hp.level2 = K;
  hp.layer_weights = w;
  hp.n_layer_weights = nw;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) return;
  lds_hpa_info(h, &info);
  CHECK_INT(info.level2, K);
  CHECK(info.level2_entrances > 0);
  CHECK(info.level2_bytes > 0 && info.level2_bytes < info.bytes);
  check_queries(g, h, NULL, w, nw, 40, costs, worst, &exp2, &exp1, &found);
  for (round = 0; round < 5; round++) {
    lds_Hpa *fresh;
    random_edits(g, 12);
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    fresh = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(fresh != NULL);
    if (!fresh) break;
    differ += level2_differ(h, fresh);
    check_queries(g, h, fresh, w, nw, 25, costs, worst, &exp2, &exp1, &found);
    lds_hpa_free(fresh);
    lds_hpa_info(h, &info);
    stale += (int)info.level2_stale;
  }
  CHECK_INT(differ, 0);
  /* repairs left clusters stale; refreshed, all equal a fresh build's */
  CHECK(stale > 0);
  for (round = 0; round < 100 && (lds_hpa_info(h, &info), info.level2_stale > 0); round++)
    CHECK_INT(lds_hpa_refresh(h), LDS_OK);
  CHECK_INT(info.level2_stale, 0);
  {
    lds_Hpa *fresh = lds_hpa_new(NULL, g, &hp, NULL);
    CHECK(fresh != NULL);
    if (fresh) {
      CHECK_INT(level2_differ(h, fresh), 0);
      check_queries(g, h, fresh, w, nw, 25, costs, worst, &exp2, &exp1, &found);
      lds_hpa_free(fresh);
    }
  }
  CHECK(found > 100);
  /* some repairs found the second level unchanged (the snapshot), others not */
  CHECK(h->l2->skipped > 0);
  /* updates kept some source trees and ran others again */
  CHECK(h->l2->kept > 0 && h->l2->rerun > 0);
  CHECK(h->repairs > 0);
  /* the second level did the work: fewer expansions than the first alone */
  CHECK(exp2 < exp1);
  lds_hpa_free(h);
}

static void test_random_maps(void) {
  double worst = 1.0;
  {
    lds_Grid *g = random_grid(200, 150, 20, false);
    run_map(g, 10, 3, NULL, 0, false, &worst);
    lds_grid_free(g);
  }
  {
    lds_Grid *g = random_grid(200, 160, 22, true);
    run_map(g, 12, 2, NULL, 0, true, &worst);
    lds_grid_free(g);
  }
  {
    /* layer weights: a mud layer and cells blocked for this class */
    lds_Grid *g = random_grid(192, 160, 15, true);
    int li;
    int32_t x, y;
    double w[1] = {2.5};
    lds_grid_layer_add(g, "mud", &li);
    for (y = 0; y < 160; y++)
      for (x = 0; x < 192; x++) {
        uint32_t r = rnd() % 10;
        if (r < 3) lds_grid_layer_set(g, li, x, y, (float)r);
        if (r == 9 && x % 7 == 0) lds_grid_layer_set(g, li, x, y, INFINITY);
      }
    run_map(g, 12, 3, w, 1, true, &worst);
    lds_grid_free(g);
  }
  {
    /* the diagonal rule that crosses corners (diagonal-only entrances) */
    lds_Grid *g = random_grid(160, 120, 25, false);
    lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
    run_map(g, 8, 3, NULL, 0, false, &worst);
    lds_grid_free(g);
  }
  CHECK(worst <= 1.25); /* uniform costs */
  CHECK(worst > 1.0);
}

static void test_params(void) {
  lds_Grid *g = random_grid(64, 64, 10, false);
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaInfo info;
  lds_Error err;
  lds_hpa_params_init(&hp);
  CHECK_INT(hp.level2, LDS_HPA_LEVEL2_AUTO);
  /* auto: none on a grid below LDS_HPA_LEVEL2_MIN_CELLS */
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  lds_hpa_info(h, &info);
  CHECK_INT(info.level2, 0);
  CHECK_INT(lds_hpa_use_level2(h, true), LDS_E_STATE);
  CHECK_CONTAINS(lds_hpa_errmsg(h), "lds_hpa_use_level2: on = true for a hierarchy built without "
                                    "a second level (lds_HpaParams.level2 0, or LDS_HPA_LEVEL2_AUTO "
                                    "on a grid of fewer than 16777216 cells");
  CHECK_INT(lds_hpa_use_level2(h, false), LDS_OK);
  lds_hpa_free(h);
  hp.level2 = 1;
  CHECK(lds_hpa_new(NULL, g, &hp, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "level2 1 out of range");
  hp.level2 = 32;
  hp.cluster_size = 16;
  CHECK(lds_hpa_new(NULL, g, &hp, &err) == NULL);
  CHECK_CONTAINS(err.msg, "65535");
  CHECK_INT(lds_hpa_use_level2(NULL, true), LDS_E_ARG);
  lds_grid_free(g);
}

void suite_hpa_level2(void);
void suite_hpa_level2(void) {
  test_random_maps();
  test_params();
}
