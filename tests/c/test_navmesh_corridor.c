/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_corridor.c — the funnel mode's corridor searches
** (docs/navmesh.md, "funnel"): the thorough mode (one cost: the
** portal-state search; area costs: the point-chain search, then Detour's
** midpoint search bounded by its path) is never longer than the fast mode
** (the point-chain search alone) on these queries and never cheaper than
** it when areas cost differently; both reach the same queries, never beat the
** straight line, and return a corridor of neighbouring polygons from the
** start's to the goal's without a repeat; a search object reused over many
** queries (records reset by a generation counter) gives the same path bit
** for bit as a fresh one; sliced stepping across the two searches gives the
** same path.
*/
#include "cell_mesh.h"
#include "harness.h"

#include "lds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CW 20
#define CH 20


/* area 0 or 1 at random */
static uint8_t coin_area(uint32_t draw, void *ud) {
  (void)ud;
  return (uint8_t)(draw % 2);
}

/* Free cells of a CW x CH grid (25 % blocked, diagonal pinches opened),
** each a quad or two triangles (cell_mesh.h), area 0 or 1 at random. */
static lds_Navmesh *cmesh_make(TcmRng *g) { return tcm_make(g, CW, CH, 25, coin_area, NULL, NULL); }

static double run(lds_NavSearch *s, const lds_NavParams *p, const double *a, const double *b,
                  bool weighted) {
  lds_Status st = lds_navsearch_start(s, p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  if (st != LDS_FOUND) return -1;
  return weighted ? lds_navsearch_cost(s) : lds_navsearch_length(s);
}

/* The corridor: neighbours from the start's polygon to the goal's, no repeat. */
static bool corridor_ok(const lds_Navmesh *m, lds_NavSearch *s, uint32_t pa, uint32_t pb) {
  size_t n, i, j;
  const uint32_t *c = lds_navsearch_corridor(s, &n);
  if (!c || n == 0 || c[0] != pa || c[n - 1] != pb) return false;
  for (i = 0; i + 1 < n; i++) {
    const uint32_t *vs, *nb;
    uint32_t k, nk = lds_navmesh_poly(m, c[i], &vs, &nb);
    bool linked = false;
    for (k = 0; k < nk; k++) linked = linked || nb[k] == c[i + 1];
    if (!linked) return false;
    for (j = i + 1; j < n; j++)
      if (c[j] == c[i]) return false;
  }
  return true;
}

static void test_thorough_vs_fast(void) {
  TcmRng g = {0xc0441d0bu};
  int it, q, cases = 0, worse = 0, reached_diff = 0, short_of_line = 0, bad_corr = 0;
  int wcases = 0, wworse = 0, reuse_diff = 0, sliced_diff = 0;
  for (it = 0; it < 20; it++) {
    lds_Navmesh *m = cmesh_make(&g);
    lds_NavSearch *s, *s2;
    CHECK(m != NULL);
    if (!m) return;
    s = lds_navsearch_new(NULL, m, NULL);
    s2 = lds_navsearch_new(NULL, m, NULL);
    for (q = 0; q < 30; q++) { /* about 2 in 3 land on a free cell */
      double a[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH}, b[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH};
      double costs[2] = {1, 3}, lt, lf, wt, wf, line;
      uint32_t pa = lds_navmesh_locate(m, a[0], 0, a[2], -1), pb = lds_navmesh_locate(m, b[0], 0, b[2], -1);
      lds_NavParams pt, pf, pw;
      if (pa == LDS_NAVMESH_NONE || pb == LDS_NAVMESH_NONE) continue;
      lds_nav_params_init(&pt);
      pf = pt;
      pf.thorough = false;
      cases++;
      lt = run(s, &pt, a, b, false);
      if (lt >= 0 && !corridor_ok(m, s, pa, pb)) bad_corr++;
      /* s has run many queries; a fresh object gives the same points */
      if (lt >= 0) {
        lds_NavSearch *f = lds_navsearch_new(NULL, m, NULL);
        size_t n1, n2;
        const double *p1 = lds_navsearch_points(s, &n1), *p2;
        run(f, &pt, a, b, false);
        p2 = lds_navsearch_points(f, &n2);
        if (!p2 || n1 != n2 || memcmp(p1, p2, 3 * n1 * sizeof(double)) != 0) reuse_diff++;
        lds_navsearch_free(f);
      }
      /* one expansion a step across both searches: the same path */
      if (lt >= 0) {
        lds_Budget bud = {1, 0};
        lds_Status st = lds_navsearch_start(s2, &pt, a, b);
        size_t n1, n2;
        const double *p1 = lds_navsearch_points(s, &n1), *p2;
        while (st == LDS_RUNNING) st = lds_navsearch_step(s2, &bud);
        p2 = lds_navsearch_points(s2, &n2);
        if (st != LDS_FOUND || !p2 || n1 != n2 || memcmp(p1, p2, 3 * n1 * sizeof(double)) != 0)
          sliced_diff++;
      }
      lf = run(s2, &pf, a, b, false);
      if (lf >= 0 && !corridor_ok(m, s2, pa, pb)) bad_corr++;
      if ((lt < 0) != (lf < 0)) reached_diff++;
      if (lt < 0 || lf < 0) continue;
      line = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2]));
      if (lt > lf * (1 + 1e-12)) worse++;
      if (lt < line * (1 - 1e-12) || lf < line * (1 - 1e-12)) short_of_line++;
      /* areas 0 and 1 cost 1 and 3: the weighted cost decides */
      pw = pt;
      pw.area_costs = costs;
      pw.n_area_costs = 2;
      wt = run(s, &pw, a, b, true);
      pw.thorough = false;
      wf = run(s2, &pw, a, b, true);
      if (wt < 0 || wf < 0 || !isfinite(wt) || !isfinite(wf)) {
        reached_diff++;
        continue;
      }
      wcases++;
      if (wt > wf * (1 + 1e-12)) wworse++;
      if (wt < lt * (1 - 1e-12)) short_of_line++; /* cost >= length when every area costs >= 1 */
    }
    lds_navsearch_free(s);
    lds_navsearch_free(s2);
    lds_navmesh_free(m);
  }
  printf("  thorough vs fast: %d queries (%d weighted)\n", cases, wcases);
  CHECK(cases > 350);
  CHECK(wcases > 300);
  CHECK_INT(worse, 0);
  CHECK_INT(wworse, 0);
  CHECK_INT(reached_diff, 0);
  CHECK_INT(short_of_line, 0);
  CHECK_INT(bad_corr, 0);
  CHECK_INT(reuse_diff, 0);
  CHECK_INT(sliced_diff, 0);
}

/* The straight segment: with one cost, whenever the independent path
** checker (lds_navmesh_check_path, its own walk over the mesh's polygons)
** finds the start -> goal segment on the mesh, both funnel modes answer
** with exactly that segment (two points, the straight length); and every
** two-point answer passes the checker. Segments through vertices of the
** cell grid (the walk gives up there and the search answers) included:
** the queries' points are snapped to a quarter cell for a third of them. */
static void test_straight_segment(void) {
  TcmRng g = {0x5e9a11u};
  int it, q, mode, visible = 0, hidden = 0, not_straight = 0, bad_two = 0, through_vertex = 0;
  for (it = 0; it < 20; it++) {
    lds_Navmesh *m = cmesh_make(&g);
    lds_NavSearch *s;
    CHECK(m != NULL);
    if (!m) return;
    s = lds_navsearch_new(NULL, m, NULL);
    for (q = 0; q < 40; q++) {
      double a[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH}, b[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH};
      double seg[6], line;
      bool on_mesh, snapped = tcm_rnd(&g) % 3 == 0;
      if (snapped) { /* quarter cells: segments along edges and through vertices */
        a[0] = floor(a[0] * 4) / 4 + 0.125, a[2] = floor(a[2] * 4) / 4 + 0.125;
        b[0] = a[0] + (double)(int)(tcm_rnd(&g) % 9) - 4, b[2] = a[2] + (double)(int)(tcm_rnd(&g) % 9) - 4;
      }
      if (lds_navmesh_locate(m, a[0], 0, a[2], -1) == LDS_NAVMESH_NONE ||
          lds_navmesh_locate(m, b[0], 0, b[2], -1) == LDS_NAVMESH_NONE)
        continue;
      memcpy(seg, a, sizeof a);
      memcpy(seg + 3, b, sizeof b);
      on_mesh = lds_navmesh_check_path(m, seg, 2, 0, NULL, 0, NULL, NULL, NULL) == LDS_OK;
      line = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2]));
      if (on_mesh) visible++, through_vertex += snapped;
      else hidden++;
      for (mode = 0; mode < 2; mode++) {
        lds_NavParams p;
        size_t n = 0;
        const double *pts;
        double len;
        lds_nav_params_init(&p);
        p.thorough = mode == 0;
        len = run(s, &p, a, b, false);
        pts = lds_navsearch_points(s, &n);
        if (on_mesh && (len < 0 || n != 2 || fabs(len - line) > 1e-12 * (1 + line))) not_straight++;
        if (len >= 0 && n == 2 &&
            lds_navmesh_check_path(m, pts, 2, 0, NULL, 0, NULL, NULL, NULL) != LDS_OK)
          bad_two++;
      }
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
  printf("  straight segment: %d on the mesh (%d snapped), %d not\n", visible, through_vertex, hidden);
  CHECK(visible > 100);
  CHECK(through_vertex > 20);
  CHECK(hidden > 100);
  CHECK_INT(not_straight, 0);
  CHECK_INT(bad_two, 0);
}

/* An L-shaped corridor of three squares: start and goal in the arms, the
** path bends once at the inner corner (1, 1); the same in both modes, and
** start == goal gives a path of length 0. */
static void test_l_corridor(void) {
  double v[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0, 0, 2, 0, 1, 0, 0, 2, 1, 0, 2};
  uint32_t idx[] = {0, 1, 2, 3, 3, 2, 5, 4, 1, 6, 7, 2}, st[] = {0, 4, 8, 12};
  lds_NavmeshDesc d;
  lds_Navmesh *m;
  lds_NavSearch *s;
  lds_NavParams p;
  double a[3] = {1.9, 0, 0.1}, b[3] = {0.5, 0, 1.9};
  int mode;
  memset(&d, 0, sizeof d);
  d.verts = v, d.n_verts = 8, d.poly_verts = idx, d.poly_start = st, d.n_polys = 3;
  m = lds_navmesh_new(NULL, &d, NULL);
  CHECK(m != NULL);
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  for (mode = 0; mode < 2; mode++) {
    size_t n = 0;
    const double *pts;
    lds_nav_params_init(&p);
    p.thorough = mode == 0;
    CHECK_NEAR(run(s, &p, a, b, false), sqrt(0.81 + 0.81) + sqrt(0.25 + 0.81), 1e-12);
    pts = lds_navsearch_points(s, &n);
    CHECK_INT((int)n, 3);
    if (pts && n == 3) CHECK(pts[3] == 1 && pts[5] == 1);
    CHECK_NEAR(run(s, &p, a, a, false), 0, 0);
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* Point (x, z) in convex polygon p of m, within tol (x-z). */
static bool in_poly(const lds_Navmesh *m, uint32_t p, double x, double z, double tol) {
  const uint32_t *vs, *nb;
  uint32_t k, n = lds_navmesh_poly(m, p, &vs, &nb);
  for (k = 0; k < n; k++) {
    double a[3], b[3], ex, ez, c;
    lds_navmesh_vertex(m, vs[k], a);
    lds_navmesh_vertex(m, vs[(k + 1) % n], b);
    ex = b[0] - a[0], ez = b[2] - a[2];
    /* canonical winding: the inside has a negative cross product */
    c = ex * (z - a[2]) - ez * (x - a[0]);
    if (c > tol * sqrt(ex * ex + ez * ez)) return false;
  }
  return true;
}

/* Every point of the path (each segment at 17 points) lies in a polygon
** of the corridor. */
static bool corridor_holds_path(const lds_Navmesh *m, lds_NavSearch *s) {
  size_t n, nc, i, j, k;
  const double *pts = lds_navsearch_points(s, &n);
  const uint32_t *c = lds_navsearch_corridor(s, &nc);
  if (!pts || !c) return false;
  for (i = 0; i + 1 < n; i++)
    for (k = 0; k <= 16; k++) {
      double t = k / 16.0, x = pts[3 * i] + t * (pts[3 * i + 3] - pts[3 * i]);
      double z = pts[3 * i + 2] + t * (pts[3 * i + 5] - pts[3 * i + 2]);
      bool in = false;
      for (j = 0; j < nc && !in; j++) in = in_poly(m, c[j], x, z, 1e-9);
      if (!in) return false;
    }
  return true;
}

/* The funnel searches a merged partition, its corridor names the mesh's
** own polygons: a linked chain from the start's polygon to the goal's
** holding the whole path, with default costs, with area 1 blocked (no
** corridor polygon of area 1) and with area 1 dearer; a partial path's
** corridor starts at the start's polygon, links, and holds its path. */
static void test_corridor_in_mesh_polygons(void) {
  TcmRng g = {0x5eedc044u};
  int it, q, cases = 0, bad = 0, bad_hold = 0, bad_area = 0, partials = 0, bad_partial = 0;
  for (it = 0; it < 12; it++) {
    lds_Navmesh *m = cmesh_make(&g);
    lds_NavSearch *s;
    CHECK(m != NULL);
    if (!m) return;
    s = lds_navsearch_new(NULL, m, NULL);
    for (q = 0; q < 30; q++) {
      double a[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH}, b[3] = {tcm_unit(&g) * CW, 0, tcm_unit(&g) * CH};
      double block[2] = {1, INFINITY}, dear[2] = {1, 4};
      uint32_t pa = lds_navmesh_locate(m, a[0], 0, a[2], -1), pb = lds_navmesh_locate(m, b[0], 0, b[2], -1);
      int mode;
      if (pa == LDS_NAVMESH_NONE || pb == LDS_NAVMESH_NONE) continue;
      for (mode = 0; mode < 4; mode++) {
        lds_NavParams p;
        size_t nc, j;
        const uint32_t *c;
        lds_Status st;
        lds_nav_params_init(&p);
        if (mode == 1 || mode == 3) p.area_costs = block, p.n_area_costs = 2;
        if (mode == 2) p.area_costs = dear, p.n_area_costs = 2;
        if (mode == 3) p.partial = true;
        st = lds_navsearch_start(s, &p, a, b);
        if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
        if (mode == 3) {
          if (!lds_navsearch_is_partial(s)) continue;
          partials++;
          c = lds_navsearch_corridor(s, &nc);
          if (!c || nc == 0 || c[0] != pa || !corridor_holds_path(m, s)) bad_partial++;
          for (j = 0; c && j + 1 < nc; j++) {
            const uint32_t *vs, *nb;
            uint32_t k, nk = lds_navmesh_poly(m, c[j], &vs, &nb);
            bool linked = false;
            for (k = 0; k < nk; k++) linked = linked || nb[k] == c[j + 1];
            if (!linked) bad_partial++;
          }
          continue;
        }
        if (st != LDS_FOUND) continue;
        cases++;
        if (!corridor_ok(m, s, pa, pb)) bad++;
        if (!corridor_holds_path(m, s)) bad_hold++;
        c = lds_navsearch_corridor(s, &nc);
        for (j = 0; mode == 1 && c && j < nc; j++)
          if (lds_navmesh_poly_area(m, c[j]) == 1) bad_area++;
      }
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
  printf("  corridor in mesh polygons: %d paths, %d partial\n", cases, partials);
  CHECK(cases > 400);
  CHECK(partials > 20);
  CHECK_INT(bad, 0);
  CHECK_INT(bad_hold, 0);
  CHECK_INT(bad_area, 0);
  CHECK_INT(bad_partial, 0);
}

void suite_navmesh_corridor(void);
void suite_navmesh_corridor(void) {
  test_corridor_in_mesh_polygons();
  test_l_corridor();
  test_straight_segment();
  test_thorough_vs_fast();
}
