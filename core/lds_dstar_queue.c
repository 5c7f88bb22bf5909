/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_queue.c — D* Lite's U queue: a 4-ary indexed heap of two-part
** keys with decrease-key, increase-key and removal, the paper's
** UpdateVertex, and the recomputation of rhs from successors. The key
** computation itself (CalculateKey, k1/k2, k_m, the exact sort key) is
** static inline in lds_dstar_queue_internal.h, for compute's main loop.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4]
*/
#include "lds_dstar_queue_internal.h"

/* 4-ary indexed heap ordered by (k1, k2, node): the node id makes the order
** total, so the expansion order (and the path) never depends on slicing. */

static void sift_up(lds_DStar *ds, size_t pos, DsEntry e) {
  DsEntry *h = ds->heap;
  while (pos > 0) {
    size_t parent = (pos - 1) >> 2;
    if (!ldsi_dstar_entry_less(&e, &h[parent])) break;
    h[pos] = h[parent];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = parent;
  }
  h[pos] = e;
  ds->v[e.node].hpos = (uint32_t)pos;
}

static void sift_down(lds_DStar *ds, size_t pos, DsEntry e) {
  DsEntry *h = ds->heap;
  size_t n = ds->heap_n;
  for (;;) {
    size_t c = (pos << 2) + 1, best, k, end;
    if (c >= n) break;
    best = c;
    end = c + 4 < n ? c + 4 : n;
    for (k = c + 1; k < end; k++)
      if (ldsi_dstar_entry_less(&h[k], &h[best])) best = k;
    if (!ldsi_dstar_entry_less(&h[best], &e)) break;
    h[pos] = h[best];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = best;
  }
  h[pos] = e;
  ds->v[e.node].hpos = (uint32_t)pos;
}

/* Removes the root (Floyd's bottom-up variant): the hole at the root sinks
** to a leaf along the smallest children (3 comparisons per level instead of
** the 4 of sift_down, and no comparison with the moving entry), then the
** last entry fills it and sifts up, usually by a level or none. The heap
** order is total (node ids break every tie), so the pop order is the same
** as with sift_down; only the layout of equal-free subtrees may differ. */
void ldsi_dstar_heap_pop_root(lds_DStar *ds) {
  DsEntry *h = ds->heap;
  size_t n, pos = 0;
  DsEntry last;
  ds->v[h[0].node].hpos = NONE;
  n = --ds->heap_n;
  if (n == 0) return;
  last = h[n];
  for (;;) {
    size_t c = (pos << 2) + 1, best, k, end;
    if (c >= n) break;
    best = c;
    end = c + 4 < n ? c + 4 : n;
    for (k = c + 1; k < end; k++)
      if (ldsi_dstar_entry_less(&h[k], &h[best])) best = k;
    h[pos] = h[best];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = best;
  }
  sift_up(ds, pos, last);
}

void ldsi_dstar_heap_set(lds_DStar *ds, const DsEntry *key) {
  DsEntry e = *key;
  uint32_t u = e.node;
  ds->stats.pushes++;
  if (ds->root_hole) {
    if (ds->v[u].hpos == NONE) { /* insertion: replaces the dead root */
      ds->root_hole = false;
      sift_down(ds, 0, e);
      return;
    }
    ldsi_dstar_fill_hole(ds);
  }
  if (ds->v[u].hpos == NONE) {
    ds->heap_n++;
    if (ds->heap_n > ds->stats.peak_queue) ds->stats.peak_queue = ds->heap_n;
    sift_up(ds, ds->heap_n - 1, e);
  } else {
    size_t pos = ds->v[u].hpos;
    if (ldsi_dstar_entry_less(&e, &ds->heap[pos]))
      sift_up(ds, pos, e);
    else
      sift_down(ds, pos, e);
  }
}

static void heap_remove(lds_DStar *ds, uint32_t u) {
  size_t pos;
  DsEntry last;
  ldsi_dstar_fill_hole(ds);
  pos = ds->v[u].hpos;
  if (pos == 0) {
    ldsi_dstar_heap_pop_root(ds);
    return;
  }
  ds->v[u].hpos = NONE;
  ds->heap_n--;
  if (pos == ds->heap_n) return;
  last = ds->heap[ds->heap_n];
  if (ldsi_dstar_entry_less(&last, &ds->heap[pos]))
    sift_up(ds, pos, last);
  else
    sift_down(ds, pos, last);
}

void ldsi_dstar_update_vertex(lds_DStar *ds, uint32_t u) {
  if (ds->v[u].g != ds->v[u].rhs) {
    DsEntry e;
    ldsi_dstar_calc_key(ds, u, &e);
    ldsi_dstar_heap_set(ds, &e);
  } else if (ds->v[u].hpos != NONE) {
    heap_remove(ds, u);
  }
}

/* rhs(u) = min over successors of c + g (the goal keeps rhs = 0). Returns
** whether rhs changed: when it did not (and g did not), u's state and its
** place in the queue are what they were, so the caller may skip
** ldsi_dstar_update_vertex (its stored key is still a lower bound of the
** current one, which is all the queue needs: see the k_m argument at the
** top of lds_dstar.c). */
bool ldsi_dstar_recompute_rhs(lds_DStar *ds, uint32_t u) {
  uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
  double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, best = INFINITY;
  int k, n;
  if (u == ds->goal) return false;
  n = SP_SUCC(ds, u, v, c);
  for (k = 0; k < n; k++) {
    double x = c[k] + ds->v[v[k]].g;
    if (x < best) best = x;
  }
  ds->stats.rhs_updates++;
  if (ds->v[u].rhs == best) return false;
  ds->v[u].rhs = best;
  return true;
}
