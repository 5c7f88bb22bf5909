/* SPDX-License-Identifier: MIT */
/* test_dstar_graph.c — D* Lite on graphs: hand-made graphs (one-way,
** parallel, self-loop, zero-cost cycles, coincident nodes), argument and
** space errors, the graph listener, allocator failures, a differential test
** against a fresh graph A* after every replan on random graphs under random
** cost changes with a moving start, and the monaco road graph. */
#include "harness.h"
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* fresh A* optimal cost from a to b on the live graph; -1 unreachable */
static double astar_cost(lds_Search *s, uint32_t a, uint32_t b) {
  lds_Status st = lds_search_start_nodes(s, NULL, a, b);
  if (st != LDS_OK) return -2.0;
  st = lds_search_step(s, NULL);
  if (st == LDS_NO_PATH) return -1.0;
  if (st != LDS_FOUND) return -3.0;
  return lds_search_cost(s);
}

static bool same_cost(double a, double b) {
  if (a < 0 || b < 0) return a == b;
  return fabs(a - b) <= 1e-9 * (fabs(b) > 1.0 ? fabs(b) : 1.0);
}

/* the path is a chain of edges from start to goal; its cost is the sum of
** the chosen edges (each a cheapest parallel edge up to 1e-9) */
static bool path_valid(const lds_Graph *g, const lds_Path *p, uint32_t s, uint32_t t) {
  size_t i, n = lds_path_length(p);
  double sum = 0.0;
  if (n == 0 || lds_path_width(p) != 0 || lds_path_node(p, 0) != s ||
      lds_path_node(p, n - 1) != t)
    return false;
  for (i = 0; i + 1 < n; i++) {
    const uint32_t *tg;
    const double *c;
    uint32_t k, deg = lds_graph_out_edges(g, lds_path_node(p, i), &tg, &c, NULL);
    double best = INFINITY;
    for (k = 0; k < deg; k++)
      if (tg[k] == lds_path_node(p, i + 1) && c[k] < best) best = c[k];
    if (best == INFINITY) return false;
    sum += best;
  }
  return same_cost(sum, lds_path_cost(p));
}

static lds_Graph *make(uint32_t n, lds_Coords k, const double *xyz, const lds_GraphEdge *e,
                       size_t m) {
  lds_Error err;
  lds_Graph *g = lds_graph_from_edges(NULL, n, k, xyz, e, m, &err);
  if (!g) TH_FAIL("graph: %s", err.msg);
  return g;
}

static lds_DStar *dnew(const lds_Graph *g, uint32_t s, uint32_t t) {
  lds_Error err;
  lds_DStar *ds = lds_dstar_new_graph(NULL, g, s, t, NULL, &err);
  if (!ds) TH_FAIL("dstar: %s", err.msg);
  return ds;
}

static bool path_is(const lds_DStar *ds, const uint32_t *ids, size_t n) {
  lds_Path *p = lds_dstar_path(ds, NULL);
  size_t i;
  bool ok = p && lds_path_length(p) == n && lds_path_width(p) == 0;
  for (i = 0; ok && i < n; i++) ok = lds_path_node(p, i) == ids[i];
  lds_path_free(p);
  return ok;
}

/* ------------------------------------------------------------ hand-made -- */

static void test_diamond(void) {
  /* 0 -> 1 -> 3 (1 + 1), 0 -> 2 -> 3 (1 + 5), one-way */
  static const lds_GraphEdge e[] = {{0, 1, 1.0}, {1, 3, 1.0}, {0, 2, 1.0}, {2, 3, 5.0}};
  static const double xy[] = {0, 0, 1, 1, 1, -1, 2, 0};
  static const uint32_t p1[] = {0, 1, 3}, p2[] = {0, 2, 3}, p3[] = {2, 3};
  lds_Graph *g = make(4, LDS_COORDS_XY, xy, e, 4);
  lds_DStar *ds = dnew(g, 0, 3);
  uint32_t nx = 99, s = 9, t = 9;
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 2.0, 1e-12);
  CHECK(path_is(ds, p1, 3));
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_OK);
  CHECK_INT(nx, 1);
  /* raise 1 -> 3: the other branch */
  CHECK_INT(lds_graph_set_edge_cost(g, 1, 3, 10.0), LDS_OK);
  CHECK_INT(lds_dstar_update_edge(ds, lds_graph_find_edge(g, 1, 3)), LDS_OK);
  CHECK_INT(lds_dstar_status(ds), LDS_RUNNING);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_CHANGES);
  CHECK_NEAR(lds_dstar_cost(ds), 6.0, 1e-12);
  CHECK(path_is(ds, p2, 3));
  /* walk to 2; one-way edges: 2 cannot go back */
  CHECK_INT(lds_dstar_move_start_node(ds, 2), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 5.0, 1e-12);
  CHECK(path_is(ds, p3, 2));
  CHECK_INT(lds_dstar_endpoint_nodes(ds, &s, &t), LDS_OK);
  CHECK_INT(s, 2);
  CHECK_INT(t, 3);
  /* the goal's in-edges cut by a node update: still a path, huge cost */
  CHECK_INT(lds_graph_set_edge_cost(g, 2, 3, 1e15), LDS_OK);
  CHECK_INT(lds_dstar_update_node(ds, 3), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 1e15, 1.0);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_NEAR_START);
  /* at the goal */
  CHECK_INT(lds_dstar_move_start_node(ds, 3), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_AT_GOAL);
  CHECK_NEAR(lds_dstar_cost(ds), 0.0, 0.0);
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_OK);
  CHECK_INT(nx, 3);
  /* back at 1 (3 -> 1 does not exist, but a start can be placed anywhere) */
  CHECK_INT(lds_dstar_move_start_node(ds, 1), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 10.0, 1e-12);
  lds_dstar_free(ds);
  /* the reverse direction: one-way edges make it unreachable */
  ds = dnew(g, 3, 0);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_UNREACHABLE);
  CHECK(lds_dstar_cost(ds) < 0);
  CHECK(lds_dstar_path(ds, NULL) == NULL);
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_E_STATE);
  lds_dstar_free(ds);
  lds_graph_free(g);
}

static void test_parallel_selfloop_zero(void) {
  /* self-loop, parallel edges 0 -> 1 (5 then 2), no coordinates */
  static const lds_GraphEdge e[] = {{0, 0, 1.0}, {0, 1, 5.0}, {0, 1, 2.0}, {1, 1, 0.0}};
  /* zero-cost cycle 0 <-> 1 whose nodes tie in g: greedy descent would
  ** circle 0 -> 1 -> 0; the exit 1 -> 3 comes after 1 -> 0 in CSR order */
  static const lds_GraphEdge z[] = {{0, 1, 0.0}, {1, 0, 0.0}, {1, 3, 1.0}, {2, 3, 7.0},
                                    {0, 2, 0.0}};
  static const uint32_t pz[] = {0, 1, 3}, pz1[] = {1, 3};
  /* coincident nodes joined by a zero-cost edge keep the coordinate h */
  static const double xy[] = {0, 0, 3, 4, 3, 4, 6, 8};
  static const lds_GraphEdge c[] = {{0, 1, 5.0}, {1, 2, 0.0}, {2, 3, 5.0}, {0, 3, 11.0}};
  static const uint32_t pc[] = {0, 1, 2, 3};
  lds_Graph *g = make(2, LDS_COORDS_NONE, NULL, e, 4);
  lds_DStar *ds = dnew(g, 0, 1);
  uint32_t nx = 99;
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 2.0, 0.0);
  CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
  CHECK_INT(lds_graph_set_edge_cost_id(g, 2, 10.0), LDS_OK); /* the cheaper parallel edge */
  CHECK_INT(lds_dstar_status(ds), LDS_RUNNING);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 5.0, 0.0);
  CHECK_INT(lds_graph_set_edge_cost_id(g, 0, 0.0), LDS_OK); /* free self-loop */
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 5.0, 0.0);
  lds_dstar_free(ds);
  lds_graph_free(g);

  g = make(4, LDS_COORDS_NONE, NULL, z, 5);
  ds = dnew(g, 0, 3);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 1.0, 0.0);
  CHECK(path_is(ds, pz, 3));
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_OK);
  CHECK_INT(nx, 1);
  CHECK_INT(lds_dstar_move_start_node(ds, 1), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(path_is(ds, pz1, 2)); /* not back to 0 */
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_OK);
  CHECK_INT(nx, 3);
  lds_dstar_free(ds);
  lds_graph_free(g);

  /* a raise under a free cycle: 1 -> 0 -> 2 costs 0 + 1; raising 0 -> 2 to
  ** 10 leaves rhs(0) = 0 + g(1) = g(0) and rhs(1) = 0 + g(0) = g(1):
  ** locally consistent, but wrong (LPA* assumes c > 0); the eager
  ** invalidation of the raised edge's dependants finds 1 -> 2 (5) */
  {
    static const lds_GraphEdge fc[] = {{0, 1, 0.0}, {1, 0, 0.0}, {0, 2, 1.0}, {1, 2, 5.0}};
    static const uint32_t pf[] = {1, 2};
    g = make(3, LDS_COORDS_NONE, NULL, fc, 4);
    ds = dnew(g, 1, 2);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK_NEAR(lds_dstar_cost(ds), 1.0, 0.0);
    CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
    CHECK_INT(lds_graph_set_edge_cost(g, 0, 2, 10.0), LDS_OK);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK_NEAR(lds_dstar_cost(ds), 5.0, 0.0);
    CHECK(path_is(ds, pf, 2));
    CHECK_INT(lds_graph_set_edge_cost(g, 1, 2, 20.0), LDS_OK); /* now 1 -> 0 -> 2 again */
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK_NEAR(lds_dstar_cost(ds), 10.0, 0.0);
    lds_dstar_free(ds);
    lds_graph_free(g);
  }

  g = make(4, LDS_COORDS_XY, xy, c, 4);
  ds = dnew(g, 0, 3);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 10.0, 1e-12);
  CHECK(path_is(ds, pc, 4));
  /* lowering 0 -> 3 to below scale * distance (10): restart with a lower scale */
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 3, 4.0), LDS_OK);
  CHECK_INT(lds_dstar_update_edge(ds, lds_graph_find_edge(g, 0, 3)), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_REINIT);
  CHECK_NEAR(lds_dstar_cost(ds), 4.0, 1e-12);
  lds_dstar_free(ds);
  lds_graph_free(g);
}

static void test_errors(void) {
  static const lds_GraphEdge e[] = {{0, 1, 1.0}};
  static const double xy[] = {0, 0, 1, 0};
  lds_Graph *g = make(2, LDS_COORDS_XY, xy, e, 1), *g2 = make(2, LDS_COORDS_XY, xy, e, 1);
  lds_Graph *open = lds_graph_new(NULL, LDS_COORDS_NONE, NULL);
  lds_Grid *grid = lds_grid_new(NULL, 4, 4, NULL);
  lds_DStarParams p;
  lds_Error err;
  lds_DStar *ds, *dg;
  uint32_t nx;
  int32_t x, y;
  CHECK(lds_dstar_new_graph(NULL, NULL, 0, 1, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK(lds_dstar_new_graph(NULL, open, 0, 0, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_CONTAINS(err.msg, "not frozen");
  CHECK(lds_dstar_new_graph(NULL, g, 2, 1, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "start node 2 out of range (expected 0..1)");
  CHECK(lds_dstar_new_graph(NULL, g, 0, 7, NULL, &err) == NULL);
  CHECK_CONTAINS(err.msg, "goal node 7 out of range");
  lds_dstar_params_init(&p);
  p.heuristic = LDS_H_OCTILE;
  CHECK(lds_dstar_new_graph(NULL, g, 0, 1, &p, &err) == NULL);
  CHECK_CONTAINS(err.msg, "heuristic 'octile' cannot serve a graph with coordinates 'xy'");
  p.heuristic = LDS_H_GREAT_CIRCLE;
  CHECK(lds_dstar_new_graph(NULL, g, 0, 1, &p, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  p.heuristic = LDS_H_EUCLIDEAN;
  p.h_scale = -1.0;
  CHECK(lds_dstar_new_graph(NULL, g, 0, 1, &p, &err) == NULL);
  CHECK_CONTAINS(err.msg, "h_scale -1 out of range");
  p.h_scale = 0.5; /* fixed, admissible */
  ds = lds_dstar_new_graph(NULL, g, 0, 1, &p, &err);
  CHECK(ds != NULL);
  CHECK(lds_dstar_graph(ds) == g);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 1.0, 0.0);
  CHECK(lds_dstar_mem_used(ds) > 2 * 64);
  /* graph search: cell calls refused, bad ids refused */
  CHECK_INT(lds_dstar_update(ds, 0, 0), LDS_E_STATE);
  CHECK_CONTAINS(lds_dstar_errmsg(ds), "this search is on a graph");
  CHECK_INT(lds_dstar_update_rect(ds, 0, 0, 1, 1), LDS_E_STATE);
  CHECK_INT(lds_dstar_move_start(ds, 0, 0), LDS_E_STATE);
  CHECK_INT(lds_dstar_next(ds, &x, &y), LDS_E_STATE);
  CHECK_INT(lds_dstar_subscribe(ds, grid), LDS_E_ARG);
  CHECK_INT(lds_dstar_update_edge(ds, 1), LDS_E_ARG);
  CHECK_CONTAINS(lds_dstar_errmsg(ds), "edge 1 out of range (expected 0..0)");
  CHECK_INT(lds_dstar_update_node(ds, 2), LDS_E_ARG);
  CHECK_INT(lds_dstar_move_start_node(ds, 5), LDS_E_ARG);
  CHECK_INT(lds_dstar_subscribe_graph(ds, g2), LDS_E_ARG);
  CHECK_INT(lds_dstar_unsubscribe_graph(ds), LDS_E_STATE);
  CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
  CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
  CHECK_INT(lds_dstar_unsubscribe(ds), LDS_OK); /* the generic call works too */
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 1, 3.0), LDS_OK); /* not seen */
  CHECK_INT(lds_dstar_status(ds), LDS_FOUND);
  CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK); /* freed while subscribed */
  lds_dstar_endpoints(ds, &x, &y, NULL, NULL);
  CHECK_INT(x, 0);
  lds_dstar_free(ds);
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 1, 2.0), LDS_OK); /* no dangling listener */
  /* grid search: graph calls refused */
  dg = lds_dstar_new(NULL, grid, 0, 0, 3, 3, NULL, &err);
  CHECK(dg != NULL);
  CHECK(lds_dstar_graph(dg) == NULL);
  CHECK_INT(lds_dstar_update_edge(dg, 0), LDS_E_STATE);
  CHECK_CONTAINS(lds_dstar_errmsg(dg), "this search is on a grid");
  CHECK_INT(lds_dstar_update_node(dg, 0), LDS_E_STATE);
  CHECK_INT(lds_dstar_move_start_node(dg, 0), LDS_E_STATE);
  CHECK_INT(lds_dstar_subscribe_graph(dg, g), LDS_E_STATE);
  CHECK_INT(lds_dstar_endpoint_nodes(dg, &nx, NULL), LDS_E_STATE);
  CHECK_INT(lds_dstar_step(dg, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_next_node(dg, &nx), LDS_E_STATE);
  lds_dstar_free(dg);
  lds_grid_free(grid);
  lds_graph_free(open);
  lds_graph_free(g);
  lds_graph_free(g2);
}

static void test_alloc(void) {
  static const lds_GraphEdge e[] = {{0, 1, 1.0}, {1, 2, 1.0}, {0, 2, 3.0}};
  lds_Graph *g = make(3, LDS_COORDS_NONE, NULL, e, 3);
  th_Alloc al;
  lds_Env env;
  lds_Error err;
  lds_DStar *ds = NULL;
  int n, fails = 0;
  for (n = 1; n < 40; n++) {
    memset(&al, 0, sizeof al);
    al.fail_at = n;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &al;
    ds = lds_dstar_new_graph(&env, g, 0, 2, NULL, &err);
    if (ds) {
      CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
      CHECK_NEAR(lds_dstar_cost(ds), 2.0, 0.0);
      lds_dstar_free(ds);
      CHECK_INT(al.live, 0);
      break;
    }
    fails++;
    if (err.code != LDS_E_NOMEM || al.live != 0) break;
  }
  CHECK_INT(fails, 11); /* struct + 10 arrays */
  CHECK_INT(err.code, LDS_OK);
  memset(&al, 0, sizeof al);
  al.limit = 100;
  CHECK(lds_dstar_new_graph(&env, g, 0, 2, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_NOMEM);
  CHECK_CONTAINS(err.msg, "lds_dstar_new_graph: out of memory for 3 nodes and 3 edges");
  CHECK_INT(al.live, 0);
  lds_graph_free(g);
}

/* --------------------------------------------------------- differential -- */

/* A random graph: nodes on a 0..20 integer lattice (so coincident nodes
** occur), two-way and one-way roads costing distance * (1 + rand), some
** parallel edges and self-loops, and zero-cost edges (between coincident
** nodes in half the graphs, between any nodes in the others, which forces
** the automatic scale to 0). */
static lds_Graph *random_graph(th_Rng *r, uint32_t n, bool coords, bool zero_anywhere) {
  double *xy = (double *)malloc(n * 2 * sizeof(double));
  size_t cap = (size_t)n * 8 + 8, m = 0, i;
  lds_GraphEdge *e = (lds_GraphEdge *)malloc(cap * sizeof *e);
  lds_Graph *g;
  for (i = 0; i < n; i++) {
    xy[2 * i] = th_randint(r, 21);
    xy[2 * i + 1] = th_randint(r, 21);
  }
  for (i = 0; i < (size_t)n * 2 && m + 4 < cap; i++) {
    uint32_t a = (uint32_t)th_randint(r, (int)n), b = (uint32_t)th_randint(r, (int)n);
    double dx = xy[2 * a] - xy[2 * b], dy = xy[2 * a + 1] - xy[2 * b + 1];
    double d = sqrt(dx * dx + dy * dy), c = d * (1.0 + th_randint(r, 100) / 50.0);
    int kind = th_randint(r, 20);
    if (kind == 0 && (zero_anywhere || d == 0.0)) c = 0.0;
    if (kind == 1) b = a; /* self-loop */
    if (kind != 1 && c == 0.0 && d > 0.0 && !zero_anywhere) c = 1.0;
    if (!coords && c == 0.0 && th_randint(r, 2)) c = 1.0 + th_randint(r, 9);
    e[m].from = a;
    e[m].to = b;
    e[m++].cost = c;
    if (th_randint(r, 3)) { /* two-way */
      e[m].from = b;
      e[m].to = a;
      e[m++].cost = c * (1.0 + th_randint(r, 3) / 10.0);
    }
    if (th_randint(r, 10) == 0) { /* parallel */
      e[m].from = a;
      e[m].to = b;
      e[m++].cost = c * 0.5 + 1.0;
    }
  }
  g = lds_graph_from_edges(NULL, n, coords ? LDS_COORDS_XY : LDS_COORDS_NONE, coords ? xy : NULL,
                           e, m, NULL);
  free(xy);
  free(e);
  return g;
}

static void test_differential(void) {
  th_Rng r = {0x9e3779b97f4a7c15ULL};
  int graph_i, replans = 0, mismatches = 0, bad_paths = 0, found = 0, nopath = 0;
  int restarts = 0, moves = 0;
  for (graph_i = 0; graph_i < 300; graph_i++) {
    uint32_t n = 4 + (uint32_t)th_randint(&r, 60), s, t, m;
    bool coords = graph_i % 5 != 0, subscribe = graph_i % 2 == 0;
    lds_Graph *g = random_graph(&r, n, coords, graph_i % 4 == 1);
    lds_Search *as = lds_search_new_graph(NULL, g, NULL);
    lds_DStar *ds;
    lds_Budget b;
    int step;
    if (!g || !as) {
      TH_FAIL("random graph %d", graph_i);
      return;
    }
    m = lds_graph_edge_count(g);
    s = (uint32_t)th_randint(&r, (int)n);
    t = (uint32_t)th_randint(&r, (int)n);
    { /* defaults, and h = 0 on one graph in seven */
      lds_DStarParams dp;
      lds_dstar_params_init(&dp);
      if (graph_i % 7 == 3) dp.heuristic = LDS_H_ZERO;
      ds = lds_dstar_new_graph(NULL, g, s, t, &dp, NULL);
    }
    if (subscribe) lds_dstar_subscribe_graph(ds, g);
    memset(&b, 0, sizeof b);
    for (step = 0; step < 25; step++) {
      lds_Status st;
      double want, got;
      uint32_t cur = 0;
      b.max_expansions = (uint64_t)(graph_i % 3 == 0 ? 1 + th_randint(&r, 5) : 0);
      while ((st = lds_dstar_step(ds, &b)) == LDS_RUNNING) {
      }
      replans++;
      if (lds_dstar_flags(ds) & LDS_DSTAR_REINIT) restarts++;
      lds_dstar_endpoint_nodes(ds, &cur, NULL);
      want = astar_cost(as, cur, t);
      got = st == LDS_FOUND ? lds_dstar_cost(ds) : -1.0;
      if (!same_cost(got, want)) {
        if (mismatches++ < 5)
          TH_FAIL("graph %d step %d: %u -> %u: dstar %.17g, astar %.17g", graph_i, step, cur, t,
                  got, want);
      }
      if (st == LDS_FOUND) {
        lds_Path *p = lds_dstar_path(ds, NULL);
        found++;
        if (!p || !path_valid(g, p, cur, t) || !same_cost(lds_path_cost(p), want)) {
          if (bad_paths++ < 3) {
            size_t q;
            fprintf(stderr, "bad path g%d s%d: %p len %zu cost %g want %g:", graph_i, step, (void *)p,
                    p ? lds_path_length(p) : 0, p ? lds_path_cost(p) : -1, want);
            for (q = 0; p && q < lds_path_length(p); q++) fprintf(stderr, " %u", lds_path_node(p, q));
            fprintf(stderr, "\n");
          }
        }
        lds_path_free(p);
      } else {
        nopath++;
      }
      /* the agent walks 0..2 steps along the path, then the world changes */
      if (st == LDS_FOUND) {
        int w = th_randint(&r, 3);
        while (w-- > 0) {
          uint32_t nx;
          if (lds_dstar_next_node(ds, &nx) != LDS_OK) break;
          lds_dstar_move_start_node(ds, nx);
          moves++;
        }
      } else if (th_randint(&r, 3) == 0) {
        lds_dstar_move_start_node(ds, (uint32_t)th_randint(&r, (int)n));
        moves++;
      }
      /* changes: 1..4 edges, half on the current path */
      if (m) {
        int k, nch = 1 + th_randint(&r, 4);
        lds_Path *p = st == LDS_FOUND ? lds_dstar_path(ds, NULL) : NULL;
        for (k = 0; k < nch; k++) {
          uint32_t e = (uint32_t)th_randint(&r, (int)m), a, bb;
          double c, nc;
          if (p && lds_path_length(p) > 1 && th_randint(&r, 2)) {
            size_t i = (size_t)th_randint(&r, (int)lds_path_length(p) - 1);
            uint32_t f = lds_graph_find_edge(g, lds_path_node(p, i), lds_path_node(p, i + 1));
            if (f != LDS_GRAPH_NONE) e = f;
          }
          c = lds_graph_edge_cost(g, e);
          lds_graph_edge_ends(g, e, &a, &bb);
          switch (th_randint(&r, 5)) {
            case 0: nc = c * (1.0 + th_randint(&r, 40) / 10.0) + 1.0; break; /* raise */
            case 1: nc = c * th_randint(&r, 10) / 10.0; break;               /* lower */
            case 2: nc = 1e9; break;                                          /* cut */
            case 3: nc = coords ? lds_graph_distance(g, a, bb) * 1.5 : 2.0; break; /* restore */
            default: nc = graph_i % 4 == 1 ? 0.0 : c + 0.5; break;
          }
          lds_graph_set_edge_cost_id(g, e, nc);
          if (!subscribe) {
            if (th_randint(&r, 4) == 0)
              lds_dstar_update_node(ds, bb);
            else
              lds_dstar_update_edge(ds, e);
          }
        }
        lds_path_free(p);
      }
    }
    lds_dstar_free(ds);
    lds_search_free(as);
    lds_graph_free(g);
  }
  CHECK_INT(mismatches, 0);
  CHECK_INT(bad_paths, 0);
  CHECK(replans == 300 * 25);
  CHECK(found > 2000); /* both outcomes are exercised */
  CHECK(nopath > 100);
  CHECK(restarts > 10);
  CHECK(moves > 1000);
  printf("  dstar graph differential: %d replans (%d found, %d no path, %d restarts), %d moves, "
         "%d mismatches\n", replans, found, nopath, restarts, moves, mismatches);
}

/* ----------------------------------------------------------- monaco -- */

static void test_monaco(void) {
  const char *dir = LDS_SHARED_DIR "/data/roads/";
  char gr[512], co[512];
  lds_Error err;
  lds_Graph *g;
  lds_Search *as;
  lds_DStar *ds;
  th_Rng r = {12345};
  uint32_t s, t, n;
  int round, mismatches = 0, found = 0;
  unsigned long long dexp[2] = {0, 0}, aexp[2] = {0, 0};
  snprintf(gr, sizeof gr, "%smonaco.gr", dir);
  snprintf(co, sizeof co, "%smonaco.co", dir);
  g = lds_graph_load_dimacs(NULL, gr, co, &err);
  if (!g && err.code == LDS_E_IO) {
    printf("  (skipped: %s — the shared road data is absent)\n", err.msg);
    return;
  }
  if (!g) {
    TH_FAIL("cannot load monaco: %s", err.msg);
    return;
  }
  n = lds_graph_node_count(g);
  as = lds_search_new_graph(NULL, g, NULL);
  for (round = 0; round < 6; round++) {
    int step;
    s = (uint32_t)th_randint(&r, (int)n);
    t = (uint32_t)th_randint(&r, (int)n);
    ds = lds_dstar_new_graph(NULL, g, s, t, NULL, &err);
    CHECK(ds != NULL);
    CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
    for (step = 0; step < 12; step++) {
      lds_Status st = lds_dstar_step(ds, NULL);
      uint32_t cur, nx;
      double want;
      lds_dstar_endpoint_nodes(ds, &cur, NULL);
      want = astar_cost(as, cur, t);
      {
        lds_Stats ast;
        lds_search_stats(as, &ast);
        aexp[round & 1] += ast.expansions;
      }
      if (!same_cost(st == LDS_FOUND ? lds_dstar_cost(ds) : -1.0, want)) mismatches++;
      if (st != LDS_FOUND) break;
      found++;
      { /* raise the cost of up to 3 edges of the current path */
        lds_Path *p = lds_dstar_path(ds, NULL);
        size_t len = p ? lds_path_length(p) : 0;
        int k;
        for (k = 0; k < 3 && len > 1; k++) {
          /* even rounds: anywhere on the path; odd rounds: within the first
          ** 4 edges, as an agent's sensor would discover them */
          size_t span = (round & 1) && len - 1 > 4 ? 4 : len - 1;
          size_t i = (size_t)th_randint(&r, (int)span);
          uint32_t e = lds_graph_find_edge(g, lds_path_node(p, i), lds_path_node(p, i + 1));
          lds_graph_set_edge_cost_id(g, e, lds_graph_edge_cost(g, e) * 3.0 + 10.0);
        }
        lds_path_free(p);
      }
      if (lds_dstar_next_node(ds, &nx) == LDS_OK) lds_dstar_move_start_node(ds, nx);
    }
    {
      lds_DStarStats dst;
      lds_dstar_counters(ds, &dst);
      dexp[round & 1] += dst.expansions;
    }
    lds_dstar_free(ds);
  }
  CHECK_INT(mismatches, 0);
  CHECK(found > 20);
  printf("  dstar monaco: %d replans after raising path edges, %d mismatches against A*; "
         "expansions, raises anywhere on the path: D* Lite %llu, A* from scratch %llu; "
         "raises within 4 edges of the start: D* Lite %llu, A* %llu\n",
         found, mismatches, dexp[0], aexp[0], dexp[1], aexp[1]);
  lds_search_free(as);
  lds_graph_free(g);
}

extern void suite_dstar_graph(void);
void suite_dstar_graph(void) {
  test_diamond();
  test_parallel_selfloop_zero();
  test_errors();
  test_alloc();
  test_differential();
  test_monaco();
}
