/* SPDX-License-Identifier: MIT */
/*
** lds_components.h — connectivity: the connected components of a grid's
** passable cells, kept up to date under edits, so that a query whose start
** and goal lie in different components is answered "no path" without
** expanding a node.
**
**   lds_Components *cc = lds_components_new(NULL, grid, 0, &err); // O(cells)
**   lds_components_connected(cc, 0, 0, 40, 45);    // O(1)
**   lds_grid_set_blocked(grid, 7, 3, true);        // cc updated by the edit
**
** Two cells are in one component when a sequence of legal moves joins them
** under the grid's neighbourhood and diagonal rule (lds_grid_can_move, the
** moves the searches make) through cells that are passable and, for each
** layer of the index's blocking set, not +INFINITY on that layer (the cells
** such a layer blocks for a query that gives it a positive weight). The
** relation is symmetric, so components are an equivalence.
**
** Attached to the grid: an index lives until lds_components_free or
** lds_grid_free, and every lds_search_start on the grid (A*, Dijkstra,
** weighted A*, greedy, JPS, JPS+; so the scheduler too) consults the
** grid's indexes whose blocking set is contained in the query's
** positively weighted layers: start and goal in different components
** (or the goal blocked by such a layer) end the query with LDS_NO_PATH
** before any expansion; so does lds_hpa_query_start (the hierarchy's
** positively weighted layers). Queries with params.partial keep searching (their
** answer, the reachable cell closest to the goal, needs the search).
** An index never claims "separated" for cells a search could join: moves
** the edge callback forbids or layer sums that overflow only remove moves.
**
** How edits are followed (docs/big-maps.md, "Connectivity"): cells are
** grouped in blocks of LDS_COMPONENTS_BLOCK x LDS_COMPONENTS_BLOCK; each
** block keeps the local components of its cells (flood fill inside the
** block) and the moves that cross its border (edges between local
** components of neighbouring blocks); the components are the connected
** parts of that graph of local components. An edit recomputes the blocks
** within one cell of the edited rectangle and the border edges of their
** neighbours: O(B^2) for a one-cell edit. When the local components and
** their border edges come out unchanged (most edits inside a room), that
** is all; otherwise (an opening merges two components, a closing may
** split one) the graph of local components is relabelled, O(number of
** local components + border edges), about cells / B^2 times a small factor
** (a few thousand nodes on a 1024x1024 city map). Worst case of one edit:
** O(B^2 * blocks touched + cells / B^2 * 512) (a checkerboard's 512 local
** components per block); a rectangle touching more than half of the
** blocks, a rule change or a layer removal rebuilds all, O(cells).
**
** Memory: 2 bytes per cell (the local component of each cell) plus, per
** block, 4 bytes per local component and 4 per border edge (about 0.1-0.3
** bytes per cell on game maps; at most 3.5 for a checkerboard).
**
** Threads (docs/threads.md): queries only read; creating and freeing an
** index are editing calls on its grid (no other call on the grid at once).
** Listener-time allocation failures do not crash or lie: the index turns
** "unknown" (lds_components_status LDS_E_NOMEM; queries answer
** LDS_COMPONENT_UNKNOWN and searches ignore it) until an edit rebuilds it.
*/
#ifndef LDS_COMPONENTS_H
#define LDS_COMPONENTS_H

#include "lds_common.h"
#include "lds_grid.h"

LDS_BEGIN_DECLS

typedef struct lds_Components lds_Components;

/// Side of the blocks the index works in. [Units: cells]
#define LDS_COMPONENTS_BLOCK 32
/// Component id of a cell that is blocked (or blocked by a layer of the set).
#define LDS_COMPONENT_NONE 0u
/// Component id returned while the index is unknown (allocation failure).
#define LDS_COMPONENT_UNKNOWN 0xFFFFFFFFu

/// Update counters of an index (value struct).
typedef struct lds_ComponentsStats {
  uint64_t updates;        ///< edits followed
  uint64_t relabels;       ///< ... of which relabelled the graph of local components
  uint64_t rebuilds;       ///< full rebuilds (creation included)
  uint64_t last_cells;     ///< cells flood-filled by the last edit [Units: cells]
  uint64_t last_nodes;     ///< local components relabelled by the last edit (0: none)
  uint64_t total_cells;    ///< cells flood-filled over all edits [Units: cells]
  uint64_t graph_nodes;    ///< local components now (nodes of the graph relabelled)
  uint64_t graph_edges;    ///< border edges now, each counted at both ends
} lds_ComponentsStats;

/// Builds the connectivity index of a grid and attaches it to the grid.
/// O(cells) time.
/// @param[in] env        [opt] allocator; NULL for the grid's defaults
/// @param[in] grid       the grid (edited later as usual: the index listens)
/// @param[in] layer_mask blocking set: bit i = layer index i, whose +INFINITY
///   cells are blocked for this index [Limit: bits 0..15 of existing
///   layers]; 0 = the grid's blocked cells only (valid for every query).
///   Layers are followed by name: a removed layer leaves the set.
/// @param[out] err       [opt]
/// @returns the index, or NULL with LDS_E_ARG (NULL grid, a mask bit of a
///   missing layer, an index for this mask already attached) or
///   LDS_E_NOMEM. [Owner: the grid; free with lds_components_free, or it
///   goes with lds_grid_free]
LDS_API lds_Components *lds_components_new(const lds_Env *env, lds_Grid *grid,
                                           uint32_t layer_mask, lds_Error *err);
/// Detaches and frees an index. NULL is ignored.
LDS_API void lds_components_free(lds_Components *c);
/// The index attached to grid for exactly this blocking set, or NULL.
/// [Owner: the grid]
LDS_API lds_Components *lds_components_find(const lds_Grid *grid, uint32_t layer_mask);

/// Component of cell (x,y) [Units: cells]: an id >= 1, equal for two cells
/// exactly when a path joins them; LDS_COMPONENT_NONE for a blocked cell or
/// one outside the grid; LDS_COMPONENT_UNKNOWN while the index is unknown.
/// Ids are renumbered by edits that merge or split components: compare ids
/// read after the same edit only. O(1).
LDS_API uint32_t lds_components_id(const lds_Components *c, int32_t x, int32_t y);
/// true when a search from (x1,y1) to (x2,y2) weighting the index's layers
/// finds a path, as the searches see it: a start is never entered, so its
/// own layer value does not matter. A cell the grid blocks: false; the same
/// cell: true; a start passable under the set: both in one component; a
/// start the set blocks (+inf on one of its layers): a legal move from it
/// (lds_grid_can_move: corners are the grid's blocked cells, never layer
/// cells) enters the goal's component, which needs a goal passable under the
/// set. false while unknown (check lds_components_status). O(1).
LDS_API bool lds_components_connected(const lds_Components *c, int32_t x1, int32_t y1,
                                      int32_t x2, int32_t y2);
/// Number of components (0 on a grid with no passable cell).
LDS_API uint32_t lds_components_count(const lds_Components *c);
/// The blocking set (as given, minus layers removed since).
LDS_API uint32_t lds_components_layer_mask(const lds_Components *c);
/// LDS_OK, or LDS_E_NOMEM while an allocation failure left the index unknown.
LDS_API lds_Status lds_components_status(const lds_Components *c);
/// Bytes allocated by the index.
LDS_API size_t lds_components_mem_used(const lds_Components *c);
/// Fills *out with the update counters.
LDS_API void lds_components_stats(const lds_Components *c, lds_ComponentsStats *out);

LDS_END_DECLS

#endif /* LDS_COMPONENTS_H */
