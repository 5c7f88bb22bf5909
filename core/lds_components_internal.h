/* SPDX-License-Identifier: MIT */
/*
** lds_components_internal.h — what the search asks the connectivity index
** (lds_components.c) at the start of a query. Hidden; not installed.
*/
#ifndef LDS_COMPONENTS_INTERNAL_H
#define LDS_COMPONENTS_INTERNAL_H

#include "lds_components.h"
#include "lds_internal.h"

/* The query mask of ldsi_components_separated for the layer weights w[0..n-1]
** (one per layer index): the layers weighted positively. */
static inline uint32_t ldsi_components_query_mask(const double *w, int n) {
  uint32_t m = 0;
  int i;
  for (i = 0; i < n; i++)
    if (w[i] > 0.0) m |= 1u << i;
  return m;
}

/* true when an index attached to g, whose blocking set is contained in
** query_mask (the layers the query weights positively), proves that no path
** leads from (sx,sy) to (gx,gy): both passable for the index and in
** different components, or the goal blocked by one of its layers (a start
** blocked by a layer may still leave its cell, so it proves nothing).
** Cells in bounds, start and goal distinct and not blocked on the grid. */
LDSI_HIDDEN bool ldsi_components_separated(const lds_Grid *g, uint32_t query_mask, int32_t sx,
                                           int32_t sy, int32_t gx, int32_t gy);

#endif
