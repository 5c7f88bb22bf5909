/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_band.c — the fast mode's refinement where costs are not uniform:
** an A* restricted to a band around the raw path, window by window.
**
** With terrain costs or layer weights a straight line rarely beats the raw
** path (the concatenated intra-cluster paths), whose dearness comes from
** the entrances' fixed places on the cluster borders: the cheap crossing
** is often a few cells beside the entrance. So instead of the line
** smoothing of uniform grids (lds_hpa_query.c), each window of
** BAND_WINDOW raw cells is searched again: an A* from the last kept cell
** to the window's last raw cell over the cells within band_radius
** (lds_HpaParams; in x and in y) of the window's raw cells, plus the last
** window's unkept path (so the band always holds a path no dearer than the
** one it replaces), guided by the landmark bound where the hierarchy has
** the tables. Of its path the cells lying near the window's first
** BAND_KEEP raw cells are kept, so only the
** goal pins the path to a raw cell; the rest is searched again by the next
** window. This is a search restricted to a corridor round the refined
** abstract path, as HPA* refines an abstract path by searches confined to
** clusters (Botea, Müller & Schaeffer, J. Game Development 1(1), 2004),
** with the corridor following the path instead of the cluster grid.
**
** Guarantee: every window's A* is exact inside its band, which holds the
** previous window's unkept path followed by the raw path, so the cost of
** the kept cells plus that path never grows: the refined path costs at
** most the raw path, which is the abstract path.
*/
#include "lds_hpa_query_internal.h"
#include "lds_landmarks.h"

#include <string.h>

/* raw cells per window; of a window's path, the cells near its first
** BAND_KEEP raw cells are kept (measured: docs/hierarchy.md) */
#ifndef BAND_WINDOW
#define BAND_WINDOW 64
#endif
#ifndef BAND_KEEP
#define BAND_KEEP 48
#endif

/* A window's box: its raw cells widened by the radius, and the last
** window's unkept path (near raw cells from up to BAND_WINDOW - BAND_KEEP
** before the window); a box too large for it is not refined. */
#define BAND_SIDE(r) (2 * BAND_WINDOW - BAND_KEEP + 2 * (r) + 1)

bool ldsi_hpa_band_prepare(lds_HpaQuery *q) {
  const lds_Hpa *h = q->h;
  size_t cap = (size_t)BAND_SIDE(h->band_radius) * (size_t)BAND_SIDE(h->band_radius);
  q->banded = h->band_radius > 0 && !(h->nweights == 0 && h->grid->nonunit == 0);
  if (!q->banded || q->bcap) return true;
  q->bmask = ldsi_calloc(&q->env, cap, sizeof(uint32_t));
  q->bown = ldsi_alloc(&q->env, cap * sizeof(uint32_t));
  q->btr = ldsi_alloc(&q->env, cap * sizeof(uint32_t));
  q->btail = ldsi_alloc(&q->env, cap * sizeof(uint32_t));
  if (!q->bmask || !q->bown || !q->btr || !q->btail || !ldsi_hpa_local_init(&q->env, &q->band, cap)) {
    q->bcap = cap;
    ldsi_hpa_band_free(q);
    return false;
  }
  q->bcap = cap;
  q->bcur = 0;
  return true;
}

void ldsi_hpa_band_free(lds_HpaQuery *q) {
  size_t cap = q->bcap;
  if (!cap) return;
  if (q->bmask) ldsi_free(&q->env, q->bmask, cap * sizeof(uint32_t));
  if (q->bown) ldsi_free(&q->env, q->bown, cap * sizeof(uint32_t));
  if (q->btr) ldsi_free(&q->env, q->btr, cap * sizeof(uint32_t));
  if (q->btail) ldsi_free(&q->env, q->btail, cap * sizeof(uint32_t));
  ldsi_hpa_local_free(&q->env, &q->band);
  q->bmask = q->bown = q->btr = q->btail = NULL;
  q->bcap = 0;
}

/* place of (x, y) in the box [x0..x0+bw) x [y0..); the caller keeps it inside */
static inline size_t bidx(int32_t x0, int32_t y0, int32_t bw, int32_t x, int32_t y) {
  return (size_t)(y - y0) * (size_t)bw + (size_t)(x - x0);
}

/* landmarks the window's A* reads (ldsi_lm_choose) */
#ifndef BAND_ACTIVE
#define BAND_ACTIVE 4
#endif

/* Keeps the n cells c[0..n-1]; false on NOMEM. */
static bool keep_all(lds_HpaQuery *q, const uint32_t *c, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (!ldsi_hpa_keep(q, c[i])) return false;
  return true;
}

/* Keeps the last window's unkept path and the raw path on to raw cell e,
** unrefined, and ends the window there; false on NOMEM. */
static bool keep_unrefined(lds_HpaQuery *q, size_t e) {
  if (!keep_all(q, q->btail, q->nbtail) || !keep_all(q, q->raw + q->bend + 1, e - q->bend))
    return false;
  q->nbtail = 0;
  q->anchor = q->bend = e;
  return true;
}

bool ldsi_hpa_band(lds_HpaQuery *q, bool all) {
  const lds_Hpa *h = q->h;
  const lds_Grid *g = h->grid;
  const int32_t R = h->band_radius;
  while (q->anchor + 1 < q->nraw) {
    size_t ra = q->anchor, e = ra + BAND_WINDOW, k, n, cut;
    uint32_t s = q->cells[q->ncells - 1], t;
    int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = INT32_MIN, y1 = INT32_MIN, bw, bh, x, y;
    uint64_t e0;
    ldsi_LmHeur lh;
    double c;
    bool final;
    if (e >= q->nraw - 1) {
      if (!all) return true;
      e = q->nraw - 1;
    }
    final = e == q->nraw - 1;
    t = q->raw[e];
    /* the box: the window's raw cells widened by the radius, and the kept
    ** end and the last window's unkept path (near raw cells of the last
    ** window, which began at most half a window before ra) */
    for (k = ra; k <= e; k++) {
      x = (int32_t)(q->rawxy[k] & 0xFFFFu);
      y = (int32_t)(q->rawxy[k] >> 16);
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    x0 = x0 - R < 0 ? 0 : x0 - R;
    y0 = y0 - R < 0 ? 0 : y0 - R;
    x1 = x1 + R >= g->w ? g->w - 1 : x1 + R;
    y1 = y1 + R >= g->h ? g->h - 1 : y1 + R;
    for (k = 0; k <= q->nbtail; k++) {
      ldsi_grid_pxy(g, k < q->nbtail ? q->btail[k] : s, &x, &y);
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    bw = x1 - x0 + 1;
    bh = y1 - y0 + 1;
    if ((size_t)bw * (size_t)bh > q->bcap) {
      /* an unkept path that wandered far from the window */
      if (!keep_unrefined(q, e)) return false;
      continue;
    }
    if (++q->bcur == 0) {
      memset(q->bmask, 0, q->bcap * sizeof(uint32_t));
      q->bcur = 1;
    }
    /* the band: the kept end and the unkept path (owned by ra), then the
    ** cells within R of each raw cell ra..e (owned by the last of them) */
    ldsi_grid_pxy(g, s, &x, &y);
    q->bmask[bidx(x0, y0, bw, x, y)] = q->bcur;
    q->bown[bidx(x0, y0, bw, x, y)] = (uint32_t)ra;
    for (k = 0; k < q->nbtail; k++) {
      size_t i;
      ldsi_grid_pxy(g, q->btail[k], &x, &y);
      i = bidx(x0, y0, bw, x, y);
      q->bmask[i] = q->bcur;
      q->bown[i] = (uint32_t)ra;
    }
    for (k = ra; k <= e; k++) {
      int32_t cx = (int32_t)(q->rawxy[k] & 0xFFFFu), cy = (int32_t)(q->rawxy[k] >> 16);
      int32_t ax = cx - R < x0 ? x0 : cx - R, bx = cx + R > x1 ? x1 : cx + R;
      int32_t ay = cy - R < y0 ? y0 : cy - R, by = cy + R > y1 ? y1 : cy + R;
      for (y = ay; y <= by; y++) {
        uint32_t *m = q->bmask + bidx(x0, y0, bw, ax, y), *o = q->bown + bidx(x0, y0, bw, ax, y);
        for (x = 0; x <= bx - ax; x++) {
          m[x] = q->bcur;
          o[x] = (uint32_t)k;
        }
      }
    }
    if (h->lm) ldsi_lm_choose(h->lm, s, t, BAND_ACTIVE, &lh);
    e0 = q->band.expansions;
    c = ldsi_hpa_local_astar(h, &q->band, x0, y0, x1, y1, s, t, q->bmask, q->bcur,
                             h->lm && lh.nact ? &lh : NULL);
    q->stats.expansions += q->band.expansions - e0;
    n = isfinite(c) ? ldsi_hpa_local_trace(h, &q->band, t, q->btr, q->bcap) : 0;
    if (n == 0) {
      /* cannot happen (the band holds the unkept path and the raw path) */
      if (!keep_unrefined(q, e)) return false;
      continue;
    }
    /* keep up to the last cell before the first one owned past the middle */
    cut = n - 1;
    if (!final) {
      size_t mid = ra + BAND_KEEP;
      for (k = 1; k < n; k++) {
        ldsi_grid_pxy(g, q->btr[k], &x, &y);
        if (q->bown[bidx(x0, y0, bw, x, y)] > mid) break;
      }
      if (k > 1) cut = k - 1;
    }
    if (!keep_all(q, q->btr + 1, cut)) return false;
    q->bend = e;
    if (cut == n - 1) {
      q->nbtail = 0;
      q->anchor = e;
    } else {
      size_t own;
      ldsi_grid_pxy(g, q->btr[cut], &x, &y);
      own = q->bown[bidx(x0, y0, bw, x, y)];
      q->nbtail = n - 1 - cut;
      memcpy(q->btail, q->btr + cut + 1, q->nbtail * sizeof(uint32_t));
      q->anchor = own > ra ? own : ra + 1;
    }
  }
  return true;
}
