/* SPDX-License-Identifier: MIT */
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
** Cost of a path, exactly. A grid path is the polyline through the centres
** of its cells; the centre of cell (x,y) is the point (x,y) and its square
** is [x-0.5,x+0.5) x [y-0.5,y+0.5). The cost of a cell is its effective
** cost: base cost + sum of weight x layer value over the weighted layers
** (the rule of lds_SearchParams.layer_weights); blocked cells, cells outside
** the grid and cells a weighted layer makes +inf cost +inf. A straight
** segment from the centre of cell a to the centre of cell b costs
**     sum over the cells it crosses of (its length inside the cell) x cost,
** except that its length inside a itself is charged at b's cost: the move
** rule of the grid ("a move costs its length times the cost of the cell
** entered") extended to any segment, so a one-cell move costs exactly what
** a search charged for it, a search's path costs exactly its search cost,
** and a straight segment costs the same whether or not it is cut at the
** cell centres it passes. The lengths are computed exactly by a cell
** traversal (Amanatides & Woo 1987): a segment through a cell corner meets
** the two side cells in one point, length 0 (whether it may pass that
** corner at all is the line-of-sight rule's business, above). A general
** polyline (lds_grid_polyline_cost: smoothed points anywhere) costs its
** length through each cell times the cell's cost, except that at each
** vertex on a cell centre the stretch until it first leaves that cell is
** charged at the cost of the next vertex on a cell centre (the last one's
** own when none follows); for a grid path this is the same sum. A segment
** lying along the edge between two cells is charged the dearer of the two;
** a piece shorter than 1e-9 cells inside a cell is not charged (points
** computed on a line through a cell corner carry rounding errors of about
** 1e-16, which would otherwise clip the side cells).
**
** Why pruning never costs more: lds_path_prune_los_weighted replaces the
** sub-path between two kept cells by their straight segment only when the
** segment is seen (line of sight) and costs no more than that sub-path, both
** measured as above under the same weights; the pruned path's cost, the sum
** of its segments, is therefore never above the original's (the check is
** made on the running sums, so rounding cannot break it either). On a
** uniform grid every seen segment qualifies (a straight line is the
** shortest). With no_corner_cutting (and on 4-connected grids, or with
** "never") a seen segment crosses no blocked cell; under allow_one_blocked
** and always it may cut through one, and then costs +inf and is not taken.
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
/// This is the walk's cost, not the straight segment's: paths (and their
/// pruning) are costed by the segment, lds_grid_path_cost_weighted.
/// [Units: cost] @returns LDS_OK, or LDS_E_ARG when there is no line of sight.
LDS_API lds_Status lds_grid_line_cost(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                                      int32_t y1, double *cost);

/* --------------------------------------------------------------- paths -- */

/// Cost of a grid path under base cell costs (no layers):
/// lds_grid_path_cost_weighted(g, p, NULL, 0, cost, err).
LDS_API lds_Status lds_grid_path_cost(const lds_Grid *g, const lds_Path *p, double *cost,
                                      lds_Error *err);

/// Cost of a grid path whose consecutive cells see each other (adjacent
/// cells: one move), each step the straight segment between the two cell
/// centres, costed exactly as in the header comment ("Cost of a path"),
/// summed in path order. For a path a search returned under the same
/// weights (no edge callback) this is its search cost.
/// @param[in] layer_weights [opt] [Shape: n_layer_weights doubles, one per
///   layer index] as lds_SearchParams.layer_weights
/// @param[in] n_layer_weights [Limit: 0..lds_grid_layer_count(g)]
/// @param[out] cost [Units: cost]
/// @returns LDS_OK; LDS_E_ARG (message in err) when the path is a graph
///   path or does not fit the grid, a weight is NaN or infinite, a step has
///   no line of sight, a step's segment crosses a blocked cell (possible
///   under allow_one_blocked and always) or one a weighted layer blocks, or
///   a crossed cell costs <= 0 or NaN under the weights (the message names
///   the step or the cell). Cost: O(sum of the steps' lengths).
LDS_API lds_Status lds_grid_path_cost_weighted(const lds_Grid *g, const lds_Path *p,
                                               const double *layer_weights, int n_layer_weights,
                                               double *cost, lds_Error *err);

/// Cost of a polyline of arbitrary points (smoothed paths), costed exactly
/// as in the header comment: +inf when it crosses a blocked cell, a cell
/// outside the grid or one a weighted layer blocks, with positive length
/// (a point more than 1e-9 outside the grid's square gives +inf at once).
/// @param[in] xy [Shape: 2*n doubles, x0 y0 x1 y1 ...] [Units: cells]
/// @param[in] n  number of points (0 or 1: cost 0)
/// @param[in] layer_weights [opt] as lds_grid_path_cost_weighted
/// @param[out] cost [Units: cost]
/// @returns LDS_OK; LDS_E_ARG for a NaN or infinite coordinate or weight, a
///   weight count out of range, or a crossed cell whose cost is <= 0 or NaN
///   under the weights. Cost: O(n + total length in cells).
LDS_API lds_Status lds_grid_polyline_cost(const lds_Grid *g, const double *xy, size_t n,
                                          const double *layer_weights, int n_layer_weights,
                                          double *cost, lds_Error *err);

/// Line-of-sight pruning under base costs:
/// lds_path_prune_los_weighted(p, g, NULL, 0, NULL, err).
LDS_API lds_Path *lds_path_prune_los(const lds_Path *p, const lds_Grid *g, lds_Error *err);

/// Line-of-sight pruning that keeps the designer's costs: keeps the first
/// cell; then, from the last kept cell a, the farthest later cell b such
/// that a sees b (lds_grid_line_of_sight) and the straight segment a-b
/// costs no more than the sub-path a..b it replaces (cost rule of the header
/// comment, under these weights); when no later cell but the next qualifies,
/// the next is kept. Every later cell is tried, not only up to the first
/// one a cannot see: a may see past a cell it cannot see. The new path's
/// cost is the sum of its segments' costs, never more than p's (recomputed
/// under the same weights); lds_grid_path_cost_weighted with the same
/// weights gives it again. Flags are copied. Edge callbacks are not known
/// here: a path found with one is pruned by its cell costs.
/// Complexity: O(n) memory; O(k * n * d) time in the worst case for n cells,
/// k kept cells and segments of at most d cells (each candidate's line walk
/// and cost traversal stop at the first illegal move or once over the
/// sub-path's cost; candidates are tried farthest first and the first that
/// qualifies ends the scan, so open stretches are found after one check).
/// @param[in] p     a grid path on g (every step a legal move or a line walk)
/// @param[in] g     the grid the path lies on
/// @param[in] layer_weights [opt] as lds_grid_path_cost_weighted: pass the
///   weights of the query that found p
/// @param[out] kept_index [opt] [Shape: lds_path_length(p) entries, the first
///   lds_path_length(result) filled] the index in p of each kept cell, in
///   order (0 first, the last cell's index last): segment k of the result
///   replaces p's cells kept_index[k]..kept_index[k+1]
/// @param[out] err  [opt]
/// @returns the pruned path, or NULL: LDS_E_ARG (graph path, width mismatch,
///   a weight count or value out of range, a step of p that
///   lds_grid_path_cost_weighted rejects, a cell costing <= 0 or NaN under
///   the weights; the message names the step or cell), LDS_E_NOMEM.
///   [Owner: caller frees with lds_path_free]
/// [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
///  Path-Finding", JoGD 2004 (path smoothing by line of sight)]
LDS_API lds_Path *lds_path_prune_los_weighted(const lds_Path *p, const lds_Grid *g,
                                              const double *layer_weights, int n_layer_weights,
                                              size_t *kept_index, lds_Error *err);

LDS_END_DECLS

#endif
