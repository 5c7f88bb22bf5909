/* SPDX-License-Identifier: MIT */
/* test_hpa.c — the cluster hierarchy (lds_hpa.h): optimal mode equal to A*
** on random maps under every diagonal rule, terrain costs and layer
** weights; fast mode legal, never above its abstract path and within 25 %
** of optimal on these random maps (measured: docs/hierarchy.md) and
** within 1 % on an open grid (smoothing); the refined prefix final; local
** repair equal to a fresh build
** after random edits; bad input. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"
#include "lds_io.h"

#include <stdlib.h>

static uint32_t rng = 12345u;
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

/* A* cost (-1 when no path) */
static double astar_cost(lds_Search *s, const double *w, int nw, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy) {
  return thf_astar_cost(s, w, nw, sx, sy, gx, gy);
}

/* runs a query with small slices; returns its status */
static lds_Status run_sliced(lds_HpaQuery *q, lds_HpaMode m, int32_t sx, int32_t sy, int32_t gx,
                             int32_t gy, uint64_t slice) {
  lds_Budget b = {slice, 0};
  lds_Status st;
  if (lds_hpa_query_start(q, m, sx, sy, gx, gy) != LDS_OK) return LDS_E_STATE;
  while ((st = lds_hpa_query_step(q, slice ? &b : NULL)) == LDS_RUNNING) {
  }
  return st;
}

static int check_path(const lds_Grid *g, const lds_HpaQuery *q, const double *w, int nw,
                      int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  lds_PathCheck pc;
  lds_PathCheckReport rep;
  lds_Path *p = lds_hpa_query_path(q, NULL);
  lds_Status st;
  if (!p) return 0;
  lds_path_check_init(&pc);
  pc.check_start = pc.check_goal = true;
  pc.sx = sx;
  pc.sy = sy;
  pc.gx = gx;
  pc.gy = gy;
  pc.layer_weights = w;
  pc.nlayers = nw;
  st = lds_path_check(g, p, &pc, &rep, NULL);
  lds_path_free(p);
  return st == LDS_OK;
}

/* n random queries on g: optimal == A*, fast legal and bounded */
static void compare(lds_Grid *g, int cluster, const double *w, int nw, int n, double *worst) {
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_Search *s = lds_search_new(NULL, g, NULL);
  int i, bad_opt = 0, bad_fast = 0, illegal = 0, mism_reach = 0;
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  hp.layer_weights = w;
  hp.n_layer_weights = nw;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  q = lds_hpa_query_new(h, NULL);
  CHECK(q != NULL);
  for (i = 0; i < n; i++) {
    int32_t sx, sy, gx, gy;
    double a, o, f;
    lds_Status so, sf;
    free_cell(g, &sx, &sy);
    free_cell(g, &gx, &gy);
    a = astar_cost(s, w, nw, sx, sy, gx, gy);
    so = run_sliced(q, LDS_HPA_OPTIMAL, sx, sy, gx, gy, (uint64_t)(i % 3) * 50);
    o = lds_hpa_query_cost(q);
    if (so == LDS_FOUND && !check_path(g, q, w, nw, sx, sy, gx, gy)) illegal++;
    sf = run_sliced(q, LDS_HPA_FAST, sx, sy, gx, gy, (uint64_t)(i % 4) * 40);
    f = lds_hpa_query_cost(q);
    if (sf == LDS_FOUND && !check_path(g, q, w, nw, sx, sy, gx, gy)) illegal++;
    if ((a < 0) != (so != LDS_FOUND) || (a < 0) != (sf != LDS_FOUND)) {
      mism_reach++;
      if (getenv("HPA_DEBUG"))
        fprintf(stderr, "reach %d,%d->%d,%d: astar %g opt %s fast %s\n", sx, sy, gx, gy, a,
                lds_status_name(so), lds_status_name(sf));
    }
    if (a >= 0 && so == LDS_FOUND && fabs(o - a) > 1e-9 * (a > 1 ? a : 1)) bad_opt++;
    if (a > 0 && sf == LDS_FOUND) {
      double r = f / a;
      if (r > *worst) *worst = r;
      if (r > 1.25 || f < a - 1e-9 * a) bad_fast++;
      if (f > lds_hpa_query_abstract_cost(q) * (1 + 1e-6)) bad_fast++;
      if (getenv("HPA_DEBUG") && (r > 1.25 || f > lds_hpa_query_abstract_cost(q) * (1 + 1e-6)))
        fprintf(stderr, "fast %d,%d->%d,%d: %g vs %g abstract %g\n", sx, sy, gx, gy, f, a,
                lds_hpa_query_abstract_cost(q));
    }
  }
  CHECK_INT(mism_reach, 0);
  CHECK_INT(bad_opt, 0);
  CHECK_INT(bad_fast, 0);
  CHECK_INT(illegal, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_search_free(s);
}

static void test_random_maps(void) {
  int rule;
  double worst = 1.0;
  for (rule = 0; rule < 4; rule++) {
    lds_Grid *g = random_grid(70, 53, 25, rule == 1);
    lds_grid_set_diagonal(g, (lds_Diagonal)rule);
    compare(g, rule == 2 ? 8 : 16, NULL, 0, 60, &worst);
    lds_grid_free(g);
  }
  {
    lds_Grid *g = random_grid(50, 40, 20, true);
    lds_grid_set_neighbourhood(g, 4);
    compare(g, 10, NULL, 0, 60, &worst);
    lds_grid_free(g);
  }
  {
    /* layer weights: a mud layer, and an infinite value (blocked for this class) */
    lds_Grid *g = random_grid(64, 64, 15, false);
    int li;
    int32_t x, y;
    double w[1] = {2.5};
    lds_grid_layer_add(g, "mud", &li);
    for (y = 0; y < 64; y++)
      for (x = 0; x < 64; x++) {
        uint32_t r = rnd() % 10;
        if (r < 3) lds_grid_layer_set(g, li, x, y, (float)r);
        if (r == 9 && x % 7 == 0) lds_grid_layer_set(g, li, x, y, INFINITY);
      }
    compare(g, 16, w, 1, 60, &worst);
    lds_grid_free(g);
  }
  CHECK(worst <= 1.25);
}

/* a quick subset of a shared Moving AI map: optimal equal to A* */
static void test_shared_map(void) {
  char path[512];
  lds_Error err;
  lds_Grid *g;
  double worst = 1.0;
  snprintf(path, sizeof path, "%s/data/movingai/maps/Berlin_0_256.map", LDS_SHARED_DIR);
  g = lds_map_load(NULL, path, &err);
  if (!g) {
    fprintf(stderr, "test_hpa: %s not found, shared map subset skipped\n", path);
    return;
  }
  compare(g, 16, NULL, 0, 40, &worst);
  lds_grid_free(g);
}

/* the prefix a query reports while running is a prefix of its final path
** (the path is longer than the smoothing's horizon of 8 cluster sides, so
** cells become final before the goal is reached) */
static void test_prefix(void) {
  lds_Grid *g = random_grid(400, 96, 8, false);
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL);
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  lds_Budget b = {30, 0};
  lds_Path *pre = NULL, *full;
  lds_Status st;
  size_t i, longest = 0;
  int32_t sx = 0, sy = 0, gx = 399, gy = 95;
  int bad = 0;
  lds_grid_set_blocked(g, sx, sy, false);
  lds_grid_set_blocked(g, gx, gy, false);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy), LDS_OK);
  while ((st = lds_hpa_query_step(q, &b)) == LDS_RUNNING) {
    lds_Path *p = lds_hpa_query_prefix(q, NULL);
    CHECK(p != NULL);
    if (p && lds_path_length(p) > longest) {
      longest = lds_path_length(p);
      lds_path_free(pre);
      pre = p;
    } else {
      lds_path_free(p);
    }
  }
  CHECK_INT(st, LDS_FOUND);
  full = lds_hpa_query_path(q, NULL);
  CHECK(full && pre && lds_path_length(pre) > 1 && lds_path_length(pre) < lds_path_length(full));
  for (i = 0; pre && full && i < lds_path_length(pre); i++)
    bad += lds_path_node(pre, i) != lds_path_node(full, i);
  CHECK_INT(bad, 0);
  lds_path_free(pre);
  lds_path_free(full);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* The optimal mode has no prefix while it runs: NULL with LDS_E_STATE and
** a message saying so (not the start alone, which would look like a
** path); found, the prefix is the whole path. */
static void test_prefix_optimal(void) {
  lds_Grid *g = random_grid(400, 96, 8, true);
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL);
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  lds_Budget b = {30, 0};
  lds_Error err;
  lds_Path *pre, *full;
  lds_Status st;
  int running = 0, refused = 0;
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_set_blocked(g, 399, 95, false);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_OPTIMAL, 0, 0, 399, 95), LDS_OK);
  while ((st = lds_hpa_query_step(q, &b)) == LDS_RUNNING) {
    running++;
    pre = lds_hpa_query_prefix(q, &err);
    if (!pre && err.code == LDS_E_STATE &&
        strstr(err.msg, "an optimal-mode query has no prefix (status running)"))
      refused++;
    lds_path_free(pre);
  }
  CHECK_INT(st, LDS_FOUND);
  CHECK(running > 5);
  CHECK_INT(refused, running);
  pre = lds_hpa_query_prefix(q, &err);
  full = lds_hpa_query_path(q, NULL);
  CHECK(pre && full);
  if (pre && full) {
    CHECK_INT(lds_path_length(pre), lds_path_length(full));
    CHECK_INT(lds_path_flags(pre) & LDS_PATH_PARTIAL, 0);
    CHECK_NEAR(lds_path_cost(pre), lds_path_cost(full), 0);
  }
  lds_path_free(pre);
  lds_path_free(full);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* after random edits, the repaired hierarchy answers like a fresh one */
static void test_repair(void) {
  lds_Grid *g = random_grid(96, 80, 20, true);
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL), *fresh;
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL), *qf;
  lds_HpaInfo a, b;
  int round, diff = 0;
  /* the shortest abstract path (w 1): a weighted search's path depends on
  ** the order it meets equal keys in, which repair and build may differ on */
  CHECK_INT(lds_hpa_set_fast_weight(h, 1.0), LDS_OK);
  for (round = 0; round < 12; round++) {
    int k, i;
    for (k = 0; k < 6; k++) {
      int32_t x = (int32_t)(rnd() % 96), y = (int32_t)(rnd() % 80);
      if (rnd() % 3 == 0) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4));
      else lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
    }
    CHECK_INT(lds_hpa_repair(h), LDS_OK);
    fresh = lds_hpa_new(NULL, g, NULL, NULL);
    CHECK_INT(lds_hpa_set_fast_weight(fresh, 1.0), LDS_OK);
    qf = lds_hpa_query_new(fresh, NULL);
    lds_hpa_info(h, &a);
    lds_hpa_info(fresh, &b);
    diff += a.entrances != b.entrances || a.intra_edges != b.intra_edges;
    for (i = 0; i < 15; i++) {
      int32_t sx, sy, gx, gy;
      int m;
      free_cell(g, &sx, &sy);
      free_cell(g, &gx, &gy);
      for (m = 0; m < 2; m++) {
        lds_Status s1 = run_sliced(q, (lds_HpaMode)m, sx, sy, gx, gy, 0);
        lds_Status s2 = run_sliced(qf, (lds_HpaMode)m, sx, sy, gx, gy, 0);
        diff += s1 != s2 || lds_hpa_query_cost(q) != lds_hpa_query_cost(qf);
      }
    }
    lds_hpa_query_free(qf);
    lds_hpa_free(fresh);
  }
  CHECK_INT(diff, 0);
  lds_hpa_info(h, &a);
  CHECK(a.repairs == 12 && a.last_repair_clusters > 0);
  /* a query that runs across an edit is stale */
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_set_blocked(g, 95, 79, false);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_OPTIMAL, 0, 0, 95, 79), LDS_OK);
  lds_grid_set_cost(g, 50, 50, 2.0f);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_E_STALE);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

static void test_errors(void) {
  lds_Grid *g = lds_grid_new(NULL, 20, 20, NULL);
  lds_HpaParams hp;
  lds_Error err;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_hpa_params_init(&hp);
  hp.cluster_size = 2;
  CHECK(lds_hpa_new(NULL, g, &hp, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "cluster_size 2");
  CHECK(lds_hpa_new(NULL, NULL, NULL, &err) == NULL);
  CHECK_CONTAINS(err.msg, "grid is NULL");
  hp.cluster_size = 8;
  hp.lower_bounds = false;
  h = lds_hpa_new(NULL, g, &hp, &err);
  q = lds_hpa_query_new(h, &err);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_OPTIMAL, 0, 0, 5, 5), LDS_E_ARG);
  CHECK_CONTAINS(lds_hpa_query_errmsg(q), "lower_bounds");
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, 0, 0, 25, 5), LDS_E_ARG);
  CHECK_CONTAINS(lds_hpa_query_errmsg(q), "goal (25,5) is outside");
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_E_STATE);
  lds_grid_set_blocked(g, 5, 5, true);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, 0, 0, 5, 5), LDS_OK);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_NO_PATH);
  CHECK(lds_hpa_query_path(q, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, 3, 3, 3, 3), LDS_OK);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_FOUND);
  CHECK_NEAR(lds_hpa_query_cost(q), 0.0, 0.0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* smoothing: on an open grid the entrance detours of the abstract path are
** straightened; the fast path is legal, no dearer than the abstract path
** and within 1 % of the octile distance (the optimum there) */
static void test_smoothing(void) {
  lds_Grid *g = lds_grid_new(NULL, 200, 160, NULL);
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL);
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  /* the last two run along columns that hold no entrance, so the abstract
  ** path detours to one and back within the smoothing's horizon */
  static const int32_t pairs[][4] = {{3, 5, 190, 150}, {199, 0, 0, 159}, {10, 80, 190, 83},
                                     {100, 2, 104, 157}, {5, 3, 5, 60}, {52, 60, 53, 1}};
  int i, bad = 0, illegal = 0, detours = 0;
  for (i = 0; i < 6; i++) {
    const int32_t *k = pairs[i];
    double oct = 0.0, f, ab;
    int32_t ax = abs(k[2] - k[0]), ay = abs(k[3] - k[1]);
    oct = (double)(ax > ay ? ax - ay : ay - ax) + (double)(ax < ay ? ax : ay) * 1.4142135623730951;
    CHECK_INT(run_sliced(q, LDS_HPA_FAST, k[0], k[1], k[2], k[3], (uint64_t)i * 30), LDS_FOUND);
    f = lds_hpa_query_cost(q);
    ab = lds_hpa_query_abstract_cost(q);
    if (!check_path(g, q, NULL, 0, k[0], k[1], k[2], k[3])) illegal++;
    if (f > ab * (1 + 1e-6) || f > oct * 1.01 || f < oct - 1e-9) bad++;
    detours += ab > oct * 1.01 && f < ab;
    if (getenv("HPA_DEBUG")) fprintf(stderr, "open %d: fast %g abstract %g octile %g\n", i, f, ab, oct);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(detours, 2); /* the smoothing straightened both detours */
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa(void);
void suite_hpa(void) {
  test_random_maps();
  test_shared_map();
  test_prefix();
  test_prefix_optimal();
  test_smoothing();
  test_repair();
  test_errors();
}
