/* SPDX-License-Identifier: MIT */
/*
** lds_search.c — the search object: a resumable state machine (new, free,
** start, step, status, path) over generation-stamped node records, so a
** query's set-up is O(1) in the map size. The algorithm of a query runs
** through its operations table (ldsi_SearchOps, lds_search_internal.h): the
** grid A* family (lds_astar.c), JPS / JPS+ (lds_jps.c), graph searches
** (lds_search_graph.c); the open list is lds_open_list.h.
*/
#include "lds_cost_view_internal.h"
#include "lds_jps.h"
#include "lds_open_list.h"
#include "lds_search_internal.h"
#include "lds_components_internal.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- names -- */

static const char *const algo_names[] = {"astar", "dijkstra", "wastar", "greedy",
                                         "jps",   "jps+",     "theta",  "lazytheta"};
static const char *const heuristic_names[] = {"auto", "zero", "manhattan", "octile", "euclidean",
                                              "chebyshev", "great_circle", "custom"};

const char *lds_algo_name(lds_Algo a) {
  if ((int)a < 0 || (int)a >= (int)(sizeof algo_names / sizeof *algo_names)) return NULL;
  return algo_names[a];
}

lds_Status lds_algo_parse(const char *name, lds_Algo *out) {
  int i;
  if (!name) return LDS_E_ARG;
  for (i = 0; i < (int)(sizeof algo_names / sizeof *algo_names); i++)
    if (strcmp(name, algo_names[i]) == 0) {
      if (out) *out = (lds_Algo)i;
      return LDS_OK;
    }
  return LDS_E_ARG;
}

const char *lds_heuristic_name(lds_Heuristic h) {
  if ((int)h < 0 || (int)h >= (int)(sizeof heuristic_names / sizeof *heuristic_names)) return NULL;
  return heuristic_names[h];
}

lds_Status lds_heuristic_parse(const char *name, lds_Heuristic *out) {
  int i;
  if (!name) return LDS_E_ARG;
  for (i = 0; i < (int)(sizeof heuristic_names / sizeof *heuristic_names); i++)
    if (strcmp(name, heuristic_names[i]) == 0) {
      if (out) *out = (lds_Heuristic)i;
      return LDS_OK;
    }
  return LDS_E_ARG;
}


double lds_heuristic_distance(lds_Heuristic h, int32_t dx, int32_t dy) {
  return ldsi_hdist((int)h, dx, dy);
}

void lds_search_params_init(lds_SearchParams *p) {
  memset(p, 0, sizeof *p);
  p->algo = LDS_ALGO_ASTAR;
  p->heuristic = LDS_H_AUTO;
  p->weight = 0.0; /* the default: 1.5 for weighted A*, 1 otherwise */
}


/* ---------------------------------------------------------- lifetime -- */

/* Fills s->prune (see lds_search_internal.h): for each move (dx, dy) from a
** parent p to u and each legal-move mask of p, the directions d from u whose
** cell v is p itself or is reached from p by a legal move. Such a v never
** improves through u: p was expanded with its final g before u and relaxed
** v, so g(v) <= g(p) + c(p, v) <= g(p) + c(p, u) + c(u, v) = g(u) + c(u, v),
** as a move costs 1 or sqrt(2) (<= 1 + 1). */
static void prune_build(lds_Search *s) {
  int k, np, d, e;
  for (k = 0; k < 9; k++) {
    int pdx = k % 3 - 1, pdy = k / 3 - 1; /* p -> u */
    int from_p[8]; /* for each d: the direction p -> v (v = u + dir(d)), 8 when v == p,
                   ** -1 when v is not next to p */
    for (d = 0; d < 8; d++) {
      int vx = pdx + ldsi_dir_dx[d], vy = pdy + ldsi_dir_dy[d]; /* v - p */
      from_p[d] = vx == 0 && vy == 0 ? 8 : -1;
      for (e = 0; e < 8; e++)
        if (ldsi_dir_dx[e] == vx && ldsi_dir_dy[e] == vy) from_p[d] = e;
    }
    for (np = 0; np < 256; np++) {
      uint8_t bits = 0;
      for (d = 0; d < 8; d++)
        if (from_p[d] == 8 || (from_p[d] >= 0 && ((np >> from_p[d]) & 1)))
          bits |= (uint8_t)(1u << d);
      s->prune[k][np] = (k == 4) ? 0 : bits; /* k = 4: no move */
    }
  }
}

/* Allocates a search with n node records, its open list and stack; the
** space-specific constructors fill in the rest. */
lds_Search *ldsi_search_alloc(const ldsi_Env *e, size_t n, bool with_nodes, const char *fn,
                              lds_Error *err) {
  lds_Search *s = (lds_Search *)ldsi_calloc(e, 1, sizeof *s);
  if (!s) goto nomem;
  s->env = *e;
  s->nnodes = n;
  /* one record more than nodes: the "no move" record of the uniform loop (see
  ** relax_uniform), never a node of the space */
  if (with_nodes) s->nodes = (ldsi_Node *)ldsi_calloc(e, n + 1, sizeof(ldsi_Node));
  s->nodes_lazy = !with_nodes;
  s->open_cap = n; /* a node is in the open list at most once */
  s->open = (ldsi_Open *)ldsi_alloc(e, (s->open_cap + 4) * sizeof(ldsi_Open));
  s->buf = (ldsi_Open *)ldsi_alloc(e, LDSI_BUF_CAP * sizeof(ldsi_Open));
  if ((with_nodes && !s->nodes) || !s->open || !s->buf) {
    lds_search_free(s);
    goto nomem;
  }
  s->gen = 0; /* records start at gen 0; the first query uses gen 1 */
  s->status = LDS_E_STATE;
  lds_search_params_init(&s->params);
  ldsi_error_clear(err);
  return s;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s: out of memory for %zu node records (%zu bytes)", fn, n,
             n * ((with_nodes ? sizeof(ldsi_Node) : 0) + sizeof(ldsi_Open)) +
                 LDSI_BUF_CAP * sizeof(ldsi_Open));
  return NULL;
}

lds_Status ldsi_search_need_nodes(lds_Search *s) {
  if (s->nodes) return LDS_OK;
  s->nodes = (ldsi_Node *)ldsi_calloc(&s->env, s->nnodes + 1, sizeof(ldsi_Node));
  if (!s->nodes) {
    ldsi_msg(s->errmsg, "lds_search_start: out of memory for %zu node records (%zu bytes)",
             s->nnodes + 1, (s->nnodes + 1) * sizeof(ldsi_Node));
    return LDS_E_NOMEM;
  }
  return LDS_OK;
}

lds_Search *lds_search_new(const lds_Env *env, const lds_Grid *grid, lds_Error *err) {
  return ldsi_search_new_layout(env, grid, -1, err);
}

lds_Search *ldsi_search_new_layout(const lds_Env *env, const lds_Grid *grid, int paged,
                                   lds_Error *err) {
  ldsi_Env e;
  lds_Search *s;
  ldsi_env_resolve(&e, env);
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_search_new: grid is NULL");
    return NULL;
  }
  if (grid->pcells >= (size_t)LDSI_INBUF) {
    ldsi_error(err, LDS_E_LIMIT, "lds_search_new: grid of %zu cells exceeds the %u node limit",
               grid->pcells, (unsigned)LDSI_INBUF - 1);
    return NULL;
  }
  /* the ldsi_Node records wait for a query that needs them: most run the
  ** exact loop, on the ldsi_Hot records alone */
  s = ldsi_search_alloc(&e, grid->pcells, false, "lds_search_new", err);
  if (!s) return NULL;
  s->space = LDSI_SPACE_GRID;
  s->grid = grid;
  if (paged < 0) paged = (uint64_t)grid->pcells + 1 >= LDSI_PAGED_MIN_NODES;
  if (paged) {
    if (!ldsi_pages_init(s, grid->pcells + 1)) {
      lds_search_free(s);
      ldsi_error(err, LDS_E_NOMEM, "lds_search_new: out of memory for the page table of %zu cells",
                 grid->pcells + 1);
      return NULL;
    }
  } else {
    s->hot = (ldsi_Hot *)ldsi_calloc(&e, grid->pcells + 1, sizeof(ldsi_Hot));
  }
  if (!s->hot && !s->hot_tab) {
    lds_search_free(s);
    ldsi_error(err, LDS_E_NOMEM,
               "lds_search_new: out of memory for %zu records of the exact A* loop (%zu bytes)",
               grid->pcells + 1, (grid->pcells + 1) * sizeof(ldsi_Hot));
    return NULL;
  }
  prune_build(s);
  return s;
}

void lds_search_free(lds_Search *s) {
  if (!s) return;
  if (s->algo_free) s->algo_free(s);
  lds_cost_view_release(s->view);
  if (s->nodes) ldsi_free(&s->env, s->nodes, (s->nnodes + 1) * sizeof(ldsi_Node));
  if (s->hot) ldsi_free(&s->env, s->hot, (s->nnodes + 1) * sizeof(ldsi_Hot));
  ldsi_pages_free(s);
  ldsi_free(&s->env, s->open, (s->open_cap + 4) * sizeof(ldsi_Open));
  ldsi_free(&s->env, s->buf, LDSI_BUF_CAP * sizeof(ldsi_Open));
  ldsi_free(&s->env, s, sizeof *s);
}

lds_Status lds_search_reserve(lds_Search *s) {
  lds_Status st = ldsi_search_need_nodes(s);
  if (st < 0) return st;
  if (!ldsi_pages_reserve(s)) {
    ldsi_msg(s->errmsg, "lds_search_reserve: out of memory for %zu pages of node records",
             s->hot_npages);
    return LDS_E_NOMEM;
  }
  return LDS_OK;
}

size_t lds_search_mem_used(const lds_Search *s) {
  return sizeof *s + (s->nodes ? (s->nnodes + 1) * sizeof(ldsi_Node) : 0) +
         (s->open_cap + 4 + LDSI_BUF_CAP) * sizeof(ldsi_Open) + s->algo_bytes +
         (s->hot ? (s->nnodes + 1) * sizeof(ldsi_Hot) : 0) + ldsi_pages_bytes(s);
}

const lds_Grid *lds_search_grid(const lds_Search *s) { return s->grid; }

/* ---------------------------------------------------------- starting -- */

/* The query's cost view (lds_cost_view.h): the one the search holds if it
** still serves these weights, else the grid's (created on first use), built
** to the end if it is not ready yet (O(cells), once per view; O(1) after).
** Rejects a cell whose cost under the weights is <= 0 or NaN, naming the
** first such cell and the layer that drove it there. */
static lds_Status use_view(lds_Search *s) {
  lds_CostView *v = s->view;
  lds_Status st;
  if (v && !ldsi_cost_view_matches(v, s->weights, s->nweights)) {
    lds_cost_view_release(v);
    s->view = v = NULL;
  }
  if (!v) {
    v = ldsi_cost_view_lookup(s->grid, s->weights, s->nweights, s->errmsg);
    if (!v) return LDS_E_NOMEM;
    s->view = v;
  }
  st = lds_cost_view_build_step(v, NULL);
  if (st < 0) {
    ldsi_msg(s->errmsg, "lds_search_start: %s", lds_cost_view_errmsg(v));
    return st;
  }
  if (v->ninvalid) {
    ldsi_cost_view_invalid_msg(v, s->errmsg);
    return LDS_E_ARG;
  }
  s->eff = v->eff;
  s->eff_uniform = v->uniform;
  s->scale = v->scale;
  s->view_scale_epoch = atomic_load_explicit(&v->scale_epoch, memory_order_relaxed);
  s->view_mode_epoch = atomic_load_explicit(&v->mode_epoch, memory_order_relaxed);
  return LDS_OK;
}

/* Whether the set-up the query took from its cost view is out of date (see
** "Searches in progress" in lds_cost_view.h). */
static bool view_moved(const lds_Search *s) {
  const lds_CostView *v = s->view;
  return atomic_load_explicit(&((lds_CostView *)(uintptr_t)v)->mode_epoch, memory_order_relaxed) !=
             s->view_mode_epoch ||
         (s->view_auto_scale &&
          atomic_load_explicit(&((lds_CostView *)(uintptr_t)v)->scale_epoch,
                               memory_order_relaxed) != s->view_scale_epoch);
}

/* New generation: every record becomes fresh without touching it. */
static void new_generation(lds_Search *s) {
  s->gen++;
  ldsi_pages_recycle(s); /* paged records: the last query's pages back to the pool */
  if (s->gen == 0) { /* wrapped after 2^32 queries: clear once */
    if (s->nodes) memset(s->nodes, 0, (s->nnodes + 1) * sizeof(ldsi_Node));
    if (s->hot) memset(s->hot, 0, (s->nnodes + 1) * sizeof(ldsi_Hot));
    ldsi_pages_clear(s);
    s->gen = 1;
  }
}

/* A failed start cancels the previous query too: its records become fresh,
** so no best-so-far path of the old query can be returned. */
static lds_Status start_error(lds_Search *s, lds_Status st) {
  new_generation(s);
  s->status = st;
  return st;
}

/* Checks the query's parameters p (the weight default filled in) and the
** start and goal, and copies the layer weights into s; LDS_OK, or LDS_E_ARG
** with the message in s->errmsg. */
static lds_Status start_check(lds_Search *s, lds_SearchParams *p, int32_t sx, int32_t sy,
                              int32_t gx, int32_t gy) {
  const lds_Grid *g = s->grid;
  int i;
  if (!lds_grid_in_bounds(g, sx, sy)) {
    ldsi_msg(s->errmsg, "lds_search_start: start (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)sx, (long)sy, (long)g->w, (long)g->h);
    return LDS_E_ARG;
  }
  if (!lds_grid_in_bounds(g, gx, gy)) {
    ldsi_msg(s->errmsg, "lds_search_start: goal (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)gx, (long)gy, (long)g->w, (long)g->h);
    return LDS_E_ARG;
  }
  if (lds_algo_name(p->algo) == NULL) {
    ldsi_msg(s->errmsg, "lds_search_start: unknown algorithm %d", (int)p->algo);
    return LDS_E_ARG;
  }
  if (lds_heuristic_name(p->heuristic) == NULL) {
    ldsi_msg(s->errmsg, "lds_search_start: unknown heuristic %d", (int)p->heuristic);
    return LDS_E_ARG;
  }
  if (p->heuristic > LDS_H_CHEBYSHEV) {
    ldsi_msg(s->errmsg, "lds_search_start: heuristic '%s' is for graphs (expected auto, zero, "
             "manhattan, octile, euclidean or chebyshev)", lds_heuristic_name(p->heuristic));
    return LDS_E_ARG;
  }
  if (p->weight == 0.0) p->weight = p->algo == LDS_ALGO_WASTAR ? 1.5 : 1.0; /* the default */
  if (!(p->weight >= 1.0) || isinf(p->weight)) {
    ldsi_msg(s->errmsg,
             "lds_search_start: weight %g out of range (expected 0 for the default, or finite >= 1)",
             ldsi_num(p->weight));
    return LDS_E_ARG;
  }
  if (isnan(p->h_scale) || p->h_scale < 0.0 || isinf(p->h_scale)) {
    ldsi_msg(s->errmsg, "lds_search_start: h_scale %g out of range (expected finite, >= 0)",
             ldsi_num(p->h_scale));
    return LDS_E_ARG;
  }
  if (p->n_layer_weights < 0 || p->n_layer_weights > g->nlayers || p->n_layer_weights > 16 ||
      (p->n_layer_weights > 0 && !p->layer_weights)) {
    ldsi_msg(s->errmsg,
             "lds_search_start: %d layer weights for a grid with %d layers (expected 0..%d)",
             p->n_layer_weights, g->nlayers, g->nlayers < 16 ? g->nlayers : 16);
    return LDS_E_ARG;
  }
  s->nweights = 0;
  for (i = 0; i < p->n_layer_weights; i++) {
    if (isnan(p->layer_weights[i]) || isinf(p->layer_weights[i])) {
      ldsi_msg(s->errmsg, "lds_search_start: weight of layer '%s' is %g (expected finite)",
               g->layers[i].name, ldsi_num(p->layer_weights[i]));
      return LDS_E_ARG;
    }
    s->weights[i] = p->layer_weights[i];
    s->wlayers[i] = g->layers[i].data;
    if (p->layer_weights[i] != 0.0) s->nweights = i + 1;
  }
  return LDS_OK;
}

/* Whether a connectivity index of the grid (lds_components.h) proves the
** started query has no path: its blocking set must lie within the layers the
** query weights positively (their +inf cells are the ones it cannot enter). */
static bool start_separated(const lds_Search *s) {
  int32_t sx, sy, gx, gy;
  ldsi_grid_pxy(s->grid, s->start, &sx, &sy);
  ldsi_grid_pxy(s->grid, s->goal, &gx, &gy);
  return ldsi_components_separated(s->grid, ldsi_components_query_mask(s->weights, s->nweights), sx,
                                   sy, gx, gy);
}

/* lds_search_start, with the landmark heuristic lh of
** ldsi_search_start_landmarks or NULL */
static lds_Status search_start(lds_Search *s, const lds_SearchParams *params, int32_t sx, int32_t sy,
                               int32_t gx, int32_t gy, const ldsi_LmHeur *lh) {
  const lds_Grid *g = s->grid;
  lds_SearchParams p;
  ldsi_Node *n;
  bool exact; /* the query runs the exact A* loop (ldsi_Hot records alone) */
  if (params)
    p = *params;
  else
    lds_search_params_init(&p);
  s->errmsg[0] = '\0';
  if (s->space != LDSI_SPACE_GRID) {
    ldsi_msg(s->errmsg, "lds_search_start: this search is on a graph (use lds_search_start_nodes)");
    return start_error(s, LDS_E_ARG);
  }
  memset(&s->stats, 0, sizeof s->stats);
  ldsi_open_clear(s);
  s->seq = 0;
  {
    lds_Status st = start_check(s, &p, sx, sy, gx, gy);
    if (st < 0) return start_error(s, st);
  }
  p.layer_weights = NULL; /* the copy in s->weights is what the loop reads */
  s->params = p;

  /* heuristic: resolved kind, scale and weight */
  s->hk = p.heuristic;
  if (s->hk == LDS_H_AUTO) /* octile where diagonal moves exist, else manhattan */
    s->hk = g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER ? LDS_H_OCTILE : LDS_H_MANHATTAN;
  if (p.algo == LDS_ALGO_DIJKSTRA) s->hk = LDS_H_ZERO;
  s->view_auto_scale = s->nweights > 0 && !(p.h_scale > 0.0);
  if (s->nweights > 0) { /* validates every cell, sets s->eff and the scale, even with h_scale */
    lds_Status st = use_view(s);
    if (st < 0) return start_error(s, st);
  } else if (s->view) { /* no weights: the view may be dropped and freed */
    lds_cost_view_release(s->view);
    s->view = NULL;
    s->eff = NULL;
  }
  if (p.h_scale > 0.0) {
    s->scale = p.h_scale;
  } else if (s->nweights > 0) {
    /* s->scale set above */
  } else {
    s->scale = (double)lds_grid_min_cost(g);
  }
  s->gk = p.algo == LDS_ALGO_GREEDY ? 0.0 : 1.0;
  s->hw = s->scale * (p.algo == LDS_ALGO_ASTAR || p.algo == LDS_ALGO_DIJKSTRA ? 1.0 : p.weight);
  /* The built-in heuristics scaled by the smallest cell cost are consistent,
  ** so a closed node never improves; with a user scale or an edge callback
  ** that is not guaranteed, and optimal A* must reopen. Weighted and greedy
  ** searches never reopen (the usual bounded-suboptimal variant). */
  s->reopen = (p.algo == LDS_ALGO_ASTAR || p.algo == LDS_ALGO_DIJKSTRA) &&
              (p.h_scale > 0.0 || p.edge_cost != NULL);

  /* exact h keys (ldsi_exact_h_key): the largest power-of-two scale that
  ** keeps every octile distance (< N*sqrt(2) on an N-cell side) under 2^32,
  ** if it leaves two units between distinct distances (1/(2*sqrt(2)*N+1));
  ** grids up to 23168 cells a side have it */
  {
    double nmax = (double)(g->w > g->h ? g->w : g->h), sc = 1.0;
    while (nmax * 1.4143 * (sc * 2.0) < 4294967295.0) sc *= 2.0;
    s->hq_scale = sc / (2.0 * 1.4143 * nmax + 1.0) >= 2.0 ? sc : 0.0;
    /* lo*hq_c < N*sqrt(2)*S*2^16 < 2^47: no overflow */
    s->hq_a = (uint64_t)(s->hq_scale * 65536.0);
    s->hq_c = (uint64_t)floor(LDSI_SQRT2 * s->hq_scale * 65536.0);
  }
  new_generation(s);
  s->hot_query = false; /* set below for a query of the exact A* loop */
  s->run_mode = -1;      /* the A* loop picks it at its first slice */
  s->ops = p.algo == LDS_ALGO_JPS || p.algo == LDS_ALGO_JPS_PLUS       ? &ldsi_jps_ops
           : p.algo == LDS_ALGO_THETA || p.algo == LDS_ALGO_LAZY_THETA ? &ldsi_theta_ops
                                                                       : &ldsi_astar_ops;
  if (s->ops->start) {
    lds_Status st = s->ops->start(s); /* may choose other ops (JPS: its variant, or A*) */
    if (st < 0) return start_error(s, st);
  }
  s->lm = lh;
  if (lh) {
    if (p.algo != LDS_ALGO_ASTAR || p.edge_cost) {
      ldsi_msg(s->errmsg, "ldsi_search_start_landmarks: the landmark heuristic is for optimal A* "
                          "without an edge callback");
      s->lm = NULL;
      return start_error(s, LDS_E_ARG);
    }
    s->ops = &ldsi_astar_lm_ops;
    s->reopen = true; /* a closed cell may improve by the rounding of g and f (lds_astar.c) */
  }
  exact = s->ops == &ldsi_astar_ops && ldsi_astar_runs_exact(s);
  s->hot_query = exact; /* its records are the ldsi_Hot ones (grid_run_exact) */
  if (!s->nodes && !exact) {
    lds_Status st = ldsi_search_need_nodes(s); /* the first query on ldsi_Node records */
    if (st < 0) return start_error(s, st);
  }
  s->start = ldsi_search_cell_id(s, sx, sy);
  s->goal = ldsi_search_cell_id(s, gx, gy);
  s->gx = gx;
  s->gy = gy;
  s->version = g->version;
  s->best_d = 0.0;
  ldsi_best_set(s, ldsi_d2(gx - sx, gy - sy), 0.0, s->start);
  s->start_blocked = g->blocked[s->start] != 0;
  if (s->start_blocked) {
    ldsi_msg(s->errmsg, "lds_search_start: start (%ld,%ld) is blocked", (long)sx, (long)sy);
    s->status = LDS_NO_PATH;
    return LDS_OK;
  }
  if (s->nodes) {
    n = ldsi_node(s, s->start);
    n->g = 0.0;
    n->nsd = 0;
  }
  if (s->hot || s->hot_tab) { /* the start's record for the exact loop (no parent) */
    ldsi_Hot *h = ldsi_hot_claim(s, s->start);
    h->gen = s->gen;
    h->nsd = LDSI_HOT_NODIR << 60;
  }
  if (g->blocked[s->goal]) {
    /* never reached: with params.partial the search runs to exhaustion, as
    ** for a free goal walled in, and its partial path ends at the reachable
    ** cell closest to the goal; without, no_path at once, and the partial
    ** path is the start alone (nothing was expanded) */
    ldsi_msg(s->errmsg, "lds_search_start: goal (%ld,%ld) is blocked", (long)gx, (long)gy);
    if (!p.partial) {
      s->status = LDS_NO_PATH;
      return LDS_OK;
    }
  }
  if (g->components && !p.partial && s->start != s->goal && start_separated(s)) {
    ldsi_msg(s->errmsg, "lds_search_start: goal (%ld,%ld) is in another component than the start",
             (long)gx, (long)gy);
    s->status = LDS_NO_PATH;
    s->hot_query = false;
    return LDS_OK;
  }
  {
    double f = s->hw * ldsi_hdist(s->hk, gx - sx, gy - sy);
    /* the start's entry; its heap position goes to the records of the loop
    ** that runs (the exact loop recomputes the start's keys: expand_keys) */
    if (exact)
      ldsi_open_push_x(s, s->start, f, 0.0, 0,
                       s->hot_tab ? LDSI_KEYS_EXACT_PAGED : LDSI_KEYS_EXACT_HOT);
    else
      ldsi_open_push(s, s->start, f, 0.0);
  }
  s->status = LDS_RUNNING;
  return LDS_OK;
}

lds_Status lds_search_start(lds_Search *s, const lds_SearchParams *params, int32_t sx, int32_t sy,
                            int32_t gx, int32_t gy) {
  return search_start(s, params, sx, sy, gx, gy, NULL);
}

lds_Status ldsi_search_start_landmarks(lds_Search *s, const lds_SearchParams *params, int32_t sx,
                                       int32_t sy, int32_t gx, int32_t gy, const ldsi_LmHeur *lh) {
  return search_start(s, params, sx, sy, gx, gy, lh);
}

lds_Status lds_search_step(lds_Search *s, const lds_Budget *budget) {
  uint64_t t0, max_exp = budget ? budget->max_expansions : 0, us = budget ? budget->budget_us : 0;
  lds_Status st;
  if (s->status != LDS_RUNNING) {
    if (s->status == LDS_E_STATE && !s->errmsg[0])
      ldsi_msg(s->errmsg, "lds_search_step: no query started (call lds_search_start first)");
    return s->status;
  }
  if (s->version != (s->space == LDSI_SPACE_GRAPH ? lds_graph_version((const lds_Graph *)s->graph)
                                                  : s->grid->version)) {
    ldsi_msg(s->errmsg,
             "lds_search_step: the %s changed since the query started (version %llu, now %llu)",
             s->space == LDSI_SPACE_GRAPH ? "graph" : "grid", (unsigned long long)s->version,
             (unsigned long long)(s->space == LDSI_SPACE_GRAPH
                                      ? lds_graph_version((const lds_Graph *)s->graph)
                                      : s->grid->version));
    s->status = LDS_E_STALE;
    return s->status;
  }
  if (s->view && view_moved(s)) {
    ldsi_msg(s->errmsg,
             "lds_search_step: the cost view of the query's layer weights changed its heuristic "
             "scale or cost mode since the query started (start the query again)");
    s->status = LDS_E_STALE;
    return s->status;
  }
  t0 = s->env.clock(s->env.clock_ud);
  st = s->ops->run(s, max_exp, us, t0);
  s->stats.elapsed_us += s->env.clock(s->env.clock_ud) - t0;
  s->status = st;
  return st;
}

lds_Status lds_search_step_expansions(lds_Search *s, uint64_t max_expansions) {
  lds_Budget b;
  b.max_expansions = max_expansions;
  b.budget_us = 0;
  return lds_search_step(s, &b);
}

lds_Status lds_search_step_budget(lds_Search *s, const lds_Budget *budget) {
  return lds_search_step(s, budget);
}

lds_Status lds_search_run(lds_Search *s) { return lds_search_step(s, NULL); }

lds_Status lds_search_status(const lds_Search *s) { return s->status; }

void lds_search_stats(const lds_Search *s, lds_Stats *out) { *out = s->stats; }

const char *lds_search_errmsg(const lds_Search *s) { return s->errmsg; }

double lds_search_cost(const lds_Search *s) {
  if (s->status != LDS_FOUND) return -1.0;
  if (s->hot_query) return ldsi_hot_g(ldsi_hot_at(s, s->goal)->nsd);
  return s->nodes[s->goal].g;
}

/* ------------------------------------------------------------ result -- */

/* The parent of node v in the current query (LDSI_NONE at the start): from
** the 16-byte records' direction when the exact loop ran, else the record's
** parent. off: the grid's neighbour offsets (ldsi_grid_offsets). */
static uint32_t parent_of(const lds_Search *s, uint32_t v, const ptrdiff_t *off) {
  uint64_t d;
  if (!s->hot_query) return s->nodes[v].parent;
  d = ldsi_hot_at(s, v)->nsd >> 60;
  return d == LDSI_HOT_NODIR ? LDSI_NONE : (uint32_t)((ptrdiff_t)v - off[d]);
}

/* Walks parents from `end` back to the start into a new path. */
static lds_Path *build_path(const lds_Search *s, uint32_t end, uint32_t flags, lds_Error *err) {
  lds_Env env;
  const lds_Grid *g = s->grid;
  size_t n = 0, k;
  uint32_t v;
  uint32_t *cells;
  lds_Path *p;
  ptrdiff_t off[8] = {0};
  if (s->ops && s->ops->build_path) return s->ops->build_path(s, end, flags, false, err);
  if (g) ldsi_grid_offsets(g, off);
  for (v = end; v != LDSI_NONE; v = parent_of(s, v, off)) n++;
  cells = (uint32_t *)ldsi_alloc(&s->env, n * sizeof(uint32_t));
  if (!cells) {
    ldsi_error(err, LDS_E_NOMEM, "lds_search_path: out of memory for %zu cells", n);
    return NULL;
  }
  k = n;
  for (v = end; v != LDSI_NONE; v = parent_of(s, v, off)) {
    int32_t x, y;
    if (!g) { /* graph search: node ids as they are */
      cells[--k] = v;
      continue;
    }
    ldsi_grid_pxy(g, v, &x, &y);
    cells[--k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  env = ldsi_env_public(&s->env);
  p = lds_path_new(&env, cells, n, g ? g->w : 0,
                   s->hot_query ? ldsi_hot_g(ldsi_hot_at(s, end)->nsd) : s->nodes[end].g, flags, err);
  ldsi_free(&s->env, cells, n * sizeof(uint32_t));
  return p;
}

/* Whether the current query's start record is set (the record of the loop
** that ran) */
static bool start_seen(const lds_Search *s) {
  if (s->hot_query) return ldsi_hot_at(s, s->start)->gen == s->gen;
  return s->nodes && s->nodes[s->start].gen == s->gen;
}

/* Whether the current query has a partial path (its start record is set,
** its start is free); else fills err for function fn. */
static bool has_partial(const lds_Search *s, const char *fn, lds_Error *err) {
  int32_t x = 0, y = 0;
  if (s->status == LDS_NO_PATH && s->start_blocked) { /* the start's record is not set */
    if (s->grid) ldsi_grid_pxy(s->grid, s->start, &x, &y);
    ldsi_error(err, LDS_E_STATE, "%s: no path (start (%ld,%ld) is blocked)", fn, (long)x, (long)y);
    return false;
  }
  if (s->status == LDS_E_STATE || !start_seen(s)) {
    ldsi_error(err, LDS_E_STATE, "%s: no query started", fn);
    return false;
  }
  return true;
}

lds_Path *lds_search_path(const lds_Search *s, lds_Error *err) {
  if (s->status == LDS_FOUND) return build_path(s, s->goal, 0, err);
  /* params.partial: on no path, or a budget spent (running), the best so far */
  if ((s->status == LDS_NO_PATH || s->status == LDS_RUNNING) && s->params.partial)
    return has_partial(s, "lds_search_path", err) ? build_path(s, s->best, LDS_PATH_PARTIAL, err)
                                                   : NULL;
  ldsi_error(err, LDS_E_STATE, "lds_search_path: no path (status %s)", lds_status_name(s->status));
  return NULL;
}

lds_Path *lds_search_partial_path(const lds_Search *s, lds_Error *err) {
  if (s->status == LDS_FOUND) return build_path(s, s->goal, 0, err);
  if (!has_partial(s, "lds_search_partial_path", err)) return NULL;
  return build_path(s, s->best, LDS_PATH_PARTIAL, err);
}

lds_Path *lds_search_jump_points(const lds_Search *s, lds_Error *err) {
  bool sparse = s->ops && s->ops->build_path; /* else the query ran A*: every cell */
  if (s->status == LDS_FOUND)
    return sparse ? s->ops->build_path(s, s->goal, 0, true, err) : lds_search_path(s, err);
  if (s->status == LDS_NO_PATH && s->params.partial)
    return sparse ? ((s->start_blocked && s->status == LDS_NO_PATH) || !start_seen(s)
                         ? lds_search_path(s, err) /* its error */
                         : s->ops->build_path(s, s->best, LDS_PATH_PARTIAL, true, err))
                  : lds_search_path(s, err);
  ldsi_error(err, LDS_E_STATE, "lds_search_jump_points: no path (status %s)",
             lds_status_name(s->status));
  return NULL;
}

lds_Algo lds_search_algo_used(const lds_Search *s) {
  if (s->params.algo != LDS_ALGO_JPS && s->params.algo != LDS_ALGO_JPS_PLUS)
    return s->params.algo;
  return s->ops ? s->ops->algo : LDS_ALGO_ASTAR;
}
