/*
** lds_search.c — the A* family as one resumable state machine, with an
** indexed heap (decrease-key; binary, or 4-ary with the exact-form keys of
** lds_search_internal.h) as the open list and generation-stamped node
** records, so a query's set-up is O(1) in the map size.
**
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968 (A*); Pohl, AI 1(3)
**  1970 (weighted A*); Dijkstra, Numerische Mathematik 1 1959]
*/
#include "lds_jps_internal.h"
#include "lds_search_internal.h"

#include <math.h>
#include <string.h>


#define CLOCK_EVERY 64 /* expansions between two clock reads */

/* ------------------------------------------------------------- names -- */

static const char *const algo_names[] = {"astar", "dijkstra", "wastar", "greedy", "jps", "jps+"};
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

/* --------------------------------------------------------- open list -- */
void ldsi_open_clear(lds_Search *s) {
  int i;
  s->open_n = 0;
  s->buf_n = 0;
  s->hole = LDSI_NONE;
  for (i = 0; i < 4; i++) ldsi_set_sentinel(s->open, (size_t)i);
  s->open_hwm = 4;
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
lds_Search *ldsi_search_alloc(const ldsi_Env *e, size_t n, const char *fn, lds_Error *err) {
  lds_Search *s = (lds_Search *)ldsi_calloc(e, 1, sizeof *s);
  if (!s) goto nomem;
  s->env = *e;
  s->nnodes = n;
  /* one record more than nodes: the "no move" record of the uniform loop (see
  ** relax_uniform), never a node of the space */
  s->nodes = (ldsi_Node *)ldsi_calloc(e, n + 1, sizeof(ldsi_Node));
  s->open_cap = n; /* a node is in the open list at most once */
  s->open = (ldsi_Open *)ldsi_alloc(e, (s->open_cap + 4) * sizeof(ldsi_Open));
  s->buf = (ldsi_Open *)ldsi_alloc(e, LDSI_BUF_CAP * sizeof(ldsi_Open));
  if (!s->nodes || !s->open || !s->buf) {
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
             n * (sizeof(ldsi_Node) + sizeof(ldsi_Open)) + LDSI_BUF_CAP * sizeof(ldsi_Open));
  return NULL;
}

lds_Search *lds_search_new(const lds_Env *env, const lds_Grid *grid, lds_Error *err) {
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
  s = ldsi_search_alloc(&e, grid->pcells, "lds_search_new", err);
  if (!s) return NULL;
  s->space = LDSI_SPACE_GRID;
  s->grid = grid;
  s->hot = (ldsi_Hot *)ldsi_calloc(&e, grid->pcells + 1, sizeof(ldsi_Hot));
  if (!s->hot) {
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
  if (s->eff) ldsi_free(&s->env, s->eff, s->nnodes * sizeof(double));
  ldsi_free(&s->env, s->nodes, (s->nnodes + 1) * sizeof(ldsi_Node));
  if (s->hot) ldsi_free(&s->env, s->hot, (s->nnodes + 1) * sizeof(ldsi_Hot));
  ldsi_free(&s->env, s->open, (s->open_cap + 4) * sizeof(ldsi_Open));
  ldsi_free(&s->env, s->buf, LDSI_BUF_CAP * sizeof(ldsi_Open));
  ldsi_free(&s->env, s, sizeof *s);
}

size_t lds_search_mem_used(const lds_Search *s) {
  return sizeof *s + (s->nnodes + 1) * sizeof(ldsi_Node) +
         (s->open_cap + 4 + LDSI_BUF_CAP) * sizeof(ldsi_Open) + s->algo_bytes +
         (s->eff ? s->nnodes * sizeof(double) : 0) + (s->hot ? (s->nnodes + 1) * sizeof(ldsi_Hot) : 0);
}

const lds_Grid *lds_search_grid(const lds_Search *s) { return s->grid; }

/* ---------------------------------------------------------- starting -- */

/* Smallest effective cell cost under the query's weights, over passable
** cells; also validates every cell (<= 0 or NaN is an error naming the cell
** and the layer that drove it there). O(cells), cached per (version, weights). */
static lds_Status weighted_scale(lds_Search *s, double *out) {
  const lds_Grid *g = s->grid;
  int32_t x, y;
  int i;
  size_t k;
  bool uniform;
  double m = INFINITY;
  if (s->scale_valid && s->scale_version == g->version && s->scale_nweights == s->nweights &&
      memcmp(s->scale_weights, s->weights, (size_t)s->nweights * sizeof(double)) == 0) {
    *out = s->scale_cached;
    return LDS_OK;
  }
  s->scale_valid = false;
  if (!s->eff) { /* once per search, at start (never in step): 8 bytes per cell */
    s->eff = (double *)ldsi_alloc(&s->env, s->nnodes * sizeof(double));
    if (!s->eff) {
      ldsi_msg(s->errmsg, "lds_search_start: out of memory for %zu weighted cell costs",
               s->nnodes);
      return LDS_E_NOMEM;
    }
  }
  for (k = 0; k < s->nnodes; k++) s->eff[k] = INFINITY; /* border and blocked cells */
  uniform = true; /* every passable cell costs exactly 1 under these weights */
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t p = ldsi_grid_pidx(g, x, y), u = (size_t)y * (size_t)g->w + (size_t)x;
      double c = g->cost[p];
      if (g->blocked[p]) continue;
      for (i = 0; i < s->nweights; i++)
        if (s->weights[i] != 0.0) c += s->weights[i] * (double)s->wlayers[i][u];
      s->eff[p] = c;
      if (c == INFINITY) { /* blocked by a layer: the uniform loop cannot see it */
        uniform = false;
        continue;
      }
      if (!(c > 0.0) || isinf(c)) {
        int worst = -1;
        double wv = 0.0;
        for (i = 0; i < s->nweights; i++) {
          double v = s->weights[i] * (double)s->wlayers[i][u];
          if (s->weights[i] != 0.0 && (isnan(v) || worst < 0 || v < wv)) {
            worst = i;
            wv = v;
          }
        }
        ldsi_msg(s->errmsg,
                 "lds_search_start: cell (%ld,%ld) has cost %g under the layer weights "
                 "(base %g, layer '%s' value %g x weight %g; expected finite, > 0)",
                 (long)x, (long)y, ldsi_num(c), (double)g->cost[p],
                 worst >= 0 ? g->layers[worst].name : "?",
                 worst >= 0 ? ldsi_num((double)s->wlayers[worst][u]) : 0.0,
                 worst >= 0 ? ldsi_num(s->weights[worst]) : 0.0);
        return LDS_E_ARG;
      }
      if (c < m) m = c;
      if (c != 1.0) uniform = false;
    }
  if (m == INFINITY) m = 1.0; /* nothing passable: any scale will do */
  s->eff_uniform = uniform;
  s->scale_valid = true;
  s->scale_version = g->version;
  s->scale_nweights = s->nweights;
  memcpy(s->scale_weights, s->weights, (size_t)s->nweights * sizeof(double));
  s->scale_cached = m;
  *out = m;
  return LDS_OK;
}

static lds_Status grid_run(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0);

/* New generation: every record becomes fresh without touching it. */
static void new_generation(lds_Search *s) {
  s->gen++;
  if (s->gen == 0) { /* wrapped after 2^32 queries: clear once */
    memset(s->nodes, 0, s->nnodes * sizeof(ldsi_Node));
    if (s->hot) memset(s->hot, 0, s->nnodes * sizeof(ldsi_Hot));
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

lds_Status lds_search_start(lds_Search *s, const lds_SearchParams *params, int32_t sx, int32_t sy,
                            int32_t gx, int32_t gy) {
  const lds_Grid *g = s->grid;
  lds_SearchParams p;
  ldsi_Node *n;
  int i;
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
  if (!lds_grid_in_bounds(g, sx, sy)) {
    ldsi_msg(s->errmsg, "lds_search_start: start (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)sx, (long)sy, (long)g->w, (long)g->h);
    return start_error(s, LDS_E_ARG);
  }
  if (!lds_grid_in_bounds(g, gx, gy)) {
    ldsi_msg(s->errmsg, "lds_search_start: goal (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)gx, (long)gy, (long)g->w, (long)g->h);
    return start_error(s, LDS_E_ARG);
  }
  if (lds_algo_name(p.algo) == NULL) {
    ldsi_msg(s->errmsg, "lds_search_start: unknown algorithm %d", (int)p.algo);
    return start_error(s, LDS_E_ARG);
  }
  if (lds_heuristic_name(p.heuristic) == NULL) {
    ldsi_msg(s->errmsg, "lds_search_start: unknown heuristic %d", (int)p.heuristic);
    return start_error(s, LDS_E_ARG);
  }
  if (p.heuristic > LDS_H_CHEBYSHEV) {
    ldsi_msg(s->errmsg, "lds_search_start: heuristic '%s' is for graphs (expected auto, zero, "
             "manhattan, octile, euclidean or chebyshev)", lds_heuristic_name(p.heuristic));
    return start_error(s, LDS_E_ARG);
  }
  if (p.weight == 0.0) p.weight = p.algo == LDS_ALGO_WASTAR ? 1.5 : 1.0; /* the default */
  if (!(p.weight >= 1.0) || isinf(p.weight)) {
    ldsi_msg(s->errmsg,
             "lds_search_start: weight %g out of range (expected 0 for the default, or finite >= 1)",
             ldsi_num(p.weight));
    return start_error(s, LDS_E_ARG);
  }
  if (isnan(p.h_scale) || p.h_scale < 0.0 || isinf(p.h_scale)) {
    ldsi_msg(s->errmsg, "lds_search_start: h_scale %g out of range (expected finite, >= 0)",
             ldsi_num(p.h_scale));
    return start_error(s, LDS_E_ARG);
  }
  if (p.n_layer_weights < 0 || p.n_layer_weights > g->nlayers || p.n_layer_weights > 16 ||
      (p.n_layer_weights > 0 && !p.layer_weights)) {
    ldsi_msg(s->errmsg,
             "lds_search_start: %d layer weights for a grid with %d layers (expected 0..%d)",
             p.n_layer_weights, g->nlayers, g->nlayers < 16 ? g->nlayers : 16);
    return start_error(s, LDS_E_ARG);
  }
  s->nweights = 0;
  for (i = 0; i < p.n_layer_weights; i++) {
    if (isnan(p.layer_weights[i]) || isinf(p.layer_weights[i])) {
      ldsi_msg(s->errmsg, "lds_search_start: weight of layer '%s' is %g (expected finite)",
               g->layers[i].name, ldsi_num(p.layer_weights[i]));
      return start_error(s, LDS_E_ARG);
    }
    s->weights[i] = p.layer_weights[i];
    s->wlayers[i] = g->layers[i].data;
    if (p.layer_weights[i] != 0.0) s->nweights = i + 1;
  }
  p.layer_weights = NULL; /* the copy in s->weights is what the loop reads */
  s->params = p;

  /* heuristic: resolved kind, scale and weight */
  s->hk = p.heuristic;
  if (s->hk == LDS_H_AUTO) /* octile where diagonal moves exist, else manhattan */
    s->hk = g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER ? LDS_H_OCTILE : LDS_H_MANHATTAN;
  if (p.algo == LDS_ALGO_DIJKSTRA) s->hk = LDS_H_ZERO;
  if (s->nweights > 0) { /* validates every cell and fills s->eff, even with h_scale */
    lds_Status st = weighted_scale(s, &s->scale);
    if (st < 0) return start_error(s, st);
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
  s->run = grid_run;
  s->hot_query = false; /* grid_run sets it when it runs the exact loop */
  if (p.algo == LDS_ALGO_JPS || p.algo == LDS_ALGO_JPS_PLUS) { /* lds_jps.c */
    lds_Status st = ldsi_jps_start(s);
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
  n = ldsi_node(s, s->start);
  n->g = 0.0;
  n->nsd = 0;
  if (s->hot) { /* the start's record for the exact loop (no parent) */
    s->hot[s->start].gen = s->gen;
    s->hot[s->start].nsd = LDSI_HOT_NODIR << 60;
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
  ldsi_open_push(s, s->start, s->hw * ldsi_hdist(s->hk, gx - sx, gy - sy), 0.0);
  s->status = LDS_RUNNING;
  return LDS_OK;
}

/* ------------------------------------------------------ the A* loop -- */

/* cost modes: uniform (every cell costs 1: no cost load), plain (cell costs),
** weighted (cell costs + layers), callback (+ the edge callback) */
enum { MODE_UNIFORM = 0, MODE_PLAIN = 1, MODE_WEIGHTED = 2, MODE_CALLBACK = 3 };


/* increments of the packed move counts ns | nd << 32, per direction */
static const uint64_t nsd_inc[8] = {1, 1, 1, 1, 1ull << 32, 1ull << 32, 1ull << 32, 1ull << 32};

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* The plateau stack. With a consistent heuristic, a fresh successor v of
** the node u just expanded with f(v) == f(u) and g(v) > g(u) precedes every
** open node under the open list's order: u was the minimum, so any other open
** node has a larger f, or the same f and g <= g(u). Such successors (sorted
** among themselves, at most 8) skip the heap and go on top of a stack, which
** therefore stays sorted; the other successors go to the heap. A pop takes the
** smaller of the stack top and the heap top under ldsi_open_less, so the expansion
** order, and every path, is exactly that of a plain heap, while the walk along
** a plateau of equal f (common on grids, where f is exact: see ldsi_Node)
** costs O(1) per node instead of two heap operations.
** Only fresh nodes enter the stack; one that later improves moves to the heap
** and its stack entry is dropped as stale (node heap field != LDSI_INBUF).
** A full stack sends successors to the heap, which is always correct. */


/* f of a successor with g = ng (exact moves nsd) at (dx, dy) from the goal:
** exact on uniform octile grids (ldsi_exact_octile_f), else gk*g + hw*h */
LDSI_INLINE double succ_f(const bool exact_f, uint64_t nsd, double ng, double gk, double hw,
                          const int hk, int32_t dx, int32_t dy) {
  return exact_f ? ldsi_exact_octile_f(nsd, dx, dy) : gk * ng + hw * ldsi_hdist(hk, dx, dy);
}

/* Takes the fresh record of node v for this search (generation gen) with g,
** parent and nsd. A fresh node is usually expanded soon, so the records of
** the rows above and below it are fetched now, and its expansion does not
** wait for them. */
LDSI_INLINE void claim_fresh(ldsi_Node *nodes, uint32_t v, uint32_t pw, uint32_t gen, double g,
                             uint32_t parent, uint64_t nsd) {
  ldsi_Node *nv = &nodes[v];
#ifndef LDS_NO_PREFETCH
  __builtin_prefetch(&nodes[v - pw]);
  __builtin_prefetch(&nodes[v + pw]);
#endif
  nv->gen = gen;
  nv->g = g;
  nv->parent = parent;
  nv->aux = 0;
  nv->nsd = nsd;
}

/* One successor (direction d, a constant after inlining) of the node u just
** expanded, in the uniform-cost loop: every move costs its length, so the g
** of every straight successor is the same (ng, nsd), and likewise for every
** diagonal one. Branch-light: an illegal move (bit d of the legal-move mask
** m clear) reads the "no move" record `nomove` (g = 0, current
** generation), and a record of an older generation reads as g = +inf, so
** one comparison, ng < g(v), filters the common case (a neighbour that does
** not improve) without the two data-dependent branches of the general loop
** (fresh? improved?), which mispredicted about twice per expansion. The
** successors are taken in the same order (d ascending) as the general loop,
** so the expansion order and every path are the same. */
LDSI_INLINE void relax_uniform(lds_Search *s, ldsi_Node *nodes, uint32_t gen, uint32_t u,
                               uint32_t m, const int d, ptrdiff_t offd, uint32_t nomove,
                               double ng, uint64_t nsd, double gu, double fu, int32_t ux,
                               int32_t uy, int32_t gx, int32_t gy, const int hk, double hw,
                               double gk, const bool exact_f, bool reopen, uint32_t pw,
                               ldsi_Open *batch, int *nb) {
  uint32_t v = ((m >> d) & 1u) ? (uint32_t)((ptrdiff_t)u + offd) : nomove;
  ldsi_Node *nv = &nodes[v];
  double gv = nv->gen == gen ? nv->g : INFINITY, fv;
  int32_t vx, vy;
  if (!(ng < gv)) return;
  vx = ux + ldsi_dir_dx[d];
  vy = uy + ldsi_dir_dy[d];
  fv = succ_f(exact_f, nsd, ng, gk, hw, hk, gx - vx, gy - vy);
  if (nv->gen != gen) { /* fresh */
    claim_fresh(nodes, v, pw, gen, ng, u, nsd);
    ldsi_queue_fresh_x(s, batch, nb, 8, v, fv, ng, 0, fu, gu, 0);
    return;
  }
  if (nv->heap == LDSI_CLOSED && !reopen) return;
  nv->g = ng;
  nv->parent = u;
  nv->nsd = nsd;
  if (nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF) {
    ldsi_open_push_x(s, v, fv, ng, 0, 0); /* a stack entry turns stale */
  } else {
    ldsi_open_decrease_x(s, nv->heap, fv, ng, 0, 0);
  }
}

/* The same in the exact loop (xk = 2: exact keys, 16-byte records, see
** ldsi_Hot): g(v) comes from v's move counts, a fresh record takes the
** counts and the direction d of the move from u (its parent), and the
** heuristic is octile with weight 1, so no closed node improves (no
** reopening). The records of the rows above and below a fresh node are
** fetched, as in claim_fresh. */
LDSI_INLINE void relax_hot(lds_Search *s, ldsi_Hot *hot, uint32_t gen, uint32_t u, uint32_t m,
                           const int d, ptrdiff_t offd, uint32_t nomove, double ng, uint64_t nsd,
                           uint64_t fku, uint64_t hku, int32_t ux, int32_t uy, int32_t gx,
                           int32_t gy, uint32_t pw, ldsi_Open *batch, int *nb,
                           const uint8_t *nbr, const uint8_t *dk, uint32_t nbr_u) {
  uint32_t v = ((m >> d) & 1u) ? (uint32_t)((ptrdiff_t)u + offd) : nomove;
  ldsi_Hot *hv = &hot[v];
  double gv = hv->gen == gen ? ldsi_hot_g(hv->nsd) : INFINITY;
  uint64_t hk2, fkv;
  uint32_t mv;
  int32_t vx, vy, dx, dy;
  uint32_t ax, ay, lo, hi;
  if (!(ng < gv)) return;
  vx = ux + ldsi_dir_dx[d];
  vy = uy + ldsi_dir_dy[d];
  dx = gx - vx;
  dy = gy - vy;
  ax = (uint32_t)(dx < 0 ? -dx : dx);
  ay = (uint32_t)(dy < 0 ? -dy : dy);
  lo = ax < ay ? ax : ay;
  hi = ax < ay ? ay : ax;
  /* f = g + octile h in move counts (ldsi_exact_f_key), h's key as in
  ** ldsi_exact_h_key */
  fkv = ldsi_exact_f_key((uint32_t)nsd + hi - lo, (uint32_t)(nsd >> 32) + lo);
  hk2 = (((uint64_t)(hi - lo) * s->hq_a + (uint64_t)lo * s->hq_c) >> 16) << 32;
  /* the directions to relax from v if it is expanded with u as its parent:
  ** consistent heuristic, no reopening, so the neighbours that cannot
  ** improve through v are dropped (s->prune: u itself and the cells u
  ** reaches by a legal move); skipping them skips relaxations that change
  ** nothing, so the expansion order and paths are the same. The mask
  ** travels in v's entry (ldsi_Open.seq) to v's expansion */
  mv = (uint32_t)nbr[v] & ~(uint32_t)s->prune[dk[d]][nbr_u];
  if (hv->gen != gen) { /* fresh */
#ifndef LDS_NO_PREFETCH
    __builtin_prefetch(&hot[v - pw]);
    __builtin_prefetch(&hot[v + pw]);
#else
    (void)pw;
#endif
    hv->gen = gen;
    hv->nsd = nsd | (uint64_t)d << 60;
    /* ldsi_queue_fresh_x with keys: equal f and a larger g, that is a
    ** smaller h, go on the plateau batch */
    if (fkv == fku && hk2 < hku && *nb < 8 && s->buf_n + (size_t)*nb < LDSI_BUF_CAP) {
      ldsi_Open *e = &batch[(*nb)++];
      e->fk = fkv;
      e->k2 = hk2 | s->seq++;
      e->seq = mv;
      e->node = v;
      s->stats.pushes++;
    } else {
      ldsi_open_push_fk(s, v, fkv, hk2, mv);
    }
    return;
  }
  if (hv->heap == LDSI_CLOSED) return;
  hv->nsd = nsd | (uint64_t)d << 60;
  if (hv->heap == LDSI_INBUF) {
    ldsi_open_push_fk(s, v, fkv, hk2, mv); /* a stack entry turns stale */
  } else {
    ldsi_open_decrease_fk(s, hv->heap, fkv, hk2, mv);
  }
}

/* The expansion loop, specialised at compile time on the heuristic, the
** cost mode and the key form xk (always_inline + constant arguments): the
** uniform-cost octile case, the one benchmarks and most games hit, runs with
** xk = 2: exact keys and the 16-byte records of ldsi_Hot (s->hot), which
** halve the memory a query touches per node (−7..−9% time on maze512-1-0,
** docs/search.md); every other case with xk = 0 and ldsi_Node records.
** Returns the new status. */
LDSI_INLINE lds_Status grid_loop(lds_Search *s, uint64_t max_exp, uint64_t budget_us,
                                 uint64_t t0, const int hk, const int mode, const int xk) {
  const lds_Grid *g = s->grid;
  const uint8_t *nbr = g->nbr;
  const float *cost = g->cost;
  const uint32_t pw = (uint32_t)g->pw;
  const double inv_pw = 1.0 / (double)pw;
  const uint32_t goal = s->goal, start = s->start;
  const int32_t gx = s->gx, gy = s->gy;
  const double hw = s->hw, gk = s->gk;
  const bool reopen = s->reopen;
  /* exact f on uniform grids: f = (ns + dmax - dmin) + (nd + dmin)*sqrt(2) */
  const bool exact_f = mode == MODE_UNIFORM && hk == LDS_H_OCTILE && hw == 1.0 && gk == 1.0;
  const double *eff = s->eff;
  ptrdiff_t off[8];
  uint64_t done = 0;
  ldsi_Node *nodes = s->nodes;
  ldsi_Hot *hot = s->hot;
  const uint32_t gen = s->gen;
  const uint32_t nomove = (uint32_t)s->nnodes; /* the extra record: see relax_uniform */
  ldsi_grid_offsets(g, off);
  nodes[nomove].gen = gen;
  nodes[nomove].g = 0.0; /* every move costs more: never improved */
  uint8_t dir_k[8]; /* the prune table's k of the move in each direction */
  for (int d = 0; d < 8; d++) dir_k[d] = (uint8_t)(3 * (ldsi_dir_dy[d] + 1) + ldsi_dir_dx[d] + 1);
  if (xk) {
    hot[nomove].gen = gen;
    hot[nomove].nsd = 0; /* g = 0 */
  }

  for (;;) {
    uint32_t u, m;
    int32_t ux, uy;
    double gu, fu;
    uint64_t nsd_u, fku, k2u, hku = 0;
    uint32_t mu; /* xk = 2: the entry's directions to relax (ldsi_Open.seq) */
    ldsi_Open batch[8];
    int nb = 0;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && done && (done % CLOCK_EVERY) == 0 &&
        s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    u = ldsi_next_open_x(s, nodes, &fku, &k2u, &mu, xk);
    if (u == LDSI_NONE) return LDS_NO_PATH;
    done++;
    s->stats.expansions++;
    if (u == goal) {
      ldsi_open_settle_x(s, xk);
      return LDS_FOUND;
    }
    if (xk) {
      uint64_t r = hot[u].nsd;
      nsd_u = r & LDSI_HOT_MASK;
      gu = 0.0; /* not needed: the keys order (see relax_hot); ldsi_hot_g(nsd_u) */
    } else {
      gu = nodes[u].g;
      nsd_u = nodes[u].nsd;
    }
    {
      /* u / pw by a multiply (a 32-bit division costs ~25 cycles per
      ** expansion); the estimate is off by at most one, corrected below */
      uint32_t q = (uint32_t)((double)u * inv_pw);
      if ((uint64_t)q * pw > u) q--;
      else if ((uint64_t)(q + 1) * pw <= u) q++;
      uy = (int32_t)q - 1;
      ux = (int32_t)(u - q * pw) - 1;
    }
    if (xk) {
      /* the keys it was queued with, but for the start, queued with
      ** ldsi_hdist's rounding before the loop knew it would be exact
      ** (a branch: not computed for every node) */
      fu = 0.0; /* not needed: the keys order */
      hku = k2u & ~(uint64_t)UINT32_MAX;
      if (LDSI_UNLIKELY(u == start)) {
        int32_t dxs = gx - ux, dys = gy - uy;
        uint32_t ax = (uint32_t)(dxs < 0 ? -dxs : dxs), ay = (uint32_t)(dys < 0 ? -dys : dys);
        uint32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
        fku = ldsi_exact_f_key(hi - lo, lo); /* the start's g is 0 */
        hku = ldsi_exact_h_key(gx - ux, gy - uy, s->hq_a, s->hq_c);
      }
    } else if (exact_f) {
      /* the f it was queued with, but for the start, queued with ldsi_hdist's
      ** rounding before the loop knew it would be exact */
      fu = u != start ? ldsi_open_val(fku) : ldsi_exact_octile_f(nsd_u, gx - ux, gy - uy);
    } else {
      fu = gk * gu + hw * ldsi_hdist(hk, gx - ux, gy - uy);
    }
    {
      /* the expanded cell closest to the goal (ldsi_best_closer); g is only
      ** needed on a distance tie */
      uint64_t d2 = ldsi_d2(gx - ux, gy - uy);
      if (LDSI_UNLIKELY(d2 <= s->best_d2)) {
        double gb = xk == 2 ? ldsi_hot_g(nsd_u) : gu;
        if (ldsi_best_closer(s, d2, gb, u)) ldsi_best_set(s, d2, gb, u);
      }
    }
    /* the exact loop takes u's pruned directions from its entry (computed
    ** when u was queued: relax_hot): the loads that follow, u's neighbours'
    ** records, wait for the pop alone, not for a chain of four dependent
    ** loads (u's record, its parent's mask, the prune table) as they did,
    ** -8% time on maze512-1-0 (docs/search.md) */
    m = xk == 2 && u != start ? mu : nbr[u];
    if (mode == MODE_UNIFORM) {
      /* the exact g of a straight and of a diagonal successor, as
      ** ns + nd*sqrt(2) from their own counts (ns + 1 never wraps: paths are
      ** far shorter than 2^32 moves), so they are bit-identical to the g
      ** computed anywhere else from the same counts */
      const uint32_t ns = (uint32_t)nsd_u, nd = (uint32_t)(nsd_u >> 32);
      const uint64_t nsd_s = nsd_u + 1, nsd_d = nsd_u + (1ull << 32);
      const double g_s = (double)(ns + 1u) + (double)nd * LDSI_SQRT2;
#define LDSI_RELAX(d, gg, nn)                                                                \
  do {                                                                                       \
    if (xk)                                                                                  \
      relax_hot(s, hot, gen, u, m, d, off[d], nomove, gg, nn, fku, hku, ux, uy, gx, gy, pw,   \
                batch, &nb, nbr, dir_k, nbr[u]);                                             \
    else                                                                                     \
      relax_uniform(s, nodes, gen, u, m, d, off[d], nomove, gg, nn, gu, fu, ux, uy, gx, gy,  \
                    hk, hw, gk, exact_f, reopen, pw, batch, &nb);                            \
  } while (0)
      if (nbr[u] & 0xF0u) {
        const double g_d = (double)ns + (double)(nd + 1u) * LDSI_SQRT2;
        /* a legal diagonal: the eight directions unrolled, relaxed
        ** branch-light (relax_uniform); in the exact loop each is first kept
        ** or dropped by its bit (the pattern follows the parent's direction,
        ** which the branch predictor mostly learns) */
#define LDSI_RELAXB(d, gg, nn) \
  if (!xk || ((m >> (d)) & 1u)) LDSI_RELAX(d, gg, nn)
        LDSI_RELAXB(0, g_s, nsd_s);
        LDSI_RELAXB(1, g_s, nsd_s);
        LDSI_RELAXB(2, g_s, nsd_s);
        LDSI_RELAXB(3, g_s, nsd_s);
        LDSI_RELAXB(4, g_d, nsd_d);
        LDSI_RELAXB(5, g_d, nsd_d);
        LDSI_RELAXB(6, g_d, nsd_d);
        LDSI_RELAXB(7, g_d, nsd_d);
#undef LDSI_RELAXB
      } else if (xk) {
        /* straight moves only (corridors, mazes, 4-connected grids): in a
        ** corridor only the cell ahead is left, and the remaining directions
        ** are visited by their bits, in direction order; the loop's trip
        ** count is then nearly always one, where a test per direction of
        ** which neighbour is fresh mispredicts about once per expansion */
        while (m) {
          int d = __builtin_ctz(m);
          relax_hot(s, hot, gen, u, m, d, off[d], nomove, g_s, nsd_s, fku, hku, ux, uy, gx, gy, pw,
                    batch, &nb, nbr, dir_k, nbr[u]);
          m &= m - 1;
        }
      } else {
        LDSI_RELAX(0, g_s, nsd_s);
        LDSI_RELAX(1, g_s, nsd_s);
        LDSI_RELAX(2, g_s, nsd_s);
        LDSI_RELAX(3, g_s, nsd_s);
      }
#undef LDSI_RELAX
      m = 0;
    }
    while (xk != 2 && m) { /* xk = 2 (uniform costs) never gets here: m is 0 */
      int d = __builtin_ctz(m);
      uint32_t v = (uint32_t)((ptrdiff_t)u + off[d]);
      ldsi_Node *nv = &nodes[v];
      double ng, step = 0.0, fv;
      uint64_t nsd = 0;
      int32_t vx, vy;
      m &= m - 1;
      /* (vx, vy) only where needed: most neighbours are neither fresh nor improved */
      if (mode == MODE_UNIFORM) {
        nsd = nsd_u + nsd_inc[d];
      } else if (mode == MODE_PLAIN) {
        step = move_len[d] * (double)cost[v];
      } else {
        /* weights: the effective costs validated and cached at start */
        double c = s->nweights ? eff[v] : (double)cost[v];
        if (c == INFINITY) continue;
        step = move_len[d] * c;
        if (mode == MODE_CALLBACK) {
          double out = step;
          lds_Status st;
          vx = ux + ldsi_dir_dx[d];
          vy = uy + ldsi_dir_dy[d];
          st = s->params.edge_cost(s->params.edge_ud, ux, uy, vx, vy, step, &out);
          if (st < 0) {
            if (!s->errmsg[0])
              ldsi_msg(s->errmsg, "lds_search_step: edge callback failed at (%ld,%ld)->(%ld,%ld)",
                       (long)ux, (long)uy, (long)vx, (long)vy);
            return LDS_E_CALLBACK;
          }
          if (out == INFINITY) continue;
          if (!(out > 0.0) || isinf(out)) {
            ldsi_msg(s->errmsg,
                     "lds_search_step: edge callback returned %g for (%ld,%ld)->(%ld,%ld) "
                     "(expected finite, > 0, or inf to forbid)",
                     ldsi_num(out), (long)ux, (long)uy, (long)vx, (long)vy);
            return LDS_E_CALLBACK;
          }
          step = out;
        }
      }
      ng = mode == MODE_UNIFORM
               ? (double)(uint32_t)nsd + (double)(uint32_t)(nsd >> 32) * LDSI_SQRT2 /* exact g */
               : gu + step;
      if (!(ng < INFINITY)) continue; /* the path's cost overflows: not a path (as D* Lite) */
      if (nv->gen != gen) {
        vx = ux + ldsi_dir_dx[d];
        vy = uy + ldsi_dir_dy[d];
        claim_fresh(nodes, v, pw, gen, ng, u, nsd);
        fv = succ_f(exact_f, nsd, ng, gk, hw, hk, gx - vx, gy - vy);
        ldsi_queue_fresh_x(s, batch, &nb, 8, v, fv, ng,
                           xk ? ldsi_exact_h_key(gx - vx, gy - vy, s->hq_a, s->hq_c) : 0, fu, gu, xk);
        continue;
      }
      if (!(ng < nv->g)) continue;
      if (nv->heap == LDSI_CLOSED && !reopen) continue;
      vx = ux + ldsi_dir_dx[d];
      vy = uy + ldsi_dir_dy[d];
      fv = succ_f(exact_f, nsd, ng, gk, hw, hk, gx - vx, gy - vy);
      nv->g = ng;
      nv->parent = u;
      nv->nsd = nsd;
      {
        uint64_t hk2 = xk ? ldsi_exact_h_key(gx - vx, gy - vy, s->hq_a, s->hq_c) : 0;
        if (nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF) {
          ldsi_open_push_x(s, v, fv, ng, hk2, xk); /* a stack entry turns stale */
        } else {
          ldsi_open_decrease_x(s, nv->heap, fv, ng, hk2, xk);
        }
      }
    }
    if (nb) ldsi_push_batch_x(s, nodes, batch, nb, xk);
    ldsi_open_settle_x(s, xk); /* the pop's hole, when no push filled it */
  }
}

#define DISPATCH_MODE(hk)                                                                  \
  switch (mode) {                                                                          \
    case MODE_UNIFORM: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_UNIFORM, 0);   \
    case MODE_PLAIN: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_PLAIN, 0);       \
    case MODE_WEIGHTED: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_WEIGHTED, 0); \
    default: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_CALLBACK, 0);            \
  }

/* The exact loop in a function of its own: inlined into grid_run's
** dispatch with the other instantiations, it ran 4-6% slower on
** maze512-1-0 (the compiler's register allocation over the whole switch). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static lds_Status grid_run_exact(lds_Search *s, uint64_t max_exp, uint64_t budget_us,
                                 uint64_t t0) {
  s->hot_query = true; /* the 16-byte records (ldsi_Hot) */
  return grid_loop(s, max_exp, budget_us, t0, LDS_H_OCTILE, MODE_UNIFORM, 2);
}

static lds_Status grid_run(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  int mode = s->params.edge_cost ? MODE_CALLBACK
             : s->nweights        ? (s->eff_uniform ? MODE_UNIFORM : MODE_WEIGHTED)
             : s->grid->nonunit   ? MODE_PLAIN
                                  : MODE_UNIFORM;
  switch (s->hk) {
    case LDS_H_ZERO: DISPATCH_MODE(LDS_H_ZERO)
    case LDS_H_MANHATTAN: DISPATCH_MODE(LDS_H_MANHATTAN)
    case LDS_H_EUCLIDEAN: DISPATCH_MODE(LDS_H_EUCLIDEAN)
    case LDS_H_CHEBYSHEV: DISPATCH_MODE(LDS_H_CHEBYSHEV)
    default:
      /* the exact-key open list (ldsi_Open) where f is exact */
      if (mode == MODE_UNIFORM && s->hw == 1.0 && s->gk == 1.0 && s->hq_scale > 0.0 &&
          s->nnodes < LDSI_HOT_MAX_NODES)
        return grid_run_exact(s, max_exp, budget_us, t0);
      DISPATCH_MODE(LDS_H_OCTILE)
  }
}

lds_Status lds_search_step_budget(lds_Search *s, const lds_Budget *budget) {
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
  t0 = s->env.clock(s->env.clock_ud);
  st = s->run(s, max_exp, us, t0);
  s->stats.elapsed_us += s->env.clock(s->env.clock_ud) - t0;
  s->status = st;
  return st;
}

lds_Status lds_search_step(lds_Search *s, uint64_t max_expansions) {
  lds_Budget b;
  b.max_expansions = max_expansions;
  b.budget_us = 0;
  return lds_search_step_budget(s, &b);
}

lds_Status lds_search_run(lds_Search *s) { return lds_search_step_budget(s, NULL); }

lds_Status lds_search_status(const lds_Search *s) { return s->status; }

void lds_search_stats(const lds_Search *s, lds_Stats *out) { *out = s->stats; }

const char *lds_search_errmsg(const lds_Search *s) { return s->errmsg; }

double lds_search_cost(const lds_Search *s) {
  if (s->status != LDS_FOUND) return -1.0;
  if (s->hot_query) return ldsi_hot_g(s->hot[s->goal].nsd);
  return s->nodes[s->goal].g;
}

/* ------------------------------------------------------------ result -- */

/* The parent of node v in the current query (LDSI_NONE at the start): from
** the 16-byte records' direction when the exact loop ran, else the record's
** parent. off: the grid's neighbour offsets (ldsi_grid_offsets). */
static uint32_t parent_of(const lds_Search *s, uint32_t v, const ptrdiff_t *off) {
  uint64_t d;
  if (!s->hot_query) return s->nodes[v].parent;
  d = s->hot[v].nsd >> 60;
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
  if (ldsi_jps_sparse(s)) return ldsi_jps_build_path(s, end, flags, false, err); /* fill jumps */
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
                   s->hot_query ? ldsi_hot_g(s->hot[end].nsd) : s->nodes[end].g, flags, err);
  ldsi_free(&s->env, cells, n * sizeof(uint32_t));
  return p;
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
  if (s->status == LDS_E_STATE || s->nodes[s->start].gen != s->gen) {
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
