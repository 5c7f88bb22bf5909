/* SPDX-License-Identifier: MIT */
/*
** lds_jps.h — Jump Point Search and JPS+ on 8-connected uniform-cost grids.
**
** JPS runs through the ordinary sliced search (lds_search.h): set
** params.algo = LDS_ALGO_JPS or LDS_ALGO_JPS_PLUS, then start / step / path
** as for A*. Statuses, budgets, stats, stale detection and partial paths work
** the same; stats.expansions counts jump points taken from the open list.
** A partial path (params.partial) ends where A*'s does, at the reachable cell
** closest to the goal (lds_search_partial_path), usually a cell a jump passed
** rather than a jump point: with params.partial every expansion also offers
** the cells its jumps pass, which repeats the scanning of the jumps (more
** instructions per query; docs/benchmarks.md has the measured cost).
** Without params.partial, lds_search_partial_path compares the expanded jump
** points only, its path cut at its first cell closest to the goal.
** lds_search_path returns the full cell sequence (jump points filled in, every
** step a legal move) and lds_search_cost its cost, equal to the A* cost up to
** floating-point rounding (segment costs are k*sqrt(2) instead of k sums).
**
** When JPS applies. JPS is only optimal when every move costs its length
** (Harabor & Grastien prove optimality for uniform costs). A JPS query runs
** plain A* instead (same result as LDS_ALGO_ASTAR, never an error) when any of
** these holds at lds_search_start:
**   - the grid is 4-connected or its diagonal rule is "never" or
**     "allow_one_blocked" (JPS here covers "no_corner_cutting" and "always");
**   - some cell costs other than 1 (lds_grid_set_cost), a layer weight is
**     non-zero, or an edge-cost callback is set.
** lds_search_algo_used tells which algorithm actually ran. LDS_ALGO_JPS_PLUS
** on a grid with the "always" rule runs JPS (its tables are built for the
** Moving AI "no_corner_cutting" rule only).
**
** Memory. The first JPS query on a search builds two bit-packed copies of the
** passability grid (row-major and transposed, 2 bits per cell in all); the
** first JPS+ query also builds the jump-distance tables (8 int8 per padded
** cell, 8 bytes per cell; a distance of 127 or more is stored as a
** continuation that the jump resumes from 126 cells on, so long jumps cost a
** few extra table reads, never an extra jump point). Both are kept up to
** date through a grid listener:
** an edit updates the touched bits and recomputes the JPS+ distances of the
** rows and columns through the edited rectangle (one cell of margin) and of
** every diagonal line whose distances could change. lds_search_step never
** allocates. lds_search_jps_prepare builds them ahead of time.
**
** Tie-breaking (deterministic): the open list orders as for A* (smallest f,
** then larger g, then insertion order). Successors of a jump point are
** generated in the order N, E, S, W, NE, SE, SW, NW; a node reached again
** with an equal g from another direction keeps its parent and adds the new
** arrival direction to its successor set. Slicing never changes the path.
**
** [Paper: Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid
**  Maps", AAAI 2011 (JPS); Harabor & Grastien, "Improving Jump Point Search",
**  ICAPS 2014 (block-based jumps); Rabin & Silva, "JPS+: An Extreme A*
**  Speed Optimization for Static Uniform Cost Grids", Game AI Pro 2, 2015]
*/
#ifndef LDS_JPS_H
#define LDS_JPS_H

#include "lds_common.h"
#include "lds_path.h"
#include "lds_search.h"

LDS_BEGIN_DECLS

/// Preprocessing report of a search's JPS structures.
typedef struct lds_JpsInfo {
  size_t bitgrid_bytes;     ///< bytes of the bit grids and jump events (0 if not built)
  uint64_t bitgrid_us;      ///< time to build them [Units: µs]
  size_t plus_bytes;        ///< bytes of the JPS+ tables (0 if not built)
  uint64_t plus_us;         ///< time of the last full JPS+ build [Units: µs]
  uint64_t plus_updates;    ///< local JPS+ recomputations after grid edits
  uint64_t plus_update_us;  ///< total time spent in them [Units: µs]
} lds_JpsInfo;

/* ---------------------------------------------------------- preparing -- */

/// Builds (or brings up to date) the JPS bit grids and, with plus, the JPS+
/// tables, so the first query does not pay for them. The tables belong to
/// the search, not the grid. Registers a listener on the search's grid
/// (removed by lds_search_free), under the grid's lock, so searches of
/// other threads may read the grid meanwhile; the first JPS query does this
/// too. Edits of the grid then update the tables from the editing thread
/// (docs/threads.md: no search on a grid runs during its edit).
/// @param[in] s     the search
/// @param[in] plus  also build the JPS+ jump-distance tables
/// With plus on a grid that is not 8-connected "no_corner_cutting", only the
/// bit grids are built (the tables follow at the first JPS+ query on such a
/// grid). Cost: O(cells) time, 2 bits per cell; plus 8 bytes per cell.
/// @returns LDS_OK, LDS_E_NOMEM (message in lds_search_errmsg; the search
///   stays usable and a later JPS query retries), LDS_E_ARG (not a grid search).
/// [Paper: Harabor & Grastien, ICAPS 2014 (bit grids); Rabin & Silva, Game AI
///  Pro 2, 2015 (JPS+ preprocessing)]
LDS_API lds_Status lds_search_jps_prepare(lds_Search *s, bool plus);

/// Preprocessing time and memory of the JPS structures (zeros before the
/// first JPS query or lds_search_jps_prepare).
LDS_API void lds_search_jps_info(const lds_Search *s, lds_JpsInfo *out);

/* ------------------------------------------------------------ result -- */

/// Algorithm that actually runs the current query: params.algo, or
/// LDS_ALGO_ASTAR when a JPS query fell back (see "When JPS applies"), or
/// LDS_ALGO_JPS for a JPS+ query on an "always" grid.
LDS_API lds_Algo lds_search_algo_used(const lds_Search *s);

/// The sparse form of the path found by a JPS / JPS+ query: the start, every
/// jump point on the way, the goal; consecutive points are joined by a
/// straight or diagonal line. Same cost as lds_search_path. For a query that
/// ran A* (fallback or another algorithm) every cell is returned.
/// With params.partial and status LDS_NO_PATH: the partial path's points
/// (the jump points to its end, the corner of its last link, its end).
/// @returns NULL with err->code LDS_E_STATE when there is no path,
/// LDS_E_NOMEM. [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_search_jump_points(const lds_Search *s, lds_Error *err);

LDS_END_DECLS

#endif
