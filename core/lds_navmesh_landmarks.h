/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_landmarks.h — landmark lower bounds for the navmesh searches
** (internal; not installed). The ALT idea (A. Goldberg & C. Harrelson,
** "Computing the shortest path: A* search meets graph theory", SODA 2005)
** carried to a convex partition: for a few landmark points L, the exact
** x-z geodesic length D_L(v) from L to every mesh vertex v (one-to-all
** Polyanya, ldsi_polyanya_distances). A portal e = [a, b] lies in free
** space, so for every point p of e (triangle inequality along e)
**   lo_L(e) = (D_L(a) + D_L(b) - |e|) / 2 <= D_L(p) <= (D_L(a) + D_L(b) + |e|) / 2 = hi_L(e),
** and for the goal t in convex polygon G, max_v (D_L(v) - |vt|) <= D_L(t)
** <= min_v (D_L(v) + |vt|) over G's vertices. Then for every point p of e
**   geodesic(p, t) >= max_L max(lo_L(e) - hi_L(t), lo_L(t) - hi_L(e)),
** which the corridor searches and Polyanya add to their straight-line
** heuristic (docs/navmesh.md "Landmark bounds"). The tables are built with
** every area allowed: blocking areas only lengthens geodesics, so the
** bound holds for any query's costs.
*/
#ifndef LDS_NAVMESH_LANDMARKS_H
#define LDS_NAVMESH_LANDMARKS_H

#include "lds_navmesh_search_internal.h"

#include <string.h>

#define LDSI_NAV_LM_MAX 8u      /* landmarks per partition */
#define LDSI_NAV_LM_MIN_POLYS 256u /* smaller partitions get none (the straight line does) */
/* the build's budget: the exhaustive searches of all landmarks pop at most
** LDSI_NAV_LM_POPS_PER_VERTEX nodes per mesh vertex plus LDSI_NAV_LM_POPS_MIN,
** else the mesh gets none (meshes of many small polygons with collinear
** vertices, a grid's cells as squares, would take seconds) */
#define LDSI_NAV_LM_POPS_PER_VERTEX 14u
#define LDSI_NAV_LM_POPS_MIN 131072u
/* and none when the partition's polygons have so many portals that the
** landmarks' picking would relax more than this many times per portal
** (sum over polygons of portals squared) */
#define LDSI_NAV_LM_RELAX_PER_PORTAL 16u

struct ldsi_NavLandmarks {
  ldsi_Env env;   /* what the tables were allocated with */
  uint32_t refs;  /* search objects using them (ldsi_navlm_share) */
  uint32_t nl;    /* landmarks built (0: none, every bound is 0) */
  uint32_t ne;    /* half-edges of the partition's adjacency (rows of tab) */
  uint32_t np;    /* polygons of the partition */
  /* per half-edge, 2 * LDSI_NAV_LM_MAX floats: lo_L(e) then hi_L(e)
  ** (x-z length units), rounded towards -inf and towards +inf; FLT_MAX
  ** where the landmark's piece of the mesh does not reach the edge */
  float *tab;
  uint32_t *kslot;            /* partition slot -> half-edge (LDS_NAVMESH_NONE: a wall) */
  uint32_t nslot;
  uint32_t *pstart, *pv;      /* a copy of the partition's polygons (np + 1, nslot) */
  double *vd;                 /* nv * LDSI_NAV_LM_MAX: D_L(v), INFINITY when apart, NaN at a pinch */
  uint32_t nv;
  const lds_Navmesh *m;       /* [Borrowed] */
  double lx[LDSI_NAV_LM_MAX], lz[LDSI_NAV_LM_MAX]; /* the landmarks (x-z) */
  uint32_t lp[LDSI_NAV_LM_MAX]; /* the partition polygon holding each */
  double margin;              /* subtracted from every bound: rounding of the sums */
};

/* One query's goal against the landmarks (in the search object: the
** tables are shared): lo_L(t), hi_L(t) (-inf, +inf for a landmark the
** goal is apart from: its terms never bind), computed on first use. */
typedef struct ldsi_NavLmGoal {
  double glo[LDSI_NAV_LM_MAX], ghi[LDSI_NAV_LM_MAX];
  bool goal_set;              /* glo / ghi hold a goal some landmark reaches */
  bool pending;               /* the goal is set, its bounds not computed yet */
  uint32_t gpoly;             /* the goal's partition polygon */
  double gt[3];               /* the goal (x-z used) */
} ldsi_NavLmGoal;

/* Builds the landmark tables over s's partition (s->fmm and its adjacency
** s->mstart / s->madj, made already): none (NULL) on partitions of fewer
** than s->lm_min_polys polygons (LDSI_NAV_LM_MIN_POLYS) or on a mesh so
** large that its distances could pass 1e37 (the tables are floats); else up to
** LDSI_NAV_LM_MAX landmarks at polygon centroids in the piece of the mesh
** with the most polygons, picked farthest first (each the polygon with the
** largest least midpoint-path length to those before), and one exhaustive
** Polyanya search per landmark (ldsi_polyanya_distances; it uses s's
** Polyanya pools, so call it between queries). Memory: 8 * nl bytes per
** mesh vertex, 64 per half-edge, 4 per slot. Returns the tables with refs
** = 1, allocated with s->env [Owner: ldsi_navlm_release], or NULL (too
** small, or out of memory: the searches then run without). */
LDSI_HIDDEN ldsi_NavLandmarks *ldsi_navlm_build(lds_NavSearch *s);

/* Drops one reference to lm (NULL is fine); the last frees it. */
LDSI_HIDDEN void ldsi_navlm_release(ldsi_NavLandmarks *lm);

/* Sets the goal t (3-D; x-z used), held by partition polygon G. O(1): its
** bounds are computed on the first ldsi_navlm_bound, so a query answered
** without a search pays nothing. */
static inline void ldsi_navlm_goal(ldsi_NavLmGoal *g, uint32_t G, const double t[3]) {
  g->gpoly = G;
  memcpy(g->gt, t, sizeof g->gt);
  g->pending = true;
  g->goal_set = false;
}

/* Computes g's lo_L(t) and hi_L(t) (ldsi_navlm_bound calls it). */
LDSI_HIDDEN void ldsi_navlm_goal_bounds(const ldsi_NavLandmarks *lm, ldsi_NavLmGoal *g);

/* A lower bound (x-z length units, >= 0) on the x-z geodesic length from
** any point of half-edge k's portal to the goal set in g. */
static inline double ldsi_navlm_bound(const ldsi_NavLandmarks *lm, ldsi_NavLmGoal *g, uint32_t k) {
  const float *r = lm->tab + (size_t)k * (2 * LDSI_NAV_LM_MAX);
  double best = 0;
  uint32_t i;
  if (g->pending) ldsi_navlm_goal_bounds(lm, g);
  if (!g->goal_set) return 0;
  for (i = 0; i < lm->nl; i++) {
    double a = (double)r[i] - g->ghi[i], b = g->glo[i] - (double)r[LDSI_NAV_LM_MAX + i];
    if (a > best) best = a;
    if (b > best) best = b;
  }
  return best > lm->margin ? best - lm->margin : 0;
}

#endif
