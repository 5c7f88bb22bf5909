/* SPDX-License-Identifier: MIT */
/*
** test_cost_view.c — cost views per (grid, weight set): a view equals a
** fresh computation after random edit sequences (blocking, unblocking, the
** cheapest cell raised and lowered, layer values infinite and invalid, touched
** rectangles), the minimum's count rule (no rescan while a cheapest cell is
** left), searches on a view equal searches on the same costs without one,
** sliced builds in the scheduler never exceed a tick's budget, references
** and dropping, memory.
*/
#include "harness.h"
#include "lds.h"
#include "lds_cost_view_internal.h" /* the epochs a running search compares */

#include <stdlib.h>

/* the effective cost of (x, y) computed from scratch */
static double fresh_cost(const lds_Grid *g, const double *w, int n, int32_t x, int32_t y) {
  double c;
  int i;
  if (lds_grid_blocked(g, x, y)) return INFINITY;
  c = lds_grid_cost(g, x, y);
  for (i = 0; i < n; i++)
    if (w[i] != 0.0) c += w[i] * (double)lds_grid_layer_get(g, i, x, y);
  return c;
}

/* Checks a ready view against a computation from scratch: every cell, the
** scale (smallest finite positive cost, 1 when none) and the uniform flag.
** Returns the number of mismatching cells. */
static int check_view(const lds_CostView *v, const lds_Grid *g, const double *w, int n) {
  int32_t x, y;
  int bad = 0;
  double m = INFINITY;
  bool uniform = true;
  for (y = 0; y < lds_grid_height(g); y++)
    for (x = 0; x < lds_grid_width(g); x++) {
      double c = fresh_cost(g, w, n, x, y), got = lds_cost_view_cost(v, x, y);
      if (!(c == got || (isnan(c) && isnan(got)))) bad++;
      if (c > 0.0 && c < INFINITY && c < m) m = c;
      if (!lds_grid_blocked(g, x, y) && c != 1.0) uniform = false;
    }
  CHECK(lds_cost_view_ready(v));
  CHECK(lds_cost_view_scale(v) == (m == INFINITY ? 1.0 : m));
  CHECK(lds_cost_view_uniform(v) == uniform);
  return bad;
}

static lds_Grid *layered_grid(int32_t w, int32_t h, th_Rng *r) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  int i;
  for (i = 0; i < 3; i++) {
    char name[16];
    snprintf(name, sizeof name, "l%d", i);
    lds_grid_layer_add(g, name, NULL);
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if (th_randint(r, 7) == 0) lds_grid_set_blocked(g, x, y, true);
      lds_grid_set_cost(g, x, y, (float)(1 + th_randint(r, 4)) * 0.5f);
      for (i = 0; i < 3; i++) lds_grid_layer_set(g, i, x, y, (float)th_randint(r, 5));
    }
  return g;
}

static void test_build_sliced_and_fresh(void) {
  th_Rng r = {0x9e3779b97f4a7c15ULL};
  lds_Grid *g = layered_grid(50, 40, &r);
  const double w[3] = {0.5, 0.0, 2.0};
  lds_Error err;
  lds_CostView *v = lds_cost_view_get(g, w, 3, &err);
  lds_Budget b = {10, 0}; /* 10 "expansions" = 320 cells a step */
  int steps = 0;
  CHECK(v != NULL);
  CHECK(!lds_cost_view_ready(v));
  CHECK(isnan(lds_cost_view_scale(v)));
  while (lds_cost_view_build_step(v, &b) == LDS_RUNNING) {
    steps++;
    /* one step computes at most its budget */
    CHECK(lds_cost_view_cells_done(v) <= (uint64_t)steps * 320);
  }
  CHECK_INT(steps, (50 * 40 + 319) / 320 - 1);
  CHECK_INT(lds_cost_view_cells_done(v), 50 * 40);
  CHECK_INT(check_view(v, g, w, 3), 0);
  /* the same weights (trailing zeros, -0) find the same view */
  {
    const double w2[3] = {0.5, -0.0, 2.0};
    const double w3[2] = {0.5, 0.0};
    lds_CostView *v2 = lds_cost_view_get(g, w2, 3, &err), *v3 = lds_cost_view_get(g, w3, 2, &err);
    CHECK(v2 == v);
    CHECK(v3 != v && v3 != NULL);
    CHECK_INT(lds_cost_views_count(g), 2);
    lds_cost_view_release(v2);
    lds_cost_view_drop(v3);
    lds_cost_view_release(v3); /* the last reference: freed */
    CHECK_INT(lds_cost_views_count(g), 1);
  }
  lds_cost_view_release(v);
  CHECK_INT(lds_cost_views_count(g), 1); /* the registry keeps it */
  lds_grid_free(g);
}

/* Random edits; after each, the view (updated by the listener, rescanned
** when needed) equals a computation from scratch. Counts the cells the view
** computed per edit: only a raise of the last cheapest cell or a large
** rectangle may cost more than the rectangle itself. */
static void test_random_edits(void) {
  th_Rng r = {12345};
  lds_Grid *g = layered_grid(37, 29, &r);
  const double w[3] = {1.0, 0.25, 0.0};
  lds_CostView *v = lds_cost_view_get(g, w, 2, NULL);
  int k, bad = 0, rescans = 0, over = 0;
  lds_cost_view_build_step(v, NULL);
  CHECK_INT(check_view(v, g, w, 2), 0);
  for (k = 0; k < 3000; k++) {
    int32_t x = th_randint(&r, 37), y = th_randint(&r, 29);
    uint64_t c0 = lds_cost_view_cells_done(v);
    size_t area = 1;
    switch (th_randint(&r, 8)) {
      case 0: lds_grid_set_blocked(g, x, y, true); break;
      case 1: lds_grid_set_blocked(g, x, y, false); break;
      case 2: lds_grid_set_cost(g, x, y, 0.25f * (float)(1 + th_randint(&r, 12))); break;
      case 3: { /* raise the cheapest cells */
        int32_t a, bb;
        double m = lds_cost_view_scale(v);
        for (bb = 0; bb < 29; bb++)
          for (a = 0; a < 37; a++)
            if (lds_cost_view_cost(v, a, bb) == m && th_randint(&r, 2))
              lds_grid_set_cost(g, a, bb, lds_grid_cost(g, a, bb) + 0.5f);
        area = 0; /* many edits: not counted */
        break;
      }
      case 4: lds_grid_layer_set(g, th_randint(&r, 3), x, y, (float)th_randint(&r, 6)); break;
      case 5: lds_grid_layer_set(g, 0, x, y, th_randint(&r, 4) ? 1.0f : INFINITY); break;
      case 6: { /* a rectangle written through layer_data and touched */
        int32_t x1 = x + th_randint(&r, 5), y1 = y + th_randint(&r, 5), a, bb;
        float *d = lds_grid_layer_data(g, 1);
        if (x1 > 36) x1 = 36;
        if (y1 > 28) y1 = 28;
        for (bb = y; bb <= y1; bb++)
          for (a = x; a <= x1; a++) d[bb * 37 + a] = (float)th_randint(&r, 8);
        lds_grid_touch(g, x, y, x1, y1);
        area = (size_t)(x1 - x + 1) * (size_t)(y1 - y + 1);
        break;
      }
      default: lds_grid_set_cost(g, x, y, 0.125f); break; /* a new minimum */
    }
    if (!lds_cost_view_ready(v)) {
      rescans++;
      CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
    } else if (area && lds_cost_view_cells_done(v) - c0 > 0) {
      over++; /* an edit updates cells in place: nothing is "done" */
    }
    bad += check_view(v, g, w, 2);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(over, 0);
  CHECK(rescans > 0); /* the sequence did raise the last cheapest cell */
  CHECK(rescans < 3000 / 4);
  /* invalid costs: a negative layer value is reported by a search start */
  {
    lds_Search *s = lds_search_new(NULL, g, NULL);
    lds_SearchParams p;
    lds_grid_set_blocked(g, 3, 4, false);
    lds_grid_set_cost(g, 3, 4, 1.0f);
    lds_grid_layer_set(g, 0, 3, 4, -5.0f);
    lds_search_params_init(&p);
    p.layer_weights = w;
    p.n_layer_weights = 2;
    CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
    CHECK_CONTAINS(lds_search_errmsg(s), "cell (3,4) has cost");
    CHECK_CONTAINS(lds_search_errmsg(s), "layer 'l0' value -5 x weight 1");
    lds_search_free(s);
  }
  lds_cost_view_release(v);
  lds_grid_free(g);
}

/* The minimum's count: raising one of several cheapest cells costs nothing;
** raising the last one makes the view wait for a rescan (ncells cells). */
static void test_min_count(void) {
  lds_Grid *g = lds_grid_new(NULL, 20, 10, NULL);
  const double w[1] = {1.0};
  lds_CostView *v;
  uint64_t c0;
  int32_t x, y;
  lds_grid_layer_add(g, "mud", NULL);
  for (y = 0; y < 10; y++)
    for (x = 0; x < 20; x++) lds_grid_set_cost(g, x, y, 2.0f);
  lds_grid_set_cost(g, 3, 3, 1.0f);
  lds_grid_set_cost(g, 7, 5, 1.0f);
  v = lds_cost_view_get(g, w, 1, NULL);
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
  CHECK(lds_cost_view_scale(v) == 1.0);
  CHECK(!lds_cost_view_uniform(v));
  c0 = lds_cost_view_cells_done(v);
  lds_grid_set_cost(g, 3, 3, 3.0f); /* one cheapest cell left */
  CHECK(lds_cost_view_ready(v));
  CHECK(lds_cost_view_scale(v) == 1.0);
  CHECK_INT(lds_cost_view_cells_done(v) - c0, 0);
  lds_grid_layer_set(g, 0, 7, 5, 0.5f); /* the last one: 1.5 now */
  CHECK(!lds_cost_view_ready(v));
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
  CHECK_INT(lds_cost_view_cells_done(v) - c0, 200); /* one rescan */
  CHECK(lds_cost_view_scale(v) == 1.5);
  lds_grid_set_blocked(g, 7, 5, true); /* the minimum blocked */
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
  CHECK(lds_cost_view_scale(v) == 2.0);
  CHECK(lds_cost_view_cost(v, 7, 5) == INFINITY);
  lds_grid_set_cost(g, 0, 0, 0.5f); /* lowered: known at once */
  CHECK(lds_cost_view_ready(v));
  CHECK(lds_cost_view_scale(v) == 0.5);
  /* uniform: every passable cell 1 */
  for (y = 0; y < 10; y++)
    for (x = 0; x < 20; x++) lds_grid_set_cost(g, x, y, 1.0f);
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
  CHECK(lds_cost_view_uniform(v));
  lds_grid_layer_set(g, 0, 1, 1, INFINITY); /* blocked by a layer: not uniform */
  CHECK(!lds_cost_view_uniform(v));
  CHECK(lds_cost_view_cost(v, 1, 1) == INFINITY);
  /* a layer removed: the view (weights by index) cannot be rebuilt */
  lds_grid_layer_remove(g, 0);
  CHECK(!lds_cost_view_ready(v));
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_E_ARG);
  CHECK_CONTAINS(lds_cost_view_errmsg(v), "a layer was removed");
  lds_cost_view_release(v);
  lds_grid_free(g);
}

/* The epochs behind "Searches in progress" (lds_cost_view.h): the scale's
** moves when the minimum is lowered, or raised once the rescan found it
** (not while it is pending: the old scale is still admissible); the mode's
** when the uniform flag flips or the view is reset. */
static void test_epochs(void) {
  lds_Grid *g = lds_grid_new(NULL, 80, 80, NULL);
  const double w[1] = {1.0};
  lds_CostView *v;
  uint64_t se, me;
  lds_grid_layer_add(g, "mud", NULL);
  v = lds_cost_view_get(g, w, 1, NULL);
  lds_cost_view_build_step(v, NULL);
  CHECK(lds_cost_view_uniform(v));
  se = v->scale_epoch;
  me = v->mode_epoch;
  lds_grid_set_cost(g, 5, 5, 0.5f); /* lowered: the scale moves, uniform flips */
  CHECK_INT(v->scale_epoch, se + 1);
  CHECK_INT(v->mode_epoch, me + 1);
  lds_grid_set_cost(g, 5, 5, 2.0f); /* the last cheapest cell raised: rescan pending */
  CHECK(!lds_cost_view_ready(v));
  CHECK_INT(v->scale_epoch, se + 1);
  lds_cost_view_build_step(v, NULL); /* found: 1 again */
  CHECK(lds_cost_view_scale(v) == 1.0);
  CHECK_INT(v->scale_epoch, se + 2);
  lds_grid_set_cost(g, 6, 6, 3.0f); /* not the minimum: nothing moves */
  CHECK_INT(v->scale_epoch, se + 2);
  CHECK_INT(v->mode_epoch, me + 1);
  lds_grid_set_cost(g, 5, 5, 1.0f);
  lds_grid_set_cost(g, 6, 6, 1.0f); /* uniform again */
  CHECK(lds_cost_view_uniform(v));
  CHECK_INT(v->mode_epoch, me + 2);
  lds_grid_touch(g, 0, 0, 79, 79); /* the whole grid: reset */
  CHECK(!lds_cost_view_ready(v));
  CHECK_INT(v->mode_epoch, me + 3);
  CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
  CHECK_INT(check_view(v, g, w, 1), 0);
  lds_cost_view_release(v);
  lds_grid_free(g);
}

/* Grid g2 with base costs equal to g's effective costs under w (exact in a
** float: halves), no layers, no weights. */
static lds_Grid *baked(const lds_Grid *g, const double *w, int n) {
  lds_Grid *g2 = lds_grid_new(NULL, lds_grid_width(g), lds_grid_height(g), NULL);
  int32_t x, y;
  for (y = 0; y < lds_grid_height(g); y++)
    for (x = 0; x < lds_grid_width(g); x++) {
      double c = fresh_cost(g, w, n, x, y);
      if (c == INFINITY)
        lds_grid_set_blocked(g2, x, y, true);
      else
        lds_grid_set_cost(g2, x, y, (float)c);
    }
  return g2;
}

/* one query's status, cost and cells; returns the path length or -1 */
static long run_query(lds_Search *s, const lds_SearchParams *p, int32_t sx, int32_t sy,
                      int32_t gx, int32_t gy, double *cost, unsigned long long *hash) {
  lds_Path *path;
  size_t i;
  *cost = -1.0;
  *hash = 1469598103934665603ULL;
  if (lds_search_start(s, p, sx, sy, gx, gy) != LDS_OK) return -2;
  if (lds_search_run(s) != LDS_FOUND) return -1;
  path = lds_search_path(s, NULL);
  *cost = lds_path_cost(path);
  for (i = 0; i < lds_path_length(path); i++) {
    int32_t x, y;
    lds_path_cell(path, i, &x, &y);
    *hash = (*hash ^ (unsigned long long)(y * 65536 + x)) * 1099511628211ULL;
  }
  i = lds_path_length(path);
  lds_path_free(path);
  return (long)i;
}

/* Searches on a view (kept up to date through edits) equal searches on a
** grid baked from scratch with the same costs, bit for bit. */
static void test_search_equal(void) {
  th_Rng r = {777};
  lds_Grid *g = layered_grid(64, 48, &r);
  const double wa[2] = {0.5, 1.0}, wb[3] = {0.0, 0.0, 1.5};
  lds_Search *s = lds_search_new(NULL, g, NULL);
  int round, q, diff = 0, found = 0;
  for (round = 0; round < 6; round++) {
    int set;
    for (set = 0; set < 2; set++) {
      const double *w = set ? wb : wa;
      int n = set ? 3 : 2;
      lds_Grid *g2 = baked(g, w, n);
      lds_Search *s2 = lds_search_new(NULL, g2, NULL);
      lds_SearchParams p, p2;
      lds_search_params_init(&p);
      p.layer_weights = w;
      p.n_layer_weights = n;
      for (q = 0; q < 12; q++) {
        int32_t sx = th_randint(&r, 64), sy = th_randint(&r, 48);
        int32_t gx = th_randint(&r, 64), gy = th_randint(&r, 48);
        double c1, c2;
        unsigned long long h1, h2;
        long n1, n2;
        p.algo = q % 3 == 0 ? LDS_ALGO_ASTAR : q % 3 == 1 ? LDS_ALGO_WASTAR : LDS_ALGO_JPS;
        p2 = p;
        p2.layer_weights = NULL;
        p2.n_layer_weights = 0;
        n1 = run_query(s, &p, sx, sy, gx, gy, &c1, &h1);
        n2 = run_query(s2, &p2, sx, sy, gx, gy, &c2, &h2);
        if (n1 != n2 || c1 != c2 || h1 != h2) diff++;
        if (n1 > 0) found++;
      }
      lds_search_free(s2);
      lds_grid_free(g2);
    }
    for (q = 0; q < 40; q++) { /* edits between rounds */
      int32_t x = th_randint(&r, 64), y = th_randint(&r, 48);
      if (q % 4 == 0) lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
      else if (q % 4 == 1) lds_grid_set_cost(g, x, y, (float)(1 + th_randint(&r, 4)) * 0.5f);
      else lds_grid_layer_set(g, q % 3, x, y, (float)th_randint(&r, 5));
    }
  }
  CHECK_INT(diff, 0);
  CHECK(found > 60);
  CHECK_INT(lds_cost_views_count(g), 2); /* one per weight set, shared */
  /* starting on a ready view computes nothing */
  {
    lds_CostView *v = lds_cost_view_get(g, wa, 2, NULL);
    uint64_t c0;
    lds_SearchParams p;
    lds_cost_view_build_step(v, NULL);
    c0 = lds_cost_view_cells_done(v);
    lds_search_params_init(&p);
    p.layer_weights = wa;
    p.n_layer_weights = 2;
    for (q = 0; q < 50; q++) lds_search_start(s, &p, 1, 1, 60, 40);
    CHECK_INT(lds_cost_view_cells_done(v) - c0, 0);
    lds_cost_view_release(v);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

/* Two weight sets alternating in a deterministic scheduler: no tick builds
** more view cells than its budget allows, each view is built once, and every
** path equals a one-shot search's. */
static void test_scheduler_alternating(void) {
  th_Rng r = {4242};
  lds_Grid *g = layered_grid(300, 200, &r);
  const double wa[2] = {0.5, 1.0}, wb[3] = {0.0, 2.0, 0.5};
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_RequestId ids[40];
  int i, frames = 0, diff = 0, found = 0, over = 0;
  uint64_t max_cells = 0;
  lds_Search *one = lds_search_new(NULL, g, NULL);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.quick_share = 0.0;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(sc, g, 4);
  for (i = 0; i < 40; i++) {
    lds_Request rq;
    lds_request_init(&rq, g, th_randint(&r, 300), th_randint(&r, 200), th_randint(&r, 300),
                     th_randint(&r, 200));
    rq.params.layer_weights = i % 2 ? wb : wa;
    rq.params.n_layer_weights = i % 2 ? 3 : 2;
    rq.params.h_scale = i % 4 == 3 ? 0.5 : 0.0;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &ids[i]), LDS_OK);
  }
  while (lds_scheduler_pending(sc) > 0 && frames < 10000) {
    lds_Budget b = {0, 200}; /* 800 expansions = 25600 cells a tick */
    lds_TickStats ts;
    lds_scheduler_step(sc, &b, &ts);
    if (ts.view_cells > max_cells) max_cells = ts.view_cells;
    if (ts.view_cells > ts.budget_expansions * LDS_COST_VIEW_CELLS_PER_EXPANSION) over++;
    if (ts.expansions + (ts.view_cells + 31) / 32 > ts.budget_expansions + 1) over++;
    frames++;
  }
  CHECK_INT(over, 0);
  CHECK(max_cells > 0 && max_cells < 300 * 200); /* a view takes more than one tick */
  {
    lds_TickStats tot;
    lds_scheduler_totals(sc, &tot);
    CHECK_INT(tot.view_cells, 2 * 300 * 200); /* each view built once */
  }
  for (i = 0; i < 40; i++) {
    lds_RequestInfo info;
    lds_SearchParams p;
    const lds_Path *path = lds_scheduler_path(sc, ids[i]);
    double c;
    unsigned long long h1, h2 = 1469598103934665603ULL;
    long n;
    int32_t sx, sy, gx, gy;
    size_t k;
    lds_scheduler_info(sc, ids[i], &info);
    if (info.status == LDS_FOUND) found++;
    if (!path) continue;
    lds_path_cell(path, 0, &sx, &sy);
    lds_path_cell(path, lds_path_length(path) - 1, &gx, &gy);
    lds_search_params_init(&p);
    p.layer_weights = i % 2 ? wb : wa;
    p.n_layer_weights = i % 2 ? 3 : 2;
    p.h_scale = i % 4 == 3 ? 0.5 : 0.0;
    n = run_query(one, &p, sx, sy, gx, gy, &c, &h1);
    for (k = 0; k < lds_path_length(path); k++) {
      int32_t x, y;
      lds_path_cell(path, k, &x, &y);
      h2 = (h2 ^ (unsigned long long)(y * 65536 + x)) * 1099511628211ULL;
    }
    if (n != (long)lds_path_length(path) || c != lds_path_cost(path) || h1 != h2) diff++;
  }
  CHECK(found > 20);
  CHECK_INT(diff, 0);
  lds_scheduler_free(sc);
  lds_search_free(one);
  lds_grid_free(g);
}

/* References, dropping, memory. */
static void test_drop_and_memory(void) {
  th_Alloc a = {0, 0, 0, 0};
  lds_Env env;
  lds_Grid *g;
  lds_Search *s;
  lds_SearchParams p;
  const double w[1] = {1.0}, w2[1] = {3.0};
  lds_CostView *v;
  lds_Error err;
  size_t before, gbytes;
  lds_env_init(&env);
  env.alloc = th_alloc;
  env.alloc_ud = &a;
  g = lds_grid_new(&env, 100, 50, NULL);
  lds_grid_layer_add(g, "mud", NULL);
  s = lds_search_new(&env, g, NULL);
  before = a.live;
  gbytes = lds_grid_mem_used(g);
  CHECK_INT(lds_cost_views_mem_used(g), 0);
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = 1;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 99, 49), LDS_OK); /* creates and builds the view */
  CHECK_INT(lds_cost_views_count(g), 1);
  v = lds_cost_views_at(g, 0);
  CHECK(v != NULL && lds_cost_view_ready(v));
  CHECK(lds_cost_views_at(g, 1) == NULL);
  CHECK(lds_cost_view_mem_used(v) >= 102 * 52 * sizeof(double));
  CHECK(lds_cost_views_mem_used(g) >= lds_cost_view_mem_used(v));
  /* every byte allocated is the views' or the grid's grown listener list */
  CHECK_INT(a.live - before, lds_cost_views_mem_used(g) + lds_grid_mem_used(g) - gbytes);
  lds_cost_view_drop(v);
  CHECK_INT(lds_cost_views_count(g), 0);
  CHECK(lds_cost_view_dropped(v));
  CHECK(lds_cost_views_mem_used(g) > 0); /* the search and v still hold it */
  lds_cost_view_release(v);
  CHECK_INT(lds_search_run(s), LDS_FOUND); /* the dropped view still serves its search */
  p.layer_weights = w2;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 99, 49), LDS_OK); /* another view; the old one goes */
  CHECK_INT(lds_cost_views_count(g), 1);
  lds_cost_views_drop_all(g);
  CHECK_INT(lds_cost_views_count(g), 1 - 1);
  p.n_layer_weights = 0;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 99, 49), LDS_OK); /* no weights: the reference goes */
  CHECK(lds_cost_views_mem_used(g) < 102 * 52 * sizeof(double));
  /* bad arguments */
  CHECK(lds_cost_view_get(g, w, 2, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "2 layer weights for a grid with 1 layers");
  {
    const double z[1] = {0.0}, nan1[1] = {NAN};
    CHECK(lds_cost_view_get(g, z, 1, &err) == NULL);
    CHECK_CONTAINS(err.msg, "every weight is 0");
    CHECK(lds_cost_view_get(g, nan1, 1, &err) == NULL);
    CHECK_CONTAINS(err.msg, "weight of layer 'mud' is nan");
  }
  /* a view still in the registry is freed with its grid */
  v = lds_cost_view_get(g, w, 1, NULL);
  lds_cost_view_release(v);
  lds_search_free(s);
  lds_grid_free(g);
  CHECK_INT(a.live, 0);
}

void suite_cost_view(void);
void suite_cost_view(void) {
  test_build_sliced_and_fresh();
  test_random_edits();
  test_min_count();
  test_epochs();
  test_search_equal();
  test_scheduler_alternating();
  test_drop_and_memory();
}
