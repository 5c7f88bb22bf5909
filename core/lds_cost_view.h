/* SPDX-License-Identifier: MIT */
/*
** lds_cost_view.h — effective-cost views: one per (grid, layer-weight set),
** shared by every search that uses that weight set.
**
** A search with layer weights (lds_SearchParams.layer_weights) moves on the
** effective cost of each cell,
**     eff(x, y) = base cost + sum_i weight[i] * layer_i(x, y)   (INFINITY when blocked),
** and scales its heuristic by the smallest of them (the automatic h_scale).
** A view holds these numbers for one weight set: 8 bytes per padded cell,
** the minimum (the heuristic scale) and whether every passable cell costs
** exactly 1 (then the uniform-cost loop applies). Each grid keeps a registry
** of its views, looked up by weights: lds_search_start finds (or creates) the
** view of its query's weights there, so a pool of searches serving several
** agent classes computes each class's costs once, not at every start.
**
**   lds_CostView *v = lds_cost_view_get(grid, w, 2, &err);   // a reference
**   while (lds_cost_view_build_step(v, &(lds_Budget){0, 500}) == LDS_RUNNING)
**     ... next frame ...;                        // sliced: 500 µs a frame
**   ... searches with weights w now start in O(1) ...
**   lds_cost_view_release(v);                    // the grid keeps the view
**   lds_cost_view_drop(v) / lds_cost_views_drop_all(grid);   // frees it
**
** Building: a new view (and one reset by a large edit) is built cell by cell
** by lds_cost_view_build_step under a budget; lds_search_start on a view
** that is not ready builds the rest at once (O(cells), the cost a search paid
** before views existed). lds_scheduler_step builds the views its requests
** need within the tick's budget, and a request waits in the queue meanwhile.
**
** Edits: a view listens to its grid (lds_grid_listen). An edit of a
** rectangle of A cells updates those A cells' costs in O(A * layers), the
** counters behind the uniform flag at once, and the minimum by this rule:
** the view counts the cells at the minimum; a lower cost becomes the new
** minimum (count 1), an equal one adds to the count, raising or blocking a
** cell at the minimum subtracts from it. Only when the count falls to zero
** (the last cheapest cell was raised) is the minimum unknown: the view is
** then not ready until a rescan of its stored costs (no layer reads; sliced
** like a build) finds the new one. A rectangle of at least a quarter of the
** grid (lds_grid_touch of everything, lds_grid_set_neighbourhood,
** lds_grid_layer_remove) resets the view instead: it is rebuilt, sliced.
**
** Searches in progress: a search started on a view reads the view's live
** costs and keeps the scale and loop (uniform or weighted) it started with.
** It becomes stale (lds_search_step returns LDS_E_STALE, the scheduler
** restarts it) when the view's uniform flag flips, the view is reset, or,
** for a search with the automatic scale (h_scale 0), the minimum changes:
** lowered by an edit (the old scale would overestimate), or raised once the
** rescan found it (a fresh search would use the new scale, and paths are
** the same whatever the timing of edits). While the rescan is pending the old,
** smaller scale still gives an admissible, consistent heuristic, so running
** searches go on.
**
** Lifetime: views are reference-counted. lds_cost_view_get and a search
** using a view each hold a reference; the grid's registry holds one until
** the view is dropped. A dropped view leaves the registry (later lookups
** create a new one) and is freed when its last reference goes. Release every
** reference and free every search before freeing the grid: lds_grid_free
** frees all its views.
**
** Threads (docs/threads.md): searches on several threads may read one ready
** view at once. Registry lookups and creation take the grid's view lock;
** building takes the view's build lock (a thread that finds a view being
** built by another waits in lds_search_start, and returns LDS_RUNNING at
** once from lds_cost_view_build_step); reference counts are atomic. Edits
** (the listener) need the grid to themselves, as every edit does. The view
** allocates with the grid's allocator, so with several threads that
** allocator must be thread-safe (as for JPS searches' listeners).
*/
#ifndef LDS_COST_VIEW_H
#define LDS_COST_VIEW_H

#include "lds_common.h"
#include "lds_grid.h"

LDS_BEGIN_DECLS

typedef struct lds_CostView lds_CostView;

/// In an expansion-counted budget (lds_Budget.max_expansions, the
/// scheduler's deterministic mode), building or rescanning this many cells
/// counts as one expansion (a cell costs a few ns, an expansion ~0.1-0.3 µs).
#define LDS_COST_VIEW_CELLS_PER_EXPANSION 32

/// The view of a weight set on a grid, created (empty, not built) on first
/// use. weights[i] is the weight of layer i; trailing zeros do not matter
/// (weights {2, 0} and {2} share one view), -0 is 0.
/// @param[in] g        the grid (its registry and listener list are written
///                     under locks, as by a JPS search's first start)
/// @param[in] weights  [Shape: n doubles, finite]
/// @param[in] n        [Limit: 1..min(16, lds_grid_layer_count(g))]
/// @param[out] err     [opt]
/// @returns a new reference to the view, or NULL with LDS_E_ARG (NULL grid,
///   n out of range, a weight NaN or infinite, every weight 0: searches
///   without weights read the grid's own costs) or LDS_E_NOMEM.
///   [Owner: caller, release with lds_cost_view_release]
LDS_API lds_CostView *lds_cost_view_get(const lds_Grid *g, const double *weights, int n,
                                        lds_Error *err);
/// Takes one more reference. [Owner: release it with lds_cost_view_release]
LDS_API lds_CostView *lds_cost_view_retain(lds_CostView *v);
/// Gives a reference back; the last one of a dropped view frees it. NULL is
/// ignored.
LDS_API void lds_cost_view_release(lds_CostView *v);
/// Removes the view from its grid's registry (later lookups of its weights
/// create a new view); its memory is freed once no reference is left (at
/// once when none is). Dropping twice is harmless.
LDS_API void lds_cost_view_drop(lds_CostView *v);
/// Drops every view of the grid (lds_cost_view_drop each).
LDS_API void lds_cost_views_drop_all(const lds_Grid *g);

/// Builds (or rescans) the view within a budget.
/// @param[in] budget [opt] budget_us: time on the clock of the grid's
///   environment, read every 4096 cells; max_expansions: counts
///   LDS_COST_VIEW_CELLS_PER_EXPANSION cells each; both 0 or NULL: to the end
/// @returns LDS_OK (ready: searches on it start in O(1)), LDS_RUNNING (the
///   budget ran out, or another thread is building it), or LDS_E_ARG when the
///   weights name a layer the grid no longer has (a layer was removed;
///   message in lds_cost_view_errmsg).
LDS_API lds_Status lds_cost_view_build_step(lds_CostView *v, const lds_Budget *budget);
/// Whether the view is built and its minimum known.
LDS_API bool lds_cost_view_ready(const lds_CostView *v);
/// Cells computed or rescanned since the view was created, over all builds.
/// [Units: cells]
LDS_API uint64_t lds_cost_view_cells_done(const lds_CostView *v);
/// Effective cost of cell (x, y) [Units: cost]: INFINITY when blocked (by
/// the grid or by an infinite layer value), NaN out of bounds or before the
/// cell is built.
LDS_API double lds_cost_view_cost(const lds_CostView *v, int32_t x, int32_t y);
/// The automatic heuristic scale: the smallest effective cost of a passable
/// cell (1 when none is) [Units: cost]; NaN when not ready.
LDS_API double lds_cost_view_scale(const lds_CostView *v);
/// Whether every passable cell costs exactly 1 under the weights (false
/// when not ready).
LDS_API bool lds_cost_view_uniform(const lds_CostView *v);
/// The view's weights: *n receives their number (trailing zeros cut).
/// [Owner: the view; valid while a reference is held]
LDS_API const double *lds_cost_view_weights(const lds_CostView *v, int *n);
/// Whether the view was dropped.
LDS_API bool lds_cost_view_dropped(const lds_CostView *v);
/// Bytes allocated by the view (its costs and its struct). [Units: bytes]
LDS_API size_t lds_cost_view_mem_used(const lds_CostView *v);
/// Last error message of the view ("" if none). [Owner: the view]
LDS_API const char *lds_cost_view_errmsg(const lds_CostView *v);

/// Views in the grid's registry (dropped ones still referenced excluded).
LDS_API int lds_cost_views_count(const lds_Grid *g);
/// The i-th view of the registry (0-based, creation order), as a new
/// reference, or NULL when i is out of range.
/// [Owner: caller, release with lds_cost_view_release]
LDS_API lds_CostView *lds_cost_views_at(const lds_Grid *g, int i);
/// Bytes allocated by all the grid's views, dropped ones still referenced
/// included, and the registry. [Units: bytes]
LDS_API size_t lds_cost_views_mem_used(const lds_Grid *g);

LDS_END_DECLS

#endif
