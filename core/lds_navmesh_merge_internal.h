/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_merge_internal.h — a coarser convex partition of a navigation
** mesh's free space for the optimal search (lds_polyanya.c): adjacent
** polygons of one area merged while their union stays convex in x-z.
** Not installed.
*/
#ifndef LDS_NAVMESH_MERGE_INTERNAL_H
#define LDS_NAVMESH_MERGE_INTERNAL_H

#include "lds_navmesh_internal.h"
#include "lds_navmesh_search.h"

/* A merged partition over the mesh's vertices. Polygon P's vertices are
** pv[pstart[P] .. pstart[P+1]-1] in the mesh's canonical winding (negative
** shoelace sum in x-z); pn[i] the merged polygon across edge i (vertex i to
** i + 1), LDS_NAVMESH_NONE on the boundary; area[P] the area id of every
** mesh polygon in P; pmap[p] the merged polygon holding mesh polygon p.
** Every merged polygon is the union of mesh polygons of one area that are
** linked through shared edges, convex in x-z (straight-angle vertices
** allowed), with no repeated vertex; two merged polygons are neighbours
** across an edge exactly when mesh polygons of theirs are. */
typedef struct ldsi_MergedMesh {
  uint32_t np;
  uint32_t *pstart; /* np + 1 */
  uint32_t *pv;     /* pstart[np] */
  uint32_t *pn;     /* pstart[np] */
  uint8_t *area;    /* np */
  uint32_t *pmap;   /* the mesh's np */
  size_t cap_pv, cap_np, cap_map; /* allocation sizes (elements) */
} ldsi_MergedMesh;

/* Merges adjacent polygons of m of the same area whose union is convex in
** x-z (greedily, across the longest shared edge first; deterministic), each
** merged polygon at most max_verts vertices (max_verts < 3: no merging, a
** copy of m's polygons). Allocates out's arrays with env e [Owner: free
** with ldsi_navmesh_merged_free]. Returns false when out of memory (out
** then holds nothing). O(edges log edges + merges * max_verts). */
LDSI_HIDDEN bool ldsi_navmesh_merge(const ldsi_Env *e, const lds_Navmesh *m, uint32_t max_verts,
                                    ldsi_MergedMesh *out);
/* Frees what ldsi_navmesh_merge allocated; out is zeroed. */
LDSI_HIDDEN void ldsi_navmesh_merged_free(const ldsi_Env *e, ldsi_MergedMesh *out);

/* Rebuilds the optimal search's tables of s (lds_polyanya.c) over the
** partition ldsi_navmesh_merge(m, merge_max) gives (merge_max < 3: the
** mesh's own polygons); later queries of s search it. The default, made on
** s's first optimal query, merges up to LDSI_POLYANYA_MERGE_MAX vertices.
** For tests and measurements. Returns false when out of memory. */
LDSI_HIDDEN bool ldsi_polyanya_prepare(lds_NavSearch *s, uint32_t merge_max);

#endif /* LDS_NAVMESH_MERGE_INTERNAL_H */
