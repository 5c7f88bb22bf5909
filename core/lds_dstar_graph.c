/*
** lds_dstar_graph.c — D* Lite on graphs: the constructor's argument checks,
** edge and node change notifications, the graph listener and the node-based
** calls. The search itself (keys, queue, ComputeShortestPath, path walk) is
** the one in lds_dstar.c, over the graph's forward and reverse CSR.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4]
*/
#include "lds_dstar_internal.h"
#include "lds_graph_internal.h"

#include <math.h>

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
    lds_dstar_params_init(&p);
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
  return ldsi_dstar_graph_new(&e, graph, start, goal, zero_h, p.h_scale, err);
bad_h:
  ldsi_error(err, LDS_E_ARG,
             "lds_dstar_new_graph: heuristic '%s' cannot serve a graph with coordinates '%s' "
             "(expected auto, zero, euclidean for xy/xyz, great_circle for lonlat)",
             hn ? hn : "?", lds_coords_name(graph->kind));
  return NULL;
}

/* LDS_E_STATE with a message when ds is a grid search */
static bool not_graph(lds_DStar *ds, const char *fn) {
  if (ldsi_dstar_graph(ds)) return false;
  ldsi_msg(ldsi_dstar_errbuf(ds), "%s: this search is on a grid (use the cell-based calls)", fn);
  return true;
}

lds_Status lds_dstar_update_edge(lds_DStar *ds, uint32_t edge) {
  const lds_Graph *g;
  if (not_graph(ds, "lds_dstar_update_edge")) return LDS_E_STATE;
  g = ldsi_dstar_graph(ds);
  if (edge >= g->m) {
    ldsi_msg(ldsi_dstar_errbuf(ds), "lds_dstar_update_edge: edge %lu out of range (expected 0..%ld)",
             (unsigned long)edge, (long)g->m - 1);
    return LDS_E_ARG;
  }
  {
    uint32_t from = 0;
    lds_graph_edge_ends(g, edge, &from, NULL);
    ldsi_dstar_graph_touch(ds, from);
  }
  return LDS_OK;
}

lds_Status lds_dstar_update_node(lds_DStar *ds, uint32_t node) {
  const lds_Graph *g;
  uint32_t i;
  if (not_graph(ds, "lds_dstar_update_node")) return LDS_E_STATE;
  g = ldsi_dstar_graph(ds);
  if (node >= g->n) {
    ldsi_msg(ldsi_dstar_errbuf(ds), "lds_dstar_update_node: node %lu out of range (expected 0..%ld)",
             (unsigned long)node, (long)g->n - 1);
    return LDS_E_ARG;
  }
  ldsi_dstar_graph_touch(ds, node); /* out-edges */
  for (i = g->roff[node]; i < g->roff[node + 1]; i++) ldsi_dstar_graph_touch(ds, g->rsrc[i]);
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
  if (g != ldsi_dstar_graph(ds) || from >= g->n) return;
  ldsi_dstar_graph_touch(ds, from);
}

lds_Status lds_dstar_subscribe_graph(lds_DStar *ds, lds_Graph *graph) {
  lds_Graph **slot;
  lds_Status st;
  if (not_graph(ds, "lds_dstar_subscribe_graph")) return LDS_E_STATE;
  if (graph != ldsi_dstar_graph(ds)) {
    ldsi_msg(ldsi_dstar_errbuf(ds),
             "lds_dstar_subscribe_graph: not the graph the search was created on");
    return LDS_E_ARG;
  }
  slot = ldsi_dstar_glistened(ds);
  if (*slot) return LDS_OK;
  st = lds_graph_listen(graph, on_graph_edit, ds);
  if (st != LDS_OK) {
    ldsi_msg(ldsi_dstar_errbuf(ds),
             "lds_dstar_subscribe_graph: out of memory for the graph's listener list");
    return st;
  }
  *slot = graph;
  return LDS_OK;
}

lds_Status lds_dstar_unsubscribe_graph(lds_DStar *ds) {
  lds_Graph **slot = ldsi_dstar_glistened(ds);
  if (!*slot) {
    ldsi_msg(ldsi_dstar_errbuf(ds), "lds_dstar_unsubscribe_graph: not subscribed");
    return LDS_E_STATE;
  }
  lds_graph_unlisten(*slot, on_graph_edit, ds);
  *slot = NULL;
  return LDS_OK;
}

lds_Status lds_dstar_move_start_node(lds_DStar *ds, uint32_t node) {
  const lds_Graph *g;
  if (not_graph(ds, "lds_dstar_move_start_node")) return LDS_E_STATE;
  g = ldsi_dstar_graph(ds);
  if (node >= g->n) {
    ldsi_msg(ldsi_dstar_errbuf(ds),
             "lds_dstar_move_start_node: node %lu out of range (expected 0..%ld)",
             (unsigned long)node, (long)g->n - 1);
    return LDS_E_ARG;
  }
  ldsi_dstar_graph_move(ds, node);
  return LDS_OK;
}

lds_Status lds_dstar_next_node(const lds_DStar *ds, uint32_t *node) {
  if (!ldsi_dstar_graph(ds)) return LDS_E_STATE;
  return ldsi_dstar_graph_next(ds, node);
}

lds_Status lds_dstar_endpoint_nodes(const lds_DStar *ds, uint32_t *start, uint32_t *goal) {
  int32_t s, g;
  if (!ldsi_dstar_graph(ds)) return LDS_E_STATE;
  lds_dstar_endpoints(ds, &s, NULL, &g, NULL);
  if (start) *start = (uint32_t)s;
  if (goal) *goal = (uint32_t)g;
  return LDS_OK;
}

const lds_Graph *lds_dstar_graph(const lds_DStar *ds) { return ldsi_dstar_graph(ds); }
