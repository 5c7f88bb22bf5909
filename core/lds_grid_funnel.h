/* SPDX-License-Identifier: MIT */
/*
** lds_grid_funnel.h — string pulling on grids: a grid path turned into the
** shortest path through the corridor of cells it crosses (a funnel over the
** cell chain), exactly.
**
** The corridor. A grid path's cells, as closed squares (the centre of cell
** (x,y) is the point (x,y), its square [x-0.5,x+0.5] x [y-0.5,y+0.5]), in
** path order, joined through their shared edges (the portals). At a
** diagonal move a -> b one side cell is put between a and b, so the corridor
** is not pinched at the corner: the side cell (b.x, a.y) or (a.x, b.y) that
** is free, or when both are, the one whose centre is nearer the chord from
** the path's cell 8 moves before a to its cell 8 moves after b (clamped to
** the ends; a tie takes (b.x, a.y)); when neither is free (diagonal rule
** "always") the move keeps its one-point portal, the shared corner. The
** result is the shortest curve from the first cell's centre to the last's
** that crosses the portals in order, staying in the squares between them;
** it bends only at cell corners. It is never longer than the input polyline
** (one such curve: a diagonal move passes the corner, which is on both
** portals of its side cell) and lies in the union of free cells, so it
** meets no blocked cell's interior; it may run along a blocked cell's side
** or touch its corner.
**
** Terrain costs: the funnel measures length, so it is the optimal path of
** the corridor as if every cell in it cost the same (a uniform corridor).
** On a weighted grid its cost (lds_grid_polyline_cost) can be above or below
** the input path's; compare the two when costs matter, or use Theta*
** (LDS_ALGO_THETA), which costs every straight step exactly.
**
** [Paper: Lee & Preparata, "Euclidean shortest paths in the presence of
**  rectilinear barriers", Networks 1984 (the funnel); Mononen, "Simple
**  Stupid Funnel Algorithm", 2010 (this form)]
*/
#ifndef LDS_GRID_FUNNEL_H
#define LDS_GRID_FUNNEL_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"

LDS_BEGIN_DECLS

/// The shortest path through the corridor of a grid path (see the header
/// comment): its corner points, start and goal included, with no two equal
/// consecutive points and no collinear interior point.
/// @param[in] g    the grid p lies on
/// @param[in] p    a grid path of g's width: passable cells, each step a move
///                 to one of the 8 neighbouring cells (any diagonal rule);
///                 1 cell gives 1 point
/// @param[out] xy  [Shape: 2*cap doubles, x0 y0 x1 y1 ...] [Units: cells]
///                 [Limit: cap >= 2 * lds_path_length(p), which always suffices]
/// @param[in] cap  points xy can hold
/// @param[out] n_out   [opt] number of points written
/// @param[out] length  [opt] Euclidean length of the result [Units: cells]
/// @param[out] err [opt]
/// @returns LDS_OK; LDS_E_ARG (message in err) for a NULL argument, an empty
///   or graph path, a width mismatch, a cell outside the grid or blocked, a
///   step that is not a move to a neighbouring cell (a pruned or Theta*
///   path: string-pull the search's full cell path), or cap too small.
///   LDS_E_NOMEM (16 bytes per cell of p, from g's allocator, freed before
///   the return). Cost: O(n^2) time in the worst case, O(n) in practice. Exact: every point is a cell centre or corner (a multiple of
///   0.5) and every orientation test is exact in doubles.
LDS_API lds_Status lds_grid_funnel(const lds_Grid *g, const lds_Path *p, double *xy, size_t cap,
                                   size_t *n_out, double *length, lds_Error *err);

LDS_END_DECLS

#endif
