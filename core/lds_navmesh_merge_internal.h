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

/* The funnel's corridor A* (lds_navmesh_search.c) searches the optimal
** search's partition and prunes by its biconnected blocks:
** ldsi_polyanya_partition makes the partition on first use (the default,
** up to LDSI_POLYANYA_MERGE_MAX vertices; false when out of memory) and
** points *mm at it [Borrowed: owned by s]. ldsi_polyanya_mark_blocks
** rebuilds the blocks for the blocked areas of s->cost when they changed
** and marks the blocks on the block-cut tree path between merged polygons
** msp[0..ns-1] and mgp[0..ng-1] (the polygons holding the start and the
** goal; with more than one, every block above any of them): the edge of merged slot k may be crossed when b =
** ldsi_polyanya_slot_block(s, k) != 0xFFFFFFFF and (*bgen)[b] == *gen.
** Returns a counter that changes whenever the slots' blocks do. */
LDSI_HIDDEN bool ldsi_polyanya_partition(lds_NavSearch *s, const ldsi_MergedMesh **mm);
LDSI_HIDDEN uint32_t ldsi_polyanya_mark_blocks(lds_NavSearch *s, const uint32_t *msp, uint32_t ns,
                                               const uint32_t *mgp, uint32_t ng,
                                               const uint32_t **bgen, uint32_t *gen);
LDSI_HIDDEN uint32_t ldsi_polyanya_slot_block(const lds_NavSearch *s, uint32_t slot);

#endif /* LDS_NAVMESH_MERGE_INTERNAL_H */
