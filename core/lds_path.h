/* SPDX-License-Identifier: MIT */
/*
** lds_path.h — a path: the cells (or graph nodes) from start to goal
** inclusive, with its total cost and flags.
*/
#ifndef LDS_PATH_H
#define LDS_PATH_H

#include "lds_common.h"

LDS_BEGIN_DECLS

typedef struct lds_Path lds_Path;

/// Flags of a path (bit set).
enum {
  LDS_PATH_PARTIAL = 1u ///< ends at the cell closest to the goal among those the
                        ///< query reached, not at the goal (lds_search_partial_path)
};

/* ---------------------------------------------------------- lifetime -- */

/// Creates a path from node ids.
/// @param[in] env    [opt] allocator; NULL for the default
/// @param[in] nodes  [Shape: count ids] grid cell ids are y*width+x
/// @param[in] count  number of nodes (0 allowed)
/// @param[in] width  grid width for grid paths [Units: cells]; 0 for graph paths
/// @param[in] cost   total cost [Units: cost]
/// @param[out] err   [opt]
/// @returns the path or NULL (LDS_E_NOMEM). [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_path_new(const lds_Env *env, const uint32_t *nodes, size_t count,
                               int32_t width, double cost, uint32_t flags, lds_Error *err);
/// Copy of cells i..j (0-based, inclusive) with cost recomputed by the
/// caller-supplied value. Returns NULL for a bad range (LDS_E_ARG) or NOMEM.
LDS_API lds_Path *lds_path_sub(const lds_Path *p, size_t i, size_t j, double cost, lds_Error *err);
/// Copy in reverse order (same cost only for symmetric costs: pass the cost;
/// width, flags and allocator are p's). p is not changed.
/// @returns the copy, or NULL with err LDS_E_NOMEM.
/// [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_path_reverse(const lds_Path *p, double cost, lds_Error *err);
/// Frees a path. NULL is ignored.
LDS_API void lds_path_free(lds_Path *p);

/* ----------------------------------------------------------- queries -- */

LDS_API size_t lds_path_length(const lds_Path *p);   ///< number of nodes/cells
LDS_API double lds_path_cost(const lds_Path *p);     ///< [Units: cost]
LDS_API uint32_t lds_path_flags(const lds_Path *p);  ///< LDS_PATH_* bits
LDS_API int32_t lds_path_width(const lds_Path *p);   ///< grid width, 0 for graph paths
/// Node id i (0-based); UINT32_MAX when out of range.
LDS_API uint32_t lds_path_node(const lds_Path *p, size_t i);
/// Cell i of a grid path. @returns false when out of range or a graph path.
LDS_API bool lds_path_cell(const lds_Path *p, size_t i, int32_t *x, int32_t *y);
/// The node array. [Shape: lds_path_length ids] [Owner: the path]
LDS_API const uint32_t *lds_path_nodes(const lds_Path *p);

/* ------------------------------------------------------------- check -- */

typedef struct lds_Grid lds_Grid;

/// What lds_path_check checks besides the moves. Fill with
/// lds_path_check_init, then set what you need.
typedef struct lds_PathCheck {
  bool check_start;            ///< the path starts at (sx, sy)
  int32_t sx, sy;              ///< [Units: cells]
  bool check_goal;             ///< the path ends at (gx, gy) (off for partial paths)
  int32_t gx, gy;              ///< [Units: cells]
  bool check_cost;             ///< the recomputed cost equals lds_path_cost(p):
                               ///< |c - cost| <= cost_rel_tol * max(1, |cost|)
  double cost_rel_tol;         ///< [Limit: >= 0, finite] default 1e-9
  const double *layer_weights; ///< [opt] [Shape: nlayers] weight of cost layer i
                               ///< (lds_grid_layer_*) added to each cell's cost
  int nlayers;                 ///< [Limit: 0..the grid's layer count]
} lds_PathCheck;

/// Defaults: no endpoint checks, check_cost on with cost_rel_tol 1e-9, no layers.
LDS_API void lds_path_check_init(lds_PathCheck *opts);

/// What lds_path_check found (LDS_PATHCHECK_* in fault).
enum {
  LDS_PATHCHECK_OK = 0,      ///< every check passed
  LDS_PATHCHECK_EMPTY,       ///< the path has no cell
  LDS_PATHCHECK_START,       ///< cell 0 is not (sx, sy)
  LDS_PATHCHECK_CELL,        ///< cell `step` is outside the grid or blocked
  LDS_PATHCHECK_MOVE,        ///< cells step-1 -> step are not neighbours, or the move is
                             ///< illegal under the grid's neighbourhood and diagonal rule
                             ///< (a diagonal cutting a corner it may not cut)
  LDS_PATHCHECK_CELL_COST,   ///< the cost of entering cell `step` is not finite and > 0
  LDS_PATHCHECK_GOAL,        ///< the last cell is not (gx, gy)
  LDS_PATHCHECK_COST         ///< the recomputed cost differs from lds_path_cost
};
typedef struct lds_PathCheckReport {
  int fault;      ///< LDS_PATHCHECK_*
  size_t step;    ///< index of the offending cell (0 for EMPTY, START, COST)
  double cost;    ///< the cost recomputed from the cells up to the fault (all of
                  ///< them when it passed): sum over moves of length (1 or sqrt 2)
                  ///< x cost of the cell entered (+ weighted layers) [Units: cost]
} lds_PathCheckReport;

/// Checks a grid path against grid g as g is now: every cell inside the grid
/// and passable, every step a move to a neighbouring cell that is legal
/// under g's neighbourhood (4 or 8) and diagonal rule (lds_grid_can_move: so
/// no corner cutting where the rule forbids it), the endpoints asked for,
/// and the cost recomputed from the cells (move length x cost of the cell
/// entered, plus the weighted layers) equal to the path's. The checker that
/// the tests, the `lodestar` command and callers' own tests share.
/// @param[in] g     the grid [Owner: caller]
/// @param[in] p     a grid path of g's width
/// @param[in] opts  [opt] NULL for lds_path_check_init's defaults
/// @param[out] out  [opt] the fault, the step and the recomputed cost
/// @param[out] err  [opt] on a fault, a message naming the step, e.g.
///                  "lds_path_check: illegal step 3: (1,2)->(2,3)"
/// @returns LDS_OK when every check passed; LDS_E_FORMAT when one failed
/// (out->fault says which); LDS_E_ARG for a NULL grid or path, a graph path
/// or one of another width, a bad tolerance or layer count (no check done).
LDS_API lds_Status lds_path_check(const lds_Grid *g, const lds_Path *p, const lds_PathCheck *opts,
                                  lds_PathCheckReport *out, lds_Error *err);

LDS_END_DECLS

#endif
