/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_graph.c — D* Lite's graph space: the constructor, snapshots of
** the edge costs, the full restart, the processing of changed nodes (eager
** invalidation when edges are nearly free), edge and node change
** notifications, the graph listener and the node-based calls. The search
** itself (keys, queue, ComputeShortestPath, path walk) is the one of grids
** (lds_dstar.c, lds_dstar_queue.c, lds_dstar_path.c), over the graph's
** forward and reverse CSR.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4]
*/
#include "lds_dstar_queue_internal.h"

#include <string.h>

/* ------------------------------------------------------- snapshots -- */
/* D* Lite on a frozen lds_Graph: the same queue, keys and
** ComputeShortestPath as on grids, over CSR out- and in-edges. h and k_m
** are doubles here (coordinate distances are not integer pairs); why the
** keys stay lower bounds up to ldsi_dstar_key_sort's rounding is argued in
** docs/dstar.md ("Graphs"). */

/* The largest consistent scale of the snapshot costs (as lds_graph_h_scale,
** but over what the search was told, not over the live graph). */
static double graph_snapshot_scale(const lds_DStar *ds) {
  const lds_Graph *g = ds->graph;
  double k = INFINITY;
  uint32_t u, e;
  for (u = 0; u < g->n && k > 0.0; u++)
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      double d = ldsi_graph_dist(g, u, g->dst[e]), r;
      if (!(d > 0.0)) continue;
      r = ds->gcost[e] / d;
      if (r < k) k = r;
    }
  if (k == INFINITY) k = 0.0;
  return k * (1.0 - 1e-9);
}

/* An edge is "tiny" when adding its cost to a path cost may change nothing
** in floating point (cost 0, or below ~m * max cost * 2^-52). With tiny
** edges, cycles of free edges break LPA*'s convergence proof (it assumes
** c > 0): after a raise, the nodes of a free cycle can keep supporting each
** other's stale, too low g values forever (rhs = g, so nothing is queued).
** ldsi_dstar_graph_changes then invalidates the dependants of a raised edge
** eagerly. Sticky until the next restart; rescanned when the largest cost
** doubles. */
static void graph_scan_tiny(lds_DStar *ds) {
  uint32_t e;
  double mx = 0.0, thr;
  for (e = 0; e < ds->gm; e++)
    if (ds->gcost[e] > mx) mx = ds->gcost[e];
  ds->gmaxc = mx;
  thr = 1e-15 * (double)(ds->gm + 1) * 2.0 * mx;
  ds->gtiny = false;
  for (e = 0; e < ds->gm; e++)
    if (ds->gcost[e] <= thr) ds->gtiny = true;
}

/* Eager invalidation (tiny edges only): the seeds (sources of raised edges
** that were tight, c_old + g(v) = g(u)) and every node whose g rests on a
** seed through tight edges get g = inf; then rhs of those nodes and of
** their predecessors is recomputed from what is left, which no longer
** depends on the raised edges. The nodes are collected in gidx (marked
** M_AFFECTED), n0 seeds already there. */
static void graph_invalidate(lds_DStar *ds, size_t n0) {
  const lds_Graph *g = ds->graph;
  size_t nd = n0, i;
  uint32_t *d = ds->gidx;
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i], k;
    double gx = ds->v[x].g;
    for (k = g->roff[x]; k < g->roff[x + 1]; k++) {
      uint32_t s = g->rsrc[k];
      double gs = ds->v[s].g;
      if (s == ds->goal || (ds->v[s].mark & M_AFFECTED) || gs == INFINITY) continue;
      if (ds->gcost[g->redge[k]] + gx <= gs + 1e-10 * fabs(gs)) {
        ds->v[s].mark |= M_AFFECTED;
        d[nd++] = s;
      }
    }
  }
  for (i = 0; i < nd; i++) {
    ds->v[d[i]].g = INFINITY;
    ds->stats.g_updates++;
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i], k;
    ldsi_dstar_recompute_rhs(ds, x);
    ldsi_dstar_update_vertex(ds, x);
    for (k = g->roff[x]; k < g->roff[x + 1]; k++) {
      uint32_t s = g->rsrc[k];
      if (s == ds->goal || (ds->v[s].mark & M_AFFECTED)) continue;
      ldsi_dstar_recompute_rhs(ds, s);
      ldsi_dstar_update_vertex(ds, s);
    }
  }
  for (i = 0; i < nd; i++) ds->v[d[i]].mark &= (uint8_t)~M_AFFECTED;
}

lds_Status ldsi_dstar_graph_reinit(lds_DStar *ds) {
  const lds_Graph *g = ds->graph;
  size_t p;
  if (ds->gm) memcpy(ds->gcost, g->cost, (size_t)ds->gm * sizeof(double)); /* no edges: cost may be NULL */
  graph_scan_tiny(ds);
  for (p = 0; p < ds->n; p++) {
    ds->v[p].g = INFINITY;
    ds->v[p].rhs = INFINITY;
    ds->v[p].hpos = NONE;
    ds->v[p].mark = 0;
  }
  ds->ndirty = 0;
  ds->heap_n = 0;
  if (ds->gzero)
    ds->scale = 0.0;
  else if (ds->auto_scale)
    ds->scale = graph_snapshot_scale(ds);
  ds->gkm = 0.0;
  ds->last = ds->start;
  ds->v[ds->goal].rhs = 0.0;
  ldsi_dstar_update_vertex(ds, ds->goal);
  ds->reinit_pending = false;
  return LDS_OK;
}

/* The change list holds source nodes whose out-edges may have changed: new
** snapshots of their out-edge costs first, then their rhs is recomputed
** (c(u,v) enters only rhs(u)). A cost that drops below scale * distance
** would make h inconsistent: with the automatic scale, restart. */
lds_Status ldsi_dstar_graph_changes(lds_DStar *ds, bool *restart) {
  const lds_Graph *g = ds->graph;
  size_t i, nseed = 0;
  bool was_tiny = ds->gtiny;
  *restart = false;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t u = ds->dirty[i], e;
    ds->v[u].mark &= (uint8_t)~M_DIRTY;
    if (u == ds->start) ds->flags |= LDS_DSTAR_NEAR_START;
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      double c = g->cost[e];
      if (c == ds->gcost[e]) continue;
      if (c > ds->gcost[e] && u != ds->goal && !(ds->v[u].mark & M_AFFECTED) &&
          ds->v[u].g < INFINITY &&
          ds->gcost[e] + ds->v[g->dst[e]].g <= ds->v[u].g + 1e-10 * fabs(ds->v[u].g)) {
        ds->v[u].mark |= M_AFFECTED; /* a seed of graph_invalidate */
        ds->gidx[nseed++] = u;
      }
      if (c > 2.0 * ds->gmaxc) {
        ds->gcost[e] = c;
        graph_scan_tiny(ds); /* the tiny threshold grew */
      }
      if (c <= 1e-15 * (double)(ds->gm + 1) * 2.0 * ds->gmaxc) ds->gtiny = true;
      if (g->dst[e] == ds->start) ds->flags |= LDS_DSTAR_NEAR_START;
      if (ds->auto_scale && !ds->gzero && ds->scale > 0.0 &&
          c < ds->scale * ldsi_graph_dist(g, u, g->dst[e]))
        *restart = true;
      ds->gcost[e] = c;
    }
  }
  ds->stats.cells_changed += ds->ndirty;
  /* the first tiny edge: vertices left underconsistent by lazy repairs (g
  ** too low, queued above the start's key) could now support each other
  ** through it and never be queued again, so start from a clean state */
  if (!was_tiny && ds->gtiny) *restart = true;
  if (*restart || !ds->gtiny) {
    for (i = 0; i < nseed; i++) ds->v[ds->gidx[i]].mark &= (uint8_t)~M_AFFECTED;
    nseed = 0;
  }
  if (*restart) {
    ds->ndirty = 0;
    return LDS_OK;
  }
  if (nseed) graph_invalidate(ds, nseed);
  for (i = 0; i < ds->ndirty; i++) {
    ldsi_dstar_recompute_rhs(ds, ds->dirty[i]);
    ldsi_dstar_update_vertex(ds, ds->dirty[i]);
  }
  ds->ndirty = 0;
  return LDS_OK;
}

/* --------------------------------------------------------- lifetime -- */

/* Allocates and initialises a D* Lite search on a frozen graph (arguments
** already checked): zero_h forces h = 0; h_scale > 0 fixes the scale, 0
** asks for the automatic one. NULL with err (LDS_E_NOMEM) on failure. */
static lds_DStar *graph_new(const ldsi_Env *e, const lds_Graph *graph, uint32_t start,
                           uint32_t goal, bool zero_h, double h_scale, lds_Error *err) {
  lds_DStar *ds;
  uint32_t u, deg = 1;
  size_t n = graph->n;
  for (u = 0; u < graph->n; u++) {
    uint32_t dout = graph->off[u + 1] - graph->off[u], din = graph->roff[u + 1] - graph->roff[u];
    if (dout > deg) deg = dout;
    if (din > deg) deg = din;
  }
  ds = (lds_DStar *)ldsi_calloc(e, 1, sizeof *ds);
  if (!ds) goto nomem;
  ds->env = *e;
  ds->graph = graph;
  ds->n = n;
  ds->gm = graph->m;
  ds->gdeg = deg;
  ds->v = (DsVertex *)ldsi_calloc(e, n, sizeof(DsVertex));
  ds->heap = (DsEntry *)ldsi_alloc(e, n * sizeof(DsEntry));
  ds->dirty = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->scratch = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->gidx = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->gcost = (double *)ldsi_alloc(e, ((size_t)ds->gm + 1) * sizeof(double));
  ds->gsv = (uint32_t *)ldsi_alloc(e, deg * sizeof(uint32_t));
  ds->gpv = (uint32_t *)ldsi_alloc(e, deg * sizeof(uint32_t));
  ds->gsc = (double *)ldsi_alloc(e, deg * sizeof(double));
  ds->gpc = (double *)ldsi_alloc(e, deg * sizeof(double));
  if (!ds->v || !ds->heap || !ds->dirty || !ds->scratch || !ds->gidx || !ds->gcost || !ds->gsv ||
      !ds->gpv || !ds->gsc || !ds->gpc) {
    ldsi_dstar_release(ds);
    ldsi_free(e, ds, sizeof *ds);
    goto nomem;
  }
  ds->start = start;
  ds->goal = goal;
  ds->last = start;
  ds->hk_param = ds->hk = zero_h ? LDS_H_ZERO : LDS_H_AUTO;
  ds->gzero = zero_h;
  ds->auto_scale = !(h_scale > 0.0);
  ds->scale = h_scale;
  ldsi_dstar_graph_reinit(ds);
  ds->status = LDS_RUNNING;
  ldsi_error_clear(err);
  return ds;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_dstar_new_graph: out of memory for %zu nodes and %u edges",
             n, (unsigned)graph->m);
  return NULL;
}

lds_DStar *lds_dstar_new_graph(const lds_Env *env, const lds_Graph *graph, uint32_t start,
                               uint32_t goal, const lds_DStarParams *params, lds_Error *err) {
  ldsi_Env e;
  lds_DStarParams p;
  bool zero_h;
  const char *hn;
  ldsi_env_resolve(&e, env);
  if (params)
    p = *params;
  else
    ldsi_dstar_params_defaults(&p);
  if (!graph) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new_graph: graph is NULL");
    return NULL;
  }
  if (!graph->frozen) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_new_graph: graph is not frozen (call lds_graph_freeze)");
    return NULL;
  }
  if (start >= graph->n) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new_graph: start node %lu out of range (expected 0..%ld)",
               (unsigned long)start, (long)graph->n - 1);
    return NULL;
  }
  if (goal >= graph->n) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new_graph: goal node %lu out of range (expected 0..%ld)",
               (unsigned long)goal, (long)graph->n - 1);
    return NULL;
  }
  hn = lds_heuristic_name(p.heuristic);
  switch (p.heuristic) {
    case LDS_H_AUTO: zero_h = graph->kind == LDS_COORDS_NONE; break;
    case LDS_H_ZERO: zero_h = true; break;
    case LDS_H_EUCLIDEAN:
      zero_h = false;
      if (graph->kind != LDS_COORDS_XY && graph->kind != LDS_COORDS_XYZ) goto bad_h;
      break;
    case LDS_H_GREAT_CIRCLE:
      zero_h = false;
      if (graph->kind != LDS_COORDS_LONLAT) goto bad_h;
      break;
    default:
      goto bad_h;
  }
  if (isnan(p.h_scale) || p.h_scale < 0.0 || isinf(p.h_scale)) {
    ldsi_error(err, LDS_E_ARG,
               "lds_dstar_new_graph: h_scale %g out of range (expected finite, >= 0)",
               ldsi_num(p.h_scale));
    return NULL;
  }
  if (p.n_layer_weights != 0) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new_graph: %d layer weights given (layers are grid-only; "
               "expected 0)", p.n_layer_weights);
    return NULL;
  }
  return graph_new(&e, graph, start, goal, zero_h, p.h_scale, err);
bad_h:
  ldsi_error(err, LDS_E_ARG,
             "lds_dstar_new_graph: heuristic '%s' cannot serve a graph with coordinates '%s' "
             "(expected auto, zero, euclidean for xy/xyz, great_circle for lonlat)",
             hn ? hn : "?", lds_coords_name(graph->kind));
  return NULL;
}

/* ---------------------------------------------------------- changes -- */

/* LDS_E_STATE with a message when ds is a grid search */
static bool not_graph(lds_DStar *ds, const char *fn) {
  if (ds->graph) return false;
  ldsi_msg(ds->errmsg, "%s: this search is on a grid (use the cell-based calls)", fn);
  return true;
}

/* queues node (its out-edges changed) for the next compute */
static void graph_touch(lds_DStar *ds, uint32_t node) {
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  if (ds->reinit_pending) return;
  ldsi_dstar_queue_change(ds, node);
}

lds_Status lds_dstar_update_edge(lds_DStar *ds, uint32_t edge) {
  const lds_Graph *g;
  if (not_graph(ds, "lds_dstar_update_edge")) return LDS_E_STATE;
  g = ds->graph;
  if (edge >= g->m) {
    ldsi_msg(ds->errmsg, "lds_dstar_update_edge: edge %lu out of range (expected 0..%ld)",
             (unsigned long)edge, (long)g->m - 1);
    return LDS_E_ARG;
  }
  {
    uint32_t from = 0;
    lds_graph_edge_ends(g, edge, &from, NULL);
    graph_touch(ds, from);
  }
  return LDS_OK;
}

lds_Status lds_dstar_update_node(lds_DStar *ds, uint32_t node) {
  const lds_Graph *g;
  uint32_t i;
  if (not_graph(ds, "lds_dstar_update_node")) return LDS_E_STATE;
  g = ds->graph;
  if (node >= g->n) {
    ldsi_msg(ds->errmsg, "lds_dstar_update_node: node %lu out of range (expected 0..%ld)",
             (unsigned long)node, (long)g->n - 1);
    return LDS_E_ARG;
  }
  graph_touch(ds, node); /* out-edges */
  for (i = g->roff[node]; i < g->roff[node + 1]; i++) graph_touch(ds, g->rsrc[i]);
  return LDS_OK;
}

static void on_graph_edit(void *ud, const lds_Graph *g, uint32_t edge, uint32_t from, uint32_t to,
                          double old_cost, double new_cost, uint64_t version) {
  lds_DStar *ds = (lds_DStar *)ud;
  (void)edge;
  (void)to;
  (void)old_cost;
  (void)new_cost;
  (void)version;
  if (g != ds->graph || from >= g->n) return;
  graph_touch(ds, from);
}

lds_Status lds_dstar_subscribe_graph(lds_DStar *ds, lds_Graph *graph) {
  lds_Graph **slot;
  lds_Status st;
  if (not_graph(ds, "lds_dstar_subscribe_graph")) return LDS_E_STATE;
  if (graph != ds->graph) {
    ldsi_msg(ds->errmsg,
             "lds_dstar_subscribe_graph: not the graph the search was created on");
    return LDS_E_ARG;
  }
  slot = &ds->glistened;
  if (*slot) return LDS_OK;
  st = lds_graph_listen(graph, on_graph_edit, ds);
  if (st != LDS_OK) {
    ldsi_msg(ds->errmsg,
             "lds_dstar_subscribe_graph: out of memory for the graph's listener list");
    return st;
  }
  *slot = graph;
  return LDS_OK;
}

lds_Status lds_dstar_unsubscribe_graph(lds_DStar *ds) {
  lds_Graph **slot = &ds->glistened;
  if (!*slot) {
    ldsi_msg(ds->errmsg, "lds_dstar_unsubscribe_graph: not subscribed");
    return LDS_E_STATE;
  }
  lds_graph_unlisten(*slot, on_graph_edit, ds);
  *slot = NULL;
  return LDS_OK;
}

lds_Status lds_dstar_move_start_node(lds_DStar *ds, uint32_t node) {
  const lds_Graph *g;
  if (not_graph(ds, "lds_dstar_move_start_node")) return LDS_E_STATE;
  g = ds->graph;
  if (node >= g->n) {
    ldsi_msg(ds->errmsg,
             "lds_dstar_move_start_node: node %lu out of range (expected 0..%ld)",
             (unsigned long)node, (long)g->n - 1);
    return LDS_E_ARG;
  }
  if (node == ds->start) return LDS_OK;
  ds->start = node; /* k_m grows by h(last, node) */
  ds->gkm += ldsi_dstar_graph_h(ds, ds->last, node);
  ds->last = node;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  return LDS_OK;
}

lds_Status lds_dstar_endpoint_nodes(const lds_DStar *ds, uint32_t *start, uint32_t *goal) {
  if (!ds->graph) return LDS_E_STATE;
  if (start) *start = ds->start;
  if (goal) *goal = ds->goal;
  return LDS_OK;
}

const lds_Graph *lds_dstar_graph(const lds_DStar *ds) { return ds->graph; }
