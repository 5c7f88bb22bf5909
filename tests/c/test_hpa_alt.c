/* SPDX-License-Identifier: MIT */
/* test_hpa_alt.c — the hierarchy's optimal mode on its landmark path
** (lds_hpa_exact.c: lodestar's A* loop with the landmark heuristic of the
** hierarchy's tables, ldsi_search_start_landmarks): exact against the
** Moving AI optimum of a uniform map (JPS off, so the landmark A* answers),
** and against plain A* on random maps with terrain-cost patches and layer
** weights (an infinite layer value too) under every diagonal rule and
** 4-connected, sliced and whole, before and after random edits repaired in
** place (cost decreases, doors, layer edits); ties broken the same way
** every time (the same path cell for cell); fewer expansions than plain A*
** where the costs make octile weak; a search used for a landmark query
** answers plain queries exactly as a fresh search; bad use is refused. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_io.h"
#include "lds_search_internal.h"

#include <stdlib.h>

static uint32_t rng = 4242u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

/* pct % blocked; terrain costs 1..4 in 4 x 4 patches (a patch is one cost) */
static lds_Grid *patch_grid(int32_t w, int32_t h, int pct) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  float patch[64][64];
  int32_t x, y;
  for (y = 0; y < (h + 3) / 4; y++)
    for (x = 0; x < (w + 3) / 4; x++) patch[y][x] = (float)(1 + rnd() % 4);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
      else lds_grid_set_cost(g, x, y, patch[y / 4][x / 4]);
    }
  return g;
}

static void free_cell(const lds_Grid *g, int32_t *x, int32_t *y) { thf_free_cell(g, &rng, x, y); }

/* plain A*'s cost (-1: no path), its expansions into *exp */
static double astar_cost(lds_Search *s, const double *w, int nw, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy, uint64_t *exp) {
  lds_SearchParams p;
  lds_Stats st;
  double c = -1;
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = nw;
  if (lds_search_start(s, &p, sx, sy, gx, gy) != LDS_OK) return -2;
  if (lds_search_step(s, NULL) == LDS_FOUND) c = lds_search_cost(s);
  lds_search_stats(s, &st);
  *exp += st.expansions;
  return c;
}

/* an optimal-mode query in slices of `slice` expansions (0: whole) */
static lds_Status run_opt(lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                          uint64_t slice, uint64_t *exp) {
  lds_Budget b = {slice, 0};
  lds_Status st;
  lds_Stats stt;
  if (lds_hpa_query_start(q, LDS_HPA_OPTIMAL, sx, sy, gx, gy) != LDS_OK) return LDS_E_STATE;
  while ((st = lds_hpa_query_step(q, slice ? &b : NULL)) == LDS_RUNNING) {
  }
  lds_hpa_query_stats(q, &stt);
  *exp += stt.expansions;
  return st;
}

/* the optimal path is legal (start, goal, moves, under the weights) and
** its recomputed cost is the reported one */
static bool legal(const lds_Grid *g, const lds_HpaQuery *q, const double *w, int nw, int32_t sx,
                  int32_t sy, int32_t gx, int32_t gy) {
  lds_PathCheck pc;
  lds_PathCheckReport rep;
  lds_Path *p = lds_hpa_query_path(q, NULL);
  lds_Status st;
  double c;
  if (!p) return false;
  lds_path_check_init(&pc);
  pc.check_start = pc.check_goal = true;
  pc.sx = sx;
  pc.sy = sy;
  pc.gx = gx;
  pc.gy = gy;
  pc.layer_weights = w;
  pc.nlayers = nw;
  st = lds_path_check(g, p, &pc, &rep, NULL);
  c = lds_path_cost(p);
  lds_path_free(p);
  return st == LDS_OK && fabs(c - lds_hpa_query_cost(q)) <= 1e-9 * (c > 1 ? c : 1);
}

typedef struct Tally {
  int mism, reach, illegal;
  uint64_t exp_a, exp_o;
} Tally;

/* n random queries: the landmark optimal mode against plain A* */
static void compare(lds_Grid *g, lds_Hpa *h, lds_HpaQuery *q, lds_Search *s, const double *w,
                    int nw, int n, Tally *t) {
  int i;
  (void)h;
  for (i = 0; i < n; i++) {
    int32_t sx, sy, gx, gy;
    double a, o;
    lds_Status so;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    a = astar_cost(s, w, nw, sx, sy, gx, gy, &t->exp_a);
    so = run_opt(q, sx, sy, gx, gy, (uint64_t)(i % 3) * 37, &t->exp_o);
    o = lds_hpa_query_cost(q);
    if ((a < 0) != (so != LDS_FOUND)) t->reach++;
    if (a >= 0 && so == LDS_FOUND) {
      if (fabs(o - a) > 1e-9 * (a > 1 ? a : 1)) {
        t->mism++;
        if (getenv("HPA_DEBUG"))
          fprintf(stderr, "alt %d,%d->%d,%d: %.12g vs A* %.12g\n", sx, sy, gx, gy, o, a);
      }
      if (!legal(g, q, w, nw, sx, sy, gx, gy)) t->illegal++;
    }
  }
}

static lds_Hpa *alt_hpa(lds_Grid *g, int cluster, const double *w, int nw) {
  lds_HpaParams hp;
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  hp.layer_weights = w;
  hp.n_layer_weights = nw;
  hp.optimal_jps = false; /* the landmark A* on uniform maps too */
  return lds_hpa_new(NULL, g, &hp, NULL);
}

/* uniform map, JPS off: every 5th den011d problem at its Moving AI optimum */
static void test_scen_optimum(void) {
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, "tests/data/den011d.map", &err);
  lds_Scenario *sc = lds_scen_load(NULL, "tests/data/den011d.map.scen", &err);
  lds_Hpa *h;
  lds_HpaQuery *q;
  size_t i, n = 0;
  int mism = 0, illegal = 0;
  uint64_t exp = 0;
  CHECK(g != NULL && sc != NULL);
  if (!g || !sc) return;
  h = alt_hpa(g, 16, NULL, 0);
  q = lds_hpa_query_new(h, NULL);
  CHECK(q != NULL);
  for (i = 0; i < lds_scen_count(sc); i += 5) {
    const lds_ScenEntry *e = lds_scen_entry(sc, i);
    lds_Status st = run_opt(q, e->sx, e->sy, e->gx, e->gy, 0, &exp);
    n++;
    if (st != LDS_FOUND || !lds_scen_matches(e, lds_hpa_query_cost(q))) mism++;
    else if (!legal(g, q, NULL, 0, e->sx, e->sy, e->gx, e->gy)) illegal++;
  }
  CHECK(n >= 50);
  CHECK_INT(mism, 0);
  CHECK_INT(illegal, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_scen_free(sc);
  lds_grid_free(g);
}

/* random maps with cost patches, every rule and 4-connected, then layer
** weights; the landmark A* expands fewer cells than plain A* on them */
static void test_random_costs(void) {
  Tally t = {0, 0, 0, 0, 0};
  int rule;
  for (rule = 0; rule < 5; rule++) {
    lds_Grid *g = patch_grid(90, 70, 22);
    lds_Hpa *h;
    lds_HpaQuery *q;
    lds_Search *s = lds_search_new(NULL, g, NULL);
    if (rule < 4) lds_grid_set_diagonal(g, (lds_Diagonal)rule);
    else lds_grid_set_neighbourhood(g, 4);
    h = alt_hpa(g, rule == 2 ? 8 : 16, NULL, 0);
    q = lds_hpa_query_new(h, NULL);
    CHECK(h != NULL && q != NULL);
    compare(g, h, q, s, NULL, 0, 50, &t);
    lds_hpa_query_free(q);
    lds_hpa_free(h);
    lds_search_free(s);
    lds_grid_free(g);
  }
  {
    /* a mud layer (weight 2.5) and an infinite value: blocked for this class */
    lds_Grid *g = patch_grid(80, 64, 12);
    lds_Hpa *h;
    lds_HpaQuery *q;
    lds_Search *s = lds_search_new(NULL, g, NULL);
    double w[1] = {2.5};
    int li;
    int32_t x, y;
    lds_grid_layer_add(g, "mud", &li);
    for (y = 0; y < 64; y++)
      for (x = 0; x < 80; x++) {
        uint32_t r = rnd() % 10;
        if (r < 3) lds_grid_layer_set(g, li, x, y, (float)r);
        if (r == 9 && x % 7 == 0) lds_grid_layer_set(g, li, x, y, INFINITY);
      }
    h = alt_hpa(g, 16, w, 1);
    q = lds_hpa_query_new(h, NULL);
    CHECK(h != NULL && q != NULL);
    compare(g, h, q, s, w, 1, 60, &t);
    lds_hpa_query_free(q);
    lds_hpa_free(h);
    lds_search_free(s);
    lds_grid_free(g);
  }
  CHECK_INT(t.reach, 0);
  CHECK_INT(t.mism, 0);
  CHECK_INT(t.illegal, 0);
  CHECK(t.exp_o * 2 < t.exp_a); /* the landmarks at least halve the expansions here */
  if (getenv("HPA_DEBUG"))
    fprintf(stderr, "alt expansions %llu, A* %llu\n", (unsigned long long)t.exp_o,
            (unsigned long long)t.exp_a);
}

/* random edits (cost decreases and increases, doors, layer values), each
** round repaired in place by the next query: still exact against A* */
static void test_edits(void) {
  Tally t = {0, 0, 0, 0, 0};
  lds_Grid *g = patch_grid(96, 80, 18);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  double w[1] = {1.5};
  int li, round;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_HpaInfo info;
  lds_grid_layer_add(g, "snow", &li);
  h = alt_hpa(g, 16, w, 1);
  q = lds_hpa_query_new(h, NULL);
  CHECK(h != NULL && q != NULL);
  compare(g, h, q, s, w, 1, 20, &t);
  for (round = 0; round < 10; round++) {
    int k;
    for (k = 0; k < 8; k++) {
      int32_t x = (int32_t)(rnd() % 96), y = (int32_t)(rnd() % 80), x1, y1;
      uint32_t kind = rnd() % 4;
      if (kind == 0) {
        /* a patch made cheaper (a road laid): the decrease the tables repair */
        for (y1 = y; y1 < y + 4 && y1 < 80; y1++)
          for (x1 = x; x1 < x + 4 && x1 < 96; x1++)
            if (!lds_grid_blocked(g, x1, y1)) lds_grid_set_cost(g, x1, y1, 1.0f);
      } else if (kind == 1) {
        lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); /* a door */
      } else if (kind == 2) {
        if (!lds_grid_blocked(g, x, y)) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4));
      } else {
        lds_grid_layer_set(g, li, x, y, rnd() % 5 == 0 ? INFINITY : (float)(rnd() % 3));
      }
    }
    compare(g, h, q, s, w, 1, 12, &t);
  }
  lds_hpa_info(h, &info);
  CHECK(info.repairs >= 10);
  CHECK_INT(t.reach, 0);
  CHECK_INT(t.mism, 0);
  CHECK_INT(t.illegal, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_search_free(s);
  lds_grid_free(g);
}

/* ties: the same query answers with the same path, cell for cell, and a
** landmark query on a map whose optimum is a plateau of equal-cost paths
** (an open uniform grid) expands only a corridor along one of them */
static void test_ties(void) {
  lds_Grid *g = lds_grid_new(NULL, 120, 90, NULL);
  lds_Hpa *h = alt_hpa(g, 16, NULL, 0);
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  lds_Path *p1, *p2;
  lds_Stats st;
  uint64_t exp = 0;
  size_t i;
  int diff = 0;
  CHECK_INT(run_opt(q, 3, 4, 115, 80, 0, &exp), LDS_FOUND);
  CHECK_NEAR(lds_hpa_query_cost(q), 36.0 + 76.0 * 1.4142135623730951, 1e-9);
  p1 = lds_hpa_query_path(q, NULL);
  lds_hpa_query_stats(q, &st);
  CHECK(st.expansions < 4 * 112); /* not the 112 x 76 parallelogram */
  CHECK_INT(run_opt(q, 3, 4, 115, 80, 7, &exp), LDS_FOUND);
  p2 = lds_hpa_query_path(q, NULL);
  CHECK(p1 && p2 && lds_path_length(p1) == lds_path_length(p2));
  for (i = 0; p1 && p2 && i < lds_path_length(p1) && i < lds_path_length(p2); i++)
    diff += lds_path_node(p1, i) != lds_path_node(p2, i);
  CHECK_INT(diff, 0);
  lds_path_free(p1);
  lds_path_free(p2);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* a search that ran a landmark query answers plain queries as a fresh one
** (same cost, same expansions); the landmark start refuses other algorithms */
static void test_search_reuse(void) {
  lds_Grid *g = patch_grid(60, 50, 15);
  lds_Search *s = lds_search_new(NULL, g, NULL), *fresh = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  ldsi_LmHeur lh;
  uint32_t tab[1];
  int i, diff = 0;
  memset(&lh, 0, sizeof lh);
  lh.tab = tab;
  lh.stride = 0; /* every cell reads tab[0]: no landmark term */
  lh.q = 1.0;
  lh.nact = 1;
  tab[0] = 0;
  lds_search_params_init(&p);
  p.algo = LDS_ALGO_DIJKSTRA;
  CHECK_INT(ldsi_search_start_landmarks(s, &p, 0, 0, 5, 5, &lh), LDS_E_ARG);
  CHECK_CONTAINS(lds_search_errmsg(s), "optimal A*");
  for (i = 0; i < 20; i++) {
    int32_t sx, sy, gx, gy;
    lds_Stats a, b;
    double cl = -1;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    p.algo = LDS_ALGO_ASTAR;
    CHECK_INT(ldsi_search_start_landmarks(s, &p, sx, sy, gx, gy, &lh), LDS_OK);
    if (lds_search_step(s, NULL) == LDS_FOUND) cl = lds_search_cost(s);
    CHECK_INT(lds_search_start(s, &p, sx, sy, gx, gy), LDS_OK);
    CHECK_INT(lds_search_start(fresh, &p, sx, sy, gx, gy), LDS_OK);
    diff += lds_search_step(s, NULL) != lds_search_step(fresh, NULL);
    lds_search_stats(s, &a);
    lds_search_stats(fresh, &b);
    diff += a.expansions != b.expansions || lds_search_cost(s) != lds_search_cost(fresh);
    /* the landmark loop with only the octile term is plain A*: the same optimum */
    diff += cl >= 0 && fabs(cl - lds_search_cost(fresh)) > 1e-9 * (cl > 1 ? cl : 1);
  }
  CHECK_INT(diff, 0);
  lds_search_free(s);
  lds_search_free(fresh);
  lds_grid_free(g);
}

void suite_hpa_alt(void);
void suite_hpa_alt(void) {
  test_scen_optimum();
  test_random_costs();
  test_edits();
  test_ties();
  test_search_reuse();
}
