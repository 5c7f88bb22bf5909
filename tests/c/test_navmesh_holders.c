/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_holders.c — a start or goal on an edge or a vertex, which
** several polygons hold (docs/navmesh.md "Degenerate meshes"): the query
** uses the polygons holding it that it allows. On an edge between an
** allowed and a blocked polygon (for this query's costs) both modes find
** the path, a partial path's end (on such a shore) is a start a search
** can go on from, a vertex whose located polygon is blocked starts in the
** allowed ones round it; lds_navmesh_check_path starts a polyline in the
** allowed polygon holding its first segment (a blocked polygon, or one
** touching the next only at a vertex, holding the first point as well).
** At a pinch vertex (two squares touching only there) a query starts from
** / ends in both squares, in every mode.
*/
#include "harness.h"

#include "lds.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A mesh of unit squares from vertex coordinates (x, z pairs) and quads. */
static lds_Navmesh *squares(const double *xz, size_t nv, const uint32_t *quads, size_t nq,
                            const uint8_t *areas) {
  static double v[64 * 3];
  static uint32_t start[17];
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m;
  size_t i;
  for (i = 0; i < nv; i++) v[3 * i] = xz[2 * i], v[3 * i + 1] = 0, v[3 * i + 2] = xz[2 * i + 1];
  for (i = 0; i <= nq; i++) start[i] = (uint32_t)(4 * i);
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = (uint32_t)nv;
  d.poly_verts = quads;
  d.poly_start = start;
  d.n_polys = (uint32_t)nq;
  d.areas = areas;
  m = lds_navmesh_new(NULL, &d, &err);
  if (!m) TH_FAIL("squares: %s", err.msg);
  return m;
}

/* Runs one query to its end: the status, *len the path's length (NaN
** without one), *end its last point. */
static lds_Status run(lds_NavSearch *s, lds_NavAlgo algo, const double *costs, size_t nc,
                      bool partial, const double *a, const double *b, double *len, double *end) {
  lds_NavParams p;
  lds_Status st;
  size_t n = 0;
  const double *pts;
  lds_nav_params_init(&p);
  p.algo = algo;
  p.area_costs = costs;
  p.n_area_costs = nc;
  p.partial = partial;
  st = lds_navsearch_start(s, &p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  *len = lds_navsearch_length(s);
  pts = lds_navsearch_points(s, &n);
  if (end) {
    if (pts && n) memcpy(end, pts + 3 * (n - 1), 3 * sizeof(double));
    else end[0] = end[1] = end[2] = NAN;
  }
  return st;
}

/* Squares x 0..1, 1..2 (area 1, blocked), 2..3, 3..4 in a row. */
static const double ROW_XZ[] = {0, 0, 0, 1, 1, 1, 1, 0, 2, 1, 2, 0, 3, 1, 3, 0, 4, 1, 4, 0};
static const uint32_t ROW_Q[] = {0, 1, 2, 3, 3, 2, 4, 5, 5, 4, 6, 7, 7, 6, 8, 9};
static const uint8_t ROW_A[] = {0, 1, 0, 0};

static void test_edge_blocked(void) {
  const double costs[2] = {1, INFINITY};
  lds_Navmesh *m = squares(ROW_XZ, 10, ROW_Q, 4, ROW_A);
  lds_NavSearch *s;
  int algo;
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  for (algo = 0; algo < 2; algo++) {
    const double e1[3] = {1, 0, 0.5}, e2[3] = {2, 0, 0.5}, in1[3] = {0.5, 0, 0.5},
                 in3[3] = {2.5, 0, 0.5};
    double len;
    /* x = 2 is polygon 1's edge (blocked) and polygon 2's: located in 1 */
    CHECK_INT(lds_navmesh_locate(m, 2, 0, 0.5, 4), 1);
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, e2, in3, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, 0.5, 1e-12);
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, in3, e2, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, 0.5, 1e-12);
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, e1, in1, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, 0.5, 1e-12);
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, in1, e1, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, 0.5, 1e-12);
    /* across the water: blocked */
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, e2, in1, &len, NULL), LDS_NO_PATH);
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* The partial path to the shore ends on the blocked polygon's edge; from
** that end the agent can search again. */
static void test_partial_chain(void) {
  const double costs[2] = {1, INFINITY};
  lds_Navmesh *m = squares(ROW_XZ, 10, ROW_Q, 4, ROW_A);
  lds_NavSearch *s;
  int algo;
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  for (algo = 0; algo < 2; algo++) {
    const double a[3] = {3.5, 0, 0.5}, goal[3] = {0.5, 0, 0.5};
    double len, end[3];
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, true, a, goal, &len, end), LDS_NO_PATH);
    CHECK_NEAR(end[0], 2, 1e-12);
    CHECK_NEAR(end[2], 0.5, 1e-12);
    CHECK(lds_navsearch_is_partial(s));
    CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, true, end, a, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, 1.5, 1e-12);
    CHECK(!lds_navsearch_is_partial(s));
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* Four squares round the vertex (1, 1); one of them blocked at a time. */
static void test_vertex_blocked(void) {
  static const double xz[] = {0, 0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 2, 2, 0, 2, 1, 2, 2};
  static const uint32_t q[] = {0, 1, 4, 3, 1, 2, 5, 4, 3, 4, 7, 6, 4, 5, 8, 7};
  const double costs[2] = {1, INFINITY}, c[3] = {1, 0, 1}, g[3] = {1.9, 0, 1.9};
  int b, algo;
  for (b = 0; b < 3; b++) { /* polygon 3 holds the goal */
    uint8_t areas[4] = {0, 0, 0, 0};
    lds_Navmesh *m;
    lds_NavSearch *s;
    areas[b] = 1;
    m = squares(xz, 9, q, 4, areas);
    if (!m) return;
    s = lds_navsearch_new(NULL, m, NULL);
    CHECK_INT(lds_navmesh_locate(m, 1, 0, 1, 4), 0);
    for (algo = 0; algo < 2; algo++) {
      double len;
      CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, c, g, &len, NULL), LDS_FOUND);
      CHECK_NEAR(len, 0.9 * sqrt(2), 1e-12);
      CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, false, g, c, &len, NULL), LDS_FOUND);
      CHECK_NEAR(len, 0.9 * sqrt(2), 1e-12);
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
}

/* check_path: a first point on a blocked polygon's edge, and a first
** segment from a pinch vertex into the polygon touching the located one
** only there. */
static void test_check_start(void) {
  static const double pxz[] = {0, 0, 0, 1, 1, 1, 1, 0, 1, 2, 2, 2, 2, 1};
  static const uint32_t pq[] = {0, 1, 2, 3, 2, 4, 5, 6};
  const double costs[2] = {1, INFINITY};
  const double shore[6] = {2, 0, 0.5, 2.5, 0, 0.5}, into[6] = {2, 0, 0.5, 1.5, 0, 0.5};
  const double pinch[6] = {1, 0, 1, 1.5, 0, 1.5}, back[6] = {1.5, 0, 1.5, 1, 0, 1};
  char msg[LDS_ERRMSG_SIZE];
  double len;
  lds_Navmesh *m = squares(ROW_XZ, 10, ROW_Q, 4, ROW_A);
  if (!m) return;
  CHECK_INT(lds_navmesh_check_path(m, shore, 2, 4, costs, 2, &len, NULL, msg), LDS_OK);
  CHECK_NEAR(len, 0.5, 1e-12);
  CHECK_INT(lds_navmesh_check_path(m, into, 2, 4, costs, 2, &len, NULL, msg), LDS_E_ARG);
  lds_navmesh_free(m);
  m = squares(pxz, 7, pq, 2, NULL);
  if (!m) return;
  CHECK_INT(lds_navmesh_locate(m, 1, 0, 1, 4), 0);
  CHECK_INT(lds_navmesh_check_path(m, pinch, 2, 4, NULL, 0, &len, NULL, msg), LDS_OK);
  CHECK_NEAR(len, sqrt(0.5), 1e-12);
  CHECK_INT(lds_navmesh_check_path(m, back, 2, 4, NULL, 0, &len, NULL, msg), LDS_OK);
  lds_navmesh_free(m);
}

/* Two squares touching only at the vertex (1, 1) (two pieces): a query
** from or to that vertex reaches into either square, in every mode (one
** cost: portal states, optimal; area costs: point chain then midpoints;
** thorough off), and the corridor is the square the path runs in. */
static void test_pinch(void) {
  static const double pxz[] = {0, 0, 0, 1, 1, 1, 1, 0, 1, 2, 2, 2, 2, 1};
  static const uint32_t pq[] = {0, 1, 2, 3, 2, 4, 5, 6};
  static const uint8_t pa[] = {0, 1};
  const double costs[2] = {1, 2}, v[3] = {1, 0, 1}, in2[3] = {1.5, 0, 1.5}, in1[3] = {0.5, 0, 0.5};
  lds_Navmesh *m = squares(pxz, 7, pq, 2, pa);
  lds_NavSearch *s;
  int mode;
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  CHECK_INT(lds_navmesh_piece_count(m), 2);
  for (mode = 0; mode < 4; mode++) {
    const lds_NavAlgo algo = mode == 1 ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
    const size_t nc = mode == 2 ? 2 : 0; /* area 1 costs 2: the point chain, then midpoints */
    lds_NavParams p;
    double len;
    size_t n = 0;
    const uint32_t *corr;
    CHECK_INT(run(s, algo, costs, nc, false, v, in2, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, sqrt(0.5), 1e-12);
    if (algo == LDS_NAV_FUNNEL) {
      corr = lds_navsearch_corridor(s, &n);
      CHECK_INT(n, 1);
      if (corr && n == 1) CHECK_INT(corr[0], 1);
      CHECK_NEAR(lds_navsearch_cost(s), sqrt(0.5) * (nc ? 2 : 1), 1e-9);
    }
    CHECK_INT(run(s, algo, costs, nc, false, in2, v, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, sqrt(0.5), 1e-12);
    CHECK_INT(run(s, algo, costs, nc, false, v, in1, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, sqrt(0.5), 1e-12);
    CHECK_INT(run(s, algo, costs, nc, false, in1, v, &len, NULL), LDS_FOUND);
    CHECK_NEAR(len, sqrt(0.5), 1e-12);
    /* through the pinch: no */
    CHECK_INT(run(s, algo, costs, nc, false, in1, in2, &len, NULL), LDS_NO_PATH);
    if (mode == 3) { /* thorough off */
      lds_nav_params_init(&p);
      p.thorough = false;
      CHECK_INT(lds_navsearch_start(s, &p, v, in2), LDS_RUNNING);
      CHECK_INT(lds_navsearch_step(s, NULL), LDS_FOUND);
      CHECK_NEAR(lds_navsearch_length(s), sqrt(0.5), 1e-12);
    }
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* A malformed mesh whose polygon 2 overlaps polygon 1 (tests/fuzz's
** case): every path found between points on a 0.25 lattice, both modes,
** passes check_path (a point inside a polygon uses it alone). */
static void test_overlap(void) {
  static const double v[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0, 0, 2, 0, 1, 1, 0, 2, 2, 0, 2};
  static const uint32_t idx[] = {0, 1, 2, 3, 3, 2, 5, 4, 2, 6, 7, 4}, start[] = {0, 4, 8, 12};
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m;
  lds_NavSearch *s;
  int i, j, algo, found = 0, bad = 0;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 8;
  d.poly_verts = idx;
  d.poly_start = start;
  d.n_polys = 3;
  m = lds_navmesh_new(NULL, &d, &err);
  if (!m) return; /* rejected: nothing to check */
  s = lds_navsearch_new(NULL, m, NULL);
  for (i = 0; i < 81; i++)
    for (j = 0; j < 81; j += 7)
      for (algo = 0; algo < 2; algo++) {
        const double a[3] = {0.25 * (i % 9), 0, 0.25 * (i / 9)}, b[3] = {0.25 * (j % 9), 0, 0.25 * (j / 9)};
        double len;
        size_t n = 0;
        const double *pts;
        char msg[LDS_ERRMSG_SIZE];
        if (run(s, (lds_NavAlgo)algo, NULL, 0, false, a, b, &len, NULL) != LDS_FOUND) continue;
        found++;
        pts = lds_navsearch_points(s, &n);
        if (lds_navmesh_check_path(m, pts, n, 4, NULL, 0, NULL, NULL, msg) != LDS_OK) bad++;
      }
  CHECK(found > 100);
  CHECK_INT(bad, 0);
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

void suite_navmesh_holders(void);
void suite_navmesh_holders(void) {
  test_edge_blocked();
  test_partial_chain();
  test_vertex_blocked();
  test_check_start();
  test_pinch();
  test_overlap();
}
