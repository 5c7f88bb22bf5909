/* SPDX-License-Identifier: MIT */
/*
** lds_graph.c — graph building, freezing into CSR, edge-cost edits,
** listeners, the consistent heuristic scale, grid -> graph conversion.
*/
#include "lds_graph_internal.h"
#include "lds_grid_internal.h"

#include <stdio.h>
#include <string.h>

static const char *const coords_names[] = {"none", "xy", "xyz", "lonlat"};

const char *lds_coords_name(lds_Coords c) {
  if ((int)c < 0 || (int)c > (int)LDS_COORDS_LONLAT) return NULL;
  return coords_names[c];
}

static int dim_of(lds_Coords c) {
  return c == LDS_COORDS_NONE ? 0 : c == LDS_COORDS_XYZ ? 3 : 2;
}

/* ---------------------------------------------------------- lifetime -- */

lds_Graph *lds_graph_new(const lds_Env *env, lds_Coords coords, lds_Error *err) {
  ldsi_Env e;
  lds_Graph *g;
  ldsi_env_resolve(&e, env);
  if (lds_coords_name(coords) == NULL) {
    ldsi_error(err, LDS_E_ARG,
               "lds_graph_new: coords %d out of range (expected LDS_COORDS_NONE, _XY, _XYZ or "
               "_LONLAT)", (int)coords);
    return NULL;
  }
  g = (lds_Graph *)ldsi_calloc(&e, 1, sizeof *g);
  if (!g) {
    ldsi_error(err, LDS_E_NOMEM, "lds_graph_new: out of memory (%zu bytes)", sizeof *g);
    return NULL;
  }
  g->env = e;
  atomic_init(&g->scale, 0.0);
  atomic_init(&g->scale_tag, 0);
  ldsi_spin_init(&g->listen_lock);
  g->kind = coords;
  g->dim = dim_of(coords);
  ldsi_error_clear(err);
  return g;
}

void lds_graph_free(lds_Graph *g) {
  const ldsi_Env *e;
  if (!g) return;
  e = &g->env;
  ldsi_free(e, g->xyz, g->node_cap * (size_t)g->dim * sizeof(double));
  ldsi_free(e, g->coslat, (size_t)g->n * sizeof(double));
  ldsi_free(e, g->elist, g->edge_cap * sizeof(lds_GraphEdge));
  ldsi_free(e, g->off, ((size_t)g->n + 1) * sizeof(uint32_t));
  ldsi_free(e, g->dst, (size_t)g->m * sizeof(uint32_t));
  ldsi_free(e, g->cost, (size_t)g->m * sizeof(double));
  ldsi_free(e, g->roff, ((size_t)g->n + 1) * sizeof(uint32_t));
  ldsi_free(e, g->rsrc, (size_t)g->m * sizeof(uint32_t));
  ldsi_free(e, g->redge, (size_t)g->m * sizeof(uint32_t));
  ldsi_free(e, g->listeners, (size_t)g->listener_cap * sizeof(ldsi_GraphListener));
  ldsi_free(e, g, sizeof *g);
}

/* ---------------------------------------------------------- building -- */

static lds_Status frozen_error(lds_Graph *g, const char *fn) {
  ldsi_msg(g->errmsg, "%s: the graph is frozen (topology and coordinates are fixed)", fn);
  return LDS_E_STATE;
}

static lds_Status grow_nodes(lds_Graph *g, size_t need) {
  size_t ncap;
  double *nx;
  if (need <= g->node_cap || g->dim == 0) {
    if (g->dim == 0 && need > g->node_cap) g->node_cap = need;
    return LDS_OK;
  }
  ncap = g->node_cap ? g->node_cap : 16;
  while (ncap < need) ncap *= 2;
  nx = (double *)ldsi_realloc(&g->env, g->xyz, g->node_cap * (size_t)g->dim * sizeof(double),
                              ncap * (size_t)g->dim * sizeof(double));
  if (!nx) {
    ldsi_msg(g->errmsg, "lds_graph: out of memory for %zu nodes", ncap);
    return LDS_E_NOMEM;
  }
  g->xyz = nx;
  g->node_cap = ncap;
  return LDS_OK;
}

static lds_Status grow_edges(lds_Graph *g, size_t need) {
  size_t ncap;
  lds_GraphEdge *ne;
  if (need <= g->edge_cap) return LDS_OK;
  ncap = g->edge_cap ? g->edge_cap : 16;
  while (ncap < need) ncap *= 2;
  ne = (lds_GraphEdge *)ldsi_realloc(&g->env, g->elist, g->edge_cap * sizeof(lds_GraphEdge),
                                     ncap * sizeof(lds_GraphEdge));
  if (!ne) {
    ldsi_msg(g->errmsg, "lds_graph: out of memory for %zu edges", ncap);
    return LDS_E_NOMEM;
  }
  g->elist = ne;
  g->edge_cap = ncap;
  return LDS_OK;
}

lds_Status lds_graph_reserve(lds_Graph *g, size_t nodes, size_t edges) {
  lds_Status st;
  if (g->frozen) return frozen_error(g, "lds_graph_reserve");
  if (nodes > LDS_GRAPH_MAX_IDS || edges > LDS_GRAPH_MAX_IDS) {
    ldsi_msg(g->errmsg, "lds_graph_reserve: %zu nodes / %zu edges exceed the limit %u", nodes,
             edges, (unsigned)LDS_GRAPH_MAX_IDS);
    return LDS_E_LIMIT;
  }
  st = grow_nodes(g, (size_t)g->n + nodes);
  if (st == LDS_OK) st = grow_edges(g, (size_t)g->m + edges);
  return st;
}

static lds_Status check_coords(lds_Graph *g, const char *fn, uint32_t id, double x, double y,
                               double z) {
  if (g->dim == 0) return LDS_OK;
  if (!isfinite(x) || !isfinite(y) || (g->dim == 3 && !isfinite(z))) {
    ldsi_msg(g->errmsg, "%s: node %lu has coordinates (%g, %g, %g) (expected finite)", fn,
             (unsigned long)id, ldsi_num(x), ldsi_num(y), ldsi_num(z));
    return LDS_E_ARG;
  }
  if (g->kind == LDS_COORDS_LONLAT && (x < -180.0 || x > 180.0 || y < -90.0 || y > 90.0)) {
    ldsi_msg(g->errmsg,
             "%s: node %lu has longitude %g, latitude %g (expected -180..180, -90..90 degrees)",
             fn, (unsigned long)id, ldsi_num(x), ldsi_num(y));
    return LDS_E_ARG;
  }
  return LDS_OK;
}

static void put_coords(lds_Graph *g, uint32_t id, double x, double y, double z) {
  double *p;
  if (g->dim == 0) return;
  p = g->xyz + (size_t)id * (size_t)g->dim;
  p[0] = x;
  p[1] = y;
  if (g->dim == 3) p[2] = z;
}

lds_Status lds_graph_add_nodes(lds_Graph *g, size_t count, uint32_t *first) {
  lds_Status st;
  if (g->frozen) return frozen_error(g, "lds_graph_add_nodes");
  if (count > (size_t)LDS_GRAPH_MAX_IDS - g->n) {
    ldsi_msg(g->errmsg, "lds_graph_add_nodes: %zu more nodes exceed the limit of %u nodes", count,
             (unsigned)LDS_GRAPH_MAX_IDS);
    return LDS_E_LIMIT;
  }
  st = grow_nodes(g, (size_t)g->n + count);
  if (st != LDS_OK) return st;
  if (g->dim) memset(g->xyz + (size_t)g->n * (size_t)g->dim, 0, count * (size_t)g->dim * sizeof(double));
  if (first) *first = g->n;
  g->n += (uint32_t)count;
  return LDS_OK;
}

lds_Status lds_graph_add_node(lds_Graph *g, double x, double y, double z, uint32_t *id) {
  lds_Status st;
  if (g->frozen) return frozen_error(g, "lds_graph_add_node");
  st = check_coords(g, "lds_graph_add_node", g->n, x, y, z);
  if (st != LDS_OK) return st;
  st = lds_graph_add_nodes(g, 1, id);
  if (st != LDS_OK) return st;
  put_coords(g, g->n - 1, x, y, z);
  return LDS_OK;
}

lds_Status lds_graph_set_coords(lds_Graph *g, uint32_t id, double x, double y, double z) {
  lds_Status st;
  if (g->frozen) return frozen_error(g, "lds_graph_set_coords");
  if (id >= g->n) {
    ldsi_msg(g->errmsg, "lds_graph_set_coords: node %lu out of range (expected 0..%ld)",
             (unsigned long)id, (long)g->n - 1);
    return LDS_E_ARG;
  }
  st = check_coords(g, "lds_graph_set_coords", id, x, y, z);
  if (st == LDS_OK) put_coords(g, id, x, y, z);
  return st;
}

static lds_Status check_edge(lds_Graph *g, const char *fn, const char *what, uint32_t a,
                             uint32_t b, double cost) {
  if (a >= g->n || b >= g->n) {
    ldsi_msg(g->errmsg, "%s: %s%s %lu out of range (expected 0..%ld)", fn, what,
             a >= g->n ? "source" : "target", (unsigned long)(a >= g->n ? a : b),
             (long)g->n - 1);
    return LDS_E_ARG;
  }
  if (!(cost >= 0.0) || isinf(cost)) {
    ldsi_msg(g->errmsg, "%s: %scost %g of %lu->%lu out of range (expected finite, >= 0)", fn,
             what, ldsi_num(cost), (unsigned long)a, (unsigned long)b);
    return LDS_E_ARG;
  }
  return LDS_OK;
}

lds_Status lds_graph_add_edge(lds_Graph *g, uint32_t a, uint32_t b, double cost) {
  lds_Status st;
  if (g->frozen) return frozen_error(g, "lds_graph_add_edge");
  st = check_edge(g, "lds_graph_add_edge", "", a, b, cost);
  if (st != LDS_OK) return st;
  if (g->m >= LDS_GRAPH_MAX_IDS) {
    ldsi_msg(g->errmsg, "lds_graph_add_edge: more than %u edges", (unsigned)LDS_GRAPH_MAX_IDS);
    return LDS_E_LIMIT;
  }
  st = grow_edges(g, (size_t)g->m + 1);
  if (st != LDS_OK) return st;
  g->elist[g->m].from = a;
  g->elist[g->m].to = b;
  g->elist[g->m].cost = cost;
  g->m++;
  return LDS_OK;
}

/* Builds both CSRs with a stable counting sort, so the out-edges of a node
** keep their insertion order (and in-edges are ordered by forward edge id). */
lds_Status lds_graph_freeze(lds_Graph *g, lds_Error *err) {
  const ldsi_Env *e = &g->env;
  size_t n1 = (size_t)g->n + 1, m = g->m, k;
  uint32_t *off, *dst, *roff, *rsrc, *redge, *fill;
  double *cost, *coslat = NULL, *xyz = g->xyz;
  if (g->frozen) {
    ldsi_error_clear(err);
    return LDS_OK;
  }
  off = (uint32_t *)ldsi_calloc(e, n1, sizeof(uint32_t));
  roff = (uint32_t *)ldsi_calloc(e, n1, sizeof(uint32_t));
  fill = (uint32_t *)ldsi_alloc(e, n1 * sizeof(uint32_t));
  dst = (uint32_t *)ldsi_alloc(e, (m ? m : 1) * sizeof(uint32_t));
  cost = (double *)ldsi_alloc(e, (m ? m : 1) * sizeof(double));
  rsrc = (uint32_t *)ldsi_alloc(e, (m ? m : 1) * sizeof(uint32_t));
  redge = (uint32_t *)ldsi_alloc(e, (m ? m : 1) * sizeof(uint32_t));
  if (g->kind == LDS_COORDS_LONLAT) coslat = (double *)ldsi_alloc(e, (g->n ? g->n : 1) * sizeof(double));
  /* shrink the coordinate array to its exact size */
  if (g->dim && g->node_cap != g->n && g->n) {
    xyz = (double *)ldsi_realloc(e, g->xyz, g->node_cap * (size_t)g->dim * sizeof(double),
                                 (size_t)g->n * (size_t)g->dim * sizeof(double));
    if (xyz) {
      g->xyz = xyz;
      g->node_cap = g->n;
    }
  }
  if (!off || !roff || !fill || !dst || !cost || !rsrc || !redge || (g->dim && g->n && !xyz) ||
      (g->kind == LDS_COORDS_LONLAT && !coslat)) {
    ldsi_free(e, off, n1 * sizeof(uint32_t));
    ldsi_free(e, roff, n1 * sizeof(uint32_t));
    ldsi_free(e, fill, n1 * sizeof(uint32_t));
    ldsi_free(e, dst, (m ? m : 1) * sizeof(uint32_t));
    ldsi_free(e, cost, (m ? m : 1) * sizeof(double));
    ldsi_free(e, rsrc, (m ? m : 1) * sizeof(uint32_t));
    ldsi_free(e, redge, (m ? m : 1) * sizeof(uint32_t));
    ldsi_free(e, coslat, (g->n ? g->n : 1) * sizeof(double));
    ldsi_msg(g->errmsg, "lds_graph_freeze: out of memory for %lu nodes and %lu edges",
             (unsigned long)g->n, (unsigned long)g->m);
    return ldsi_error(err, LDS_E_NOMEM, "%s", g->errmsg);
  }
  for (k = 0; k < m; k++) {
    off[g->elist[k].from + 1]++;
    roff[g->elist[k].to + 1]++;
  }
  for (k = 1; k < n1; k++) {
    off[k] += off[k - 1];
    roff[k] += roff[k - 1];
  }
  memcpy(fill, off, n1 * sizeof(uint32_t));
  for (k = 0; k < m; k++) {
    uint32_t p = fill[g->elist[k].from]++;
    dst[p] = g->elist[k].to;
    cost[p] = g->elist[k].cost;
  }
  memcpy(fill, roff, n1 * sizeof(uint32_t));
  for (k = 0; k < g->n; k++) { /* forward ids in increasing order: stable */
    uint32_t ed;
    for (ed = off[k]; ed < off[k + 1]; ed++) {
      uint32_t p = fill[dst[ed]]++;
      rsrc[p] = (uint32_t)k;
      redge[p] = ed;
    }
  }
  ldsi_free(e, fill, n1 * sizeof(uint32_t));
  /* edges arrays are allocated with at least one slot; keep their true size
  ** bookkeeping simple by reallocating empty graphs to 0 below */
  if (m == 0) {
    ldsi_free(e, dst, sizeof(uint32_t));
    ldsi_free(e, cost, sizeof(double));
    ldsi_free(e, rsrc, sizeof(uint32_t));
    ldsi_free(e, redge, sizeof(uint32_t));
    dst = rsrc = redge = NULL;
    cost = NULL;
  }
  if (coslat) {
    for (k = 0; k < g->n; k++) coslat[k] = cos(g->xyz[2 * k + 1] * LDSI_DEG);
    if (g->n == 0) {
      ldsi_free(e, coslat, sizeof(double));
      coslat = NULL;
    }
  }
  ldsi_free(e, g->elist, g->edge_cap * sizeof(lds_GraphEdge));
  g->elist = NULL;
  g->edge_cap = 0;
  g->off = off;
  g->dst = dst;
  g->cost = cost;
  g->roff = roff;
  g->rsrc = rsrc;
  g->redge = redge;
  g->coslat = coslat;
  g->frozen = true;
  atomic_store_explicit(&g->scale_tag, 0, memory_order_relaxed);
  ldsi_error_clear(err);
  return LDS_OK;
}

lds_Graph *lds_graph_from_edges(const lds_Env *env, uint32_t n_nodes, lds_Coords coords,
                                const double *xyz, const lds_GraphEdge *edges, size_t n_edges,
                                lds_Error *err) {
  lds_Graph *g;
  size_t k;
  uint32_t i;
  if (n_nodes > LDS_GRAPH_MAX_IDS || n_edges > LDS_GRAPH_MAX_IDS) {
    ldsi_error(err, LDS_E_LIMIT, "lds_graph_from_edges: %lu nodes / %zu edges exceed the limit %u",
               (unsigned long)n_nodes, n_edges, (unsigned)LDS_GRAPH_MAX_IDS);
    return NULL;
  }
  if ((n_edges && !edges) || (coords != LDS_COORDS_NONE && n_nodes && !xyz)) {
    ldsi_error(err, LDS_E_ARG, "lds_graph_from_edges: %s is NULL", !xyz ? "xyz" : "edges");
    return NULL;
  }
  g = lds_graph_new(env, coords, err);
  if (!g) return NULL;
  if (lds_graph_reserve(g, n_nodes, n_edges) != LDS_OK ||
      lds_graph_add_nodes(g, n_nodes, NULL) != LDS_OK)
    goto fail;
  for (i = 0; i < n_nodes && g->dim; i++) {
    const double *p = xyz + (size_t)i * (size_t)g->dim;
    if (check_coords(g, "lds_graph_from_edges", i, p[0], p[1], g->dim == 3 ? p[2] : 0.0) !=
        LDS_OK) {
      ldsi_error(err, LDS_E_ARG, "%s", g->errmsg);
      lds_graph_free(g);
      return NULL;
    }
    put_coords(g, i, p[0], p[1], g->dim == 3 ? p[2] : 0.0);
  }
  for (k = 0; k < n_edges; k++) {
    char what[40];
    snprintf(what, sizeof what, "edge %zu: ", k);
    if (check_edge(g, "lds_graph_from_edges", what, edges[k].from, edges[k].to, edges[k].cost) !=
        LDS_OK) {
      ldsi_error(err, LDS_E_ARG, "%s", g->errmsg);
      lds_graph_free(g);
      return NULL;
    }
    g->elist[k] = edges[k];
  }
  g->m = (uint32_t)n_edges;
  if (lds_graph_freeze(g, err) != LDS_OK) {
    lds_graph_free(g);
    return NULL;
  }
  return g;
fail:
  ldsi_error(err, LDS_E_NOMEM, "%s", g->errmsg);
  lds_graph_free(g);
  return NULL;
}

lds_Graph *lds_graph_from_grid(const lds_Env *env, const lds_Grid *grid, lds_Error *err) {
  static const double len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                LDSI_SQRT2};
  lds_Graph *g;
  size_t cells, edges = 0, p;
  int32_t x, y;
  ptrdiff_t off[8];
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_graph_from_grid: grid is NULL");
    return NULL;
  }
  cells = (size_t)grid->w * (size_t)grid->h;
  if (cells > LDS_GRAPH_MAX_IDS) {
    ldsi_error(err, LDS_E_LIMIT, "lds_graph_from_grid: %zu cells exceed the limit of %u nodes",
               cells, (unsigned)LDS_GRAPH_MAX_IDS);
    return NULL;
  }
  for (p = 0; p < grid->pcells; p++) edges += (size_t)__builtin_popcount(grid->nbr[p]);
  g = lds_graph_new(env, LDS_COORDS_XY, err);
  if (!g) return NULL;
  if (lds_graph_reserve(g, cells, edges) != LDS_OK ||
      lds_graph_add_nodes(g, cells, NULL) != LDS_OK) {
    ldsi_error(err, LDS_E_NOMEM, "lds_graph_from_grid: %s", g->errmsg);
    lds_graph_free(g);
    return NULL;
  }
  ldsi_grid_offsets(grid, off);
  for (y = 0; y < grid->h; y++)
    for (x = 0; x < grid->w; x++) {
      size_t pi = ldsi_grid_pidx(grid, x, y);
      uint32_t id = (uint32_t)y * (uint32_t)grid->w + (uint32_t)x;
      unsigned m = grid->nbr[pi];
      int d;
      put_coords(g, id, x + 0.5, y + 0.5, 0.0);
      for (d = 0; d < 8; d++) {
        size_t q;
        lds_GraphEdge *ed;
        if (!(m & (1u << d))) continue;
        q = (size_t)((ptrdiff_t)pi + off[d]);
        ed = &g->elist[g->m++];
        ed->from = id;
        ed->to = (uint32_t)(y + ldsi_dir_dy[d]) * (uint32_t)grid->w +
                 (uint32_t)(x + ldsi_dir_dx[d]);
        ed->cost = len[d] * (double)grid->cost[q];
      }
    }
  if (lds_graph_freeze(g, err) != LDS_OK) {
    lds_graph_free(g);
    return NULL;
  }
  return g;
}

/* ----------------------------------------------------------- editing -- */

static void notify(lds_Graph *g, uint32_t edge, uint32_t from, double old_cost) {
  int i;
  g->version++;
  for (i = 0; i < g->nlisteners; i++)
    g->listeners[i].fn(g->listeners[i].ud, g, edge, from, g->dst[edge], old_cost, g->cost[edge],
                       g->version);
}

static uint32_t edge_source(const lds_Graph *g, uint32_t edge) {
  uint32_t lo = 0, hi = g->n; /* largest u with off[u] <= edge */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (g->off[mid] <= edge)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static lds_Status set_cost(lds_Graph *g, const char *fn, uint32_t edge, uint32_t from,
                           double cost) {
  double old = g->cost[edge], d;
  if (!(cost >= 0.0) || isinf(cost)) {
    ldsi_msg(g->errmsg, "%s: cost %g of %lu->%lu out of range (expected finite, >= 0)", fn,
             ldsi_num(cost),
             (unsigned long)from, (unsigned long)g->dst[edge]);
    return LDS_E_ARG;
  }
  g->cost[edge] = cost;
  /* Keep the scale cache across the edit when it can be updated in O(1):
  ** a lowered cost can only lower the minimum; a raised cost changes it only
  ** when this edge was the tight one (then it is recomputed lazily). An
  ** edit has the graph to itself (docs/threads.md): relaxed order. */
  if (atomic_load_explicit(&g->scale_tag, memory_order_relaxed) == g->version + 1 && g->dim) {
    bool keep = true;
    double sc = atomic_load_explicit(&g->scale, memory_order_relaxed);
    d = ldsi_graph_dist(g, from, g->dst[edge]);
    if (d > 0.0) {
      double rnew = cost / d * (1.0 - 1e-9), rold = old / d * (1.0 - 1e-9);
      if (cost < old) {
        if (rnew < sc) atomic_store_explicit(&g->scale, rnew, memory_order_relaxed);
      } else if (cost > old && rold <= sc) {
        keep = false;
      }
    }
    /* tagged with the version notify() is about to set, or dropped */
    atomic_store_explicit(&g->scale_tag, keep ? g->version + 2 : 0, memory_order_relaxed);
  }
  notify(g, edge, from, old);
  return LDS_OK;
}

lds_Status lds_graph_set_edge_cost_id(lds_Graph *g, uint32_t edge, double cost) {
  if (!g->frozen) {
    ldsi_msg(g->errmsg, "lds_graph_set_edge_cost_id: the graph is not frozen (call lds_graph_freeze)");
    return LDS_E_STATE;
  }
  if (edge >= g->m) {
    ldsi_msg(g->errmsg, "lds_graph_set_edge_cost_id: edge %lu out of range (expected 0..%ld)",
             (unsigned long)edge, (long)g->m - 1);
    return LDS_E_ARG;
  }
  return set_cost(g, "lds_graph_set_edge_cost_id", edge, edge_source(g, edge), cost);
}

lds_Status lds_graph_set_edge_cost(lds_Graph *g, uint32_t a, uint32_t b, double cost) {
  uint32_t e;
  if (!g->frozen) {
    ldsi_msg(g->errmsg, "lds_graph_set_edge_cost: the graph is not frozen (call lds_graph_freeze)");
    return LDS_E_STATE;
  }
  if (a >= g->n || b >= g->n) {
    ldsi_msg(g->errmsg, "lds_graph_set_edge_cost: %s %lu out of range (expected 0..%ld)",
             a >= g->n ? "source" : "target", (unsigned long)(a >= g->n ? a : b), (long)g->n - 1);
    return LDS_E_ARG;
  }
  e = lds_graph_find_edge(g, a, b);
  if (e == LDS_GRAPH_NONE) {
    ldsi_msg(g->errmsg, "lds_graph_set_edge_cost: no edge %lu->%lu", (unsigned long)a,
             (unsigned long)b);
    return LDS_E_ARG;
  }
  return set_cost(g, "lds_graph_set_edge_cost", e, a, cost);
}

/* ----------------------------------------------------------- queries -- */

bool lds_graph_frozen(const lds_Graph *g) { return g->frozen; }
uint32_t lds_graph_node_count(const lds_Graph *g) { return g->n; }
uint32_t lds_graph_edge_count(const lds_Graph *g) { return g->m; }
lds_Coords lds_graph_coords(const lds_Graph *g) { return g->kind; }
uint64_t lds_graph_version(const lds_Graph *g) { return g->version; }
const char *lds_graph_errmsg(const lds_Graph *g) { return g->errmsg; }

bool lds_graph_node_coords(const lds_Graph *g, uint32_t id, double *x, double *y, double *z) {
  const double *p;
  if (id >= g->n || g->dim == 0) return false;
  p = g->xyz + (size_t)id * (size_t)g->dim;
  if (x) *x = p[0];
  if (y) *y = p[1];
  if (z) *z = g->dim == 3 ? p[2] : 0.0;
  return true;
}

uint32_t lds_graph_out_edges(const lds_Graph *g, uint32_t u, const uint32_t **targets,
                             const double **costs, uint32_t *first_edge) {
  if (!g->frozen || u >= g->n) return 0;
  if (targets) *targets = g->dst ? g->dst + g->off[u] : NULL;
  if (costs) *costs = g->cost ? g->cost + g->off[u] : NULL;
  if (first_edge) *first_edge = g->off[u];
  return g->off[u + 1] - g->off[u];
}

uint32_t lds_graph_in_edges(const lds_Graph *g, uint32_t v, const uint32_t **sources,
                            const uint32_t **edges) {
  if (!g->frozen || v >= g->n) return 0;
  if (sources) *sources = g->rsrc ? g->rsrc + g->roff[v] : NULL;
  if (edges) *edges = g->redge ? g->redge + g->roff[v] : NULL;
  return g->roff[v + 1] - g->roff[v];
}

uint32_t lds_graph_find_edge(const lds_Graph *g, uint32_t a, uint32_t b) {
  uint32_t e;
  if (!g->frozen || a >= g->n || b >= g->n) return LDS_GRAPH_NONE;
  for (e = g->off[a]; e < g->off[a + 1]; e++)
    if (g->dst[e] == b) return e;
  return LDS_GRAPH_NONE;
}

double lds_graph_edge_cost(const lds_Graph *g, uint32_t edge) {
  if (!g->frozen || edge >= g->m) return NAN;
  return g->cost[edge];
}

bool lds_graph_edge_ends(const lds_Graph *g, uint32_t edge, uint32_t *from, uint32_t *to) {
  if (!g->frozen || edge >= g->m) return false;
  if (from) *from = edge_source(g, edge);
  if (to) *to = g->dst[edge];
  return true;
}

double lds_graph_distance(const lds_Graph *g, uint32_t a, uint32_t b) {
  if (a >= g->n || b >= g->n || g->dim == 0) return 0.0;
  if (g->kind == LDS_COORDS_LONLAT && !g->coslat) { /* not frozen yet */
    const double *p = g->xyz + 2 * (size_t)a, *q = g->xyz + 2 * (size_t)b;
    return ldsi_haversine(p[0], p[1], cos(p[1] * LDSI_DEG), q[0], q[1], cos(q[1] * LDSI_DEG));
  }
  return ldsi_graph_dist(g, a, b);
}

/* The minimum over edges of cost / distance. With h(v) = k * d(v, t) and d
** a metric, d(u,t) <= d(u,v) + d(v,t), so k * d(u,v) <= c(u,v) on every edge
** makes h consistent: h(u) <= c(u,v) + h(v). The 1e-9 shrink absorbs the
** rounding of the distance computations (relative error ~1e-15). */
double lds_graph_h_scale(const lds_Graph *g) {
  /* The cache is logically const, hence the cast, and atomic: searches of
  ** several threads may fill it at once, each storing the same value from
  ** costs no thread writes meanwhile (docs/threads.md). A reader that sees
  ** the tag (acquire) sees the scale stored before it (release). */
  lds_Graph *mg = (lds_Graph *)(uintptr_t)g;
  double k = INFINITY;
  uint32_t u, e;
  if (!g->frozen || g->dim == 0) return 0.0;
  if (atomic_load_explicit(&g->scale_tag, memory_order_acquire) == g->version + 1)
    return atomic_load_explicit(&g->scale, memory_order_relaxed);
  for (u = 0; u < g->n && k > 0.0; u++)
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      double d = ldsi_graph_dist(g, u, g->dst[e]);
      double r;
      if (!(d > 0.0)) continue; /* coincident endpoints: any k is consistent */
      r = g->cost[e] / d;
      if (r < k) k = r;
      if (k == 0.0) break;
    }
  if (k == INFINITY) k = 0.0;
  k *= 1.0 - 1e-9;
  atomic_store_explicit(&mg->scale, k, memory_order_relaxed);
  atomic_store_explicit(&mg->scale_tag, g->version + 1, memory_order_release);
  return k;
}

size_t lds_graph_mem_used(const lds_Graph *g, size_t *node_bytes, size_t *edge_bytes) {
  size_t nb, eb, lb;
  if (g->frozen) {
    nb = 2 * ((size_t)g->n + 1) * sizeof(uint32_t) + (size_t)g->n * (size_t)g->dim * sizeof(double) +
         (g->coslat ? (size_t)g->n * sizeof(double) : 0);
    eb = (size_t)g->m * (3 * sizeof(uint32_t) + sizeof(double));
  } else {
    nb = g->node_cap * (size_t)g->dim * sizeof(double);
    eb = g->edge_cap * sizeof(lds_GraphEdge);
  }
  if (node_bytes) *node_bytes = nb;
  if (edge_bytes) *edge_bytes = eb;
  /* the listener list may grow in another reader's D* Lite subscription */
  ldsi_spin_lock(&((lds_Graph *)(uintptr_t)g)->listen_lock);
  lb = (size_t)g->listener_cap * sizeof(ldsi_GraphListener);
  ldsi_spin_unlock(&((lds_Graph *)(uintptr_t)g)->listen_lock);
  return sizeof *g + nb + eb + lb;
}

/* --------------------------------------------------------- listeners -- */

/* Under listen_lock: D* Lite searches on a shared graph subscribe from their
** own threads (docs/threads.md). notify() reads the list without it: an edit
** has the graph to itself. */
lds_Status lds_graph_listen(lds_Graph *g, lds_GraphListener fn, void *ud) {
  lds_Status st = LDS_OK;
  if (!fn) {
    ldsi_msg(g->errmsg, "lds_graph_listen: fn is NULL");
    return LDS_E_ARG;
  }
  ldsi_spin_lock(&g->listen_lock);
  if (g->nlisteners == g->listener_cap) {
    int ncap = g->listener_cap ? g->listener_cap * 2 : 4;
    ldsi_GraphListener *nl = (ldsi_GraphListener *)ldsi_realloc(
        &g->env, g->listeners, (size_t)g->listener_cap * sizeof(ldsi_GraphListener),
        (size_t)ncap * sizeof(ldsi_GraphListener));
    if (!nl) {
      st = LDS_E_NOMEM;
      goto done;
    }
    g->listeners = nl;
    g->listener_cap = ncap;
  }
  g->listeners[g->nlisteners].fn = fn;
  g->listeners[g->nlisteners].ud = ud;
  g->nlisteners++;
done:
  ldsi_spin_unlock(&g->listen_lock);
  return st;
}

lds_Status lds_graph_unlisten(lds_Graph *g, lds_GraphListener fn, void *ud) {
  int i;
  ldsi_spin_lock(&g->listen_lock);
  for (i = 0; i < g->nlisteners; i++)
    if (g->listeners[i].fn == fn && g->listeners[i].ud == ud) {
      memmove(g->listeners + i, g->listeners + i + 1,
              (size_t)(g->nlisteners - i - 1) * sizeof(ldsi_GraphListener));
      g->nlisteners--;
      ldsi_spin_unlock(&g->listen_lock);
      return LDS_OK;
    }
  ldsi_spin_unlock(&g->listen_lock);
  ldsi_msg(g->errmsg, "lds_graph_unlisten: no such listener");
  return LDS_E_ARG;
}
