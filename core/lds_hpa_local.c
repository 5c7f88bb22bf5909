/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_local.c — the searches of the hierarchy that stay inside a
** rectangle of cells (a cluster, or the bounding box of two): Dijkstra from a
** set of sources, forward or backward, and A* between two cells with the
** octile heuristic times the smallest cell cost (consistent: no reopening).
** Records are indexed by the cell's place in the rectangle and tagged with a
** generation, so a search touches only the cells it reaches. The binary heap
** (smallest key, then the larger tie value, then the earlier push) is shared
** with the abstract and optimal searches (lds_hpa_query.c, lds_hpa_exact.c).
** [Paper: Dijkstra, Numerische Mathematik 1959; Hart, Nilsson & Raphael,
**  IEEE TSSC 4(2) 1968]
*/
#include "lds_hpa_internal.h"
#include "lds_landmarks.h"

#include <string.h>

/* ----------------------------------------------------------- heap -- */

bool ldsi_hpa_heap_init(const ldsi_Env *e, ldsi_HpaHeap *hp, size_t cap) {
  memset(hp, 0, sizeof *hp);
  hp->e = ldsi_alloc(e, cap * sizeof(ldsi_HpaEntry));
  hp->cap = cap;
  return hp->e != NULL;
}

void ldsi_hpa_heap_free(const ldsi_Env *e, ldsi_HpaHeap *hp) {
  if (hp->e) ldsi_free(e, hp->e, hp->cap * sizeof(ldsi_HpaEntry));
  memset(hp, 0, sizeof *hp);
}

/* ---------------------------------------------------------- local -- */

bool ldsi_hpa_local_init(const ldsi_Env *e, ldsi_HpaLocal *L, size_t cap) {
  memset(L, 0, sizeof *L);
  L->cap = cap;
  L->g = ldsi_alloc(e, cap * sizeof(double));
  L->gen = ldsi_calloc(e, cap, sizeof(uint32_t));
  L->pos = ldsi_alloc(e, cap * sizeof(uint32_t));
  L->par = ldsi_calloc(e, cap, 1); /* zeroed: packed copies of it stay deterministic */
  if (!L->g || !L->gen || !L->pos || !L->par || !ldsi_hpa_heap_init(e, &L->heap, cap)) {
    ldsi_hpa_local_free(e, L);
    return false;
  }
  return true;
}

void ldsi_hpa_local_free(const ldsi_Env *e, ldsi_HpaLocal *L) {
  if (L->g) ldsi_free(e, L->g, L->cap * sizeof(double));
  if (L->gen) ldsi_free(e, L->gen, L->cap * sizeof(uint32_t));
  if (L->pos) ldsi_free(e, L->pos, L->cap * sizeof(uint32_t));
  if (L->par) ldsi_free(e, L->par, L->cap);
  ldsi_hpa_heap_free(e, &L->heap);
  memset(L, 0, sizeof *L);
}

size_t ldsi_hpa_local_bytes(const ldsi_HpaLocal *L) {
  return L->cap * (sizeof(double) + sizeof(ldsi_HpaEntry) + sizeof(uint32_t) * 2 + 1);
}

static void begin(ldsi_HpaLocal *L, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  L->rx0 = x0;
  L->ry0 = y0;
  L->rw = x1 - x0 + 1;
  L->rh = y1 - y0 + 1;
  L->heap.n = 0;
  if (++L->cur == 0) {
    memset(L->gen, 0, L->cap * sizeof(uint32_t));
    L->cur = 1;
  }
}

/* local index of cell (x,y), or LDSI_HPA_NOIDX outside the rectangle */
static inline uint32_t lidx(const ldsi_HpaLocal *L, int32_t x, int32_t y) {
  int32_t lx = x - L->rx0, ly = y - L->ry0;
  if (lx < 0 || ly < 0 || lx >= L->rw || ly >= L->rh) return LDSI_HPA_NOIDX;
  return (uint32_t)(ly * L->rw + lx);
}

static inline void touch(ldsi_HpaLocal *L, uint32_t i) {
  if (L->gen[i] != L->cur) {
    L->gen[i] = L->cur;
    L->g[i] = INFINITY;
    L->pos[i] = LDSI_HPA_NOIDX;
    L->par[i] = 8;
  }
}

double ldsi_hpa_local_g(const lds_Hpa *h, const ldsi_HpaLocal *L, size_t p) {
  int32_t x, y;
  uint32_t i;
  ldsi_grid_pxy(h->grid, p, &x, &y);
  i = lidx(L, x, y);
  if (i == LDSI_HPA_NOIDX || L->gen[i] != L->cur) return INFINITY;
  return L->g[i];
}

void ldsi_hpa_local_dijkstra(const lds_Hpa *h, ldsi_HpaLocal *L, int32_t x0, int32_t y0,
                             int32_t x1, int32_t y1, const uint32_t *src, size_t nsrc) {
  const lds_Grid *g = h->grid;
  const ptrdiff_t *off = h->off;
  size_t k;
  begin(L, x0, y0, x1, y1);
  for (k = 0; k < nsrc; k++) {
    int32_t x, y;
    uint32_t i;
    ldsi_grid_pxy(g, src[k], &x, &y);
    i = lidx(L, x, y);
    if (i == LDSI_HPA_NOIDX) continue;
    touch(L, i);
    if (L->g[i] == 0.0) continue;
    L->g[i] = 0.0;
    ldsi_hpa_heap_push(&L->heap, L->pos, i, 0.0, 0.0);
  }
  while (L->heap.n) {
    uint32_t i = ldsi_hpa_heap_pop(&L->heap, L->pos);
    int32_t x = L->rx0 + (int32_t)(i % (uint32_t)L->rw), y = L->ry0 + (int32_t)(i / (uint32_t)L->rw);
    size_t p = ldsi_grid_pidx(g, x, y);
    double gi = L->g[i];
    int d;
    L->expansions++;
    for (d = 0; d < 8; d++) {
      size_t q;
      uint32_t j;
      double c;
      if (!(g->nbr[p] & (1u << d))) continue;
      j = lidx(L, x + ldsi_dir_dx[d], y + ldsi_dir_dy[d]);
      if (j == LDSI_HPA_NOIDX) continue;
      q = (size_t)((ptrdiff_t)p + off[d]);
      c = ldsi_hpa_cost(h, q);
      if (!isfinite(c)) continue;
      c = gi + ldsi_hpa_move_len(d) * c;
      touch(L, j);
      if (c < L->g[j]) {
        L->g[j] = c;
        L->par[j] = (uint8_t)d;
        ldsi_hpa_heap_push(&L->heap, L->pos, j, c, 0.0);
      }
    }
  }
}

/* the heuristic of padded cell p: oct, or the landmarks' bound when larger
** (INFINITY when the tables prove p cannot reach the target) */
static inline double lheur(const ldsi_LmHeur *lm, size_t p, double oct) {
  double lb;
  if (!lm) return oct;
  lb = ldsi_lmh_bound(lm, p);
  return lb > oct ? lb : oct;
}

double ldsi_hpa_local_astar(const lds_Hpa *h, ldsi_HpaLocal *L, int32_t x0, int32_t y0,
                            int32_t x1, int32_t y1, size_t s, size_t t, const uint32_t *mask,
                            uint32_t mcur, const ldsi_LmHeur *lm) {
  const lds_Grid *g = h->grid;
  const ptrdiff_t *off = h->off;
  int32_t sx, sy, tx, ty;
  uint32_t si, ti;
  double hs = h->minc;
  begin(L, x0, y0, x1, y1);
  ldsi_grid_pxy(g, s, &sx, &sy);
  ldsi_grid_pxy(g, t, &tx, &ty);
  si = lidx(L, sx, sy);
  ti = lidx(L, tx, ty);
  if (si == LDSI_HPA_NOIDX || ti == LDSI_HPA_NOIDX) return INFINITY;
  touch(L, si);
  L->g[si] = 0.0;
  ldsi_hpa_heap_push(&L->heap, L->pos, si, lheur(lm, s, hs * ldsi_hpa_octile(tx - sx, ty - sy)),
                     0.0);
  while (L->heap.n) {
    uint32_t i = ldsi_hpa_heap_pop(&L->heap, L->pos);
    int32_t x = L->rx0 + (int32_t)(i % (uint32_t)L->rw), y = L->ry0 + (int32_t)(i / (uint32_t)L->rw);
    size_t p = ldsi_grid_pidx(g, x, y);
    double gi = L->g[i];
    unsigned m = g->nbr[p];
    int d;
    L->expansions++;
    if (i == ti) return gi;
    for (d = 0; d < 8; d++) {
      int32_t nx, ny;
      uint32_t j;
      double c;
      if (!(m & (1u << d))) continue;
      nx = x + ldsi_dir_dx[d];
      ny = y + ldsi_dir_dy[d];
      j = lidx(L, nx, ny);
      if (j == LDSI_HPA_NOIDX || (mask && mask[j] != mcur)) continue;
      c = ldsi_hpa_cost(h, (size_t)((ptrdiff_t)p + off[d]));
      if (!isfinite(c)) continue;
      c = gi + ldsi_hpa_move_len(d) * c;
      touch(L, j);
      if (c < L->g[j]) {
        double hj = lheur(lm, (size_t)((ptrdiff_t)p + off[d]), hs * ldsi_hpa_octile(tx - nx, ty - ny));
        if (!isfinite(hj)) continue;
        L->g[j] = c;
        L->par[j] = (uint8_t)d;
        ldsi_hpa_heap_push(&L->heap, L->pos, j, c + hj, c);
      }
    }
  }
  return INFINITY;
}

size_t ldsi_hpa_local_trace(const lds_Hpa *h, const ldsi_HpaLocal *L, size_t t, uint32_t *out,
                            size_t max) {
  int32_t x, y;
  uint32_t i;
  size_t n = 0, k;
  ldsi_grid_pxy(h->grid, t, &x, &y);
  i = lidx(L, x, y);
  if (i == LDSI_HPA_NOIDX || L->gen[i] != L->cur || !isfinite(L->g[i])) return 0;
  /* count, then write backwards */
  for (;;) {
    int d = L->par[i];
    n++;
    if (d == 8) break;
    x -= ldsi_dir_dx[d];
    y -= ldsi_dir_dy[d];
    i = lidx(L, x, y);
  }
  if (n > max) return 0;
  ldsi_grid_pxy(h->grid, t, &x, &y);
  i = lidx(L, x, y);
  for (k = n; k-- > 0;) {
    int d = L->par[i];
    out[k] = (uint32_t)ldsi_grid_pidx(h->grid, x, y);
    if (d == 8) break;
    x -= ldsi_dir_dx[d];
    y -= ldsi_dir_dy[d];
    i = lidx(L, x, y);
  }
  return n;
}
