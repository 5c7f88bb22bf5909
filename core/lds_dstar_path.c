/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_path.c — D* Lite's answers: the path walk from the start (grids
** and graphs), lds_dstar_path, lds_dstar_next and lds_dstar_next_node.
** Reads the search's state only; calls no other D* Lite file.
*/
#include "lds_dstar_internal.h"

/* The path from the start (grid and graph, through SP_SUCC): a depth-first
** walk that never enters a vertex twice and backtracks out of dead ends. At
** each vertex u it steps to the successor v with the smallest c + g(v)
** (ties: the first in successor order) among those not yet on the walk
** whose c + g(v) is tight: within 1e-10 relative of the smallest c + g over
** all of u's successors. Why not plain greedy descent: once costs span more
** than 2^53 a cheap move vanishes in c + g (1 + 3.4e38 == 3.4e38), two
** neighbours tie in c + g and greedy descent can step back and forth
** between them forever; on graphs a cycle of free edges does the same.
** Tight edges from the start lead to the goal (each vertex's g was set from
** a tight successor settled before it), so the walk finds them; were it to
** fail (a state the search cannot reach), a second walk that accepts any
** successor with a finite g still returns a legal path. Without ties on
** absorbed costs the walk is the greedy descent and never backtracks.
** M_AFFECTED marks the visited vertices; ds->dirty lists them for the
** clean-up (the change list is empty whenever the status is LDS_FOUND).
** O(vertices x degree) at worst. Writes the vertices to out (and on graphs
** the edge taken from each to ds->gidx); returns their count (0 when no
** walk reaches the goal) and the forward sum of the moves in *cost. */
static size_t walk_pass(const lds_DStar *ds, uint32_t *out, double *cost, bool tight) {
  uint32_t *seen = ds->dirty, *edge = ds->gidx;
  uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
  double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, sum = 0.0;
  size_t n = 0, nseen = 0, k;
  out[n++] = ds->start;
  ds->v[ds->start].mark |= M_AFFECTED;
  seen[nseen++] = ds->start;
  while (n > 0 && out[n - 1] != ds->goal) {
    uint32_t u = out[n - 1];
    double best = INFINITY, lim = INFINITY;
    int j, bj = -1, m = SP_SUCC(ds, u, v, c);
    if (tight) {
      for (j = 0; j < m; j++)
        if (c[j] + ds->v[v[j]].g < lim) lim = c[j] + ds->v[v[j]].g;
      lim += 1e-10 * lim;
    }
    for (j = 0; j < m; j++) {
      const DsVertex *x = &ds->v[v[j]];
      double cg = c[j] + x->g;
      if (x->g < INFINITY && cg <= lim && !(x->mark & M_AFFECTED) && (bj < 0 || cg < best)) {
        best = cg;
        bj = j;
      }
    }
    if (bj < 0) {
      n--; /* dead end: backtrack */
      continue;
    }
    if (ds->graph) edge[n - 1] = ds->graph->off[u] + (uint32_t)bj; /* ldsi_dstar_graph_succ: CSR order */
    ds->v[v[bj]].mark |= M_AFFECTED;
    seen[nseen++] = v[bj];
    out[n++] = v[bj];
  }
  for (k = 0; k < nseen; k++) ds->v[seen[k]].mark &= (uint8_t)~M_AFFECTED;
  for (k = 0; k + 1 < n; k++) {
    if (ds->graph) {
      sum += ds->gcost[edge[k]];
    } else {
      int d = 0;
      while (d < 7 && (ptrdiff_t)out[k] + ds->off[d] != (ptrdiff_t)out[k + 1]) d++;
      sum += move_len[d] * ds->v[out[k + 1]].ecost; /* the move's direction d */
    }
  }
  *cost = sum;
  return n;
}

static size_t walk(const lds_DStar *ds, uint32_t *out, double *cost) {
  size_t n;
  if (ds->ndirty) return 0;
  n = walk_pass(ds, out, cost, true);
  return n ? n : walk_pass(ds, out, cost, false);
}

lds_Status lds_dstar_next(const lds_DStar *ds, int32_t *x, int32_t *y) {
  uint32_t u = ds->start;
  if (ds->status != LDS_FOUND || ds->graph) return LDS_E_STATE;
  if (u != ds->goal) {
    /* The second cell of the path's walk, so an agent following next walks
    ** the path and never oscillates. In O(1) when the smallest c + g
    ** (first in direction order, as the walk's first choice) comes from a
    ** successor of strictly smaller g, i.e. the move is not absorbed in
    ** c + g: the walk takes that step and descends from there. Otherwise
    ** (costs spanning more than 2^53) the walk itself. */
    uint32_t v[MAXDEG], bv = NONE;
    double c[MAXDEG], best = INFINITY;
    int k, m = SP_SUCC(ds, u, v, c);
    for (k = 0; k < m; k++)
      if (ds->v[v[k]].g < INFINITY && c[k] + ds->v[v[k]].g < best) {
        best = c[k] + ds->v[v[k]].g;
        bv = v[k];
      }
    if (bv != NONE && ds->v[bv].g < best) {
      u = bv;
    } else {
      double cost;
      if (walk(ds, ds->scratch, &cost) < 2) return LDS_E_STATE;
      u = ds->scratch[1];
    }
  }
  ldsi_grid_pxy(ds->grid, u, x, y);
  return LDS_OK;
}

static lds_Path *graph_path(const lds_DStar *ds, lds_Error *err) {
  lds_Env env;
  size_t n;
  double cost = 0.0;
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no descending path from the start");
    return NULL;
  }
  env = ldsi_env_public(&ds->env);
  return lds_path_new(&env, ds->scratch, n, 0, cost, 0, err);
}

lds_Path *lds_dstar_path(const lds_DStar *ds, lds_Error *err) {
  lds_Env env;
  size_t n, k;
  double cost = 0.0;
  const lds_Grid *g = ds->grid;
  if (ds->status != LDS_FOUND) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no path (status %s)",
               lds_status_name(ds->status));
    return NULL;
  }
  if (ds->graph) return graph_path(ds, err);
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no descending path from the start");
    return NULL;
  }
  for (k = 0; k < n; k++) { /* padded ids -> y*width+x, in place */
    int32_t x, y;
    ldsi_grid_pxy(g, ds->scratch[k], &x, &y);
    ds->scratch[k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  env = ldsi_env_public(&ds->env);
  return lds_path_new(&env, ds->scratch, n, g->w, cost, 0, err);
}

lds_Status lds_dstar_next_node(const lds_DStar *ds, uint32_t *node) {
  size_t n;
  double cost;
  if (!ds->graph) return LDS_E_STATE;
  if (ds->status != LDS_FOUND) return LDS_E_STATE;
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) return LDS_E_STATE;
  *node = n > 1 ? ds->scratch[1] : ds->scratch[0];
  return LDS_OK;
}
