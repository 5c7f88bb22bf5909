/* SPDX-License-Identifier: MIT */
/*
** test_components.c — the connectivity index (core/lds_components.h):
** after every edit of random edit sequences (blocks, openings, layer
** values, rectangles, rule changes, layer removal) its components equal a
** fresh flood fill over lds_grid_can_move, under every diagonal rule and
** with a blocking layer; queries across components end with no path and 0
** expansions; queries inside one give the same cost as without the index.
*/
#include "harness.h"

#include "lds.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Reference labels: flood fill over the grid's legal moves into cells that
** are passable and not +inf on any layer of mask. 0 = not passable. */
static uint32_t *ref_labels(const lds_Grid *g, uint32_t mask, uint32_t *count) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  size_t n = (size_t)w * (size_t)h, *stack = malloc(n * sizeof(size_t));
  uint32_t *lab = calloc(n, sizeof(uint32_t)), id = 0;
  size_t i;
  for (i = 0; i < n; i++) {
    size_t top = 0;
    int32_t x = (int32_t)(i % (size_t)w), y = (int32_t)(i / (size_t)w);
    int k;
    bool pass = !lds_grid_blocked(g, x, y);
    for (k = 0; k < 16 && pass; k++)
      if (((mask >> k) & 1u) && lds_grid_layer_get(g, k, x, y) == INFINITY) pass = false;
    if (lab[i] || !pass) continue;
    lab[i] = ++id;
    stack[top++] = i;
    while (top) {
      size_t u = stack[--top];
      int32_t ux = (int32_t)(u % (size_t)w), uy = (int32_t)(u / (size_t)w);
      int d;
      for (d = 0; d < 8; d++) {
        int32_t vx = ux + lds_dir_dx[d], vy = uy + lds_dir_dy[d];
        size_t v;
        bool ok = true;
        if (!lds_grid_can_move(g, ux, uy, d)) continue;
        for (k = 0; k < 16 && ok; k++)
          if (((mask >> k) & 1u) && lds_grid_layer_get(g, k, vx, vy) == INFINITY) ok = false;
        v = (size_t)vy * (size_t)w + (size_t)vx;
        if (!ok || lab[v]) continue;
        lab[v] = id;
        stack[top++] = v;
      }
    }
  }
  free(stack);
  *count = id;
  return lab;
}

/* Whether the index's partition equals the reference one: the same cells
** unlabelled and a bijection between the ids. */
static bool same_partition(const lds_Grid *g, const lds_Components *c, uint32_t mask) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  uint32_t count, *ref = ref_labels(g, mask, &count), *fwd, *bwd;
  size_t i, n = (size_t)w * (size_t)h;
  bool ok = lds_components_status(c) == LDS_OK && lds_components_count(c) == count;
  fwd = calloc((size_t)count + 2, sizeof(uint32_t));
  bwd = calloc((size_t)count + 2, sizeof(uint32_t));
  for (i = 0; i < n && ok; i++) {
    uint32_t a = ref[i], b = lds_components_id(c, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w));
    if ((a == 0) != (b == LDS_COMPONENT_NONE) || b > count) {
      ok = false;
      break;
    }
    if (!a) continue;
    if (!fwd[a]) fwd[a] = b;
    if (!bwd[b]) bwd[b] = a;
    if (fwd[a] != b || bwd[b] != a) ok = false;
  }
  free(fwd);
  free(bwd);
  free(ref);
  return ok;
}

/* A random grid: walls of density pct %, with a few long walls so that
** components are large and edits split and merge them. */
static lds_Grid *random_grid(th_Rng *r, int32_t w, int32_t h, int pct) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (th_randint(r, 100) < pct) lds_grid_set_blocked(g, x, y, true);
  for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, h / 2, x % 17 != 3);
  for (y = 0; y < h; y++) lds_grid_set_blocked(g, w / 3, y, y % 11 != 5);
  return g;
}

static int edits_checked;

/* n random edits on g, each followed by the comparison of both indexes
** (mask 0 and the layer-0 mask) with a fresh flood fill. */
static void random_edits(th_Rng *r, lds_Grid *g, lds_Components *c0, lds_Components *c1, int n) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  int i, bad = 0;
  for (i = 0; i < n; i++) {
    int kind = th_randint(r, 100);
    int32_t x = th_randint(r, w), y = th_randint(r, h);
    if (kind < 70) {
      lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
    } else if (kind < 85) {
      lds_grid_layer_set(g, 0, x, y, lds_grid_layer_get(g, 0, x, y) == INFINITY ? 0.0f : INFINITY);
    } else if (kind < 95) { /* a rectangle of walls or openings through the layer data */
      int32_t x1 = x + th_randint(r, 6), y1 = y + th_randint(r, 6), xx, yy;
      bool b = th_randint(r, 2) == 0;
      if (x1 >= w) x1 = w - 1;
      if (y1 >= h) y1 = h - 1;
      for (yy = y; yy <= y1; yy++)
        for (xx = x; xx <= x1; xx++) lds_grid_set_blocked(g, xx, yy, b);
      lds_grid_touch(g, x, y, x1, y1);
    } else if (kind < 98) {
      lds_grid_set_cost(g, x, y, 1.0f + (float)th_randint(r, 4));
    } else {
      lds_grid_set_diagonal(g, (lds_Diagonal)th_randint(r, 4));
    }
    if (!same_partition(g, c0, 0) || (c1 && !same_partition(g, c1, 1u))) {
      if (bad++ < 3) TH_FAIL("edit %d (kind %d at %d,%d): components differ from a flood fill", i, kind, x, y);
    }
    edits_checked++;
  }
  CHECK_INT(bad, 0);
}

static void test_random_sequences(void) {
  th_Rng r = {0x9E3779B97F4A7C15ULL};
  static const lds_Diagonal rules[] = {LDS_DIAG_NO_CORNER_CUTTING, LDS_DIAG_ALWAYS,
                                       LDS_DIAG_ALLOW_ONE_BLOCKED, LDS_DIAG_NEVER};
  int k;
  for (k = 0; k < 10; k++) {
    lds_Grid *g = random_grid(&r, 100 + th_randint(&r, 40), 70 + th_randint(&r, 40), 25 + 5 * (k % 4));
    lds_Components *c0, *c1;
    lds_Error err;
    int idx;
    lds_grid_set_diagonal(g, rules[k % 4]);
    if (k == 5) lds_grid_set_neighbourhood(g, 4);
    lds_grid_layer_add(g, "fire", &idx);
    c0 = lds_components_new(NULL, g, 0, &err);
    c1 = lds_components_new(NULL, g, 1u, &err);
    CHECK(c0 != NULL && c1 != NULL);
    if (!c0 || !c1) return;
    CHECK(same_partition(g, c0, 0));
    CHECK(same_partition(g, c1, 1u));
    random_edits(&r, g, c0, c1, 400);
    {
      lds_ComponentsStats st;
      lds_components_stats(c0, &st);
      CHECK(st.updates >= 400);
      CHECK(st.relabels > 0);            /* some edits merged or split */
      CHECK(st.relabels < st.updates);   /* and many did not need to */
    }
    lds_grid_free(g); /* frees both indexes */
  }
  CHECK(edits_checked >= 4000);
}

/* A wall with a door of 3 cells between two halves: closing it splits,
** opening merges; the halves' ids are those of a flood fill. */
static void test_door(void) {
  lds_Grid *g = lds_grid_new(NULL, 200, 90, NULL);
  lds_Components *c;
  int32_t y, i;
  for (y = 0; y < 90; y++) lds_grid_set_blocked(g, 100, y, y < 40 || y > 42);
  c = lds_components_new(NULL, g, 0, NULL);
  CHECK_INT(lds_components_count(c), 1);
  CHECK(lds_components_connected(c, 0, 0, 199, 89));
  for (i = 0; i < 3; i++) lds_grid_set_blocked(g, 100, 40 + i, true);
  CHECK_INT(lds_components_count(c), 2);
  CHECK(!lds_components_connected(c, 0, 0, 199, 89));
  CHECK(lds_components_id(c, 100, 41) == LDS_COMPONENT_NONE);
  CHECK(same_partition(g, c, 0));
  lds_grid_set_blocked(g, 100, 41, false);
  CHECK_INT(lds_components_count(c), 1);
  CHECK(lds_components_connected(c, 0, 0, 199, 89));
  CHECK(lds_components_id(c, -1, 0) == LDS_COMPONENT_NONE);
  lds_grid_free(g);
}

static uint64_t run_query(lds_Search *s, const lds_SearchParams *p, int32_t sx, int32_t sy,
                          int32_t gx, int32_t gy, lds_Status *st, double *cost) {
  lds_Stats stt;
  *st = lds_search_start(s, p, sx, sy, gx, gy);
  if (*st == LDS_OK) *st = lds_search_run(s);
  *cost = lds_search_cost(s);
  lds_search_stats(s, &stt);
  return stt.expansions;
}

/* Across components: no path and 0 expansions (A*, Dijkstra, JPS); inside
** one: the cost of the same query on a copy without the index. A layer
** index answers only queries that weight its layer. */
static void test_queries(void) {
  th_Rng r = {12345};
  lds_Grid *g = random_grid(&r, 120, 80, 30), *plain;
  lds_Search *s, *sp;
  lds_Components *c;
  lds_SearchParams p;
  uint32_t count, *ref;
  int i, across = 0, inside = 0, zero = 0, same = 0, idx;
  static const lds_Algo algos[] = {LDS_ALGO_ASTAR, LDS_ALGO_DIJKSTRA, LDS_ALGO_JPS};
  for (idx = 0; idx < 80; idx++) lds_grid_set_blocked(g, 80, idx, true); /* a solid wall */
  lds_grid_layer_add(g, "fire", &idx);
  plain = lds_grid_clone(g, NULL);
  c = lds_components_new(NULL, g, 0, NULL);
  CHECK(c != NULL);
  s = lds_search_new(NULL, g, NULL);
  sp = lds_search_new(NULL, plain, NULL);
  ref = ref_labels(g, 0, &count);
  CHECK(count > 2);
  for (i = 0; i < 600; i++) {
    int32_t sx = th_randint(&r, 120), sy = th_randint(&r, 80), gx = th_randint(&r, 120),
            gy = th_randint(&r, 80);
    uint32_t a = ref[sy * 120 + sx], b = ref[gy * 120 + gx];
    lds_Status st, st2;
    double cost, cost2;
    uint64_t e;
    if (!a || !b) continue;
    lds_search_params_init(&p);
    p.algo = algos[i % 3];
    e = run_query(s, &p, sx, sy, gx, gy, &st, &cost);
    run_query(sp, &p, sx, sy, gx, gy, &st2, &cost2);
    if (a != b) {
      across++;
      if (st == LDS_NO_PATH && st2 == LDS_NO_PATH && e == 0) zero++;
    } else {
      inside++;
      if (st == LDS_FOUND && st2 == LDS_FOUND && cost == cost2) same++;
    }
  }
  CHECK(across > 50);
  CHECK(inside > 50);
  CHECK_INT(zero, across);
  CHECK_INT(same, inside);
  free(ref);

  /* a layer wall: only an index on the layer and a query weighting it skip */
  {
    int32_t y;
    lds_Grid *lg = lds_grid_new(NULL, 70, 40, NULL);
    lds_Search *ls = lds_search_new(NULL, lg, NULL);
    lds_Status st;
    double cost, w1 = 1.0;
    uint64_t e;
    lds_grid_layer_add(lg, "lava", &idx);
    for (y = 0; y < 40; y++) lds_grid_layer_set(lg, idx, 35, y, INFINITY);
    CHECK(lds_components_new(NULL, lg, 1u, NULL) != NULL);
    CHECK(lds_components_find(lg, 1u) != NULL);
    CHECK(lds_components_find(lg, 0u) == NULL);
    lds_search_params_init(&p);
    e = run_query(ls, &p, 0, 0, 69, 39, &st, &cost); /* lava not weighted: found */
    CHECK_INT(st, LDS_FOUND);
    CHECK(e > 0);
    p.layer_weights = &w1;
    p.n_layer_weights = 1;
    e = run_query(ls, &p, 0, 0, 69, 39, &st, &cost);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK_INT(e, 0);
    e = run_query(ls, &p, 0, 0, 35, 10, &st, &cost); /* goal on lava */
    CHECK_INT(st, LDS_NO_PATH);
    CHECK_INT(e, 0);
    p.partial = true; /* partial: the search runs for its closest cell */
    e = run_query(ls, &p, 0, 0, 69, 39, &st, &cost);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(e > 0);
    /* the layer removed: the index follows by name and holds one component */
    lds_grid_layer_remove(lg, idx);
    CHECK_INT(lds_components_layer_mask(lds_components_find(lg, 0u)), 0);
    CHECK_INT(lds_components_count(lds_components_find(lg, 0u)), 1);
    lds_search_free(ls);
    lds_grid_free(lg);
  }
  lds_search_free(s);
  lds_search_free(sp);
  lds_grid_free(g);
  lds_grid_free(plain);
}

static void test_errors_and_memory(void) {
  th_Alloc a = {0, 0, 0, 0};
  lds_Env env;
  lds_Grid *g;
  lds_Components *c;
  lds_Error err;
  long k;
  memset(&env, 0, sizeof env);
  env.alloc = th_alloc;
  env.alloc_ud = &a;
  g = lds_grid_new(&env, 300, 200, NULL);
  CHECK(lds_components_new(NULL, NULL, 0, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK(lds_components_new(NULL, g, 2u, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "layer_mask bit 1");
  c = lds_components_new(NULL, g, 0, &err);
  CHECK(c != NULL);
  CHECK(lds_components_new(NULL, g, 0, &err) == NULL);
  CHECK_CONTAINS(err.msg, "already has an index");
  /* an open 300x200 grid: 2 bytes per cell and little else */
  CHECK(lds_components_mem_used(c) < (size_t)300 * 200 * 3);
  CHECK(lds_components_mem_used(c) >= (size_t)300 * 200 * 2);
  lds_components_free(c);
  lds_components_free(NULL);
  /* allocation failures at creation: NULL, nothing leaked */
  for (k = 1; k < 40; k++) {
    size_t live = a.live;
    a.fail_at = a.count + k;
    c = lds_components_new(&env, g, 0, &err);
    a.fail_at = 0;
    if (c) {
      lds_components_free(c);
      break;
    }
    CHECK_INT(err.code, LDS_E_NOMEM);
    CHECK_INT(a.live, live);
  }
  c = lds_components_new(&env, g, 0, &err);
  lds_grid_set_blocked(g, 5, 5, true);
  lds_grid_free(g); /* the index goes with the grid */
  CHECK_INT(a.live, 0);
}

void suite_components(void);
void suite_components(void) {
  test_door();
  test_random_sequences();
  test_queries();
  test_errors_and_memory();
}
