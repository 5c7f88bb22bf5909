/* SPDX-License-Identifier: MIT */
/*
** lds_los.c — line of sight on grids and line-of-sight path pruning.
** The exact walk and why pruning is safe are in lds_postprocess.h.
*/
#include "lds_grid_internal.h"
#include "lds_los_internal.h"
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
      /* lds_grid_can_move, inlined: (x,y) stays inside the box of two in-bounds ends */
      if (!((g->nbr[ldsi_grid_pidx(g, x, y)] >> dir_of(mx, my)) & 1u)) return false;
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
      /* lds_grid_can_move, inlined: (x,y) stays inside the box of two in-bounds ends */
      if (!((g->nbr[ldsi_grid_pidx(g, x, y)] >> dir_of(mx, my)) & 1u)) return false;
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

/* --------------------------------------------------- exact segment costs -- */

/* The costs a path is measured with: g's base costs plus layer weights
** (lds_SearchParams' rule: base + sum of weight x layer value, 0 weights
** skipped, so an infinite layer value with weight 0 is ignored). */
typedef struct CostCtx {
  const lds_Grid *g;
  const double *w;
  int nw;
  bool bad;             /* a crossed cell has a cost <= 0 or NaN */
  int32_t bad_x, bad_y; /* that cell */
  double bad_c;         /* its cost */
} CostCtx;

/* Effective cost of entering (x,y): INFINITY outside the grid, on a blocked
** cell or on a cell a layer blocks; NaN (ctx->bad set) for <= 0 or NaN. */
static double eff_cost(CostCtx *k, int32_t x, int32_t y) {
  const lds_Grid *g = k->g;
  size_t p, u;
  double c;
  int i;
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) return INFINITY;
  p = ldsi_grid_pidx(g, x, y);
  if (g->blocked[p]) return INFINITY;
  u = (size_t)y * (size_t)g->w + (size_t)x;
  c = (double)g->cost[p];
  for (i = 0; i < k->nw; i++)
    if (k->w[i] != 0.0) c += k->w[i] * (double)g->layers[i].data[u];
  if (c == INFINITY) return c;
  if (!(c > 0.0)) {
    if (!k->bad) {
      k->bad = true;
      k->bad_x = x;
      k->bad_y = y;
      k->bad_c = c;
    }
    return NAN;
  }
  return c;
}

/* Pieces shorter than this are not charged [Units: cells]: the rounding of
** points computed on a line through a cell corner (smoothed or resampled
** points) would otherwise give the two side cells lengths of ~1e-16, and
** infinite costs where one is blocked. */
#define PIECE_EPS 1e-9

/* One piece of a segment's traversal: cell (x,y), its cost, length inside. */
typedef struct Piece {
  int32_t x, y;
  double c, len;
} Piece;

/* Traverses the segment (x0,y0)->(x1,y1) (cell coordinates: the centre of
** cell (i,j) is (i,j), its square [i-0.5,i+0.5) x [j-0.5,j+0.5)) cell by
** cell in order (Amanatides & Woo, "A fast voxel traversal algorithm",
** Eurographics 1987), calling fn for every cell it crosses with positive
** length. A crossing through a cell corner steps both axes at once: the two
** side cells meet the segment in one point and get no length (whether the
** corner may be passed is the line-of-sight rule's business). A segment that
** runs along the edge between two cells (dx = 0 on a vertical edge, dy = 0
** on a horizontal one) is charged the dearer of the two. fn returns false to
** stop; returns false when it did. Pieces shorter than PIECE_EPS are skipped. */
typedef bool (*PieceFn)(void *ud, const Piece *pc);
static bool traverse(CostCtx *k, double x0, double y0, double x1, double y1, PieceFn fn,
                     void *ud) {
  double u0 = x0 + 0.5, v0 = y0 + 0.5, du = x1 - x0, dv = y1 - y0;
  double len = sqrt(du * du + dv * dv), t = 0.0;
  int sx = du > 0 ? 1 : -1, sy = dv > 0 ? 1 : -1;
  int32_t ix, iy;
  bool edge_x = du == 0.0 && u0 == floor(u0), edge_y = dv == 0.0 && v0 == floor(v0);
  if (len == 0.0) return true;
  /* the first cell is the one the segment enters from its start point */
  ix = (int32_t)(du >= 0 ? floor(u0) : ceil(u0) - 1.0);
  iy = (int32_t)(dv >= 0 ? floor(v0) : ceil(v0) - 1.0);
  for (;;) {
    double tx = du != 0.0 ? ((double)(du > 0 ? ix + 1 : ix) - u0) / du : INFINITY;
    double ty = dv != 0.0 ? ((double)(dv > 0 ? iy + 1 : iy) - v0) / dv : INFINITY;
    double tn = tx < ty ? tx : ty;
    Piece pc;
    if (tn > 1.0) tn = 1.0;
    pc.x = ix;
    pc.y = iy;
    pc.c = eff_cost(k, ix, iy);
    if (edge_x) { /* along the vertical edge between columns ix-1 and ix */
      double o = eff_cost(k, ix - 1, iy);
      if (o > pc.c || isnan(o)) pc.c = o;
    } else if (edge_y) {
      double o = eff_cost(k, ix, iy - 1);
      if (o > pc.c || isnan(o)) pc.c = o;
    }
    pc.len = (tn - t) * len;
    if (pc.len > PIECE_EPS && !fn(ud, &pc)) return false;
    if (tn >= 1.0) return true;
    if (tx <= ty) ix += sx;
    if (ty <= tx) iy += sy;
    t = tn;
  }
}

/* Segment between two cell centres, with the move rule: the part inside
** the start cell is charged at the end cell's cost, so one move costs its
** length x the cost of the cell entered, as in a search. Stops (cost INFINITY)
** once the sum exceeds limit. */
typedef struct SegAcc {
  double total, limit, c_end;
  bool first;
} SegAcc;

static bool seg_piece(void *ud, const Piece *pc) {
  SegAcc *a = (SegAcc *)ud;
  double c = a->first ? a->c_end : pc->c;
  a->first = false;
  if (isnan(pc->c) || isnan(c)) {
    a->total = NAN;
    return false;
  }
  a->total += pc->len * c;
  if (!(a->total <= a->limit)) {
    if (!isnan(a->total)) a->total = INFINITY;
    return false;
  }
  return true;
}

/* Cost of the straight segment from the centre of (x0,y0) to that of
** (x1,y1): INFINITY when it crosses a blocked or layer-blocked cell (or
** costs more than limit), NaN when a crossed cell's cost is invalid (ctx->bad). */
static double segment_cost(CostCtx *k, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                           double limit) {
  SegAcc a;
  a.total = 0.0;
  a.limit = limit;
  a.first = true;
  a.c_end = eff_cost(k, x1, y1);
  if (x0 == x1 && y0 == y1) return 0.0;
  traverse(k, (double)x0, (double)y0, (double)x1, (double)y1, seg_piece, &a);
  return a.total;
}

double ldsi_los_step_cost(const lds_Grid *g, const double *w, int nw, int32_t x0, int32_t y0,
                          int32_t x1, int32_t y1, double limit) {
  CostCtx k;
  double c;
  k.g = g;
  k.w = w;
  k.nw = nw;
  k.bad = false;
  if (!walk(g, x0, y0, x1, y1, NULL)) return INFINITY;
  c = segment_cost(&k, x0, y0, x1, y1, limit);
  return k.bad ? NAN : c;
}

/* Checks the weights (count and values) and fills ctx. */
static bool cost_ctx(CostCtx *k, const lds_Grid *g, const double *w, int nw, const char *fn,
                     lds_Error *err) {
  int i;
  k->g = g;
  k->w = w;
  k->nw = nw;
  k->bad = false;
  if (nw < 0 || nw > g->nlayers || (nw > 0 && !w)) {
    ldsi_error(err, LDS_E_ARG, "%s: %d layer weights for a grid with %d layers (expected 0..%d)",
               fn, nw, g->nlayers, g->nlayers);
    return false;
  }
  for (i = 0; i < nw; i++)
    if (isnan(w[i]) || isinf(w[i])) {
      ldsi_error(err, LDS_E_ARG, "%s: weight of layer '%s' is %g (expected finite)", fn,
                 g->layers[i].name, ldsi_num(w[i]));
      return false;
    }
  return true;
}

static lds_Status bad_cell(const CostCtx *k, const char *fn, lds_Error *err) {
  return ldsi_error(err, LDS_E_ARG,
                    "%s: cell (%ld,%ld) has cost %g under the layer weights (expected finite, > 0)",
                    fn, (long)k->bad_x, (long)k->bad_y, ldsi_num(k->bad_c));
}

/* Polyline cost (lds_postprocess.h, "Cost of a path"): the length through
** each cell times its cost, except that at each vertex on a cell centre the
** stretch until the polyline first leaves that cell is charged at the cost
** of the next such vertex (the last one's own cost when none follows). The
** stretch is summed apart and charged when that vertex is reached, so an
** unusable start cell (blocked by a layer) costs nothing, as in a search. */
typedef struct PolyAcc {
  double total;
  bool in_stretch;       /* still inside the cell of the last centre vertex */
  int32_t vx, vy;        /* that cell */
  double ell, vcost;     /* length of its stretch, the cell's own cost */
} PolyAcc;

static bool poly_piece(void *ud, const Piece *pc) {
  PolyAcc *a = (PolyAcc *)ud;
  if (a->in_stretch && pc->x == a->vx && pc->y == a->vy) {
    a->ell += pc->len; /* charged at the next centre vertex */
    return true;
  }
  a->in_stretch = false;
  if (isnan(pc->c)) {
    a->total = NAN;
    return false;
  }
  a->total += pc->len * pc->c;
  return a->total != INFINITY;
}

lds_Status lds_grid_polyline_cost(const lds_Grid *g, const double *xy, size_t n,
                                  const double *layer_weights, int n_layer_weights,
                                  double *cost, lds_Error *err) {
  static const char fn[] = "lds_grid_polyline_cost";
  CostCtx k;
  PolyAcc a;
  size_t i;
  if (!g || (!xy && n > 0)) return ldsi_error(err, LDS_E_ARG, "%s: NULL grid or points", fn);
  if (!cost_ctx(&k, g, layer_weights, n_layer_weights, fn, err)) return LDS_E_ARG;
  for (i = 0; i < 2 * n; i++)
    if (isnan(xy[i]) || isinf(xy[i]))
      return ldsi_error(err, LDS_E_ARG, "%s: point %zu has %s %g (expected finite)", fn,
                        i / 2 + 1, i % 2 ? "y" : "x", ldsi_num(xy[i]));
  for (i = 0; i < n; i++) { /* off the grid's square by more than PIECE_EPS: +inf at once */
    double x = xy[2 * i], y = xy[2 * i + 1], m = 0.5 + PIECE_EPS;
    if (x < -m || y < -m || x > (double)g->w - 1.0 + m || y > (double)g->h - 1.0 + m) {
      if (cost) *cost = INFINITY;
      ldsi_error_clear(err);
      return LDS_OK;
    }
  }
  a.total = 0.0;
  a.in_stretch = false;
  a.ell = a.vcost = 0.0;
  a.vx = a.vy = 0;
  for (i = 0; i < n && a.total == a.total && a.total != INFINITY; i++) {
    double x = xy[2 * i], y = xy[2 * i + 1];
    if (x == floor(x) && y == floor(y) && x >= 0 && y >= 0 && x < g->w && y < g->h) {
      double c = eff_cost(&k, (int32_t)x, (int32_t)y);
      if (a.ell > 0.0) a.total += a.ell * c;
      a.vx = (int32_t)x;
      a.vy = (int32_t)y;
      a.vcost = c;
      a.ell = 0.0;
      a.in_stretch = true;
    }
    if (i + 1 < n) traverse(&k, x, y, xy[2 * i + 2], xy[2 * i + 3], poly_piece, &a);
  }
  if (a.ell > 0.0 && a.total == a.total && a.total != INFINITY) a.total += a.ell * a.vcost;
  if (k.bad) return bad_cell(&k, fn, err);
  if (isnan(a.total)) a.total = INFINITY;
  if (cost) *cost = a.total;
  ldsi_error_clear(err);
  return LDS_OK;
}

/* --------------------------------------------------------------- paths -- */

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

/* Cost of step i of p (cells i-1 -> i) into *c: it must have line of sight
** and a finite cost. */
static lds_Status step_cost(CostCtx *k, const lds_Path *p, size_t i, double *c, const char *fn,
                            lds_Error *err) {
  int32_t x0, y0, x1, y1;
  lds_path_cell(p, i - 1, &x0, &y0);
  lds_path_cell(p, i, &x1, &y1);
  if (!walk(k->g, x0, y0, x1, y1, NULL))
    return ldsi_error(err, LDS_E_ARG, "%s: step %zu (%ld,%ld)->(%ld,%ld) has no line of sight",
                      fn, i, (long)x0, (long)y0, (long)x1, (long)y1);
  *c = segment_cost(k, x0, y0, x1, y1, INFINITY);
  if (k->bad) return bad_cell(k, fn, err);
  if (*c == INFINITY)
    return ldsi_error(err, LDS_E_ARG,
                      "%s: step %zu (%ld,%ld)->(%ld,%ld) crosses a blocked cell%s", fn, i,
                      (long)x0, (long)y0, (long)x1, (long)y1,
                      k->nw ? " (or one a weighted layer blocks)" : "");
  return LDS_OK;
}

lds_Status lds_grid_path_cost_weighted(const lds_Grid *g, const lds_Path *p,
                                       const double *layer_weights, int n_layer_weights,
                                       double *cost, lds_Error *err) {
  static const char fn[] = "lds_grid_path_cost";
  CostCtx k;
  size_t i, n;
  double total = 0.0;
  if (!g || !p) return ldsi_error(err, LDS_E_ARG, "%s: NULL grid or path", fn);
  if (!check_path(g, p, fn, err)) return LDS_E_ARG;
  if (!cost_ctx(&k, g, layer_weights, n_layer_weights, fn, err)) return LDS_E_ARG;
  n = lds_path_length(p);
  for (i = 1; i < n; i++) { /* summed in path order, as a search sums g */
    double c = 0.0; /* set by step_cost on LDS_OK */
    if (step_cost(&k, p, i, &c, fn, err) != LDS_OK) return err ? err->code : LDS_E_ARG;
    total += c;
  }
  if (cost) *cost = total;
  ldsi_error_clear(err);
  return LDS_OK;
}

lds_Status lds_grid_path_cost(const lds_Grid *g, const lds_Path *p, double *cost,
                              lds_Error *err) {
  return lds_grid_path_cost_weighted(g, p, NULL, 0, cost, err);
}

/* Line-of-sight pruning with costs. From the last kept cell a, every later
** cell j is tried from the far end backwards; the first (farthest) j that a
** sees and whose straight segment costs no more than the sub-path a..j it
** replaces (and keeps the running total within the original's prefix cost,
** so rounding cannot make the sum exceed the original) is kept next; when
** none qualifies, a+1 is (its step is the sub-path itself). */
lds_Path *lds_path_prune_los_weighted(const lds_Path *p, const lds_Grid *g,
                                      const double *layer_weights, int n_layer_weights,
                                      size_t *kept_index, lds_Error *err) {
  static const char fn[] = "lds_path_prune_los";
  size_t n, i, k = 0, a, m, bytes;
  uint32_t *keep;
  double *step, *pre, *sub, q = 0.0;
  lds_Path *out;
  lds_Env env;
  CostCtx ctx;
  int32_t w;
  if (!g || !p) {
    ldsi_error(err, LDS_E_ARG, "%s: NULL grid or path", fn);
    return NULL;
  }
  /* p's own checks are lds_grid_path_cost's, and say so */
  if (!check_path(g, p, "lds_grid_path_cost", err)) return NULL;
  if (!cost_ctx(&ctx, g, layer_weights, n_layer_weights, fn, err)) return NULL;
  n = lds_path_length(p);
  w = g->w;
  m = n ? n : 1;
  bytes = m * (3 * sizeof(double) + sizeof(uint32_t));
  step = (double *)ldsi_alloc(&g->env, bytes); /* step, pre, sub doubles, then the kept ids */
  if (!step) {
    ldsi_error(err, LDS_E_NOMEM, "%s: out of memory for %zu cells", fn, n);
    return NULL;
  }
  pre = step + m;
  sub = pre + m;
  keep = (uint32_t *)(void *)(sub + m);
  for (i = 1; i < n; i++)
    if (step_cost(&ctx, p, i, &step[i], "lds_grid_path_cost", err) != LDS_OK) { /* p is not legal */
      ldsi_free(&g->env, step, bytes);
      return NULL;
    }
  if (n > 0) pre[0] = 0.0;
  for (i = 1; i < n; i++) pre[i] = pre[i - 1] + step[i];
  if (n > 0 && kept_index) kept_index[0] = 0;
  if (n > 0) keep[k++] = lds_path_node(p, 0);
  a = 0;
  while (n > 0 && a + 1 < n) {
    size_t j, best = a + 1;
    double bestc = step[a + 1];
    int32_t ax = (int32_t)(lds_path_node(p, a) % (uint32_t)w);
    int32_t ay = (int32_t)(lds_path_node(p, a) / (uint32_t)w);
    /* sub-path costs from a, summed in path order: sub[j] for j > a */
    sub[a] = 0.0;
    for (j = a + 1; j < n; j++) sub[j] = sub[j - 1] + step[j];
    for (j = n - 1; j > a + 1; j--) {
      int32_t bx = (int32_t)(lds_path_node(p, j) % (uint32_t)w);
      int32_t by = (int32_t)(lds_path_node(p, j) / (uint32_t)w);
      double c, limit = sub[j];
      if (!walk(g, ax, ay, bx, by, NULL)) continue;
      c = segment_cost(&ctx, ax, ay, bx, by, limit);
      if (ctx.bad) break;
      if (c <= limit && q + c <= pre[j]) {
        best = j;
        bestc = c;
        break;
      }
    }
    if (ctx.bad) {
      bad_cell(&ctx, fn, err);
      ldsi_free(&g->env, step, bytes);
      return NULL;
    }
    if (kept_index) kept_index[k] = best;
    keep[k++] = lds_path_node(p, best);
    q += bestc;
    a = best;
  }
  env = ldsi_env_public(&g->env);
  out = lds_path_new(&env, keep, k, g->w, q, lds_path_flags(p), err);
  ldsi_free(&g->env, step, bytes);
  return out;
}

lds_Path *lds_path_prune_los(const lds_Path *p, const lds_Grid *g, lds_Error *err) {
  return lds_path_prune_los_weighted(p, g, NULL, 0, NULL, err);
}
