/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_locate.c — point location on a mesh with levels: with "any
** height" (height_tol < 0) lds_navmesh_locate still picks the polygon
** nearest in height, so a point on a bridge is not located on the floor
** under it (and the reverse); within a tolerance as before; and on the
** shared 3-D level nav_test, any height agrees with a tolerance of 4 at
** every query point that tolerance locates.
*/
#include "harness.h"

#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A floor square [0,4]^2 at y = 0 and a bridge [1,3] x [0,4] at y = 5 over
** it (two pieces: the bridge's ends are not linked to the floor). The
** bridge is polygon 1, so "lowest id first" would give the floor. */
static lds_Navmesh *two_levels(void) {
  static const double v[] = {0, 0, 0, 0, 0, 4, 4, 0, 4, 4, 0, 0,
                             1, 5, 0, 1, 5, 4, 3, 5, 4, 3, 5, 0};
  static const uint32_t idx[] = {0, 1, 2, 3, 4, 5, 6, 7}, start[] = {0, 4, 8};
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 8;
  d.poly_verts = idx;
  d.poly_start = start;
  d.n_polys = 2;
  m = lds_navmesh_new(NULL, &d, &err);
  if (!m) TH_FAIL("two_levels: %s", err.msg);
  return m; /* NULL after the failure */
}

static void test_levels(void) {
  lds_Navmesh *m = two_levels();
  double near[3];
  if (!m) return;
  CHECK_INT(lds_navmesh_piece_count(m), 2);
  /* any height: the nearest level */
  CHECK_INT(lds_navmesh_locate(m, 2, 5.2, 2, -1), 1);
  CHECK_INT(lds_navmesh_locate(m, 2, 0.1, 2, -1), 0);
  CHECK_INT(lds_navmesh_locate(m, 2, -3, 2, -1), 0);
  CHECK_INT(lds_navmesh_locate(m, 2, 40, 2, NAN), 1);
  /* any height, no height given: the lowest id */
  CHECK_INT(lds_navmesh_locate(m, 2, NAN, 2, -1), 0);
  /* outside the bridge's x range only the floor holds the point */
  CHECK_INT(lds_navmesh_locate(m, 0.5, 5, 2, -1), 0);
  /* within a tolerance, as before */
  CHECK_INT(lds_navmesh_locate(m, 2, 5.2, 2, 0.5), 1);
  CHECK_INT(lds_navmesh_locate(m, 2, 0.2, 2, 0.5), 0);
  CHECK_INT(lds_navmesh_locate(m, 2, 2.5, 2, 0.5), LDS_NAVMESH_NONE);
  /* nearest builds on locate: the bridge from above */
  CHECK_INT(lds_navmesh_nearest(m, (const double[3]){2, 6, 2}, 2, -1, near), 1);
  CHECK_NEAR(near[1], 5, 1e-12);
  lds_navmesh_free(m);
}

/* Every query point of 3d/nav_test.queries (17 pieces, levels over each
** other) that a tolerance of 4 locates gets the same polygon with any
** height; before, 71 of the 500 starts got a polygon of another level. */
static void test_shared_levels(void) {
  char path[512];
  lds_Error err;
  lds_Navmesh *m;
  FILE *f;
  double q[8];
  int checked = 0;
  snprintf(path, sizeof path, "%s/data/navmesh/3d/nav_test.nav", LDS_SHARED_DIR);
  m = lds_navmesh_load(NULL, path, &err);
  if (!m) {
    printf("  (navmesh_locate: no %s, shared levels skipped)\n", path);
    return;
  }
  snprintf(path, sizeof path, "%s/data/navmesh/3d/nav_test.queries", LDS_SHARED_DIR);
  f = fopen(path, "r");
  if (!f) {
    TH_FAIL("cannot open %s", path);
    lds_navmesh_free(m);
    return;
  }
  while (fscanf(f, "%lf %lf %lf %lf %lf %lf %lf %lf", &q[0], &q[1], &q[2], &q[3], &q[4], &q[5],
                &q[6], &q[7]) == 8) {
    int k;
    for (k = 0; k < 2; k++) {
      const double *p = q + 3 * k;
      uint32_t tol = lds_navmesh_locate(m, p[0], p[1], p[2], 4);
      if (tol == LDS_NAVMESH_NONE) continue;
      CHECK_INT(lds_navmesh_locate(m, p[0], p[1], p[2], -1), tol);
      checked++;
    }
  }
  fclose(f);
  CHECK(checked >= 900);
  lds_navmesh_free(m);
}

void suite_navmesh_locate(void);
void suite_navmesh_locate(void) {
  test_levels();
  test_shared_levels();
}
