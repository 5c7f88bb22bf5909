/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_exact.c — the optimal mode of the hierarchy: A* on the whole grid
** with the differential heuristic of the hierarchy's landmark tables
** (lds_landmarks.h):
**   h(c) = max(octile(c, goal) * min_cost, q * max_L |T_L(c) - T_L(goal)|)
** Both terms are consistent lower bounds of the directed move costs (a move
** costs its length times the effective cost of the cell entered), so their
** maximum is too, and the first goal popped is optimal. h is cached per
** cell as a double: the octile term must stay exact to the key's 2^-30, or
** the ties of equal f (the whole parallelogram of optimal paths on an open
** map) no longer go to the larger g and A* expands all of them. Sums of
** doubles may break consistency by a rounding unit, so a closed cell whose
** g improves is opened again. Landmarks whose
** table does not reach the goal are left out of the query; a cell whose
** value is unreached in a table that reaches the goal cannot reach the goal
** (feasible tables never join reached and unreached cells) and is never
** queued.
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968 (A*); Goldberg &
**  Harrelson, "Computing the shortest path: A* search meets graph theory",
**  SODA 2005 (ALT)]
*/
#include "lds_hpa_query_internal.h"
#include "lds_landmarks.h"
#include "lds_search.h"

#include <string.h>

#if defined(__GNUC__) || defined(__clang__)
#define LDSI_HPA_PREFETCH(p) __builtin_prefetch(p)
#else
#define LDSI_HPA_PREFETCH(p) ((void)sizeof(p))
#endif

/* per padded cell: 24 bytes, one cache access per generated cell */
typedef struct XRec {
  double g;
  double h;      /* cached heuristic; INFINITY: cannot reach the goal */
  uint32_t gen;
  uint8_t par;   /* direction that reached the cell, 8 = the start */
} XRec;

/* open-list entry: (k1, k2) ascending is f ascending, then g descending */
typedef struct XOpen {
  uint64_t k1;   /* the bits of f rounded to 2^-30 (ordered as integers: f >= 0) */
  uint32_t k2;   /* ~ the bits of (float)g: larger g first */
  uint32_t node;
} XOpen;

struct ldsi_HpaExact {
  size_t cells;  /* padded cells */
  XRec *rec;
  const ldsi_Env *env;
  XOpen *open;
  size_t n, cap; /* open entries, allocated */
  /* the plateau stack: successors with the f of the cell being expanded,
  ** popped before the heap while no heap entry has a smaller f */
  XOpen *stk;
  size_t ns, scap;
  uint32_t cur;  /* generation */
  /* the query's landmarks: those whose table reaches the goal */
  int nact;
  uint8_t act[LDSI_LM_MAX];
  uint32_t gt[LDSI_LM_MAX]; /* T_L(goal) of each */
  /* uniform costs: prune[d][nbr[u]] = the directions from v = u + d whose
  ** cell is u or a cell u reaches by a legal move (see run) */
  uint8_t prune[8][256];
  /* uniform-cost grids: Jump Point Search (lds_HpaParams.optimal_jps) */
  bool use_jps;
  lds_Search *jps; /* created by the first such query */
};

void ldsi_hpa_exact_free(lds_HpaQuery *q) {
  ldsi_HpaExact *x = q->ex;
  const ldsi_Env *e = &q->env;
  if (!x) return;
  if (x->rec) ldsi_free(e, x->rec, x->cells * sizeof(XRec));
  if (x->open) ldsi_free(e, x->open, x->cap * sizeof(XOpen));
  if (x->stk) ldsi_free(e, x->stk, x->scap * sizeof(XOpen));
  lds_search_free(x->jps);
  ldsi_free(e, x, sizeof *x);
  q->ex = NULL;
}

static bool exact_alloc(lds_HpaQuery *q) {
  const ldsi_Env *e = &q->env;
  ldsi_HpaExact *x = ldsi_calloc(e, 1, sizeof *x);
  if (!x) return false;
  q->ex = x;
  x->env = &q->env;
  x->cells = q->h->grid->pcells;
  x->cap = 4096;
  x->scap = 1024;
  x->rec = ldsi_calloc(e, x->cells, sizeof(XRec));
  x->open = ldsi_alloc(e, x->cap * sizeof(XOpen));
  x->stk = ldsi_alloc(e, x->scap * sizeof(XOpen));
  if (!x->rec || !x->open || !x->stk) {
    ldsi_hpa_exact_free(q);
    return false;
  }
  {
    int d, dw, m;
    for (d = 0; d < 8; d++)
      for (m = 0; m < 256; m++) {
        uint8_t bits = 0;
        for (dw = 0; dw < 8; dw++) {
          int vx = ldsi_dir_dx[d] + ldsi_dir_dx[dw], vy = ldsi_dir_dy[d] + ldsi_dir_dy[dw], f;
          if (vx == 0 && vy == 0) {
            bits |= (uint8_t)(1u << dw); /* back to u */
            continue;
          }
          if (vx < -1 || vx > 1 || vy < -1 || vy > 1) continue;
          f = lds_direction_of(vx, vy);
          if ((m >> f) & 1) bits |= (uint8_t)(1u << dw);
        }
        x->prune[d][m] = bits;
      }
  }
  return true;
}

/* ------------------------------------------------------- open list -- */

static inline bool xless(const XOpen *a, const XOpen *b) {
  return a->k1 < b->k1 || (a->k1 == b->k1 && a->k2 < b->k2);
}

/* A 4-ary heap without positions (lazy deletion): a cell whose g improves
** is pushed again and its older entry, whose key no longer matches the
** cell's f, is skipped when popped; so sifting never writes the cell
** records (one cache miss each on a big grid). */
static inline bool xpush(ldsi_HpaExact *x, XOpen e) {
  XOpen *o;
  size_t i;
  if (x->n == x->cap) {
    size_t nc = 2 * x->cap;
    XOpen *no = ldsi_realloc(x->env, x->open, x->cap * sizeof(XOpen), nc * sizeof(XOpen));
    if (!no) return false;
    x->open = no;
    x->cap = nc;
  }
  o = x->open;
  i = x->n++;
  while (i > 0) {
    size_t up = (i - 1) >> 2;
    if (!xless(&e, &o[up])) break;
    o[i] = o[up];
    i = up;
  }
  o[i] = e;
  return true;
}

static inline XOpen xpop(ldsi_HpaExact *x) {
  XOpen *o = x->open, top = o[0], last;
  size_t n = --x->n, i = 0;
  if (n == 0) return top;
  last = o[n];
  for (;;) {
    size_t c = 4 * i + 1, b = c, j, end;
    if (c >= n) break;
    end = c + 4 < n ? c + 4 : n;
    for (j = c + 1; j < end; j++)
      if (xless(&o[j], &o[b])) b = j;
    if (!xless(&o[b], &last)) break;
    o[i] = o[b];
    i = b;
  }
  o[i] = last;
  return top;
}

/* The open-list key of f: f rounded to a multiple of 2^-30 cost units, so
** that paths of equal real cost whose g and h were rounded differently tie,
** and the tie goes to the larger g. The first goal popped is then optimal
** to within 2^-30 (about 1e-9) cost units, the tolerance of the scen check. */
static inline uint64_t key_of(double f) {
  double r = floor(f * 1073741824.0 + 0.5) / 1073741824.0 + 0.0;
  uint64_t b;
  memcpy(&b, &r, sizeof b);
  return b;
}

static inline uint32_t gkey(double g) {
  float f = (float)g;
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return ~b;
}

/* Queues r with g and h; an f equal to fk (the expanded cell's) goes on the
** plateau stack: such a successor has the smallest f there is (no heap
** entry is below fk while fk is being expanded), so it may be expanded
** before every heap entry, and a stack avoids the heap's sifting on the
** long plateaus of equal f of open ground (as lds_astar.c's batch). */
static inline bool push(ldsi_HpaExact *x, uint32_t r, double g, double h, uint64_t fk) {
  XOpen e;
  e.k1 = key_of(g + h);
  e.k2 = gkey(g);
  e.node = r;
  if (e.k1 == fk) {
    if (x->ns == x->scap) {
      size_t nc = 2 * x->scap;
      XOpen *ns = ldsi_realloc(x->env, x->stk, x->scap * sizeof(XOpen), nc * sizeof(XOpen));
      if (!ns) return false;
      x->stk = ns;
      x->scap = nc;
    }
    x->stk[x->ns++] = e;
    return true;
  }
  return xpush(x, e);
}

/* ------------------------------------------------------- heuristic -- */

/* h of padded cell p at (px, py) */
static inline double heur(const lds_HpaQuery *q, const ldsi_HpaExact *x, const ldsi_Landmarks *m,
                         size_t p, int32_t px, int32_t py) {
  const uint32_t *t = ldsi_lm_row(m, p);
  double oct = q->h->minc * ldsi_hpa_octile(q->gx - px, q->gy - py), lb;
  uint32_t best = 0;
  int i;
  for (i = 0; i < x->nact; i++) {
    uint32_t a = t[x->act[i]], b = x->gt[i], d = a > b ? a - b : b - a;
    best = d > best ? d : best;
  }
  if (best >= LDSI_LM_LIMIT) return INFINITY; /* unreached in a table that reaches the goal */
  lb = (double)best * m->q;
  return lb > oct ? lb : oct;
}

/* --------------------------------------------------------- search -- */

lds_Status ldsi_hpa_exact_start(lds_HpaQuery *q) {
  ldsi_HpaExact *x;
  const ldsi_Landmarks *m = q->h->lm;
  const uint32_t *tg;
  XRec *s;
  int l;
  if (!m) {
    ldsi_msg(q->errmsg, "lds_hpa_query_start: the optimal mode needs a hierarchy built with "
                        "lower_bounds (this one was not)");
    return LDS_E_ARG;
  }
  if (!q->ex && !exact_alloc(q)) {
    ldsi_msg(q->errmsg, "lds_hpa_query_start: out of memory for the optimal mode (%zu cells)",
             q->h->grid->pcells);
    return LDS_E_NOMEM;
  }
  x = q->ex;
  {
    /* Jump Point Search is exact and far cheaper where it applies:
    ** uniform costs (no weights, every cell cost 1), 8 neighbours and a
    ** rule its jumps know (lds_jps.h) */
    const lds_Grid *g = q->h->grid;
    x->use_jps = q->h->optimal_jps && q->h->nweights == 0 && g->nonunit == 0 &&
                 g->neighbourhood == 8 && (g->diag == LDS_DIAG_NO_CORNER_CUTTING ||
                                           g->diag == LDS_DIAG_ALWAYS);
    if (x->use_jps) {
      lds_SearchParams sp;
      lds_Env pe = ldsi_env_public(&q->env);
      lds_Error err;
      lds_Status st;
      if (!x->jps && !(x->jps = lds_search_new(&pe, g, &err))) {
        ldsi_msg(q->errmsg, "lds_hpa_query_start: %s", err.msg);
        return err.code;
      }
      lds_search_params_init(&sp);
      sp.algo = LDS_ALGO_JPS;
      st = lds_search_start(x->jps, &sp, q->sx, q->sy, q->gx, q->gy);
      if (st != LDS_OK) ldsi_msg(q->errmsg, "lds_hpa_query_start: %s", lds_search_errmsg(x->jps));
      return st;
    }
  }
  tg = ldsi_lm_row(m, q->pg);
  x->nact = 0;
  for (l = 0; l < m->k; l++)
    if (tg[l] != LDSI_LM_INF) {
      x->act[x->nact] = (uint8_t)l;
      x->gt[x->nact++] = tg[l];
    }
  if (++x->cur == 0) {
    size_t i;
    for (i = 0; i < x->cells; i++) x->rec[i].gen = 0;
    x->cur = 1;
  }
  x->n = 0;
  s = &x->rec[q->ps];
  s->gen = x->cur;
  s->g = 0.0;
  s->par = 8;
  /* the start is popped first whatever its h; a start blocked by a layer
  ** only (left, never entered) is outside the tables */
  s->h = 0.0;
  x->ns = 0;
  push(x, (uint32_t)q->ps, 0.0, 0.0, UINT64_MAX); /* cap >= 1: cannot fail */
  q->stats.pushes++;
  return LDS_OK;
}

/* path from the parents into q->cells */
static lds_Status trace(lds_HpaQuery *q) {
  const ldsi_HpaExact *x = q->ex;
  ptrdiff_t off[8];
  size_t p = q->pg, n = 1, k;
  ldsi_grid_offsets(q->h->grid, off);
  while (x->rec[p].par != 8) {
    p = (size_t)((ptrdiff_t)p - off[x->rec[p].par]);
    n++;
  }
  if (n > q->ccap) {
    uint32_t *c = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), n * sizeof(uint32_t));
    if (!c) return LDS_E_NOMEM;
    q->cells = c;
    q->ccap = n;
  }
  p = q->pg;
  for (k = n; k-- > 0;) {
    q->cells[k] = (uint32_t)p;
    if (x->rec[p].par == 8) break;
    p = (size_t)((ptrdiff_t)p - off[x->rec[p].par]);
  }
  q->ncells = n;
  q->cost = 0.0;
  for (k = 1; k < n; k++) {
    int32_t x0, y0, x1, y1;
    ldsi_grid_pxy(q->h->grid, q->cells[k - 1], &x0, &y0);
    ldsi_grid_pxy(q->h->grid, q->cells[k], &x1, &y1);
    q->cost += ldsi_hpa_move_len(lds_direction_of(x1 - x0, y1 - y0)) * ldsi_hpa_cost(q->h, q->cells[k]);
  }
  return LDS_OK;
}

/* The expansion loop; weighted (a constant after inlining) reads the
** effective cost with the layer weights, else the cell cost alone (a legal
** move never enters a blocked cell). */
static inline lds_Status run(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us, uint64_t t0,
                             const bool weighted) {
  lds_Hpa *h = q->h;
  ldsi_HpaExact *x = q->ex;
  const ldsi_Landmarks *m = h->lm;
  const lds_Grid *g = h->grid;
  const ptrdiff_t *off = h->off;
  const float *cost = g->cost;
  const uint8_t *nbr = g->nbr;
  XRec *rec = x->rec;
  uint32_t cur = x->cur, pw = (uint32_t)g->pw;
  uint64_t done = 0;
  const bool uniform = !weighted && g->nonunit == 0;
  while (x->n || x->ns) {
    uint32_t p;
    uint64_t fk;
    int32_t px, py;
    double gp;
    unsigned msk;
    int d;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && (done & 63) == 63 && q->env.clock(q->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    {
      XOpen e = x->ns && (!x->n || x->stk[x->ns - 1].k1 <= x->open[0].k1) ? x->stk[--x->ns] : xpop(x);
      p = e.node;
      fk = e.k1;
      if (fk != key_of(rec[p].g + rec[p].h)) continue; /* an older entry of an improved cell */
    }
    done++;
    q->stats.expansions++;
    if (p == q->pg) {
      if (trace(q) != LDS_OK) {
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
        return LDS_E_NOMEM;
      }
      return LDS_FOUND;
    }
    gp = rec[p].g;
    msk = nbr[p];
    /* Uniform costs: a neighbour w of p that p's parent u reaches by a
    ** legal move (or u itself) costs g(u) + 1 or sqrt 2 from u, less than
    ** g(u) + len(u, p) + len(p, w) >= g(u) + 2 through p, and u was
    ** expanded first (consistent h): relaxing w from p changes nothing, so
    ** it is skipped (the rule of lds_astar.c's exact loop). */
    if (uniform && rec[p].par < 8)
      msk &= ~(unsigned)x->prune[rec[p].par][nbr[(ptrdiff_t)p - off[rec[p].par]]];
    LDSI_HPA_PREFETCH(&rec[p - pw]);
    LDSI_HPA_PREFETCH(&rec[p + pw]);
    LDSI_HPA_PREFETCH(ldsi_lm_row(m, p - pw));
    LDSI_HPA_PREFETCH(ldsi_lm_row(m, p + pw));
    py = (int32_t)(p / pw) - 1;
    px = (int32_t)(p % pw) - 1;
    for (d = 0; d < 8; d++) {
      size_t r;
      double c;
      XRec *R;
      if (!(msk & (1u << d))) continue;
      r = (size_t)((ptrdiff_t)p + off[d]);
      if (weighted) {
        c = ldsi_hpa_cost(h, r);
        if (!isfinite(c)) continue;
      } else {
        c = (double)cost[r];
      }
      c = gp + (d < 4 ? c : LDSI_SQRT2 * c);
      R = &rec[r];
      if (R->gen != cur) {
        R->gen = cur;
        R->h = heur(q, x, m, r, px + ldsi_dir_dx[d], py + ldsi_dir_dy[d]);
        R->g = INFINITY;
      } else if (!(c < R->g)) {
        continue;
      }
      if (!isfinite(R->h)) continue; /* cannot reach the goal */
      R->g = c;
      R->par = (uint8_t)d;
      if (!push(x, (uint32_t)r, c, R->h, fk)) {
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory (open list of %zu entries)", x->n);
        return LDS_E_NOMEM;
      }
      q->stats.pushes++;
    }
    if (x->n > q->stats.peak_open) q->stats.peak_open = x->n;
  }
  return LDS_NO_PATH;
}

/* The JPS query's slice; its path into q->cells. */
static lds_Status run_jps(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us) {
  ldsi_HpaExact *x = q->ex;
  const lds_Grid *g = q->h->grid;
  lds_Budget b;
  lds_Stats st0, st1;
  lds_Status st;
  b.max_expansions = max_exp;
  b.budget_us = budget_us;
  lds_search_stats(x->jps, &st0);
  st = lds_search_step(x->jps, &b);
  lds_search_stats(x->jps, &st1);
  q->stats.expansions += st1.expansions - st0.expansions;
  q->stats.pushes += st1.pushes - st0.pushes;
  if (st1.peak_open > q->stats.peak_open) q->stats.peak_open = st1.peak_open;
  if (st == LDS_FOUND) {
    lds_Error err;
    lds_Path *p = lds_search_path(x->jps, &err);
    size_t n, i;
    if (!p) {
      ldsi_msg(q->errmsg, "lds_hpa_query_step: %s", err.msg);
      return err.code;
    }
    n = lds_path_length(p);
    if (n > q->ccap) {
      uint32_t *c = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), n * sizeof(uint32_t));
      if (!c) {
        lds_path_free(p);
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
        return LDS_E_NOMEM;
      }
      q->cells = c;
      q->ccap = n;
    }
    for (i = 0; i < n; i++) {
      int32_t cx, cy;
      lds_path_cell(p, i, &cx, &cy);
      q->cells[i] = (uint32_t)ldsi_grid_pidx(g, cx, cy);
    }
    q->ncells = n;
    q->cost = lds_path_cost(p);
    lds_path_free(p);
  } else if (st < 0) {
    ldsi_msg(q->errmsg, "lds_hpa_query_step: %s", lds_search_errmsg(x->jps));
  }
  return st;
}

lds_Status ldsi_hpa_exact_run(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  if (q->ex->use_jps) return run_jps(q, max_exp, budget_us);
  return q->h->nweights ? run(q, max_exp, budget_us, t0, true) : run(q, max_exp, budget_us, t0, false);
}
