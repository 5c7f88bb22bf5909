/* SPDX-License-Identifier: MIT */
/*
** lds_search_graph.c — the A* family on graphs. "One A*, not two": a graph
** search is the same lds_Search as on grids — generation-stamped node
** records, the binary open list with its tie-breaking (smallest f, then larger
** g, then insertion order), budgets, stats, stale detection through the
** graph's version, partial paths — with its own expansion loop (ldsi_graph_ops) over
** the CSR out-edges instead of the grid's legal-move masks. The relaxation
** below is the grid loop's, rule for rule.
**
** Zero-cost edges: with the automatic scale the heuristic is consistent even
** across zero-cost edges (a zero-cost edge between distinct points forces
** scale 0; between coincident points h is equal at both ends), so a node's g
** is final when it is popped and closed nodes never need reopening; ties in
** f and g are broken by insertion order, which is deterministic.
**
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968 (A*); Pohl, AI 1(3)
**  1970 (weighted A*); Dijkstra, Numerische Mathematik 1 1959]
*/
#include "lds_graph_internal.h"
#include "lds_open_list.h"
#include "lds_search_internal.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define GS_INLINE static inline __attribute__((always_inline))
#else
#define GS_INLINE static inline
#endif

#define CLOCK_EVERY 64 /* expansions between two clock reads (as on grids) */

lds_Search *lds_search_new_graph(const lds_Env *env, const lds_Graph *graph, lds_Error *err) {
  ldsi_Env e;
  lds_Search *s;
  size_t n;
  ldsi_env_resolve(&e, env);
  if (!graph) {
    ldsi_error(err, LDS_E_ARG, "lds_search_new_graph: graph is NULL");
    return NULL;
  }
  if (!graph->frozen) {
    ldsi_error(err, LDS_E_STATE,
               "lds_search_new_graph: the graph is not frozen (call lds_graph_freeze first)");
    return NULL;
  }
  n = graph->n ? graph->n : 1;
  s = ldsi_search_alloc(&e, n, true, "lds_search_new_graph", err);
  if (!s) return NULL;
  s->space = LDSI_SPACE_GRAPH;
  s->grid = NULL;
  s->graph = graph;
  return s;
}

const lds_Graph *lds_search_graph(const lds_Search *s) {
  return s->space == LDSI_SPACE_GRAPH ? (const lds_Graph *)s->graph : NULL;
}

double lds_search_h_scale(const lds_Search *s) { return s->scale; }

/* ------------------------------------------------------------ the loop -- */

/* Raw heuristic value of v (before hw): distance for the coordinate
** heuristics, the callback's value for custom (validated: *bad set on a value
** that is negative, NaN or infinite). */
GS_INLINE double graph_h(lds_Search *s, const lds_Graph *g, const int hk, uint32_t v, bool *bad) {
  if (hk == LDS_H_ZERO) return 0.0;
  if (hk == LDS_H_CUSTOM) {
    double h = s->params.node_h(s->params.node_h_ud, v, s->goal);
    if (!(h >= 0.0) || isinf(h)) {
      ldsi_msg(s->errmsg,
               "lds_search_step: custom heuristic returned %g for node %lu (expected finite, >= 0)",
               ldsi_num(h), (unsigned long)v);
      *bad = true;
      return 0.0;
    }
    return h;
  }
  return ldsi_graph_dist(g, v, s->goal);
}

/* "Closeness" of a node to the goal, for partial paths, when h cannot give
** it: the coordinate distance, or 0 without coordinates (ties then keep the
** start). See graph_loop for when it is used. */
GS_INLINE double graph_closeness(const lds_Search *s, const lds_Graph *g, uint32_t v) {
  return g->dim ? ldsi_graph_dist(g, v, s->goal) : 0.0;
}

GS_INLINE lds_Status graph_loop(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0,
                                const int hk) {
  const lds_Graph *g = (const lds_Graph *)s->graph;
  const uint32_t *off = g->off, *dst = g->dst;
  const double *cost = g->cost;
  const uint32_t goal = s->goal;
  const double hw = s->hw, gk = s->gk;
  const bool reopen = s->reopen;
  const uint32_t gen = s->gen;
  /* The expanded node closest to the goal (partial paths). With
  ** params.partial on a graph with coordinates, by the coordinate distance,
  ** computed per expansion (exact): not read back from the entry, whose
  ** rounding could break a tie differently from Dijkstra's, and not a custom
  ** h, so every algorithm picks the same node (docs/graphs.md, "Partial
  ** paths"). Otherwise by h, read back from the popped open-list entry
  ** (h = (f - gk*g) / hw: no extra work), the best so far of a running
  ** query; with h = 0 nothing is measured and the start stays "closest", so
  ** Dijkstra is not slowed down for a feature it did not ask for. */
  const bool exact = s->params.partial && g->dim;
  const bool track = (hk != LDS_H_ZERO && hw > 0.0) || exact;
  ldsi_Node *nodes = s->nodes;
  uint64_t done = 0;
  bool bad = false;

  while (s->open_n > 0) {
    uint32_t u, e, end;
    double gu, du;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && done && (done % CLOCK_EVERY) == 0 &&
        s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    du = hk != LDS_H_ZERO && hw > 0.0 ? (ldsi_open_val(s->open[0].fk) - gk * ldsi_open_val(~s->open[0].k2)) / hw : 0.0;
    u = ldsi_open_pop(s);
    done++;
    s->stats.expansions++;
    if (u == goal) return LDS_FOUND;
    gu = nodes[u].g;
    if (track) {
      if (exact) du = graph_closeness(s, g, u);
      if (du < s->best_d || (du == s->best_d && (gu < s->best_g || (gu == s->best_g && u < s->best)))) {
        s->best = u;
        s->best_d = du;
        s->best_g = gu;
      }
    }
    for (e = off[u], end = off[u + 1]; e < end; e++) {
      uint32_t v = dst[e];
      ldsi_Node *nv = &nodes[v];
      double ng = gu + cost[e], h;
      if (!(ng < INFINITY)) continue; /* the path's cost overflows: not a path (as D* Lite) */
      if (nv->gen != gen) {
        h = graph_h(s, g, hk, v, &bad);
        if (bad) return LDS_E_CALLBACK;
        nv->gen = gen;
        nv->g = ng;
        nv->parent = u;
        nv->heap = LDSI_NONE;
        nv->aux = 0;
        ldsi_open_push(s, v, gk * ng + hw * h, ng);
        continue;
      }
      if (!(ng < nv->g)) continue; /* also skips self-loops: cost >= 0 */
      if (nv->heap == LDSI_CLOSED && !reopen) continue;
      h = graph_h(s, g, hk, v, &bad);
      if (bad) return LDS_E_CALLBACK;
      nv->g = ng;
      nv->parent = u;
      if (nv->heap == LDSI_CLOSED)
        ldsi_open_push(s, v, gk * ng + hw * h, ng);
      else
        ldsi_open_decrease(s, nv->heap, gk * ng + hw * h, ng);
    }
  }
  return LDS_NO_PATH;
}

static lds_Status graph_run(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  switch (s->hk) {
    case LDS_H_ZERO: return graph_loop(s, max_exp, budget_us, t0, LDS_H_ZERO);
    case LDS_H_CUSTOM: return graph_loop(s, max_exp, budget_us, t0, LDS_H_CUSTOM);
    default: return graph_loop(s, max_exp, budget_us, t0, LDS_H_EUCLIDEAN); /* and great circle */
  }
}

const ldsi_SearchOps ldsi_graph_ops = {LDS_ALGO_ASTAR, NULL, graph_run, NULL};

/* ---------------------------------------------------------- starting -- */

static lds_Status start_fail(lds_Search *s) {
  s->status = LDS_E_ARG;
  return LDS_E_ARG;
}

lds_Status lds_search_start_nodes(lds_Search *s, const lds_SearchParams *params, uint32_t start,
                                  uint32_t goal) {
  const lds_Graph *g;
  lds_SearchParams p;
  ldsi_Node *n;
  bool bad = false;
  double h0 = 0.0;
  if (params)
    p = *params;
  else
    lds_search_params_init(&p);
  s->errmsg[0] = '\0';
  memset(&s->stats, 0, sizeof s->stats);
  ldsi_open_clear(s);
  s->seq = 0;
  if (s->space != LDSI_SPACE_GRAPH) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: this search is on a grid (use lds_search_start)");
    return start_fail(s);
  }
  g = (const lds_Graph *)s->graph;
  if (start >= g->n || goal >= g->n) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: %s %lu out of range (expected 0..%ld)",
             start >= g->n ? "start" : "goal", (unsigned long)(start >= g->n ? start : goal),
             (long)g->n - 1);
    return start_fail(s);
  }
  if (lds_algo_name(p.algo) == NULL || p.algo == LDS_ALGO_JPS || p.algo == LDS_ALGO_JPS_PLUS ||
      p.algo == LDS_ALGO_THETA || p.algo == LDS_ALGO_LAZY_THETA) {
    ldsi_msg(s->errmsg,
             "lds_search_start_nodes: algorithm %d (%s) does not run on graphs (expected astar, "
             "dijkstra, wastar or greedy)", (int)p.algo,
             lds_algo_name(p.algo) ? lds_algo_name(p.algo) : "unknown");
    return start_fail(s);
  }
  if (lds_heuristic_name(p.heuristic) == NULL) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: unknown heuristic %d", (int)p.heuristic);
    return start_fail(s);
  }
  if (p.weight == 0.0) p.weight = p.algo == LDS_ALGO_WASTAR ? 1.5 : 1.0; /* the default */
  if (!(p.weight >= 1.0) || isinf(p.weight)) {
    ldsi_msg(s->errmsg,
             "lds_search_start_nodes: weight %g out of range (expected 0 for the default, or "
             "finite >= 1)",
             ldsi_num(p.weight));
    return start_fail(s);
  }
  if (isnan(p.h_scale) || p.h_scale < 0.0 || isinf(p.h_scale)) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: h_scale %g out of range (expected finite, >= 0)",
             ldsi_num(p.h_scale));
    return start_fail(s);
  }
  if (p.n_layer_weights != 0 || p.edge_cost) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: %s are for grids (expected none on a graph; "
             "change graph costs with lds_graph_set_edge_cost)",
             p.edge_cost ? "edge_cost callbacks" : "layer weights");
    return start_fail(s);
  }
  /* resolve the heuristic against the graph's coordinates */
  s->hk = p.heuristic;
  if (s->hk == LDS_H_AUTO)
    s->hk = g->kind == LDS_COORDS_LONLAT ? LDS_H_GREAT_CIRCLE
            : g->dim                     ? LDS_H_EUCLIDEAN
                                         : LDS_H_ZERO;
  if (p.algo == LDS_ALGO_DIJKSTRA) s->hk = LDS_H_ZERO;
  if ((s->hk == LDS_H_EUCLIDEAN && g->kind != LDS_COORDS_XY && g->kind != LDS_COORDS_XYZ) ||
      (s->hk == LDS_H_GREAT_CIRCLE && g->kind != LDS_COORDS_LONLAT) ||
      s->hk == LDS_H_MANHATTAN || s->hk == LDS_H_OCTILE || s->hk == LDS_H_CHEBYSHEV) {
    ldsi_msg(s->errmsg,
             "lds_search_start_nodes: heuristic '%s' does not fit a graph with coordinates '%s' "
             "(expected auto, zero, custom%s)", lds_heuristic_name(s->hk), lds_coords_name(g->kind),
             g->kind == LDS_COORDS_LONLAT ? ", great_circle"
             : g->dim                     ? ", euclidean"
                                          : "");
    return start_fail(s);
  }
  if (s->hk == LDS_H_CUSTOM && !p.node_h) {
    ldsi_msg(s->errmsg, "lds_search_start_nodes: heuristic 'custom' needs params.node_h");
    return start_fail(s);
  }
  s->params = p;
  s->nweights = 0;

  /* scale: the user's, or the largest consistent one (cached per version) */
  s->scale = 0.0;
  if (s->hk == LDS_H_EUCLIDEAN || s->hk == LDS_H_GREAT_CIRCLE) {
    s->scale = p.h_scale > 0.0 ? p.h_scale : lds_graph_h_scale(g);
    if (s->scale == 0.0) s->hk = LDS_H_ZERO; /* h would be 0 everywhere */
  }
  s->gk = p.algo == LDS_ALGO_GREEDY ? 0.0 : 1.0;
  s->hw = (s->hk == LDS_H_CUSTOM ? 1.0 : s->scale) *
          (p.algo == LDS_ALGO_ASTAR || p.algo == LDS_ALGO_DIJKSTRA ? 1.0 : p.weight);
  /* The automatic scale keeps h consistent: no reopening. A user scale or a
  ** custom heuristic may be inconsistent, so optimal A* reopens closed nodes;
  ** weighted and greedy searches never reopen (as on grids). */
  s->reopen = (p.algo == LDS_ALGO_ASTAR || p.algo == LDS_ALGO_DIJKSTRA) &&
              s->hk != LDS_H_ZERO && (s->hk == LDS_H_CUSTOM || p.h_scale > 0.0);

  s->gen++;
  if (s->gen == 0) {
    memset(s->nodes, 0, s->nnodes * sizeof(ldsi_Node));
    s->gen = 1;
  }
  s->ops = &ldsi_graph_ops;
  s->start = start;
  s->goal = goal;
  s->gx = s->gy = 0;
  s->version = g->version;
  s->best = start;
  s->best_g = 0.0;
  h0 = graph_h(s, g, s->hk, start, &bad);
  s->best_d = p.partial && g->dim ? graph_closeness(s, g, start) : s->hk != LDS_H_ZERO ? h0 : 0.0;
  s->start_blocked = false;
  if (bad) {
    s->status = LDS_E_CALLBACK;
    return LDS_E_CALLBACK;
  }
  n = ldsi_node(s, start);
  n->g = 0.0;
  ldsi_open_push(s, start, s->hw * h0, 0.0);
  s->status = LDS_RUNNING;
  return LDS_OK;
}
