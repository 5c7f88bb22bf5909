/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_exact.c — the optimal mode of the hierarchy: A* on the whole grid
** with h(c) = max(octile(c, goal) * min_cost, LB(c)), LB the cluster lower
** bound of lds_hpa.h. Per query, a backward Dijkstra over the (cluster,
** side) pairs gives LB(Z, s), a lower bound of the cost from any cell of
** side s of cluster Z to the goal:
**   LB(Z, s) = min( [Z holds the goal] min over a in side s of d_Z(a, goal),
**                   min over t of side_lb_Z(s, t) + min_cost + LB(W_t, opp t) )
** (a path from a leaves Z first through some side t, into the neighbour W_t
** in direction t, where it lands on W_t's side facing Z). For a cell c of
** cluster Y: LB(c) = min(d_Y(c, goal) if Y holds the goal, min over t of
** sdist_t(c) + min_cost + LB(W_t, opp t)), sdist the stored floor of c's
** cluster-restricted distance to side t. Every term is a lower bound, so h
** is admissible; it need not be consistent, so a closed cell whose g
** improves is opened again: the first goal popped is optimal.
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968; the bound follows
**  Goldenberg, Felner, Sturtevant & Schaeffer, SoCS 2010 (portal-based
**  true-distance heuristics)]
*/
#include "lds_hpa_query_internal.h"

#include <string.h>

struct ldsi_HpaExact {
  size_t cells;      /* padded cells */
  double *g;
  double *hv;        /* cached h of the query */
  uint32_t *gen, *pos;
  uint8_t *par;      /* direction that reached the cell, 8 = start */
  uint32_t cur;
  ldsi_HpaHeap heap;
  /* side bounds */
  size_t nside;      /* ncl * 8 */
  double *lb;
  uint32_t *lbpos;
  ldsi_HpaHeap lbheap;
  double *dgoal;     /* C*C: cluster-restricted cost from each cell of the goal's cluster */
};

static size_t exact_bytes_heap(size_t cap) { return cap * (2 * sizeof(double) + sizeof(uint32_t)); }

void ldsi_hpa_exact_free(lds_HpaQuery *q) {
  ldsi_HpaExact *x = q->ex;
  const ldsi_Env *e = &q->env;
  if (!x) return;
  if (x->g) ldsi_free(e, x->g, x->cells * sizeof(double));
  if (x->hv) ldsi_free(e, x->hv, x->cells * sizeof(double));
  if (x->gen) ldsi_free(e, x->gen, x->cells * sizeof(uint32_t));
  if (x->pos) ldsi_free(e, x->pos, x->cells * sizeof(uint32_t));
  if (x->par) ldsi_free(e, x->par, x->cells);
  if (x->lb) ldsi_free(e, x->lb, x->nside * sizeof(double));
  if (x->lbpos) ldsi_free(e, x->lbpos, x->nside * sizeof(uint32_t));
  if (x->dgoal) ldsi_free(e, x->dgoal, (size_t)q->h->C * (size_t)q->h->C * sizeof(double));
  ldsi_hpa_heap_free(e, &x->heap);
  ldsi_hpa_heap_free(e, &x->lbheap);
  ldsi_free(e, x, sizeof *x);
  q->ex = NULL;
  (void)exact_bytes_heap;
}

static bool exact_alloc(lds_HpaQuery *q) {
  const ldsi_Env *e = &q->env;
  lds_Hpa *h = q->h;
  ldsi_HpaExact *x = ldsi_calloc(e, 1, sizeof *x);
  if (!x) return false;
  q->ex = x;
  x->cells = h->grid->pcells;
  x->nside = (size_t)h->ncl * 8;
  x->g = ldsi_alloc(e, x->cells * sizeof(double));
  x->hv = ldsi_alloc(e, x->cells * sizeof(double));
  x->gen = ldsi_calloc(e, x->cells, sizeof(uint32_t));
  x->pos = ldsi_alloc(e, x->cells * sizeof(uint32_t));
  x->par = ldsi_alloc(e, x->cells);
  x->lb = ldsi_alloc(e, x->nside * sizeof(double));
  x->lbpos = ldsi_alloc(e, x->nside * sizeof(uint32_t));
  x->dgoal = ldsi_alloc(e, (size_t)h->C * (size_t)h->C * sizeof(double));
  if (!x->g || !x->hv || !x->gen || !x->pos || !x->par || !x->lb || !x->lbpos || !x->dgoal ||
      !ldsi_hpa_heap_init(e, &x->heap, x->cells) || !ldsi_hpa_heap_init(e, &x->lbheap, x->nside)) {
    ldsi_hpa_exact_free(q);
    return false;
  }
  return true;
}

static inline int opp(int d) { return d < 4 ? (d + 2) & 3 : 4 + ((d - 2) & 3); }

/* The side bounds LB(Z, s) of the query's goal (full backward Dijkstra). */
static void side_bounds(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  ldsi_HpaExact *x = q->ex;
  const lds_Grid *g = h->grid;
  const ldsi_HpaCluster *kg = &h->cl[q->cg];
  ldsi_HpaLocal *L = &q->win;
  uint32_t pg = (uint32_t)q->pg;
  int32_t cx, cy, yy, xx;
  size_t i;
  ptrdiff_t off[8];
  uint64_t e0 = L->expansions;
  ldsi_grid_offsets(g, off);
  for (i = 0; i < x->nside; i++) {
    x->lb[i] = INFINITY;
    x->lbpos[i] = LDSI_HPA_NOIDX;
  }
  x->lbheap.n = 0;
  /* inside the goal's cluster */
  ldsi_hpa_local_dijkstra(h, L, kg->x0, kg->y0, kg->x1, kg->y1, &pg, 1, true);
  q->stats.expansions += L->expansions - e0;
  for (yy = kg->y0; yy <= kg->y1; yy++)
    for (xx = kg->x0; xx <= kg->x1; xx++) {
      size_t p = ldsi_grid_pidx(g, xx, yy);
      double d = ldsi_hpa_local_g(h, L, p);
      int dd;
      x->dgoal[(size_t)(yy - kg->y0) * (size_t)h->C + (size_t)(xx - kg->x0)] = d;
      if (!isfinite(d) || (xx != kg->x0 && xx != kg->x1 && yy != kg->y0 && yy != kg->y1)) continue;
      for (dd = 0; dd < 8; dd++) {
        int32_t nx = xx + ldsi_dir_dx[dd], ny = yy + ldsi_dir_dy[dd];
        int sx = nx < kg->x0 ? -1 : nx > kg->x1 ? 1 : 0, sy = ny < kg->y0 ? -1 : ny > kg->y1 ? 1 : 0;
        uint32_t id;
        if ((!sx && !sy) || !ldsi_hpa_can(h, p, dd, off)) continue;
        id = q->cg * 8 + (uint32_t)lds_direction_of(sx, sy);
        if (d < x->lb[id]) {
          x->lb[id] = d;
          ldsi_hpa_heap_push(&x->lbheap, x->lbpos, id, d, 0.0);
        }
      }
    }
  cx = 0;
  cy = 0;
  while (x->lbheap.n) {
    uint32_t id = ldsi_hpa_heap_pop(&x->lbheap, x->lbpos), w = id / 8, z;
    int u = (int)(id % 8), t, s;
    double v = x->lb[id];
    const ldsi_HpaCluster *kz;
    q->stats.expansions++;
    cx = (int32_t)(w % (uint32_t)h->cw) + ldsi_dir_dx[u];
    cy = (int32_t)(w / (uint32_t)h->cw) + ldsi_dir_dy[u];
    if (cx < 0 || cy < 0 || cx >= h->cw || cy >= h->ch) continue;
    z = (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx;
    kz = &h->cl[z];
    t = opp(u);
    for (s = 0; s < 8; s++) {
      double m = (double)kz->side_lb[s * 8 + t], c;
      uint32_t nid = z * 8 + (uint32_t)s;
      if (!(m < INFINITY)) continue;
      c = v + h->minc + m;
      if (c < x->lb[nid]) {
        x->lb[nid] = c;
        ldsi_hpa_heap_push(&x->lbheap, x->lbpos, nid, c, 0.0);
      }
    }
  }
}

/* The open-list key of f: f rounded to a multiple of 2^-30 cost units, so
** that paths of equal real cost whose g and h were rounded differently tie,
** and the tie goes to the larger g (the deeper cell) as in lds_search. The
** first goal popped is then optimal to within 2^-30 (about 1e-9) cost units,
** the tolerance of the scen check. */
static inline double key_of(double f) { return floor(f * 1073741824.0 + 0.5) / 1073741824.0; }

/* h of padded cell p at (px, py) */
static double heur(const lds_HpaQuery *q, int32_t px, int32_t py) {
  const lds_Hpa *h = q->h;
  const ldsi_HpaExact *x = q->ex;
  double oct = h->minc * ldsi_hpa_octile(q->gx - px, q->gy - py), lb = INFINITY;
  uint32_t c = ldsi_hpa_cluster_of(h, px, py);
  const uint8_t *sd = h->sdist + ((size_t)py * (size_t)h->grid->w + (size_t)px) * 8;
  int32_t cx = (int32_t)(c % (uint32_t)h->cw), cy = (int32_t)(c / (uint32_t)h->cw);
  int t;
  if (c == q->cg) {
    const ldsi_HpaCluster *kg = &h->cl[c];
    lb = x->dgoal[(size_t)(py - kg->y0) * (size_t)h->C + (size_t)(px - kg->x0)];
  }
  for (t = 0; t < 8; t++) {
    int32_t nx = cx + ldsi_dir_dx[t], ny = cy + ldsi_dir_dy[t];
    double v;
    if (sd[t] == LDSI_HPA_QINF || nx < 0 || ny < 0 || nx >= h->cw || ny >= h->ch) continue;
    v = x->lb[((size_t)ny * (size_t)h->cw + (size_t)nx) * 8 + (size_t)opp(t)];
    if (!(v < INFINITY)) continue;
    v += (double)sd[t] * h->qunit + h->minc;
    if (v < lb) lb = v;
  }
  return lb > oct ? lb : oct;
}

lds_Status ldsi_hpa_exact_start(lds_HpaQuery *q) {
  ldsi_HpaExact *x;
  double hs;
  if (!q->ex && !exact_alloc(q)) {
    ldsi_msg(q->errmsg, "lds_hpa_query_start: out of memory for the optimal mode (%zu cells)",
             q->h->grid->pcells);
    return LDS_E_NOMEM;
  }
  x = q->ex;
  side_bounds(q);
  if (++x->cur == 0) {
    memset(x->gen, 0, x->cells * sizeof(uint32_t));
    x->cur = 1;
  }
  x->heap.n = 0;
  x->gen[q->ps] = x->cur;
  x->g[q->ps] = 0.0;
  x->par[q->ps] = 8;
  x->pos[q->ps] = LDSI_HPA_NOIDX;
  hs = heur(q, q->sx, q->sy);
  /* a start blocked by a layer only is outside the side distances: octile */
  if (!isfinite(ldsi_hpa_cost(q->h, q->ps)))
    hs = q->h->minc * ldsi_hpa_octile(q->gx - q->sx, q->gy - q->sy);
  x->hv[q->ps] = hs;
  if (!isfinite(hs)) return LDS_OK; /* unreachable: the first step says no_path */
  ldsi_hpa_heap_push(&x->heap, x->pos, (uint32_t)q->ps, hs, 0.0);
  q->stats.pushes++;
  return LDS_OK;
}

/* path from the parents into q->cells */
static lds_Status trace(lds_HpaQuery *q) {
  const ldsi_HpaExact *x = q->ex;
  ptrdiff_t off[8];
  size_t p = q->pg, n = 1, k;
  ldsi_grid_offsets(q->h->grid, off);
  while (x->par[p] != 8) {
    p = (size_t)((ptrdiff_t)p - off[x->par[p]]);
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
    if (x->par[p] == 8) break;
    p = (size_t)((ptrdiff_t)p - off[x->par[p]]);
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

lds_Status ldsi_hpa_exact_run(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  lds_Hpa *h = q->h;
  ldsi_HpaExact *x = q->ex;
  const lds_Grid *g = h->grid;
  ptrdiff_t off[8];
  uint64_t done = 0;
  ldsi_grid_offsets(g, off);
  while (x->heap.n) {
    uint32_t p;
    int32_t px, py;
    double gp;
    unsigned m;
    int d;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && (done & 63) == 63 && q->env.clock(q->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    p = ldsi_hpa_heap_pop(&x->heap, x->pos);
    done++;
    q->stats.expansions++;
    if (p == q->pg) {
      if (trace(q) != LDS_OK) {
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
        return LDS_E_NOMEM;
      }
      return LDS_FOUND;
    }
    gp = x->g[p];
    m = g->nbr[p];
    ldsi_grid_pxy(g, p, &px, &py);
    for (d = 0; d < 8; d++) {
      size_t r;
      double c, hr;
      if (!(m & (1u << d))) continue;
      r = (size_t)((ptrdiff_t)p + off[d]);
      c = ldsi_hpa_cost(h, r);
      if (!isfinite(c)) continue;
      c = gp + ldsi_hpa_move_len(d) * c;
      if (x->gen[r] != x->cur) {
        x->gen[r] = x->cur;
        x->pos[r] = LDSI_HPA_NOIDX;
        hr = heur(q, px + ldsi_dir_dx[d], py + ldsi_dir_dy[d]);
        x->hv[r] = hr;
        x->g[r] = INFINITY;
        if (!isfinite(hr)) continue; /* cannot reach the goal */
      } else {
        if (!(c < x->g[r])) continue;
        hr = x->hv[r];
        if (!isfinite(hr)) continue;
      }
      if (!(c < x->g[r])) continue;
      x->g[r] = c;
      x->par[r] = (uint8_t)d;
      ldsi_hpa_heap_push(&x->heap, x->pos, (uint32_t)r, key_of(c + hr), c);
      q->stats.pushes++;
    }
    if (x->heap.n > q->stats.peak_open) q->stats.peak_open = x->heap.n;
  }
  return LDS_NO_PATH;
}
