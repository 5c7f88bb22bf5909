/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_fan.c — a vertex shared by many polygons: a fan of thin
** triangles round one centre vertex (more of them than a fixed list of a
** point's holders could keep). A query whose start or goal is exactly on
** the centre uses every allowed triangle round it, in both modes, and
** lds_navmesh_check_path starts a polyline there in the allowed triangle
** its first segment runs into; a segment through the centre crosses to the
** opposite side of the fan. The triangles with the lowest ids are blocked
** (area 1 at cost inf), so a list cut short would hold only blocked ones.
*/
#include "harness.h"

#include "lds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAN_R 10.0
static const double PI = 3.14159265358979323846;

/* A fan of n triangles round vertex 0 at the origin (x-z plane, y 0): the
** outer vertices 1..n on a circle of radius FAN_R; triangle k is
** (0, 1 + k, 1 + (k + 1) % n), of area 1 when k < blocked, else 0. */
static lds_Navmesh *fan(uint32_t n, uint32_t blocked) {
  double *v = (double *)malloc(3 * (n + 1) * sizeof(double));
  uint32_t *pv = (uint32_t *)malloc(3 * n * sizeof(uint32_t));
  uint32_t *ps = (uint32_t *)malloc((n + 1) * sizeof(uint32_t));
  uint8_t *area = (uint8_t *)malloc(n);
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m;
  uint32_t k;
  v[0] = v[1] = v[2] = 0;
  for (k = 0; k < n; k++) {
    double a = 2 * PI * (double)k / (double)n;
    v[3 * (k + 1)] = FAN_R * cos(a);
    v[3 * (k + 1) + 1] = 0;
    v[3 * (k + 1) + 2] = FAN_R * sin(a);
    pv[3 * k] = 0;
    pv[3 * k + 1] = 1 + k;
    pv[3 * k + 2] = 1 + (k + 1) % n;
    ps[k] = 3 * k;
    area[k] = k < blocked ? 1 : 0;
  }
  ps[n] = 3 * n;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = n + 1;
  d.poly_verts = pv;
  d.poly_start = ps;
  d.n_polys = n;
  d.areas = area;
  m = lds_navmesh_new(NULL, &d, &err);
  if (!m) TH_FAIL("fan(%u): %s", (unsigned)n, err.msg);
  free(v);
  free(pv);
  free(ps);
  free(area);
  return m;
}

/* A point at radius r in the middle of triangle k of an n-triangle fan. */
static void in_tri(uint32_t n, uint32_t k, double r, double out[3]) {
  double a = 2 * PI * ((double)k + 0.5) / (double)n;
  out[0] = r * cos(a);
  out[1] = 0;
  out[2] = r * sin(a);
}

/* One query to its end: its status, *len the path's length (NaN without). */
static lds_Status run(lds_NavSearch *s, lds_NavAlgo algo, const double *costs, size_t nc,
                      const double *a, const double *b, double *len) {
  lds_NavParams p;
  lds_Status st;
  lds_nav_params_init(&p);
  p.algo = algo;
  p.area_costs = costs;
  p.n_area_costs = nc;
  st = lds_navsearch_start(s, &p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  *len = st == LDS_FOUND ? lds_navsearch_length(s) : NAN;
  return st;
}

/* 100 triangles, the first 70 blocked: from the centre to the allowed
** triangles and back, the straight segment, in both modes. */
static void test_fan_endpoint(void) {
  const double costs[2] = {1, INFINITY}, centre[3] = {0, 0, 0};
  const uint32_t n = 100, blocked = 70;
  lds_Navmesh *m = fan(n, blocked);
  lds_NavSearch *s;
  int algo;
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  for (algo = 0; algo < 2; algo++) {
    uint32_t k;
    for (k = blocked; k < n; k += 7) {
      double g[3], len;
      in_tri(n, k, 5, g);
      CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, centre, g, &len), LDS_FOUND);
      CHECK_NEAR(len, 5, 1e-9);
      CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, g, centre, &len), LDS_FOUND);
      CHECK_NEAR(len, 5, 1e-9);
    }
    /* without costs every triangle is allowed: the far side of the fan too */
    {
      double g[3], len;
      in_tri(n, 3, 5, g);
      CHECK_INT(run(s, (lds_NavAlgo)algo, NULL, 0, centre, g, &len), LDS_FOUND);
      CHECK_NEAR(len, 5, 1e-9);
      /* into a blocked triangle from the centre: none allowed holds the goal */
      CHECK_INT(run(s, (lds_NavAlgo)algo, costs, 2, centre, g, &len), LDS_NO_PATH);
    }
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* lds_navmesh_check_path from the centre into an allowed triangle (the
** located one, lowest id, is blocked; the allowed ones all have ids past
** 64), and into a blocked one (refused). */
static void test_fan_check(void) {
  const double costs[2] = {1, INFINITY};
  const uint32_t n = 100, blocked = 70;
  lds_Navmesh *m = fan(n, blocked);
  double pts[6] = {0, 0, 0, 0, 0, 0}, len = NAN, cost = NAN;
  char msg[LDS_ERRMSG_SIZE];
  if (!m) return;
  in_tri(n, n - 1, 5, pts + 3);
  CHECK_INT(lds_navmesh_check_path(m, pts, 2, 1e-6, costs, 2, &len, &cost, msg), LDS_OK);
  CHECK_STR(msg, "");
  CHECK_NEAR(len, 5, 1e-9);
  CHECK_NEAR(cost, 5, 1e-9);
  /* into a blocked triangle: refused, naming it */
  in_tri(n, 10, 5, pts + 3);
  CHECK_INT(lds_navmesh_check_path(m, pts, 2, 1e-6, costs, 2, &len, &cost, msg), LDS_E_ARG);
  CHECK_STR(msg, "segment 0 crosses polygon 10 of blocked area 1");
  lds_navmesh_free(m);
}

/* 300 triangles: a segment from one triangle through the centre to the
** opposite one (150 triangles round the vertex each way), checked and
** searched. */
static void test_fan_through(void) {
  const uint32_t n = 300;
  lds_Navmesh *m = fan(n, 0);
  lds_NavSearch *s;
  double pts[6], len = NAN;
  char msg[LDS_ERRMSG_SIZE];
  int algo;
  if (!m) return;
  in_tri(n, 0, 5, pts);
  in_tri(n, n / 2, 5, pts + 3);
  CHECK_INT(lds_navmesh_check_path(m, pts, 2, 1e-6, NULL, 0, &len, NULL, msg), LDS_OK);
  CHECK_STR(msg, "");
  CHECK_NEAR(len, 10, 1e-9);
  s = lds_navsearch_new(NULL, m, NULL);
  for (algo = 0; algo < 2; algo++) {
    const double centre[3] = {0, 0, 0};
    CHECK_INT(run(s, (lds_NavAlgo)algo, NULL, 0, pts, pts + 3, &len), LDS_FOUND);
    CHECK_NEAR(len, 10, 1e-9);
    CHECK_INT(run(s, (lds_NavAlgo)algo, NULL, 0, centre, pts + 3, &len), LDS_FOUND);
    CHECK_NEAR(len, 5, 1e-9);
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

void suite_navmesh_fan(void);
void suite_navmesh_fan(void) {
  test_fan_endpoint();
  test_fan_check();
  test_fan_through();
}
