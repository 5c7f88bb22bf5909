/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_internal.h — the navigation mesh's struct, shared by the files
** of the mesh and its searches (lds_navmesh.c, lds_navmesh_search.c,
** lds_polyanya.c). Not installed.
*/
#ifndef LDS_NAVMESH_INTERNAL_H
#define LDS_NAVMESH_INTERNAL_H

#include "lds_internal.h"
#include "lds_navmesh.h"

struct lds_Navmesh {
  ldsi_Env env;
  uint32_t nv, np;
  size_t ni;         /* vertex indices of all polygons */
  double *v;         /* 3 * nv: x y z */
  uint32_t *pstart;  /* np + 1 */
  uint32_t *pv;      /* pstart[np] vertex indices, canonical winding */
  uint32_t *pn;      /* pstart[np] neighbours */
  uint8_t *area;     /* np */
  double *pbox;      /* 4 * np: min x, min z, max x, max z */
  uint32_t *piece;   /* np: connected piece id */
  uint32_t npieces;
  double bmin[3], bmax[3];
  double eps;        /* length tolerance: 1e-9 of the mesh's x-z size */
  /* bucket grid over x-z for point location */
  double gx0, gz0, gcell;
  uint32_t gw, gh;
  uint32_t *goff;    /* gw * gh + 1 */
  uint32_t *gidx;    /* goff[gw * gh] polygon ids */
  uint32_t hold_max; /* the most polygons in one bucket (>= 1): a bound on the
                        polygons holding one point (ldsi_navmesh_holders), so
                        a buffer of hold_max takes them all, however many
                        polygons share a vertex */
  size_t mem;
};

static inline const double *ldsi_nm_v(const lds_Navmesh *m, uint32_t v) { return m->v + 3 * (size_t)v; }
/* 2-D cross product in x-z of (b - a) and (c - a). */
static inline double ldsi_cross3(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}

/* The polygons holding point pt on its level: those whose x-z projection
** contains (pt[0], pt[2]) (lds_navmesh_poly_contains, boundary included)
** and whose height there is within 1e-6 of the mesh's size of pt[1] (a
** point on an edge or a vertex is in every polygon round it; a bridge
** over it is not), ascending ids, at most cap of them into out (all of
** them with cap >= m->hold_max); but p0
** alone when pt lies in polygon p0 farther than 16e-9 of the mesh's size
** from its boundary (a mesh whose polygons overlap) — LDS_NAVMESH_NONE
** for no such test. Returns how many were written. */
LDSI_HIDDEN uint32_t ldsi_navmesh_holders(const lds_Navmesh *m, const double pt[3], uint32_t p0,
                                          uint32_t *out, uint32_t cap);

#endif /* LDS_NAVMESH_INTERNAL_H */
