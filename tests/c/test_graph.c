/* SPDX-License-Identifier: MIT */
/* test_graph.c — graphs: building, CSR, cost edits and listeners, the
** heuristic scale, A* on graphs (hand-computed distances, unreachable nodes,
** self-loops, parallel and zero-cost edges, random graphs against
** Bellman-Ford), grid -> graph equivalence, slicing, DIMACS parsing and gzip
** loading, allocator failures, and the monaco road queries. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Runs one query to the end; returns the cost (-1 unreachable), fills path
** [opt] with the node ids (caller frees). */
static double run_query(lds_Search *s, const lds_SearchParams *p, uint32_t a, uint32_t b,
                        lds_Path **path) {
  lds_Status st = lds_search_start_nodes(s, p, a, b);
  if (path) *path = NULL;
  if (st != LDS_OK) return -2.0;
  st = lds_search_step(s, NULL);
  if (st == LDS_NO_PATH) return -1.0;
  if (st != LDS_FOUND) return -3.0;
  if (path) *path = lds_search_path(s, NULL);
  return lds_search_cost(s);
}

static bool path_is(const lds_Path *p, const uint32_t *ids, size_t n) {
  size_t i;
  if (!p || lds_path_length(p) != n || lds_path_width(p) != 0) return false;
  for (i = 0; i < n; i++)
    if (lds_path_node(p, i) != ids[i]) return false;
  return true;
}

/* ------------------------------------------------------------ building -- */

static void test_building(void) {
  lds_Error err;
  lds_Graph *g = lds_graph_new(NULL, (lds_Coords)7, &err);
  uint32_t id = 99;
  const uint32_t *t, *src, *eid;
  const double *c;
  uint32_t first, from, to;
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_graph_new: coords 7 out of range (expected LDS_COORDS_NONE, _XY, _XYZ "
                     "or _LONLAT)");

  g = lds_graph_new(NULL, LDS_COORDS_XY, &err);
  CHECK(g != NULL);
  CHECK_INT(lds_graph_add_node(g, 0, 0, 0, &id), LDS_OK);
  CHECK_INT(id, 0);
  CHECK_INT(lds_graph_add_node(g, NAN, 0, 0, NULL), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g),
            "lds_graph_add_node: node 1 has coordinates (nan, 0, 0) (expected finite)");
  CHECK_INT(lds_graph_add_node(g, 3, 4, 0, &id), LDS_OK);
  CHECK_INT(id, 1);
  CHECK_INT(lds_graph_add_nodes(g, 2, &first), LDS_OK);
  CHECK_INT(first, 2);
  CHECK_INT(lds_graph_set_coords(g, 3, 6, 8, 0), LDS_OK);
  CHECK_INT(lds_graph_set_coords(g, 4, 6, 8, 0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_set_coords: node 4 out of range (expected 0..3)");
  CHECK_INT(lds_graph_add_edge(g, 0, 4, 1.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_add_edge: target 4 out of range (expected 0..3)");
  CHECK_INT(lds_graph_add_edge(g, 7, 1, 1.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_add_edge: source 7 out of range (expected 0..3)");
  CHECK_INT(lds_graph_add_edge(g, 0, 1, -1.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g),
            "lds_graph_add_edge: cost -1 of 0->1 out of range (expected finite, >= 0)");
  CHECK_INT(lds_graph_add_edge(g, 0, 1, INFINITY), LDS_E_ARG);
  CHECK_INT(lds_graph_add_edge(g, 0, 1, NAN), LDS_E_ARG);
  /* out-edges of 0 in insertion order: 1 (10), 3 (2), 1 (7: parallel), 0 (self-loop) */
  CHECK_INT(lds_graph_add_edge(g, 1, 3, 15.0), LDS_OK);
  CHECK_INT(lds_graph_add_edge(g, 0, 1, 10.0), LDS_OK);
  CHECK_INT(lds_graph_add_edge(g, 0, 3, 20.0), LDS_OK);
  CHECK_INT(lds_graph_add_edge(g, 0, 1, 7.0), LDS_OK);
  CHECK_INT(lds_graph_add_edge(g, 0, 0, 1.0), LDS_OK);
  CHECK_INT(lds_graph_out_edges(g, 0, &t, &c, NULL), 0); /* not frozen yet */
  CHECK(!lds_graph_frozen(g));
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 1, 3.0), LDS_E_STATE);
  CHECK_INT(lds_graph_freeze(g, &err), LDS_OK);
  CHECK_INT(lds_graph_freeze(g, &err), LDS_OK); /* idempotent */
  CHECK(lds_graph_frozen(g));
  CHECK_INT(lds_graph_add_node(g, 1, 1, 0, NULL), LDS_E_STATE);
  CHECK_STR(lds_graph_errmsg(g),
            "lds_graph_add_node: the graph is frozen (topology and coordinates are fixed)");
  CHECK_INT(lds_graph_add_edge(g, 0, 1, 1.0), LDS_E_STATE);
  CHECK_INT(lds_graph_node_count(g), 4);
  CHECK_INT(lds_graph_edge_count(g), 5);
  CHECK_INT(lds_graph_out_edges(g, 0, &t, &c, &first), 4);
  CHECK_INT(first, 0);
  CHECK_INT(t[0], 1);
  CHECK_NEAR(c[0], 10.0, 0);
  CHECK_INT(t[1], 3);
  CHECK_INT(t[2], 1);
  CHECK_NEAR(c[2], 7.0, 0);
  CHECK_INT(t[3], 0);
  CHECK_INT(lds_graph_out_edges(g, 1, &t, &c, &first), 1);
  CHECK_INT(first, 4);
  CHECK_INT(lds_graph_out_edges(g, 2, &t, &c, NULL), 0);
  CHECK_INT(lds_graph_out_edges(g, 9, &t, &c, NULL), 0);
  /* reverse CSR: in-edges of 1 are forward edges 0 and 2, from 0 */
  CHECK_INT(lds_graph_in_edges(g, 1, &src, &eid), 2);
  CHECK_INT(src[0], 0);
  CHECK_INT(eid[0], 0);
  CHECK_INT(eid[1], 2);
  CHECK_INT(lds_graph_in_edges(g, 3, &src, &eid), 2);
  CHECK_INT(src[0], 0);
  CHECK_INT(src[1], 1);
  CHECK_NEAR(lds_graph_edge_cost(g, eid[1]), 15.0, 0);
  CHECK_INT(lds_graph_in_edges(g, 0, &src, &eid), 1); /* the self-loop */
  CHECK(lds_graph_edge_ends(g, 4, &from, &to));
  CHECK_INT(from, 1);
  CHECK_INT(to, 3);
  CHECK(lds_graph_edge_ends(g, 3, &from, &to));
  CHECK_INT(from, 0);
  CHECK_INT(to, 0);
  CHECK(!lds_graph_edge_ends(g, 5, &from, &to));
  CHECK(isnan(lds_graph_edge_cost(g, 5)));
  /* parallel edges: find and set address the first one added (id 0) */
  CHECK_INT(lds_graph_find_edge(g, 0, 1), 0);
  CHECK_INT(lds_graph_find_edge(g, 1, 0), LDS_GRAPH_NONE);
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 1, 4.0), LDS_OK);
  CHECK_NEAR(lds_graph_edge_cost(g, 0), 4.0, 0);
  CHECK_NEAR(lds_graph_edge_cost(g, 2), 7.0, 0);
  CHECK_INT(lds_graph_set_edge_cost(g, 1, 0, 4.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_set_edge_cost: no edge 1->0");
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 9, 4.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_set_edge_cost: target 9 out of range (expected 0..3)");
  CHECK_INT(lds_graph_set_edge_cost(g, 0, 1, -0.5), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g),
            "lds_graph_set_edge_cost: cost -0.5 of 0->1 out of range (expected finite, >= 0)");
  CHECK_INT(lds_graph_set_edge_cost_id(g, 5, 1.0), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_set_edge_cost_id: edge 5 out of range (expected 0..4)");
  CHECK_INT(lds_graph_set_edge_cost_id(g, 2, 6.0), LDS_OK);
  CHECK_NEAR(lds_graph_edge_cost(g, 2), 6.0, 0);
  CHECK_INT(lds_graph_version(g), 2);
  {
    double x, y, z;
    CHECK(lds_graph_node_coords(g, 1, &x, &y, &z));
    CHECK_NEAR(x, 3.0, 0);
    CHECK_NEAR(y, 4.0, 0);
    CHECK_NEAR(z, 0.0, 0);
    CHECK(!lds_graph_node_coords(g, 4, &x, &y, &z));
  }
  CHECK_NEAR(lds_graph_distance(g, 0, 1), 5.0, 1e-12);
  CHECK_NEAR(lds_graph_distance(g, 0, 3), 10.0, 1e-12);
  {
    size_t nb, eb, total = lds_graph_mem_used(g, &nb, &eb);
    CHECK_INT(nb, 2 * 5 * 4 + 4 * 2 * 8);
    CHECK_INT(eb, 5 * 20);
    CHECK(total > nb + eb);
  }
  lds_graph_free(g);

  /* lon/lat validation and great-circle distance: 1 degree of longitude
  ** on the equator is 2 pi R / 360 metres */
  g = lds_graph_new(NULL, LDS_COORDS_LONLAT, &err);
  CHECK_INT(lds_graph_add_node(g, 181.0, 0, 0, NULL), LDS_E_ARG);
  CHECK_STR(lds_graph_errmsg(g), "lds_graph_add_node: node 0 has longitude 181, latitude 0 "
                                 "(expected -180..180, -90..90 degrees)");
  CHECK_INT(lds_graph_add_node(g, 0, 0, 0, NULL), LDS_OK);
  CHECK_INT(lds_graph_add_node(g, 1, 0, 0, NULL), LDS_OK);
  CHECK_INT(lds_graph_add_node(g, 0, 60, 0, NULL), LDS_OK);
  CHECK_INT(lds_graph_add_node(g, 1, 60, 0, NULL), LDS_OK);
  CHECK_NEAR(lds_graph_distance(g, 0, 1), 2 * 3.14159265358979323846 * 6371000.0 / 360, 1e-6);
  CHECK_INT(lds_graph_freeze(g, NULL), LDS_OK);
  CHECK_NEAR(lds_graph_distance(g, 0, 1), 111194.92664455873, 1e-6);
  /* at 60 degrees north: haversine (Python math, R = 6371 km) gives 55596.934071140866 m,
  ** a little under half the equator value (the great circle cuts the parallel) */
  CHECK_NEAR(lds_graph_distance(g, 2, 3), 55596.934071140866, 1e-6);
  lds_graph_free(g);

  /* 3-D coordinates */
  {
    const double xyz[6] = {0, 0, 0, 1, 2, 2};
    const lds_GraphEdge e1[1] = {{0, 1, 6.0}};
    g = lds_graph_from_edges(NULL, 2, LDS_COORDS_XYZ, xyz, e1, 1, &err);
    CHECK(g != NULL);
    CHECK_NEAR(lds_graph_distance(g, 0, 1), 3.0, 1e-12);
    CHECK_NEAR(lds_graph_h_scale(g), 2.0 * (1 - 1e-9), 1e-15);
    lds_graph_free(g);
  }
  /* from_edges names the bad edge */
  {
    const lds_GraphEdge bad[2] = {{0, 1, 1.0}, {1, 5, 1.0}};
    const lds_GraphEdge neg[1] = {{0, 1, -2.0}};
    CHECK(lds_graph_from_edges(NULL, 2, LDS_COORDS_NONE, NULL, bad, 2, &err) == NULL);
    CHECK_INT(err.code, LDS_E_ARG);
    CHECK_STR(err.msg, "lds_graph_from_edges: edge 1: target 5 out of range (expected 0..1)");
    CHECK(lds_graph_from_edges(NULL, 2, LDS_COORDS_NONE, NULL, neg, 1, &err) == NULL);
    CHECK_STR(err.msg,
              "lds_graph_from_edges: edge 0: cost -2 of 0->1 out of range (expected finite, >= 0)");
    CHECK(lds_graph_from_edges(NULL, 2, LDS_COORDS_XY, NULL, bad, 1, &err) == NULL);
    CHECK_STR(err.msg, "lds_graph_from_edges: xyz is NULL");
  }
  /* an empty graph freezes and can be searched (nothing to find) */
  g = lds_graph_from_edges(NULL, 0, LDS_COORDS_NONE, NULL, NULL, 0, &err);
  CHECK(g != NULL);
  if (g) {
    lds_Search *s = lds_search_new_graph(NULL, g, &err);
    CHECK(s != NULL);
    CHECK_INT(lds_search_start_nodes(s, NULL, 0, 0), LDS_E_ARG);
    CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: start 0 out of range (expected 0..-1)");
    lds_search_free(s);
  }
  lds_graph_free(g);
}

/* ------------------------------------------------------- tiny searches -- */

/* The classic 6-node example (plus an isolated node 6, a self-loop, a
** parallel edge and a one-way edge): distances from 0 computed by hand. */
static lds_Graph *classic(lds_Coords kind) {
  static const lds_GraphEdge e[] = {
      {0, 1, 7}, {1, 0, 7}, {0, 2, 9}, {2, 0, 9}, {0, 5, 14}, {5, 0, 14}, {1, 2, 10}, {2, 1, 10},
      {1, 3, 15}, {3, 1, 15}, {2, 3, 11}, {3, 2, 11}, {2, 5, 2}, {5, 2, 2}, {3, 4, 6}, {4, 3, 6},
      {5, 4, 9}, {4, 5, 9}, {4, 4, 1}, {5, 4, 30}, {6, 0, 1}};
  /* coordinates with every edge cost >= its length */
  static const double xy[14] = {0, 0, 7, 0, 4, 4, 9, 10, 5, 14, 5, 5.5, -0.5, -0.5};
  return lds_graph_from_edges(NULL, 7, kind, kind == LDS_COORDS_NONE ? NULL : xy, e,
                              sizeof e / sizeof *e, NULL);
}

static void test_tiny(void) {
  static const double dist0[7] = {0, 7, 9, 20, 20, 11, -1};
  static const uint32_t p04[4] = {0, 2, 5, 4};
  lds_Coords kinds[2] = {LDS_COORDS_NONE, LDS_COORDS_XY};
  lds_Algo algos[2] = {LDS_ALGO_ASTAR, LDS_ALGO_DIJKSTRA};
  int k, a;
  uint32_t t;
  for (k = 0; k < 2; k++) {
    lds_Graph *g = classic(kinds[k]);
    lds_Error err;
    lds_Search *s = lds_search_new_graph(NULL, g, &err);
    lds_SearchParams p;
    lds_Path *path;
    CHECK(s != NULL);
    if (k == 1) CHECK_NEAR(lds_graph_h_scale(g), 1.0 * (1 - 1e-9), 1e-12); /* 0->1: 7 over 7 */
    for (a = 0; a < 2; a++) {
      lds_search_params_init(&p);
      p.algo = algos[a];
      for (t = 0; t < 7; t++) {
        double c = run_query(s, &p, 0, t, NULL);
        CHECK_NEAR(c, dist0[t], 1e-12);
      }
      CHECK_NEAR(run_query(s, &p, 0, 4, &path), 20.0, 0);
      CHECK(path_is(path, p04, 4));
      CHECK_INT(lds_path_flags(path), 0);
      lds_path_free(path);
      /* start == goal: cost 0, one node */
      CHECK_NEAR(run_query(s, &p, 3, 3, &path), 0.0, 0);
      CHECK_INT(lds_path_length(path), 1);
      lds_path_free(path);
      /* one-way edge 6 -> 0: reachable forward only */
      CHECK_NEAR(run_query(s, &p, 6, 4, NULL), 21.0, 0);
      CHECK_NEAR(run_query(s, &p, 4, 6, NULL), -1.0, 0);
    }
    CHECK_NEAR(lds_search_h_scale(s), 0.0, 0); /* Dijkstra ran last */
    /* unreachable with a partial path: to the expanded node closest to 6 */
    lds_search_params_init(&p);
    p.partial = true;
    CHECK_INT(lds_search_start_nodes(s, &p, 1, 6), LDS_OK);
    CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
    CHECK(lds_search_cost(s) == -1.0);
    path = lds_search_path(s, &err);
    CHECK(path != NULL);
    if (path) {
      CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
      /* with coordinates: node 0 (0,0) is closest to (-5,-5); without: the start */
      CHECK_INT(lds_path_node(path, lds_path_length(path) - 1), k == 1 ? 0 : 1);
    }
    lds_path_free(path);
    {
      lds_Stats st;
      lds_search_stats(s, &st);
      CHECK_INT(st.expansions, 6); /* all of 0..5 */
    }
    /* greedy and weighted A* find a path (maybe not the cheapest) */
    p.partial = false;
    p.algo = LDS_ALGO_GREEDY;
    CHECK(run_query(s, &p, 0, 4, NULL) >= 20.0);
    p.algo = LDS_ALGO_WASTAR;
    p.weight = 2.0;
    CHECK(run_query(s, &p, 0, 4, NULL) >= 20.0);
    CHECK(run_query(s, &p, 0, 4, NULL) <= 40.0);
    lds_search_free(s);
    lds_graph_free(g);
  }
}

/* Zero-cost edges and coincident nodes: A* must stay exact. Node 1 sits on
** node 0 and is joined by zero-cost edges; 2 -> 3 costs 0 between distinct
** points, which forces the automatic scale to 0. */
static void test_zero_cost(void) {
  const double xy[10] = {0, 0, 0, 0, 1, 0, 2, 0, 3, 0};
  const lds_GraphEdge e[] = {{0, 1, 0}, {1, 0, 0}, {1, 2, 1}, {0, 2, 3}, {2, 3, 5}, {3, 4, 1},
                             {2, 4, 7}};
  const lds_GraphEdge e2[] = {{0, 1, 0}, {1, 0, 0}, {1, 2, 1}, {0, 2, 3}, {2, 3, 0}, {3, 4, 1},
                              {2, 4, 7}};
  lds_Graph *g = lds_graph_from_edges(NULL, 5, LDS_COORDS_XY, xy, e, 7, NULL);
  lds_Search *s = lds_search_new_graph(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path;
  const uint32_t want[5] = {0, 1, 2, 3, 4};
  lds_search_params_init(&p);
  CHECK_NEAR(lds_graph_h_scale(g), 1.0 * (1 - 1e-9), 1e-12); /* 1->2 and 3->4; 0->1 skipped */
  CHECK_NEAR(run_query(s, &p, 0, 4, &path), 7.0, 0);
  CHECK(path_is(path, want, 5));
  lds_path_free(path);
  CHECK_NEAR(run_query(s, &p, 1, 0, NULL), 0.0, 0);
  lds_search_free(s);
  lds_graph_free(g);

  g = lds_graph_from_edges(NULL, 5, LDS_COORDS_XY, xy, e2, 7, NULL);
  s = lds_search_new_graph(NULL, g, NULL);
  CHECK_NEAR(lds_graph_h_scale(g), 0.0, 0); /* zero-cost 2->3 between distinct points */
  CHECK_NEAR(run_query(s, &p, 0, 4, NULL), 2.0, 0);
  CHECK_NEAR(lds_search_h_scale(s), 0.0, 0);
  /* raising the zero edge lifts the scale again (cache recomputed) */
  CHECK_INT(lds_graph_set_edge_cost(g, 2, 3, 4.0), LDS_OK);
  CHECK_NEAR(lds_graph_h_scale(g), 1.0 * (1 - 1e-9), 1e-12);
  CHECK_NEAR(run_query(s, &p, 0, 4, NULL), 6.0, 0);
  lds_search_free(s);
  lds_graph_free(g);
}

/* ------------------------------------------------ random vs reference -- */

/* Bellman-Ford distances from src (the reference: shares no code). */
static void bellman_ford(int n, const lds_GraphEdge *e, int m, int src, double *d) {
  int i, k;
  for (i = 0; i < n; i++) d[i] = INFINITY;
  d[src] = 0;
  for (k = 0; k < n; k++) {
    int changed = 0;
    for (i = 0; i < m; i++)
      if (d[e[i].from] + e[i].cost < d[e[i].to]) {
        d[e[i].to] = d[e[i].from] + e[i].cost;
        changed = 1;
      }
    if (!changed) break;
  }
}

typedef struct HCtx {
  const lds_Graph *g;
  double k;
} HCtx;

static double custom_h(void *ud, uint32_t node, uint32_t goal) {
  const HCtx *c = (const HCtx *)ud;
  return c->k * lds_graph_distance(c->g, node, goal);
}

static double nan_h(void *ud, uint32_t node, uint32_t goal) {
  (void)ud;
  return node == goal ? 0.0 : NAN;
}

static void test_random(void) {
  enum { N = 40, M = 160 };
  th_Rng rng = {0x9e3779b97f4a7c15ULL};
  int round, i, bad = 0, checked = 0;
  for (round = 0; round < 25; round++) {
    double xy[2 * N], d[N];
    lds_GraphEdge e[M];
    lds_Graph *g;
    lds_Search *s;
    lds_SearchParams p;
    HCtx ctx;
    for (i = 0; i < N; i++) { /* a few coincident nodes */
      int j = (i > 0 && th_randint(&rng, 6) == 0) ? th_randint(&rng, i) : -1;
      xy[2 * i] = j >= 0 ? xy[2 * j] : th_randint(&rng, 100);
      xy[2 * i + 1] = j >= 0 ? xy[2 * j + 1] : th_randint(&rng, 100);
    }
    for (i = 0; i < M; i++) {
      double dx, dy, len;
      e[i].from = (uint32_t)th_randint(&rng, N);
      e[i].to = (uint32_t)th_randint(&rng, N);
      dx = xy[2 * e[i].from] - xy[2 * e[i].to];
      dy = xy[2 * e[i].from + 1] - xy[2 * e[i].to + 1];
      len = sqrt(dx * dx + dy * dy);
      /* integer costs >= length, zero when the nodes coincide (half the time) */
      e[i].cost = len == 0.0 && th_randint(&rng, 2) ? 0.0
                                                     : ceil(len * (1.0 + th_randint(&rng, 4) * 0.25)) +
                                                           th_randint(&rng, 3);
    }
    g = lds_graph_from_edges(NULL, N, LDS_COORDS_XY, xy, e, M, NULL);
    s = lds_search_new_graph(NULL, g, NULL);
    ctx.g = g;
    ctx.k = lds_graph_h_scale(g);
    for (i = 0; i < 6; i++) {
      int a = th_randint(&rng, N), b = th_randint(&rng, N), v;
      double want;
      bellman_ford(N, e, M, a, d);
      want = d[b] == INFINITY ? -1.0 : d[b];
      for (v = 0; v < 5; v++) {
        double got;
        lds_search_params_init(&p);
        if (v == 1) p.algo = LDS_ALGO_DIJKSTRA;
        if (v == 2) { /* custom heuristic, admissible */
          p.heuristic = LDS_H_CUSTOM;
          p.node_h = custom_h;
          p.node_h_ud = &ctx;
        }
        if (v == 3) p.h_scale = ctx.k > 0 ? ctx.k : 1e-3; /* user scale: reopening */
        if (v == 4) p.heuristic = LDS_H_ZERO;
        got = run_query(s, &p, (uint32_t)a, (uint32_t)b, NULL);
        checked++;
        if (fabs(got - want) > 1e-9) {
          bad++;
          if (bad < 5) TH_FAIL("round %d %d->%d variant %d: got %g, expected %g", round, a, b, v, got, want);
        }
      }
    }
    lds_search_free(s);
    lds_graph_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(checked, 25 * 6 * 5);
}

/* ----------------------------------------------------- errors, hooks -- */

typedef struct Heard {
  int count;
  uint32_t edge, from, to;
  double old_cost, new_cost;
  uint64_t version;
} Heard;

static void on_cost(void *ud, const lds_Graph *g, uint32_t edge, uint32_t from, uint32_t to,
                    double old_cost, double new_cost, uint64_t version) {
  Heard *h = (Heard *)ud;
  (void)g;
  h->count++;
  h->edge = edge;
  h->from = from;
  h->to = to;
  h->old_cost = old_cost;
  h->new_cost = new_cost;
  h->version = version;
}

static void test_errors_and_stale(void) {
  lds_Graph *g = classic(LDS_COORDS_XY), *open_g;
  lds_Grid *grid = lds_grid_new(NULL, 3, 3, NULL);
  lds_Search *s = lds_search_new_graph(NULL, g, NULL), *gs = lds_search_new(NULL, grid, NULL);
  lds_SearchParams p;
  lds_Error err;
  Heard h;
  memset(&h, 0, sizeof h);
  lds_search_params_init(&p);

  CHECK(lds_search_new_graph(NULL, NULL, &err) == NULL);
  CHECK_STR(err.msg, "lds_search_new_graph: graph is NULL");
  open_g = lds_graph_new(NULL, LDS_COORDS_NONE, NULL);
  CHECK(lds_search_new_graph(NULL, open_g, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_STR(err.msg, "lds_search_new_graph: the graph is not frozen (call lds_graph_freeze first)");
  lds_graph_free(open_g);

  CHECK_INT(lds_search_start_nodes(s, &p, 0, 7), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: goal 7 out of range (expected 0..6)");
  CHECK_INT(lds_search_step(s, NULL), LDS_E_ARG); /* a failed start leaves no query */
  CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: this search is on a graph (use lds_search_start_nodes)");
  CHECK_INT(lds_search_start_nodes(gs, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(gs), "lds_search_start_nodes: this search is on a grid (use lds_search_start)");
  p.heuristic = LDS_H_GREAT_CIRCLE;
  CHECK_INT(lds_search_start(gs, &p, 0, 0, 1, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(gs), "lds_search_start: heuristic 'great_circle' is for graphs "
                                   "(expected auto, zero, manhattan, octile, euclidean or chebyshev)");
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: heuristic 'great_circle' does not fit a "
                                  "graph with coordinates 'xy' (expected auto, zero, custom, euclidean)");
  p.heuristic = LDS_H_OCTILE;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  p.heuristic = LDS_H_CUSTOM;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: heuristic 'custom' needs params.node_h");
  p.node_h = nan_h;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 4), LDS_E_CALLBACK);
  CHECK_STR(lds_search_errmsg(s), "lds_search_step: custom heuristic returned nan for node 0 "
                                  "(expected finite, >= 0)");
  lds_search_params_init(&p);
  p.algo = LDS_ALGO_JPS;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: algorithm 4 (jps) does not run on "
                                  "graphs (expected astar, dijkstra, wastar or greedy)");
  lds_search_params_init(&p);
  p.h_scale = -1;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: h_scale -1 out of range (expected finite, >= 0)");
  lds_search_params_init(&p);
  p.weight = 0.5;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  lds_search_params_init(&p);
  p.n_layer_weights = 1;
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start_nodes: layer weights are for grids (expected "
                                  "none on a graph; change graph costs with lds_graph_set_edge_cost)");
  CHECK(lds_search_graph(s) == g);
  CHECK(lds_search_grid(s) == NULL);
  CHECK(lds_search_graph(gs) == NULL);

  /* cost change under a running query: stale, listener told */
  lds_search_params_init(&p);
  CHECK_INT(lds_graph_listen(g, on_cost, &h), LDS_OK);
  CHECK_INT(lds_graph_listen(g, NULL, &h), LDS_E_ARG);
  CHECK_INT(lds_search_start_nodes(s, &p, 0, 4), LDS_OK);
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_RUNNING);
  CHECK_INT(lds_graph_set_edge_cost(g, 2, 5, 3.0), LDS_OK);
  CHECK_INT(h.count, 1);
  CHECK_INT(h.edge, lds_graph_find_edge(g, 2, 5));
  CHECK_INT(h.from, 2);
  CHECK_INT(h.to, 5);
  CHECK_NEAR(h.old_cost, 2.0, 0);
  CHECK_NEAR(h.new_cost, 3.0, 0);
  CHECK_INT(h.version, 1);
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_E_STALE);
  CHECK_STR(lds_search_errmsg(s),
            "lds_search_step: the graph changed since the query started (version 0, now 1)");
  CHECK_INT(lds_search_status(s), LDS_E_STALE);
  /* a new query sees the new cost */
  CHECK_NEAR(run_query(s, &p, 0, 4, NULL), 21.0, 0); /* 0-2-5-4 = 9+3+9; 0-5-4 = 23; 0-2-3-4 = 26 */
  CHECK_INT(lds_graph_unlisten(g, on_cost, &h), LDS_OK);
  CHECK_INT(lds_graph_unlisten(g, on_cost, &h), LDS_E_ARG);
  CHECK_INT(lds_graph_set_edge_cost(g, 2, 5, 2.0), LDS_OK);
  CHECK_INT(h.count, 1); /* no longer listening */
  lds_search_free(s);
  lds_search_free(gs);
  lds_grid_free(grid);
  lds_graph_free(g);
}

/* ------------------------------------------------- grid -> graph, slices -- */

static void test_grid_equivalence(void) {
  th_Rng rng = {12345};
  int round, bad = 0, checked = 0;
  for (round = 0; round < 8; round++) {
    int w = 12 + th_randint(&rng, 10), h = 9 + th_randint(&rng, 10), i, x, y;
    lds_Grid *grid = lds_grid_new(NULL, w, h, NULL);
    lds_Graph *g;
    lds_Search *gs, *ns;
    lds_SearchParams p;
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (th_randint(&rng, 5) == 0) lds_grid_set_blocked(grid, x, y, true);
        if (round & 1) lds_grid_set_cost(grid, x, y, 0.5f + (float)th_randint(&rng, 4));
      }
    lds_grid_set_diagonal(grid, (lds_Diagonal)(round % 4));
    if (round == 6) lds_grid_set_neighbourhood(grid, 4);
    g = lds_graph_from_grid(NULL, grid, NULL);
    CHECK_INT(lds_graph_node_count(g), w * h);
    gs = lds_search_new(NULL, grid, NULL);
    ns = lds_search_new_graph(NULL, g, NULL);
    lds_search_params_init(&p);
    for (i = 0; i < 30; i++) {
      int sx = th_randint(&rng, w), sy = th_randint(&rng, h), gx = th_randint(&rng, w),
          gy = th_randint(&rng, h);
      double cg = -1, cn;
      lds_Path *path = NULL;
      lds_Status st = lds_search_start(gs, &p, sx, sy, gx, gy);
      if (st == LDS_OK && lds_search_step(gs, NULL) == LDS_FOUND) cg = lds_search_cost(gs);
      cn = run_query(ns, &p, (uint32_t)(sy * w + sx), (uint32_t)(gy * w + gx), &path);
      checked++;
      if (lds_grid_blocked(grid, sx, sy) || lds_grid_blocked(grid, gx, gy)) {
        /* blocked cells are isolated nodes: only start == goal is a path */
        if (!(sx == gx && sy == gy) && cn != -1.0) bad++;
      } else if (fabs(cg - cn) > 1e-9 * (cg > 1 ? cg : 1)) {
        bad++;
        if (bad < 4) TH_FAIL("grid %dx%d (%d,%d)->(%d,%d): grid %g graph %g", w, h, sx, sy, gx, gy, cg, cn);
      }
      lds_path_free(path);
    }
    lds_search_free(gs);
    lds_search_free(ns);
    lds_graph_free(g);
    lds_grid_free(grid);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(checked, 8 * 30);
  { /* coordinates are cell centres, edges in N, E, S, W, NE, SE, SW, NW order */
    lds_Grid *grid = lds_grid_new(NULL, 3, 3, NULL);
    lds_Graph *g;
    const uint32_t *t;
    const double *c;
    double x, y;
    lds_grid_set_cost(grid, 2, 1, 2.0f);
    g = lds_graph_from_grid(NULL, grid, NULL);
    CHECK(lds_graph_node_coords(g, 5, &x, &y, NULL));
    CHECK_NEAR(x, 2.5, 0);
    CHECK_NEAR(y, 1.5, 0);
    CHECK_INT(lds_graph_out_edges(g, 4, &t, &c, NULL), 8);
    CHECK_INT(t[0], 1);
    CHECK_INT(t[1], 5);
    CHECK_NEAR(c[1], 2.0, 0);
    CHECK_INT(t[4], 2);
    CHECK_NEAR(c[4], 1.4142135623730951, 1e-15);
    CHECK_INT(lds_graph_out_edges(g, 0, &t, &c, NULL), 3); /* E, S, SE */
    lds_graph_free(g);
    lds_grid_free(grid);
  }
}

static void test_sliced(lds_Graph *g, int queries) {
  lds_Search *a = lds_search_new_graph(NULL, g, NULL), *b = lds_search_new_graph(NULL, g, NULL);
  lds_SearchParams p;
  th_Rng rng = {777};
  int i, same = 0;
  uint32_t n = lds_graph_node_count(g);
  lds_search_params_init(&p);
  for (i = 0; i < queries; i++) {
    uint32_t s = (uint32_t)th_randint(&rng, (int)n), t = (uint32_t)th_randint(&rng, (int)n);
    lds_Status sa, sb;
    lds_Stats ta, tb;
    lds_Path *pa = NULL, *pb = NULL;
    int steps = 0;
    p.algo = i % 2 ? LDS_ALGO_DIJKSTRA : LDS_ALGO_ASTAR;
    lds_search_start_nodes(a, &p, s, t);
    sa = lds_search_step(a, NULL);
    lds_search_start_nodes(b, &p, s, t);
    while ((sb = lds_search_step(b, &(lds_Budget){(uint64_t)(1 + i % 3), 0})) == LDS_RUNNING) steps++;
    lds_search_stats(a, &ta);
    lds_search_stats(b, &tb);
    if (sa == LDS_FOUND) pa = lds_search_path(a, NULL);
    if (sb == LDS_FOUND) pb = lds_search_path(b, NULL);
    if (sa == sb && ta.expansions == tb.expansions && ta.pushes == tb.pushes &&
        ((!pa && !pb) || (pa && pb && lds_path_length(pa) == lds_path_length(pb) &&
                          memcmp(lds_path_nodes(pa), lds_path_nodes(pb),
                                 lds_path_length(pa) * sizeof(uint32_t)) == 0 &&
                          lds_path_cost(pa) == lds_path_cost(pb))))
      same++;
    lds_path_free(pa);
    lds_path_free(pb);
  }
  CHECK_INT(same, queries);
  lds_search_free(a);
  lds_search_free(b);
}

/* ------------------------------------------------------------- DIMACS -- */

/* Parses gr (+ co) and returns "ok" or the error message, written to msg. */
static const char *parse_msg(const char *gr, const char *co, char *msg) {
  lds_Error err;
  lds_Graph *g = lds_graph_parse_dimacs(NULL, gr, strlen(gr), "t.gr", co, co ? strlen(co) : 0,
                                        "t.co", &err);
  if (g) {
    lds_graph_free(g);
    return "ok";
  }
  snprintf(msg, LDS_ERRMSG_SIZE, "%s", err.msg);
  return msg;
}

static const char small_gr[] =
    "c tiny\n"
    "p sp 4 5\n"
    "c comment after p\n"
    "\n"
    "a 1 2 3\r\n"
    "a 2 3 4\n"
    "a 1 3 9\n"
    "a 3 4 0\n"
    "a 4 4 2";
static const char small_co[] =
    "c coords\np aux sp co 4\nv 1 7420000 43730000\nv 2 7421000 43730000\n"
    "v 3 7422000 43730000\nv 4 7422000 43730000\n";

/* A NUL byte in .gr or .co text in memory: its line and offset, as
** lds_graph_load_dimacs and lds_scen_parse report it (it read as a bad line
** or went unnoticed in a comment). */
static void test_dimacs_parse_nul(void) {
  static const char gr[] = "p sp 2 1\na 1 2 3\nc \0x\n";
  static const char gr_arc[] = "p sp 2 1\na 1 2\0 3\n";
  static const char co[] = "p aux sp co 2\nv 1 0 0\nv 2 1\0 1\n";
  static const char gr2[] = "p sp 2 1\na 1 2 3\n";
  lds_Error err;
  lds_Graph *g = lds_graph_parse_dimacs(NULL, gr, sizeof gr - 1, "t.gr", NULL, 0, NULL, &err);
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "t.gr:3: binary data (a NUL byte at offset 19; expected a text file)");
  lds_graph_free(g);
  g = lds_graph_parse_dimacs(NULL, gr_arc, sizeof gr_arc - 1, "t.gr", NULL, 0, NULL, &err);
  CHECK(g == NULL);
  CHECK_STR(err.msg, "t.gr:2: binary data (a NUL byte at offset 14; expected a text file)");
  lds_graph_free(g);
  g = lds_graph_parse_dimacs(NULL, gr2, sizeof gr2 - 1, "t.gr", co, sizeof co - 1, "t.co", &err);
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "t.co:3: binary data (a NUL byte at offset 27; expected a text file)");
  lds_graph_free(g);
}

/* The reader's own messages, in the Moving AI loaders' form: function, then
** the file (and line where one is known). They read "PATH: read error (...)",
** "PATH: out of memory reading N bytes", "PATH: binary data (a NUL byte near
** offset N; ...)". */
static void test_dimacs_read_errors(void) {
  char path[64], want[200];
  lds_Error err;
  lds_Graph *g;
  int fd;
  FILE *f;
  gzFile z;
  /* a directory opens but cannot be read */
  g = lds_graph_load_dimacs(NULL, "/tmp", NULL, &err);
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_IO);
  CHECK_STR(err.msg, "lds_graph_load_dimacs: cannot read /tmp (Is a directory)");
  snprintf(path, sizeof path, "/tmp/lds_test_graph_XXXXXX");
  fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  /* a NUL byte on line 3, at offset 19 */
  f = fopen(path, "wb");
  if (f) {
    fwrite("p sp 2 1\na 1 2 3\nc \0x\n", 1, 23, f);
    fclose(f);
  }
  g = lds_graph_load_dimacs(NULL, path, NULL, &err);
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  snprintf(want, sizeof want, "lds_graph_load_dimacs: %s:3: binary data (a NUL byte at offset 19; "
           "expected a text file)", path);
  CHECK_STR(err.msg, want);
  /* the same compressed: line and offset of the decompressed text */
  z = gzopen(path, "wb");
  if (z) {
    gzwrite(z, "c x\n\0", 5);
    gzclose(z);
  }
  g = lds_graph_load_dimacs(NULL, path, NULL, &err);
  CHECK(g == NULL);
  snprintf(want, sizeof want, "lds_graph_load_dimacs: %s:2: binary data (a NUL byte at offset 4; "
           "expected a text file)", path);
  CHECK_STR(err.msg, want);
  /* out of memory: the read buffer, then the graph for the p line */
  f = fopen(path, "wb");
  if (f) {
    fputs("c big\np sp 3 1\na 1 2 3\n", f);
    fclose(f);
  }
  {
    th_Alloc a;
    lds_Env env;
    long k;
    int read_oom = 0, parse_oom = 0;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    for (k = 1; k < 40; k++) {
      memset(&a, 0, sizeof a);
      a.fail_at = k;
      g = lds_graph_load_dimacs(&env, path, NULL, &err);
      if (g) {
        lds_graph_free(g);
        continue;
      }
      CHECK_INT(err.code, LDS_E_NOMEM);
      snprintf(want, sizeof want, "lds_graph_load_dimacs: out of memory reading %s (1048576 bytes)",
               path);
      if (strcmp(err.msg, want) == 0) read_oom++;
      snprintf(want, sizeof want, "lds_graph_load_dimacs: %s:2: out of memory for 3 nodes and 1 arcs",
               path);
      if (strcmp(err.msg, want) == 0) parse_oom++;
      CHECK_INT(a.live, 0);
    }
    CHECK_INT(read_oom, 1);
    CHECK(parse_oom >= 1);
  }
  remove(path);
}

static void test_dimacs(void) {
  char buf[LDS_ERRMSG_SIZE];
  lds_Error err;
  lds_Graph *g = lds_graph_parse_dimacs(NULL, small_gr, strlen(small_gr), "t.gr", small_co,
                                        strlen(small_co), "t.co", &err);
  double x, y;
  CHECK(g != NULL);
  if (g) {
    lds_Search *s = lds_search_new_graph(NULL, g, NULL);
    CHECK_INT(lds_graph_node_count(g), 4);
    CHECK_INT(lds_graph_edge_count(g), 5);
    CHECK_INT(lds_graph_coords(g), LDS_COORDS_LONLAT);
    CHECK(lds_graph_node_coords(g, 1, &x, &y, NULL));
    CHECK_NEAR(x, 7.421, 1e-12);
    CHECK_NEAR(y, 43.73, 1e-12);
    /* zero-cost arc 3->4 between coincident points: skipped by the scale */
    CHECK(lds_graph_h_scale(g) > 0.0);
    CHECK_NEAR(run_query(s, NULL, 0, 3, NULL), 7.0, 0);
    CHECK_NEAR(run_query(s, NULL, 3, 0, NULL), -1.0, 0);
    lds_search_free(s);
  }
  lds_graph_free(g);
  CHECK_STR(parse_msg(small_gr, NULL, buf), "ok");

  CHECK_STR(parse_msg("c only\n\n", NULL, buf), "t.gr:2: expected a 'p sp N M' line, found none");
  CHECK_STR(parse_msg("", NULL, buf), "t.gr:1: expected a 'p sp N M' line, found none");
  CHECK_STR(parse_msg("c x\na 1 2 3\np sp 2 1\n", NULL, buf),
            "t.gr:2: expected a 'p sp N M' line before the first arc");
  CHECK_STR(parse_msg("p sp 0 1\n", NULL, buf),
            "t.gr:1: expected 'p sp N M' with N in 1..4294967280 and M in 0..4294967280, got "
            "'p sp 0 1'");
  CHECK_STR(parse_msg("p max 3 1\n", NULL, buf),
            "t.gr:1: expected 'p sp N M' with N in 1..4294967280 and M in 0..4294967280, got "
            "'p max 3 1'");
  CHECK_STR(parse_msg("p sp 3 1\np sp 3 1\n", NULL, buf), "t.gr:2: expected one 'p' line, found a second");
  CHECK_STR(parse_msg("p sp 3 1\na 1 4 5\n", NULL, buf), "t.gr:2: expected node ids in 1..3, got 4");
  CHECK_STR(parse_msg("p sp 3 1\na 0 2 5\n", NULL, buf), "t.gr:2: expected node ids in 1..3, got 0");
  CHECK_STR(parse_msg("p sp 3 1\na 1 2 -5\n", NULL, buf), "t.gr:2: expected a weight >= 0, got -5");
  CHECK_STR(parse_msg("p sp 3 1\na 1 2\n", NULL, buf),
            "t.gr:2: expected 'a U V W' with a numeric weight W, got 'a 1 2'");
  CHECK_STR(parse_msg("p sp 3 1\na 1 2 5x\n", NULL, buf),
            "t.gr:2: expected 'a U V W' with a numeric weight W, got 'a 1 2 5x'");
  CHECK_STR(parse_msg("p sp 3 1\na 1 x 5\n", NULL, buf), "t.gr:2: expected 'a U V W', got 'a 1 x 5'");
  CHECK_STR(parse_msg("p sp 3 1\na\n", NULL, buf), "t.gr:2: expected 'a U V W', got 'a'");
  CHECK_STR(parse_msg("p sp 3 2\na 1 2 5\nc end\n", NULL, buf),
            "t.gr:3: expected 2 arcs (p line), found 1");
  CHECK_STR(parse_msg("p sp 3 1\na 1 2 5\na 2 3 1\n", NULL, buf),
            "t.gr:3: expected 1 arcs (p line), found more");
  CHECK_STR(parse_msg("p sp 3 1\nx 1 2 5\n", NULL, buf),
            "t.gr:2: expected a 'c', 'p' or 'a' line, got 'x 1 2 5'");
  CHECK_STR(parse_msg("p sp 3 1\na 1 2 2.5\n", NULL, buf), "ok"); /* decimal weights accepted */
  /* .co */
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 3\n", buf),
            "t.co:1: expected 'p aux sp co N' with N = 2 (nodes of the .gr), got 3");
  CHECK_STR(parse_msg("p sp 2 0\n", "v 1 2 3\n", buf),
            "t.co:1: expected a 'p aux sp co N' line before the first 'v' line");
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 2\nv 1 2 3\n", buf),
            "t.co:2: expected 2 'v' lines (p line), found 1");
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 2\nv 1 2 3\nv 1 2 3\n", buf),
            "t.co:3: expected one 'v' line per node, node 1 appears twice");
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 2\nv 3 2 3\n", buf),
            "t.co:2: expected a node id in 1..2, got 3");
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 2\nv 1 2\n", buf),
            "t.co:2: expected 'v ID X Y' with integers, got 'v 1 2'");
  CHECK_STR(parse_msg("p sp 2 0\n", "p aux sp co 2\nv 1 200000000 3\n", buf),
            "t.co:2: expected X in -180e6..180e6 and Y in -90e6..90e6 (lon/lat x 1e6), got "
            "200000000 3");
  CHECK_STR(parse_msg("p sp 2 0\n", "c nothing\n", buf),
            "t.co:1: expected a 'p aux sp co N' line, found none");

  /* files: plain, gzip, missing */
  {
    char gz[64], plain[64];
    gzFile f;
    int fd;
    FILE *pf;
    snprintf(gz, sizeof gz, "/tmp/lds_test_graph_XXXXXX");
    fd = mkstemp(gz);
    CHECK(fd >= 0);
    if (fd >= 0) {
      close(fd);
      f = gzopen(gz, "wb");
      CHECK(f != NULL);
      if (f) {
        gzwrite(f, small_gr, (unsigned)strlen(small_gr));
        gzclose(f);
      }
      g = lds_graph_load_dimacs(NULL, gz, NULL, &err);
      CHECK(g != NULL);
      if (g) {
        lds_Search *s = lds_search_new_graph(NULL, g, NULL);
        CHECK_INT(lds_graph_edge_count(g), 5);
        CHECK_INT(lds_graph_coords(g), LDS_COORDS_NONE);
        CHECK_NEAR(run_query(s, NULL, 0, 3, NULL), 7.0, 0);
        lds_search_free(s);
      }
      lds_graph_free(g);
      /* a malformed gz file reports the line of the decompressed text */
      f = gzopen(gz, "wb");
      if (f) {
        gzputs(f, "p sp 2 1\na 1 3 1\n");
        gzclose(f);
      }
      g = lds_graph_load_dimacs(NULL, gz, NULL, &err);
      CHECK(g == NULL);
      {
        char want[160];
        snprintf(want, sizeof want, "%s:2: expected node ids in 1..2, got 3", gz);
        CHECK_STR(err.msg, want);
      }
      remove(gz);
    }
    snprintf(plain, sizeof plain, "/tmp/lds_test_graph_XXXXXX");
    fd = mkstemp(plain);
    if (fd >= 0) {
      close(fd);
      pf = fopen(plain, "w");
      if (pf) {
        fputs(small_co, pf);
        fclose(pf);
      }
      g = lds_graph_load_dimacs(NULL, gz, plain, &err); /* gz was removed */
      CHECK(g == NULL);
      CHECK_INT(err.code, LDS_E_IO);
      { /* the Moving AI loaders' form: function, "cannot open", path, reason */
        char want[160];
        snprintf(want, sizeof want,
                 "lds_graph_load_dimacs: cannot open %s (No such file or directory)", gz);
        CHECK_STR(err.msg, want);
      }
      remove(plain);
    }
  }
  test_dimacs_read_errors();
  test_dimacs_parse_nul();
}

/* ----------------------------------------------------- allocator, data -- */

static void test_alloc_failures(void) {
  long k;
  int ok_counts[6] = {0, 0, 0, 0, 0, 0};
  lds_Grid *grid = lds_grid_new(NULL, 5, 4, NULL);
  for (k = 1; k < 60; k++) {
    th_Alloc a;
    lds_Env env;
    lds_Error err;
    lds_Graph *g;
    lds_Search *s;
    static const lds_GraphEdge e[3] = {{0, 1, 1}, {1, 2, 2}, {2, 0, 3}};
    static const double xy[6] = {0, 0, 1, 0, 1, 1};
    memset(&a, 0, sizeof a);
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    a.fail_at = k;
    g = lds_graph_new(&env, LDS_COORDS_XY, &err);
    if (g) {
      uint32_t i;
      bool fine = true;
      for (i = 0; i < 40 && fine; i++) fine = lds_graph_add_node(g, i, 0, 0, NULL) == LDS_OK;
      for (i = 0; i < 39 && fine; i++) fine = lds_graph_add_edge(g, i, i + 1, 1.0) == LDS_OK;
      if (fine && lds_graph_freeze(g, &err) == LDS_OK) {
        ok_counts[0]++;
        CHECK(lds_graph_frozen(g));
      } else if (fine) {
        CHECK_INT(err.code, LDS_E_NOMEM);
        CHECK(!lds_graph_frozen(g));
      }
      lds_graph_free(g);
    } else {
      CHECK_INT(err.code, LDS_E_NOMEM);
    }
    a.count = 0;
    g = lds_graph_from_edges(&env, 3, LDS_COORDS_XY, xy, e, 3, &err);
    if (g) ok_counts[1]++;
    else CHECK_INT(err.code, LDS_E_NOMEM);
    if (g) {
      a.count = 0;
      s = lds_search_new_graph(&env, g, &err);
      if (s) {
        lds_Path *p;
        ok_counts[2]++;
        CHECK_INT(lds_search_start_nodes(s, NULL, 0, 2), LDS_OK);
        CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
        a.count = 0;
        p = lds_search_path(s, &err);
        if (p) CHECK_NEAR(lds_path_cost(p), 3.0, 0);
        else CHECK_INT(err.code, LDS_E_NOMEM);
        lds_path_free(p);
        lds_search_free(s);
      } else {
        CHECK_INT(err.code, LDS_E_NOMEM);
      }
    }
    lds_graph_free(g);
    a.count = 0;
    g = lds_graph_from_grid(&env, grid, &err);
    if (g) ok_counts[3]++;
    else CHECK_INT(err.code, LDS_E_NOMEM);
    lds_graph_free(g);
    a.count = 0;
    g = lds_graph_parse_dimacs(&env, small_gr, strlen(small_gr), "t.gr", small_co,
                               strlen(small_co), "t.co", &err);
    if (g) ok_counts[4]++;
    else CHECK_INT(err.code, LDS_E_NOMEM);
    lds_graph_free(g);
    CHECK_INT(a.live, 0); /* no leak on any failure path */
  }
  /* each constructor eventually succeeded, and failed before that */
  CHECK(ok_counts[0] > 0 && ok_counts[0] < 59);
  CHECK(ok_counts[1] > 0 && ok_counts[1] < 59);
  CHECK(ok_counts[2] > 0 && ok_counts[2] < 59);
  CHECK(ok_counts[3] > 0 && ok_counts[3] < 59);
  CHECK(ok_counts[4] > 0 && ok_counts[4] < 59);
  lds_grid_free(grid);
}

static void test_monaco(void) {
  const char *dir = LDS_SHARED_DIR "/data/roads/";
  char gr[512], co[512], qf[512], line[256];
  lds_Error err;
  lds_Graph *g;
  lds_Search *s;
  FILE *f;
  int n = 0, mismatches = 0, unreachable = 0;
  snprintf(gr, sizeof gr, "%smonaco.gr", dir);
  snprintf(co, sizeof co, "%smonaco.co", dir);
  snprintf(qf, sizeof qf, "%smonaco.queries", dir);
  g = lds_graph_load_dimacs(NULL, gr, co, &err);
  if (!g && err.code == LDS_E_IO) { /* same rule as test_movingai: data absent = skipped */
    printf("  (skipped: %s — the shared road data is absent)\n", err.msg);
    return;
  }
  if (!g) {
    TH_FAIL("cannot load monaco: %s", err.msg);
    return;
  }
  CHECK_INT(lds_graph_node_count(g), 2815);
  CHECK_INT(lds_graph_edge_count(g), 4717);
  /* weights are max(1, ceil(10 d)): the consistent scale is just above 10 */
  CHECK(lds_graph_h_scale(g) >= 10.0 * (1 - 1e-9));
  CHECK(lds_graph_h_scale(g) < 10.01);
  s = lds_search_new_graph(NULL, g, NULL);
  f = fopen(qf, "r");
  CHECK(f != NULL);
  while (f && fgets(line, sizeof line, f)) {
    long a, b;
    double d, got;
    if (sscanf(line, "%ld %ld %lf", &a, &b, &d) != 3) continue;
    got = run_query(s, NULL, (uint32_t)(a - 1), (uint32_t)(b - 1), NULL);
    if (got != d) mismatches++;
    if (got == -1.0) unreachable++;
    n++;
  }
  if (f) fclose(f);
  CHECK_INT(n, 200);
  CHECK_INT(mismatches, 0);
  CHECK_INT(unreachable, 0);
  test_sliced(g, 12);
  lds_search_free(s);
  lds_graph_free(g);
}

void suite_graph(void);
void suite_graph(void) {
  test_building();
  test_tiny();
  test_zero_cost();
  test_random();
  test_errors_and_stale();
  test_grid_equivalence();
  {
    lds_Graph *g = classic(LDS_COORDS_XY);
    test_sliced(g, 20);
    lds_graph_free(g);
  }
  test_dimacs();
  test_alloc_failures();
  test_monaco();
}
