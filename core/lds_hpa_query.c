/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_query.c — the sliced query of the hierarchy and its fast mode:
** joining start and goal to their clusters' entrances, A* on the abstract
** graph, and the refinement from the start: concatenated cluster paths
** read from stored parent trees, smoothed by legal straight lines
** (lds_hpa.h).
** The optimal mode's search is lds_hpa_exact.c.
** [Paper: Botea, Müller & Schaeffer, J. Game Development 1(1), 2004]
*/
#include "lds_components_internal.h"
#include "lds_hpa_level2_internal.h"
#include "lds_hpa_query_internal.h"
#include "lds_landmarks.h"

#include <string.h>

/* landmarks per query of the abstract heuristic (see insert) */
#ifndef LDSI_HPA_ACTIVE
#define LDSI_HPA_ACTIVE 4
#endif

enum { PH_NONE = 0, PH_INSERT, PH_ABSTRACT, PH_REFINE, PH_EXACT, PH_DONE };

lds_HpaQuery *lds_hpa_query_new(lds_Hpa *h, lds_Error *err) {
  static const char *fn = "lds_hpa_query_new";
  lds_HpaQuery *q;
  size_t win;
  ldsi_error_clear(err);
  if (!h) {
    ldsi_error(err, LDS_E_ARG, "%s: hierarchy is NULL (expected a hierarchy)", fn);
    return NULL;
  }
  q = ldsi_calloc(&h->env, 1, sizeof *q);
  if (!q) goto nomem;
  q->env = h->env;
  q->h = h;
  q->status = LDS_E_STATE;
  q->layout = UINT64_MAX;
  q->base = ldsi_alloc(&q->env, ((size_t)h->ncl + 1) * sizeof(uint32_t));
  if (h->l2 && !(q->l2base = ldsi_alloc(&q->env, ((size_t)h->l2->n2 + 1) * sizeof(uint32_t))))
    goto nomem;
  q->ds = ldsi_alloc(&q->env, h->cap * sizeof(double));
  q->dg = ldsi_alloc(&q->env, h->cap * sizeof(double));
  win = (size_t)9 * (size_t)h->C * (size_t)h->C; /* a 3 x 3 cluster box (near_pair) */
  q->trcap = win;
  q->tr = ldsi_alloc(&q->env, win * sizeof(uint32_t));
  if (!q->base || !q->ds || !q->dg || !q->tr || !ldsi_hpa_local_init(&q->env, &q->win, win) ||
      !ldsi_hpa_local_init(&q->env, &q->ls, (size_t)h->C * (size_t)h->C))
    goto nomem;
  return q;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s: out of memory", fn);
  lds_hpa_query_free(q);
  return NULL;
}

void lds_hpa_query_free(lds_HpaQuery *q) {
  ldsi_Env e;
  if (!q) return;
  e = q->env;
  ldsi_hpa_exact_free(q);
  if (q->an) ldsi_free(&e, q->an, q->acap * sizeof(ldsi_HpaAbsNode));
  if (q->ah) ldsi_free(&e, q->ah, q->ahcap * sizeof(ldsi_HpaAbsEntry));
  if (q->base) ldsi_free(&e, q->base, ((size_t)q->h->ncl + 1) * sizeof(uint32_t));
  if (q->l2base) ldsi_free(&e, q->l2base, ((size_t)q->h->l2->n2 + 1) * sizeof(uint32_t));
  if (q->ds) ldsi_free(&e, q->ds, q->h->cap * sizeof(double));
  if (q->dg) ldsi_free(&e, q->dg, q->h->cap * sizeof(double));
  if (q->tr) ldsi_free(&e, q->tr, q->trcap * sizeof(uint32_t));
  if (q->wp) ldsi_free(&e, q->wp, q->wcap * sizeof(uint32_t));
  if (q->raw) ldsi_free(&e, q->raw, q->rawcap * sizeof(uint32_t));
  if (q->rawc) ldsi_free(&e, q->rawc, q->rawcap * sizeof(double));
  if (q->rawxy) ldsi_free(&e, q->rawxy, q->rawcap * sizeof(uint32_t));
  if (q->cells) ldsi_free(&e, q->cells, q->ccap * sizeof(uint32_t));
  ldsi_hpa_band_free(q);
  ldsi_hpa_local_free(&e, &q->win);
  ldsi_hpa_local_free(&e, &q->ls);
  ldsi_free(&e, q, sizeof *q);
}

/* Cost of the move from padded cell a to padded neighbour b (its length
** times b's effective cost), with no division: the move is told by the
** padded offset. */
static inline double step_cost(const lds_Hpa *h, size_t a, size_t b) {
  ptrdiff_t dp = (ptrdiff_t)b - (ptrdiff_t)a, pw = h->grid->pw;
  /* an orthogonal move is +-1 or +-pw (padded rows) */
  double len = dp == 1 || dp == -1 || dp == pw || dp == -pw ? 1.0 : LDSI_SQRT2, c;
  if (h->nweights == 0) {
    if (h->grid->nonunit == 0 && !h->grid->blocked[b]) return len;
    c = h->grid->blocked[b] ? INFINITY : (double)h->grid->cost[b];
  } else {
    c = ldsi_hpa_cost(h, b);
  }
  return len * c;
}

bool ldsi_hpa_keep(lds_HpaQuery *q, uint32_t p) {
  if (q->ncells == q->ccap) {
    size_t nc = q->ccap ? 2 * q->ccap : 256;
    uint32_t *n = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!n) return false;
    q->cells = n;
    q->ccap = nc;
  }
  if (q->ncells) q->cost += step_cost(q->h, q->cells[q->ncells - 1], p);
  q->cells[q->ncells++] = p;
  return true;
}

/* Dense abstract ids for the hierarchy as it is: the prefix sums of the
** clusters' entrance counts (O(clusters), redone only after a repair),
** START and GOAL, then those of the second level's entrances (prefix sums
** of its clusters' counts), and records for all of them (grown when a
** repair added entrances). Dense ids keep the records of neighbouring
** clusters' entrances close in memory, and those of a second-level
** cluster's entrances in one run. false on NOMEM. */
static bool layout(lds_HpaQuery *q) {
  const lds_Hpa *h = q->h;
  uint32_t c, t = 0;
  size_t n;
  if (q->layout == h->repairs && q->an) return true;
  for (c = 0; c < h->ncl; c++) {
    q->base[c] = t;
    t += h->cl[c].n;
  }
  q->base[h->ncl] = t;
  q->l2id0 = t + 2;
  n = (size_t)t + 2;
  if (h->l2) {
    uint32_t b, t2 = 0;
    for (b = 0; b < h->l2->n2; b++) {
      q->l2base[b] = t2;
      t2 += h->l2->cl[b].n;
    }
    q->l2base[h->l2->n2] = t2;
    n += t2;
  }
  if (n > q->acap) {
    size_t nc = n + n / 4;
    if (q->an) ldsi_free(&q->env, q->an, q->acap * sizeof(ldsi_HpaAbsNode));
    if (q->ah) ldsi_free(&q->env, q->ah, q->ahcap * sizeof(ldsi_HpaAbsEntry));
    q->acap = 0;
    q->ahcap = 0;
    q->an = ldsi_calloc(&q->env, nc, sizeof(ldsi_HpaAbsNode));
    q->ah = ldsi_alloc(&q->env, nc * sizeof(ldsi_HpaAbsEntry));
    if (!q->an || !q->ah) {
      if (q->an) ldsi_free(&q->env, q->an, nc * sizeof(ldsi_HpaAbsNode));
      if (q->ah) ldsi_free(&q->env, q->ah, nc * sizeof(ldsi_HpaAbsEntry));
      q->an = NULL;
      q->ah = NULL;
      return false;
    }
    q->acap = nc;
    q->ahcap = nc;
    q->agcur = 0;
  }
  q->nabs = (size_t)t + 2;
  q->layout = h->repairs;
  return true;
}

/* Whether a connectivity index of the grid (lds_components.h) proves the
** started query has no path, by lds_search's rule: an index counts when its
** blocking set lies within the layers the hierarchy weights positively
** (their +inf cells are the ones its queries cannot enter). */
static bool separated(const lds_HpaQuery *q) {
  const lds_Hpa *h = q->h;
  return ldsi_components_separated(h->grid, ldsi_components_query_mask(h->weights, h->nweights),
                                   q->sx, q->sy, q->gx, q->gy);
}

lds_Status lds_hpa_query_start(lds_HpaQuery *q, lds_HpaMode mode, int32_t sx, int32_t sy,
                               int32_t gx, int32_t gy) {
  static const char *fn = "lds_hpa_query_start";
  lds_Hpa *h;
  const lds_Grid *g;
  lds_Status st;
  if (!q) return LDS_E_ARG;
  h = q->h;
  g = h->grid;
  q->status = LDS_E_STATE;
  q->phase = PH_NONE;
  q->errmsg[0] = '\0';
  memset(&q->stats, 0, sizeof q->stats);
  q->ncells = 0;
  q->cost = 0.0;
  q->abstract_cost = -1.0;
  if (mode != LDS_HPA_FAST && mode != LDS_HPA_OPTIMAL) {
    ldsi_msg(q->errmsg, "%s: mode %d is unknown (expected fast or optimal)", fn, (int)mode);
    return LDS_E_ARG;
  }
  if (mode == LDS_HPA_OPTIMAL && !h->lower_bounds) {
    ldsi_msg(q->errmsg,
             "%s: the optimal mode needs a hierarchy built with lower_bounds (this one was not)",
             fn);
    return LDS_E_ARG;
  }
  if (!lds_grid_in_bounds(g, sx, sy) || !lds_grid_in_bounds(g, gx, gy)) {
    bool s_out = !lds_grid_in_bounds(g, sx, sy);
    ldsi_msg(q->errmsg, "%s: %s (%d,%d) is outside the %dx%d grid", fn, s_out ? "start" : "goal",
             (int)(s_out ? sx : gx), (int)(s_out ? sy : gy), (int)g->w, (int)g->h);
    return LDS_E_ARG;
  }
  if ((st = lds_hpa_repair(h)) != LDS_OK) {
    ldsi_msg(q->errmsg, "%s: the hierarchy could not be repaired: %s", fn, h->errmsg);
    return st; /* E_ARG: a cell's effective cost; E_STATE: a weighted layer removed */
  }
  if (mode == LDS_HPA_FAST && !layout(q)) {
    ldsi_msg(q->errmsg, "%s: out of memory", fn);
    return LDS_E_NOMEM;
  }
  q->mode = mode;
  if (h->l2) q->l2refresh = h->l2->refreshed;
  q->sx = sx;
  q->sy = sy;
  q->gx = gx;
  q->gy = gy;
  q->ps = ldsi_grid_pidx(g, sx, sy);
  q->pg = ldsi_grid_pidx(g, gx, gy);
  q->cs = ldsi_hpa_cluster_of(h, sx, sy);
  q->cg = ldsi_hpa_cluster_of(h, gx, gy);
  q->version = g->version;
  q->status = LDS_RUNNING;
  /* as lds_search: a start blocked by a layer only may still be left */
  if (g->blocked[q->ps] || !isfinite(ldsi_hpa_cost(h, q->pg))) {
    q->status = LDS_NO_PATH;
    q->phase = PH_DONE;
    return LDS_OK;
  }
  if (g->components && q->ps != q->pg && separated(q)) {
    ldsi_msg(q->errmsg, "%s: goal (%d,%d) is in another component than the start", fn, (int)gx,
             (int)gy);
    q->status = LDS_NO_PATH;
    q->phase = PH_DONE;
    return LDS_OK;
  }
  if (!ldsi_hpa_keep(q, (uint32_t)q->ps)) {
    ldsi_msg(q->errmsg, "%s: out of memory", fn);
    q->status = LDS_E_STATE;
    return LDS_E_NOMEM;
  }
  if (q->ps == q->pg) {
    q->status = LDS_FOUND;
    q->phase = PH_DONE;
    return LDS_OK;
  }
  if (mode == LDS_HPA_OPTIMAL) {
    if ((st = ldsi_hpa_exact_start(q)) != LDS_OK) {
      q->status = LDS_E_STATE;
      return st;
    }
    q->phase = PH_EXACT;
    return LDS_OK;
  }
  if (!ldsi_hpa_band_prepare(q)) {
    ldsi_msg(q->errmsg, "%s: out of memory", fn);
    q->status = LDS_E_STATE;
    return LDS_E_NOMEM;
  }
  q->w = h->fast_weight;
  q->phase = PH_INSERT;
  return LDS_OK;
}

/* ------------------------------------------------- abstract search -- */

static inline void anode(lds_HpaQuery *q, uint32_t id) {
  if (q->an[id].gen != q->agcur) {
    q->an[id].gen = q->agcur;
    q->an[id].g = INFINITY;
    q->an[id].closed = 0;
  }
}

/* The abstract open list: a 4-ary min-heap of (key, id) with lazy
** deletion (an improved node is pushed again; a popped entry whose key is
** not its node's current one, or whose node is closed, is skipped), so
** sifting never writes the node records. The key is f - g * 2^-30, with
** f = g + w h (weighted A*, Pohl 1970: h is stored times w): f ascending
** and, among equal f, the larger g first, in one double (two f closer than
** 2^-30 g may swap: the abstract path is then dearer than the shortest by
** at most 2^-30 of its cost). With w > 1 a closed node is never reopened:
** the abstract path then costs at most w x the shortest (the bound holds
** without reopening; Likhachev, Gordon & Thrun, NIPS 2003). */
static inline double akey(double g, double h) { return g + h - g * 0x1p-30; }

/* pushes (key, id); false on NOMEM */
static inline bool apush(lds_HpaQuery *q, uint32_t id, double key) {
  ldsi_HpaAbsEntry *e;
  size_t i;
  if (q->nah == q->ahcap) {
    size_t nc = 2 * q->ahcap;
    ldsi_HpaAbsEntry *ne = ldsi_realloc(&q->env, q->ah, q->ahcap * sizeof *ne, nc * sizeof *ne);
    if (!ne) return false;
    q->ah = ne;
    q->ahcap = nc;
  }
  e = q->ah;
  i = q->nah++;
  while (i > 0) {
    size_t up = (i - 1) / 4;
    if (!(key < e[up].key)) break;
    e[i] = e[up];
    i = up;
  }
  e[i].key = key;
  e[i].id = id;
  q->stats.pushes++;
  return true;
}

/* pops the first entry */
static inline ldsi_HpaAbsEntry apop(lds_HpaQuery *q) {
  ldsi_HpaAbsEntry *e = q->ah, top = e[0], last;
  size_t i = 0, n = --q->nah;
  if (n == 0) return top;
  last = e[n];
  for (;;) {
    size_t c = 4 * i + 1, best, m;
    double bk;
    if (c >= n) break;
    if (c + 3 < n) {
      /* four children: a tournament (branch-free selects) */
      size_t b1 = c + (e[c + 1].key < e[c].key), b2 = c + 2 + (e[c + 3].key < e[c + 2].key);
      best = e[b2].key < e[b1].key ? b2 : b1;
      bk = e[best].key;
    } else {
      best = c;
      bk = e[c].key;
      for (m = c + 1; m < n; m++)
        if (e[m].key < bk) {
          bk = e[m].key;
          best = m;
        }
    }
    if (!(bk < last.key)) break;
    e[i] = e[best];
    i = best;
  }
  e[i] = last;
  return top;
}

static inline size_t acell(const lds_HpaQuery *q, uint32_t id) {
  uint32_t start = (uint32_t)(q->nabs - 2), c;
  if (id == start) return q->ps;
  if (id == start + 1) return q->pg;
  c = q->an[id].cl;
  if (id >= q->l2id0) {
    uint32_t zb = q->h->l2->bof[c];
    return q->h->cl[c].cell[q->h->l2->cl[zb].ent[id - q->l2id0 - q->l2base[zb]].i];
  }
  return q->h->cl[c].cell[id - q->base[c]];
}

/* The abstract heuristic of the entrance at cell (x, y): the larger of
** the octile distance times the smallest cell cost and the landmark bound
** q * max_L |T_L(cell) - T_L(goal)| of the hierarchy's tables (ALT, Goldberg
** & Harrelson, SODA 2005; lds_landmarks.h), over the landmarks whose table
** reaches the goal (read from the cluster's copy of the tables at its
** entrances, ldsi_HpaCluster.lmv). Both are lower bounds of every grid
** path to the goal, so of the abstract distance (an abstract path is a grid
** path; its edges are that path's cost rounded down to floats, at most
** 2^-24 relative, which the factor 1 - 2^-22 of the landmark bound covers;
** the octile term is used as the plain A* heuristic was). The tables are kept feasible under
** edits by lds_hpa_repair (decrease propagation), so no query sees a stale
** bound. INFINITY when a table proves the cell cannot reach the goal. */
static inline double aheur(const lds_HpaQuery *q, const ldsi_HpaCluster *k, uint32_t i) {
  uint32_t xy = k->xy[i];
  double oct = q->h->minc * ldsi_hpa_octile(q->gx - (int32_t)(xy & 0xFFFF), q->gy - (int32_t)(xy >> 16)), lb;
  const uint32_t *t;
  uint32_t best = 0;
  int l;
  if (q->nlact == 0) return oct;
  t = k->lmv + (size_t)i * (size_t)q->h->lmk;
  for (l = 0; l < q->nlact; l++) {
    uint32_t a = t[q->lact[l]], b = q->lgt[l], d = a > b ? a - b : b - a;
    best = d > best ? d : best;
  }
  if (best >= LDSI_LM_LIMIT) return INFINITY;
  lb = (double)best * q->h->lm->q * (1.0 - 0x1p-22);
  return lb > oct ? lb : oct;
}

/* relaxes the edge from -> to, to being entrance i of cluster cl (i
** LDSI_HPA_NOIDX: the goal), reached at cost c */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void arelax(lds_HpaQuery *q, uint32_t from, uint32_t to, uint32_t cl, uint32_t i,
                          double c) {
  ldsi_HpaAbsNode *r = &q->an[to];
  if (r->gen != q->agcur) {
    r->gen = q->agcur;
    r->g = INFINITY;
    r->closed = 0;
    if (i == LDSI_HPA_NOIDX) {
      r->h = 0.0;
    } else {
      const ldsi_HpaCluster *k = &q->h->cl[cl];
      r->h = q->w * aheur(q, k, i);
#if defined(__GNUC__) || defined(__clang__)
      /* what its expansion reads, fetched while the search goes on: its
      ** edges (the block's head is in cache: aheur just read it) */
      __builtin_prefetch(k->edge + k->eoff[i]);
#endif
    }
  }
  if (c < r->g && r->h < INFINITY && (!r->closed || q->w == 1.0)) {
    r->g = c;
    r->par = from;
    r->cl = cl;
    r->closed = 0; /* reopened if closed (w 1 only): an improvement by rounding */
    if (!apush(q, to, akey(c, r->h))) q->anomem = true;
  }
}

/* Joins start and goal to their clusters and pushes the start. */
static void insert(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  ldsi_HpaLocal *L = &q->win;
  const ldsi_HpaCluster *ks = &h->cl[q->cs], *kg = &h->cl[q->cg];
  uint32_t i, start = (uint32_t)(q->nabs - 2);
  uint32_t ps = (uint32_t)q->ps;
  ldsi_HpaLocal *Ls = &q->ls;
  uint64_t e0 = Ls->expansions;
  size_t steps = 0;
  (void)L;
  /* the goal side: each entrance's stored tree gives its cluster-restricted
  ** distance to the goal (and the last leg's path); the start side too
  ** where costs are uniform (no weights, every cost 1: a path reversed
  ** costs the same, the move masks being symmetric), else a Dijkstra from
  ** the start inside its cluster (also when the goal shares it) */
  q->tree_s = h->nweights == 0 && h->grid->nonunit == 0 && q->cs != q->cg;
  if (q->tree_s) {
    for (i = 0; i < ks->n; i++) q->ds[i] = ldsi_hpa_tree_cost(h, q->cs, i, q->ps, &steps);
    q->dsg = INFINITY;
  } else {
    ldsi_hpa_local_dijkstra(h, Ls, ks->x0, ks->y0, ks->x1, ks->y1, &ps, 1);
    for (i = 0; i < ks->n; i++) q->ds[i] = ldsi_hpa_local_g(h, Ls, ks->cell[i]);
    q->dsg = q->cs == q->cg ? ldsi_hpa_local_g(h, Ls, q->pg) : INFINITY;
  }
  for (i = 0; i < kg->n; i++) q->dg[i] = ldsi_hpa_tree_cost(h, q->cg, i, q->pg, &steps);
  q->stats.expansions += Ls->expansions - e0 + steps;
  if (++q->agcur == 0) {
    size_t k;
    for (k = 0; k < q->acap; k++) q->an[k].gen = 0;
    q->agcur = 1;
  }
  q->nah = 0;
  q->nlact = 0;
  q->l2 = h->l2 && h->l2->use;
  if (q->l2) {
    q->bs = h->l2->bof[q->cs];
    q->bg = h->l2->bof[q->cg];
  }
  if (h->lm) {
    const uint32_t *tg = ldsi_lm_row(h->lm, q->pg);
    const uint32_t *ts = ldsi_lm_row(h->lm, q->ps);
    uint32_t bound[32];
    int l, m;
    /* the active landmarks (Goldberg & Harrelson, SODA 2005): those whose
    ** table reaches the goal, at most LDSI_HPA_ACTIVE of them, the ones
    ** that bound start -> goal best (ties: the lower index), sorted so */
    for (l = 0; l < h->lm->k; l++) {
      uint32_t b;
      if (tg[l] == LDSI_LM_INF) continue;
      b = ts[l] == LDSI_LM_INF ? UINT32_MAX : ts[l] > tg[l] ? ts[l] - tg[l] : tg[l] - ts[l];
      for (m = q->nlact; m > 0 && bound[m - 1] < b; m--) {
        bound[m] = bound[m - 1];
        q->lact[m] = q->lact[m - 1];
        q->lgt[m] = q->lgt[m - 1];
      }
      bound[m] = b;
      q->lact[m] = (uint8_t)l;
      q->lgt[m] = tg[l];
      q->nlact++;
    }
    if (q->nlact > LDSI_HPA_ACTIVE) q->nlact = LDSI_HPA_ACTIVE;
  }
  anode(q, start);
  q->an[start].g = 0.0;
  q->an[start].cl = q->cs;
  q->an[start].h = 0.0;
  q->anomem = false;
  apush(q, start, 0.0); /* the heap holds at least acap entries */
}

/* Room for n more raw cells (the three arrays share rawcap); false on
** NOMEM, the arrays then as they were. */
static bool raw_reserve(lds_HpaQuery *q, size_t n) {
  size_t nc = q->rawcap ? q->rawcap : 256;
  uint32_t *a, *x;
  double *b;
  if (q->nraw + n <= q->rawcap) return true;
  while (nc < q->nraw + n) nc *= 2;
  a = ldsi_alloc(&q->env, nc * sizeof(uint32_t));
  b = ldsi_alloc(&q->env, nc * sizeof(double));
  x = ldsi_alloc(&q->env, nc * sizeof(uint32_t));
  if (!a || !b || !x) {
    if (a) ldsi_free(&q->env, a, nc * sizeof(uint32_t));
    if (b) ldsi_free(&q->env, b, nc * sizeof(double));
    if (x) ldsi_free(&q->env, x, nc * sizeof(uint32_t));
    return false;
  }
  if (q->rawcap) {
    memcpy(a, q->raw, q->nraw * sizeof(uint32_t));
    memcpy(b, q->rawc, q->nraw * sizeof(double));
    memcpy(x, q->rawxy, q->nraw * sizeof(uint32_t));
    ldsi_free(&q->env, q->raw, q->rawcap * sizeof(uint32_t));
    ldsi_free(&q->env, q->rawc, q->rawcap * sizeof(double));
    ldsi_free(&q->env, q->rawxy, q->rawcap * sizeof(uint32_t));
  }
  q->raw = a;
  q->rawc = b;
  q->rawxy = x;
  q->rawcap = nc;
  return true;
}

/* Appends the n padded cells c[0..n-1] to the raw refined path, each one
** legal move from the one before (c[0] from the last raw cell, or c[0]
** starts the path), with their prefix costs and coordinates; the
** coordinates follow the moves, so no cell index is divided. false on
** NOMEM. */
static bool raw_append(lds_HpaQuery *q, const uint32_t *c, size_t n) {
  const lds_Hpa *h = q->h;
  ptrdiff_t pw = h->grid->pw;
  bool unit = h->nweights == 0 && h->grid->nonunit == 0;
  size_t k = 0, r;
  uint32_t prev, xy;
  double pc;
  if (n == 0) return true;
  if (!raw_reserve(q, n)) return false;
  r = q->nraw;
  if (r == 0) {
    int32_t x, y;
    ldsi_grid_pxy(h->grid, c[0], &x, &y);
    q->raw[0] = c[0];
    q->rawc[0] = 0.0;
    q->rawxy[0] = (uint32_t)x | (uint32_t)y << 16;
    r = 1;
    k = 1;
  }
  prev = q->raw[r - 1];
  xy = q->rawxy[r - 1];
  pc = q->rawc[r - 1];
  {
    uint32_t *restrict raw = q->raw, *restrict rxy = q->rawxy;
    double *restrict rc = q->rawc;
    for (; k < n; k++, r++) {
      uint32_t p = c[k];
      ptrdiff_t dp = (ptrdiff_t)p - (ptrdiff_t)prev;
      /* the move's dy is the sign of dp beyond a row's neighbours (pw > 2) */
      ptrdiff_t dy = (dp > 1) - (dp < -1), dx = dp - dy * pw;
      /* uniform costs: a traced cell is passable, a move costs its length */
      pc += unit ? (dx && dy ? LDSI_SQRT2 : 1.0) : step_cost(h, prev, p);
      xy += (uint32_t)(dx + dy * 65536); /* modulo 2^32: x never leaves 0..65534 */
      raw[r] = p;
      rc[r] = pc;
      rxy[r] = xy;
      prev = p;
    }
  }
  q->nraw = r;
  return true;
}

static lds_Status path_grow(lds_HpaQuery *q, size_t n) {
  if (n > q->wcap) {
    size_t nc = n * 2;
    uint32_t *a = ldsi_realloc(&q->env, q->wp, q->wcap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!a) return LDS_E_NOMEM;
    q->wp = a;
    q->wcap = nc;
  }
  return LDS_OK;
}

/* The abstract path START..GOAL into waypoints. */
static lds_Status abstract_path(lds_HpaQuery *q) {
  uint32_t start = (uint32_t)(q->nabs - 2), goal = start + 1, id;
  size_t n = 1, i;
  for (id = goal; id != start; id = q->an[id].par) n++;
  if (path_grow(q, n) != LDS_OK) return LDS_E_NOMEM;
  q->nwp = n;
  for (id = goal, i = n; i-- > 0; id = q->an[id].par) {
    q->wp[i] = (uint32_t)acell(q, id);
    if (id == start) break;
  }
  q->abstract_cost = q->an[goal].g;
  if (q->l2) {
    lds_Status st = ldsi_hpa_l2_unpack(q);
    if (st != LDS_OK) return st;
  }
  q->leg = 0;
  q->nraw = 0;
  q->anchor = 0;
  q->nbtail = 0;
  q->bend = 0;
  {
    uint32_t ps = (uint32_t)q->ps;
    return raw_append(q, &ps, 1) ? LDS_OK : LDS_E_NOMEM;
  }
}

/* aheur of a second-level entrance at xy (x | y << 16) whose landmark
** values are t */
static inline double aheur_l2(const lds_HpaQuery *q, const uint32_t *t, uint32_t xy) {
  double oct = q->h->minc * ldsi_hpa_octile(q->gx - (int32_t)(xy & 0xFFFF), q->gy - (int32_t)(xy >> 16));
  double lb;
  uint32_t best = 0;
  int l;
  if (q->nlact == 0) return oct;
  for (l = 0; l < q->nlact; l++) {
    uint32_t a = t[q->lact[l]], b = q->lgt[l], d = a > b ? a - b : b - a;
    best = d > best ? d : best;
  }
  if (best >= LDSI_LM_LIMIT) return INFINITY;
  lb = (double)best * q->h->lm->q * (1.0 - 0x1p-22);
  return lb > oct ? lb : oct;
}

/* relaxes the edge from -> entrance s of second-level cluster zb (its
** second-level id), reached at cost c; arelax with the heuristic read from
** the second-level cluster's copies */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void arelax_l2(lds_HpaQuery *q, uint32_t from, const ldsi_HpaL2Cluster *z, uint32_t zb,
                             uint32_t s, double c) {
  ldsi_HpaAbsNode *r = &q->an[q->l2id0 + q->l2base[zb] + s];
  if (r->gen != q->agcur) {
    r->gen = q->agcur;
    r->g = INFINITY;
    r->closed = 0;
    r->cl = z->ent[s].cl;
    r->h = q->w * aheur_l2(q, z->lmv + (size_t)s * (size_t)q->h->lmk, z->ent[s].xy);
#if defined(__GNUC__) || defined(__clang__)
    {
      /* what its expansion reads, fetched while the search goes on: its
      ** second-level edges (a few cache lines) and its leaving inter edges */
      const char *e0 = (const char *)(z->edge + z->eoff[s]), *e1 = (const char *)(z->edge + z->eoff[s + 1]);
      for (; e0 < e1; e0 += 64) __builtin_prefetch(e0);
      __builtin_prefetch(z->xin + z->xoff[s]);
    }
#endif
  }
  if (c < r->g && r->h < INFINITY && (!r->closed || q->w == 1.0)) {
    r->g = c;
    r->par = from;
    r->closed = 0; /* reopened if closed (w 1 only): an improvement by rounding */
    if (!apush(q, q->l2id0 + q->l2base[zb] + s, akey(c, r->h))) q->anomem = true;
  }
}

/* relaxes the inter edge from -> entrance i of first-level cluster tc at
** cost c: by its second-level id where tc lies in a second-level cluster
** that holds neither the start nor the goal and is not stale (the edge's
** end is then one of that cluster's entrances: it lies next to another
** second-level cluster), else by its first-level id */
static inline void arelax_inter(lds_HpaQuery *q, uint32_t from, uint32_t tc, uint32_t i, double c) {
  const ldsi_HpaL2 *L = q->h->l2;
  uint32_t zb = L->bof[tc], s;
  if (ldsi_hpa_l2_local(L, zb, q->bs, q->bg)) {
    arelax(q, from, q->base[tc] + i, tc, i, c);
    return;
  }
  s = ldsi_hpa_l2_index(q->h, &L->cl[zb], tc, i);
  if (s != LDSI_L2_NONE) arelax_l2(q, from, &L->cl[zb], zb, s, c);
}

/* Expands the second-level node u (cost gu): an entrance of a
** second-level cluster that holds neither the start nor the goal; its
** second-level edges and the inter edges that leave the cluster
** (lds_hpa_level2.c). */
static void abstract_expand_l2(lds_HpaQuery *q, uint32_t u, double gu) {
  const lds_Hpa *h = q->h;
  uint32_t zb = h->l2->bof[q->an[u].cl], s = u - q->l2id0 - q->l2base[zb];
  const ldsi_HpaL2Cluster *z = &h->l2->cl[zb];
  const ldsi_HpaInter *e, *end;
  const ldsi_HpaL2Edge *x, *xend;
  for (x = z->edge + z->eoff[s], xend = z->edge + z->eoff[s + 1]; x < xend; x++)
    arelax_l2(q, u, z, zb, x->t, gu + (double)x->c);
  for (e = z->xin + z->xoff[s], end = z->xin + z->xoff[s + 1]; e < end; e++)
    arelax_inter(q, u, e->cl, e->i, gu + (double)e->c);
}

/* One abstract expansion; returns LDS_RUNNING, LDS_FOUND (goal popped) or
** LDS_NO_PATH. */
static lds_Status abstract_expand(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  uint32_t start = (uint32_t)(q->nabs - 2), goal = start + 1, u, i;
  double gu;
  for (;;) {
    ldsi_HpaAbsEntry top;
    ldsi_HpaAbsNode *r;
    if (q->nah == 0) return LDS_NO_PATH;
    top = apop(q);
    r = &q->an[top.id];
    /* current: not closed, and keyed with its g (an entry pushed before
    ** an improvement has a larger key; the margin only guards the
    ** recomputed key against a differently rounded evaluation) */
    if (!r->closed && top.key <= akey(r->g, r->h) * (1.0 + 0x1p-40)) {
      u = top.id;
      r->closed = 1;
      break;
    }
  }
  q->stats.expansions++;
  if (u == goal) return LDS_FOUND;
  gu = q->an[u].g;
  if (u == start) {
    const ldsi_HpaCluster *k = &h->cl[q->cs];
    for (i = 0; i < k->n; i++)
      if (isfinite(q->ds[i])) arelax(q, u, q->base[q->cs] + i, q->cs, i, q->ds[i]);
    if (isfinite(q->dsg)) arelax(q, u, goal, q->cg, LDSI_HPA_NOIDX, q->dsg);
  } else {
    uint32_t c = q->an[u].cl;
    const ldsi_HpaCluster *k = &h->cl[c];
    const ldsi_HpaEdge *e, *end;
    const int32_t *dcl = h->dcl;
    const ldsi_HpaEdge *mid;
    if (u >= q->l2id0) {
      abstract_expand_l2(q, u, gu);
      goto done;
    }
    i = u - q->base[c];
    /* the search adjacency (lds_hpa_adj.c): the inter edges, then the
    ** intra edges. A node reached from its own cluster (an entrance of it,
    ** or the start inside it) skips its intra edges: its parent p reached
    ** every entrance j of the cluster at g(p) + d(p, j) <= g(u) + d(u, j),
    ** the cluster-restricted distances obeying the triangle inequality
    ** (up to the float rounding of the stored distances) */
    e = k->edge + k->eoff[i];
    mid = e + (k->ioff[i + 1] - k->ioff[i]);
    end = q->an[q->an[u].par].cl == c ? mid : k->edge + k->eoff[i + 1];
    if (q->l2) {
      for (; e < mid; e++)
        arelax_inter(q, u, (uint32_t)((int32_t)c + dcl[e->d]), e->i, gu + (double)e->c);
    } else {
      for (; e < mid; e++) {
        uint32_t tc = (uint32_t)((int32_t)c + dcl[e->d]);
        arelax(q, u, q->base[tc] + e->i, tc, e->i, gu + (double)e->c);
      }
    }
    for (; e < end; e++) arelax(q, u, q->base[c] + e->i, c, e->i, gu + (double)e->c);
    if (c == q->cg && isfinite(q->dg[i]))
      arelax(q, u, goal, q->cg, LDSI_HPA_NOIDX, gu + q->dg[i]);
  }
done:
  if (q->nah > q->stats.peak_open) q->stats.peak_open = q->nah;
  return q->anomem ? LDS_E_NOMEM : LDS_RUNNING;
}

/* ------------------------------------------------------ refinement -- */

/* Direction of the unit move (mx, my), mx and my in -1..1, not both 0. */
static const int8_t dir_of_move[9] = {LDS_DIR_NW, LDS_DIR_N, LDS_DIR_NE, LDS_DIR_W, -1,
                                      LDS_DIR_E,  LDS_DIR_SW, LDS_DIR_S, LDS_DIR_SE};

/* Room for n more kept cells; false on NOMEM (the cells then as they were). */
static bool cells_reserve(lds_HpaQuery *q, size_t n) {
  size_t nc = q->ccap ? q->ccap : 256;
  uint32_t *c;
  if (q->ncells + n <= q->ccap) return true;
  while (nc < q->ncells + n) nc *= 2;
  c = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), nc * sizeof(uint32_t));
  if (!c) return false;
  q->cells = c;
  q->ccap = nc;
  return true;
}

/* Walks the 8-connected digital straight line (Bresenham, IBM Systems
** Journal 4(1), 1965: max(|dx|,|dy|) moves, min(|dx|,|dy|) of them diagonal,
** so its length is the octile distance) from padded cell a, at xya (x | y
** << 16), to the cell at xyb under the grid's move rules. Returns its cost,
** or INFINITY when a move is illegal (blocked, cut corner, a cell blocked
** by a weighted layer) or the cost so far exceeds limit; it stops at the
** first such move. With keep, the cells after a are kept with their costs
** (the line must have been checked legal); *nomem is set on NOMEM. */
static double line_walk(lds_HpaQuery *q, size_t a, uint32_t xya, uint32_t xyb, double limit,
                        bool keep, bool *nomem) {
  const lds_Hpa *h = q->h;
  int32_t x0 = (int32_t)(xya & 0xFFFF), y0 = (int32_t)(xya >> 16);
  int32_t x1 = (int32_t)(xyb & 0xFFFF), y1 = (int32_t)(xyb >> 16);
  int32_t ax, ay, sx, sy, err, i, n, minor;
  int d1, d2;
  ptrdiff_t o1, o2;
  unsigned m1, m2;
  size_t p = a;
  double c = 0.0, l1, l2;
  const uint8_t *nbr = h->grid->nbr;
  const float *cost = h->nweights == 0 ? h->grid->cost : NULL;
  bool unit = cost && h->grid->nonunit == 0;
  ax = x1 > x0 ? x1 - x0 : x0 - x1;
  ay = y1 > y0 ? y1 - y0 : y0 - y1;
  sx = x1 > x0 ? 1 : x1 < x0 ? -1 : 0;
  sy = y1 > y0 ? 1 : y1 < y0 ? -1 : 0;
  n = ax > ay ? ax : ay;
  minor = ax > ay ? ay : ax;
  if (n == 0) return 0.0;
  /* the line costs at least its octile length times the smallest cell
  ** cost: one too dear is refused without a walk (the margin covers the
  ** rounding of the walk's sum, so the answer is the walk's) */
  if (!keep && h->minc * ldsi_hpa_octile(ax, ay) > limit * (1.0 + 1e-9)) return INFINITY;
  /* the two moves of the line: along its major axis (d1) and diagonal (d2) */
  d1 = ax >= ay ? dir_of_move[4 + sx] : dir_of_move[(sy + 1) * 3 + 1];
  d2 = dir_of_move[(sy + 1) * 3 + (sx + 1)];
  if (minor == 0) d2 = d1;
  o1 = h->off[d1];
  o2 = h->off[d2];
  m1 = 1u << d1;
  m2 = 1u << d2;
  l1 = ldsi_hpa_move_len(d1);
  l2 = ldsi_hpa_move_len(d2);
  err = n / 2;
  if (keep) {
    /* the kept cost sums step_cost's value move by move, as ldsi_hpa_keep */
    uint32_t *out;
    double kc = q->cost;
    if (!cells_reserve(q, (size_t)n)) {
      *nomem = true;
      return INFINITY;
    }
    out = q->cells + q->ncells;
    for (i = 0; i < n; i++) {
      size_t from = p;
      double len;
      err -= minor;
      if (err < 0) {
        err += n;
        p = (size_t)((ptrdiff_t)p + o2);
        len = l2;
      } else {
        p = (size_t)((ptrdiff_t)p + o1);
        len = l1;
      }
      kc += unit ? len : step_cost(h, from, p);
      out[i] = (uint32_t)p;
    }
    q->ncells += (size_t)n;
    q->cost = kc;
    return 0.0;
  }
  if (unit) {
    /* uniform costs: a legal move enters a passable cell of cost 1, so the
    ** line's cost is its octile length; only the moves are checked */
    for (i = 0; i < n; i++) {
      err -= minor;
      if (err < 0) {
        err += n;
        if (!(nbr[p] & m2)) return INFINITY;
        p = (size_t)((ptrdiff_t)p + o2);
      } else {
        if (!(nbr[p] & m1)) return INFINITY;
        p = (size_t)((ptrdiff_t)p + o1);
      }
    }
    c = (double)(n - minor) + (double)minor * LDSI_SQRT2;
    return c > limit ? INFINITY : c;
  }
  for (i = 0; i < n; i++) {
    double cc;
    double len;
    err -= minor;
    if (err < 0) {
      err += n;
      if (!(nbr[p] & m2)) return INFINITY;
      p = (size_t)((ptrdiff_t)p + o2);
      len = l2;
    } else {
      if (!(nbr[p] & m1)) return INFINITY;
      p = (size_t)((ptrdiff_t)p + o1);
      len = l1;
    }
    /* a legal move enters a passable cell: without weights its effective
    ** cost is its cost */
    cc = cost ? (double)cost[p] : ldsi_hpa_cost(h, p);
    if (!isfinite(cc)) return INFINITY;
    c += len * cc;
    if (c > limit) return INFINITY;
  }
  return c;
}

/* Smoothing: the horizon in raw cells per cluster side and the stride of
** the candidate ends (the horizon's end is one too). */
#ifndef SMOOTH_H
#define SMOOTH_H 8
#endif
#ifndef SMOOTH_STEP
#define SMOOTH_STEP 4
#endif

/* Is the straight line from raw cell a to raw cell j legal and no dearer
** than the raw stretch a..j? */
static inline bool shortcut_ok(lds_HpaQuery *q, size_t a, size_t j) {
  return isfinite(line_walk(q, q->raw[a], q->rawxy[a], q->rawxy[j], q->rawc[j] - q->rawc[a],
                            false, NULL));
}

/* Smooths the raw path from the anchor on and keeps the result. From the
** anchor a, the candidate ends are the raw cells a + 2 + k * SMOOTH_STEP
** below the horizon's end lim = a + SMOOTH_H cluster sides (none when lim
** is less than a stride past a + 2), and lim; one is
** taken when its straight line from a is legal and costs no more than the
** raw path a..j (shortcut_ok), and becomes the next anchor (a + 1 when
** none is). Which one: lim when it passes (one walk on open ground); else
** a galloping search over the others (Bentley & Yao, "An almost optimal
** algorithm for unbounded searching", IPL 5(3), 1976): candidates 0, 1, 3,
** 7, ... until one fails, then a binary search between the last that
** passed and the first that failed, so about 2 log2(horizon / stride)
** walks instead of one per candidate, most of them failing. Every
** replacement costs at most what it replaces, so the kept path never costs
** more than the raw path, which is the abstract path. Unless all, anchors
** whose horizon reaches past the raw path wait for the next leg (so every
** kept cell is final). false on NOMEM. */
static bool smooth(lds_HpaQuery *q, bool all) {
  size_t H = (size_t)(SMOOTH_H * q->h->C);
  bool nomem = false;
  while (q->anchor + 1 < q->nraw) {
    size_t a = q->anchor, lim = a + H, best = a + 1, m;
    ptrdiff_t lo = -1, hi, i;
    if (lim >= q->nraw) {
      if (!all) break;
      lim = q->nraw - 1;
    }
    /* candidates 0..m-1: a + 2 + k * SMOOTH_STEP below lim, then lim (lim
    ** alone when it is less than a stride past a + 2) */
    m = (lim >= a + 2 + SMOOTH_STEP ? (lim - a - 3) / SMOOTH_STEP + 1 : 0) + 1;
#define CAND(k) ((size_t)(k) + 1 == m ? lim : a + 2 + (size_t)(k) * SMOOTH_STEP)
    hi = (ptrdiff_t)m - 1;
    if (shortcut_ok(q, a, lim)) {
      lo = hi;
    } else {
      /* gallop: 0, 1, 3, 7, ... while they pass (hi, lim, failed) */
      for (i = 0; i < hi;) {
        if (!shortcut_ok(q, a, CAND(i))) {
          hi = i;
          break;
        }
        lo = i;
        i = 2 * i + 1 < hi - 1 ? 2 * i + 1 : hi - 1;
        if (i == lo) break;
      }
      /* bisect: lo passed (or is -1), hi failed */
      while (hi - lo > 1) {
        ptrdiff_t mid = lo + (hi - lo) / 2;
        if (shortcut_ok(q, a, CAND(mid)))
          lo = mid;
        else
          hi = mid;
      }
    }
    if (lo >= 0) best = CAND(lo);
#undef CAND
    if (best == a + 1) {
      if (!ldsi_hpa_keep(q, q->raw[a + 1])) return false;
    } else {
      line_walk(q, q->raw[a], q->rawxy[a], q->rawxy[best], INFINITY, true, &nomem);
      if (nomem) return false;
    }
    q->anchor = best;
  }
  return true;
}

/* Start and goal at most two clusters apart in x and y: the abstract
** path's detour through entrances is a large share of such a short path, so
** an A* inside the bounding box of the two clusters (at most 3 x 3) is tried
** first and taken (all of it kept) when it costs no more than the abstract
** path. LDS_FOUND when taken, LDS_RUNNING to refine as usual. */
static lds_Status near_pair(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  ldsi_HpaLocal *L = &q->win;
  const ldsi_HpaCluster *ks = &h->cl[q->cs], *kg = &h->cl[q->cg];
  int32_t csx = (int32_t)(q->cs % (uint32_t)h->cw), csy = (int32_t)(q->cs / (uint32_t)h->cw);
  int32_t cgx = (int32_t)(q->cg % (uint32_t)h->cw), cgy = (int32_t)(q->cg / (uint32_t)h->cw);
  uint64_t e0 = L->expansions;
  size_t n, k;
  double c;
  if (csx - cgx > 2 || cgx - csx > 2 || csy - cgy > 2 || cgy - csy > 2) return LDS_RUNNING;
  c = ldsi_hpa_local_astar(h, L, ks->x0 < kg->x0 ? ks->x0 : kg->x0, ks->y0 < kg->y0 ? ks->y0 : kg->y0,
                           ks->x1 > kg->x1 ? ks->x1 : kg->x1, ks->y1 > kg->y1 ? ks->y1 : kg->y1,
                           q->ps, q->pg, NULL, 0, NULL);
  q->stats.expansions += L->expansions - e0;
  if (!(c <= q->abstract_cost)) return LDS_RUNNING;
  n = ldsi_hpa_local_trace(h, L, q->pg, q->tr, q->trcap);
  if (n == 0) return LDS_RUNNING;
  for (k = 1; k < n; k++)
    if (!ldsi_hpa_keep(q, q->tr[k])) {
      ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
      return LDS_E_NOMEM;
    }
  return LDS_FOUND;
}

/* Refines the next waypoint pair of the abstract path by reading stored
** parents, no search: from the start, the start Dijkstra's tree; to the
** goal, the goal Dijkstra's, followed forward; between two entrances of a
** cluster, the first one's parent tree (its cost is the intra edge's);
** across a border, the one move of the inter edge. Then smooths what is
** final. LDS_RUNNING while pairs remain, LDS_FOUND at the goal. */
static lds_Status refine_step(lds_HpaQuery *q) {
  static const char *fn = "lds_hpa_query_step";
  lds_Hpa *h = q->h;
  size_t a = q->wp[q->leg], b = q->wp[q->leg + 1], n, k;
  int32_t xa, ya, xb, yb;
  uint32_t ca, cb;
  bool last;
  if (q->leg == 0 && q->nraw == 1) {
    lds_Status st = near_pair(q);
    if (st != LDS_RUNNING) return st;
  }
  ldsi_grid_pxy(h->grid, a, &xa, &ya);
  ldsi_grid_pxy(h->grid, b, &xb, &yb);
  ca = ldsi_hpa_cluster_of(h, xa, ya);
  cb = ldsi_hpa_cluster_of(h, xb, yb);
  if (q->leg == 0 && !q->tree_s) {
    /* from the start: its insertion Dijkstra's parents */
    n = ldsi_hpa_local_trace(h, &q->ls, b, q->tr, q->trcap);
  } else if (q->leg == 0 || q->leg + 2 == q->nwp) {
    /* from the start (uniform costs): the first entrance's tree path to the
    ** start, reversed; to the goal: the last entrance's tree path to it */
    const lds_Grid *g = h->grid;
    size_t e = q->leg == 0 ? b : a, t = q->leg == 0 ? a : b;
    int32_t xe, ye;
    uint8_t ie;
    ldsi_grid_pxy(g, e, &xe, &ye);
    ie = h->nidx[(size_t)ye * (size_t)g->w + (size_t)xe];
    n = ie ? ldsi_hpa_tree_trace(h, q->leg == 0 ? q->cs : q->cg, (uint32_t)(ie - 1), t,
                                 q->tr, q->trcap)
           : 0;
    if (q->leg == 0)
      for (k = 0; k < n / 2; k++) {
        uint32_t tmp = q->tr[k];
        q->tr[k] = q->tr[n - 1 - k];
        q->tr[n - 1 - k] = tmp;
      }
  } else if (ca != cb) {
    q->tr[0] = (uint32_t)a;
    q->tr[1] = (uint32_t)b;
    n = 2;
  } else {
    const lds_Grid *g = h->grid;
    uint8_t ia = h->nidx[(size_t)ya * (size_t)g->w + (size_t)xa];
    uint8_t ib = h->nidx[(size_t)yb * (size_t)g->w + (size_t)xb];
    n = ia && ib ? ldsi_hpa_intra_trace(h, ca, (uint32_t)(ia - 1), (uint32_t)(ib - 1), q->tr,
                                        q->trcap)
                 : 0;
  }
  if (n == 0) {
    ldsi_msg(q->errmsg, "%s: cluster %u has no path between two waypoints (hierarchy out "
             "of date)", fn, (unsigned)ca);
    return LDS_E_STATE;
  }
  /* a traced cell counts as an expansion: the slices of the refinement */
  q->stats.expansions += n - 1;
  if (!raw_append(q, q->tr + 1, n - 1)) goto nomem;
  q->leg++;
  last = q->leg + 1 >= q->nwp;
  if (!(q->banded ? ldsi_hpa_band(q, last) : smooth(q, last))) goto nomem;
  return last ? LDS_FOUND : LDS_RUNNING;
nomem:
  ldsi_msg(q->errmsg, "%s: out of memory", fn);
  return LDS_E_NOMEM;
}

/* ------------------------------------------------------------ step -- */

lds_Status lds_hpa_query_step(lds_HpaQuery *q, const lds_Budget *budget) {
  uint64_t max_exp = budget ? budget->max_expansions : 0, bus = budget ? budget->budget_us : 0;
  uint64_t t0, e0, tick = 0;
  lds_Status st = LDS_RUNNING;
  if (!q) return LDS_E_ARG;
  if (q->status == LDS_E_STATE && q->phase == PH_NONE && !q->errmsg[0])
    ldsi_msg(q->errmsg, "lds_hpa_query_step: no query started (call lds_hpa_query_start first)");
  if (q->status != LDS_RUNNING) return q->status;
  if (q->h->grid->version != q->version) {
    ldsi_msg(q->errmsg, "lds_hpa_query_step: the grid changed since the query started");
    q->status = LDS_E_STALE;
    return q->status;
  }
  if (q->mode == LDS_HPA_FAST && q->h->l2 && q->h->l2->refreshed != q->l2refresh) {
    ldsi_msg(q->errmsg, "lds_hpa_query_step: the second level was rebuilt since the query started");
    q->status = LDS_E_STALE;
    return q->status;
  }
  t0 = q->env.clock(q->env.clock_ud);
  e0 = q->stats.expansions;
  if (q->phase == PH_EXACT) {
    st = ldsi_hpa_exact_run(q, max_exp, bus, t0);
    if (st == LDS_FOUND || st < 0 || st == LDS_NO_PATH) q->phase = PH_DONE;
  }
  while (q->phase != PH_EXACT && q->phase != PH_DONE) {
    if (max_exp && q->stats.expansions - e0 >= max_exp) break;
    if (bus && q->stats.expansions - tick >= 64) {
      tick = q->stats.expansions;
      if (q->env.clock(q->env.clock_ud) - t0 >= bus) break;
    }
    if (q->phase == PH_INSERT) {
      insert(q);
      q->phase = PH_ABSTRACT;
    } else if (q->phase == PH_ABSTRACT) {
      st = abstract_expand(q);
      if (st == LDS_NO_PATH) {
        q->phase = PH_DONE;
      } else if (st == LDS_E_NOMEM) {
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
        q->phase = PH_DONE;
      } else if (st == LDS_FOUND) {
        st = abstract_path(q);
        if (st != LDS_OK) {
          ldsi_msg(q->errmsg, "lds_hpa_query_step: %s", st == LDS_E_NOMEM ? "out of memory"
                   : "the second level has no path between two waypoints (out of date)");
          q->phase = PH_DONE;
        } else {
          q->phase = PH_REFINE;
          st = LDS_RUNNING;
        }
      }
    } else {
      st = refine_step(q);
      if (st != LDS_RUNNING) q->phase = PH_DONE;
    }
  }
  if (q->phase == PH_DONE && st == LDS_RUNNING) st = LDS_FOUND;
  q->status = st;
  q->stats.elapsed_us += q->env.clock(q->env.clock_ud) - t0;
  return st;
}

/* ---------------------------------------------------------- results -- */

lds_Status lds_hpa_query_status(const lds_HpaQuery *q) { return q ? q->status : LDS_E_STATE; }

void lds_hpa_query_stats(const lds_HpaQuery *q, lds_Stats *out) {
  if (q)
    *out = q->stats;
  else
    memset(out, 0, sizeof *out);
}

double lds_hpa_query_cost(const lds_HpaQuery *q) {
  return q && q->status == LDS_FOUND ? q->cost : -1.0;
}

double lds_hpa_query_abstract_cost(const lds_HpaQuery *q) {
  return q && q->mode == LDS_HPA_FAST && q->abstract_cost >= 0 ? q->abstract_cost : -1.0;
}

const char *lds_hpa_query_errmsg(const lds_HpaQuery *q) { return q ? q->errmsg : ""; }

static lds_Path *make_path(const lds_HpaQuery *q, uint32_t flags, lds_Error *err) {
  const lds_Grid *g = q->h->grid;
  lds_Env pe = ldsi_env_public(&q->env);
  uint32_t *ids;
  lds_Path *p;
  size_t i;
  ids = ldsi_alloc(&q->env, (q->ncells ? q->ncells : 1) * sizeof(uint32_t));
  if (!ids) {
    ldsi_error(err, LDS_E_NOMEM, "lds_hpa_query_path: out of memory");
    return NULL;
  }
  for (i = 0; i < q->ncells; i++) {
    int32_t x, y;
    ldsi_grid_pxy(g, q->cells[i], &x, &y);
    ids[i] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  p = lds_path_new(&pe, ids, q->ncells, g->w, q->cost, flags, err);
  ldsi_free(&q->env, ids, (q->ncells ? q->ncells : 1) * sizeof(uint32_t));
  return p;
}

lds_Path *lds_hpa_query_path(const lds_HpaQuery *q, lds_Error *err) {
  ldsi_error_clear(err);
  if (!q || q->status != LDS_FOUND) {
    ldsi_error(err, LDS_E_STATE, "lds_hpa_query_path: no path (status %s)",
               lds_status_name(q ? q->status : LDS_E_STATE));
    return NULL;
  }
  return make_path(q, 0, err);
}

lds_Path *lds_hpa_query_prefix(const lds_HpaQuery *q, lds_Error *err) {
  ldsi_error_clear(err);
  if (!q || (q->status != LDS_FOUND && q->status != LDS_RUNNING) || q->ncells == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_hpa_query_prefix: no prefix (status %s)",
               lds_status_name(q ? q->status : LDS_E_STATE));
    return NULL;
  }
  if (q->mode == LDS_HPA_OPTIMAL && q->status == LDS_RUNNING) {
    /* the exact search settles no cell of its path before the goal */
    ldsi_error(err, LDS_E_STATE, "lds_hpa_query_prefix: an optimal-mode query has no prefix "
               "(status running): its path comes whole when found (lds_hpa_query_path)");
    return NULL;
  }
  return make_path(q, q->status == LDS_FOUND ? 0 : LDS_PATH_PARTIAL, err);
}
