/* SPDX-License-Identifier: MIT */
/*
** lds_grid_funnel.c — the funnel over a grid path's cell corridor
** (lds_grid_funnel.h): portals between consecutive cells, then the simple
** stupid funnel (Mononen 2010), exact on the half-integer points.
*/
#include "lds_grid_funnel.h"
#include "lds_grid_internal.h"

#include <math.h>
#include <stdlib.h>

/* A point of the funnel [Units: cells] */
typedef struct Pt {
  double x, y;
} Pt;

/* Portal i of the corridor c (m cells, x y pairs; 0 <= i <= m): 0 is the
** start centre, m the goal centre, 0 < i < m the shared edge or corner of
** cells i-1 and i, as its left and right ends walking from cell i-1 to cell
** i in the frame of tri2 (x right, y up: the left of a move to +x is +y). */
static void portal(const int32_t *c, size_t m, size_t i, Pt *l, Pt *r) {
  int32_t x0, y0, x1, y1;
  if (i == 0 || i == m) {
    size_t k = i == 0 ? 0 : m - 1;
    l->x = r->x = (double)c[2 * k];
    l->y = r->y = (double)c[2 * k + 1];
    return;
  }
  x0 = c[2 * i - 2];
  y0 = c[2 * i - 1];
  x1 = c[2 * i];
  y1 = c[2 * i + 1];
  {
    int32_t dx = x1 - x0, dy = y1 - y0;
    double mx = (double)x0 + 0.5 * dx, my = (double)y0 + 0.5 * dy;
    if (dx && dy) { /* diagonal: the shared corner */
      l->x = r->x = mx;
      l->y = r->y = my;
      return;
    }
    /* straight: the shared edge, m -+ (dy, -dx)/2 */
    r->x = mx + 0.5 * dy;
    r->y = my - 0.5 * dx;
    l->x = mx - 0.5 * dy;
    l->y = my + 0.5 * dx;
  }
}

/* The corridor of p into c (x y pairs; room for 2n cells), its cell count
** returned: p's cells, and at each diagonal move a -> b whose side cells
** are free, one of them between a and b (see lds_grid_funnel.h): the only
** free one, or, both free, the one whose centre is nearer the chord from
** the cell LDSI_FUNNEL_WINDOW moves before a to the one as many after b
** (clamped to the path's ends; a tie takes (b.x, a.y)). */
#define LDSI_FUNNEL_WINDOW 8
static size_t corridor(const lds_Grid *g, const lds_Path *p, int32_t *c) {
  size_t n = lds_path_length(p), i, m = 0;
  for (i = 0; i < n; i++) {
    int32_t x, y;
    lds_path_cell(p, i, &x, &y);
    if (i > 0) {
      int32_t px = c[2 * m - 2], py = c[2 * m - 1];
      if (px != x && py != y) { /* diagonal */
        bool f1 = !lds_grid_blocked(g, x, py), f2 = !lds_grid_blocked(g, px, y);
        int side = f1 && f2 ? 0 : f1 ? 1 : f2 ? 2 : -1;
        if (side == 0) {
          size_t ia = i - 1 >= LDSI_FUNNEL_WINDOW ? i - 1 - LDSI_FUNNEL_WINDOW : 0;
          size_t ib = i + LDSI_FUNNEL_WINDOW < n ? i + LDSI_FUNNEL_WINDOW : n - 1;
          int32_t ax, ay, bx, by;
          double ux, uy, d1, d2;
          lds_path_cell(p, ia, &ax, &ay);
          lds_path_cell(p, ib, &bx, &by);
          ux = (double)(bx - ax);
          uy = (double)(by - ay);
          d1 = fabs(ux * (double)(py - ay) - uy * (double)(x - ax));
          d2 = fabs(ux * (double)(y - ay) - uy * (double)(px - ax));
          side = d2 < d1 ? 2 : 1;
        }
        if (side > 0) {
          c[2 * m] = side == 1 ? x : px;
          c[2 * m + 1] = side == 1 ? py : y;
          m++;
        }
      }
    }
    c[2 * m] = x;
    c[2 * m + 1] = y;
    m++;
  }
  return m;
}

/* Twice the signed area of (a, b, c), Mononen's sign: > 0 when c lies to
** the left of a->b in the frame above. Exact for multiples of 0.5 below
** 2^24. */
static double tri2(Pt a, Pt b, Pt c) {
  return (c.x - a.x) * (b.y - a.y) - (b.x - a.x) * (c.y - a.y);
}

static bool same(Pt a, Pt b) { return a.x == b.x && a.y == b.y; }

/* Appends q to out (dropping a repeat, and the middle of three collinear
** points going on in the same direction). */
static void emit(double *xy, size_t *k, Pt q) {
  size_t n = *k;
  if (n && xy[2 * n - 2] == q.x && xy[2 * n - 1] == q.y) return;
  if (n >= 2) {
    Pt a = {xy[2 * n - 4], xy[2 * n - 3]}, b = {xy[2 * n - 2], xy[2 * n - 1]};
    if (tri2(a, b, q) == 0.0 && (b.x - a.x) * (q.x - b.x) + (b.y - a.y) * (q.y - b.y) > 0.0)
      n--; /* b lies on the segment a-q */
  }
  xy[2 * n] = q.x;
  xy[2 * n + 1] = q.y;
  *k = n + 1;
}

static const char fn[] = "lds_grid_funnel";

/* Checks p against g (see lds_grid_funnel); LDS_OK or LDS_E_ARG. */
static lds_Status check(const lds_Grid *g, const lds_Path *p, lds_Error *err) {
  size_t i, n;
  if (!g || !p) return ldsi_error(err, LDS_E_ARG, "%s: NULL grid or path", fn);
  n = lds_path_length(p);
  if (lds_path_width(p) != g->w)
    return ldsi_error(err, LDS_E_ARG, "%s: path width %ld does not match the grid (width %ld)",
                      fn, (long)lds_path_width(p), (long)g->w);
  if (n == 0) return ldsi_error(err, LDS_E_ARG, "%s: the path has no cell", fn);
  for (i = 0; i < n; i++) {
    int32_t x, y, px, py;
    if (lds_path_node(p, i) >= (uint32_t)g->w * (uint32_t)g->h)
      return ldsi_error(err, LDS_E_ARG, "%s: cell %zu of the path is outside the %ldx%ld grid",
                        fn, i + 1, (long)g->w, (long)g->h);
    lds_path_cell(p, i, &x, &y);
    if (lds_grid_blocked(g, x, y))
      return ldsi_error(err, LDS_E_ARG, "%s: cell %zu (%ld,%ld) of the path is blocked", fn,
                        i + 1, (long)x, (long)y);
    if (i == 0) continue;
    lds_path_cell(p, i - 1, &px, &py);
    if (abs(x - px) > 1 || abs(y - py) > 1 || (x == px && y == py))
      return ldsi_error(err, LDS_E_ARG,
                        "%s: step %zu (%ld,%ld)->(%ld,%ld) is not a move to a neighbouring cell "
                        "(expected a search's full cell path, not waypoints)",
                        fn, i, (long)px, (long)py, (long)x, (long)y);
  }
  return LDS_OK;
}

lds_Status lds_grid_funnel(const lds_Grid *g, const lds_Path *p, double *xy, size_t cap,
                           size_t *n_out, double *length, lds_Error *err) {
  size_t n, m, i, k = 0, apex_i = 0, left_i = 0, right_i = 0;
  Pt apex, left, right;
  int32_t *c;
  lds_Status st = check(g, p, err);
  if (st != LDS_OK) return st;
  n = lds_path_length(p);
  if (!xy || cap < 2 * n)
    return ldsi_error(err, LDS_E_ARG, "%s: room for %zu points (expected at least %zu)", fn,
                      xy ? cap : 0, 2 * n);
  c = (int32_t *)ldsi_alloc(&g->env, 4 * n * sizeof(int32_t));
  if (!c) return ldsi_error(err, LDS_E_NOMEM, "%s: out of memory for %zu cells", fn, 2 * n);
  m = corridor(g, p, c);
  portal(c, m, 0, &apex, &right);
  left = right = apex;
  emit(xy, &k, apex);
  /* apex_i only grows and each point is emitted at a new apex, so at most
  ** m + 1 <= 2n points */
  for (i = 1; i <= m; i++) {
    Pt l, r;
    portal(c, m, i, &l, &r);
    /* the right side */
    if (tri2(apex, right, r) <= 0.0) {
      if (same(apex, right) || tri2(apex, left, r) > 0.0) {
        right = r;
        right_i = i;
      } else { /* right crosses left: left is a corner of the path */
        apex = left;
        apex_i = left_i;
        emit(xy, &k, apex);
        left = right = apex;
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
    /* the left side */
    if (tri2(apex, left, l) >= 0.0) {
      if (same(apex, left) || tri2(apex, right, l) < 0.0) {
        left = l;
        left_i = i;
      } else {
        apex = right;
        apex_i = right_i;
        emit(xy, &k, apex);
        left = right = apex;
        left_i = right_i = apex_i;
        i = apex_i;
        continue;
      }
    }
  }
  {
    Pt goal;
    portal(c, m, m, &goal, &goal);
    emit(xy, &k, goal);
  }
  ldsi_free(&g->env, c, 4 * n * sizeof(int32_t));
  if (length) {
    double len = 0.0;
    for (i = 1; i < k; i++) len += hypot(xy[2 * i] - xy[2 * i - 2], xy[2 * i + 1] - xy[2 * i - 1]);
    *length = len;
  }
  if (n_out) *n_out = k;
  ldsi_error_clear(err);
  return LDS_OK;
}
