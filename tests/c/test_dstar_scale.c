/* SPDX-License-Identifier: MIT */
/* test_dstar_scale.c — D* Lite does not depend on the scale of the costs:
** tiny costs (1e-12 down to the smallest float) give A*'s optimum, costs that
** span more than 2^53 (a cheap move vanishes in c + g) still give a path and
** an agent that never steps back, on grids and graphs; a graph without edges
** (no NULL pointer reaches memcpy: run under UBSan by make sanitize); a path
** whose cost overflows to +inf is no path for A* and D* Lite alike. */
#include "harness.h"
#include "lds.h"

#include <float.h>
#include <math.h>

static bool rel_eq(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

/* w x h grid, every cell cost c, rule never */
static lds_Grid *uniform(int32_t w, int32_t h, float c) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_cost(g, x, y, c);
  return g;
}

static double astar_cost(const lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  double c = -1.0;
  if (lds_search_start(s, NULL, sx, sy, gx, gy) == LDS_OK && lds_search_step(s, NULL) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

/* The case: 2x9, every cell 1e-12, (0,8) -> (0,0): the optimum is 8
** moves (9 cells); an absolute tie tolerance of 1e-10 made every key tie and
** D* Lite stopped with a 13-cell path of cost 1.2e-11. */
static void test_tiny_costs(void) {
  static const float costs[] = {1e-12f, 3e-11f, 1e-30f, 1e-38f, 1e-44f /* denormal */,
                                FLT_TRUE_MIN, 1.0f, 1e30f};
  size_t i;
  for (i = 0; i < sizeof costs / sizeof costs[0]; i++) {
    lds_Grid *g = uniform(2, 9, costs[i]);
    lds_DStar *ds = lds_dstar_new(NULL, g, 0, 8, 0, 0, NULL, NULL);
    lds_Path *p;
    double want = 8.0 * (double)costs[i];
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK(rel_eq(lds_dstar_cost(ds), want));
    CHECK(rel_eq(astar_cost(g, 0, 8, 0, 0), want));
    p = lds_dstar_path(ds, NULL);
    CHECK(p != NULL);
    if (p) {
      CHECK_INT(lds_path_length(p), 9);
      CHECK(rel_eq(lds_path_cost(p), want));
    }
    lds_path_free(p);
    lds_dstar_free(ds);
    lds_grid_free(g);
  }
}

/* Graph: 0 -> 1 -> 2 at 1e-12 each against 0 -> 2 at 3e-12: 2e-12 */
static void test_tiny_graph(void) {
  static const double scales[] = {1e-12, 1e-300, 4.9e-324 /* denormal */, 1.0, 1e300};
  size_t i;
  for (i = 0; i < sizeof scales / sizeof scales[0]; i++) {
    double u = scales[i] > 1e-320 ? scales[i] : 4.9e-324;
    lds_GraphEdge e[3];
    lds_Graph *g;
    lds_DStar *ds;
    lds_Path *p;
    e[0].from = 0, e[0].to = 2, e[0].cost = 3.0 * u;
    e[1].from = 0, e[1].to = 1, e[1].cost = u;
    e[2].from = 1, e[2].to = 2, e[2].cost = u;
    g = lds_graph_from_edges(NULL, 3, LDS_COORDS_NONE, NULL, e, 3, NULL);
    ds = lds_dstar_new_graph(NULL, g, 0, 2, NULL, NULL);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK(lds_dstar_cost(ds) == 2.0 * u);
    p = lds_dstar_path(ds, NULL);
    CHECK(p && lds_path_length(p) == 3 && lds_path_cost(p) == 2.0 * u);
    lds_path_free(p);
    lds_dstar_free(ds);
    lds_graph_free(g);
  }
}

/* 1x5 with one cell of cost `big`: 1 + big == big in doubles for big >
** 2^53, so both neighbours of the big cell tie in c + g and greedy descent
** stepped back and forth ("no descending path from the start"). */
static void test_huge_costs(void) {
  static const float bigs[] = {3.4e38f, 1e17f, 1e16f};
  size_t i;
  int dir;
  for (i = 0; i < sizeof bigs / sizeof bigs[0]; i++)
    for (dir = 0; dir < 2; dir++) {
      lds_Grid *g = uniform(5, 1, 1.0f);
      int32_t sx = dir ? 4 : 0, gx = dir ? 0 : 4, x, y, steps = 0;
      lds_DStar *ds;
      lds_Path *p;
      double want;
      lds_grid_set_cost(g, 2, 0, bigs[i]);
      want = astar_cost(g, sx, 0, gx, 0);
      ds = lds_dstar_new(NULL, g, sx, 0, gx, 0, NULL, NULL);
      CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
      CHECK(rel_eq(lds_dstar_cost(ds), want));
      p = lds_dstar_path(ds, NULL);
      CHECK(p != NULL);
      if (p) {
        CHECK_INT(lds_path_length(p), 5);
        CHECK(rel_eq(lds_path_cost(p), want));
      }
      lds_path_free(p);
      /* the agent: each next cell one step closer to the goal */
      for (;;) {
        int32_t cx;
        lds_dstar_endpoints(ds, &cx, NULL, NULL, NULL);
        if (cx == gx || steps > 10) break;
        CHECK_INT(lds_dstar_next(ds, &x, &y), LDS_OK);
        CHECK_INT(x, dir ? cx - 1 : cx + 1);
        lds_dstar_move_start(ds, x, y);
        CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
        p = lds_dstar_path(ds, NULL);
        CHECK(p && lds_path_length(p) == (size_t)(dir ? x + 1 : 5 - x));
        lds_path_free(p);
        steps++;
      }
      CHECK_INT(steps, 4);
      lds_dstar_free(ds);
      lds_grid_free(g);
    }
}

/* The same on a graph: a chain 0 - 1 - 2 - 3 - 4 both ways, the middle
** edges 1e300, the others 1: the walk must not bounce between 2 and 3. */
static void test_huge_graph(void) {
  lds_GraphEdge e[8];
  int i, k = 0;
  lds_Graph *g;
  lds_DStar *ds;
  lds_Path *p;
  uint32_t nx = 0;
  for (i = 0; i < 4; i++) {
    double c = i == 1 ? 1e300 : 1.0;
    e[k].from = (uint32_t)i, e[k].to = (uint32_t)i + 1, e[k++].cost = c;
    e[k].from = (uint32_t)i + 1, e[k].to = (uint32_t)i, e[k++].cost = c;
  }
  g = lds_graph_from_edges(NULL, 5, LDS_COORDS_NONE, NULL, e, 8, NULL);
  ds = lds_dstar_new_graph(NULL, g, 4, 0, NULL, NULL);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  p = lds_dstar_path(ds, NULL);
  CHECK(p && lds_path_length(p) == 5 && rel_eq(lds_path_cost(p), 1e300));
  lds_path_free(p);
  CHECK_INT(lds_dstar_move_start_node(ds, 3), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_next_node(ds, &nx), LDS_OK);
  CHECK_INT(nx, 2);
  lds_dstar_free(ds);
  lds_graph_free(g);
}

/* A graph with nodes and no edges (DIMACS `p sp 4295 0`): the snapshot
** copy had memcpy(dst, NULL, 0), undefined (UBSan aborted). */
static void test_no_edges(void) {
  static const char text[] = "p sp 4295 0\n";
  lds_Error err;
  lds_Graph *g = lds_graph_parse_dimacs(NULL, text, sizeof text - 1, "t.gr", NULL, 0, NULL, &err);
  lds_DStar *ds;
  CHECK(g != NULL);
  if (!g) return;
  ds = lds_dstar_new_graph(NULL, g, 0, 4294, NULL, &err);
  CHECK(ds != NULL);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_UNREACHABLE);
  CHECK_INT(lds_dstar_move_start_node(ds, 4294), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_cost(ds) == 0.0);
  lds_dstar_free(ds);
  lds_graph_free(g);
}

/* A path whose cost overflows to +inf is no path, for A*, Dijkstra and D*
** Lite alike (A* reported LDS_FOUND with cost inf): 0 -> 1 -> 2 at 1e308
** each; with a finite detour 0 -> 3 -> 2 all take the detour. On a grid,
** a layer weight of 1e308 makes two cells of 1e308 in a row. */
static void test_overflow(void) {
  lds_GraphEdge e[4] = {{0, 1, 1e308}, {1, 2, 1e308}, {0, 3, 1.0}, {3, 2, 1.0}};
  size_t m;
  for (m = 2; m <= 4; m += 2) {
    lds_Graph *g = lds_graph_from_edges(NULL, 4, LDS_COORDS_NONE, NULL, e, m, NULL);
    lds_Search *s = lds_search_new_graph(NULL, g, NULL);
    lds_DStar *ds = lds_dstar_new_graph(NULL, g, 0, 2, NULL, NULL);
    lds_SearchParams p;
    int a;
    lds_Status want = m == 2 ? LDS_NO_PATH : LDS_FOUND;
    lds_search_params_init(&p);
    for (a = 0; a < 2; a++) {
      p.algo = a ? LDS_ALGO_DIJKSTRA : LDS_ALGO_ASTAR;
      CHECK_INT(lds_search_start_nodes(s, &p, 0, 2), LDS_OK);
      CHECK_INT(lds_search_step(s, NULL), want);
      CHECK(lds_search_cost(s) == (m == 2 ? -1.0 : 2.0));
    }
    CHECK_INT(lds_dstar_step(ds, NULL), want);
    CHECK(lds_dstar_cost(ds) == (m == 2 ? -1.0 : 2.0));
    lds_dstar_free(ds);
    lds_search_free(s);
    lds_graph_free(g);
  }
  {
    lds_Grid *g = lds_grid_new(NULL, 3, 1, NULL);
    double w = 1e308;
    int li;
    lds_SearchParams p;
    lds_DStarParams dp;
    lds_Search *s;
    lds_DStar *ds;
    lds_grid_layer_add(g, "toll", &li);
    lds_grid_layer_set(g, li, 1, 0, 1.0f);
    lds_grid_layer_set(g, li, 2, 0, 1.0f);
    lds_search_params_init(&p);
    p.layer_weights = &w;
    p.n_layer_weights = 1;
    s = lds_search_new(NULL, g, NULL);
    CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_OK);
    CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
    lds_dstar_params_init(&dp);
    dp.layer_weights = &w;
    dp.n_layer_weights = 1;
    ds = lds_dstar_new(NULL, g, 0, 0, 2, 0, &dp, NULL);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
    lds_dstar_free(ds);
    lds_search_free(s);
    lds_grid_free(g);
  }
}

/* A raise repaired lazily while the start stands on the goal leaves node 0
** underconsistent (g too low) in the queue; a later edit makes the
** self-loop 0 -> 0 free, and rhs(0) = 0 + g(0) = g(0) then hid the stale g
** for good: back at 0 the search reported the old cost 1.7 (found by the
** fuzzer, seed 22 case 105248, at costs near 1e96). The first free edge
** now restarts the search. */
static void test_free_edge_after_lazy_raise(void) {
  static const lds_GraphEdge e[] = {{1, 0, 1.8}, {0, 1, 5.8}, {0, 0, 2.0}, {1, 1, 5.9}, {0, 1, 1.7}};
  lds_Graph *g = lds_graph_from_edges(NULL, 2, LDS_COORDS_NONE, NULL, e, 5, NULL);
  lds_DStar *ds = lds_dstar_new_graph(NULL, g, 0, 1, NULL, NULL);
  /* out-edge ids (CSR, stable by source): 0: 0->1 5.8, 1: 0->0 2.0,
  ** 2: 0->1 1.7, 3: 1->0 1.8, 4: 1->1 5.9 */
  CHECK_INT(lds_dstar_subscribe_graph(ds, g), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_cost(ds) == 1.7);
  CHECK_INT(lds_dstar_move_start_node(ds, 1), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_graph_set_edge_cost_id(g, 2, 2.6), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND); /* at the goal: nothing expanded */
  CHECK_INT(lds_graph_set_edge_cost_id(g, 3, 1e300), LDS_OK);
  CHECK_INT(lds_graph_set_edge_cost_id(g, 1, 0.0), LDS_OK);
  CHECK_INT(lds_graph_set_edge_cost_id(g, 0, 2.9), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_move_start_node(ds, 0), LDS_OK);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 2.6, 0.0);
  lds_dstar_free(ds);
  lds_graph_free(g);
}

extern void suite_dstar_scale(void);
void suite_dstar_scale(void) {
  test_tiny_costs();
  test_tiny_graph();
  test_huge_costs();
  test_huge_graph();
  test_no_edges();
  test_overflow();
  test_free_edge_after_lazy_raise();
}
