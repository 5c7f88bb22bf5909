/* SPDX-License-Identifier: MIT */
/*
** lds_los_internal.h — the exact step cost of lds_los.c for the any-angle
** searches (lds_theta.c): the cost lds_grid_path_cost_weighted charges one
** step of a path, with its line-of-sight rule. Hidden; not installed.
*/
#ifndef LDS_LOS_INTERNAL_H
#define LDS_LOS_INTERNAL_H

#include "lds_grid_internal.h"

/* Cost of the straight step from the centre of (x0,y0) to that of (x1,y1)
** [Units: cost], exactly as lds_grid_path_cost_weighted charges a step of a
** path (lds_postprocess.h, "Cost of a path"), under the layer weights w
** (nw of them, already validated): INFINITY when the line walk a->b is not
** legal (lds_grid_line_of_sight), when the segment crosses a blocked cell
** (or one a weighted layer blocks) or when the cost exceeds limit; NaN when
** a crossed cell's weighted cost is <= 0 or NaN. Both ends in bounds. */
LDSI_HIDDEN double ldsi_los_step_cost(const lds_Grid *g, const double *w, int nw, int32_t x0,
                                      int32_t y0, int32_t x1, int32_t y1, double limit);

#endif
