/* SPDX-License-Identifier: MIT */
/*
** lds_path_cache.h — the path cache: one shortest-path tree per goal (and
** layer weights), grown backwards from the goal by Dijkstra's algorithm and
** shared by every request heading there. A request whose start the tree
** has already settled is answered by walking the tree (no expansion); one
** whose start lies outside grows the tree until the start is settled (the
** tree keeps that growth for the next requests). Every answer is an optimal
** path for the grid as it is. An edit costs in proportion to what it
** changes in a tree, not to the tree: the cells within one cell of the
** edited rectangle are checked, the subtrees hanging from the moves it made
** illegal or dearer are cut out (open again, each with the key of its best
** move into the rest of the tree), and the moves it made legal or cheaper
** are relaxed (a settled cell they shorten is opened again); a start is
** answered from the tree once it is settled with a distance no larger than
** the open list's smallest key, which makes the distance exact (proof in
** lds_path_cache_edit.c), so the queries settle the cut cells again as
** they need them. An edit next to the goal, or of a rectangle covering a
** quarter of the tree's box, resets the tree.
**
**   lds_PathCache *pc = lds_path_cache_new(NULL, grid, 16, &err);
**   if (lds_path_cache_accepts(pc, &params, sx, sy, gx, gy))
**     st = lds_path_cache_query(pc, &params, sx, sy, gx, gy, 0, &n, &path, &err);
**
** Ties: cached paths are optimal but, among paths of equal cost, not
** necessarily the one A* would return (the tree's parents come from a
** search rooted at the goal); same inputs in the same order still give the
** same paths bit for bit.
**
** Memory: 16 bytes per cell of the grid (padded by one cell on each side)
** for each entry, allocated when the entry is first used, plus its open
** list (16 bytes per open cell), plus 4 bytes per cell of the largest cut
** (scratch shared by the entries); max_entries bounds it, the least
** recently used entry is reused for a new goal.
**
** [Paper: Dijkstra, "A note on two problems in connexion with graphs",
**  Numerische Mathematik 1959]
*/
#ifndef LDS_PATH_CACHE_H
#define LDS_PATH_CACHE_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"
#include "lds_search.h"

LDS_BEGIN_DECLS

typedef struct lds_PathCache lds_PathCache;

/// Counters of a cache (value struct).
typedef struct lds_PathCacheStats {
  uint64_t answered;      ///< queries answered (a path or no path)
  uint64_t hits;          ///< ... of which without expanding a node
  uint64_t grown;         ///< ... of which after growing a tree
  uint64_t expansions;    ///< cells settled over all queries
  uint64_t resets;        ///< edits that changed a tree (cut a subtree, shortened cells, or reset it), per tree
  uint64_t truncations;   ///< ... of which cut a subtree out of the tree
  uint64_t evictions;     ///< entries reused for another goal
  uint32_t entries;       ///< entries in use
  size_t bytes;           ///< bytes allocated by the cache
} lds_PathCacheStats;

/// Creates a cache for a grid; listens to its edits.
/// @param[in] env         [opt] allocator; NULL for the defaults
/// @param[in] grid        the grid (must outlive the cache)
/// @param[in] max_entries trees kept at most [Limit: 1..1024]
/// @param[out] err        [opt]
/// @returns the cache, or NULL with LDS_E_ARG (NULL grid, max_entries out of
///   range) or LDS_E_NOMEM. [Owner: caller frees with lds_path_cache_free]
LDS_API lds_PathCache *lds_path_cache_new(const lds_Env *env, const lds_Grid *grid,
                                          uint32_t max_entries, lds_Error *err);
/// Frees a cache and its trees. NULL is ignored.
LDS_API void lds_path_cache_free(lds_PathCache *pc);
/// Forgets every tree (memory is kept).
LDS_API void lds_path_cache_clear(lds_PathCache *pc);

/// Whether the cache can answer this query exactly as the search would in
/// cost: an optimal algorithm (A*, Dijkstra, JPS, JPS+) with the automatic
/// heuristic scale (h_scale 0), no edge callback, no partial path, at most
/// 16 finite layer weights, start and goal in bounds, distinct and passable,
/// the goal not blocked by a weighted layer. Other queries go to a search.
LDS_API bool lds_path_cache_accepts(const lds_PathCache *pc, const lds_SearchParams *p,
                                    int32_t sx, int32_t sy, int32_t gx, int32_t gy);
/// Answers an accepted query from the tree of (goal, layer weights),
/// growing it by at most max_expansions settled cells (0 = no limit).
/// @param[out] expanded cells settled by this call
/// @param[out] out      on LDS_FOUND the path, start to goal, its cost
///   summed forwards as the search sums it. [Owner: caller frees with
///   lds_path_free]
/// @returns LDS_FOUND; LDS_NO_PATH (the tree holds every cell that reaches
///   the goal, not the start); LDS_RUNNING (budget spent: call again, the
///   growth is kept); LDS_E_ARG (query not accepted, or a cell's weighted
///   cost <= 0 or NaN: the search gives the error); LDS_E_NOMEM.
LDS_API lds_Status lds_path_cache_query(lds_PathCache *pc, const lds_SearchParams *p, int32_t sx,
                                        int32_t sy, int32_t gx, int32_t gy,
                                        uint64_t max_expansions, uint64_t *expanded,
                                        lds_Path **out, lds_Error *err);
/// Fills *out with the counters.
LDS_API void lds_path_cache_stats(const lds_PathCache *pc, lds_PathCacheStats *out);
/// Bytes allocated by the cache.
LDS_API size_t lds_path_cache_mem_used(const lds_PathCache *pc);

LDS_END_DECLS

#endif /* LDS_PATH_CACHE_H */
