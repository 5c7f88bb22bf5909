/* SPDX-License-Identifier: MIT */
/*
** lds_search.h — the sliced search: one resumable state machine per query
** for the A* family (A*, weighted A*, Dijkstra, greedy best-first) on a grid
** or, through lds_search_new_graph / lds_search_start_nodes, on a graph
** (docs/graphs.md).
**
**   lds_Search *s = lds_search_new(NULL, grid, &err);   // sizes all memory
**   lds_search_start(s, &params, sx, sy, gx, gy);        // O(1): no map-sized work
**   lds_Budget b = {500, 0};                            // 500 expansions a frame
**   while ((st = lds_search_step(s, &b)) == LDS_RUNNING) { ...next frame... }
**   if (st == LDS_FOUND) path = lds_search_path(s, &err);
**
** A search is reused for query after query on the same grid: node memory is
** tagged with a generation counter, so starting a query never touches every
** cell. Memory follows the queries (lds_search_new): lds_search_reserve
** allocates it all at once for a caller that wants no allocation later.
**
** Threads (docs/threads.md): a search belongs to one thread at a time. Many
** threads' searches may share one grid or graph while no thread edits it;
** start and step write only the search, but for locked or atomic writes
** to the grid or graph: a JPS/JPS+ search's first start registers its
** listener (lds_jps.h), a start after an edit may fill the
** lds_grid_min_cost / lds_graph_h_scale cache, and a start with layer
** weights may create or build the grid's cost view of them
** (lds_cost_view.h: its registry and build are locked).
**
** Tie-breaking (deterministic, documented): the open list pops the smallest
** f = g + w*h; among equal f the larger g first (closer to the goal), then the
** entry that got its key first (insertion order; a decrease-key counts as a
** new insertion). Neighbours are generated in the order N, E, S, W, NE, SE,
** SW, NW. So the same grid and query always give the same path, bit for bit,
** whatever the budgets used to slice the search.
**
** [Paper: Hart, Nilsson & Raphael, "A Formal Basis for the Heuristic
**  Determination of Minimum Cost Paths", IEEE TSSC 1968; Pohl, "Heuristic
**  search viewed as path finding in a graph", AI 1970 (weighted A*);
**  Dijkstra, Numerische Mathematik 1959]
*/
#ifndef LDS_SEARCH_H
#define LDS_SEARCH_H

#include "lds_common.h"
#include "lds_graph.h"
#include "lds_grid.h"
#include "lds_path.h"

LDS_BEGIN_DECLS

typedef struct lds_Search lds_Search;

/// Search algorithm.
typedef enum lds_Algo {
  LDS_ALGO_ASTAR = 0,    ///< A* (optimal with an admissible heuristic)
  LDS_ALGO_DIJKSTRA = 1, ///< A* with h = 0
  LDS_ALGO_WASTAR = 2,   ///< weighted A*: f = g + w*h, cost <= w * optimal
  LDS_ALGO_GREEDY = 3,   ///< greedy best-first: f = h (fast, not optimal)
  LDS_ALGO_JPS = 4,      ///< Jump Point Search (uniform-cost 8-connected grids;
                         ///< runs A* elsewhere: see lds_jps.h)
  LDS_ALGO_JPS_PLUS = 5, ///< JPS+ (precomputed jump distances; see lds_jps.h)
  LDS_ALGO_THETA = 6,    ///< Theta*: any-angle, paths of waypoints (cell centres that
                         ///< see each other); cost <= the grid moves' optimum, not
                         ///< optimal (lds_theta.c, docs/any-angle.md)
  LDS_ALGO_LAZY_THETA = 7 ///< Lazy Theta*: Theta* with lazy line-of-sight tests
} lds_Algo;

/// Name of an algorithm ("astar", "dijkstra", "wastar", "greedy", "jps",
/// "jps+", "theta", "lazytheta"); NULL for an invalid value. [Owner: static]
LDS_API const char *lds_algo_name(lds_Algo a);
/// Parses an algorithm name. @returns LDS_OK or LDS_E_ARG.
LDS_API lds_Status lds_algo_parse(const char *name, lds_Algo *out);

/// Distance heuristic, measured in cells and multiplied by a cost scale.
typedef enum lds_Heuristic {
  LDS_H_AUTO = 0,      ///< octile on 8-connected grids, manhattan on 4-connected
                       ///< ones and under LDS_DIAG_NEVER (no diagonal moves)
  LDS_H_ZERO = 1,      ///< h = 0 (Dijkstra)
  LDS_H_MANHATTAN = 2, ///< dx + dy (inadmissible with diagonal moves)
  LDS_H_OCTILE = 3,    ///< max + (sqrt2 - 1) * min: exact on an empty 8-grid
  LDS_H_EUCLIDEAN = 4, ///< sqrt(dx^2 + dy^2)
  LDS_H_CHEBYSHEV = 5, ///< max(dx, dy)
  LDS_H_GREAT_CIRCLE = 6, ///< graphs with LDS_COORDS_LONLAT: haversine distance
                          ///< in metres (R = 6,371,000 m) times the scale
  LDS_H_CUSTOM = 7     ///< graphs: params.node_h(ud, node, goal), unscaled
} lds_Heuristic;

/// Name of a heuristic ("auto", "zero", "manhattan", "octile", "euclidean",
/// "chebyshev", "great_circle", "custom"); NULL if invalid. [Owner: static]
LDS_API const char *lds_heuristic_name(lds_Heuristic h);
/// Parses a heuristic name. @returns LDS_OK or LDS_E_ARG.
LDS_API lds_Status lds_heuristic_parse(const char *name, lds_Heuristic *out);
/// Distance in cells for a displacement (dx, dy) under heuristic h
/// (LDS_H_AUTO counts as octile). [Units: cells]
LDS_API double lds_heuristic_distance(lds_Heuristic h, int32_t dx, int32_t dy);

/// Per-edge cost callback. Called for each move (x0,y0) -> (x1,y1) the search
/// considers, with base = the move's cost from the grid and layers
/// [Units: cost]. Write the cost to *out: finite and > 0, or +INFINITY to
/// forbid the move. Return LDS_OK, or a negative status to abort the search
/// (it then ends with LDS_E_CALLBACK). A value <= 0 or NaN also ends it with
/// LDS_E_CALLBACK, naming the edge.
typedef lds_Status (*lds_EdgeCost)(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                                   double base, double *out);

/// Custom heuristic for graph searches (LDS_H_CUSTOM): an estimate of the
/// cost from `node` to `goal` [Units: cost], finite and >= 0 (anything else
/// ends the step with LDS_E_CALLBACK). A* returns optimal costs when it is
/// admissible (never above the true remaining cost); it is called again for
/// each relaxation, so keep it cheap and deterministic. Closed nodes are
/// reopened, so admissible-but-inconsistent estimates stay optimal.
typedef double (*lds_NodeHeuristic)(void *ud, uint32_t node, uint32_t goal);

/// Parameters of one query. Fill with lds_search_params_init, then change.
typedef struct lds_SearchParams {
  lds_Algo algo;            ///< default LDS_ALGO_ASTAR
  lds_Heuristic heuristic;  ///< default LDS_H_AUTO
  double weight;            ///< w for weighted A* and greedy [Limit: 0 or >= 1];
                            ///< 0 (lds_search_params_init) is the default: 1.5
                            ///< for LDS_ALGO_WASTAR, 1 otherwise; an explicit
                            ///< 1 is honoured (weighted A* = A*)
  double h_scale;           ///< [opt] cost per cell of distance used to scale h
                            ///< [Units: cost]; 0 = automatic: the smallest cost
                            ///< of a cell under the weights in force
  bool partial;             ///< on no path (or budget spent), lds_search_path
                            ///< returns the path to the reachable (expanded)
                            ///< cell closest to the goal, flagged
                            ///< LDS_PATH_PARTIAL (see lds_search_partial_path);
                            ///< a blocked goal is then searched for like a
                            ///< walled-in one
  const double *layer_weights; ///< [opt] [Shape: n_layer_weights doubles, one
                            ///< per grid layer index] effective cell cost =
                            ///< base + sum(weight[i] * layer[i][cell])
  int n_layer_weights;      ///< [Limit: <= lds_grid_layer_count]
  lds_EdgeCost edge_cost;   ///< [opt] per-edge callback (slow; see docs)
  void *edge_ud;            ///< passed to edge_cost
  lds_NodeHeuristic node_h; ///< [opt] graphs: the LDS_H_CUSTOM heuristic
  void *node_h_ud;          ///< passed to node_h
} lds_SearchParams;

/// Fills *p with the defaults listed in lds_SearchParams.
LDS_API void lds_search_params_init(lds_SearchParams *p);

/* ---------------------------------------------------------- lifetime -- */

/// Creates a search for a grid. Its memory follows what the queries use
/// (docs/search.md, "Memory"): 24 bytes per cell for the open list
/// (written only as far as the largest open list reaches) and a 96 KB
/// plateau stack now; the 16-byte records of the A* loop on uniform-cost
/// octile queries (the common case) now as one array on grids under
/// 2^22 padded cells, else in pages of 256 records that a query claims on
/// first touch (in lds_search_step) from a pool the next query reuses, so
/// the search costs about 16 bytes per cell its largest query touched; the
/// 32-byte node records of every other loop (weights, costs, JPS, other
/// heuristics) at the first lds_search_start that needs them; queries with
/// layer weights read the grid's shared cost view of their weights
/// (lds_cost_view.h: 8 bytes per cell per weight set, held by the grid,
/// built by the first start that needs it). lds_search_reserve
/// allocates all of it at once. The grid must outlive the search.
/// @param[in] env  [opt] allocator and clock; NULL for defaults
/// @param[in] grid the grid to search (read-only; edits are detected)
/// @param[out] err [opt]
/// @returns the search, NULL on LDS_E_ARG/LDS_E_NOMEM.
/// [Owner: caller frees with lds_search_free]
LDS_API lds_Search *lds_search_new(const lds_Env *env, const lds_Grid *grid, lds_Error *err);
/// Creates a search for a frozen graph: the same A* family, open list,
/// tie-breaking, budgets, stats and partial paths as on grids, over the
/// graph's out-edges in CSR order. Allocates 56 bytes per node (a 32-byte
/// node record + a 24-byte open-list slot) plus a 96 KB plateau stack;
/// lds_search_step never allocates. The graph must outlive
/// the search; cost edits make a running query return LDS_E_STALE.
/// @param[in] env   [opt] allocator and clock
/// @param[in] graph [Limit: frozen]
/// @param[out] err  [opt]
/// @returns the search, or NULL with err: LDS_E_ARG (NULL graph),
///   LDS_E_STATE (graph not frozen), LDS_E_NOMEM.
///   [Owner: caller frees with lds_search_free]
/// [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968]
LDS_API lds_Search *lds_search_new_graph(const lds_Env *env, const lds_Graph *graph,
                                         lds_Error *err);
/// Frees a search. NULL is ignored.
LDS_API void lds_search_free(lds_Search *s);
/// Allocates now every node record a grid search may need (the 32-byte
/// records, every page of the paged ones), so that later starts and steps
/// allocate nothing but the weighted-cost array and algorithm tables they
/// document (a game that wants its memory up front, the scheduler). A graph
/// search has everything already.
/// @returns LDS_OK, or LDS_E_NOMEM (message in lds_search_errmsg; what was
/// allocated is kept).
LDS_API lds_Status lds_search_reserve(lds_Search *s);
/// Bytes allocated by the search (node records, open list, scratch).
LDS_API size_t lds_search_mem_used(const lds_Search *s);

/* ----------------------------------------------------------- queries -- */

/// Starts a query from (sx,sy) to (gx,gy) [Units: cells]; cancels any
/// previous one, even when it fails. O(1) in the map size.
/// @param[in] params [opt] NULL for defaults
/// @returns LDS_OK (query started; call step), or LDS_E_ARG for coordinates
///   out of bounds, weight NaN or below 1 (other than 0), an unknown algorithm or heuristic, a
///   layer weight array longer than the grid's layer list, a passable cell
///   whose weighted cost is <= 0, NaN or infinite (the message names the
///   cell, the layer and its weight), or LDS_E_NOMEM (message in
///   lds_search_errmsg: the 32-byte node records of the first query that
///   needs them). A blocked start or goal is not an error: the query
///   is started and its first step returns LDS_NO_PATH.
///   With layer weights, the search uses the grid's cost view of those
///   weights (lds_cost_view.h: created on first use, shared by every search
///   with the same weights, updated cell by cell by edits): O(1) when the
///   view is ready, else the rest of the view is built here, O(cells). A
///   running query becomes stale (LDS_E_STALE at its next step) when the
///   view's cost mode or, with h_scale 0, its minimum changes.
///   A blocked start: the first step returns LDS_NO_PATH, and there is no
///   partial path (the path calls fail with LDS_E_STATE naming the start).
///   A blocked goal: without params.partial the first step returns
///   LDS_NO_PATH without expanding anything; with it the query runs to
///   exhaustion like one to a walled-in goal, for its partial path. A goal
///   out of bounds is LDS_E_ARG either way (no cell to measure from).
LDS_API lds_Status lds_search_start(lds_Search *s, const lds_SearchParams *params, int32_t sx,
                                    int32_t sy, int32_t gx, int32_t gy);

/// Starts a query on a graph search from node `start` to node `goal`
/// (ids 0..node_count-1); cancels any previous one. O(1) in the graph size,
/// except the first query after a cost edit with the automatic scale, which
/// recomputes lds_graph_h_scale in O(edges).
/// Heuristics (params.heuristic; Dijkstra forces zero):
///   - auto: euclidean for XY/XYZ graphs, great_circle for LONLAT, zero
///     without coordinates;
///   - euclidean (XY/XYZ) / great_circle (LONLAT): h = scale * distance(v,
///     goal). Admissible and consistent whenever scale * distance(u, v) <=
///     cost(u, v) on every edge. The default scale (h_scale = 0) is
///     lds_graph_h_scale, the largest such value, so A* is optimal and never
///     reopens; a user h_scale > 0 overrides it (then closed nodes are
///     reopened, and the result is optimal iff h stays admissible);
///   - zero: always admissible (Dijkstra order);
///   - custom: params.node_h, admissible iff it never overestimates the
///     remaining cost; closed nodes are reopened.
/// Partial paths end at the expanded node closest to the goal. With
/// params.partial on a graph with coordinates that is the coordinate
/// distance (euclidean, or great-circle for LONLAT), computed per expansion,
/// whatever the heuristic, so every algorithm picks the same node; ties:
/// smaller g, then smaller id. Without params.partial (the best so far of a
/// running query) it is h, read back from the open-list entry (free); with
/// h = 0 or no coordinates and no custom h nothing is measured and the
/// partial path is the start.
/// [Units: node ids]
/// @returns LDS_OK, or LDS_E_ARG (message in lds_search_errmsg) for: a node
///   out of range, a grid search, a heuristic the graph's coordinates cannot
///   serve (octile, manhattan, chebyshev; euclidean without XY/XYZ;
///   great_circle without LONLAT; custom without node_h), weight NaN or below 1 (other than 0),
///   h_scale < 0, layer weights or an edge_cost callback (grid-only);
///   LDS_E_CALLBACK when the custom heuristic fails on the start node.
/// [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968]
LDS_API lds_Status lds_search_start_nodes(lds_Search *s, const lds_SearchParams *params,
                                          uint32_t start, uint32_t goal);
/// Scale of the heuristic of the current query [Units: cost per distance
/// unit (per cell on grids, per metre on lon/lat graphs)]: the user's h_scale
/// or the automatic one; on graphs 0 when h is zero or custom.
LDS_API double lds_search_h_scale(const lds_Search *s);
/// The graph the search was created on (NULL for a grid search).
LDS_API const lds_Graph *lds_search_graph(const lds_Search *s);

/* ----------------------------------------------------------- slicing -- */

/// Runs the query for one slice, bounded by a budget of expansions and/or
/// microseconds: the first limit reached ends the step (the clock is read
/// every 64 expansions, 16 with JPS; a field of 0 is no limit of that kind;
/// a NULL budget, or both fields 0, runs the query to the end).
/// @param[in] budget [opt] limits of this step; NULL = no limit
/// @returns LDS_RUNNING (budget spent: call again), LDS_FOUND, LDS_NO_PATH
///   (never LDS_RUNNING without a limit), or an error: LDS_E_STATE (no query
///   started), LDS_E_STALE (the grid or graph changed since the start),
///   LDS_E_CALLBACK (edge callback failed or returned a cost <= 0 or NaN;
///   the message, in lds_search_errmsg, names the edge). A finished query
///   keeps returning its final status.
LDS_API lds_Status lds_search_step(lds_Search *s, const lds_Budget *budget);
/// Deprecated: use lds_search_step(s, &(lds_Budget){max_expansions, 0}).
/// Expands at most max_expansions nodes (0 = no limit); returns what
/// lds_search_step returns. (This was lds_search_step's own signature.)
LDS_API lds_Status lds_search_step_expansions(lds_Search *s, uint64_t max_expansions);
/// Deprecated: use lds_search_step (same signature and meaning).
LDS_API lds_Status lds_search_step_budget(lds_Search *s, const lds_Budget *budget);
/// Deprecated: use lds_search_step(s, NULL) (runs the query to the end).
LDS_API lds_Status lds_search_run(lds_Search *s);
/// Current status: LDS_RUNNING, a final outcome, or the error that ended it;
/// LDS_E_STATE before the first start.
LDS_API lds_Status lds_search_status(const lds_Search *s);
/// Counters of the current query (lds_Stats, cumulative over its steps;
/// reset by lds_search_start).
LDS_API void lds_search_stats(const lds_Search *s, lds_Stats *out);
/// Last error message ("" if none). [Owner: the search]
LDS_API const char *lds_search_errmsg(const lds_Search *s);

/* ------------------------------------------------------------ result -- */

/// Cost of the path found [Units: cost]; -1 unless the status is LDS_FOUND.
LDS_API double lds_search_cost(const lds_Search *s);
/// The path found (status LDS_FOUND): cells (grid) or node ids (graph;
/// lds_path_width 0) from start to goal inclusive.
/// With params.partial and status LDS_NO_PATH or LDS_RUNNING (budget spent),
/// the partial path (lds_search_partial_path), flagged partial.
/// @returns NULL with err->code LDS_E_STATE when there is no path ("no path
/// (status no_path)", or "no path (start (x,y) is blocked)"), LDS_E_NOMEM.
/// [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_search_path(const lds_Search *s, lds_Error *err);
/// Best-so-far path: to the goal if found, else to the cell closest to the
/// goal among those the query has reached, flagged partial. Works while
/// running and after LDS_NO_PATH. On grids "closest" is the smallest
/// Euclidean distance in cells to the goal (squared, in integers: exact),
/// ties: the cheaper path, then the smaller cell id (the upper row, then
/// the left column), the same for every algorithm and heuristic. A query
/// that ended LDS_NO_PATH has reached every cell reachable from the start,
/// so with A*, Dijkstra, JPS and JPS+ this is the reachable cell closest to
/// the goal with an optimal path to it; weighted A* ends at a cell at the
/// same distance with a path of cost <= w x that optimum, greedy at the same
/// distance with no bound. JPS and JPS+ count the cells their jumps pass
/// only with params.partial (docs/search.md, "Partial paths"); without it
/// they compare the jump points expanded. Graphs: lds_search_start_nodes.
/// A blocked goal without params.partial ends before any expansion: the
/// partial path is then the start alone.
/// @returns a new path (not flagged partial when it reaches the goal), or
///   NULL with err: LDS_E_STATE when no query was started (or the last start
///   failed: "no query started") or the start is blocked ("no path (start
///   (x,y) is blocked)"), LDS_E_NOMEM.
///   [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_search_partial_path(const lds_Search *s, lds_Error *err);
/// The grid the search was created on (NULL for a graph search).
LDS_API const lds_Grid *lds_search_grid(const lds_Search *s);

LDS_END_DECLS

#endif
