/* SPDX-License-Identifier: MIT */
/*
** lds_dstar.h — D* Lite: an incremental planner that repairs its previous
** search when cells change and the agent moves, instead of starting over.
**
**   lds_DStar *ds = lds_dstar_new(NULL, grid, sx, sy, gx, gy, NULL, &err);
**   lds_dstar_subscribe(ds, grid);              // optional: hear every grid edit
**   while ((st = lds_dstar_step(ds, &budget)) == LDS_RUNNING) { ...next frame... }
**   if (st == LDS_FOUND) lds_dstar_next(ds, &x, &y);   // or lds_dstar_path
**   lds_dstar_move_start(ds, x, y);             // the agent walked
**   lds_grid_set_blocked(grid, 10, 4, true);    // forwarded (or lds_dstar_update)
**   st = lds_dstar_step(ds, NULL);              // repairs, does not start over
**
** The search runs backwards, from the goal towards the agent, so the g values
** stay valid when the agent moves; k_m keeps the queue keys lower bounds
** without re-keying the queue. Edge costs are those of lds_search: moving in
** direction d from u to v costs len(d) (1 or sqrt 2) times the effective cost
** of entering v (cell cost + sum of layer weight x layer value), legal moves
** follow the grid's neighbourhood and diagonal rule. Costs are asymmetric; the
** predecessor and successor sets are generated exactly.
**
** The search keeps a snapshot of what it was told: the legal-move masks and
** effective cell costs as of create and of the last notification for each
** cell. Edits reach it through lds_dstar_update / lds_dstar_update_rect or,
** after lds_dstar_subscribe, automatically; they are batched and processed at
** the start of the next lds_dstar_step. An edit that is never notified is
** never seen.
**
** Memory (allocated once in lds_dstar_new; step never allocates): 72
** bytes per padded cell ((w+2)*(h+2)): a 32-byte vertex record (g, rhs,
** snapshots, queue position), a 32-byte queue entry (key, sort key, vertex,
** class), 4 bytes of change list and 4 of path scratch.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002 (the optimized version,
**  Fig. 4, with k_m for the moving start); LPA*: Koenig, Likhachev & Furcy,
**  "Lifelong Planning A*", Artificial Intelligence 155, 2004]
*/
#ifndef LDS_DSTAR_H
#define LDS_DSTAR_H

#include "lds_common.h"
#include "lds_graph.h"
#include "lds_grid.h"
#include "lds_path.h"
#include "lds_search.h"

LDS_BEGIN_DECLS

typedef struct lds_DStar lds_DStar;

/// Parameters of a D* Lite search. Fill with lds_dstar_params_init.
typedef struct lds_DStarParams {
  lds_Heuristic heuristic;     ///< default LDS_H_AUTO (octile on 8-grids,
                               ///< manhattan on 4-grids and under
                               ///< LDS_DIAG_NEVER). LDS_H_MANHATTAN with diagonal
                               ///< moves is inadmissible: paths may not be optimal.
  double h_scale;              ///< [opt] [Units: cost] cost per cell of distance;
                               ///< 0 = automatic: the smallest effective cost of a
                               ///< passable cell, lowered (with a restart, flag
                               ///< LDS_DSTAR_REINIT) when a change goes below it.
                               ///< A fixed value above the cheapest cell cost makes
                               ///< h inadmissible: paths may not be optimal.
  const double *layer_weights; ///< [opt] [Shape: n_layer_weights doubles, one per
                               ///< grid layer index] copied at create
  int n_layer_weights;         ///< [Limit: 0..min(16, lds_grid_layer_count)]
} lds_DStarParams;

/// Fills *p with the defaults listed in lds_DStarParams.
/// [Owner: caller's struct] @returns nothing; never fails.
LDS_API void lds_dstar_params_init(lds_DStarParams *p);

/// What the last replan ran into (bit set, lds_dstar_flags). Cleared when a
/// step starts a new replan (the first step after a final status).
enum {
  LDS_DSTAR_START_BLOCKED = 1u,    ///< the start cell is blocked: LDS_NO_PATH, nothing expanded
  LDS_DSTAR_GOAL_BLOCKED = 2u,     ///< the goal cell is blocked: LDS_NO_PATH, nothing expanded
  LDS_DSTAR_UNREACHABLE = 4u,      ///< both passable, but no path: LDS_NO_PATH
  LDS_DSTAR_REACHABLE_AGAIN = 8u,  ///< LDS_FOUND after an earlier LDS_NO_PATH
  LDS_DSTAR_CHANGES = 16u,         ///< notified changes were processed in this replan
  LDS_DSTAR_NEAR_START = 32u,      ///< a processed change was at the start cell or one of its 8 neighbours
  LDS_DSTAR_REINIT = 64u,          ///< the search restarted from scratch (heuristic scale
                                   ///< lowered, neighbourhood/diagonal rule or the whole
                                   ///< grid changed, or the first move or edge so cheap
                                   ///< that it vanishes in c + g: docs/dstar.md, "Costs
                                   ///< of any scale")
  LDS_DSTAR_AT_GOAL = 128u         ///< the start is the goal (path of one cell, cost 0)
};

/// All counters of a D* Lite search, cumulative over its life
/// (lds_dstar_counters): the common ones of lds_Stats (expansions, pushes,
/// peak_queue = lds_Stats.peak_open, elapsed_us; lds_dstar_stats gives just
/// those) and the D* Lite extras.
typedef struct lds_DStarStats {
  uint64_t expansions;   ///< vertices taken from the queue and processed
  uint64_t rhs_updates;  ///< rhs recomputations / improvements
  uint64_t g_updates;    ///< g assignments (made consistent or set to infinity)
  uint64_t pushes;       ///< queue insertions and key updates
  uint64_t queue_size;   ///< current queue size
  uint64_t peak_queue;   ///< largest queue size
  uint64_t cells_changed;///< notified cells processed
  uint64_t replans;      ///< steps that processed a batch of changes
  uint64_t elapsed_us;   ///< time inside lds_dstar_step [Units: µs]
} lds_DStarStats;

/* ---------------------------------------------------------- lifetime -- */

/// Creates a D* Lite search from (sx,sy) to (gx,gy) on a grid and allocates
/// everything it will need (72 bytes per cell). The initial search is
/// set up (goal queued) but not run: call lds_dstar_step. The grid must
/// outlive the search. A blocked start or goal is not an error (step
/// reports it).
/// @param[in] env    [opt] allocator and clock; NULL for defaults
/// @param[in] grid   the grid (read; snapshot of masks and costs taken now)
/// @param[in] sx,sy  start [Units: cells]
/// @param[in] gx,gy  goal [Units: cells]
/// @param[in] params [opt] NULL for defaults
/// @param[out] err   [opt]
/// @returns the search, or NULL with err->code LDS_E_ARG (NULL grid,
///   coordinates out of bounds, bad heuristic/h_scale/layer weights, a cell
///   whose weighted cost is <= 0 or NaN), LDS_E_LIMIT (grid too large for
///   32-bit ids), LDS_E_NOMEM.
/// [Owner: caller frees with lds_dstar_free]
/// [Paper: Koenig & Likhachev, AAAI 2002]
LDS_API lds_DStar *lds_dstar_new(const lds_Env *env, const lds_Grid *grid, int32_t sx,
                                 int32_t sy, int32_t gx, int32_t gy,
                                 const lds_DStarParams *params, lds_Error *err);

/// Frees the search (unsubscribing it from its grid first). NULL is ignored.
/// [Owner: frees what lds_dstar_new allocated; the grid stays the caller's]
/// @returns nothing.
LDS_API void lds_dstar_free(lds_DStar *ds);

/// Bytes allocated by the search. [Units: bytes] @returns the count.
LDS_API size_t lds_dstar_mem_used(const lds_DStar *ds);

/* ----------------------------------------------------------- changes -- */

/// Subscribes the search to its grid (lds_grid_listen): every later edit
/// of the grid is queued as if passed to lds_dstar_update_rect. An edit of
/// the whole grid (neighbourhood, diagonal rule, layer removal, touch of the
/// full rectangle) makes the next step restart from scratch.
/// @param[in] grid the same grid the search was created on (non-const
///   because listening registers a callback in it)
/// @returns LDS_OK (also when already subscribed), LDS_E_ARG (another grid),
///   LDS_E_NOMEM (the grid's listener list could not grow).
/// [Owner: the grid keeps a pointer to ds until lds_dstar_unsubscribe or
///  lds_dstar_free]
/// Threads: the listener list is locked, so D* Lite searches of several
/// threads may subscribe to one shared grid at once; each edit then writes
/// into every subscribed search from the editing thread (docs/threads.md).
LDS_API lds_Status lds_dstar_subscribe(lds_DStar *ds, lds_Grid *grid);

/// Stops forwarding grid edits. @returns LDS_OK, or LDS_E_STATE when not
/// subscribed.
LDS_API lds_Status lds_dstar_unsubscribe(lds_DStar *ds);

/// Reports that cell (x,y) changed (blocked, unblocked, cost or layer value):
/// the search reads its new state from the grid at the next step. Batched:
/// any number of updates cost one repair. Never allocates.
/// @param[in] x,y [Units: cells]
/// @returns LDS_OK, LDS_E_ARG when out of bounds (message in lds_dstar_errmsg).
/// [Paper: Koenig & Likhachev, AAAI 2002, Fig. 4 lines 36-47]
LDS_API lds_Status lds_dstar_update(lds_DStar *ds, int32_t x, int32_t y);

/// Same for every cell of the rectangle x0..x1, y0..y1 (inclusive).
/// [Units: cells] A rectangle covering the whole grid queues a restart.
/// @returns LDS_OK, LDS_E_ARG (empty or out-of-bounds rectangle).
LDS_API lds_Status lds_dstar_update_rect(lds_DStar *ds, int32_t x0, int32_t y0, int32_t x1,
                                         int32_t y1);

/// Moves the start (the agent) to (x,y): any cell, usually the next cell of
/// the path. Adds h(old start, new start) to k_m, so queued keys stay lower
/// bounds; the status becomes LDS_RUNNING until the next step (which often
/// has nothing to expand).
/// @param[in] x,y [Units: cells]
/// @returns LDS_OK, LDS_E_ARG when out of bounds.
/// [Paper: Koenig & Likhachev, AAAI 2002, Fig. 4 lines 31-38]
LDS_API lds_Status lds_dstar_move_start(lds_DStar *ds, int32_t x, int32_t y);

/* ----------------------------------------------------------- slicing -- */

/// Processes pending changes, then runs ComputeShortestPath until the start
/// is consistent or the budget is spent. Never allocates. Slicing never
/// changes the answer: the expansion order is the same for any budgets.
/// Processing a batch of changes (O(changed cells), or O(cells) on a
/// restart) is done in full by the first step of a replan and is not
/// counted against the budget.
/// @param[in] budget [opt] max_expansions counts queue pops (expansions and
///   the key refreshes k_m makes necessary) [Units: pops], budget_us
///   [Units: µs]; NULL or all zero = run to the end. The µs budget reads the
///   env clock every 64 pops.
/// @returns LDS_RUNNING (budget spent; call again), LDS_FOUND (path from the
///   current start; see lds_dstar_flags), LDS_NO_PATH (flags say why:
///   LDS_DSTAR_START_BLOCKED, LDS_DSTAR_GOAL_BLOCKED, LDS_DSTAR_UNREACHABLE),
///   LDS_E_ARG (a changed cell's weighted cost is <= 0 or NaN; message names
///   the cell; sticky), LDS_E_STATE (a weighted layer was removed; sticky).
///   Calling it again after a final status with nothing new returns the same
///   status at once.
/// [Paper: Koenig & Likhachev, AAAI 2002, Fig. 4 ComputeShortestPath]
LDS_API lds_Status lds_dstar_step(lds_DStar *ds, const lds_Budget *budget);
/// Deprecated: use lds_dstar_step (same signature and meaning).
LDS_API lds_Status lds_dstar_compute(lds_DStar *ds, const lds_Budget *budget);

/// Current status: LDS_RUNNING (changes or a move pending, or budget spent),
/// LDS_FOUND, LDS_NO_PATH or the error that stopped it. @returns it.
LDS_API lds_Status lds_dstar_status(const lds_DStar *ds);

/// LDS_DSTAR_* bits of the current replan. @returns the bit set.
LDS_API uint32_t lds_dstar_flags(const lds_DStar *ds);

/// Common counters (cumulative over the life of the search): expansions,
/// pushes, peak_open (largest queue size) and elapsed_us, as in
/// lds_DStarStats. @param[out] out filled. @returns nothing.
LDS_API void lds_dstar_stats(const lds_DStar *ds, lds_Stats *out);
/// All counters, the D* Lite extras included (cumulative; queue_size is
/// the current size). @param[out] out filled. @returns nothing.
LDS_API void lds_dstar_counters(const lds_DStar *ds, lds_DStarStats *out);

/// Last error message ("" if none). [Owner: the search] @returns it.
LDS_API const char *lds_dstar_errmsg(const lds_DStar *ds);

/* ------------------------------------------------------------ result -- */

/// Cost of the path from the current start [Units: cost], read in O(1) from
/// the g values (min over successors of move cost + g); equal to the
/// forward sum lds_dstar_path reports within rounding (~1e-12 relative).
/// @returns the cost, -1 unless LDS_FOUND.
LDS_API double lds_dstar_cost(const lds_DStar *ds);

/// The next cell to step to from the current start: the second cell of the
/// path lds_dstar_path returns (the goal itself when standing next to it;
/// the start when at the goal), so an agent following it walks that path
/// and never steps back and forth. O(1), or O(path) where the costs span
/// more than 2^53 and the cheapest move is absorbed in c + g (it then walks
/// the path, in the search's scratch buffer: not from two threads at
/// once). Never allocates.
/// @param[out] x,y [Units: cells]
/// @returns LDS_OK, or LDS_E_STATE unless the status is LDS_FOUND.
LDS_API lds_Status lds_dstar_next(const lds_DStar *ds, int32_t *x, int32_t *y);

/// The path from the current start to the goal (status LDS_FOUND): at each
/// cell the successor with the smallest move cost + g, ties to the first in
/// the order N, E, S, W, NE, SE, SW, NW, never a cell already on the path
/// (a depth-first walk over the successors whose move cost + g is within
/// 1e-10 relative of the smallest, backtracking out of dead ends: where
/// costs span more than 2^53 a cheap move is absorbed in c + g and two
/// neighbours tie, and plain descent would step back and forth).
/// Uses the search's scratch buffer: do not call it on the same search
/// from two threads at once.
/// @returns the path (cost = sum of its moves), or NULL with err->code
///   LDS_E_STATE (no path), LDS_E_NOMEM.
/// [Owner: caller frees with lds_path_free]
/// [Paper: Koenig & Likhachev, AAAI 2002 (path extraction after
///  ComputeShortestPath)]
LDS_API lds_Path *lds_dstar_path(const lds_DStar *ds, lds_Error *err);

/// Current start and goal. @param[out] sx,sy,gx,gy [opt] [Units: cells]
/// @returns nothing.
LDS_API void lds_dstar_endpoints(const lds_DStar *ds, int32_t *sx, int32_t *sy, int32_t *gx,
                                 int32_t *gy);

/* ------------------------------------------------------------ graphs -- */
/* D* Lite on a frozen lds_Graph: the same search, queue, budgets, statuses,
** flags and stats (lds_dstar_step, _status, _flags, _stats, _counters, _cost,
** _path, _free, _mem_used); vertices are node ids (0-based) and paths have
** width 0. The cell-based calls (lds_dstar_update, _update_rect,
** _move_start, _next, _subscribe) return LDS_E_STATE on a graph search;
** the calls below return LDS_E_STATE on a grid search. In
** lds_dstar_endpoints a graph search reports node ids in sx and gx, 0 in
** sy and gy. LDS_DSTAR_START_BLOCKED / GOAL_BLOCKED never occur on graphs
** (cut a road with a huge cost); LDS_DSTAR_NEAR_START means a processed
** change was on an edge leaving or entering the start. */

/// Creates a D* Lite search from node `start` to node `goal` of a frozen
/// graph. Allocates once: 68 bytes per node plus 8 per edge (a snapshot of
/// the edge costs: the search sees what it was told, like on grids) plus
/// 24 per unit of the largest degree. The graph must outlive the search.
/// Heuristic (params.heuristic): auto = euclidean for XY/XYZ graphs,
/// great_circle for LONLAT, zero without coordinates; euclidean and
/// great_circle where the coordinates allow them; zero. h = scale *
/// lds_graph_distance(start, v); params.h_scale 0 (default) = the largest
/// consistent scale of the costs (min over edges of cost / distance, shrunk
/// by 1e-9 relative, as lds_graph_h_scale), lowered with a restart (flag
/// LDS_DSTAR_REINIT) when a change goes below it; h_scale > 0 fixes it (an
/// inadmissible scale gives paths that may not be optimal).
/// Layer weights are grid-only. Zero-cost edges, self-loops, parallel and
/// one-way edges are all fine.
/// @param[in] env    [opt] allocator and clock
/// @param[in] graph  [Limit: frozen, at least one node]
/// @param[in] start,goal node ids [Limit: < lds_graph_node_count]
/// @param[in] params [opt] NULL for defaults
/// @param[out] err   [opt]
/// @returns the search, or NULL with err->code LDS_E_ARG (NULL graph, node
///   out of range, a heuristic the coordinates cannot serve, bad h_scale,
///   layer weights), LDS_E_STATE (graph not frozen), LDS_E_NOMEM.
/// [Owner: caller frees with lds_dstar_free]
/// [Paper: Koenig & Likhachev, AAAI 2002]
LDS_API lds_DStar *lds_dstar_new_graph(const lds_Env *env, const lds_Graph *graph,
                                       uint32_t start, uint32_t goal,
                                       const lds_DStarParams *params, lds_Error *err);

/// Reports that the cost of edge `edge` changed (lds_graph_set_edge_cost):
/// the search reads the costs of the source's out-edges at the next step.
/// Batched; never allocates. [Units: edge id]
/// @returns LDS_OK, LDS_E_ARG (edge out of range), LDS_E_STATE (grid search).
/// [Paper: Koenig & Likhachev, AAAI 2002, Fig. 4 lines 39-47]
LDS_API lds_Status lds_dstar_update_edge(lds_DStar *ds, uint32_t edge);

/// Reports that any edge entering or leaving `node` may have changed.
/// O(in-degree); batched; never allocates.
/// @returns LDS_OK, LDS_E_ARG (node out of range), LDS_E_STATE (grid search).
LDS_API lds_Status lds_dstar_update_node(lds_DStar *ds, uint32_t node);

/// Subscribes the search to its graph (lds_graph_listen): every later
/// lds_graph_set_edge_cost(_id) is queued as if passed to
/// lds_dstar_update_edge.
/// @param[in] graph the graph the search was created on (non-const because
///   listening registers a callback in it)
/// @returns LDS_OK (also when already subscribed), LDS_E_ARG (another
///   graph), LDS_E_STATE (grid search), LDS_E_NOMEM.
/// [Owner: the graph keeps a pointer to ds until lds_dstar_unsubscribe_graph
///  or lds_dstar_free]
LDS_API lds_Status lds_dstar_subscribe_graph(lds_DStar *ds, lds_Graph *graph);

/// Stops forwarding graph edits (lds_dstar_unsubscribe does the same on a
/// graph search). @returns LDS_OK, or LDS_E_STATE when not subscribed.
LDS_API lds_Status lds_dstar_unsubscribe_graph(lds_DStar *ds);

/// Moves the start (the agent) to `node`, usually the next node of the
/// path; adds h(old start, node) to k_m. @returns LDS_OK, LDS_E_ARG (node
/// out of range), LDS_E_STATE (grid search).
/// [Paper: Koenig & Likhachev, AAAI 2002, Fig. 4 lines 31-38]
LDS_API lds_Status lds_dstar_move_start_node(lds_DStar *ds, uint32_t node);

/// The node after the start on the path lds_dstar_path returns (the start
/// itself at the goal). O(path) (it walks the path, so an agent following
/// it never circles on zero-cost cycles); uses the search's scratch buffer.
/// @param[out] node
/// @returns LDS_OK, or LDS_E_STATE unless a graph search with status LDS_FOUND.
LDS_API lds_Status lds_dstar_next_node(const lds_DStar *ds, uint32_t *node);

/// Current start and goal node of a graph search. @param[out] start,goal [opt]
/// @returns LDS_OK, or LDS_E_STATE on a grid search.
LDS_API lds_Status lds_dstar_endpoint_nodes(const lds_DStar *ds, uint32_t *start, uint32_t *goal);

/// The graph a search runs on (NULL for a grid search). [Owner: the caller's graph]
LDS_API const lds_Graph *lds_dstar_graph(const lds_DStar *ds);

LDS_END_DECLS

#endif /* LDS_DSTAR_H */
