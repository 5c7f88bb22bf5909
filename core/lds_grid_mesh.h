/* SPDX-License-Identifier: MIT */
/*
** lds_grid_mesh.h — a grid's free space as exact geometry: its outline
** (outer rings and holes, as in the .poly files of shared/data/navmesh/2d) and a
** navigation mesh of convex polygons covering it exactly.
**
** Free space. The union of the passable cells as closed squares, in map
** coordinates: cell (x, y) is [x, x+1] x [y, y+1] (so the grid's cell
** coordinate c, whose centre is c, is the map coordinate c + 0.5). Pieces
** are the 4-connected components of the passable cells. Two passable cells
** that touch only at a corner, the other two cells around it blocked (a
** pinch vertex), are not joined there: the outline's rings touch at that
** point but do not cross, and the mesh has two vertices at it, one per
** side, so no polygon edge or path passes from one cell to the other
** through the point. This is the Moving AI rule (no corner cutting) and the
** rule of the exact optimum in shared/data/navmesh (a path may touch a
** blocked cell's corner or run along its side, never squeeze between two
** blocked cells).
**
** Mesh frame. World x = map x, world z = map y, world y = 0 (the frame of
** shared/data/navmesh: up is +y); so the grid cell (x, y) has its centre at
** world (x + 0.5, 0, y + 0.5).
*/
#ifndef LDS_GRID_MESH_H
#define LDS_GRID_MESH_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_navmesh.h"

LDS_BEGIN_DECLS

/// The outline of a grid's free space (lds_grid_outline). Rings list their
/// corners only (no collinear points), closed implicitly (last -> first);
/// outer rings have a positive shoelace sum sum(x_k y_{k+1} - x_{k+1} y_k)
/// in map coordinates (y down: clockwise on screen), holes a negative one;
/// a ring may visit a pinch vertex twice. Rings come piece by piece
/// (pieces numbered in row-major order of their first cell), the outer
/// ring first, then the holes in row-major order of their top-left edge.
typedef struct lds_GridOutline {
  uint32_t n_pieces;     ///< 4-connected pieces of passable cells
  uint32_t n_rings;      ///< rings in all (n_pieces outer rings + holes)
  uint32_t *ring_start;  ///< [Shape: n_rings + 1] ring r's corners are points ring_start[r] .. ring_start[r+1]-1
  int32_t *xy;           ///< [Shape: 2 * ring_start[n_rings]] corner x, y [Units: map coordinates]
  uint32_t *ring_piece;  ///< [Shape: n_rings] the piece of each ring
  uint8_t *ring_hole;    ///< [Shape: n_rings] 1 for a hole, 0 for an outer ring
  uint32_t *piece_cells; ///< [Shape: n_pieces] passable cells of each piece
  lds_Env env;           ///< the allocator the arrays came from (lds_grid_outline_free)
} lds_GridOutline;

/// Traces the outline of g's free space (see lds_GridOutline): the unit
/// edges between a passable and a blocked cell (or the map's edge), linked
/// into rings that turn at pinch vertices with their own cell.
/// @param[in] env  [opt] allocator; NULL for the default
/// @param[out] out filled on success (zeroed on failure)
/// @returns LDS_OK, LDS_E_ARG (NULL grid or out), LDS_E_NOMEM (about 40
///   bytes per cell while tracing). [Owner: caller frees with
///   lds_grid_outline_free] Cost: O(cells).
LDS_API lds_Status lds_grid_outline(const lds_Env *env, const lds_Grid *g, lds_GridOutline *out,
                                    lds_Error *err);
/// Frees the arrays of an outline and zeroes it. NULL is ignored.
LDS_API void lds_grid_outline_free(lds_GridOutline *o);

/// Settings of lds_grid_to_navmesh. Fill with lds_grid_mesh_params_init.
typedef struct lds_GridMeshParams {
  int max_verts; ///< most vertices of one polygon [Limit: 4..LDS_NAVMESH_MAX_POLY_VERTS]; default 64
  uint8_t area;  ///< area id of every polygon; default 0
  bool strict;   ///< no straight (collinear) vertex in any polygon; default true.
                 ///< false: rectangles carrying their neighbours' T-junction
                 ///< points (fewer polygons, more vertices each)
} lds_GridMeshParams;

/// Fills *p with the defaults above.
LDS_API void lds_grid_mesh_params_init(lds_GridMeshParams *p);

/// What lds_grid_to_navmesh built.
typedef struct lds_GridMeshInfo {
  uint32_t rects;      ///< rectangles of the first decomposition
  uint32_t merges;     ///< merges of two polygons into one
  uint32_t polys;      ///< polygons of the mesh
  uint32_t verts;      ///< vertices of the mesh (a pinch vertex counts twice)
  uint32_t max_poly_verts; ///< most vertices of one polygon
  uint64_t build_us;   ///< time of the whole build, lds_navmesh_new included [Units: microseconds, env's clock]
} lds_GridMeshInfo;

/// Builds a navigation mesh covering g's free space exactly (this header's
/// comment). Strict (the default): each row's maximal runs of passable
/// cells, a run extended down over the rows with the same maximal run (so a
/// rectangle's left and right sides border blocked cells), its top and
/// bottom sides split where the rectangles above and below have corners
/// (T-junction points), each rectangle cut between its top and bottom chains
/// into trapezoids and triangles (one segment of each chain at most: strictly
/// convex, no point added); then polygons sharing edges are merged greedily,
/// longest shared boundary first, while the union stays strictly convex
/// within max_verts vertices (corners no other polygon uses are dropped
/// where the merged side runs straight). No polygon has a collinear vertex.
/// Not strict: rectangles (at most max_verts / 4 cells a side) keep the
/// T-junction points their neighbours need as collinear vertices, merged
/// while convex (collinear allowed): fewer polygons, more vertices each.
/// Either way polygons meet along whole edges and a pinch vertex is two
/// vertices. The mesh is built with lds_navmesh_new (canonical winding,
/// neighbour links, point location); every polygon has area params->area.
/// @param[in] env    [opt] allocator and clock (build_us)
/// @param[in] params [opt] NULL for the defaults
/// @param[out] info  [opt] counts and time
/// @returns the mesh, or NULL with err: LDS_E_ARG (NULL grid, max_verts out of
///   range, no passable cell), LDS_E_LIMIT (more than LDS_NAVMESH_MAX_IDS
///   vertices), LDS_E_NOMEM. [Owner: caller frees with lds_navmesh_free]
/// Cost: O(cells) memory, about O(cells) time.
/// [Paper: Hertel & Mehlhorn, "Fast triangulation of simple polygons",
///  FCT 1983 (the merge of convex pieces)]
LDS_API lds_Navmesh *lds_grid_to_navmesh(const lds_Env *env, const lds_Grid *g,
                                         const lds_GridMeshParams *params, lds_GridMeshInfo *info,
                                         lds_Error *err);

LDS_END_DECLS

#endif
