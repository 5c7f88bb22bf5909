/* SPDX-License-Identifier: MIT */
/*
** lds_dstar.c — D* Lite: backward incremental search with a moving start
** (k_m) and batched change notifications. This file holds the object (the
** grid constructor, free, memory), compute (ComputeShortestPath over the
** space of lds_dstar_internal.h and the keys and queue of
** lds_dstar_queue_internal.h) and the queries; the other D* Lite files are
** listed in lds_dstar_internal.h.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4 (optimized
**  version); Koenig, Likhachev & Furcy, "Lifelong Planning A*", AIJ 2004]
**
** Invariants (the paper's): for every vertex u != goal,
**   rhs(u) = min over successors v of c(u,v) + g(v)      (inf if none)
** rhs(goal) = 0, and the queue holds exactly the locally inconsistent
** vertices (g != rhs), each with a key that is a lower bound of its current
** key [min(g,rhs) + h(start,u) + k_m ; min(g,rhs)] (k_m grows by
** h(old start, new start) at every move, so keys computed before a move stay
** lower bounds: the paper's lazy re-keying).
*/
#include "lds_dstar_queue_internal.h"

#include <string.h>

#define CLOCK_EVERY 64

/* --------------------------------------------------------- lifetime -- */

void lds_dstar_params_init(lds_DStarParams *p) { ldsi_dstar_params_defaults(p); }

lds_DStar *lds_dstar_new(const lds_Env *env, const lds_Grid *grid, int32_t sx, int32_t sy,
                         int32_t gx, int32_t gy, const lds_DStarParams *params, lds_Error *err) {
  ldsi_Env e;
  lds_DStarParams p;
  lds_DStar *ds;
  lds_Status st;
  int i;
  ldsi_env_resolve(&e, env);
  if (params)
    p = *params;
  else
    lds_dstar_params_init(&p);
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: grid is NULL");
    return NULL;
  }
  if (grid->pcells >= (size_t)NONE) {
    ldsi_error(err, LDS_E_LIMIT, "lds_dstar_new: grid of %zu cells exceeds the %u vertex limit",
               grid->pcells, (unsigned)NONE - 1);
    return NULL;
  }
  if (!lds_grid_in_bounds(grid, sx, sy)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: start (%ld,%ld) out of bounds (grid is %ldx%ld)",
               (long)sx, (long)sy, (long)grid->w, (long)grid->h);
    return NULL;
  }
  if (!lds_grid_in_bounds(grid, gx, gy)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: goal (%ld,%ld) out of bounds (grid is %ldx%ld)",
               (long)gx, (long)gy, (long)grid->w, (long)grid->h);
    return NULL;
  }
  if (lds_heuristic_name(p.heuristic) == NULL) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: unknown heuristic %d", (int)p.heuristic);
    return NULL;
  }
  if (p.heuristic == LDS_H_EUCLIDEAN) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: heuristic 'euclidean' is not supported (keys "
               "must be exact; use auto, octile, manhattan, chebyshev or zero)");
    return NULL;
  }
  if (isnan(p.h_scale) || p.h_scale < 0.0 || isinf(p.h_scale)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: h_scale %g out of range (expected finite, >= 0)",
               ldsi_num(p.h_scale));
    return NULL;
  }
  if (p.n_layer_weights < 0 || p.n_layer_weights > grid->nlayers || p.n_layer_weights > 16 ||
      (p.n_layer_weights > 0 && !p.layer_weights)) {
    ldsi_error(err, LDS_E_ARG,
               "lds_dstar_new: %d layer weights for a grid with %d layers (expected 0..%d)",
               p.n_layer_weights, grid->nlayers, grid->nlayers < 16 ? grid->nlayers : 16);
    return NULL;
  }
  for (i = 0; i < p.n_layer_weights; i++)
    if (isnan(p.layer_weights[i]) || isinf(p.layer_weights[i])) {
      ldsi_error(err, LDS_E_ARG, "lds_dstar_new: weight of layer '%s' is %g (expected finite)",
                 grid->layers[i].name, ldsi_num(p.layer_weights[i]));
      return NULL;
    }
  ds = (lds_DStar *)ldsi_calloc(&e, 1, sizeof *ds);
  if (!ds) goto nomem;
  ds->env = e;
  ds->grid = grid;
  ds->n = grid->pcells;
  ds->v = (DsVertex *)ldsi_calloc(&e, ds->n, sizeof(DsVertex));
  ds->heap = (DsEntry *)ldsi_alloc(&e, ds->n * sizeof(DsEntry));
  ds->dirty = (uint32_t *)ldsi_alloc(&e, ds->n * sizeof(uint32_t));
  ds->scratch = (uint32_t *)ldsi_alloc(&e, ds->n * sizeof(uint32_t));
  if (!ds->v || !ds->heap || !ds->dirty || !ds->scratch) {
    ldsi_dstar_release(ds);
    ldsi_free(&e, ds, sizeof *ds);
    goto nomem;
  }
  /* touch every page now, so page faults land in create, not in compute */
  memset(ds->heap, 0, ds->n * sizeof(DsEntry));
  memset(ds->dirty, 0, ds->n * sizeof(uint32_t));
  memset(ds->scratch, 0, ds->n * sizeof(uint32_t));
  ldsi_grid_offsets(grid, ds->off);
  ds->pw = (uint32_t)grid->pw;
  ds->start = (uint32_t)ldsi_grid_pidx(grid, sx, sy);
  ds->start_x = sx + 1;
  ds->start_y = sy + 1;
  ds->goal = (uint32_t)ldsi_grid_pidx(grid, gx, gy);
  ds->hk_param = p.heuristic;
  ds->auto_scale = !(p.h_scale > 0.0);
  ds->scale = p.h_scale;
  for (i = 0; i < p.n_layer_weights; i++) {
    ds->weights[i] = p.layer_weights[i];
    if (p.layer_weights[i] != 0.0) ds->nweights = i + 1;
  }
  st = ldsi_dstar_grid_reinit(ds, "lds_dstar_new");
  if (st < 0) {
    ldsi_error(err, st, "%s", ds->errmsg);
    ldsi_dstar_release(ds);
    ldsi_free(&e, ds, sizeof *ds);
    return NULL;
  }
  ds->status = LDS_RUNNING;
  ldsi_error_clear(err);
  return ds;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_dstar_new: out of memory for %zu cells (%zu bytes)",
             grid->pcells, grid->pcells * ldsi_dstar_bytes_per_cell());
  return NULL;
}

void lds_dstar_free(lds_DStar *ds) {
  ldsi_Env e;
  if (!ds) return;
  if (ds->listened) lds_dstar_unsubscribe(ds);
  if (ds->glistened) lds_dstar_unsubscribe_graph(ds);
  e = ds->env;
  ldsi_dstar_release(ds);
  ldsi_free(&e, ds, sizeof *ds);
}

size_t lds_dstar_mem_used(const lds_DStar *ds) {
  if (ds->graph)
    return sizeof *ds + ds->n * (ldsi_dstar_bytes_per_cell() + sizeof(uint32_t)) +
           ((size_t)ds->gm + 1) * sizeof(double) +
           (size_t)ds->gdeg * 2 * (sizeof(uint32_t) + sizeof(double));
  return sizeof *ds + ds->n * ldsi_dstar_bytes_per_cell();
}

lds_Status lds_dstar_unsubscribe(lds_DStar *ds) {
  if (ds->graph) return lds_dstar_unsubscribe_graph(ds);
  return ldsi_dstar_grid_unsubscribe(ds);
}

/* ---------------------------------------------------------- compute -- */

static lds_Status finish(lds_DStar *ds, lds_Status st) {
  ds->status = st;
  ds->in_replan = false;
  if (st == LDS_NO_PATH) {
    ds->had_no_path = true;
    ds->cost = -1.0;
  } else if (st == LDS_FOUND) {
    if (ds->had_no_path) ds->flags |= LDS_DSTAR_REACHABLE_AGAIN;
    ds->had_no_path = false;
  }
  return st;
}

/* Applies the batched changes in the space of ds (lds_dstar_grid.c or
** lds_dstar_graph.c), or restarts when they ask for it or a restart is
** pending. Returns an error status or LDS_OK. */
static lds_Status apply_changes(lds_DStar *ds) {
  bool restart = ds->reinit_pending;
  lds_Status st = LDS_OK;
  ds->flags |= LDS_DSTAR_CHANGES;
  ds->stats.replans++;
  if (!restart) {
    st = ds->graph ? ldsi_dstar_graph_changes(ds, &restart)
                   : ldsi_dstar_grid_changes(ds, &restart);
    if (st < 0) return st;
  }
  if (restart) {
    ds->flags |= LDS_DSTAR_REINIT | LDS_DSTAR_NEAR_START;
    st = ds->graph ? ldsi_dstar_graph_reinit(ds)
                   : ldsi_dstar_grid_reinit(ds, "lds_dstar_step");
  }
  return st;
}

lds_Status lds_dstar_step(lds_DStar *ds, const lds_Budget *budget) {
  uint64_t max_exp = budget ? budget->max_expansions : 0, us = budget ? budget->budget_us : 0;
  uint64_t t0, done = 0;
  lds_Status st = LDS_RUNNING;
  uint32_t pvb[MAXDEG], *pv = ds->graph ? ds->gpv : pvb;
  double pcb[MAXDEG], *pc = ds->graph ? ds->gpc : pcb, km_cost;
  if (ds->status != LDS_RUNNING) return ds->status;
  t0 = ds->env.clock(ds->env.clock_ud);
  if (!ds->in_replan) {
    ds->flags = 0;
    ds->in_replan = true;
    ds->errmsg[0] = '\0';
  }
  if (ds->reinit_pending || ds->ndirty) {
    st = apply_changes(ds);
    if (st < 0) goto fail;
  }
  if (ds->v[ds->start].mark & M_BLOCKED) ds->flags |= LDS_DSTAR_START_BLOCKED;
  if (ds->v[ds->goal].mark & M_BLOCKED) ds->flags |= LDS_DSTAR_GOAL_BLOCKED;
  if (ds->flags & (LDS_DSTAR_START_BLOCKED | LDS_DSTAR_GOAL_BLOCKED)) {
    st = finish(ds, LDS_NO_PATH);
    goto out;
  }
  if (ds->start == ds->goal) {
    ds->flags |= LDS_DSTAR_AT_GOAL;
    ds->cost = 0.0;
    st = finish(ds, LDS_FOUND);
    goto out;
  }

  /* k_m's share of every key (scale and k_m are fixed from here on) */
  km_cost = ds->scale * ((double)(0 + ds->km.a) + (double)(0 + ds->km.b) * LDSI_SQRT2);
  /* ComputeShortestPath (Fig. 4, lines 10-28) */
  for (;;) {
    const DsEntry *top;
    uint32_t u;
    DsEntry kn;
    const DsVertex *sv = &ds->v[ds->start];
    int k, m;
    if (ds->heap_n == 0) break;
    top = &ds->heap[0];
    /* Stop when the start is consistent and no queued vertex sorts before
    ** the start's key as an overconsistent entry would (ldsi_dstar_key_sort): none
    ** has a smaller k1 bucket, and no underconsistent one has a k1 within
    ** 1.8e-10 relative above it (its g may be too low). Overconsistent
    ** vertices in the start's bucket are left queued: they cannot improve
    ** the start's cost by more than the bucket's width (an improvement
    ** would give them a smaller k1) and their g is too high, never too
    ** low. This is the paper's TopKey >= key(start) test with ties broken
    ** towards the start, robust to float rounding. */
    if (sv->rhs == sv->g) {
      /* the start's k1: h(start, start) = 0, so ldsi_dstar_calc_key reduces to
      ** g + km_cost (same arithmetic, bit for bit) */
      double k1s = sv->g + km_cost, sks;
      if (ds->graph) { /* graphs keep k_m as a double (lds_dstar_graph.c): the full key */
        DsEntry ks;
        ldsi_dstar_calc_key(ds, ds->start, &ks);
        k1s = ks.k1;
      }
      sks = ldsi_dstar_key_sort(k1s, false);
      if (top->sk > sks) break;
      if (top->sk == sks && !top->under) break;
    }
    if (max_exp && done >= max_exp) goto running;
    if (us && done && (done % CLOCK_EVERY) == 0 && ds->env.clock(ds->env.clock_ud) - t0 >= us)
      goto running;
    done++;
    u = top->node;
    ldsi_dstar_calc_key(ds, u, &kn);
    if (ldsi_dstar_entry_less(top, &kn)) { /* stale key (k_m grew): re-key */
      ldsi_dstar_heap_set(ds, &kn);
      continue;
    }
    ds->stats.expansions++;
    m = SP_PRED(ds, u, pv, pc);
    if (ds->v[u].g > ds->v[u].rhs) { /* overconsistent: settle */
      double gu = ds->v[u].rhs;
      ds->v[u].g = gu;
      ds->stats.g_updates++;
      /* u is the root: leave a hole the first new predecessor fills */
      ds->v[u].hpos = NONE;
      ds->root_hole = true;
      for (k = 0; k < m; k++) {
        uint32_t s = pv[k];
        double x = pc[k] + gu;
        if (s == ds->goal || !(x < ds->v[s].rhs)) continue;
        ds->v[s].rhs = x;
        ds->stats.rhs_updates++;
        ldsi_dstar_update_vertex(ds, s);
      }
      ldsi_dstar_fill_hole(ds);
    } else { /* underconsistent: raise to infinity, repair dependants */
      double gold = ds->v[u].g;
      ds->v[u].g = INFINITY;
      ds->stats.g_updates++;
      for (k = 0; k < m; k++) {
        uint32_t s = pv[k];
        if (s == ds->goal || ds->v[s].rhs != pc[k] + gold) continue;
        if (ldsi_dstar_recompute_rhs(ds, s)) ldsi_dstar_update_vertex(ds, s); /* unchanged: another
                                                         ** successor ties */
      }
      ldsi_dstar_recompute_rhs(ds, u);
      ldsi_dstar_update_vertex(ds, u);
    }
  }

  if (ds->v[ds->start].rhs == INFINITY) {
    ds->flags |= LDS_DSTAR_UNREACHABLE;
    st = finish(ds, LDS_NO_PATH);
  } else {
    /* min over successors of c + g: rhs(start) recomputed (g(start) may be
    ** stale with the optimized termination test); O(1), no path walk */
    uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
    double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, best = INFINITY;
    int k, m = SP_SUCC(ds, ds->start, v, c);
    for (k = 0; k < m; k++)
      if (c[k] + ds->v[v[k]].g < best) best = c[k] + ds->v[v[k]].g;
    ds->cost = best;
    st = finish(ds, LDS_FOUND);
  }
  goto out;
running:
  st = LDS_RUNNING;
  ds->status = LDS_RUNNING;
  goto out;
fail:
  ds->status = st;
  ds->in_replan = false;
out:
  ds->stats.queue_size = ds->heap_n;
  ds->stats.elapsed_us += ds->env.clock(ds->env.clock_ud) - t0;
  return st;
}

/* ----------------------------------------------------------- queries -- */

lds_Status lds_dstar_status(const lds_DStar *ds) { return ds->status; }
uint32_t lds_dstar_flags(const lds_DStar *ds) { return ds->flags; }
const char *lds_dstar_errmsg(const lds_DStar *ds) { return ds->errmsg; }

lds_Status lds_dstar_compute(lds_DStar *ds, const lds_Budget *budget) {
  return lds_dstar_step(ds, budget);
}

void lds_dstar_stats(const lds_DStar *ds, lds_Stats *out) {
  out->expansions = ds->stats.expansions;
  out->pushes = ds->stats.pushes;
  out->peak_open = ds->stats.peak_queue;
  out->elapsed_us = ds->stats.elapsed_us;
}

void lds_dstar_counters(const lds_DStar *ds, lds_DStarStats *out) {
  *out = ds->stats;
  out->queue_size = ds->heap_n;
}

double lds_dstar_cost(const lds_DStar *ds) { return ds->status == LDS_FOUND ? ds->cost : -1.0; }

void lds_dstar_endpoints(const lds_DStar *ds, int32_t *sx, int32_t *sy, int32_t *gx,
                         int32_t *gy) {
  int32_t x, y;
  if (ds->graph) { /* node ids in x, 0 in y */
    if (sx) *sx = (int32_t)ds->start;
    if (sy) *sy = 0;
    if (gx) *gx = (int32_t)ds->goal;
    if (gy) *gy = 0;
    return;
  }
  ldsi_grid_pxy(ds->grid, ds->start, &x, &y);
  if (sx) *sx = x;
  if (sy) *sy = y;
  ldsi_grid_pxy(ds->grid, ds->goal, &x, &y);
  if (gx) *gx = x;
  if (gy) *gy = y;
}
