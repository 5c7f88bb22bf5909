/* SPDX-License-Identifier: MIT */
/*
** lds_debug_draw.c — a search's state per cell (lds_search_cell) and the
** debug-draw calls that hand a grid, a search and a path to the host's
** renderer as cells, lines and points (lds_debug_draw.h).
*/
#include "lds_debug_draw.h"

#include "lds_grid_internal.h"
#include "lds_jps.h"
#include "lds_search_internal.h"

#include <math.h>
#include <stdio.h>

/* The node record of padded id `id` in s's last query: g, parent id and
** state. The exact A* loop keeps its records in s->hot (g from the move
** counts, the parent from the direction bits), every other loop in
** s->nodes. */
static lds_CellState node_state(const lds_Search *s, uint32_t id, double *g, uint32_t *parent) {
  *parent = LDSI_NONE;
  *g = INFINITY;
  if (s->hot_query) {
    const ldsi_Hot *h = &s->hot[id];
    uint64_t dir;
    if (h->gen != s->gen) return LDS_CELL_FRESH;
    *g = ldsi_hot_g(h->nsd);
    dir = h->nsd >> 60;
    if (dir < 8) {
      int32_t pw = s->grid->pw;
      *parent = (uint32_t)((int64_t)id - ldsi_dir_dx[dir] - (int64_t)ldsi_dir_dy[dir] * pw);
    }
    return h->heap == LDSI_CLOSED ? LDS_CELL_CLOSED : LDS_CELL_OPEN;
  }
  if (!s->nodes || s->nodes[id].gen != s->gen) return LDS_CELL_FRESH;
  *g = s->nodes[id].g;
  *parent = s->nodes[id].parent;
  return s->nodes[id].heap == LDSI_CLOSED ? LDS_CELL_CLOSED : LDS_CELL_OPEN;
}

lds_Status lds_search_cell(const lds_Search *s, int32_t x, int32_t y, lds_CellInfo *out) {
  double g;
  uint32_t parent, id;
  if (!s || !out || s->space != LDSI_SPACE_GRID || !s->grid) return LDS_E_ARG;
  if (!lds_grid_in_bounds(s->grid, x, y)) return LDS_E_ARG;
  if (!s->ops) return LDS_E_STATE;
  id = (uint32_t)ldsi_grid_pidx(s->grid, x, y);
  out->state = node_state(s, id, &g, &parent);
  out->g = g;
  out->parent_x = out->parent_y = -1;
  if (out->state != LDS_CELL_FRESH && parent != LDSI_NONE) {
    out->parent_x = (int32_t)(parent % (uint32_t)s->grid->pw) - 1;
    out->parent_y = (int32_t)(parent / (uint32_t)s->grid->pw) - 1;
  }
  return LDS_OK;
}

/* ------------------------------------------------------------ colours -- */

/* a + (b - a) * t per channel, t in [0, 1] */
static uint32_t ramp(uint32_t a, uint32_t b, double t) {
  uint32_t out = 0;
  int k;
  if (!(t > 0.0)) t = 0.0; /* NaN too */
  if (t > 1.0) t = 1.0;
  for (k = 0; k < 32; k += 8) {
    double ca = (double)((a >> k) & 0xFF), cb = (double)((b >> k) & 0xFF);
    out |= (uint32_t)lround(ca + (cb - ca) * t) << k;
  }
  return out;
}

static bool dd_ok(const lds_DebugDraw *dd) {
  return dd && dd->begin && dd->vertex && dd->end;
}

/* --------------------------------------------------------------- grid -- */

void lds_debug_grid_opts_init(lds_DebugGridOpts *o) {
  if (!o) return;
  o->blocked = LDS_RGBA(40, 40, 48, 255);
  o->free_lo = LDS_RGBA(236, 236, 230, 255);
  o->free_hi = LDS_RGBA(150, 105, 60, 255);
  o->layer = -1;
}

lds_Status lds_debug_draw_grid(const lds_DebugDraw *dd, const lds_Grid *g,
                               const lds_DebugGridOpts *o) {
  lds_DebugGridOpts d;
  float lo = INFINITY, hi = -INFINITY;
  const float *layer = NULL;
  int32_t x, y;
  if (!dd_ok(dd) || !g) return LDS_E_ARG;
  if (!o) {
    lds_debug_grid_opts_init(&d);
    o = &d;
  }
  if (o->layer >= 0) {
    if (o->layer >= lds_grid_layer_count(g)) return LDS_E_ARG;
    layer = lds_grid_layer_cdata(g, o->layer);
  }
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      float v;
      if (g->blocked[ldsi_grid_pidx(g, x, y)]) continue;
      v = layer ? layer[(size_t)y * (size_t)g->w + (size_t)x] : g->cost[ldsi_grid_pidx(g, x, y)];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  dd->begin(dd->ud, LDS_DRAW_CELLS, 1.0f);
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t p = ldsi_grid_pidx(g, x, y);
      uint32_t c;
      if (g->blocked[p]) {
        c = o->blocked;
      } else {
        float v = layer ? layer[(size_t)y * (size_t)g->w + (size_t)x] : g->cost[p];
        c = ramp(o->free_lo, o->free_hi, hi > lo ? ((double)v - lo) / ((double)hi - lo) : 0.0);
      }
      dd->vertex(dd->ud, (float)x, (float)y, c);
    }
  dd->end(dd->ud);
  return LDS_OK;
}

/* ------------------------------------------------------------- search -- */

void lds_debug_search_opts_init(lds_DebugSearchOpts *o) {
  if (!o) return;
  o->closed_lo = LDS_RGBA(170, 205, 250, 255);
  o->closed_hi = LDS_RGBA(30, 70, 170, 255);
  o->open = LDS_RGBA(80, 200, 90, 255);
  o->start = LDS_RGBA(250, 210, 30, 255);
  o->goal = LDS_RGBA(230, 30, 30, 255);
  o->jump = LDS_RGBA(210, 40, 210, 255);
  o->labels = false;
}

lds_Status lds_debug_draw_search(const lds_DebugDraw *dd, const lds_Search *s,
                                 const lds_DebugSearchOpts *o) {
  lds_DebugSearchOpts d;
  const lds_Grid *g;
  double gmax = 0.0;
  int32_t x, y;
  if (!dd_ok(dd) || !s || s->space != LDSI_SPACE_GRID || !s->grid) return LDS_E_ARG;
  if (!s->ops) return LDS_E_STATE;
  if (!o) {
    lds_debug_search_opts_init(&d);
    o = &d;
  }
  g = s->grid;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      double gv;
      uint32_t par;
      if (node_state(s, (uint32_t)ldsi_grid_pidx(g, x, y), &gv, &par) == LDS_CELL_CLOSED &&
          gv > gmax && isfinite(gv))
        gmax = gv;
    }
  dd->begin(dd->ud, LDS_DRAW_CELLS, 1.0f);
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      double gv;
      uint32_t par;
      lds_CellState st = node_state(s, (uint32_t)ldsi_grid_pidx(g, x, y), &gv, &par);
      if (st == LDS_CELL_CLOSED)
        dd->vertex(dd->ud, (float)x, (float)y, ramp(o->closed_lo, o->closed_hi, gmax > 0 ? gv / gmax : 0));
      else if (st == LDS_CELL_OPEN)
        dd->vertex(dd->ud, (float)x, (float)y, o->open);
    }
  dd->end(dd->ud);
  if (o->labels && dd->text) {
    char buf[32];
    for (y = 0; y < g->h; y++)
      for (x = 0; x < g->w; x++) {
        double gv;
        uint32_t par;
        if (node_state(s, (uint32_t)ldsi_grid_pidx(g, x, y), &gv, &par) != LDS_CELL_CLOSED) continue;
        snprintf(buf, sizeof buf, "%.1f", gv);
        dd->text(dd->ud, (float)x + 0.5f, (float)y + 0.5f, buf, LDS_RGBA(0, 0, 0, 255));
      }
  }
  if (lds_search_algo_used(s) == LDS_ALGO_JPS || lds_search_algo_used(s) == LDS_ALGO_JPS_PLUS) {
    lds_Path *jp = lds_search_jump_points(s, NULL);
    if (jp) {
      size_t k;
      dd->begin(dd->ud, LDS_DRAW_POINTS, 0.6f);
      for (k = 0; k < lds_path_length(jp); k++) {
        lds_path_cell(jp, k, &x, &y);
        dd->vertex(dd->ud, (float)x + 0.5f, (float)y + 0.5f, o->jump);
      }
      dd->end(dd->ud);
      lds_path_free(jp);
    }
  }
  dd->begin(dd->ud, LDS_DRAW_POINTS, 0.9f);
  dd->vertex(dd->ud, (float)((s->start % (uint32_t)g->pw) - 1) + 0.5f,
             (float)((s->start / (uint32_t)g->pw) - 1) + 0.5f, o->start);
  dd->vertex(dd->ud, (float)s->gx + 0.5f, (float)s->gy + 0.5f, o->goal);
  dd->end(dd->ud);
  return LDS_OK;
}

/* --------------------------------------------------------------- path -- */

lds_Status lds_debug_draw_path(const lds_DebugDraw *dd, const lds_Path *p, uint32_t rgba,
                               float width) {
  size_t k, n;
  int32_t x0, y0, x1, y1;
  if (!dd_ok(dd) || !p || lds_path_width(p) <= 0 || !(width > 0.0f)) return LDS_E_ARG;
  n = lds_path_length(p);
  if (n >= 2) {
    dd->begin(dd->ud, LDS_DRAW_LINES, width);
    lds_path_cell(p, 0, &x0, &y0);
    for (k = 1; k < n; k++) {
      lds_path_cell(p, k, &x1, &y1);
      dd->vertex(dd->ud, (float)x0 + 0.5f, (float)y0 + 0.5f, rgba);
      dd->vertex(dd->ud, (float)x1 + 0.5f, (float)y1 + 0.5f, rgba);
      x0 = x1;
      y0 = y1;
    }
    dd->end(dd->ud);
  }
  dd->begin(dd->ud, LDS_DRAW_POINTS, width * 1.6f);
  for (k = 0; k < n; k++) {
    lds_path_cell(p, k, &x0, &y0);
    dd->vertex(dd->ud, (float)x0 + 0.5f, (float)y0 + 0.5f, rgba);
  }
  dd->end(dd->ud);
  return LDS_OK;
}
