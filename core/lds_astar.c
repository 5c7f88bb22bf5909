/* SPDX-License-Identifier: MIT */
/*
** lds_astar.c — the grid A* family (A*, Dijkstra, weighted A*, greedy) as
** the search object's expansion loop (ldsi_astar_ops): one loop specialised
** at compile time on the heuristic, the cost mode and the open list's key
** form, among them the exact uniform-cost octile loop (exact keys, 16-byte
** records) that most queries run, and the landmark loop (hk LDSI_H_LM: the
** ALT heuristic of ldsi_LmHeur, for the hierarchy's optimal mode).
**
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968 (A*); Pohl, AI 1(3)
**  1970 (weighted A*); Dijkstra, Numerische Mathematik 1 1959; Goldberg &
**  Harrelson, SODA 2005 (ALT: the landmark loop)]
*/
#include "lds_open_list.h"
#include "lds_search_internal.h"

#include <math.h>
#include <string.h>

#define CLOCK_EVERY 64 /* expansions between two clock reads */

/* cost modes: uniform (every cell costs 1: no cost load), plain (cell costs),
** weighted (cell costs + layers), callback (+ the edge callback) */
enum { MODE_UNIFORM = 0, MODE_PLAIN = 1, MODE_WEIGHTED = 2, MODE_CALLBACK = 3 };

/* increments of the packed move counts ns | nd << 32, per direction */
static const uint64_t nsd_inc[8] = {1, 1, 1, 1, 1ull << 32, 1ull << 32, 1ull << 32, 1ull << 32};

/* The landmark heuristic (hk of the landmark loop; not a lds_Heuristic):
** h(v) = max(hw * octile, q * max_L |T_L(v) - T_L(goal)|) over the query's
** active landmarks (ldsi_LmHeur). It is computed once per cell, when the
** cell is first reached, and kept in the cell's nsd field (as the bits of
** the double: the landmark loop runs the plain and weighted cost modes,
** which keep no move counts). Keys: f is rounded to a multiple of 2^-30
** cost units (lm_key), so paths of equal real cost whose sums of doubles
** round differently tie exactly and the tie goes to the larger g, as it
** does for exactly equal f (the plateau stack then walks such a plateau
** without heap operations). Both
** terms are consistent, but the rounding may break consistency by a unit,
** so a closed cell whose g improves is reopened (s->reopen): the first
** goal popped costs the optimum to within 2^-30 cost units per reopening
** (none was seen on the tests' maps). */
#define LDSI_H_LM 100

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* The plateau stack. With a consistent heuristic, a fresh successor v of
** the node u just expanded with f(v) == f(u) and g(v) > g(u) precedes every
** open node under the open list's order: u was the minimum, so any other open
** node has a larger f, or the same f and g <= g(u). Such successors (sorted
** among themselves, at most 8) skip the heap and go on top of a stack, which
** therefore stays sorted; the other successors go to the heap. A pop takes the
** smaller of the stack top and the heap top under ldsi_open_less_x, so the expansion
** order, and every path, is exactly that of a plain heap, while the walk along
** a plateau of equal f (common on grids, where f is exact: see ldsi_Node)
** costs O(1) per node instead of two heap operations.
** Only fresh nodes enter the stack; one that later improves moves to the heap
** and its stack entry is dropped as stale (node heap field != LDSI_INBUF).
** A full stack sends successors to the heap, which is always correct. */

/* The loop invariants of one grid_loop run, read by the helpers it inlines
** (relax_uniform, relax_hot, ...). A local of grid_loop whose address does
** not escape the inlined code, so the compiler keeps its fields in
** registers or stack slots, as for separate arguments (the same
** instruction counts under callgrind). */
typedef struct AstarCtx {
  lds_Search *s;
  ldsi_Node *nodes;
  ldsi_Hot *hot;         /* dense ldsi_Hot records (paged ones: s->hot_tab) */
  const uint8_t *nbr;
  const uint8_t *dir_k; /* the prune table's k of the move in each direction */
  const ptrdiff_t *off; /* neighbour offsets (ldsi_grid_offsets) */
  uint32_t gen, pw;
  uint32_t nomove;      /* the extra record: see relax_uniform */
  uint32_t start;
  int32_t gx, gy;       /* the goal */
  double hw, gk;
  bool exact_f, reopen;
} AstarCtx;

/* The ldsi_Hot record of node v in the loop of key form kf (dense or paged) */
LDSI_INLINE ldsi_Hot *hot_rec(const AstarCtx *c, uint32_t v, const ldsi_KeyForm kf) {
  return kf == LDSI_KEYS_EXACT_PAGED ? LDSI_HOT_REC(c->s, v, kf) : c->hot + v;
}

/* The node u being expanded, as its successors' relaxations read it, and
** the plateau batch they fill (nb entries). */
typedef struct AstarExp {
  uint32_t u, nbr_u;    /* its id and legal-move mask */
  int32_t ux, uy;
  double gu, fu;        /* general form: its g and f */
  uint64_t fku, hku;    /* exact form: its f key and h key */
  ldsi_Open *batch;
  int nb;
} AstarExp;

/* f rounded to a multiple of 2^-30 (below 2^22 cost units; beyond, the
** nearest multiple of the double spacing of f + 2^22, still monotone): the
** landmark loop's key. Adding and subtracting 2^22 rounds to nearest. */
LDSI_INLINE double lm_key(double f) { return (f + 4194304.0) - 4194304.0; }

/* The landmark heuristic of padded cell v at (dx, dy) from the goal
** (INFINITY: v cannot reach the goal) */
LDSI_INLINE double lm_h(const lds_Search *s, uint32_t v, int32_t dx, int32_t dy) {
  double oct = s->hw * ldsi_hdist(LDS_H_OCTILE, dx, dy), lb = ldsi_lmh_bound(s->lm, v);
  return lb > oct ? lb : oct;
}

/* the heuristic kept in a landmark-loop record's nsd */
LDSI_INLINE double lm_cached(uint64_t nsd) {
  double h;
  memcpy(&h, &nsd, sizeof h);
  return h;
}

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
  LDSI_PREFETCH(&nodes[v - pw]);
  LDSI_PREFETCH(&nodes[v + pw]);
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
LDSI_INLINE void relax_uniform(const AstarCtx *c, AstarExp *x, uint32_t m, const int d,
                               double ng, uint64_t nsd, const int hk) {
  lds_Search *s = c->s;
  ldsi_Node *nodes = c->nodes;
  const uint32_t gen = c->gen, u = x->u;
  uint32_t v = ((m >> d) & 1u) ? (uint32_t)((ptrdiff_t)u + c->off[d]) : c->nomove;
  ldsi_Node *nv = &nodes[v];
  double gv = nv->gen == gen ? nv->g : INFINITY, fv;
  int32_t vx, vy;
  if (!(ng < gv)) return;
  vx = x->ux + ldsi_dir_dx[d];
  vy = x->uy + ldsi_dir_dy[d];
  fv = succ_f(c->exact_f, nsd, ng, c->gk, c->hw, hk, c->gx - vx, c->gy - vy);
  if (nv->gen != gen) { /* fresh */
    claim_fresh(nodes, v, c->pw, gen, ng, u, nsd);
    ldsi_queue_fresh_x(s, x->batch, &x->nb, 8, v, fv, ng, 0, x->fu, x->gu, LDSI_KEYS_GENERAL);
    return;
  }
  if (nv->heap == LDSI_CLOSED && !c->reopen) return;
  nv->g = ng;
  nv->parent = u;
  nv->nsd = nsd;
  if (nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF) {
    ldsi_open_push_x(s, v, fv, ng, 0, LDSI_KEYS_GENERAL); /* a stack entry turns stale */
  } else {
    ldsi_open_decrease_x(s, nv->heap, fv, ng, 0, LDSI_KEYS_GENERAL);
  }
}

/* The same in the exact loop (kf = 2: exact keys, 16-byte records, see
** ldsi_Hot): g(v) comes from v's move counts, a fresh record takes the
** counts and the direction d of the move from u (its parent), and the
** heuristic is octile with weight 1, so no closed node improves (no
** reopening). The records of the rows above and below a fresh node are
** fetched, as in claim_fresh. */
LDSI_INLINE void relax_hot(const AstarCtx *c, AstarExp *x, uint32_t m, const int d, double ng,
                           uint64_t nsd, const ldsi_KeyForm kf) {
  lds_Search *s = c->s;
  const uint32_t gen = c->gen, u = x->u;
  uint32_t v = ((m >> d) & 1u) ? (uint32_t)((ptrdiff_t)u + c->off[d]) : c->nomove;
  ldsi_Hot *hv = hot_rec(c, v, kf);
  double gv = hv->gen == gen ? ldsi_hot_g(hv->nsd) : INFINITY;
  uint64_t hk2, fkv;
  uint32_t mv;
  int32_t vx, vy, dx, dy;
  uint32_t ax, ay, lo, hi;
  if (!(ng < gv)) return;
  vx = x->ux + ldsi_dir_dx[d];
  vy = x->uy + ldsi_dir_dy[d];
  dx = c->gx - vx;
  dy = c->gy - vy;
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
  mv = (uint32_t)c->nbr[v] & ~(uint32_t)s->prune[c->dir_k[d]][x->nbr_u];
  if (hv->gen != gen) { /* fresh */
    if (kf == LDSI_KEYS_EXACT_PAGED && LDSI_UNLIKELY(hv - (v & LDSI_PAGE_MASK) == ldsi_hot_zero_page))
      hv = ldsi_hot_map(s, v); /* the query's first record in v's page */
    LDSI_PREFETCH(hot_rec(c, v - c->pw, kf));
    LDSI_PREFETCH(hot_rec(c, v + c->pw, kf));
    hv->gen = gen;
    hv->nsd = nsd | (uint64_t)d << 60;
    /* ldsi_queue_fresh_x with keys: equal f and a larger g, that is a
    ** smaller h, go on the plateau batch */
    if (fkv == x->fku && hk2 < x->hku && x->nb < 8 && s->buf_n + (size_t)x->nb < LDSI_BUF_CAP) {
      ldsi_Open *e = &x->batch[x->nb++];
      e->fk = fkv;
      e->k2 = hk2 | s->seq++;
      e->seq = mv;
      e->node = v;
      s->stats.pushes++;
    } else {
      ldsi_open_push_fk(s, v, fkv, hk2, mv, kf);
    }
    return;
  }
  if (hv->heap == LDSI_CLOSED) return;
  hv->nsd = nsd | (uint64_t)d << 60;
  if (hv->heap == LDSI_INBUF) {
    ldsi_open_push_fk(s, v, fkv, hk2, mv, kf); /* a stack entry turns stale */
  } else {
    ldsi_open_decrease_fk(s, hv->heap, fkv, hk2, mv, kf);
  }
}

/* The position of u (padded id) and its keys: *x's ux, uy, and fu (the
** general form) or fku, hku (the exact form); fku and k2u are those of u's
** entry, the f it was queued with. */
LDSI_INLINE void expand_keys(const AstarCtx *c, AstarExp *x, double inv_pw, uint64_t nsd_u,
                             uint64_t fku, uint64_t k2u, const int hk, const ldsi_KeyForm kf) {
  const uint32_t u = x->u, pw = c->pw;
  const int32_t gx = c->gx, gy = c->gy;
  {
    /* u / pw by a multiply (a 32-bit division costs ~25 cycles per
    ** expansion); the estimate is off by at most one, corrected below */
    uint32_t q = (uint32_t)((double)u * inv_pw);
    if ((uint64_t)q * pw > u) q--;
    else if ((uint64_t)(q + 1) * pw <= u) q++;
    x->uy = (int32_t)q - 1;
    x->ux = (int32_t)(u - q * pw) - 1;
  }
  x->fku = fku;
  if (LDSI_EXACT(kf)) {
    /* the keys it was queued with, but for the start, queued with
    ** ldsi_hdist's rounding before the loop knew it would be exact
    ** (a branch: not computed for every node) */
    x->fu = 0.0; /* not needed: the keys order */
    x->hku = k2u & ~(uint64_t)UINT32_MAX;
    if (LDSI_UNLIKELY(u == c->start)) {
      int32_t dxs = gx - x->ux, dys = gy - x->uy;
      uint32_t ax = (uint32_t)(dxs < 0 ? -dxs : dxs), ay = (uint32_t)(dys < 0 ? -dys : dys);
      uint32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
      x->fku = ldsi_exact_f_key(hi - lo, lo); /* the start's g is 0 */
      x->hku = ldsi_exact_h_key(gx - x->ux, gy - x->uy, c->s->hq_a, c->s->hq_c);
    }
  } else if (c->exact_f) {
    /* the f it was queued with, but for the start, queued with ldsi_hdist's
    ** rounding before the loop knew it would be exact */
    x->fu = u != c->start ? ldsi_open_val(fku)
                          : ldsi_exact_octile_f(nsd_u, gx - x->ux, gy - x->uy);
  } else if (hk == LDSI_H_LM) {
    x->fu = lm_key(x->gu + lm_cached(nsd_u)); /* the start's h is 0: it is popped first */
  } else {
    x->fu = c->gk * x->gu + c->hw * ldsi_hdist(hk, gx - x->ux, gy - x->uy);
  }
}

/* Relaxes u's successors in the uniform-cost mode (directions m): the exact
** g of a straight and of a diagonal successor, as ns + nd*sqrt(2) from their
** own counts (ns + 1 never wraps: paths are far shorter than 2^32 moves), so
** they are bit-identical to the g computed anywhere else from the same
** counts. */
LDSI_INLINE void relax_uniform_all(const AstarCtx *c, AstarExp *x, uint32_t m, uint64_t nsd_u,
                                   const int hk, const ldsi_KeyForm kf) {
  const uint32_t ns = (uint32_t)nsd_u, nd = (uint32_t)(nsd_u >> 32);
  const uint64_t nsd_s = nsd_u + 1, nsd_d = nsd_u + (1ull << 32);
  const double g_s = (double)(ns + 1u) + (double)nd * LDSI_SQRT2;
#define LDSI_RELAX(d, gg, nn)                       \
  do {                                              \
    if (LDSI_EXACT(kf))                             \
      relax_hot(c, x, m, d, gg, nn, kf);            \
    else                                            \
      relax_uniform(c, x, m, d, gg, nn, hk);        \
  } while (0)
  if (x->nbr_u & 0xF0u) {
    const double g_d = (double)ns + (double)(nd + 1u) * LDSI_SQRT2;
    /* a legal diagonal: the eight directions unrolled, relaxed
    ** branch-light (relax_uniform); in the exact loop each is first kept
    ** or dropped by its bit (the pattern follows the parent's direction,
    ** which the branch predictor mostly learns) */
#define LDSI_RELAXB(d, gg, nn) \
  if (!LDSI_EXACT(kf) || ((m >> (d)) & 1u)) LDSI_RELAX(d, gg, nn)
    LDSI_RELAXB(0, g_s, nsd_s);
    LDSI_RELAXB(1, g_s, nsd_s);
    LDSI_RELAXB(2, g_s, nsd_s);
    LDSI_RELAXB(3, g_s, nsd_s);
    LDSI_RELAXB(4, g_d, nsd_d);
    LDSI_RELAXB(5, g_d, nsd_d);
    LDSI_RELAXB(6, g_d, nsd_d);
    LDSI_RELAXB(7, g_d, nsd_d);
#undef LDSI_RELAXB
  } else if (LDSI_EXACT(kf)) {
    /* straight moves only (corridors, mazes, 4-connected grids): in a
    ** corridor only the cell ahead is left, and the remaining directions
    ** are visited by their bits, in direction order; the loop's trip
    ** count is then nearly always one, where a test per direction of
    ** which neighbour is fresh mispredicts about once per expansion */
    while (m) {
      int d = __builtin_ctz(m);
      relax_hot(c, x, m, d, g_s, nsd_s, kf);
      m &= m - 1;
    }
  } else {
    LDSI_RELAX(0, g_s, nsd_s);
    LDSI_RELAX(1, g_s, nsd_s);
    LDSI_RELAX(2, g_s, nsd_s);
    LDSI_RELAX(3, g_s, nsd_s);
  }
#undef LDSI_RELAX
}

/* Relaxes u's successors (directions m) in the other cost modes, one
** branchy step per legal move: plain cell costs, the weighted costs cached
** at start, or the edge callback. Returns LDS_OK or LDS_E_CALLBACK (message
** in s->errmsg). */
LDSI_INLINE lds_Status relax_general(const AstarCtx *c, AstarExp *x, uint32_t m, uint64_t nsd_u,
                                     const int hk, const int mode, const ldsi_KeyForm kf) {
  lds_Search *s = c->s;
  ldsi_Node *nodes = c->nodes;
  const float *cost = s->grid->cost;
  const double *eff = s->eff;
  const uint32_t gen = c->gen, u = x->u;
  const int32_t ux = x->ux, uy = x->uy, gx = c->gx, gy = c->gy;
  const double gu = x->gu;
  while (m) {
    int d = __builtin_ctz(m);
    uint32_t v = (uint32_t)((ptrdiff_t)u + c->off[d]);
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
      double cv = s->nweights ? eff[v] : (double)cost[v];
      if (cv == INFINITY) continue;
      step = move_len[d] * cv;
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
    if (hk == LDSI_H_LM && nv->gen != gen) {
      double hv;
      vx = ux + ldsi_dir_dx[d];
      vy = uy + ldsi_dir_dy[d];
      hv = lm_h(s, v, gx - vx, gy - vy);
      if (hv == INFINITY) continue; /* cannot reach the goal: never queued */
      memcpy(&nsd, &hv, sizeof nsd);
      claim_fresh(nodes, v, c->pw, gen, ng, u, nsd);
      /* v's neighbours' rows are read when v is expanded */
      LDSI_PREFETCH(s->lm->tab + (size_t)(v - c->pw) * s->lm->stride);
      LDSI_PREFETCH(s->lm->tab + (size_t)(v + c->pw) * s->lm->stride);
      ldsi_queue_fresh_x(s, x->batch, &x->nb, 8, v, lm_key(ng + hv), ng, 0, x->fu, gu, kf);
      continue;
    }
    if (nv->gen != gen) {
      vx = ux + ldsi_dir_dx[d];
      vy = uy + ldsi_dir_dy[d];
      claim_fresh(nodes, v, c->pw, gen, ng, u, nsd);
      fv = succ_f(c->exact_f, nsd, ng, c->gk, c->hw, hk, gx - vx, gy - vy);
      ldsi_queue_fresh_x(s, x->batch, &x->nb, 8, v, fv, ng,
                         LDSI_EXACT(kf) ? ldsi_exact_h_key(gx - vx, gy - vy, s->hq_a, s->hq_c) : 0,
                         x->fu, gu, kf);
      continue;
    }
    if (!(ng < nv->g)) continue;
    if (nv->heap == LDSI_CLOSED && !c->reopen) continue;
    vx = ux + ldsi_dir_dx[d];
    vy = uy + ldsi_dir_dy[d];
    if (hk == LDSI_H_LM) {
      fv = lm_key(ng + lm_cached(nv->nsd)); /* nsd keeps v's h */
    } else {
      fv = succ_f(c->exact_f, nsd, ng, c->gk, c->hw, hk, gx - vx, gy - vy);
      nv->nsd = nsd;
    }
    nv->g = ng;
    nv->parent = u;
    {
      uint64_t hk2 = LDSI_EXACT(kf) ? ldsi_exact_h_key(gx - vx, gy - vy, s->hq_a, s->hq_c) : 0;
      if (nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF) {
        ldsi_open_push_x(s, v, fv, ng, hk2, kf); /* a stack entry turns stale */
      } else {
        ldsi_open_decrease_x(s, nv->heap, fv, ng, hk2, kf);
      }
    }
  }
  return LDS_OK;
}

/* The expansion loop, specialised at compile time on the heuristic, the
** cost mode and the key form kf (always_inline + constant arguments): the
** uniform-cost octile case, the one benchmarks and most games hit, runs with
** LDSI_KEYS_EXACT_HOT: exact keys and the 16-byte records of ldsi_Hot
** (s->hot), which halve the memory a query touches per node; every other
** case with LDSI_KEYS_GENERAL and ldsi_Node records. Returns the new
** status. */
LDSI_INLINE lds_Status grid_loop(lds_Search *s, uint64_t max_exp, uint64_t budget_us,
                                 uint64_t t0, const int hk, const int mode, const ldsi_KeyForm kf) {
  const lds_Grid *g = s->grid;
  const uint8_t *nbr = g->nbr;
  const double inv_pw = 1.0 / (double)g->pw;
  const uint32_t goal = s->goal, start = s->start;
  ptrdiff_t off[8];
  uint8_t dir_k[8]; /* the prune table's k of the move in each direction */
  uint64_t done = 0;
  AstarCtx c;
  c.s = s;
  c.nodes = s->nodes;
  c.hot = s->hot;
  c.nbr = nbr;
  c.dir_k = dir_k;
  c.off = off;
  c.gen = s->gen;
  c.pw = (uint32_t)g->pw;
  c.nomove = (uint32_t)s->nnodes;
  c.start = start;
  c.gx = s->gx;
  c.gy = s->gy;
  c.hw = s->hw;
  c.gk = s->gk;
  c.reopen = s->reopen;
  /* exact f on uniform grids: f = (ns + dmax - dmin) + (nd + dmin)*sqrt(2) */
  c.exact_f = mode == MODE_UNIFORM && hk == LDS_H_OCTILE && c.hw == 1.0 && c.gk == 1.0;
  ldsi_grid_offsets(g, off);
  for (int d = 0; d < 8; d++) dir_k[d] = (uint8_t)(3 * (ldsi_dir_dy[d] + 1) + ldsi_dir_dx[d] + 1);
  if (LDSI_HOTREC(kf)) {
    ldsi_Hot *nm = ldsi_hot_claim(s, c.nomove);
    nm->gen = c.gen;
    nm->nsd = 0; /* g = 0 */
  } else {
    c.nodes[c.nomove].gen = c.gen;
    c.nodes[c.nomove].g = 0.0; /* every move costs more: never improved */
  }

  for (;;) {
    uint32_t u, m;
    uint64_t nsd_u, fku, k2u;
    uint32_t mu; /* LDSI_KEYS_EXACT_HOT: the entry's directions to relax (ldsi_Open.seq) */
    ldsi_Open batch[8];
    AstarExp x;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && done && (done % CLOCK_EVERY) == 0 &&
        s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    u = ldsi_next_open_x(s, c.nodes, &fku, &k2u, &mu, kf);
    if (u == LDSI_NONE) return LDS_NO_PATH;
    done++;
    s->stats.expansions++;
    if (u == goal) {
      ldsi_open_settle_x(s, kf);
      return LDS_FOUND;
    }
    x.u = u;
    x.nbr_u = nbr[u];
    x.batch = batch;
    x.nb = 0;
    if (LDSI_EXACT(kf)) {
      uint64_t r = hot_rec(&c, u, kf)->nsd;
      nsd_u = r & LDSI_HOT_MASK;
      x.gu = 0.0; /* not needed: the keys order (see relax_hot); ldsi_hot_g(nsd_u) */
    } else {
      x.gu = c.nodes[u].g;
      nsd_u = c.nodes[u].nsd;
    }
    expand_keys(&c, &x, inv_pw, nsd_u, fku, k2u, hk, kf);
    {
      /* the expanded cell closest to the goal (ldsi_best_closer); g is only
      ** needed on a distance tie */
      uint64_t d2 = ldsi_d2(c.gx - x.ux, c.gy - x.uy);
      if (LDSI_UNLIKELY(d2 <= s->best_d2)) {
        double gb = LDSI_HOTREC(kf) ? ldsi_hot_g(nsd_u) : x.gu;
        if (ldsi_best_closer(s, d2, gb, u)) ldsi_best_set(s, d2, gb, u);
      }
    }
    /* the exact loop takes u's pruned directions from its entry (computed
    ** when u was queued: relax_hot), so the loads that follow, u's
    ** neighbours' records, wait for the pop alone, not for a chain of
    ** dependent loads (u's record, its parent's mask, the prune table) */
    m = LDSI_HOTREC(kf) && u != start ? mu : nbr[u];
    if (mode == MODE_UNIFORM) {
      relax_uniform_all(&c, &x, m, nsd_u, hk, kf);
    } else {
      /* LDSI_KEYS_EXACT_HOT (uniform costs) never gets here */
      lds_Status st = relax_general(&c, &x, m, nsd_u, hk, mode, kf);
      if (st < 0) return st;
    }
    if (x.nb) ldsi_push_batch_x(s, c.nodes, batch, x.nb, kf);
    ldsi_open_settle_x(s, kf); /* the pop's hole, when no push filled it */
    if (kf == LDSI_KEYS_EXACT_PAGED && LDSI_UNLIKELY(s->pool_fail)) {
      ldsi_msg(s->errmsg, "lds_search_step: out of memory for a page of %u node records",
               (unsigned)LDSI_PAGE_RECS);
      return LDS_E_NOMEM;
    }
  }
}

#define DISPATCH_MODE(hk)                                                                  \
  switch (mode) {                                                                          \
    case MODE_UNIFORM: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_UNIFORM, LDSI_KEYS_GENERAL);   \
    case MODE_PLAIN: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_PLAIN, LDSI_KEYS_GENERAL);       \
    case MODE_WEIGHTED: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_WEIGHTED, LDSI_KEYS_GENERAL); \
    default: return grid_loop(s, max_exp, budget_us, t0, hk, MODE_CALLBACK, LDSI_KEYS_GENERAL);            \
  }

/* The exact loop in a function of its own: inlined into grid_run's
** dispatch with the other instantiations it is slower (the compiler's
** register allocation over the whole switch). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static lds_Status grid_run_exact(lds_Search *s, uint64_t max_exp, uint64_t budget_us,
                                 uint64_t t0) {
  s->hot_query = true; /* the 16-byte records (ldsi_Hot) */
  return grid_loop(s, max_exp, budget_us, t0, LDS_H_OCTILE, MODE_UNIFORM, LDSI_KEYS_EXACT_HOT);
}

/* The same on paged records (large grids: LDSI_PAGED_MIN_NODES) */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static lds_Status grid_run_exact_paged(lds_Search *s, uint64_t max_exp, uint64_t budget_us,
                                       uint64_t t0) {
  s->hot_query = true;
  return grid_loop(s, max_exp, budget_us, t0, LDS_H_OCTILE, MODE_UNIFORM, LDSI_KEYS_EXACT_PAGED);
}

/* The landmark loop (ldsi_search_start_landmarks): the plain cost mode,
** or the weighted one with layer weights (uniform-cost grids run the plain
** mode too: the uniform mode keeps move counts where this loop keeps h) */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static lds_Status grid_run_lm(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  if (s->nweights)
    return grid_loop(s, max_exp, budget_us, t0, LDSI_H_LM, MODE_WEIGHTED, LDSI_KEYS_GENERAL);
  return grid_loop(s, max_exp, budget_us, t0, LDSI_H_LM, MODE_PLAIN, LDSI_KEYS_GENERAL);
}
const ldsi_SearchOps ldsi_astar_lm_ops = {LDS_ALGO_ASTAR, NULL, grid_run_lm, NULL};

/* The mode of a query's run (see the MODE_ names) */
static int run_mode(const lds_Search *s) {
  return s->params.edge_cost ? MODE_CALLBACK
         : s->nweights        ? (s->eff_uniform ? MODE_UNIFORM : MODE_WEIGHTED)
         : s->grid->nonunit   ? MODE_PLAIN
                              : MODE_UNIFORM;
}

bool ldsi_astar_runs_exact(const lds_Search *s) {
  return s->hk != LDS_H_ZERO && s->hk != LDS_H_MANHATTAN && s->hk != LDS_H_EUCLIDEAN &&
         s->hk != LDS_H_CHEBYSHEV && run_mode(s) == MODE_UNIFORM && s->hw == 1.0 &&
         s->gk == 1.0 && s->hq_scale > 0.0 && s->nnodes < LDSI_HOT_MAX_NODES;
}

static lds_Status grid_run(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  int mode = run_mode(s);
  /* A query keeps its loop across slices. Between two slices the grid can
  ** only have changed by edits that did not disturb the query (the
  ** scheduler checks each, lds_search_edit.c): one that began in the exact
  ** loop stays there (no passable cell costs other than 1, or it would
  ** have been disturbed), and the others never go back to a less general
  ** mode (the uniform mode reads the move counts, which the other modes
  ** do not keep); a more general one reads every record a less general
  ** one wrote. */
  /* The exact loop is chosen once, by lds_search_start (its start entry
  ** and records are in the exact form: ldsi_astar_runs_exact). */
  if (s->hot_query)
    return s->hot_tab ? grid_run_exact_paged(s, max_exp, budget_us, t0)
                      : grid_run_exact(s, max_exp, budget_us, t0);
  if (s->run_mode > mode) mode = s->run_mode;
  s->run_mode = (int8_t)mode;
  switch (s->hk) {
    case LDS_H_ZERO: DISPATCH_MODE(LDS_H_ZERO)
    case LDS_H_MANHATTAN: DISPATCH_MODE(LDS_H_MANHATTAN)
    case LDS_H_EUCLIDEAN: DISPATCH_MODE(LDS_H_EUCLIDEAN)
    case LDS_H_CHEBYSHEV: DISPATCH_MODE(LDS_H_CHEBYSHEV)
    default: /* octile outside the exact loop (chosen at the start, above) */
      DISPATCH_MODE(LDS_H_OCTILE)
  }
}
const ldsi_SearchOps ldsi_astar_ops = {LDS_ALGO_ASTAR, NULL, grid_run, NULL};
