/* SPDX-License-Identifier: MIT */
/*
** lds_landmarks.c — the landmark tables of the optimal mode (lds_landmarks.h):
** farthest-point placement, one exact integer Dijkstra per landmark over the
** symmetric lower-bound graph G', and the decrease propagation that keeps
** the tables feasible under edits.
** [Paper: Goldberg & Harrelson, "Computing the shortest path: A* search
**  meets graph theory", SODA 2005 (ALT, farthest landmarks); Sturtevant,
**  Felner, Barrer, Schaeffer & Burch, IJCAI 2009 (differential heuristic);
**  Dijkstra, Numerische Mathematik 1959]
*/
#include "lds_landmarks.h"

#include <string.h>

/* ------------------------------------------------------------ heap -- */

/* 4-ary min-heap of (value << 32 | padded cell); stale entries are skipped
** by the pop's caller (lazy deletion). */
static bool hpush(ldsi_Landmarks *m, uint32_t v, uint32_t p) {
  uint64_t key = (uint64_t)v << 32 | p, *a;
  size_t i;
  if (m->hn == m->hcap) {
    size_t nc = m->hcap ? 2 * m->hcap : 4096;
    uint64_t *n = ldsi_realloc(&m->env, m->heap, m->hcap * sizeof(uint64_t), nc * sizeof(uint64_t));
    if (!n) return false;
    m->heap = n;
    m->hcap = nc;
  }
  a = m->heap;
  i = m->hn++;
  while (i > 0) {
    size_t up = (i - 1) >> 2;
    if (a[up] <= key) break;
    a[i] = a[up];
    i = up;
  }
  a[i] = key;
  return true;
}

static uint64_t hpop(ldsi_Landmarks *m) {
  uint64_t *a = m->heap, top = a[0], last;
  size_t n = --m->hn, i = 0;
  if (n == 0) return top;
  last = a[n];
  for (;;) {
    size_t c = 4 * i + 1, b, j, e;
    if (c >= n) break;
    b = c;
    e = c + 4 < n ? c + 4 : n;
    for (j = c + 1; j < e; j++)
      if (a[j] < a[b]) b = j;
    if (a[b] >= last) break;
    a[i] = a[b];
    i = b;
  }
  a[i] = last;
  return top;
}

/* ----------------------------------------------------------- graph -- */

/* effective cost of padded cell p, INFINITY when blocked (G' has no edge to it) */
static inline double cost_of(const ldsi_Landmarks *m, size_t p) { return ldsi_hpa_cost(m->h, p); }

/* weight of the G' edge along direction d between cells of costs a and b */
static inline uint32_t weight(const ldsi_Landmarks *m, int d, double a, double b) {
  double c = (a < b ? a : b) * ldsi_hpa_move_len(d) / m->q;
  return c >= (double)LDSI_LM_LIMIT ? LDSI_LM_LIMIT : (uint32_t)c; /* floor: c >= 0 */
}

/* Propagates the values in dist from the heap's entries (Dijkstra; values
** only drop). 0, or -1 when a value would reach LDSI_LM_LIMIT (q too fine
** for this map), -2 on NOMEM. stride/lane address dist[p * stride + lane]. */
static int propagate(ldsi_Landmarks *m, uint32_t *dist, size_t stride, size_t lane,
                     uint64_t *touched) {
  const lds_Grid *g = m->grid;
  const ptrdiff_t *off = m->h->off;
  while (m->hn) {
    uint64_t e = hpop(m);
    uint32_t du = (uint32_t)(e >> 32), u = (uint32_t)e;
    unsigned mask;
    double cu;
    int d;
    if (dist[(size_t)u * stride + lane] != du) continue;
    if (touched) {
      int32_t x, y;
      (*touched)++;
      ldsi_grid_pxy(g, u, &x, &y);
      if (x < m->low.x0) m->low.x0 = x;
      if (y < m->low.y0) m->low.y0 = y;
      if (x > m->low.x1) m->low.x1 = x;
      if (y > m->low.y1) m->low.y1 = y;
    }
    cu = cost_of(m, u);
    mask = g->nbr[u];
    for (d = 0; d < 8; d++) {
      size_t v;
      double cv;
      uint32_t nd, *dv;
      if (!(mask & (1u << d))) continue;
      v = (size_t)((ptrdiff_t)u + off[d]);
      cv = cost_of(m, v);
      if (!isfinite(cv)) continue;
      nd = du + weight(m, d, cu, cv);
      if (nd >= LDSI_LM_LIMIT) return -1;
      dv = &dist[v * stride + lane];
      if (nd < *dv) {
        *dv = nd;
        if (!hpush(m, nd, (uint32_t)v)) return -2;
      }
    }
  }
  return 0;
}

/* dist[p] for every padded cell from source src (a cell of finite cost) */
static int dijkstra(ldsi_Landmarks *m, uint32_t *dist, uint32_t src) {
  size_t i;
  for (i = 0; i < m->cells; i++) dist[i] = LDSI_LM_INF;
  dist[src] = 0;
  m->hn = 0;
  if (!hpush(m, 0, src)) return -2;
  return propagate(m, dist, 1, 0, NULL);
}

/* The first cell (scan order) of the largest connected component of G',
** or LDSI_LM_INF when no cell has a finite cost. mark and stack: cells
** entries of scratch. */
static uint32_t largest_component(const ldsi_Landmarks *m, uint32_t *mark, uint32_t *stack) {
  const lds_Grid *g = m->grid;
  const ptrdiff_t *off = m->h->off;
  size_t p, best_n = 0;
  uint32_t best = LDSI_LM_INF;
  memset(mark, 0, m->cells * sizeof(uint32_t));
  for (p = 0; p < m->cells; p++) {
    size_t n = 0, top = 0;
    if (mark[p] || !isfinite(cost_of(m, p))) continue;
    mark[p] = 1;
    stack[top++] = (uint32_t)p;
    while (top) {
      uint32_t u = stack[--top];
      unsigned mask = g->nbr[u];
      int d;
      n++;
      for (d = 0; d < 8; d++) {
        size_t v;
        if (!(mask & (1u << d))) continue;
        v = (size_t)((ptrdiff_t)u + off[d]);
        if (mark[v] || !isfinite(cost_of(m, v))) continue;
        mark[v] = 1;
        stack[top++] = (uint32_t)v;
      }
    }
    if (n > best_n) {
      best_n = n;
      best = (uint32_t)p;
    }
  }
  return best;
}

/* The farthest-point landmarks and their tables, with the current q.
** 0, -1 (overflow: q too fine), -2 (NOMEM). */
static int build_tables(ldsi_Landmarks *m) {
  size_t bytes = m->cells * sizeof(uint32_t), p;
  uint32_t *dist = ldsi_alloc(&m->env, bytes), *mind = ldsi_alloc(&m->env, bytes);
  uint32_t seed, far = 0;
  int l, rc = 0;
  if (!dist || !mind) {
    rc = -2;
    goto done;
  }
  seed = largest_component(m, dist, mind);
  if (seed == LDSI_LM_INF) {
    /* no passable cell: every value unreached */
    for (p = 0; p < m->cells * (size_t)m->k; p++) m->tab[p] = LDSI_LM_INF;
    for (l = 0; l < m->k; l++) m->lp[l] = 0;
    goto done;
  }
  if ((rc = dijkstra(m, dist, seed)) != 0) goto done;
  /* the first landmark: the farthest cell from the seed; each next one the
  ** cell farthest from every landmark so far (first in scan order on ties) */
  {
    uint32_t best = 0;
    for (p = 0; p < m->cells; p++)
      if (dist[p] != LDSI_LM_INF && dist[p] > best) {
        best = dist[p];
        far = (uint32_t)p;
      }
    if (best == 0) far = seed;
  }
  for (p = 0; p < m->cells; p++) mind[p] = dist[p];
  for (l = 0; l < m->k; l++) {
    uint32_t best = 0, nxt = far;
    m->lp[l] = far;
    if ((rc = dijkstra(m, dist, far)) != 0) goto done;
    for (p = 0; p < m->cells; p++) {
      uint32_t v = dist[p];
      m->tab[p * (size_t)m->k + (size_t)l] = v;
      if (mind[p] == LDSI_LM_INF) continue;
      if (v < mind[p]) mind[p] = v;
      if (mind[p] > best) {
        best = mind[p];
        nxt = (uint32_t)p;
      }
    }
    far = nxt;
  }
done:
  if (dist) ldsi_free(&m->env, dist, bytes);
  if (mind) ldsi_free(&m->env, mind, bytes);
  m->hn = 0;
  return rc;
}

/* Builds from scratch: q starts at minc / 1024 (the weights of a
** uniform-cost map then lose under 1e-3 of a unit) and doubles until every
** distance fits. LDS_OK or LDS_E_NOMEM. */
static lds_Status rebuild(ldsi_Landmarks *m) {
  double minc = m->h->minc > 0 && isfinite(m->h->minc) ? m->h->minc : 1.0;
  int rc;
  m->q = minc / 1024.0;
  while ((rc = build_tables(m)) == -1) m->q *= 2.0;
  m->nrect = 0;
  m->whole = false;
  m->rebuilds++;
  return rc == 0 ? LDS_OK : LDS_E_NOMEM;
}

/* ---------------------------------------------------------- listen -- */

static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  ldsi_Landmarks *m = (ldsi_Landmarks *)ud;
  (void)g;
  (void)version;
  if (m->whole) return;
  if (m->nrect == m->rcap) {
    size_t nc = m->rcap ? 2 * m->rcap : 16;
    ldsi_LmRect *n;
    if (nc > 1024) { /* many scattered edits: one pass over the whole grid */
      m->whole = true;
      return;
    }
    n = ldsi_realloc(&m->env, m->rect, m->rcap * sizeof *n, nc * sizeof *n);
    if (!n) {
      m->whole = true;
      return;
    }
    m->rect = n;
    m->rcap = nc;
  }
  m->rect[m->nrect].x0 = x0;
  m->rect[m->nrect].y0 = y0;
  m->rect[m->nrect].x1 = x1;
  m->rect[m->nrect].y1 = y1;
  m->nrect++;
}

/* -------------------------------------------------------- lifetime -- */

ldsi_Landmarks *ldsi_lm_new(const lds_Hpa *h, int k, char *msg) {
  ldsi_Landmarks *m = ldsi_calloc(&h->env, 1, sizeof *m);
  uint64_t t0 = h->env.clock(h->env.clock_ud);
  if (!m) goto nomem;
  m->env = h->env;
  m->h = h;
  m->grid = h->grid;
  m->k = k < 1 ? 1 : k > LDSI_LM_MAX ? LDSI_LM_MAX : k;
  m->cells = h->grid->pcells;
  m->tab = ldsi_alloc(&m->env, m->cells * (size_t)m->k * sizeof(uint32_t));
  if (!m->tab || rebuild(m) != LDS_OK) goto nomem;
  m->rebuilds = 0;
  if (lds_grid_listen((lds_Grid *)(uintptr_t)m->grid, on_edit, m) != LDS_OK) goto nomem;
  m->listening = true;
  m->build_us = h->env.clock(h->env.clock_ud) - t0;
  return m;
nomem:
  ldsi_msg(msg, "out of memory for %d landmark tables of %zu cells", k, h->grid->pcells);
  ldsi_lm_free(m);
  return NULL;
}

void ldsi_lm_free(ldsi_Landmarks *m) {
  ldsi_Env e;
  if (!m) return;
  e = m->env;
  if (m->listening) lds_grid_unlisten((lds_Grid *)(uintptr_t)m->grid, on_edit, m);
  if (m->tab) ldsi_free(&e, m->tab, m->cells * (size_t)m->k * sizeof(uint32_t));
  if (m->heap) ldsi_free(&e, m->heap, m->hcap * sizeof(uint64_t));
  if (m->rect) ldsi_free(&e, m->rect, m->rcap * sizeof(ldsi_LmRect));
  ldsi_free(&e, m, sizeof *m);
}

size_t ldsi_lm_bytes(const ldsi_Landmarks *m) {
  if (!m) return 0;
  return sizeof *m + m->cells * (size_t)m->k * sizeof(uint32_t) + m->hcap * sizeof(uint64_t) +
         m->rcap * sizeof(ldsi_LmRect);
}

/* ---------------------------------------------------------- repair -- */

/* Lowers, for landmark l, the values of the cells at the ends of the G'
** edges of rectangle r (grown by one cell: a cell's moves depend on its 8
** neighbours) that are no longer feasible, and queues them. 0, -1 (a value
** would not fit), -2 (NOMEM). */
static int seed_rect(ldsi_Landmarks *m, const ldsi_LmRect *r, size_t l) {
  const lds_Grid *g = m->grid;
  const ptrdiff_t *off = m->h->off;
  size_t k = (size_t)m->k;
  int32_t x0 = r->x0 > 0 ? r->x0 - 1 : 0, y0 = r->y0 > 0 ? r->y0 - 1 : 0;
  int32_t x1 = r->x1 + 1 < g->w ? r->x1 + 1 : g->w - 1, y1 = r->y1 + 1 < g->h ? r->y1 + 1 : g->h - 1;
  int32_t x, y;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      size_t u = ldsi_grid_pidx(g, x, y);
      double cu = cost_of(m, u);
      unsigned mask = g->nbr[u];
      int d;
      if (!isfinite(cu)) continue;
      for (d = 0; d < 8; d++) {
        size_t v;
        double cv;
        uint32_t w, tu, tv;
        if (!(mask & (1u << d))) continue;
        v = (size_t)((ptrdiff_t)u + off[d]);
        cv = cost_of(m, v);
        if (!isfinite(cv)) continue;
        w = weight(m, d, cu, cv);
        tu = m->tab[u * k + l];
        tv = m->tab[v * k + l];
        if (tu == LDSI_LM_INF || (tv != LDSI_LM_INF && (uint64_t)tv <= (uint64_t)tu + w)) continue;
        if (tu + (uint64_t)w >= LDSI_LM_LIMIT) return -1;
        m->tab[v * k + l] = tu + w;
        if (!hpush(m, tu + w, (uint32_t)v)) return -2;
      }
    }
  return 0;
}

lds_Status ldsi_lm_repair(ldsi_Landmarks *m) {
  uint64_t t0, touched = 0;
  size_t l, i;
  int rc = 0;
  ldsi_LmRect all;
  if (m) {
    m->low.x0 = m->low.y0 = INT32_MAX;
    m->low.x1 = m->low.y1 = -1;
    m->low_all = false;
  }
  if (!m || (!m->nrect && !m->whole)) return LDS_OK;
  t0 = m->env.clock(m->env.clock_ud);
  all.x0 = 0;
  all.y0 = 0;
  all.x1 = m->grid->w - 1;
  all.y1 = m->grid->h - 1;
  for (l = 0; l < (size_t)m->k && rc == 0; l++) {
    m->hn = 0;
    if (m->whole) {
      rc = seed_rect(m, &all, l);
    } else {
      for (i = 0; i < m->nrect && rc == 0; i++) rc = seed_rect(m, &m->rect[i], l);
    }
    if (rc == 0) rc = propagate(m, m->tab, (size_t)m->k, l, &touched);
  }
  m->hn = 0;
  if (rc == -1) {
    /* a value no longer fits 31 bits: build again with a coarser q */
    m->low_all = true;
    if (rebuild(m) != LDS_OK) rc = -2;
    else rc = 0;
  }
  if (rc == -2) {
    m->whole = true; /* the tables may be infeasible: the next repair redoes every edge */
    return LDS_E_NOMEM;
  }
  m->nrect = 0;
  m->whole = false;
  m->repairs++;
  m->last_repair_cells = touched;
  m->last_repair_us = m->env.clock(m->env.clock_ud) - t0;
  return LDS_OK;
}

void ldsi_lm_choose(const ldsi_Landmarks *m, size_t s, size_t t, int max, ldsi_LmHeur *lh) {
  const uint32_t *ts = ldsi_lm_row(m, s), *tg = ldsi_lm_row(m, t);
  uint32_t score[LDSI_LM_MAX];
  int l, n = 0;
  lh->nact = 0;
  for (l = 0; l < m->k; l++) {
    uint32_t a = ts[l], b = tg[l], sc;
    int i, j;
    if (b == LDSI_LM_INF) continue;
    sc = a == LDSI_LM_INF ? 0 : a > b ? a - b : b - a;
    /* insertion, descending by score, stable */
    for (i = n; i > 0 && score[i - 1] < sc; i--) {}
    for (j = n; j > i; j--) {
      score[j] = score[j - 1];
      lh->act[j] = lh->act[j - 1];
    }
    score[i] = sc;
    lh->act[i] = (uint32_t)l;
    n++;
  }
  if (max > LDSI_LMH_MAX) max = LDSI_LMH_MAX;
  lh->nact = n < max ? n : max;
  for (l = 0; l < lh->nact; l++) lh->gt[l] = tg[lh->act[l]];
  lh->tab = m->tab;
  lh->stride = (size_t)m->k;
  lh->q = m->q;
}
