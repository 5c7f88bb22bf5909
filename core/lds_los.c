/*
** lds_los.c — line of sight on grids and line-of-sight path pruning.
** The exact walk and why pruning is safe are in lds_postprocess.h.
*/
#include "lds_grid_internal.h"
#include "lds_postprocess.h"

#include <math.h>
#include <stdlib.h>

/* LDS_DIR_* of a unit move (mx,my), y growing downwards. */
static int dir_of(int mx, int my) {
  static const int8_t table[3][3] = {
      /* my = -1 */ {LDS_DIR_NW, LDS_DIR_N, LDS_DIR_NE},
      /* my =  0 */ {-1, -1, LDS_DIR_E},
      /* my = +1 */ {LDS_DIR_SW, LDS_DIR_S, LDS_DIR_SE}};
  if (my == 0 && mx == -1) return LDS_DIR_W;
  return table[my + 1][mx + 1];
}

/* Walks the line from (x0,y0) to (x1,y1) as described in lds_postprocess.h;
** with cost != NULL sums move length x cost of the cell entered. Returns
** false at the first illegal move. */
static bool walk(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                 double *cost) {
  int32_t dx = abs(x1 - x0), dy = abs(y1 - y0);
  int sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1;
  int32_t x = x0, y = y0;
  double c = 0.0;
  if (!lds_grid_in_bounds(g, x0, y0) || !lds_grid_in_bounds(g, x1, y1)) return false;
  if (lds_grid_blocked(g, x0, y0) || lds_grid_blocked(g, x1, y1)) return false;
  if (g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER) {
    int64_t err = (int64_t)dx - dy; /* Bresenham, all octants */
    while (x != x1 || y != y1) {
      int64_t e2 = 2 * err;
      int mx = 0, my = 0;
      if (e2 > -(int64_t)dy) {
        err -= dy;
        mx = sx;
      }
      if (e2 < (int64_t)dx) {
        err += dx;
        my = sy;
      }
      if (!lds_grid_can_move(g, x, y, dir_of(mx, my))) return false;
      x += mx;
      y += my;
      if (cost) c += (mx && my ? LDSI_SQRT2 : 1.0) * (double)lds_grid_cost(g, x, y);
    }
  } else {
    int64_t i = 0, j = 0; /* x and y steps done */
    while (i < dx || j < dy) {
      int mx = 0, my = 0;
      if (j >= dy || (i < dx && (1 + 2 * i) * (int64_t)dy < (1 + 2 * j) * (int64_t)dx)) {
        mx = sx;
        i++;
      } else {
        my = sy;
        j++;
      }
      if (!lds_grid_can_move(g, x, y, dir_of(mx, my))) return false;
      x += mx;
      y += my;
      if (cost) c += (double)lds_grid_cost(g, x, y);
    }
  }
  if (cost) *cost = c;
  return true;
}

bool lds_grid_line_of_sight(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  return g && walk(g, x0, y0, x1, y1, NULL);
}

lds_Status lds_grid_line_cost(const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                              double *cost) {
  double c = 0.0;
  if (!g || !walk(g, x0, y0, x1, y1, &c)) return LDS_E_ARG;
  if (cost) *cost = c;
  return LDS_OK;
}

/* Checks that p is a grid path of g's width inside g. */
static bool check_path(const lds_Grid *g, const lds_Path *p, const char *fn, lds_Error *err) {
  size_t i, n = lds_path_length(p);
  if (lds_path_width(p) != g->w) {
    ldsi_error(err, LDS_E_ARG, "%s: path width %ld does not match the grid (width %ld)", fn,
               (long)lds_path_width(p), (long)g->w);
    return false;
  }
  for (i = 0; i < n; i++)
    if (lds_path_node(p, i) >= (uint32_t)g->w * (uint32_t)g->h) {
      ldsi_error(err, LDS_E_ARG, "%s: cell %zu of the path is outside the %ldx%ld grid", fn,
                 i + 1, (long)g->w, (long)g->h);
      return false;
    }
  return true;
}

lds_Status lds_grid_path_cost(const lds_Grid *g, const lds_Path *p, double *cost,
                              lds_Error *err) {
  size_t i, n;
  double total = 0.0;
  if (!g || !p) return ldsi_error(err, LDS_E_ARG, "lds_grid_path_cost: NULL grid or path");
  if (!check_path(g, p, "lds_grid_path_cost", err)) return LDS_E_ARG;
  n = lds_path_length(p);
  for (i = 1; i < n; i++) {
    int32_t x0, y0, x1, y1;
    double c;
    lds_path_cell(p, i - 1, &x0, &y0);
    lds_path_cell(p, i, &x1, &y1);
    if (!walk(g, x0, y0, x1, y1, &c))
      return ldsi_error(err, LDS_E_ARG,
                        "lds_grid_path_cost: step %zu (%ld,%ld)->(%ld,%ld) has no line of sight",
                        i, (long)x0, (long)y0, (long)x1, (long)y1);
    total += c;
  }
  if (cost) *cost = total;
  ldsi_error_clear(err);
  return LDS_OK;
}

lds_Path *lds_path_prune_los(const lds_Path *p, const lds_Grid *g, lds_Error *err) {
  size_t n, i, k = 0, anchor = 0;
  uint32_t *keep;
  lds_Path *out;
  lds_Env env;
  double cost;
  if (!g || !p) {
    ldsi_error(err, LDS_E_ARG, "lds_path_prune_los: NULL grid or path");
    return NULL;
  }
  if (lds_grid_path_cost(g, p, &cost, err) != LDS_OK) return NULL; /* p itself is not legal */
  n = lds_path_length(p);
  keep = (uint32_t *)ldsi_alloc(&g->env, (n ? n : 1) * sizeof(uint32_t));
  if (!keep) {
    ldsi_error(err, LDS_E_NOMEM, "lds_path_prune_los: out of memory for %zu cells", n);
    return NULL;
  }
  if (n > 0) keep[k++] = lds_path_node(p, 0);
  for (i = 2; i < n; i++) {
    int32_t ax, ay, bx, by;
    lds_path_cell(p, anchor, &ax, &ay);
    lds_path_cell(p, i, &bx, &by);
    if (!walk(g, ax, ay, bx, by, NULL)) {
      anchor = i - 1; /* i-1 is seen from the old anchor: keep it */
      keep[k++] = lds_path_node(p, anchor);
    }
  }
  if (n > 1) keep[k++] = lds_path_node(p, n - 1);
  cost = 0.0;
  for (i = 1; i < k; i++) { /* every segment was seen: walk cannot fail */
    double c = 0.0;
    int32_t w = g->w;
    walk(g, (int32_t)(keep[i - 1] % (uint32_t)w), (int32_t)(keep[i - 1] / (uint32_t)w),
         (int32_t)(keep[i] % (uint32_t)w), (int32_t)(keep[i] / (uint32_t)w), &c);
    cost += c;
  }
  env = ldsi_env_public(&g->env);
  out = lds_path_new(&env, keep, k, g->w, cost, lds_path_flags(p), err);
  ldsi_free(&g->env, keep, (n ? n : 1) * sizeof(uint32_t));
  return out;
}
