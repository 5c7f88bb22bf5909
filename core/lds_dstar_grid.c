/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_grid.c — D* Lite's grid space: snapshots of the cells (legal-
** move masks, effective costs under the layer weights), the full restart,
** the processing of changed cells (rhs of the 3x3 block around each, eager
** invalidation when moves can vanish in c + g), the grid listener and the
** cell-based calls (update, update_rect, move_start, subscribe).
**
** Instead of the paper's c_old bookkeeping for changed edges we recompute
** rhs of every vertex whose outgoing edges may have changed: a change at
** cell c alters the cost of entering c and, through the diagonal rules, the
** legal-move masks of the 3x3 block around c, so exactly the vertices of
** that block need their rhs recomputed. This is the unoptimised update of
** Fig. 3, correct for any mix of increases and decreases.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Figs. 3 and 4]
*/
#include "lds_dstar_queue_internal.h"

/* ------------------------------------------------------- snapshots -- */

/* Effective cost of entering padded cell p (inf when blocked or blocked by a
** layer); false with a message when the weighted cost is <= 0 or NaN. */
static bool cell_ecost(lds_DStar *ds, size_t p, double *out, const char *fn) {
  const lds_Grid *g = ds->grid;
  int32_t x, y;
  size_t u;
  double c;
  int i;
  if (g->blocked[p]) {
    *out = INFINITY;
    return true;
  }
  c = (double)g->cost[p];
  if (ds->nweights) {
    ldsi_grid_pxy(g, p, &x, &y);
    u = (size_t)y * (size_t)g->w + (size_t)x;
    for (i = 0; i < ds->nweights; i++)
      if (ds->weights[i] != 0.0) c += ds->weights[i] * (double)g->layers[i].data[u];
    if (c != INFINITY && (!(c > 0.0) || isinf(c))) {
      ldsi_msg(ds->errmsg,
               "%s: cell (%ld,%ld) has cost %g under the layer weights (base %g; expected "
               "finite, > 0, or +inf from a layer to block it)",
               fn, (long)x, (long)y, ldsi_num(c), (double)g->cost[p]);
      return false;
    }
  }
  *out = c;
  return true;
}

static bool layers_ok(lds_DStar *ds, const char *fn) {
  if (ds->nweights > ds->grid->nlayers) {
    ldsi_msg(ds->errmsg, "%s: the search weights %d layers but the grid now has %d "
             "(a layer was removed; create a new search)", fn, ds->nweights, ds->grid->nlayers);
    return false;
  }
  return true;
}

static void snap_cell(lds_DStar *ds, size_t p) {
  unsigned now = ds->grid->nbr[p], diff = now ^ ds->v[p].nbr;
  while (diff) { /* a move p -> p + off[d] appeared or vanished: its target's
                 ** predecessor bit d follows (the target is an inner cell,
                 ** since the move was legal in one of the two masks) */
    int d = __builtin_ctz(diff);
    diff &= diff - 1;
    ds->v[(size_t)((ptrdiff_t)p + ds->off[d])].pnbr ^= (uint8_t)(1u << d);
  }
  ds->v[p].nbr = (uint8_t)now;
  if (ds->grid->blocked[p])
    ds->v[p].mark |= M_BLOCKED;
  else
    ds->v[p].mark &= (uint8_t)~M_BLOCKED;
}

/* Tiny moves on grids: once the cell costs span more than about 2^53 / cells
** (1 next to 3.4e38), a cheap move can vanish in c + g, and cheap cells
** next to each other then support each other's g as a free cycle does on a
** graph (see graph_scan_tiny): after a cut, rhs(u) = c + g(v) == g(u) and
** rhs(v) = c + g(u) == g(v) leave a stale finite g that nothing queues, and
** the search reports the old path. Sticky until the next restart. */
static void grid_check_tiny(lds_DStar *ds) {
  if (ds->gminc <= 1e-15 * (double)(ds->n + 1) * 2.0 * LDSI_SQRT2 * ds->gmaxc) ds->gtiny = true;
}

lds_Status ldsi_dstar_grid_reinit(lds_DStar *ds, const char *fn) {
  const lds_Grid *g = ds->grid;
  size_t p;
  double mn = INFINITY, mx = 0.0;
  if (!layers_ok(ds, fn)) return LDS_E_STATE;
  for (p = 0; p < ds->n; p++) {
    double c;
    snap_cell(ds, p);
    ds->v[p].mark &= (uint8_t)~(M_DIRTY | M_AFFECTED);
    if (!cell_ecost(ds, p, &c, fn)) return LDS_E_ARG;
    ds->v[p].ecost = c;
    if (c < mn) mn = c;
    if (c > mx && c < INFINITY) mx = c;
    ds->v[p].g = INFINITY;
    ds->v[p].rhs = INFINITY;
    ds->v[p].hpos = NONE;
  }
  ds->ndirty = 0;
  ds->heap_n = 0;
  ds->hk = ds->hk_param;
  if (ds->hk == LDS_H_AUTO) /* octile where diagonal moves exist, else manhattan */
    ds->hk = g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER ? LDS_H_OCTILE : LDS_H_MANHATTAN;
  if (ds->auto_scale) ds->scale = mn == INFINITY ? 1.0 : mn;
  ds->gminc = mn;
  ds->gmaxc = mx;
  ds->gtiny = false;
  grid_check_tiny(ds);
  ds->km.a = 0;
  ds->km.b = 0;
  ds->last = ds->start;
  ds->v[ds->goal].rhs = 0.0;
  ldsi_dstar_update_vertex(ds, ds->goal);
  ds->reinit_pending = false;
  return LDS_OK;
}

/* Eager invalidation on grids with tiny moves (as graph_invalidate): the
** seeds are the vertices of the 3x3 blocks around the changed cells (their
** out-moves changed), then every vertex whose g rests on a seed through
** tight moves (c + g(x) within 1e-10 relative of g(s)); all get g = inf, and
** rhs of them and their predecessors is recomputed from what is left, which
** no longer depends on the change; the normal repair rebuilds them. Runs
** after the snapshots are updated; O(collected vertices); ds->scratch holds
** them (free during compute). */
static void grid_invalidate(lds_DStar *ds) {
  uint32_t *d = ds->scratch, pv[MAXDEG];
  double pc[MAXDEG];
  int32_t pw = (int32_t)ds->pw;
  size_t nd = 0, i;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        uint32_t q = (uint32_t)((int32_t)c + dy * pw + dx);
        if (q == ds->goal || (ds->v[q].mark & M_INVAL) || ds->v[q].g == INFINITY) continue;
        ds->v[q].mark |= M_INVAL;
        d[nd++] = q;
      }
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i];
    double gx = ds->v[x].g;
    int k, m = ldsi_dstar_grid_pred(ds, x, pv, pc);
    for (k = 0; k < m; k++) {
      uint32_t s = pv[k];
      double gs = ds->v[s].g;
      if (s == ds->goal || (ds->v[s].mark & M_INVAL) || gs == INFINITY) continue;
      if (pc[k] + gx <= gs + 1e-10 * gs) {
        ds->v[s].mark |= M_INVAL;
        d[nd++] = s;
      }
    }
  }
  for (i = 0; i < nd; i++) {
    ds->v[d[i]].g = INFINITY;
    ds->stats.g_updates++;
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i];
    int k, m = ldsi_dstar_grid_pred(ds, x, pv, pc);
    ldsi_dstar_recompute_rhs(ds, x);
    ldsi_dstar_update_vertex(ds, x);
    for (k = 0; k < m; k++) {
      uint32_t s = pv[k];
      if (s == ds->goal || (ds->v[s].mark & M_INVAL)) continue;
      ldsi_dstar_recompute_rhs(ds, s);
      ldsi_dstar_update_vertex(ds, s);
    }
  }
  for (i = 0; i < nd; i++) ds->v[d[i]].mark &= (uint8_t)~M_INVAL;
}

/* Processes the change list: new snapshots first (every changed cell), then
** rhs of the 3x3 block around each changed cell, then the marks are cleared.
** Returns an error status or LDS_OK; sets *restart when the heuristic scale
** must drop (then the caller restarts). */
lds_Status ldsi_dstar_grid_changes(lds_DStar *ds, bool *restart) {
  size_t i;
  int32_t pw = (int32_t)ds->pw;
  *restart = false;
  if (!layers_ok(ds, "lds_dstar_step")) return LDS_E_STATE;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    double e;
    int dy, dx;
    if (!cell_ecost(ds, c, &e, "lds_dstar_step")) return LDS_E_ARG;
    ds->v[c].ecost = e;
    if (ds->auto_scale && e < ds->scale) *restart = true;
    if (e < ds->gminc) ds->gminc = e;
    if (e > ds->gmaxc && e < INFINITY) ds->gmaxc = e;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) snap_cell(ds, (size_t)((int32_t)c + dy * pw + dx));
  }
  if (*restart) return LDS_OK;
  if (!ds->gtiny) {
    grid_check_tiny(ds);
    /* the first tiny move: vertices left underconsistent by lazy repairs
    ** (g too low, queued above the start's key) could now lock each other
    ** in, so start from a clean state */
    if (ds->gtiny) {
      *restart = true;
      return LDS_OK;
    }
  }
  if (ds->gtiny) grid_invalidate(ds);
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        uint32_t q = (uint32_t)((int32_t)c + dy * pw + dx);
        if (ds->v[q].mark & M_AFFECTED) continue;
        ds->v[q].mark |= M_AFFECTED;
        if (q == ds->start) ds->flags |= LDS_DSTAR_NEAR_START; /* within one cell */
        if (ldsi_dstar_recompute_rhs(ds, q)) ldsi_dstar_update_vertex(ds, q);
      }
  }
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    ds->v[c].mark &= (uint8_t)~M_DIRTY;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++)
        ds->v[(size_t)((int32_t)c + dy * pw + dx)].mark &= (uint8_t)~M_AFFECTED;
  }
  ds->stats.cells_changed += ds->ndirty;
  ds->ndirty = 0;
  return LDS_OK;
}

/* ---------------------------------------------------------- changes -- */

/* a cell-based call on a graph search */
static lds_Status graph_only_nodes(lds_DStar *ds, const char *fn) {
  ldsi_msg(ds->errmsg, "%s: this search is on a graph (use the _node / _edge / _graph calls)", fn);
  return LDS_E_STATE;
}

static void mark_rect(lds_DStar *ds, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = ds->grid;
  int32_t x, y;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  if (ds->reinit_pending) return;
  if (x0 <= 0 && y0 <= 0 && x1 >= g->w - 1 && y1 >= g->h - 1) {
    ds->reinit_pending = true; /* the whole grid: a restart is cheaper */
    return;
  }
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) ldsi_dstar_queue_change(ds, (uint32_t)ldsi_grid_pidx(g, x, y));
}

static void on_grid_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                         int32_t y1, uint64_t version) {
  lds_DStar *ds = (lds_DStar *)ud;
  (void)version;
  if (g != ds->grid) return;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > g->w - 1) x1 = g->w - 1;
  if (y1 > g->h - 1) y1 = g->h - 1;
  if (x0 > x1 || y0 > y1) return;
  mark_rect(ds, x0, y0, x1, y1);
}

lds_Status lds_dstar_subscribe(lds_DStar *ds, lds_Grid *grid) {
  lds_Status st;
  if (ds->graph || grid != ds->grid) {
    ldsi_msg(ds->errmsg, "lds_dstar_subscribe: not the grid the search was created on");
    return LDS_E_ARG;
  }
  if (ds->listened) return LDS_OK;
  st = lds_grid_listen(grid, on_grid_edit, ds);
  if (st != LDS_OK) {
    ldsi_msg(ds->errmsg, "lds_dstar_subscribe: out of memory for the grid's listener list");
    return st;
  }
  ds->listened = grid;
  return LDS_OK;
}

lds_Status ldsi_dstar_grid_unsubscribe(lds_DStar *ds) {
  if (!ds->listened) {
    ldsi_msg(ds->errmsg, "lds_dstar_unsubscribe: not subscribed");
    return LDS_E_STATE;
  }
  lds_grid_unlisten(ds->listened, on_grid_edit, ds);
  ds->listened = NULL;
  return LDS_OK;
}

lds_Status lds_dstar_update(lds_DStar *ds, int32_t x, int32_t y) {
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_update");
  if (!lds_grid_in_bounds(ds->grid, x, y)) {
    ldsi_msg(ds->errmsg, "lds_dstar_update: cell (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)x, (long)y, (long)ds->grid->w, (long)ds->grid->h);
    return LDS_E_ARG;
  }
  mark_rect(ds, x, y, x, y);
  return LDS_OK;
}

lds_Status lds_dstar_update_rect(lds_DStar *ds, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = ds->grid;
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_update_rect");
  if (x0 > x1 || y0 > y1 || !lds_grid_in_bounds(g, x0, y0) || !lds_grid_in_bounds(g, x1, y1)) {
    ldsi_msg(ds->errmsg,
             "lds_dstar_update_rect: rectangle (%ld,%ld)-(%ld,%ld) is empty or out of bounds "
             "(grid is %ldx%ld)",
             (long)x0, (long)y0, (long)x1, (long)y1, (long)g->w, (long)g->h);
    return LDS_E_ARG;
  }
  mark_rect(ds, x0, y0, x1, y1);
  return LDS_OK;
}

lds_Status lds_dstar_move_start(lds_DStar *ds, int32_t x, int32_t y) {
  uint32_t s;
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_move_start");
  if (!lds_grid_in_bounds(ds->grid, x, y)) {
    ldsi_msg(ds->errmsg, "lds_dstar_move_start: cell (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)x, (long)y, (long)ds->grid->w, (long)ds->grid->h);
    return LDS_E_ARG;
  }
  s = (uint32_t)ldsi_grid_pidx(ds->grid, x, y);
  if (s == ds->start) return LDS_OK;
  ds->start = s;
  ds->start_x = x + 1;
  ds->start_y = y + 1;
  {
    DsH h = SP_H(ds, ds->last, s);
    ds->km.a += h.a;
    ds->km.b += h.b;
  }
  ds->last = s;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  return LDS_OK;
}
