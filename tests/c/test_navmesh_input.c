/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_input.c — what the mesh accepts and how it says no: a mesh
** without polygons (arrays, .nav, OBJ), coordinates at the ends of the
** supported range, OBJ face indices reported as written, the line of a
** file holding only comments, snapping from points far off the mesh, and
** the height of every point of a checked path.
*/
#include "harness.h"

#include "lds.h"
#include "lds_io.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static lds_Navmesh *square(double x0, double x1, lds_Error *err) {
  double v[] = {x0, 0, x0, x0, 0, x1, x1, 0, x1, x1, 0, x0};
  uint32_t idx[] = {0, 1, 2, 3}, st[] = {0, 4};
  lds_NavmeshDesc d;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 4;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = 1;
  return lds_navmesh_new(NULL, &d, err);
}

static lds_Navmesh *parse(const char *text, const char *name, lds_Error *err) {
  return lds_navmesh_parse(NULL, text, strlen(text), name, err);
}

/* A mesh has a polygon: the arrays, a .nav header and an OBJ without faces
** are errors, not empty meshes. */
static void test_no_polygons(void) {
  lds_Error err;
  double v[] = {0, 0, 0, 0, 0, 1, 1, 0, 1};
  uint32_t st[] = {0};
  lds_NavmeshDesc d;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 3;
  d.poly_start = st;
  CHECK(lds_navmesh_new(NULL, &d, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_navmesh_new: no polygons (expected at least one)");
  CHECK(parse("navmesh 1 0 0 6\n", "h.nav", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "h.nav:1: NPOLYS 0 (expected at least one polygon)");
  CHECK(parse("# c\no navmesh\n", "o.obj", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "o.obj:2: no faces (expected at least one 'f' line)");
  CHECK(parse("v 0 0 0\nv 0 0 1\n", "v.obj", &err) == NULL);
  CHECK_STR(err.msg, "v.obj:2: no faces (expected at least one 'f' line)");
  /* a file of one comment line: its line 1, not 2 */
  CHECK(parse("# just a comment\n", "c.obj", &err) == NULL);
  CHECK_STR(err.msg, "c.obj:1: only blank lines and comments (expected a .nav header "
                     "'navmesh 1 ...' or OBJ 'v'/'f' lines)");
  CHECK(parse("", "e.obj", &err) == NULL);
  CHECK_CONTAINS(err.msg, "e.obj:1: empty file");
}

/* Face indices as written, and the valid range, even where the relative
** index arithmetic would wrap. */
static void test_obj_indices(void) {
  lds_Error err;
  lds_Navmesh *m;
  const char *v4 = "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n";
  char buf[256];
  snprintf(buf, sizeof buf, "%sf -5 1 2 3\n", v4);
  CHECK(parse(buf, "n.obj", &err) == NULL);
  CHECK_STR(err.msg, "n.obj:5: face vertex -5 out of range (expected 1..4, or -4..-1 from the "
                     "end: the vertices so far)");
  CHECK(parse("v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 -2147483648\n", "i.obj", &err) == NULL);
  CHECK_CONTAINS(err.msg, "i.obj:4: face vertex -2147483648 out of range (expected 1..3");
  { /* the most negative long (32 bits on Windows), whose negation wraps */
    char want[96];
    snprintf(buf, sizeof buf, "v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 %ld\n", LONG_MIN);
    snprintf(want, sizeof want, "l.obj:4: face vertex %ld out of range", LONG_MIN);
    CHECK(parse(buf, "l.obj", &err) == NULL);
    CHECK_CONTAINS(err.msg, want);
  }
  CHECK(parse("f 1 2 3\n", "z.obj", &err) == NULL);
  CHECK_STR(err.msg, "z.obj:1: face vertex 1 out of range (no vertices so far)");
  snprintf(buf, sizeof buf, "%sf 1 2 3 5\n", v4);
  CHECK(parse(buf, "p.obj", &err) == NULL);
  CHECK_CONTAINS(err.msg, "p.obj:5: face vertex 5 out of range (expected 1..4,");
  snprintf(buf, sizeof buf, "%sf -4 -3 -2 -1\n", v4); /* still fine */
  m = parse(buf, "ok.obj", &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_poly_count(m), 1);
  lds_navmesh_free(m);
}

/* The area test neither overflows nor underflows; coordinates past the
** supported range are refused as such, not as "degenerate". */
static void test_coordinate_range(void) {
  lds_Error err;
  lds_Navmesh *m = square(-1e150, 1e150, &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_locate(m, 1e149, 0, -1e149, -1), 0);
  lds_navmesh_free(m);
  m = square(0, 1e-140, &err); /* tiny, within range: its area 1e-280 */
  CHECK(m != NULL);
  lds_navmesh_free(m);
  CHECK(square(-1e300, 1e300, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_navmesh_new: vertex 0: coordinate 0 is -1e+300 (expected "
                     "-1e+150..1e+150, the supported range)");
  CHECK(square(0, 1e-300, &err) == NULL);
  CHECK_CONTAINS(err.msg, "every x and z coordinate within 1e-300 of 0 (expected a mesh of size "
                          "at least 1e-150");
}

/* Snapping from far away: distances past 1e154 would overflow squared. */
static void test_nearest_far(void) {
  lds_Error err;
  lds_Navmesh *m = square(0, 1, &err);
  double pt[3] = {-1e200, 0, 0.5}, q[3] = {0, 0, 0};
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_nearest(m, pt, 1e300, -1, q), 0);
  CHECK_NEAR(q[0], 0, 1e-12);
  CHECK_NEAR(q[2], 0.5, 1e-12);
  /* 1.41e308 away: finite, its square not; every point of the square is
  ** as near in doubles, the one found is on the square's boundary */
  pt[0] = 1e308, pt[2] = -1e308;
  q[0] = q[2] = NAN;
  CHECK_INT(lds_navmesh_nearest(m, pt, 1.7e308, -1, q), 0);
  CHECK(q[0] >= 0 && q[0] <= 1 && q[2] >= 0 && q[2] <= 1);
  CHECK(q[0] == 0 || q[0] == 1 || q[2] == 0 || q[2] == 1);
  pt[0] = -1e200, pt[2] = 0.5;
  CHECK_INT(lds_navmesh_nearest(m, pt, 1e199, -1, q), LDS_NAVMESH_NONE); /* beyond the radius */
  lds_navmesh_free(m);
}

/* Every point of a checked path lies within height_tol of the surface of
** the polygon the walk reaches it in, not only the first. */
static void test_check_heights(void) {
  lds_Error err;
  char msg[LDS_ERRMSG_SIZE];
  /* a ramp: y = x over the unit square */
  double v[] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0};
  uint32_t idx[] = {0, 1, 2, 3}, st[] = {0, 4};
  lds_NavmeshDesc d;
  lds_Navmesh *m;
  double up[] = {0.5, 0, 0.5, 0.5, 10, 0.5};              /* the floor, then 10 above it */
  double ramp[] = {0.1, 0.1, 0.5, 0.5, 0.5, 0.2, 0.9, 0.9, 0.8}; /* on the surface */
  double low[] = {0.1, 0.1, 0.5, 0.5, 0.5, 0.2, 0.9, 0.8, 0.8};  /* point 2 0.1 below */
  double eps[] = {0.5, 0.5 + 1e-12, 0.5, 0.7, 0.7, 0.5};  /* rounding: 1e-12 above */
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 4;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = 1;
  m = lds_navmesh_new(NULL, &d, &err);
  CHECK(m != NULL);
  if (!m) return;
  CHECK_INT(lds_navmesh_check_path(m, up, 2, 0.5, NULL, 0, NULL, NULL, msg), LDS_E_ARG);
  CHECK_STR(msg, "point 1 (0.5, 10, 0.5) is 9.5 above the surface of polygon 0 (height 0.5 there; "
                 "expected within height_tol 0.5)");
  CHECK_INT(lds_navmesh_check_path(m, up, 2, 0, NULL, 0, NULL, NULL, msg), LDS_E_ARG);
  CHECK_STR(msg, "point 0 (0.5, 0, 0.5) is 0.5 below the surface of polygon 0 (height 0.5 there; "
                 "expected within height_tol 0)");
  up[0] = 5;
  CHECK_INT(lds_navmesh_check_path(m, up, 2, 0, NULL, 0, NULL, NULL, msg), LDS_E_ARG);
  CHECK_STR(msg, "point 0 (5, 0, 0.5) is not on the mesh");
  up[0] = 0.5;
  CHECK_INT(lds_navmesh_check_path(m, up, 2, 10, NULL, 0, NULL, NULL, msg), LDS_OK);
  CHECK_INT(lds_navmesh_check_path(m, up, 2, -1, NULL, 0, NULL, NULL, msg), LDS_OK); /* any */
  CHECK_INT(lds_navmesh_check_path(m, ramp, 3, 0, NULL, 0, NULL, NULL, msg), LDS_OK);
  CHECK_INT(lds_navmesh_check_path(m, low, 3, 0.05, NULL, 0, NULL, NULL, msg), LDS_E_ARG);
  CHECK_CONTAINS(msg, "point 2 (0.9, 0.8, 0.8) is 0.1 below the surface of polygon 0 (height 0.9");
  CHECK_INT(lds_navmesh_check_path(m, low, 3, 0.2, NULL, 0, NULL, NULL, msg), LDS_OK);
  CHECK_INT(lds_navmesh_check_path(m, eps, 2, 0, NULL, 0, NULL, NULL, msg), LDS_OK);
  lds_navmesh_free(m);
}

/* The paths of both searches on the 3-D levels: every point on the surface
** (height_tol 0, within the rounding the checker allows). */
static void test_own_paths_on_surface(void) {
  static const char *const levels[] = {"dungeon", "nav_test", "undulating"};
  size_t i;
  for (i = 0; i < sizeof levels / sizeof *levels; i++) {
    char mp[512], qp[512], line[512];
    lds_Error err;
    lds_Navmesh *m;
    lds_NavSearch *s;
    lds_NavParams pr[2];
    FILE *f;
    int found = 0, bad = 0, a;
    snprintf(mp, sizeof mp, "%s/data/navmesh/3d/%s.nav", LDS_SHARED_DIR, levels[i]);
    snprintf(qp, sizeof qp, "%s/data/navmesh/3d/%s.queries", LDS_SHARED_DIR, levels[i]);
    f = fopen(qp, "r");
    if (!f) {
      printf("  skipped: %s not found\n", qp);
      continue;
    }
    m = lds_navmesh_load(NULL, mp, &err);
    CHECK(m != NULL);
    s = m ? lds_navsearch_new(NULL, m, &err) : NULL;
    lds_nav_params_init(&pr[0]);
    lds_nav_params_init(&pr[1]);
    pr[1].algo = LDS_NAV_OPTIMAL;
    while (s && fgets(line, sizeof line, f)) {
      double q[6];
      if (sscanf(line, "%lf %lf %lf %lf %lf %lf", &q[0], &q[1], &q[2], &q[3], &q[4], &q[5]) != 6)
        continue;
      for (a = 0; a < 2; a++) {
        lds_Status st = lds_navsearch_start(s, &pr[a], q, q + 3);
        size_t np;
        const double *pts;
        if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
        if (st != LDS_FOUND) continue;
        found++;
        pts = lds_navsearch_points(s, &np);
        if (lds_navmesh_check_path(m, pts, np, 0, NULL, 0, NULL, NULL, NULL) != LDS_OK) bad++;
      }
    }
    fclose(f);
    CHECK(found > 200);
    CHECK_INT(bad, 0);
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
}

/* Per-field .nav and OBJ errors show the field and the bad value; numbers
** are decimal only; a polygon lds_navmesh_new refuses is reported at its
** line. */
static void test_field_errors(void) {
  static const struct {
    const char *p, *msg;
  } nav[] = {
      {"p 4 0 1 2 -3 -1 -1 -1 -1 0", "polygon 0, vertex 4 of 4: '-3' is not a vertex id "
                                      "(expected an integer in 0..3)"},
      {"p 4 0 1 2 3.5 -1 -1 -1 -1 0", "polygon 0, vertex 4 of 4: '3.5' is not a vertex id "
                                       "(expected an integer in 0..3)"},
      {"p 4 0 1 2 9 -1 -1 -1 -1 0", "polygon 0, vertex 4 of 4: '9' is not a vertex id "
                                     "(expected an integer in 0..3)"},
      {"p 4 0 1", "polygon 0, vertex 3 of 4: missing (expected an integer in 0..3)"},
      {"p 4 0 1 2 3 -1 -1 -1 7 0", "polygon 0, neighbour 4 of 4: '7' is not a polygon id "
                                    "(expected -1 or an integer in 0..0)"},
      {"p 4 0 1 2 3 -1 -1 -1 -1 300", "polygon 0: area id '300' (expected an integer in 0..255)"},
      {"p 9 0 1 2", "polygon 0: '9' is not a vertex count (expected 'p N ...' with N an integer "
                    "in 3..4)"},
  };
  static const struct {
    const char *text, *msg;
  } other[] = {
      {"navmesh 1 4 1 4\nv 0x10 0 1\n", "t.nav:2: v X: '0x10' is not a finite decimal number "
                                         "(expected 'v X Y Z')"},
      {"navmesh 1 4 1 4\nv 0 inf 1\n", "t.nav:2: v Y: 'inf' is not a finite decimal number "
                                        "(expected 'v X Y Z')"},
      {"navmesh 1 4 1 4\nv 0 0 nan\n", "t.nav:2: v Z: 'nan' is not a finite decimal number "
                                        "(expected 'v X Y Z')"},
      {"navmesh 1 4 1 4\ncell 0.5 0x1p2\n", "t.nav:2: 'cell', number 2 of 2: '0x1p2' is not a "
                                             "finite decimal number"},
      {"navmesh 1 x 1 4\n", "t.nav:1: NVERTS 'x' is not a non-negative integer (expected "
                            "'navmesh 1 NVERTS NPOLYS NVP')"},
      {"navmesh 1 0 1 3\np 3 0 1 2 -1 -1 -1 0\n", "t.nav:2: polygon 0, vertex 1 of 3: '0' is not "
                                                  "a vertex id (the mesh has no vertices)"},
      {"v 0x10 0 0\n", "t.nav:1: v X: '0x10' is not a finite decimal number (expected 'v X Y Z')"},
      {"v 0 0 0 -inf\n", "t.nav:1: v W: '-inf' is not a finite decimal number (expected "
                         "'v X Y Z [W]')"},
      {"v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1/x 2 3\n", "t.nav:4: face vertex '1/x': expected V, V/VT, "
                                                 "V/VT/VN or V//VN (integer indices)"},
      {"v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2/ 3\n", "t.nav:4: face vertex '2/': expected V, V/VT, "
                                                "V/VT/VN or V//VN (integer indices)"},
      {"v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3//0\n", "t.nav:4: face vertex '3//0': expected V, "
                                                  "V/VT, V/VT/VN or V//VN (integer indices)"},
      /* o_dup.obj: the second face repeats the first */
      {"v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\n# c\nf 1 2 3 4\n\nf 1 2 3 4\n",
       "t.nav:6: lds_navmesh_new: edge 0-3 is used by polygons 0 and 1 in the same direction "
       "(overlapping polygons or an edge shared by more than two) (polygon 1: line 8)"},
      {"navmesh 1 4 2 4\nv 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\np 4 0 1 2 3 -1 -1 -1 -1 0\n"
       "p 3 0 1 2 -1 -1 -1 0\n",
       "t.nav:6: lds_navmesh_new: edge 0-1 is used by polygons 0 and 1 in the same direction "
       "(overlapping polygons or an edge shared by more than two) (polygon 1: line 7)"},
      {"v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\nv 2 0 0\nf 1 2 4\n",
       "t.nav:6: lds_navmesh_new: polygon 1: degenerate (zero area in x-z)"},
  };
  const char *head = "navmesh 1 4 1 4\nv 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\n";
  lds_Error err;
  lds_Navmesh *m;
  char buf[256], want[256];
  size_t i;
  for (i = 0; i < sizeof nav / sizeof *nav; i++) {
    snprintf(buf, sizeof buf, "%s%s\n", head, nav[i].p);
    snprintf(want, sizeof want, "t.nav:6: %s", nav[i].msg);
    CHECK(parse(buf, "t.nav", &err) == NULL);
    CHECK_INT(err.code, LDS_E_FORMAT);
    CHECK_STR(err.msg, want);
  }
  for (i = 0; i < sizeof other / sizeof *other; i++) {
    m = parse(other[i].text, "t.nav", &err);
    CHECK(m == NULL);
    lds_navmesh_free(m);
    CHECK_STR(err.msg, other[i].msg);
  }
  m = parse("v 0 0 0\nv 0 0 1\nv 1 0 1\nf 1/1 2//2 3/3/3\nv +1e0 0 -0.0 1.0E0\nf 1 3 -1\n", "t.obj",
            &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_poly_count(m), 2);
  lds_navmesh_free(m);
}

/* A start or goal that is not finite, or a nan height_tol, is an argument
** error, not a point off the mesh; an empty vertex list is named as such. */
static void test_start_args(void) {
  lds_Error err;
  lds_Navmesh *m = square(0, 10, &err);
  lds_NavSearch *s = m ? lds_navsearch_new(NULL, m, &err) : NULL;
  lds_NavParams pr;
  double a[3] = {NAN, 0, 1}, g[3] = {5, 0, 5}, v[3] = {0, 0, 0};
  uint32_t idx[] = {0, 1, 2}, st[] = {0, 3};
  lds_NavmeshDesc d;
  CHECK(s != NULL);
  if (!s) return;
  CHECK_INT(lds_navsearch_start(s, NULL, a, g), LDS_E_ARG);
  CHECK_STR(lds_navsearch_errmsg(s), "lds_navsearch_start: start (nan, 0, 1): expected finite "
                                     "coordinates");
  a[0] = 1, g[2] = INFINITY;
  CHECK_INT(lds_navsearch_start(s, NULL, a, g), LDS_E_ARG);
  CHECK_STR(lds_navsearch_errmsg(s), "lds_navsearch_start: goal (5, 0, inf): expected finite "
                                     "coordinates");
  g[2] = 5;
  lds_nav_params_init(&pr);
  pr.height_tol = NAN;
  CHECK_INT(lds_navsearch_start(s, &pr, a, g), LDS_E_ARG);
  CHECK_STR(lds_navsearch_errmsg(s), "lds_navsearch_start: height_tol is nan (expected a number; "
                                     "< 0: any height)");
  pr.height_tol = -1;
  CHECK(lds_navsearch_start(s, &pr, a, g) >= 0);
  { /* a finite cost whose product with the length overflows: +inf, the
    ** caller's to refuse (as Lua's find_path and the scheduler do) */
    double big = 1e308;
    lds_Status r;
    lds_nav_params_init(&pr);
    pr.area_costs = &big;
    pr.n_area_costs = 1;
    r = lds_navsearch_start(s, &pr, a, g);
    if (r == LDS_RUNNING) r = lds_navsearch_step(s, NULL);
    CHECK_INT(r, LDS_FOUND);
    CHECK(isinf(lds_navsearch_cost(s)));
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 0;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = 1;
  CHECK(lds_navmesh_new(NULL, &d, &err) == NULL);
  CHECK_STR(err.msg, "lds_navmesh_new: polygon 0: vertex index 0 out of range (the mesh has no "
                     "vertices)");
}

/* An L of three squares of side S (cells (0,0), (1,0), (1,1)) and a
** query round its inner corner: both searches give S times the unit
** length at every scale of the supported range, on legal paths. */
static void test_tiny_and_huge_l(void) {
  static const double scales[] = {1, 1e-6, 1e-9, 1e-12, 1e-40, 1e-100, 1e-140, 1e6, 1e100, 1e140};
  const double unit_len = 2 * sqrt(0.8 * 0.8 + 0.5 * 0.5);
  size_t i;
  for (i = 0; i < sizeof scales / sizeof scales[0]; i++) {
    const double S = scales[i];
    /* vertices (x, z): 0 (0,0) 1 (1,0) 2 (2,0) 3 (0,1) 4 (1,1) 5 (2,1) 6 (1,2) 7 (2,2) */
    const double u[8][2] = {{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}, {1, 2}, {2, 2}};
    const uint32_t pv[12] = {0, 3, 4, 1, 1, 4, 5, 2, 4, 6, 7, 5}, ps[4] = {0, 4, 8, 12};
    double v[24], a[3] = {0.2 * S, 0, 0.5 * S}, b[3] = {1.5 * S, 0, 1.8 * S};
    lds_NavmeshDesc d;
    lds_Navmesh *m;
    lds_NavSearch *s;
    lds_Error err;
    int algo, k;
    for (k = 0; k < 8; k++) v[3 * k] = u[k][0] * S, v[3 * k + 1] = 0, v[3 * k + 2] = u[k][1] * S;
    memset(&d, 0, sizeof d);
    d.verts = v, d.n_verts = 8, d.poly_verts = pv, d.poly_start = ps, d.n_polys = 3;
    m = lds_navmesh_new(NULL, &d, &err);
    CHECK(m != NULL);
    if (!m) continue;
    s = lds_navsearch_new(NULL, m, NULL);
    for (algo = 0; algo < 2; algo++) {
      lds_NavParams p;
      lds_Status st;
      size_t n = 0;
      const double *pts;
      double clen = NAN;
      lds_nav_params_init(&p);
      p.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
      p.snap_radius = 0;
      st = lds_navsearch_start(s, &p, a, b);
      if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
      CHECK_INT(st, LDS_FOUND);
      if (st != LDS_FOUND) {
        printf("  scale %g %s: %s\n", S, algo ? "optimal" : "funnel", lds_navsearch_errmsg(s));
        continue;
      }
      CHECK_NEAR(lds_navsearch_length(s) / S, unit_len, 1e-9 * unit_len);
      pts = lds_navsearch_points(s, &n);
      CHECK_INT(n, 3);
      CHECK_INT(lds_navmesh_check_path(m, pts, n, -1, NULL, 0, &clen, NULL, NULL), LDS_OK);
      CHECK(isfinite(lds_navsearch_cost(s)));
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
}

void suite_navmesh_input(void);
void suite_navmesh_input(void) {
  test_tiny_and_huge_l();
  test_no_polygons();
  test_obj_indices();
  test_field_errors();
  test_start_args();
  test_coordinate_range();
  test_nearest_far();
  test_check_heights();
  test_own_paths_on_surface();
}
