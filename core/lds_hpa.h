/* SPDX-License-Identifier: MIT */
/*
** lds_hpa.h — a cluster hierarchy for fast queries on big grids: HPA* with
** exact distances between the entrances of each cluster, a sliced query
** that refines the next stretch of the path first, local repair on edits,
** and an optimal mode (A* on the grid guided by landmark lower bounds).
**
**   lds_HpaParams hp; lds_hpa_params_init(&hp);          // cluster 16, no weights
**   lds_Hpa *h = lds_hpa_new(NULL, grid, &hp, &err);       // builds; listens to edits
**   lds_HpaQuery *q = lds_hpa_query_new(h, &err);
**   lds_Budget b = {2000, 0};
**   do {                                                   // (sx,sy): the agent's cell
**     lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy); // repairs after edits
**     while ((st = lds_hpa_query_step(q, &b)) == LDS_RUNNING) {
**       lds_Path *pre = lds_hpa_query_prefix(q, &err);    // walkable now, final
**       ...                                                // walk it, then
**       lds_path_free(pre);
**     }
**   } while (st == LDS_E_STALE);                           // an edit mid-query: again
**
** Design (docs/hierarchy.md): the grid is cut into square clusters of
** cluster_size cells a side. Along each border between two clusters, every
** maximal run of cell pairs joined by a legal move gives entrances (HPA*:
** one pair at the middle of a short run, the two ends and the middle of a
** long one); diagonal-only crossings (diagonal rules allow_one_blocked and
** always) are entrances too, so the abstract graph connects exactly what
** the grid connects. Inside each cluster a Dijkstra from every entrance
** gives the exact cluster-restricted distance to every other entrance
** (directed: a move costs its length times the cost of the cell entered).
**
** Fast mode: the goal joins the entrances of its cluster through their
** stored trees (each entrance's cluster-restricted distance to it), and so
** does the start on uniform costs (elsewhere a Dijkstra from the start
** inside its cluster); A* on the abstract graph, guided by the landmark
** tables where the hierarchy has them (ALT: max of the octile distance
** times the smallest cell cost and the landmark bound, read from copies at
** the entrances), gives a path of entrances. It is refined pair by pair
** from the start, with no search: between two waypoints in one cluster,
** the cluster-restricted shortest path read from the parent tree the build
** kept for the first (its cost is the intra edge's); from the start and to
** the goal, the same trees (or the start's Dijkstra); across a border, the
** one move of the inter edge. The
** concatenation is smoothed as it grows: from an anchor, the farthest
** candidate cell within 8 cluster sides ahead (the horizon's end first,
** then a galloping search over the candidates) whose digital straight
** line is legal under
** the move rules and costs no more than the stretch it replaces is joined
** by that line. So the path never costs more than the abstract path. Start
** and goal at most two clusters apart first try one A* inside the box of
** their two clusters (taken when no dearer than the abstract path). The
** cells kept so far are final: an agent can walk them
** (lds_hpa_query_prefix) while later pairs are refined.
**
** Optimal mode: Jump Point Search (lds_search) where the grid is
** uniform-cost under the weights, 8-connected, no_corner_cutting or always
** (lds_HpaParams.optimal_jps); elsewhere A* on the whole grid with the
** differential heuristic (ALT): h(c) = max(octile(c, goal) * min_cost, q * max_L |T_L(c) - T_L(goal)|)
** over the query's active landmarks (of k placed by farthest-point
** selection, the 6 that bound the start -> goal distance best), run by
** lodestar's grid A* loop (lds_search's landmark loop), T_L an integer
** table per cell kept feasible for a symmetric lower bound of the move
** costs (lds_landmarks.h): admissible and consistent on the directed grid,
** so the path is optimal. Cost increases keep the tables valid; decreases
** are repaired by decrease propagation from the edited cells. The exact
** search settles no cell of its path before the goal, so this mode has no
** prefix: its path comes whole when found.
**
** Connectivity: when the grid has a connectivity index (lds_components.h),
** a query in either mode whose start and goal it separates ends LDS_NO_PATH
** at its start, without expanding a node (lds_hpa_query_start).
**
** Terrain costs and layer weights: a hierarchy is built for one weight set
** (lds_HpaParams.layer_weights), the effective cost of a cell being its
** cost plus the weighted layer values, as lds_search uses them; one
** hierarchy per agent class. The weights stay with their layers: removing
** a layer the hierarchy does not weight moves the weights of the layers
** after it to their new indices at the next repair; removing a weighted
** layer makes that repair fail with LDS_E_STATE naming the layer.
**
** Edits: the hierarchy listens to the grid. An edit marks the clusters
** whose cells, moves or borders it touched; the next lds_hpa_repair (done
** by lds_hpa_query_start when needed) rebuilds the entrances of their
** borders and the intra distances and bounds of those clusters and of the
** neighbours whose entrances changed, and nothing else; a second-level
** cluster whose clusters' entrances changed is left stale (lds_hpa_refresh).
** A query running across an edit ends with LDS_E_STALE.
**
** Threads: a hierarchy and its queries belong to one thread at a time
** (repair writes the hierarchy).
**
** [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
**  Path-Finding", J. Game Development 1(1), 2004 (HPA*); Hart, Nilsson &
**  Raphael, IEEE TSSC 4(2) 1968 (A*); Goldberg & Harrelson, "Computing
**  the shortest path: A* search meets graph theory", SODA 2005 (ALT)]
*/
#ifndef LDS_HPA_H
#define LDS_HPA_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"

LDS_BEGIN_DECLS

typedef struct lds_Hpa lds_Hpa;
typedef struct lds_HpaQuery lds_HpaQuery;

/// Largest cluster side accepted. [Units: cells]
#define LDS_HPA_MAX_CLUSTER 64

/// Most landmarks of a hierarchy (lds_HpaParams.landmarks).
#define LDS_HPA_MAX_LANDMARKS 32

/// lds_HpaParams.level2: decided by the grid's size.
#define LDS_HPA_LEVEL2_AUTO (-1)
/// Fewest cells of a grid on which LDS_HPA_LEVEL2_AUTO builds the second level
/// (4096 x 4096: measured faster there, slower on 1024 x 1024; docs/hierarchy.md).
#define LDS_HPA_LEVEL2_MIN_CELLS (4096 * 4096)

/// Default lds_HpaParams.fast_weight: measured to cut the fast mode's
/// abstract expansions by a quarter to a third with every benchmark path
/// still within 1 % of optimal (docs/hierarchy.md).
#define LDS_HPA_FAST_WEIGHT 1.02
/// Largest lds_HpaParams.fast_weight accepted.
#define LDS_HPA_MAX_FAST_WEIGHT 10.0

/// Default lds_HpaParams.band_radius: measured to bring every Berlin_0_1024
/// problem with terrain costs within 1 % of optimal (docs/hierarchy.md).
#define LDS_HPA_BAND_RADIUS 2
/// Largest lds_HpaParams.band_radius accepted.
#define LDS_HPA_MAX_BAND_RADIUS 8

/// Parameters of a hierarchy. Fill with lds_hpa_params_init, then change.
typedef struct lds_HpaParams {
  int cluster_size;             ///< side of a cluster [Units: cells]
                                ///< [Limit: 4..LDS_HPA_MAX_CLUSTER] default 16
  bool lower_bounds;            ///< build the landmark tables the optimal mode
                                ///< needs (4 x landmarks bytes per cell); default
                                ///< true. Without them the optimal mode is refused.
  int landmarks;                ///< landmarks of the optimal mode's heuristic
                                ///< [Limit: 1..LDS_HPA_MAX_LANDMARKS] default 8
  bool optimal_jps;             ///< the optimal mode runs Jump Point Search
                                ///< (lds_search, LDS_ALGO_JPS) when the grid is
                                ///< uniform-cost under the weights, 8-connected,
                                ///< no_corner_cutting or always; the landmark A*
                                ///< elsewhere. false: always the landmark A*.
                                ///< Default true.
  int level2;                   ///< the second abstraction level of the fast mode:
                                ///< clusters of level2 x level2 clusters whose border
                                ///< entrances are joined by exact distances over the
                                ///< first level (docs/hierarchy.md). 0: none;
                                ///< LDS_HPA_LEVEL2_AUTO (the default): 8 on grids of
                                ///< at least LDS_HPA_LEVEL2_MIN_CELLS cells, none below.
                                ///< [Limit: LDS_HPA_LEVEL2_AUTO, 0 or 2..32, and
                                ///< level2^2 x 4 x cluster_size < 65535]
  double fast_weight;           ///< weight w of the fast mode's abstract search
                                ///< (weighted A*, Pohl 1970, with no reopening:
                                ///< the abstract path costs at most w x the
                                ///< shortest abstract path; docs/hierarchy.md)
                                ///< [Limit: 1..LDS_HPA_MAX_FAST_WEIGHT]
                                ///< default LDS_HPA_FAST_WEIGHT (1.02); 1: the
                                ///< shortest abstract path
  int band_radius;              ///< where costs are not uniform under the weights,
                                ///< the fast mode searches again, window by window,
                                ///< the cells within band_radius (in x and in y) of
                                ///< its raw path (docs/hierarchy.md, "Band
                                ///< refinement"); 0: line smoothing only, as on
                                ///< uniform grids [Units: cells]
                                ///< [Limit: 0..LDS_HPA_MAX_BAND_RADIUS]
                                ///< default LDS_HPA_BAND_RADIUS (2)
  const double *layer_weights;  ///< [opt] [Shape: n_layer_weights doubles, one per
                                ///< grid layer] weights of the effective cost; copied
  int n_layer_weights;          ///< [Limit: 0..min(16, lds_grid_layer_count)]
} lds_HpaParams;

/// Fills *p with the defaults listed in lds_HpaParams.
LDS_API void lds_hpa_params_init(lds_HpaParams *p);

/// Query modes.
typedef enum lds_HpaMode {
  LDS_HPA_FAST = 0,    ///< abstract search + concatenated, smoothed refinement (not optimal:
                       ///< see docs/hierarchy.md for the measured suboptimality)
  LDS_HPA_OPTIMAL = 1  ///< A* with the cluster lower bound: optimal
} lds_HpaMode;

/// Name of a mode ("fast", "optimal"); NULL if invalid. [Owner: static]
LDS_API const char *lds_hpa_mode_name(lds_HpaMode m);
/// Parses a mode name. @returns LDS_OK or LDS_E_ARG.
LDS_API lds_Status lds_hpa_mode_parse(const char *name, lds_HpaMode *out);

/// Counters of a hierarchy. The *_us times are wall-clock: read from the
/// environment's clock (lds_Env.clock; lds_clock_default is CLOCK_MONOTONIC),
/// so they include any time the thread spent descheduled, not CPU time.
typedef struct lds_HpaInfo {
  int32_t cluster_size;     ///< [Units: cells]
  int32_t clusters_x, clusters_y; ///< clusters per row and per column
  size_t entrances;         ///< abstract nodes (entrance cells)
  size_t intra_edges;       ///< finite intra-cluster distances stored
  size_t bytes;             ///< memory of the hierarchy (lds_hpa_mem_used)
  double bytes_per_cell;    ///< bytes / (width * height)
  uint64_t build_us;        ///< wall-clock time of the initial build [Units: µs]
  uint64_t repairs;         ///< lds_hpa_repair calls that rebuilt something
  uint64_t last_repair_us;  ///< wall-clock time of the last such repair [Units: µs]
  uint64_t last_repair_clusters; ///< clusters rebuilt by it
  uint64_t total_repair_us; ///< [Units: µs]
  int32_t landmarks;        ///< landmark tables of the optimal mode (0 without lower_bounds)
  size_t landmark_bytes;    ///< their memory (part of bytes)
  uint64_t landmark_build_us; ///< their build time (part of build_us) [Units: µs]
  int32_t level2;           ///< first-level clusters per second-level side (0: no second level)
  size_t level2_entrances;  ///< second-level entrances
  size_t level2_bytes;      ///< memory of the second level (part of bytes)
  uint64_t level2_build_us; ///< its build time (part of build_us) [Units: µs]
  uint32_t level2_stale;    ///< second-level clusters left stale by repairs (lds_hpa_refresh)
  double fast_weight;       ///< weight of the fast mode's abstract search (lds_hpa_set_fast_weight)
  int32_t band_radius;      ///< lds_HpaParams.band_radius [Units: cells]
} lds_HpaInfo;

/* ---------------------------------------------------------- lifetime -- */

/// Builds the hierarchy of a grid: O(cells x entrances per cluster) time
/// (info.build_us), memory in lds_HpaInfo.bytes (about 1 byte per cell for
/// the entrance index, the intra distance matrices, plus 4 x landmarks
/// bytes per padded cell with lower_bounds; k + 1 whole-grid Dijkstras
/// place and fill the landmark tables; the second level, lds_HpaParams.level2,
/// a few bytes per cell more: lds_HpaInfo.level2_bytes). Registers a grid listener, removed by lds_hpa_free.
/// The grid must outlive the hierarchy.
/// @param[in] env    [opt] allocator and clock; NULL for defaults
/// @param[in] grid   the grid (read; its listener list is written)
/// @param[in] params [opt] NULL for defaults
/// @param[out] err   [opt]
/// @returns the hierarchy, or NULL with err: LDS_E_ARG (NULL grid, cluster
///   size out of range, a grid with 2^32 cells or entrance slots or more,
///   landmarks out of range with lower_bounds, too many or NaN/infinite weights, a passable cell
///   whose effective cost is <= 0 or NaN: the message names the cell),
///   LDS_E_NOMEM. [Owner: caller frees with lds_hpa_free]
LDS_API lds_Hpa *lds_hpa_new(const lds_Env *env, const lds_Grid *grid, const lds_HpaParams *params,
                             lds_Error *err);
/// Frees a hierarchy (its queries must be freed first). NULL is ignored.
LDS_API void lds_hpa_free(lds_Hpa *h);
/// Applies the edits heard since the last repair: rebuilds the touched
/// clusters and their borders only. O(1) when nothing changed.
/// @returns LDS_OK, LDS_E_ARG (an edited cell's effective cost is <= 0 or
///   NaN; message in lds_hpa_errmsg; the hierarchy stays unrepaired and
///   queries fail until the cell is fixed), LDS_E_STATE (a layer the
///   hierarchy weights was removed from the grid: the message names it;
///   every later repair and query fails the same way), LDS_E_NOMEM.
LDS_API lds_Status lds_hpa_repair(lds_Hpa *h);
/// With a second level, a repair that changes the entrance list of a
/// first-level cluster does not rebuild the second-level cluster holding
/// it: that one is left stale (lds_HpaInfo.level2_stale), and fast queries
/// search its first-level edges, with the same abstract cost. A stale one
/// whose clusters read as at its build again (a door closed, then opened)
/// is exact again with no rebuild; at most 8 are stale, a repair that would
/// leave more rebuilds the oldest. This applies the pending edits
/// (lds_hpa_repair), then rebuilds the oldest stale second-level cluster,
/// if any (a few ms on a 4096 x 4096 map; for idle time). A fast query
/// running across that rebuild ends with LDS_E_STALE.
/// @returns LDS_OK, the errors of lds_hpa_repair, LDS_E_NOMEM.
LDS_API lds_Status lds_hpa_refresh(lds_Hpa *h);
/// Whether fast queries started from now on search through the second
/// level (on after a build with one). Their abstract cost is the same
/// either way (docs/hierarchy.md); for measuring and debugging.
/// @returns LDS_OK, LDS_E_ARG (NULL h), LDS_E_STATE (on, for a hierarchy
///   built without a second level: lds_HpaParams.level2 0, or AUTO on a
///   grid below LDS_HPA_LEVEL2_MIN_CELLS; message in lds_hpa_errmsg).
LDS_API lds_Status lds_hpa_use_level2(lds_Hpa *h, bool on);
/// Sets the weight of the abstract search of fast queries started from now
/// on (lds_HpaParams.fast_weight).
/// @returns LDS_OK, LDS_E_ARG (NULL h, or w outside 1..LDS_HPA_MAX_FAST_WEIGHT
///   or NaN: the hierarchy keeps its weight).
LDS_API lds_Status lds_hpa_set_fast_weight(lds_Hpa *h, double w);
/// Fills *out with the hierarchy's counters.
LDS_API void lds_hpa_info(const lds_Hpa *h, lds_HpaInfo *out);
/// Bytes allocated by the hierarchy (queries not included).
LDS_API size_t lds_hpa_mem_used(const lds_Hpa *h);
/// Last error message ("" if none). [Owner: the hierarchy]
LDS_API const char *lds_hpa_errmsg(const lds_Hpa *h);
/// The grid of the hierarchy.
LDS_API const lds_Grid *lds_hpa_grid(const lds_Hpa *h);

/* ----------------------------------------------------------- queries -- */

/// Creates a query object for a hierarchy (reused for query after query).
/// Allocates the scratch of the searches inside
/// clusters (about 45 bytes per cell of a 3 x 3 cluster box, and of one
/// cluster for each of the start's and the goal's insertion) and the
/// unsmoothed path (16 bytes per cell of it); the fast mode allocates on its
/// first query the abstract search's records (48 bytes per entrance, with
/// a quarter more for entrances later repairs add), the optimal mode on
/// its first query one lds_Search on the grid (its memory: lds_search.h),
/// which runs JPS on uniform-cost grids and the landmark A* elsewhere.
/// @returns the query, NULL with err LDS_E_ARG (NULL h) or LDS_E_NOMEM.
/// [Owner: caller frees with lds_hpa_query_free, before the hierarchy]
LDS_API lds_HpaQuery *lds_hpa_query_new(lds_Hpa *h, lds_Error *err);
/// Frees a query. NULL is ignored.
LDS_API void lds_hpa_query_free(lds_HpaQuery *q);
/// Starts a query from (sx,sy) to (gx,gy) [Units: cells]; repairs the
/// hierarchy first if the grid changed. A blocked start or goal is no
/// error: the first step returns LDS_NO_PATH. So do a start and goal that a
/// connectivity index of the grid (lds_components.h) puts in different
/// components, by lds_search's rule (an index whose blocking set lies within
/// the layers the hierarchy weights positively): in both modes, with 0
/// expansions and the message "goal (x,y) is in another component than the
/// start" in lds_hpa_query_errmsg.
/// @returns LDS_OK, or LDS_E_ARG (a cell out of bounds, an unknown mode,
///   the optimal mode on a hierarchy built without lower_bounds, or a
///   repair that failed with it), LDS_E_STATE (a repair that failed with
///   it: a weighted layer was removed), LDS_E_NOMEM; message in
///   lds_hpa_query_errmsg.
LDS_API lds_Status lds_hpa_query_start(lds_HpaQuery *q, lds_HpaMode mode, int32_t sx, int32_t sy,
                                       int32_t gx, int32_t gy);
/// Runs the query for one slice (lds_Budget as in lds_search_step). Work is
/// counted in expansions (cells of a cluster search, abstract nodes, cells of
/// the optimal A*); the clock is read every 64 expansions. A budget is
/// checked between units of work (the insertion, an abstract node, the
/// unpacking of a two-level abstract path, the refinement of one waypoint
/// pair), so a step may overshoot
/// max_expansions by one unit (at most 9 x cluster_size^2 expansions, the
/// A* of a start and goal at most two clusters apart).
/// @returns LDS_RUNNING, LDS_FOUND, LDS_NO_PATH, or LDS_E_STATE (no query
///   started), LDS_E_STALE (the grid changed since the start). A finished
///   query keeps returning its final status.
LDS_API lds_Status lds_hpa_query_step(lds_HpaQuery *q, const lds_Budget *budget);
/// Current status (LDS_E_STATE before the first start).
LDS_API lds_Status lds_hpa_query_status(const lds_HpaQuery *q);
/// Counters of the current query (reset by start).
LDS_API void lds_hpa_query_stats(const lds_HpaQuery *q, lds_Stats *out);
/// Cost of the path found [Units: cost]; -1 unless LDS_FOUND.
LDS_API double lds_hpa_query_cost(const lds_HpaQuery *q);
/// Cost of the abstract path of a fast query [Units: cost]: an upper bound
/// of the refined path's cost; -1 before the abstract search ended or in
/// the optimal mode.
LDS_API double lds_hpa_query_abstract_cost(const lds_HpaQuery *q);
/// The path found (status LDS_FOUND), start to goal inclusive, cost = the
/// sum of its moves.
/// @returns NULL with err LDS_E_STATE when there is none, LDS_E_NOMEM.
/// [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_hpa_query_path(const lds_HpaQuery *q, lds_Error *err);
/// The refined prefix so far of a fast-mode query: from the start, every
/// cell of it final (the finished path will begin with exactly these
/// cells). Flagged LDS_PATH_PARTIAL until the query is LDS_FOUND; the start
/// alone before enough pairs were refined for the smoothing to settle a
/// cell. Once found (either mode): the whole path, unflagged. The optimal
/// mode has no prefix while it runs (its exact search settles no cell of
/// the path before the goal): it delivers its path only at the end.
/// @returns NULL with err LDS_E_STATE (no query, blocked start, no path, or
///   an optimal-mode query still running: the message says so),
///   LDS_E_NOMEM. [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_hpa_query_prefix(const lds_HpaQuery *q, lds_Error *err);
/// Last error message ("" if none). [Owner: the query]
LDS_API const char *lds_hpa_query_errmsg(const lds_HpaQuery *q);

LDS_END_DECLS

#endif
