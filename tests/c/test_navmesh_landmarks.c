/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_landmarks.c — the navmesh searches' landmark bounds
** (core/lds_navmesh_landmarks.c, docs/navmesh.md "Landmark bounds"), on
** random grid meshes (strict and non-strict, pinch vertices included) and
** the same meshes with a second area:
**   - the one-to-all Polyanya distance at every vertex equals the
**     point-to-point optimal query's length from the landmark (NaN only at
**     pinch vertices, which the tables do not use);
**   - every bound is at most the exact length from a random point of the
**     portal to a random goal, also with an area blocked (the tables are
**     built with every area allowed), and the bound beats the straight line
**     often (it is not vacuous);
**   - with the bounds the optimal search gives the same lengths as without
**     (exact), and the portal-state search paths are legal and never
**     shorter than the optimum;
**   - search objects sharing one set of tables give the same paths, and
**     the tables outlive the search object that built them;
**   - a small partition gets no tables by default.
** The reference searches run with the tables off (lm_min_polys above any
** partition): Polyanya alone, which tests/c/test_polyanya.c checks against
** an independent visibility-graph oracle.
*/
#include "harness.h"

#include "lds.h"
#include "lds_io.h"
#include "lds_navmesh_landmarks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t lrs;
static uint32_t lrnd(void) {
  lrs = lrs * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(lrs >> 33);
}

/* m's polygons rebuilt with every coordinate times scale and, with
** random_areas, a random area 0 or 1 (1 in 5) per polygon; m is freed. */
static lds_Navmesh *rebuild(lds_Navmesh *m, double scale, bool random_areas) {
  uint32_t np = lds_navmesh_poly_count(m), nv = lds_navmesh_vertex_count(m), p, ni = 0, k;
  uint32_t *st = (uint32_t *)malloc((np + 1) * sizeof *st), *pv;
  uint8_t *ar = (uint8_t *)malloc(np);
  double *v = (double *)malloc(3 * (size_t)nv * sizeof *v);
  lds_NavmeshDesc d;
  lds_Navmesh *m2;
  for (k = 0; k < 3 * nv; k++) v[k] = lds_navmesh_vertices(m)[k] * scale;
  for (p = 0; p < np; p++) ni += lds_navmesh_poly(m, p, NULL, NULL);
  pv = (uint32_t *)malloc(ni * sizeof *pv);
  for (p = 0, ni = 0; p < np; p++) {
    const uint32_t *vi;
    uint32_t n = lds_navmesh_poly(m, p, &vi, NULL);
    st[p] = ni;
    memcpy(pv + ni, vi, n * sizeof *pv);
    ni += n;
    ar[p] = (uint8_t)(random_areas && lrnd() % 5 == 0);
  }
  st[np] = ni;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = nv;
  d.poly_verts = pv;
  d.poly_start = st;
  d.n_polys = np;
  d.areas = ar;
  m2 = lds_navmesh_new(NULL, &d, NULL);
  free(st);
  free(pv);
  free(ar);
  free(v);
  lds_navmesh_free(m);
  return m2;
}

/* A random grid's mesh; with two_areas, the same polygons with a random
** area 0 or 1 each. */
static lds_Navmesh *random_mesh(bool strict, bool two_areas) {
  int32_t w = 12 + (int32_t)(lrnd() % 30), h = 12 + (int32_t)(lrnd() % 30), x, y;
  int pct = 10 + (int)(lrnd() % 30);
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  lds_GridMeshParams mp;
  lds_Navmesh *m;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if ((int)(lrnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_mesh_params_init(&mp);
  mp.strict = strict;
  mp.max_verts = 4 + (int)(lrnd() % 8);
  m = lds_grid_to_navmesh(NULL, g, &mp, NULL, NULL);
  lds_grid_free(g);
  return m && two_areas ? rebuild(m, 1, true) : m;
}

/* A random point of the mesh: a polygon's vertex mean pulled towards one
** of its vertices. */
static void random_point(const lds_Navmesh *m, double out[3]) {
  uint32_t p = lrnd() % lds_navmesh_poly_count(m), n, k;
  const uint32_t *vi;
  double c[3] = {0, 0, 0}, v[3], t = (lrnd() % 1000) / 1000.0 * 0.9;
  n = lds_navmesh_poly(m, p, &vi, NULL);
  for (k = 0; k < n; k++) {
    lds_navmesh_vertex(m, vi[k], v);
    c[0] += v[0] / n;
    c[2] += v[2] / n;
  }
  lds_navmesh_vertex(m, vi[lrnd() % n], v);
  out[0] = c[0] + t * (v[0] - c[0]);
  out[1] = 0;
  out[2] = c[2] + t * (v[2] - c[2]);
}

/* Runs one query on s (building its partition and tables). */
static lds_Status run(lds_NavSearch *s, lds_NavAlgo algo, bool thorough, const double *a, const double *b,
                      const double *costs) {
  lds_NavParams p;
  lds_Status st;
  lds_nav_params_init(&p);
  p.algo = algo;
  p.thorough = thorough;
  p.snap_radius = 1e-6;
  if (costs) {
    p.area_costs = costs;
    p.n_area_costs = 2;
  }
  st = lds_navsearch_start(s, &p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  return st;
}

/* Exact length a -> b (optimal, the tables off); INFINITY: no path. */
static double exact(lds_NavSearch *ref, const double *a, const double *b, const double *costs) {
  return run(ref, LDS_NAV_OPTIMAL, true, a, b, costs) == LDS_FOUND ? lds_navsearch_length(ref) : INFINITY;
}

/* Vertices where two or more fans meet: two boundary edges leave them. */
static uint32_t count_pinches(const lds_Navmesh *m, uint8_t *is_pinch) {
  uint32_t nv = lds_navmesh_vertex_count(m), p, k, n = 0;
  uint8_t *out = (uint8_t *)calloc(nv, 1);
  for (p = 0; p < lds_navmesh_poly_count(m); p++) {
    const uint32_t *vi, *nb;
    uint32_t c = lds_navmesh_poly(m, p, &vi, &nb);
    for (k = 0; k < c; k++)
      if (nb[k] == LDS_NAVMESH_NONE && out[vi[k]] < 255) out[vi[k]]++;
  }
  for (k = 0; k < nv; k++) {
    is_pinch[k] = out[k] >= 2;
    n += is_pinch[k];
  }
  free(out);
  return n;
}

static void distances_and_bounds(void) {
  int trial, vd_checked = 0, vd_bad = 0, nan_bad = 0, colocated = 0, b_checked = 0, b_bad = 0, b_useful = 0,
             blocked_checked = 0, with_pinch = 0;
  const double costs[2] = {1, INFINITY};
  lrs = 20261203;
  for (trial = 0; trial < 24; trial++) {
    lds_Navmesh *m = random_mesh(trial % 3 == 2, trial % 2 == 1);
    lds_NavSearch *s, *ref;
    double a[3];
    uint32_t i, v, nv, q;
    uint8_t *pinch, *shared;
    ldsi_NavLandmarks *lm;
    CHECK(m != NULL);
    if (!m) continue;
    nv = lds_navmesh_vertex_count(m);
    s = lds_navsearch_new(NULL, m, NULL);
    ref = lds_navsearch_new(NULL, m, NULL);
    s->lm_min_polys = 0;
    ref->lm_min_polys = 0xFFFFFFFFu;
    random_point(m, a);
    (void)run(s, LDS_NAV_FUNNEL, true, a, a, NULL);
    lm = s->lm;
    CHECK(lm != NULL);
    if (!lm) {
      lds_navsearch_free(s);
      lds_navsearch_free(ref);
      lds_navmesh_free(m);
      continue;
    }
    CHECK(lm->nl >= 1 && lm->nl <= LDSI_NAV_LM_MAX);
    pinch = (uint8_t *)malloc(nv);
    shared = (uint8_t *)calloc(nv, 1);
    (void)count_pinches(m, pinch);
    /* the grid mesher gives each fan at a pinch point its own vertex: a
    ** point query there may end at any of them */
    for (v = 0; v < nv; v++) {
      uint32_t u;
      double x[3], y[3];
      lds_navmesh_vertex(m, v, x);
      for (u = 0; u < nv; u++) {
        lds_navmesh_vertex(m, u, y);
        if (u != v && x[0] == y[0] && x[2] == y[2]) shared[v] = 1;
      }
      with_pinch += shared[v];
    }
    /* the distances at the vertices */
    for (i = 0; i < lm->nl; i++) {
      double L[3] = {lm->lx[i], 0, lm->lz[i]};
      for (v = 0; v < nv; v++) {
        double d = lm->vd[(size_t)v * LDSI_NAV_LM_MAX + i], e, x[3];
        if (d != d) {
          nan_bad += !pinch[v];
          continue;
        }
        lds_navmesh_vertex(m, v, x);
        e = exact(ref, L, x, NULL);
        vd_checked++;
        if (shared[v]) { /* the query reaches the point by any of its vertices */
          colocated++;
          if (!isinf(e) && !(d >= e - 1e-9 * (1 + e))) {
            if (vd_bad < 5) fprintf(stderr, "landmarks trial %d L%u vertex %u (%g, %g) (shared): table %.12g, query %.12g\n", trial, i, v, x[0], x[2], d, e);
            vd_bad++;
          }
          continue;
        }
        if (!(fabs(d - e) <= 1e-9 * (1 + e)) && !(isinf(d) && isinf(e))) {
          if (vd_bad < 5)
            fprintf(stderr, "landmarks trial %d L%u vertex %u (%g, %g): table %.12g, query %.12g\n", trial, i, v,
                    x[0], x[2], d, e);
          vd_bad++;
        }
      }
    }
    /* the bounds from random portal points to random goals */
    for (q = 0; q < 60; q++) {
      ldsi_NavLmGoal g;
      uint32_t gp, k, ne = lm->ne;
      double t[3], p[3], u = (lrnd() % 1001) / 1000.0, e, lb, straight;
      const ldsi_NavEdge *E;
      bool blocked = trial % 2 == 1 && (q % 3) != 0;
      random_point(m, t);
      gp = lds_navmesh_locate(m, t[0], 0, t[2], -1);
      if (gp == LDS_NAVMESH_NONE) continue;
      ldsi_navlm_goal(&g, s->fpmap[gp], t);
      k = lrnd() % ne;
      E = &s->madj[k];
      p[0] = E->a[0] + u * (E->b[0] - E->a[0]);
      p[1] = 0;
      p[2] = E->a[2] + u * (E->b[2] - E->a[2]);
      lb = ldsi_navlm_bound(lm, &g, k);
      e = exact(ref, p, t, blocked ? costs : NULL);
      if (e == INFINITY) continue;
      b_checked++;
      blocked_checked += blocked;
      straight = hypot(p[0] - t[0], p[2] - t[2]);
      if (lb > straight + 1e-6) b_useful++;
      if (!(lb <= e + 1e-9 * (1 + e))) {
        if (b_bad < 5)
          fprintf(stderr, "landmarks trial %d: bound %.12g above the exact %.12g ((%g, %g) -> (%g, %g)%s)\n", trial,
                  lb, e, p[0], p[2], t[0], t[2], blocked ? ", area 1 blocked" : "");
        b_bad++;
      }
    }
    free(pinch);
    free(shared);
    lds_navsearch_free(s);
    lds_navsearch_free(ref);
    lds_navmesh_free(m);
  }
  printf("  landmarks: %d vertex distances (%d at points several vertices share), %d bounds (%d with an area blocked, %d above the straight line)\n",
         vd_checked, colocated, b_checked, blocked_checked, b_useful);
  CHECK(vd_checked > 5000);
  CHECK(with_pinch > 0);
  CHECK_INT(nan_bad, 0);
  CHECK_INT(vd_bad, 0);
  CHECK(b_checked > 800);
  CHECK(blocked_checked > 150);
  CHECK(b_useful > b_checked / 10);
  CHECK_INT(b_bad, 0);
}

/* The searches with the tables against the reference. */
static void searches_with_bounds(void) {
  int trial, compared = 0, mism = 0, funnel_bad = 0, illegal = 0, shared_diff = 0;
  const double costs[2] = {1, INFINITY};
  lrs = 777;
  for (trial = 0; trial < 16; trial++) {
    lds_Navmesh *m = random_mesh(trial % 2 == 0, trial % 4 == 3);
    lds_NavSearch *s, *ref, *s2;
    int q;
    CHECK(m != NULL);
    if (!m) continue;
    s = lds_navsearch_new(NULL, m, NULL);
    ref = lds_navsearch_new(NULL, m, NULL);
    s2 = lds_navsearch_new(NULL, m, NULL);
    s->lm_min_polys = 0;
    ref->lm_min_polys = 0xFFFFFFFFu;
    for (q = 0; q < 40; q++) {
      double a[3], b[3], e, l;
      const double *c = (q & 1) && trial % 4 == 3 ? costs : NULL;
      random_point(m, a);
      random_point(m, b);
      e = exact(ref, a, b, c);
      if (q == 0) { /* s2 shares s's tables from its first query on */
        (void)run(s, LDS_NAV_FUNNEL, true, a, a, NULL);
        CHECK(s->lm != NULL);
        CHECK(ldsi_navsearch_share_landmarks(s2, s));
        CHECK(s2->lm == s->lm);
      }
      l = run(s, LDS_NAV_OPTIMAL, true, a, b, c) == LDS_FOUND ? lds_navsearch_length(s) : INFINITY;
      compared++;
      if (!(fabs(l - e) <= 1e-9 * (1 + e)) && !(isinf(l) && isinf(e))) {
        if (mism < 5)
          fprintf(stderr, "landmarks trial %d: optimal %.12g, reference %.12g ((%g, %g) -> (%g, %g))\n", trial, l, e,
                  a[0], a[2], b[0], b[2]);
        mism++;
      }
      {
        lds_Status st = run(s, LDS_NAV_FUNNEL, true, a, b, c), st2 = run(s2, LDS_NAV_FUNNEL, true, a, b, c);
        size_t n, n2;
        const double *pts = st == LDS_FOUND ? lds_navsearch_points(s, &n) : NULL;
        const double *pts2 = st2 == LDS_FOUND ? lds_navsearch_points(s2, &n2) : NULL;
        if ((st == LDS_FOUND) != (e < INFINITY)) funnel_bad++;
        if (st != st2 || (pts && (n != n2 || memcmp(pts, pts2, 3 * n * sizeof *pts) != 0))) shared_diff++;
        if (pts) {
          double len = lds_navsearch_length(s);
          if (len < e - 1e-9 * (1 + e)) funnel_bad++;
          if (lds_navmesh_check_path(m, pts, n, -1, c, c ? 2 : 0, NULL, NULL, NULL) != LDS_OK) illegal++;
        }
      }
    }
    /* the tables outlive the search object that built them */
    lds_navsearch_free(s);
    {
      double a[3], b[3];
      random_point(m, a);
      random_point(m, b);
      CHECK(run(s2, LDS_NAV_OPTIMAL, true, a, b, NULL) == (exact(ref, a, b, NULL) < INFINITY ? LDS_FOUND : LDS_NO_PATH));
    }
    lds_navsearch_free(s2);
    lds_navsearch_free(ref);
    lds_navmesh_free(m);
  }
  printf("  landmarks: %d optimal queries against the reference\n", compared);
  CHECK(compared >= 600);
  CHECK_INT(mism, 0);
  CHECK_INT(funnel_bad, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(shared_diff, 0);
}

/* A small mesh gets no tables by default; den011d (shared) does. */
static void when_built(void) {
  char mp[512];
  lds_Navmesh *m;
  lds_NavSearch *s;
  double a[3];
  {
    lds_Grid *g = lds_grid_new(NULL, 10, 10, NULL);
    lds_GridMeshParams gp;
    lds_grid_mesh_params_init(&gp);
    lds_grid_set_blocked(g, 4, 4, true);
    m = lds_grid_to_navmesh(NULL, g, &gp, NULL, NULL);
    lds_grid_free(g);
  }
  s = lds_navsearch_new(NULL, m, NULL);
  random_point(m, a);
  CHECK(lds_navmesh_poly_count(m) < LDSI_NAV_LM_MIN_POLYS);
  (void)run(s, LDS_NAV_FUNNEL, true, a, a, NULL);
  CHECK(s->lm == NULL);
  lds_navsearch_free(s);
  {
    /* the same mesh scaled by 1e36: distances could pass the float tables'
    ** range, so none (and the searches still answer) */
    lds_Navmesh *big = rebuild(m, 1e36, false);
    double b[3];
    CHECK(big != NULL);
    if (big) {
      s = lds_navsearch_new(NULL, big, NULL);
      s->lm_min_polys = 0;
      a[0] = 0.5e36, a[1] = 0, a[2] = 0.5e36;
      b[0] = 9.5e36, b[1] = 0, b[2] = 9.5e36;
      CHECK_INT(run(s, LDS_NAV_OPTIMAL, true, a, b, NULL), LDS_FOUND);
      CHECK(s->lm == NULL);
      lds_navsearch_free(s);
      lds_navmesh_free(big);
    }
  }
  snprintf(mp, sizeof mp, "%s/data/navmesh/2d/den011d.nav", LDS_SHARED_DIR);
  m = lds_navmesh_load(NULL, mp, NULL);
  if (!m) {
    printf("  skipped: %s not found\n", mp);
    return;
  }
  s = lds_navsearch_new(NULL, m, NULL);
  random_point(m, a);
  (void)run(s, LDS_NAV_OPTIMAL, true, a, a, NULL);
  CHECK(s->lm != NULL && s->lm->nl == LDSI_NAV_LM_MAX);
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* A level exported as one unit square per free cell (W x W, a wall down
** the middle with a gap): merged rows of squares with many collinear
** vertices, many portals each. The landmark tables are not built (their
** picking and searches would take seconds: the build's budget), and the
** funnel query's portal states, which multiply there, give way to the
** optimal search (via_opt): its path is the shortest, legal, the same
** sliced and unsliced. */
static void cell_squares(void) {
  enum { W = 100 };
  double *v = (double *)malloc(sizeof(double) * 3 * (W + 1) * (W + 1));
  uint32_t *pv = (uint32_t *)malloc(sizeof(uint32_t) * 4 * W * W);
  uint32_t *ps = (uint32_t *)malloc(sizeof(uint32_t) * (W * W + 1));
  uint32_t np = 0, k = 0, x, z;
  lds_NavmeshDesc d;
  lds_Navmesh *m;
  lds_NavSearch *s, *ref;
  double a[3] = {0.5, 0, W - 0.5}, b[3] = {W - 0.5, 0, W - 0.5}, len_opt, clen = NAN;
  const double *pts;
  size_t npts = 0;
  for (z = 0; z <= W; z++)
    for (x = 0; x <= W; x++) v[3 * k] = x, v[3 * k + 1] = 0, v[3 * k + 2] = z, k++;
  ps[0] = 0;
  for (z = 0; z < W; z++)
    for (x = 0; x < W; x++) {
      uint32_t c = z * (W + 1) + x;
      if (x == W / 2 && z > 2) continue;
      pv[ps[np]] = c, pv[ps[np] + 1] = c + W + 1, pv[ps[np] + 2] = c + W + 2, pv[ps[np] + 3] = c + 1;
      ps[np + 1] = ps[np] + 4;
      np++;
    }
  memset(&d, 0, sizeof d);
  d.verts = v, d.n_verts = k, d.poly_verts = pv, d.poly_start = ps, d.n_polys = np;
  m = lds_navmesh_new(NULL, &d, NULL);
  CHECK(m != NULL);
  free(v), free(pv), free(ps);
  if (!m) return;
  s = lds_navsearch_new(NULL, m, NULL);
  ref = lds_navsearch_new(NULL, m, NULL);
  CHECK_INT(run(ref, LDS_NAV_OPTIMAL, true, a, b, NULL), LDS_FOUND);
  len_opt = lds_navsearch_length(ref);
  CHECK_INT(run(s, LDS_NAV_FUNNEL, true, a, b, NULL), LDS_FOUND);
  CHECK(s->fnp >= LDSI_NAV_LM_MIN_POLYS); /* big enough for tables, */
  CHECK(s->lm == NULL);                   /* but none */
  CHECK(s->via_opt);
  CHECK(fabs(lds_navsearch_length(s) - len_opt) <= 1e-9 * len_opt);
  CHECK(len_opt > 2 * (W - 3)); /* round the wall: the gap is at the bottom */
  pts = lds_navsearch_points(s, &npts);
  CHECK(pts && npts >= 3);
  if (pts) {
    double *copy = (double *)malloc(npts * 3 * sizeof(double));
    lds_NavParams p;
    lds_Budget bud;
    lds_Status st;
    size_t n2 = 0, steps = 0;
    const double *p2;
    size_t nc = 0;
    CHECK_INT(lds_navmesh_check_path(m, pts, npts, 1e-6, NULL, 0, &clen, NULL, NULL), LDS_OK);
    CHECK(fabs(clen - lds_navsearch_length(s)) <= 1e-9 * clen);
    CHECK(lds_navsearch_corridor(s, &nc) != NULL && nc >= 3); /* walked from the path */
    memcpy(copy, pts, npts * 3 * sizeof(double));
    /* sliced: 64 expansions a step, the switch in between */
    lds_nav_params_init(&p);
    p.snap_radius = 1e-6;
    memset(&bud, 0, sizeof bud);
    bud.max_expansions = 64;
    st = lds_navsearch_start(s, &p, a, b);
    while (st == LDS_RUNNING && steps < 100000) st = lds_navsearch_step(s, &bud), steps++;
    CHECK_INT(st, LDS_FOUND);
    CHECK(steps > 10);
    p2 = lds_navsearch_points(s, &n2);
    CHECK(n2 == npts && p2 && memcmp(p2, copy, npts * 3 * sizeof(double)) == 0);
    free(copy);
  }
  lds_navsearch_free(s);
  lds_navsearch_free(ref);
  lds_navmesh_free(m);
}

/* lds_navsearch_share_tables on den011d: the second search object takes
** the first one's tables instead of building its own (its allocator holds
** less by at least the tables' 64 bytes a vertex), answers the same, keeps
** them after the first is freed; refused while it runs a query, and
** between two meshes. */
static void share_tables(void) {
  char mp[512];
  lds_Navmesh *m, *m2;
  lds_NavSearch *s1, *s2, *s3;
  th_Alloc a2 = {0, 0, 0, 0}, a3 = {0, 0, 0, 0};
  lds_Env e2, e3;
  double a[3] = {103.5, 0, 39.5}, b[3] = {104.5, 0, 99.5};
  const double *p2, *p3;
  size_t n2, n3;
  snprintf(mp, sizeof mp, "%s/data/navmesh/2d/den011d.nav", LDS_SHARED_DIR);
  m = lds_navmesh_load(NULL, mp, NULL);
  if (!m) {
    printf("  skipped: %s not found\n", mp);
    return;
  }
  lds_env_init(&e2);
  e3 = e2;
  e2.alloc = th_alloc, e2.alloc_ud = &a2;
  e3.alloc = th_alloc, e3.alloc_ud = &a3;
  s1 = lds_navsearch_new(NULL, m, NULL);
  s2 = lds_navsearch_new(&e2, m, NULL);
  s3 = lds_navsearch_new(&e3, m, NULL);
  CHECK_INT(lds_navsearch_share_tables(s2, s1), LDS_OK); /* s1 has none yet: nothing */
  CHECK(s2->lm == NULL);
  CHECK_INT(run(s1, LDS_NAV_FUNNEL, true, a, b, NULL), LDS_FOUND);
  CHECK(s1->lm != NULL);
  CHECK_INT(lds_navsearch_share_tables(s2, s1), LDS_OK);
  CHECK(s2->lm == s1->lm);
  lds_navsearch_free(s1); /* s2 keeps the tables */
  CHECK_INT(run(s2, LDS_NAV_FUNNEL, true, a, b, NULL), LDS_FOUND);
  CHECK_INT(run(s3, LDS_NAV_FUNNEL, true, a, b, NULL), LDS_FOUND);
  CHECK(s3->lm != NULL && s3->lm != s2->lm);
  printf("  share_tables: %zu bytes held sharing, %zu building (%u vertices)\n", a2.live, a3.live,
         lds_navmesh_vertex_count(m));
  CHECK(a2.live + 64 * (size_t)lds_navmesh_vertex_count(m) <= a3.live);
  p2 = lds_navsearch_points(s2, &n2);
  p3 = lds_navsearch_points(s3, &n3);
  CHECK(p2 && p3 && n2 == n3 && memcmp(p2, p3, 3 * n2 * sizeof *p2) == 0);
  /* refused while s3 runs a query, and across meshes */
  {
    lds_NavParams p;
    lds_nav_params_init(&p);
    CHECK_INT(lds_navsearch_start(s3, &p, a, b), LDS_RUNNING);
    CHECK_INT(lds_navsearch_share_tables(s3, s2), LDS_E_STATE);
    CHECK_INT(lds_navsearch_step(s3, NULL), LDS_FOUND);
    CHECK_INT(lds_navsearch_share_tables(s3, s2), LDS_OK);
    CHECK(s3->lm == s2->lm);
  }
  m2 = lds_navmesh_load(NULL, mp, NULL);
  s1 = lds_navsearch_new(NULL, m2, NULL);
  CHECK_INT(lds_navsearch_share_tables(s1, s2), LDS_E_ARG);
  CHECK_INT(lds_navsearch_share_tables(NULL, s2), LDS_E_ARG);
  lds_navsearch_free(s1);
  lds_navsearch_free(s2);
  lds_navsearch_free(s3);
  lds_navmesh_free(m2);
  lds_navmesh_free(m);
  CHECK_INT(a2.live, 0);
  CHECK_INT(a3.live, 0);
}

void suite_navmesh_landmarks(void);
void suite_navmesh_landmarks(void) {
  share_tables();
  distances_and_bounds();
  searches_with_bounds();
  when_built();
  cell_squares();
}
