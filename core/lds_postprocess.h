/*
** lds_postprocess.h — path post-processing on grids: line of sight and
** line-of-sight pruning (the "drop every cell whose neighbours see each
** other" pass that turns a grid path into waypoints).
**
** Line of sight, exactly: lds_grid_line_of_sight(g, a, b) is true when the
** deterministic "line walk" from a to b is a legal grid path, i.e. every one
** of its moves is allowed by lds_grid_can_move (neighbourhood, diagonal rule
** and corner cutting included). The walk is:
**  - 8-connected grids with a diagonal rule other than "never": Bresenham's
**    line, one move per step, a diagonal move when the error term calls for
**    both an x and a y step; max(|dx|,|dy|) moves, min(|dx|,|dy|) of them
**    diagonal.
**  - 4-connected grids, or diagonal rule "never": the 4-connected walk of
**    the same line (Amit Patel's "walk_grid"): step in x while
**    (1+2i)*|dy| < (1+2j)*|dx| (i, j = x and y steps done so far), else in y;
**    |dx|+|dy| moves. Ties (the line through a cell corner) step in y.
** The walk is directional: a->b and b->a may visit different cells.
**
** Why a pruned path stays legal and never costs more on a uniform grid:
** each kept segment a->b stands for its line walk, which is a legal path by
** definition, so expanding the waypoints with their line walks gives a
** legal grid path. The walk from a to b has exactly the octile (8-connected)
** or Manhattan (4-connected) number of moves, which is the cheapest any path
** from a to b can be on a grid where every cell costs the same; the original
** sub-path between a and b is such a path, so replacing it never adds cost.
** On grids with varying costs a walk may cross dearer cells: the cost is
** recomputed and can grow.
*/
#ifndef LDS_POSTPROCESS_H
#define LDS_POSTPROCESS_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"

LDS_BEGIN_DECLS

/* ------------------------------------------------------ line of sight -- */

/// true when the line walk from (x0,y0) to (x1,y1) is legal on g (see the
/// header comment for the exact rule). A cell sees itself when passable;
/// false when either end is blocked or out of bounds. [Units: cells]
/// Cost: O(max(|dx|,|dy|)) (8-connected) or O(|dx|+|dy|) (4-connected).
LDS_API bool lds_grid_line_of_sight(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                                    int32_t y1);

/// Cost of the line walk from (x0,y0) to (x1,y1): the sum over its moves of
/// the move length (1 or sqrt 2) times the base cost of the cell entered.
/// [Units: cost] @returns LDS_OK, or LDS_E_ARG when there is no line of sight.
LDS_API lds_Status lds_grid_line_cost(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                                      int32_t y1, double *cost);

/* --------------------------------------------------------------- paths -- */

/// Cost of a grid path whose consecutive cells are joined by line walks
/// (adjacent cells: one move), with base cell costs (layers not included).
/// [Units: cost] @returns LDS_OK; LDS_E_ARG (message in err) when the path
/// is a graph path, does not fit the grid, or a step has no line of sight.
LDS_API lds_Status lds_grid_path_cost(const lds_Grid *g, const lds_Path *p, double *cost,
                                      lds_Error *err);

/// Line-of-sight pruning: keeps the first cell, then greedily the farthest
/// cell the last kept cell sees (checked in path order, so each kept segment
/// is a line walk), and the last cell. The new path's cost is recomputed with
/// lds_grid_path_cost (base costs); its flags are copied.
/// @param[in] p     a grid path on g (every step a legal move or a line walk)
/// @param[in] g     the grid the path lies on
/// @param[out] err  [opt]
/// @returns the pruned path, or NULL: LDS_E_ARG (graph path, width mismatch,
///   a step of p without line of sight; the message names the step),
///   LDS_E_NOMEM. [Owner: caller frees with lds_path_free]
/// [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
///  Path-Finding", JoGD 2004 (path smoothing by line of sight)]
LDS_API lds_Path *lds_path_prune_los(const lds_Path *p, const lds_Grid *g, lds_Error *err);

LDS_END_DECLS

#endif
