/* SPDX-License-Identifier: MIT */
/*
** lds_grid.h — the grid: width x height cells, each passable or blocked, with
** a cost, the terrain character it was loaded from, and named cost layers.
**
** Coordinates are cells, (0,0) top-left, x = column, y = row. A move costs its
** length (1, or sqrt(2) for a diagonal) times the cost of the cell entered.
** Every edit bumps a change counter and is reported to listeners with the
** rectangle it touched, so searches, baked layers and incremental planners
** notice it.
**
** Threads (docs/threads.md): any number of threads may read a grid at once
** (searches, queries, line of sight) while no thread edits it. The editing
** calls (set_*, touch, layer_add/remove/set, writes through
** lds_grid_layer_data, free) need the grid to themselves: no other call on
** it, no search on it running. The writes a reader may make (the listener
** list, the lds_grid_min_cost cache) are locked or atomic.
*/
#ifndef LDS_GRID_H
#define LDS_GRID_H

#include "lds_common.h"
#include "lds_directions.h"

LDS_BEGIN_DECLS

typedef struct lds_Grid lds_Grid;

/// Largest width or height accepted. [Units: cells]
#define LDS_GRID_MAX_SIDE 65535

/// Diagonal rule of an 8-connected grid (ignored with neighbourhood 4).
typedef enum lds_Diagonal {
  LDS_DIAG_NEVER = 0,             ///< no diagonal moves at all
  LDS_DIAG_NO_CORNER_CUTTING = 1, ///< both orthogonal neighbours passable (Moving AI rule, default)
  LDS_DIAG_ALLOW_ONE_BLOCKED = 2, ///< at least one orthogonal neighbour passable
  LDS_DIAG_ALWAYS = 3             ///< only the target cell must be passable
} lds_Diagonal;

/// Name of a diagonal rule: "never", "no_corner_cutting", "allow_one_blocked",
/// "always"; NULL for an invalid value. [Owner: static]
LDS_API const char *lds_diagonal_name(lds_Diagonal d);
/// Parses a rule name; returns LDS_E_ARG for an unknown name.
LDS_API lds_Status lds_diagonal_parse(const char *name, lds_Diagonal *out);

/// Directions LDS_DIR_N ... LDS_DIR_NW: lds_directions.h.

/// Called after every edit with the rectangle of cells it changed
/// (inclusive bounds) and the grid's new version.
typedef void (*lds_GridListener)(void *ud, const lds_Grid *g, int32_t x0, int32_t y0,
                                 int32_t x1, int32_t y1, uint64_t version);

/* ---------------------------------------------------------- lifetime -- */

/// Creates a grid of width x height passable cells of cost 1 and terrain '.',
/// 8-connected with the no_corner_cutting rule.
/// @param[in] env      [opt] allocator/clock/log; NULL for defaults
/// @param[in] width    [Units: cells] [Limit: 1..LDS_GRID_MAX_SIDE]
/// @param[in] height   [Units: cells] [Limit: 1..LDS_GRID_MAX_SIDE]
/// @param[out] err     [opt] filled on failure
/// @returns the grid, or NULL with err->code LDS_E_ARG (size out of range) or
///          LDS_E_NOMEM. [Owner: caller frees with lds_grid_free]
/// Memory: about 10 bytes per cell, plus 4 per cell per layer.
LDS_API lds_Grid *lds_grid_new(const lds_Env *env, int32_t width, int32_t height, lds_Error *err);

/// Deep copy (cells, costs, terrain, layers, rules; not listeners).
/// [Owner: caller frees with lds_grid_free] Returns NULL on LDS_E_NOMEM.
LDS_API lds_Grid *lds_grid_clone(const lds_Grid *g, lds_Error *err);

/// Frees the grid. NULL is ignored. Searches on it must be freed first.
LDS_API void lds_grid_free(lds_Grid *g);

/* ----------------------------------------------------------- editing -- */

/// Blocks or unblocks a cell. @returns LDS_OK, LDS_E_ARG when out of bounds.
LDS_API lds_Status lds_grid_set_blocked(lds_Grid *g, int32_t x, int32_t y, bool blocked);

/// Sets the cost of entering a cell. [Units: cost] [Limit: finite, > 0]
/// @returns LDS_OK; LDS_E_ARG for out of bounds or a cost <= 0, NaN or
/// infinite (never clamped; message in lds_grid_errmsg).
LDS_API lds_Status lds_grid_set_cost(lds_Grid *g, int32_t x, int32_t y, float cost);

/// Sets the terrain character kept for a cell (does not change passability;
/// bumps the version and notifies listeners).
/// @returns LDS_OK; LDS_E_ARG for a cell out of bounds (message in
///          lds_grid_errmsg).
LDS_API lds_Status lds_grid_set_terrain(lds_Grid *g, int32_t x, int32_t y, char terrain);

/// Sets 4- or 8-connectivity. @returns LDS_E_ARG for any other value.
LDS_API lds_Status lds_grid_set_neighbourhood(lds_Grid *g, int n);

/// Sets the diagonal rule (used with neighbourhood 8). A new rule recomputes
/// every move mask, bumps the version and notifies listeners; the current
/// rule changes nothing.
/// @returns LDS_OK; LDS_E_ARG for a value outside 0..3 (message in
///          lds_grid_errmsg).
LDS_API lds_Status lds_grid_set_diagonal(lds_Grid *g, lds_Diagonal rule);

/// Reports an external edit of a rectangle (e.g. after writing a layer
/// through lds_grid_layer_data): bumps the version, notifies listeners.
/// (x0,y0) and (x1,y1) are the inclusive corners.
/// @returns LDS_OK; LDS_E_ARG when x0 > x1 or y0 > y1 (empty rectangle) or
///          either corner is out of bounds (message in lds_grid_errmsg).
LDS_API lds_Status lds_grid_touch(lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1);

/* ----------------------------------------------------------- queries -- */

LDS_API int32_t lds_grid_width(const lds_Grid *g);   ///< [Units: cells]
LDS_API int32_t lds_grid_height(const lds_Grid *g);  ///< [Units: cells]
/// true when (x,y) is inside the grid.
LDS_API bool lds_grid_in_bounds(const lds_Grid *g, int32_t x, int32_t y);
/// true when blocked; cells outside the grid count as blocked.
LDS_API bool lds_grid_blocked(const lds_Grid *g, int32_t x, int32_t y);
/// Cost of entering the cell [Units: cost]; 0 outside the grid.
LDS_API float lds_grid_cost(const lds_Grid *g, int32_t x, int32_t y);
/// Terrain character; '\0' outside the grid.
LDS_API char lds_grid_terrain(const lds_Grid *g, int32_t x, int32_t y);
LDS_API int lds_grid_neighbourhood(const lds_Grid *g);     ///< 4 or 8
LDS_API lds_Diagonal lds_grid_diagonal(const lds_Grid *g); ///< current rule
/// Change counter: grows by at least one with every edit.
LDS_API uint64_t lds_grid_version(const lds_Grid *g);
/// Smallest cell cost on the grid (blocked cells included), the factor that
/// keeps distance heuristics admissible. [Units: cost] O(1), but O(cells)
/// once after an edit that raised the cheapest cell: the result is cached
/// in the grid, atomically, so concurrent readers may call it.
LDS_API float lds_grid_min_cost(const lds_Grid *g);
/// true when the move from (x,y) in direction dir (LDS_DIR_*) is legal under
/// the grid's neighbourhood and diagonal rule.
LDS_API bool lds_grid_can_move(const lds_Grid *g, int32_t x, int32_t y, int dir);
/// Number of passable cells.
LDS_API size_t lds_grid_passable_count(const lds_Grid *g);
/// Last error message of an editing call ("" if none). [Owner: the grid]
LDS_API const char *lds_grid_errmsg(const lds_Grid *g);
/// Bytes allocated by the grid (takes the listener lock for a moment).
LDS_API size_t lds_grid_mem_used(const lds_Grid *g);

/* ------------------------------------------------------------ layers -- */

/// Adds a named layer of width*height floats, all 0. Names are 1..63 bytes.
/// @param[out] index [opt] the new layer's index
/// @returns LDS_OK; LDS_E_ARG if the name is empty, too long or taken;
///          LDS_E_NOMEM.
LDS_API lds_Status lds_grid_layer_add(lds_Grid *g, const char *name, int *index);
/// Index of a layer by name, or -1.
LDS_API int lds_grid_layer_find(const lds_Grid *g, const char *name);
/// Removes a layer and frees its data; later layers move down one index.
/// Bumps the version and notifies listeners (the whole grid).
/// @returns LDS_OK; LDS_E_ARG for an index outside 0..count-1 (message in
///          lds_grid_errmsg).
LDS_API lds_Status lds_grid_layer_remove(lds_Grid *g, int index);
/// Number of layers on the grid (indices 0..count-1).
LDS_API int lds_grid_layer_count(const lds_Grid *g);
/// Name of layer i, NULL when out of range. [Owner: the grid]
LDS_API const char *lds_grid_layer_name(const lds_Grid *g, int index);
/// Raw storage of layer i. [Shape: width*height floats, row-major, index
/// y*width+x] [Owner: the grid; valid until this layer is removed or the
/// grid is freed: removing an earlier layer moves it down an index but
/// keeps the pointer valid]. Call lds_grid_touch after writing so listeners
/// and searches notice.
/// @returns the data; NULL for an index outside 0..count-1 (no message).
LDS_API float *lds_grid_layer_data(lds_Grid *g, int index);
/// Read-only view of layer i, NULL when out of range. [Shape: width*height
/// floats, row-major] [Owner: the grid; valid until the layer is removed]
LDS_API const float *lds_grid_layer_cdata(const lds_Grid *g, int index);
/// Sets one layer value. Any float is stored; +INFINITY means "blocked for
/// queries that give this layer a positive weight". NaN is LDS_E_ARG.
LDS_API lds_Status lds_grid_layer_set(lds_Grid *g, int index, int32_t x, int32_t y, float v);
/// Layer value at (x,y); 0 outside the grid or for a bad index.
LDS_API float lds_grid_layer_get(const lds_Grid *g, int index, int32_t x, int32_t y);
/// Smallest and largest finite value of a layer (0,0 when it has none);
/// min or max may be NULL. O(cells).
/// @returns LDS_OK; LDS_E_ARG for an index outside 0..count-1 (outputs
///          untouched, no message: the grid is const).
LDS_API lds_Status lds_grid_layer_range(const lds_Grid *g, int index, float *min, float *max);

/* --------------------------------------------------------- listeners -- */

/// Registers fn to hear about every edit. fn runs on the editing thread,
/// inside the editing call. Listening and unlistening take the grid's spin
/// lock, so threads that share the grid read-only may (un)listen at once
/// (JPS searches and subscribed D* Lite searches do); not during an edit.
/// @returns LDS_OK, LDS_E_ARG (fn NULL), LDS_E_NOMEM.
LDS_API lds_Status lds_grid_listen(lds_Grid *g, lds_GridListener fn, void *ud);
/// Removes a listener registered with the same (fn, ud), under the same lock.
/// @returns LDS_OK, LDS_E_ARG if absent.
LDS_API lds_Status lds_grid_unlisten(lds_Grid *g, lds_GridListener fn, void *ud);

LDS_END_DECLS

#endif /* LDS_GRID_H */
