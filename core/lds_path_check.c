/* SPDX-License-Identifier: MIT */
/*
** lds_path_check.c — the path checker (lds_path_check in lds_path.h): the
** moves legal on the grid as it is, the endpoints, the cost from the cells.
*/
#include "lds_grid_internal.h"
#include "lds_path.h"

#include <math.h>

void lds_path_check_init(lds_PathCheck *opts) {
  if (!opts) return;
  opts->check_start = false;
  opts->sx = opts->sy = 0;
  opts->check_goal = false;
  opts->gx = opts->gy = 0;
  opts->check_cost = true;
  opts->cost_rel_tol = 1e-9;
  opts->layer_weights = NULL;
  opts->nlayers = 0;
}

/* Records the fault in out and err; returns LDS_E_FORMAT. */
static lds_Status fault(lds_PathCheckReport *out, int kind, size_t step, double cost) {
  out->fault = kind;
  out->step = step;
  out->cost = cost;
  return LDS_E_FORMAT;
}

/* Cost of entering (x,y): the cell's cost plus the weighted layers. */
static double enter_cost(const lds_Grid *g, const lds_PathCheck *o, int32_t x, int32_t y) {
  double c = (double)lds_grid_cost(g, x, y);
  int i;
  /* a zero weight adds nothing, not even 0 x inf (as the searches' cost views) */
  for (i = 0; i < o->nlayers; i++)
    if (o->layer_weights[i] != 0.0) c += o->layer_weights[i] * (double)lds_grid_layer_get(g, i, x, y);
  return c;
}

static lds_Status walk(const lds_Grid *g, const lds_Path *p, const lds_PathCheck *o,
                       lds_PathCheckReport *out, lds_Error *err) {
  size_t i, n = lds_path_length(p);
  int32_t px, py, x, y;
  double c = 0.0, pc = lds_path_cost(p);
  if (n == 0 || !lds_path_cell(p, 0, &px, &py) ||
      (o->check_start && (px != o->sx || py != o->sy))) {
    if (o->check_start)
      ldsi_error(err, LDS_E_FORMAT, "lds_path_check: path does not start at (%ld,%ld)",
                 (long)o->sx, (long)o->sy);
    else
      ldsi_error(err, LDS_E_FORMAT, "lds_path_check: the path has no cell");
    return fault(out, n == 0 ? LDS_PATHCHECK_EMPTY : LDS_PATHCHECK_START, 0, 0.0);
  }
  if (!lds_grid_in_bounds(g, px, py) || lds_grid_blocked(g, px, py)) {
    ldsi_error(err, LDS_E_FORMAT, "lds_path_check: cell 0 (%ld,%ld) is outside the grid or blocked",
               (long)px, (long)py);
    return fault(out, LDS_PATHCHECK_CELL, 0, 0.0);
  }
  for (i = 1; i < n; i++) {
    int d;
    double e;
    lds_path_cell(p, i, &x, &y);
    d = lds_direction_of(x - px, y - py);
    if (d < 0 || !lds_grid_can_move(g, px, py, d)) {
      ldsi_error(err, LDS_E_FORMAT, "lds_path_check: illegal step %zu: (%ld,%ld)->(%ld,%ld)", i,
                 (long)px, (long)py, (long)x, (long)y);
      return fault(out, LDS_PATHCHECK_MOVE, i, c);
    }
    e = o->nlayers ? enter_cost(g, o, x, y) : (double)lds_grid_cost(g, x, y);
    if (!(e > 0.0) || isinf(e)) {
      ldsi_error(err, LDS_E_FORMAT, "lds_path_check: step %zu enters (%ld,%ld) at cost %g "
                 "(expected finite and > 0)", i, (long)x, (long)y, e);
      return fault(out, LDS_PATHCHECK_CELL_COST, i, c);
    }
    c += lds_directions[d].length * e;
    px = x;
    py = y;
  }
  if (o->check_goal && (px != o->gx || py != o->gy)) {
    ldsi_error(err, LDS_E_FORMAT, "lds_path_check: path ends at (%ld,%ld), not the goal (%ld,%ld)",
               (long)px, (long)py, (long)o->gx, (long)o->gy);
    return fault(out, LDS_PATHCHECK_GOAL, n - 1, c);
  }
  if (o->check_cost && !(fabs(c - pc) <= o->cost_rel_tol * (fabs(pc) > 1.0 ? fabs(pc) : 1.0))) {
    ldsi_error(err, LDS_E_FORMAT, "lds_path_check: cost %.17g from the cells differs from the "
               "path's %.17g", c, pc);
    return fault(out, LDS_PATHCHECK_COST, 0, c);
  }
  out->fault = LDS_PATHCHECK_OK;
  out->step = 0;
  out->cost = c;
  ldsi_error_clear(err);
  return LDS_OK;
}

lds_Status lds_path_check(const lds_Grid *g, const lds_Path *p, const lds_PathCheck *opts,
                          lds_PathCheckReport *out, lds_Error *err) {
  lds_PathCheck defaults;
  lds_PathCheckReport scratch;
  if (!out) out = &scratch;
  out->fault = LDS_PATHCHECK_OK;
  out->step = 0;
  out->cost = 0.0;
  if (!opts) {
    lds_path_check_init(&defaults);
    opts = &defaults;
  }
  if (!g || !p) return ldsi_error(err, LDS_E_ARG, "lds_path_check: %s is NULL", g ? "path" : "grid");
  if (lds_path_width(p) != lds_grid_width(g))
    return ldsi_error(err, LDS_E_ARG, "lds_path_check: path width %ld, grid width %ld (expected "
                      "a path on this grid)", (long)lds_path_width(p), (long)lds_grid_width(g));
  if (!(opts->cost_rel_tol >= 0.0) || isinf(opts->cost_rel_tol))
    return ldsi_error(err, LDS_E_ARG, "lds_path_check: cost_rel_tol %g (expected finite and >= 0)",
                      opts->cost_rel_tol);
  if (opts->nlayers < 0 || opts->nlayers > lds_grid_layer_count(g) ||
      (opts->nlayers > 0 && !opts->layer_weights))
    return ldsi_error(err, LDS_E_ARG, "lds_path_check: nlayers %d (expected 0..%d with "
                      "layer_weights)", opts->nlayers, lds_grid_layer_count(g));
  return walk(g, p, opts, out, err);
}
