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

LDS_END_DECLS

#endif
