/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_merge.c — the optimal search's preprocessing: the merged
** convex partition (core/lds_navmesh_merge.c) and the pruning by
** biconnected blocks (core/lds_polyanya.c).
**
** Merging, on random grid meshes (strict and with collinear vertices, small
** polygons so that there is much to merge) and random area ids: every
** merged polygon convex in x-z with no repeated vertex, of one area, its
** area the sum of its mesh polygons' areas, the neighbour links symmetric
** and true to the mesh's. Searches: lengths on the merged partition equal
** those on the mesh's own polygons (ldsi_polyanya_prepare(s, 0)), with and
** without a blocked area, the blocked set changing from query to query (the
** block tables are rebuilt); and equal to a search on a copy of the mesh
** without the blocked polygons. test_polyanya.c checks the default search
** (merged, pruned by blocks) against an independent oracle.
*/
#include "harness.h"

#include "lds.h"
#include "lds_navmesh_merge_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t mrs;
static uint32_t mrnd(void) {
  mrs = mrs * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(mrs >> 33);
}

/* Twice the signed area in the plane X = x, Y = -z (> 0: canonical). */
static double area2(const double *v, const uint32_t *idx, uint32_t n) {
  double a = 0;
  uint32_t k;
  for (k = 0; k < n; k++) {
    const double *p = v + 3 * (size_t)idx[k], *q = v + 3 * (size_t)idx[(k + 1) % n];
    a += p[0] * -q[2] - q[0] * -p[2];
  }
  return a;
}

/* A copy of m with area ids drawn from 0..1 (about one polygon in four
** gets 1), or NULL. */
static lds_Navmesh *with_areas(const lds_Navmesh *m, uint8_t *areas) {
  uint32_t np = lds_navmesh_poly_count(m), p, ni = 0;
  uint32_t *idx, *st;
  lds_NavmeshDesc d;
  lds_Navmesh *out;
  for (p = 0; p < np; p++) ni += lds_navmesh_poly(m, p, NULL, NULL);
  idx = (uint32_t *)malloc((ni + 1) * sizeof *idx);
  st = (uint32_t *)malloc((np + 1) * sizeof *st);
  ni = 0;
  for (p = 0; p < np; p++) {
    const uint32_t *pv;
    uint32_t n = lds_navmesh_poly(m, p, &pv, NULL);
    st[p] = ni;
    memcpy(idx + ni, pv, n * sizeof *pv);
    ni += n;
    areas[p] = (uint8_t)((mrnd() % 4) == 0);
  }
  st[np] = ni;
  memset(&d, 0, sizeof d);
  d.verts = lds_navmesh_vertices(m);
  d.n_verts = lds_navmesh_vertex_count(m);
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = np;
  d.areas = areas;
  out = lds_navmesh_new(NULL, &d, NULL);
  free(idx);
  free(st);
  return out;
}

/* The polygons of m not of area `drop`, as a mesh (neighbours linked
** anew), or NULL when none is left. */
static lds_Navmesh *without_area(const lds_Navmesh *m, uint8_t drop) {
  uint32_t np = lds_navmesh_poly_count(m), p, ni = 0, kept = 0;
  uint32_t *idx, *st;
  lds_NavmeshDesc d;
  lds_Navmesh *out;
  for (p = 0; p < np; p++) ni += lds_navmesh_poly(m, p, NULL, NULL);
  idx = (uint32_t *)malloc((ni + 1) * sizeof *idx);
  st = (uint32_t *)malloc((np + 1) * sizeof *st);
  ni = 0;
  for (p = 0; p < np; p++) {
    const uint32_t *pv;
    uint32_t n = lds_navmesh_poly(m, p, &pv, NULL);
    if (lds_navmesh_poly_area(m, p) == drop) continue;
    st[kept++] = ni;
    memcpy(idx + ni, pv, n * sizeof *pv);
    ni += n;
  }
  st[kept] = ni;
  memset(&d, 0, sizeof d);
  d.verts = lds_navmesh_vertices(m);
  d.n_verts = lds_navmesh_vertex_count(m);
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = kept;
  out = kept ? lds_navmesh_new(NULL, &d, NULL) : NULL;
  free(idx);
  free(st);
  return out;
}

/* The merged partition's invariants; returns the number of violations. */
static int check_partition(const lds_Navmesh *m, const ldsi_MergedMesh *mm) {
  const double *v = lds_navmesh_vertices(m);
  uint32_t np = lds_navmesh_poly_count(m), P, p, k;
  double *sum = (double *)calloc(mm->np + 1, sizeof *sum);
  int bad = 0;
  for (p = 0; p < np; p++) {
    const uint32_t *pv;
    uint32_t n = lds_navmesh_poly(m, p, &pv, NULL);
    if (mm->pmap[p] >= mm->np) {
      bad++;
      continue;
    }
    sum[mm->pmap[p]] += area2(v, pv, n);
    if (mm->area[mm->pmap[p]] != lds_navmesh_poly_area(m, p)) bad++;
  }
  for (P = 0; P < mm->np; P++) {
    uint32_t st = mm->pstart[P], n = mm->pstart[P + 1] - st, j;
    const uint32_t *pv = mm->pv + st;
    double a = area2(v, pv, n);
    if (n < 3 || !(fabs(a - sum[P]) <= 1e-9 * (1 + fabs(a)))) bad++;
    for (k = 0; k < n; k++) {
      const double *A = v + 3 * (size_t)pv[(k + n - 1) % n], *B = v + 3 * (size_t)pv[k],
                   *C = v + 3 * (size_t)pv[(k + 1) % n];
      double ux = B[0] - A[0], uy = A[2] - B[2], wx = C[0] - B[0], wy = B[2] - C[2];
      double o = ux * wy - uy * wx;
      uint32_t q = mm->pn[st + k];
      if (o < 0 || (o == 0 && ux * wx + uy * wy <= 0)) bad++; /* reflex or folded */
      for (j = k + 1; j < n; j++) bad += pv[j] == pv[k];
      if (q != LDS_NAVMESH_NONE) { /* q has the edge back, linked to P */
        uint32_t qs = mm->pstart[q], qn = mm->pstart[q + 1] - qs, i, found = 0;
        for (i = 0; i < qn; i++)
          found += mm->pv[qs + i] == pv[(k + 1) % n] && mm->pv[qs + (i + 1) % qn] == pv[k] &&
                   mm->pn[qs + i] == P;
        if (found != 1 || q == P) bad++;
      }
    }
  }
  /* the mesh's links, seen through pmap: across a merged boundary edge, or inside */
  for (p = 0; p < np; p++) {
    const uint32_t *pv, *pn;
    uint32_t n = lds_navmesh_poly(m, p, &pv, &pn);
    for (k = 0; k < n; k++) {
      uint32_t P0 = mm->pmap[p], Q0 = pn[k] == LDS_NAVMESH_NONE ? LDS_NAVMESH_NONE : mm->pmap[pn[k]];
      uint32_t st = mm->pstart[P0], nn = mm->pstart[P0 + 1] - st, i, found = 0;
      if (Q0 == P0) continue;
      for (i = 0; i < nn; i++)
        found += mm->pv[st + i] == pv[k] && mm->pv[st + (i + 1) % nn] == pv[(k + 1) % n] &&
                 mm->pn[st + i] == Q0;
      if (found != 1) bad++;
    }
  }
  free(sum);
  return bad;
}

static double len_of(lds_NavSearch *s, const double *a, const double *b, const double *costs,
                     size_t nc) {
  lds_NavParams p;
  lds_Status st;
  lds_nav_params_init(&p);
  p.algo = LDS_NAV_OPTIMAL;
  p.snap_radius = 1e-6;
  p.area_costs = costs;
  p.n_area_costs = nc;
  if (lds_navsearch_start(s, &p, a, b) != LDS_RUNNING) return -2;
  st = lds_navsearch_step(s, NULL);
  if (st == LDS_NO_PATH) return -1;
  return st == LDS_FOUND ? lds_navsearch_length(s) : -2;
}

/* Whether a polygon of area 1 holds (x, z), boundary included (a point
** snapped there starts in a blocked polygon: no path, while the mesh
** without them snaps it elsewhere). */
static bool on_area1(const lds_Navmesh *m, const double *a) {
  uint32_t p;
  for (p = 0; p < lds_navmesh_poly_count(m); p++)
    if (lds_navmesh_poly_area(m, p) == 1 && lds_navmesh_poly_contains(m, p, a[0], a[2])) return true;
  return false;
}

static bool same(double x, double y) { return x == y || fabs(x - y) <= 1e-9 * (1 + fabs(x)); }

static void random_meshes(void) {
  int trial, bad = 0, mism = 0, mism_cut = 0, merged_meshes = 0, compared = 0, cut_compared = 0;
  const double blocked[2] = {1.0, INFINITY};
  mrs = 20261219;
  for (trial = 0; trial < 120; trial++) {
    int32_t w = 3 + (int32_t)(mrnd() % 16), h = 3 + (int32_t)(mrnd() % 16), x, y;
    int pct = (int)(mrnd() % 40), q;
    lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
    lds_GridMeshParams mp;
    lds_Navmesh *m0, *m, *cut;
    lds_NavSearch *sm, *su, *sc;
    ldsi_MergedMesh mm;
    ldsi_Env env;
    uint8_t *areas;
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if ((int)(mrnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
    if (lds_grid_passable_count(g) == 0) {
      lds_grid_free(g);
      continue;
    }
    lds_grid_mesh_params_init(&mp);
    mp.strict = (trial % 3) == 2;
    mp.max_verts = 4; /* small polygons: much to merge */
    m0 = lds_grid_to_navmesh(NULL, g, &mp, NULL, NULL);
    CHECK(m0 != NULL);
    if (!m0) {
      lds_grid_free(g);
      continue;
    }
    areas = (uint8_t *)malloc(lds_navmesh_poly_count(m0) + 1);
    m = with_areas(m0, areas);
    CHECK(m != NULL);
    ldsi_env_resolve(&env, NULL);
    CHECK(ldsi_navmesh_merge(&env, m, 32, &mm));
    bad += check_partition(m, &mm);
    if (mm.np < lds_navmesh_poly_count(m)) merged_meshes++;
    ldsi_navmesh_merged_free(&env, &mm);
    sm = lds_navsearch_new(NULL, m, NULL);
    su = lds_navsearch_new(NULL, m, NULL);
    CHECK(ldsi_polyanya_prepare(su, 0)); /* the mesh's own polygons */
    cut = without_area(m, 1);
    sc = cut ? lds_navsearch_new(NULL, cut, NULL) : NULL;
    for (q = 0; q < 24; q++) {
      /* points on cell centres, corners and side midpoints (exact in binary) */
      double a[3] = {(mrnd() % (uint32_t)(2 * w + 1)) / 2.0, 0, (mrnd() % (uint32_t)(2 * h + 1)) / 2.0};
      double b[3] = {(mrnd() % (uint32_t)(2 * w + 1)) / 2.0, 0, (mrnd() % (uint32_t)(2 * h + 1)) / 2.0};
      int blk = (int)(mrnd() % 2); /* the blocked set changes between queries */
      double lm = len_of(sm, a, b, blk ? blocked : NULL, blk ? 2 : 0);
      double lu = len_of(su, a, b, blk ? blocked : NULL, blk ? 2 : 0);
      if (lm == -2 && lu == -2) continue; /* a point off the mesh (or blocked) */
      compared++;
      if (!same(lm, lu)) {
        if (mism < 5)
          fprintf(stderr, "merge trial %d (%g,%g)->(%g,%g) blocked %d: merged %.12g, unmerged %.12g\n",
                  trial, a[0], a[2], b[0], b[2], blk, lm, lu);
        mism++;
      }
      if (blk && sc && lds_navmesh_locate(m, a[0], 0, a[2], 1e-9) != LDS_NAVMESH_NONE &&
          lds_navmesh_locate(m, b[0], 0, b[2], 1e-9) != LDS_NAVMESH_NONE && !on_area1(m, a) &&
          !on_area1(m, b)) {
        double lc = len_of(sc, a, b, NULL, 0);
        cut_compared++;
        if (!same(lm, lc)) {
          if (mism_cut < 5)
            fprintf(stderr, "merge trial %d (%g,%g)->(%g,%g): blocked %.12g, removed %.12g\n", trial,
                    a[0], a[2], b[0], b[2], lm, lc);
          mism_cut++;
        }
      }
    }
    lds_navsearch_free(sm);
    lds_navsearch_free(su);
    lds_navsearch_free(sc);
    lds_navmesh_free(cut);
    lds_navmesh_free(m);
    lds_navmesh_free(m0);
    free(areas);
    lds_grid_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK(merged_meshes > 60);
  CHECK(compared > 1500);
  CHECK(cut_compared > 300);
  CHECK_INT(mism, 0);
  CHECK_INT(mism_cut, 0);
}

/* No merging below 3 vertices; a mesh of two triangles making a square
** merges into one quadrilateral, two making a reflex quadrilateral do not. */
static void small_cases(void) {
  static const double sq[] = {0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 2, 0, -1};
  static const uint32_t idx[] = {0, 1, 2, 0, 2, 3};
  static const uint32_t st[] = {0, 3, 6};
  static const uint32_t idx2[] = {0, 1, 4, 0, 2, 1}; /* 0,1,4 and 0,2,1: union reflex at 1? */
  lds_NavmeshDesc d;
  lds_Navmesh *m;
  ldsi_MergedMesh mm;
  ldsi_Env env;
  ldsi_env_resolve(&env, NULL);
  memset(&d, 0, sizeof d);
  d.verts = sq;
  d.n_verts = 5;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = 2;
  m = lds_navmesh_new(NULL, &d, NULL);
  CHECK(m != NULL);
  if (!m) return;
  CHECK(ldsi_navmesh_merge(&env, m, 32, &mm));
  CHECK_INT(mm.np, 1);
  CHECK_INT(mm.pstart[1], 4);
  CHECK_INT(mm.pmap[0], 0);
  CHECK_INT(mm.pmap[1], 0);
  CHECK_INT(check_partition(m, &mm), 0);
  ldsi_navmesh_merged_free(&env, &mm);
  CHECK(ldsi_navmesh_merge(&env, m, 3, &mm)); /* 4 vertices would exceed 3 */
  CHECK_INT(mm.np, 2);
  ldsi_navmesh_merged_free(&env, &mm);
  CHECK(ldsi_navmesh_merge(&env, m, 0, &mm));
  CHECK_INT(mm.np, 2);
  CHECK_INT(check_partition(m, &mm), 0);
  ldsi_navmesh_merged_free(&env, &mm);
  lds_navmesh_free(m);
  /* (0,0) (1,0) (2,-1) and (0,0) (1,1) (1,0): sharing 0-1, the union
  ** (0,0) (1,1) (1,0) (2,-1) turns right at (1,0) in the plane: kept apart */
  d.poly_verts = idx2;
  m = lds_navmesh_new(NULL, &d, NULL);
  CHECK(m != NULL);
  if (!m) return;
  CHECK(ldsi_navmesh_merge(&env, m, 32, &mm));
  CHECK_INT(mm.np, 2);
  CHECK_INT(check_partition(m, &mm), 0);
  ldsi_navmesh_merged_free(&env, &mm);
  lds_navmesh_free(m);
}

void suite_navmesh_merge(void);
void suite_navmesh_merge(void) {
  small_cases();
  random_meshes();
}
