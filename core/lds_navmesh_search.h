/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_search.h — path searches on a navigation mesh (lds_Navmesh),
** sliced like every lodestar search (start, step(budget), status, stats):
**
**   funnel  — a corridor A* over the merged convex partition, then the
**             funnel (string pulling) through the corridor found. With
**             `thorough` (the default) and one cost for every allowed
**             area: the portal-state search, A* over portals whose states
**             each hold the funnel of their corridor, g its pulled length.
**             With area costs: the point-chain search (one record per
**             polygon holding the point where the best corridor enters it,
**             the portal point nearest the line to the goal, so long
**             polygons are not overrated as with edge midpoints), then
**             Detour's edge-midpoint search bounded by its path, the
**             cheaper path kept; without `thorough`, the point-chain search
**             alone. Area costs weight each piece; h is the straight line
**             times the cheapest allowed cost. Not always shortest
**             (docs/navmesh.md, "funnel: corridor A* + funnel").
**   optimal — Polyanya (M. Cui, D. Harabor, A. Grastien, "Compromise-free
**             Pathfinding on a Navigation Mesh", IJCAI 2017): best-first
**             search over (interval, root) nodes, the exact Euclidean
**             shortest path in x–z over the polygons allowed. Needs every
**             allowed area to cost the same (blocked areas are fine).
**
**   lds_NavSearch *s = lds_navsearch_new(NULL, mesh, &err);
**   lds_NavParams p; lds_nav_params_init(&p); p.algo = LDS_NAV_OPTIMAL;
**   lds_navsearch_start(s, &p, start, goal);
**   while ((st = lds_navsearch_step(s, &budget)) == LDS_RUNNING) {
**     walk = lds_navsearch_partial_points(s, &n, NULL); // best so far: walk it meanwhile
**     ... next frame ...
**   }
**   pts = lds_navsearch_points(s, &n);           // n points, x y z each
**
** With p.partial, a goal the start cannot reach (another piece, behind or
** on a blocked area) gives LDS_NO_PATH and the path to the partial target,
** the point of the reachable region nearest the goal (docs/navmesh.md
** "Partial paths"); optimal: the exact shortest path to it.
**
** Points are located with lds_navmesh_nearest (snap_radius, height_tol); the
** path starts and ends at the located points (on the mesh). Lengths are 3-D
** Euclidean along the polyline; paths are optimised in x–z (the plane the
** polygons are convex in), so on sloped meshes the 3-D length is the
** length of that x–z-shortest polyline.
*/
#ifndef LDS_NAVMESH_SEARCH_H
#define LDS_NAVMESH_SEARCH_H

#include "lds_common.h"
#include "lds_navmesh.h"

LDS_BEGIN_DECLS

/// The navmesh search algorithms.
typedef enum lds_NavAlgo {
  LDS_NAV_FUNNEL = 0,  ///< corridor A* + funnel ("funnel")
  LDS_NAV_OPTIMAL = 1  ///< Polyanya, exact ("optimal")
} lds_NavAlgo;

/// "funnel", "optimal"; NULL for another value. [Owner: static]
LDS_API const char *lds_nav_algo_name(lds_NavAlgo a);
/// Parses a name of lds_nav_algo_name. @returns LDS_OK or LDS_E_ARG.
LDS_API lds_Status lds_nav_algo_parse(const char *name, lds_NavAlgo *out);

/// Parameters of one query (the agent class's costs and limits).
typedef struct lds_NavParams {
  lds_NavAlgo algo;          ///< default LDS_NAV_FUNNEL
  const double *area_costs;  ///< [opt] cost multiplier per area id [Shape: n_area_costs]; ids beyond
                             ///< n_area_costs cost 1; +INFINITY blocks the area
                             ///< [Limit: > 0, finite or +INFINITY] (copied at start)
  size_t n_area_costs;       ///< [Limit: 0..256]
  double snap_radius;        ///< largest distance from start/goal to the mesh [Units: world units]
                             ///< [Limit: >= 0, finite] default 2 (Detour's RecastDemo extents)
  double height_tol;         ///< height tolerance of point location [Units: world units]; < 0 = any
                             ///< height; default 4
  bool partial;              ///< on no path (goal apart, walled in or in a blocked area), give
                             ///< the path to the partial target: the point of the region the
                             ///< start reaches nearest the goal (x-z distance, then 3-D, then
                             ///< the smaller polygon id); optimal: the exact shortest path to it
                             ///< (a second search), funnel: its funnel path. Turns off block
                             ///< pruning (docs/navmesh.md "Partial paths")
  bool thorough;             ///< funnel (default true): with one cost for every allowed area,
                             ///< the portal-state search (A* over portals, each state the
                             ///< funnel of its corridor, g its pulled length); with area costs,
                             ///< the point-chain corridor search, then Detour's midpoint search
                             ///< bounded by its path, the path (funnel) of the smaller cost
                             ///< kept. false: the point-chain search alone (2-6x faster, longer
                             ///< paths more often). docs/navmesh.md "funnel". Ignored by optimal.
} lds_NavParams;

/// Fills *p with the defaults above. Never fails.
LDS_API void lds_nav_params_init(lds_NavParams *p);

typedef struct lds_NavSearch lds_NavSearch;

/// Creates a search object for the mesh (node records for every polygon,
/// allocated once; Polyanya's nodes grow as needed). The mesh must outlive it.
/// @returns the search or NULL with err (LDS_E_ARG for a NULL mesh,
///   LDS_E_NOMEM). [Owner: caller frees with lds_navsearch_free]
LDS_API lds_NavSearch *lds_navsearch_new(const lds_Env *env, const lds_Navmesh *m,
                                         lds_Error *err);
/// Frees the search. NULL is ignored.
LDS_API void lds_navsearch_free(lds_NavSearch *s);

/// Lets dst use src's landmark tables (docs/navmesh.md "Landmark bounds"),
/// per-mesh data that a search object otherwise builds on its first query
/// (about 25 ms on brc202d's 2,551 polygons), so that a second search object
/// of the same mesh skips that build. The tables are reference-counted:
/// they live until the last search object using them is freed, so either
/// may be freed first. Answers are unchanged (the tables are the same
/// either way). Without tables in src (no query yet, or a partition too
/// small to get them) nothing changes.
/// @returns LDS_OK; LDS_E_ARG (NULL, or the two search different meshes);
///   LDS_E_STATE (dst is running a query: status LDS_RUNNING); LDS_E_NOMEM.
LDS_API lds_Status lds_navsearch_share_tables(lds_NavSearch *dst, const lds_NavSearch *src);

/// Starts a query from start to goal [Shape: 3 doubles each] [Units: world units].
/// @returns LDS_RUNNING (call step), LDS_E_ARG with a message naming the bad
///   parameter ("start (1, 0, 99) is not on the mesh (no polygon within 2)",
///   "area_costs[3] is -1 (expected > 0 or inf)", "optimal needs one cost for
///   every allowed area (area 2 costs 3, area 0 costs 1)"); a start or goal
///   that only polygons of blocked areas hold gives LDS_RUNNING and then
///   LDS_NO_PATH. A start (goal) on an edge or a vertex is searched from
///   (ended in) every allowed polygon holding it (docs/navmesh.md,
///   "Start or goal on a vertex or an edge").
LDS_API lds_Status lds_navsearch_start(lds_NavSearch *s, const lds_NavParams *p,
                                       const double start[3], const double goal[3]);

/// Runs the query within the budget (NULL = to the end). The expansion
/// budget is exact; the time budget reads the clock every 1 to 64
/// expansions, more often the dearer they are, so a step overshoots it by
/// about one expansion (docs/navmesh.md, "Use").
/// @returns LDS_RUNNING (budget spent), LDS_FOUND, LDS_NO_PATH, LDS_E_STATE
///   (not started), LDS_E_NOMEM.
LDS_API lds_Status lds_navsearch_step(lds_NavSearch *s, const lds_Budget *budget);

/// The status of the last start or step.
LDS_API lds_Status lds_navsearch_status(const lds_NavSearch *s);
/// Counters of the current query (expansions = polygons or Polyanya nodes expanded).
LDS_API void lds_navsearch_stats(const lds_NavSearch *s, lds_Stats *out);
/// Message of the last error ("" if none). [Owner: the search]
LDS_API const char *lds_navsearch_errmsg(const lds_NavSearch *s);

/// The path once status is LDS_FOUND (or LDS_NO_PATH with partial, the
/// path to the partial target; none while LDS_RUNNING: see
/// lds_navsearch_partial_points): *n points, x y z each, start and goal included, no two
/// equal and no straight-on middle point.
/// [Shape: 3 * n doubles] [Owner: the search; valid until the next start/free]
/// @returns NULL (n = 0) when there is no path.
LDS_API const double *lds_navsearch_points(lds_NavSearch *s, size_t *n);
/// 3-D length of that path [Units: world units]; NaN without a path.
LDS_API double lds_navsearch_length(lds_NavSearch *s);
/// Area-weighted length of that path (each piece times the cost of the polygon
/// it crosses, pieces found by walking the path through the mesh with a
/// tolerance of 16e-9 of the mesh's size, so about 1e-7 relative; a piece
/// on the shared edge of two allowed polygons, or through their shared
/// vertex, is charged at the cheaper: a unit walking along a border walks
/// on its cheap side) [Units:
/// cost]; computed on the first call. NaN without a path; +inf when finite
/// area costs times the length overflow (start accepts any cost > 0: Lua's
/// find_path and the scheduler refuse such a path as LDS_E_ARG).
LDS_API double lds_navsearch_cost(lds_NavSearch *s);
/// The corridor of a funnel-mode path: the mesh's polygons it crosses, in
/// order, linked by shared edges (empty for optimal mode); computed on the
/// first call after a search, by walking the path through the mesh
/// [Shape: *n] [Owner: the search; valid until the next start/free].
/// @returns NULL (n = 0) without a path, or when that walk runs out of
/// memory (the search's status is then LDS_E_NOMEM, its message says so).
LDS_API const uint32_t *lds_navsearch_corridor(lds_NavSearch *s, size_t *n);
/// True when the path does not reach the goal (partial).
LDS_API bool lds_navsearch_is_partial(lds_NavSearch *s);

/// The best path so far, for an agent that starts walking before the query
/// ends (as lds_search_partial_path on grids): while LDS_RUNNING, the path
/// to the partial target of the polygons reached so far (the point of them
/// nearest the goal, docs/navmesh.md "Partial paths") — optimal mode: the
/// chain of roots of the first node made into the polygon holding it, then straight (or
/// round the entry interval's nearer end) to the point, and with p.partial,
/// once the first search ran dry, that path to the partial target kept
/// while the second search runs; funnel mode: the
/// funnel through the corridor of the polygon's record (portal state) of
/// least g, or, while thorough's second search runs, the first search's
/// path to the goal. Not a prefix of the final path: a later call may
/// answer a different path, but its end never moves away (x-z distance)
/// from the goal as the query proceeds. Once LDS_FOUND the path
/// (lds_navsearch_points); after LDS_NO_PATH the partial path with
/// params.partial, else the same best-so-far over what the query reached
/// (a query that ended at its start, a blocked goal or start and goal
/// apart, reached only the start's polygon). Every point lies on the
/// allowed polygons and the polyline is walkable through them; the start
/// is the snapped start.
/// [Shape: 3 * n doubles] [Owner: the search; valid until the next call of
/// this function, step, start or free] O(mesh polygons + the path).
/// @param[out] partial [opt] false only when the path ends at the goal
/// @returns NULL (n = 0) before a start, after an error, for a blocked start,
///   or when out of memory.
LDS_API const double *lds_navsearch_partial_points(lds_NavSearch *s, size_t *n, bool *partial);

/* ------------------------------------------------------ path checking -- */

/// Checks that a polyline lies on the mesh: each segment is walked in x–z
/// through the polygons it crosses, following neighbour links (and the
/// polygons around a shared vertex when it passes through one), starting at
/// the polygon of the first point (located with height_tol; when that one is
/// blocked or holds only the first point of the first segment, the allowed
/// polygon holding the first point that holds the most of it). Every point
/// must lie within height_tol of the surface (lds_navmesh_poly_height) of
/// the polygon the walk reaches it in, plus 1e-9 of the mesh's size (the
/// x–z tolerance of point location) for the rounding of points computed on
/// the surface: the searches' paths pass with height_tol 0. height_tol < 0
/// (or NaN): any height. Blocked areas (area_costs +INFINITY) count as
/// outside when area_costs is given.
/// @param[in]  pts      [Shape: 3 * n doubles]
/// @param[out] length   [opt] 3-D length [Units: world units]
/// @param[out] cost     [opt] area-weighted length, as lds_navsearch_cost
///                      charges it (a piece on an edge between two allowed
///                      polygons at the cheaper) [Units: cost]
/// @param[out] msg      [opt] [Shape: LDS_ERRMSG_SIZE chars] why it failed
/// @returns LDS_OK, or LDS_E_ARG ("segment 3 leaves the mesh at (x, z)",
///   "point 0 is not on the mesh", "point 2 (x, y, z) is 9.5 above the
///   surface of polygon 4 (height 0.5 there; expected within height_tol
///   0.5)"); LDS_E_NOMEM when a point with more than 64 polygons round it
///   (first point) or 256 (a vertex a segment passes) needs scratch from
///   the mesh's allocator (lds_navmesh_new's env) and it fails. Only then
///   is that allocator called, so checking paths on such a mesh from several
///   threads at once needs an allocator that may be.
LDS_API lds_Status lds_navmesh_check_path(const lds_Navmesh *m, const double *pts, size_t n,
                                          double height_tol, const double *area_costs,
                                          size_t n_area_costs, double *length, double *cost,
                                          char *msg);

LDS_END_DECLS

#endif /* LDS_NAVMESH_SEARCH_H */
