/* SPDX-License-Identifier: MIT */
/*
** test_navmesh.c — the navigation mesh and its searches: construction
** errors, parsers, point location, the funnel, both searches against an
** independent oracle (visibility graph over the mesh vertices + Dijkstra)
** on random grid-cell meshes, degenerate cases, slicing, and every shared
** query file (optimal: 0 mismatches against opt_len; funnel: legal paths;
** 3-D: reached exactly where Detour reached).
*/
#include "harness.h"

#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers -- */

static lds_Navmesh *mesh_from(const double *v, uint32_t nv, const uint32_t *idx,
                              const uint32_t *start, uint32_t np, const uint8_t *areas,
                              lds_Error *err) {
  lds_NavmeshDesc d;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = nv;
  d.poly_verts = idx;
  d.poly_start = start;
  d.n_polys = np;
  d.areas = areas;
  return lds_navmesh_new(NULL, &d, err);
}

static double path_len(lds_NavSearch *s, const lds_NavParams *p, const double *a,
                       const double *b, lds_Status *st_out) {
  lds_Status st = lds_navsearch_start(s, p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  if (st_out) *st_out = st;
  return st == LDS_FOUND ? lds_navsearch_length(s) : -1;
}

/* ------------------------------------------------------- construction -- */

static void test_validation(void) {
  lds_Error err;
  lds_Navmesh *m;
  double sq[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0};
  uint32_t idx[] = {0, 1, 2, 3}, st[] = {0, 4};
  uint32_t rev[] = {3, 2, 1, 0};
  double line[] = {0, 0, 0, 1, 0, 0, 2, 0, 0};
  uint32_t tri[] = {0, 1, 2}, st3[] = {0, 3};
  double dart[] = {0, 0, 0, 2, 0, 0, 1, 0, 0.2, 2, 0, 2, 0, 0, 2};
  uint32_t d5[] = {0, 1, 2, 3, 4}, st5[] = {0, 5};
  uint32_t badi[] = {0, 1, 7};
  uint32_t rep[] = {0, 1, 1, 2};
  double nan3[] = {0, 0, 0, 1, 0, NAN, 0, 0, 1};
  /* a good square, and the same square wound the other way: reversed */
  m = mesh_from(sq, 4, idx, st, 1, NULL, &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_poly_count(m), 1);
  CHECK_INT(lds_navmesh_locate(m, 0.5, 0, 0.5, -1), 0);
  CHECK_INT(lds_navmesh_locate(m, 1.5, 0, 0.5, -1), LDS_NAVMESH_NONE);
  lds_navmesh_free(m);
  m = mesh_from(sq, 4, rev, st, 1, NULL, &err);
  CHECK(m != NULL);
  {
    const uint32_t *vv;
    CHECK_INT(lds_navmesh_poly(m, 0, &vv, NULL), 4);
    CHECK_INT(vv[0], 3); /* reversed to the canonical winding: 3, 0, 1, 2 */
    CHECK_INT(vv[1], 0);
  }
  lds_navmesh_free(m);
  /* errors, each naming the problem */
  CHECK(mesh_from(line, 3, tri, st3, 1, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK(strstr(err.msg, "degenerate") != NULL);
  CHECK(mesh_from(dart, 5, d5, st5, 1, NULL, &err) == NULL);
  CHECK(strstr(err.msg, "not convex") != NULL);
  CHECK(mesh_from(sq, 4, badi, st3, 1, NULL, &err) == NULL);
  CHECK(strstr(err.msg, "vertex index 7 out of range") != NULL);
  CHECK(mesh_from(sq, 4, rep, st, 1, NULL, &err) == NULL);
  CHECK(strstr(err.msg, "repeated") != NULL);
  CHECK(mesh_from(nan3, 3, tri, st3, 1, NULL, &err) == NULL);
  CHECK(strstr(err.msg, "vertex 1") != NULL);
  CHECK(lds_navmesh_new(NULL, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  {
    /* a neighbour that does not link back */
    lds_NavmeshDesc d;
    double two[] = {0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 0, 0, 2, 0, 0, 2, 0, 1};
    uint32_t i2[] = {0, 1, 2, 3, 3, 2, 5, 4}, s2[] = {0, 4, 8};
    uint32_t nb[] = {LDS_NAVMESH_NONE, LDS_NAVMESH_NONE, 1, LDS_NAVMESH_NONE,
                     LDS_NAVMESH_NONE, LDS_NAVMESH_NONE, LDS_NAVMESH_NONE, LDS_NAVMESH_NONE};
    memset(&d, 0, sizeof d);
    d.verts = two;
    d.n_verts = 6;
    d.poly_verts = i2;
    d.poly_start = s2;
    d.n_polys = 2;
    d.neighbours = nb;
    CHECK(lds_navmesh_new(NULL, &d, &err) == NULL);
    CHECK(strstr(err.msg, "does not link back") != NULL);
    nb[4] = 0; /* polygon 1 edge 0 (3->2) back to polygon 0 */
    m = lds_navmesh_new(NULL, &d, &err);
    CHECK(m != NULL);
    CHECK_INT(lds_navmesh_piece_count(m), 1);
    lds_navmesh_free(m);
  }
}

static void test_parse(void) {
  lds_Error err;
  lds_Navmesh *m;
  const char *nav = "navmesh 1 4 1 4\n# c\nbounds 0 0 0 1 0 1\ncell 0.5 0.2\nagent 2 0 0\n"
                    "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\np 4 0 1 2 3 -1 -1 -1 -1 63\n";
  const char *obj = "# x\r\no m\r\nv 0 0 0\r\nv 0 0 1\r\nv 1 0 1\r\nv 1 0 0\r\nf 1/1 2/2 3//3 -1\r\n";
  m = lds_navmesh_parse(NULL, nav, strlen(nav), "a.nav", &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_poly_area(m, 0), 63);
  lds_navmesh_free(m);
  m = lds_navmesh_parse(NULL, obj, strlen(obj), "a.obj", &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_vertex_count(m), 4);
  lds_navmesh_free(m);
  CHECK(lds_navmesh_parse(NULL, "navmesh 2 0 0 3\n", 16, "x.nav", &err) == NULL);
  CHECK(strstr(err.msg, "x.nav:1: format version 2") != NULL);
  CHECK(lds_navmesh_parse(NULL, "navmesh 1 1 1 3\nv 0 0\n", 22, "x.nav", &err) == NULL);
  CHECK(strstr(err.msg, "x.nav:2: expected 'v X Y Z'") != NULL);
  CHECK(lds_navmesh_parse(NULL, "v 0 0 0\nf 1 2 3\n", 16, "y.obj", &err) == NULL);
  CHECK(strstr(err.msg, "y.obj:2: face vertex 2 out of range") != NULL);
  CHECK(lds_navmesh_parse(NULL, "v 0 0 0\nq\n", 10, "y.obj", &err) == NULL);
  CHECK(strstr(err.msg, "unknown OBJ statement 'q'") != NULL);
  CHECK(lds_navmesh_parse(NULL, "", 0, "e", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK(lds_navmesh_parse(NULL, "v 0\0 0", 6, "z", &err) == NULL);
  CHECK(strstr(err.msg, "binary data") != NULL);
  CHECK(lds_navmesh_load(NULL, "/nonexistent.nav", &err) == NULL);
  CHECK_INT(err.code, LDS_E_IO);
}

/* ------------------------------------------------------------- funnel -- */

static void test_funnel(void) {
  /* a straight corridor whose portals all lie on the line: no middle points */
  lds_Portal p[4];
  double s[3] = {0, 0, 0}, g[3] = {4, 0, 0}, out[30];
  size_t n, i;
  for (i = 0; i < 4; i++) {
    /* left = larger z in this frame's convention: cross(right - q, left - q) >= 0 */
    double x = (double)i + 0.5;
    p[i].left[0] = x, p[i].left[1] = 0, p[i].left[2] = 1;
    p[i].right[0] = x, p[i].right[1] = 0, p[i].right[2] = -1;
  }
  /* cross(right - q, left - q) with q = start: (0.5,-1) x (0.5,1) = 0.5 + 0.5 > 0 */
  CHECK_INT(lds_funnel(s, g, p, 4, out, 10, &n), LDS_OK);
  CHECK_INT(n, 2);
  /* portals narrowing to the line's point, collinear corners: still 2 points */
  for (i = 0; i < 4; i++) p[i].right[2] = 0;
  CHECK_INT(lds_funnel(s, g, p, 4, out, 10, &n), LDS_OK);
  CHECK_INT(n, 2);
  /* a bend: the third portal is above the line */
  for (i = 0; i < 4; i++) p[i].right[2] = -1;
  p[2].left[2] = 3, p[2].right[2] = 2;
  CHECK_INT(lds_funnel(s, g, p, 4, out, 10, &n), LDS_OK);
  CHECK_INT(n, 4); /* (0,0) (1.5,1) (2.5,2) (4,0) */
  CHECK_NEAR(out[3], 1.5, 1e-12); /* the left end of portal 1 */
  CHECK_NEAR(out[5], 1, 1e-12);
  CHECK_NEAR(out[6], 2.5, 1e-12); /* the right end of portal 2 */
  CHECK_NEAR(out[8], 2, 1e-12);
  CHECK_INT(lds_funnel(s, g, p, 4, out, 2, &n), LDS_E_LIMIT);
  CHECK_INT(n, 4);
  CHECK_INT(lds_funnel(NULL, g, p, 4, out, 10, &n), LDS_E_ARG);
}

/* ------------------------------------------- random meshes and oracle -- */

#define GW 9
#define GH 9

typedef struct Rng { uint64_t s; } Rng;
static uint32_t rnd(Rng *r) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(r->s >> 33);
}

typedef struct RMesh {
  double v[(GW + 1) * (GH + 1) * 3];
  uint32_t idx[GW * GH * 6], start[GW * GH * 2 + 1];
  uint32_t np, ni;
  int blocked[GH][GW];
} RMesh;

/* Free cells of a GW x GH grid (no pinch: a 2x2 block with exactly two
** diagonal blocked cells is opened), each a quad or two triangles. */
static void rmesh_make(RMesh *r, Rng *g) {
  int x, y, changed = 1;
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++) r->blocked[y][x] = rnd(g) % 100 < 28;
  while (changed) {
    changed = 0;
    for (y = 0; y + 1 < GH; y++)
      for (x = 0; x + 1 < GW; x++) {
        int a = r->blocked[y][x], b = r->blocked[y][x + 1], c = r->blocked[y + 1][x],
            d = r->blocked[y + 1][x + 1];
        if ((a && d && !b && !c) || (b && c && !a && !d)) {
          r->blocked[y][x] = r->blocked[y][x + 1] = 0;
          changed = 1;
        }
      }
  }
  for (y = 0; y <= GH; y++)
    for (x = 0; x <= GW; x++) {
      double *p = r->v + 3 * (y * (GW + 1) + x);
      p[0] = x, p[1] = 0, p[2] = y;
    }
  r->np = r->ni = 0;
  r->start[0] = 0;
  for (y = 0; y < GH; y++)
    for (x = 0; x < GW; x++) {
      uint32_t a = (uint32_t)(y * (GW + 1) + x), b = a + 1, c = a + GW + 1, d = c + 1;
      if (r->blocked[y][x]) continue;
      /* canonical winding (negative shoelace in x-z): a, c, d, b */
      switch (rnd(g) % 3) {
        case 0:
          r->idx[r->ni++] = a, r->idx[r->ni++] = c, r->idx[r->ni++] = d, r->idx[r->ni++] = b;
          r->start[++r->np] = r->ni;
          break;
        case 1:
          r->idx[r->ni++] = a, r->idx[r->ni++] = c, r->idx[r->ni++] = d;
          r->start[++r->np] = r->ni;
          r->idx[r->ni++] = a, r->idx[r->ni++] = d, r->idx[r->ni++] = b;
          r->start[++r->np] = r->ni;
          break;
        default:
          r->idx[r->ni++] = a, r->idx[r->ni++] = c, r->idx[r->ni++] = b;
          r->start[++r->np] = r->ni;
          r->idx[r->ni++] = c, r->idx[r->ni++] = d, r->idx[r->ni++] = b;
          r->start[++r->np] = r->ni;
          break;
      }
    }
}

/* Oracle's point test: (x, z) in a free cell's closed square. */
static int in_free(const RMesh *r, double x, double z) {
  int cx, cy, dx, dy;
  for (dy = -1; dy <= 0; dy++)
    for (dx = -1; dx <= 0; dx++) {
      cx = (int)floor(x + 1e-12 * dx) , cy = (int)floor(z + 1e-12 * dy);
      if (cx >= 0 && cy >= 0 && cx < GW && cy < GH && !r->blocked[cy][cx] &&
          x >= cx - 1e-12 && x <= cx + 1 + 1e-12 && z >= cy - 1e-12 && z <= cy + 1 + 1e-12)
        return 1;
    }
  return 0;
}

/* Oracle's visibility: the segment stays in the union of the free cells
** (closed squares): cut it at every grid line it crosses, and test the
** midpoint of each piece and every cut point. Independent of the mesh. */
static int visible(const RMesh *r, const double *a, const double *b) {
  double ts[4 * (GW + GH) + 8];
  int n = 0, i, j, k;
  ts[n++] = 0;
  ts[n++] = 1;
  for (k = 0; k <= GW; k++)
    if (b[0] != a[0]) {
      double t = (k - a[0]) / (b[0] - a[0]);
      if (t > 0 && t < 1) ts[n++] = t;
    }
  for (k = 0; k <= GH; k++)
    if (b[2] != a[2]) {
      double t = (k - a[2]) / (b[2] - a[2]);
      if (t > 0 && t < 1) ts[n++] = t;
    }
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && ts[j - 1] > ts[j]; j--) {
      double t = ts[j];
      ts[j] = ts[j - 1];
      ts[j - 1] = t;
    }
  for (i = 0; i < n; i++) {
    double t = ts[i];
    if (!in_free(r, a[0] + t * (b[0] - a[0]), a[2] + t * (b[2] - a[2]))) return 0;
    if (i + 1 < n) {
      double u = 0.5 * (ts[i] + ts[i + 1]);
      double x = a[0] + u * (b[0] - a[0]), z = a[2] + u * (b[2] - a[2]);
      /* in a free cell's closed square (along a wall is legal) */
      int ok = in_free(r, x, z);
      if (!ok) return 0;
    }
  }
  return 1;
}

/* Dijkstra over start, goal and the grid points of free cells. */
static double oracle(const RMesh *r, const double *s, const double *g) {
  enum { NV = (GW + 1) * (GH + 1) + 2 };
  double pts[NV][3], dist[NV];
  int done[NV], n = 0, i, k;
  int x, y;
  memcpy(pts[n++], s, sizeof pts[0]);
  memcpy(pts[n++], g, sizeof pts[0]);
  for (y = 0; y <= GH; y++)
    for (x = 0; x <= GW; x++)
      if (in_free(r, x, y)) pts[n][0] = x, pts[n][1] = 0, pts[n][2] = y, n++;
  for (i = 0; i < n; i++) dist[i] = INFINITY, done[i] = 0;
  dist[0] = 0;
  for (k = 0; k < n; k++) {
    int u = -1;
    for (i = 0; i < n; i++)
      if (!done[i] && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0 || !isfinite(dist[u])) break;
    if (u == 1) return dist[1];
    done[u] = 1;
    for (i = 0; i < n; i++) {
      double d;
      if (done[i]) continue;
      d = dist[u] + hypot(pts[i][0] - pts[u][0], pts[i][2] - pts[u][2]);
      if (d < dist[i] && visible(r, pts[u], pts[i])) dist[i] = d;
    }
  }
  return isfinite(dist[1]) ? dist[1] : -1;
}

static void test_random(void) {
  Rng g = {12345};
  int it, q, mism = 0, funnel_short = 0, illegal = 0, reach = 0, cases = 0;
  RMesh *r = (RMesh *)malloc(sizeof *r);
  lds_NavParams po, pf;
  lds_nav_params_init(&po);
  lds_nav_params_init(&pf);
  po.algo = LDS_NAV_OPTIMAL;
  po.snap_radius = pf.snap_radius = 0;
  for (it = 0; it < 40; it++) {
    lds_Error err;
    lds_Navmesh *m;
    lds_NavSearch *s;
    rmesh_make(r, &g);
    m = mesh_from(r->v, (GW + 1) * (GH + 1), r->idx, r->start, r->np, NULL, &err);
    CHECK(m != NULL);
    if (!m) break;
    s = lds_navsearch_new(NULL, m, &err);
    for (q = 0; q < 12; q++) {
      double a[3], b[3], want, lo, lf;
      lds_Status st;
      int kind = (int)(rnd(&g) % 4);
      /* points: cell centres, grid points (vertices) or on cell sides */
      a[0] = (rnd(&g) % (GW * 2 + 1)) * 0.5, a[1] = 0, a[2] = (rnd(&g) % (GH * 2 + 1)) * 0.5;
      b[0] = (rnd(&g) % (GW * 2 + 1)) * 0.5, b[1] = 0, b[2] = (rnd(&g) % (GH * 2 + 1)) * 0.5;
      if (kind == 0) a[0] = floor(a[0]) + 0.37, b[2] = floor(b[2]) + 0.61;
      if (!in_free(r, a[0], a[2]) || !in_free(r, b[0], b[2])) {
        /* outside the mesh: a clear error, no crash */
        if (lds_navmesh_locate(m, a[0], 0, a[2], -1) == LDS_NAVMESH_NONE) {
          CHECK_INT(lds_navsearch_start(s, &po, a, b), LDS_E_ARG);
          CHECK(strstr(lds_navsearch_errmsg(s), "not on the mesh") != NULL);
        }
        continue;
      }
      cases++;
      want = oracle(r, a, b);
      lo = path_len(s, &po, a, b, &st);
      if (want < 0) {
        if (st != LDS_NO_PATH) mism++;
        lf = path_len(s, &pf, a, b, &st);
        if (st != LDS_NO_PATH) mism++;
        continue;
      }
      reach++;
      if (!(fabs(lo - want) <= 1e-9 * (1 + want))) {
        mism++;
        if (mism < 4) printf("  oracle %.9f, optimal %.9f (mesh %d query %d)\n", want, lo, it, q);
      } else {
        size_t n;
        const double *pts = lds_navsearch_points(s, &n);
        if (lds_navmesh_check_path(m, pts, n, -1, NULL, 0, NULL, NULL, NULL) != LDS_OK) illegal++;
      }
      lf = path_len(s, &pf, a, b, &st);
      if (st != LDS_FOUND) {
        mism++;
      } else {
        size_t n;
        const double *pts = lds_navsearch_points(s, &n);
        if (lf < want - 1e-9 * (1 + want)) funnel_short++;
        if (lds_navmesh_check_path(m, pts, n, -1, NULL, 0, NULL, NULL, NULL) != LDS_OK) illegal++;
      }
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
  free(r);
  CHECK(cases > 200);
  CHECK(reach > 100);
  CHECK_INT(mism, 0);
  CHECK_INT(funnel_short, 0);
  CHECK_INT(illegal, 0);
}

/* --------------------------------------------------------- degenerate -- */

static void test_degenerate(void) {
  /* a fan of slivers and a polygon with a collinear vertex */
  double v[] = {0, 0, 0, 0, 0, 4, 4, 0, 4, 4, 0, 0, 2, 0, 0, 8, 0, 0, 8, 0, 1e-7, 6, 0, 4};
  /* quad 0,1,2,3 with 4 on its bottom side (collinear): 0,1,2,3,4 ; sliver 3,2,7? */
  uint32_t idx[] = {0, 1, 2, 3, 4, 3, 2, 7, 6, 5}, st[] = {0, 5, 10};
  lds_Error err;
  lds_Navmesh *m = mesh_from(v, 8, idx, st, 2, NULL, &err);
  lds_NavSearch *s;
  lds_NavParams p;
  double a[3] = {1, 0, 1}, b[3] = {7.9, 0, 0.05}, c[3] = {4, 0, 4}, e[3] = {2, 0, 0};
  double l;
  lds_Status stt;
  int algo;
  CHECK(m != NULL);
  if (!m) {
    printf("  %s\n", err.msg);
    return;
  }
  s = lds_navsearch_new(NULL, m, &err);
  lds_nav_params_init(&p);
  for (algo = 0; algo < 2; algo++) {
    p.algo = (lds_NavAlgo)algo;
    /* start == goal */
    l = path_len(s, &p, a, a, &stt);
    CHECK_INT(stt, LDS_FOUND);
    CHECK_NEAR(l, 0, 1e-12);
    /* goal on a vertex (4, 4) and on the collinear vertex (2, 0) */
    l = path_len(s, &p, a, c, &stt);
    CHECK_INT(stt, LDS_FOUND);
    CHECK_NEAR(l, hypot(3, 3), 1e-9);
    l = path_len(s, &p, a, e, &stt);
    CHECK_NEAR(l, hypot(1, 1), 1e-9);
    /* into the sliver */
    l = path_len(s, &p, a, b, &stt);
    CHECK_INT(stt, LDS_FOUND);
    CHECK(l > 0);
    {
      size_t n;
      const double *pts = lds_navsearch_points(s, &n);
      CHECK_INT(lds_navmesh_check_path(m, pts, n, -1, NULL, 0, NULL, NULL, NULL), LDS_OK);
    }
  }
  /* outside, NaN */
  {
    double out[3] = {50, 0, 50}, bad[3] = {NAN, 0, 0};
    CHECK_INT(lds_navsearch_start(s, &p, a, out), LDS_E_ARG);
    CHECK_INT(lds_navsearch_start(s, &p, bad, a), LDS_E_ARG);
    CHECK_INT(lds_navsearch_step(s, NULL), LDS_E_ARG);
    CHECK_INT(lds_navmesh_nearest(m, bad, 1, -1, NULL), LDS_NAVMESH_NONE);
    CHECK_INT(lds_navmesh_nearest(m, out, 1, -1, NULL), LDS_NAVMESH_NONE);
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* --------------------------------------------------------- sliced --- */

static void test_sliced(const lds_Navmesh *m, const double *a, const double *b) {
  lds_NavSearch *s1 = lds_navsearch_new(NULL, m, NULL), *s2 = lds_navsearch_new(NULL, m, NULL);
  lds_NavParams p;
  int algo;
  lds_nav_params_init(&p);
  for (algo = 0; algo < 2; algo++) {
    lds_Budget bud = {1, 0};
    lds_Status st;
    int steps = 0;
    size_t n1, n2;
    const double *p1, *p2;
    lds_Stats stats;
    p.algo = (lds_NavAlgo)algo;
    CHECK_INT(lds_navsearch_start(s1, &p, a, b), LDS_RUNNING);
    CHECK_INT(lds_navsearch_step(s1, NULL), LDS_FOUND);
    CHECK_INT(lds_navsearch_start(s2, &p, a, b), LDS_RUNNING);
    while ((st = lds_navsearch_step(s2, &bud)) == LDS_RUNNING) steps++;
    CHECK_INT(st, LDS_FOUND);
    CHECK(steps > 5);
    lds_navsearch_stats(s2, &stats);
    CHECK_INT(stats.expansions, (uint64_t)steps + 1);
    p1 = lds_navsearch_points(s1, &n1);
    p2 = lds_navsearch_points(s2, &n2);
    CHECK_INT(n1, n2);
    CHECK(p1 && p2 && memcmp(p1, p2, 3 * n1 * sizeof(double)) == 0);
  }
  lds_navsearch_free(s1);
  lds_navsearch_free(s2);
}

/* Sliced equals unsliced, bit for bit, on every query of a shared mesh:
** budgets of 1, 2 and 3 expansions a step against one unsliced step, in
** the optimal mode and both funnel modes. The optimal search's chains of
** lone successors cut by a budget must resume where they stopped, or of
** two mirror-image shortest paths round arena's pillars (the first two
** queries, checked besides the shared file's) a sliced query may take the
** other one. */
static int sliced_diff(lds_NavSearch *s1, lds_NavSearch *s2, const lds_NavParams *p,
                       const double *a, const double *b) {
  int diff = 0;
  uint64_t bud;
  lds_Status st1 = lds_navsearch_start(s1, p, a, b);
  size_t n1, n2;
  const double *p1;
  if (st1 == LDS_RUNNING) st1 = lds_navsearch_step(s1, NULL);
  p1 = lds_navsearch_points(s1, &n1);
  for (bud = 1; bud <= 3; bud++) {
    lds_Budget B = {bud, 0};
    lds_Status st = lds_navsearch_start(s2, p, a, b);
    const double *p2;
    while (st == LDS_RUNNING) st = lds_navsearch_step(s2, &B);
    p2 = lds_navsearch_points(s2, &n2);
    if (st != st1 || n1 != n2 || (n1 && memcmp(p1, p2, 3 * n1 * sizeof(double)) != 0)) diff++;
  }
  return diff;
}

static void test_sliced_all(const char *mesh, const char *queries) {
  char mp[512], qp[512], line[512];
  lds_Navmesh *m;
  lds_NavSearch *s1, *s2;
  FILE *f;
  int n = 0, diff = 0, mode;
  lds_NavParams p[3];
  snprintf(mp, sizeof mp, "%s/data/navmesh/%s", LDS_SHARED_DIR, mesh);
  snprintf(qp, sizeof qp, "%s/data/navmesh/%s", LDS_SHARED_DIR, queries);
  m = lds_navmesh_load(NULL, mp, NULL);
  if (!m) {
    printf("  skipped: %s not found\n", mp);
    return;
  }
  s1 = lds_navsearch_new(NULL, m, NULL);
  s2 = lds_navsearch_new(NULL, m, NULL);
  for (mode = 0; mode < 3; mode++) lds_nav_params_init(&p[mode]);
  p[0].algo = LDS_NAV_OPTIMAL;
  p[2].thorough = false;
  {
    static const double q[2][6] = {{27, 0, 11, 21.5, 0, 5.5}, {34, 0, 18, 28.5, 0, 12.5}};
    if (strstr(mesh, "arena"))
      for (mode = 0; mode < 3; mode++) diff += sliced_diff(s1, s2, &p[mode], q[0], q[0] + 3) +
                                               sliced_diff(s1, s2, &p[mode], q[1], q[1] + 3);
  }
  f = fopen(qp, "r");
  while (f && fgets(line, sizeof line, f)) {
    double v[6];
    if (sscanf(line, "%lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]) != 6) continue;
    n++;
    for (mode = 0; mode < 3; mode++) diff += sliced_diff(s1, s2, &p[mode], v, v + 3);
  }
  if (f) fclose(f);
  printf("  sliced = unsliced: %s, %d queries x 3 modes x 3 budgets, %d differ\n", mesh, n, diff);
  CHECK(n >= 160);
  CHECK_INT(diff, 0);
  lds_navsearch_free(s1);
  lds_navsearch_free(s2);
  lds_navmesh_free(m);
}

/* ---------------------------------------------------- shared query files -- */

static void run_file(const char *mesh, const char *queries, int is3d) {
  char mp[512], qp[512];
  lds_Error err;
  lds_Navmesh *m;
  lds_NavSearch *s;
  FILE *f;
  char line[512];
  int n = 0, mism = 0, illegal = 0, missed = 0, extra = 0;
  lds_NavParams po, pf;
  snprintf(mp, sizeof mp, "%s/data/navmesh/%s", LDS_SHARED_DIR, mesh);
  snprintf(qp, sizeof qp, "%s/data/navmesh/%s", LDS_SHARED_DIR, queries);
  f = fopen(qp, "r");
  if (!f) {
    printf("  skipped: %s not found\n", qp);
    return;
  }
  m = lds_navmesh_load(NULL, mp, &err);
  CHECK(m != NULL);
  if (!m) {
    fclose(f);
    return;
  }
  s = lds_navsearch_new(NULL, m, &err);
  lds_nav_params_init(&po);
  lds_nav_params_init(&pf);
  po.algo = LDS_NAV_OPTIMAL;
  while (fgets(line, sizeof line, f)) {
    double v[9] = {0};
    int k = sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3],
                   &v[4], &v[5], &v[6], &v[7], &v[8]);
    lds_Status st;
    double l;
    size_t np;
    const double *pts;
    if (k < 8) continue;
    n++;
    if (n == 150 && !is3d) test_sliced(m, v, v + 3);
    l = path_len(s, &pf, v, v + 3, &st);
    if (st == LDS_FOUND) {
      pts = lds_navsearch_points(s, &np);
      if (lds_navmesh_check_path(m, pts, np, 0, NULL, 0, NULL, NULL, NULL) != LDS_OK) illegal++;
      if (v[6] < 0) extra++;
    } else if (v[6] >= 0) {
      missed++;
    }
    if (k == 9) {
      l = path_len(s, &po, v, v + 3, &st);
      if (st != LDS_FOUND || fabs(l - v[8]) > fmax(1e-6 * v[8], 5e-7)) mism++;
      if (st == LDS_FOUND) {
        pts = lds_navsearch_points(s, &np);
        if (lds_navmesh_check_path(m, pts, np, 0, NULL, 0, NULL, NULL, NULL) != LDS_OK) illegal++;
      }
    }
  }
  fclose(f);
  if (mism || illegal || missed || extra)
    printf("  %s: %d queries, %d mismatches, %d illegal, %d missed, %d extra\n", mesh, n, mism,
           illegal, missed, extra);
  CHECK(n >= 160);
  CHECK_INT(mism, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(missed, 0);
  CHECK_INT(extra, 0);
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

static void test_shared(void) {
  static const char *const maps[] = {"arena", "den011d", "brc202d", "AR0011SR", "maze512-32-0",
                                     "32room_000"};
  static const char *const levels[] = {"dungeon", "nav_test", "undulating"};
  size_t i;
  for (i = 0; i < sizeof maps / sizeof *maps; i++) {
    char a[128], b[128];
    snprintf(a, sizeof a, "2d/%s.nav", maps[i]);
    snprintf(b, sizeof b, "2d/%s.queries", maps[i]);
    run_file(a, b, 0);
    snprintf(a, sizeof a, "2d/%s.monotone.nav.obj", maps[i]); /* the OBJ loader too */
    snprintf(b, sizeof b, "2d/%s.monotone.queries", maps[i]);
    run_file(a, b, 0);
  }
  for (i = 0; i < sizeof levels / sizeof *levels; i++) {
    char a[128], b[128];
    snprintf(a, sizeof a, "3d/%s.nav", levels[i]);
    snprintf(b, sizeof b, "3d/%s.queries", levels[i]);
    run_file(a, b, 1);
  }
  test_sliced_all("2d/arena.nav", "2d/arena.queries");
  test_sliced_all("2d/arena.monotone.nav", "2d/arena.monotone.queries");
  test_sliced_all("3d/dungeon.nav", "3d/dungeon.queries");
  test_sliced_all("2d/den011d.nav", "2d/den011d.queries"); /* large enough for landmark bounds */
}

void suite_navmesh(void);
void suite_navmesh(void) {
  test_validation();
  test_parse();
  test_funnel();
  test_random();
  test_degenerate();
  test_shared();
}
