/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_queue_internal.h — D* Lite's keys and queue (hidden): the key of a
** vertex (k1 = min(g, rhs) + h(start, u) + k_m; k2), its exact sort key,
** the queue order, and the operations of the U queue (lds_dstar_queue.c).
** The key functions are static inline: compute's main loop (lds_dstar.c)
** evaluates them at every expansion.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4 (CalculateKey,
**  UpdateVertex, the queue U)]
*/
#ifndef LDS_DSTAR_QUEUE_INTERNAL_H
#define LDS_DSTAR_QUEUE_INTERNAL_H

#include "lds_dstar_internal.h"

#include <float.h>
#include <string.h>

/* ------------------------------------------------------------- keys -- */

/* The sort key of an entry, compared exactly (so the queue order is a
** total order, transitive, whatever the scale of the costs). A tie in exact
** arithmetic shows up as a difference of a few ulps, because g is a float
** sum, so k1 is rounded before it is compared:
**  - overconsistent: k1 with its low 16 mantissa bits cleared, a bucket of
**    2^-36 (1.5e-11) relative width: keys a few ulps apart tie (mostly; a
**    bucket edge can fall between them), and among ties the larger rhs
**    goes first (the plateau dive, see ldsi_dstar_entry_less);
**  - underconsistent: k1 * (1 - 2e-10), below every bucket it could tie
**    with: an underconsistent vertex whose k1 is within 1.8e-10 relative of
**    an overconsistent one (the start's, in the stopping test) comes first,
**    since its g may be too low.
** Relative only, no absolute floor: costs have no scale (a grid of 1e-12
** costs behaves as one of 1 costs). Why not a band (|ka - kb| <= 1e-10
** max(ka, kb, 1)): a band is not transitive, so the heap can hide an
** underconsistent vertex below a tying top, and an absolute floor makes every
** key of a cheap grid tie; both stop the search early. */
static inline double ldsi_dstar_key_sort(double k1, bool under) {
  uint64_t b;
  if (under) return k1 * (1.0 - 2e-10); /* k1 >= 0; a product keeps inf */
  if (k1 < DBL_MIN) return k1; /* subnormal: exact sums, and 16 bits would be most of it */
  memcpy(&b, &k1, sizeof b);
  b &= ~(uint64_t)0xFFFF; /* monotone for k1 >= 0; inf stays inf */
  memcpy(&k1, &b, sizeof b);
  return k1;
}

/* Queue order: sk first (see ldsi_dstar_key_sort). Among equal sk,
** underconsistent vertices come first, by smaller g (the paper's k2): they may carry a g
** that is too low, and every one whose key ties with the start's must be
** processed before the search stops. Then overconsistent vertices, by
** *larger* rhs: closer to the start first, so a search over a plateau of
** equal f dives along one optimal path, as A* with "larger g first" does,
** instead of settling the whole plateau. The vertex id makes the order
** total. */
static inline bool ldsi_dstar_entry_less(const DsEntry *a, const DsEntry *b) {
  if (a->sk != b->sk) return a->sk < b->sk;
  if (a->under != b->under) return a->under > b->under;
  if (a->k2 != b->k2) return a->k2 < b->k2;
  return a->node < b->node;
}

/* CalculateKey: the key of u, k1 = min(g, rhs) + h(start, u) + k_m (k_m
** exact on grids, see ldsi_dstar_hdist); then the class and k2 of the tie
** order (see ldsi_dstar_entry_less): g for underconsistent vertices, -rhs
** for the others. */
static inline void ldsi_dstar_calc_key(const lds_DStar *ds, uint32_t u, DsEntry *e) {
  const DsVertex *x = &ds->v[u];
  double m = x->g < x->rhs ? x->g : x->rhs;
  if (ds->graph) {
    e->k1 = m + (ldsi_dstar_graph_h(ds, ds->start, u) + ds->gkm);
  } else {
    DsH h = SP_H_START(ds, u);
    e->k1 = m + ds->scale * ((double)(h.a + ds->km.a) + (double)(h.b + ds->km.b) * LDSI_SQRT2);
  }
  e->under = x->g < x->rhs;
  e->sk = ldsi_dstar_key_sort(e->k1, e->under);
  e->k2 = e->under ? x->g : -x->rhs;
  e->node = u;
}

/* ------------------------------------------- the U queue (lds_dstar_queue.c) -- */
/* Inserts or re-keys u with *key (a copy is taken). */
LDSI_HIDDEN void ldsi_dstar_heap_set(lds_DStar *ds, const DsEntry *key);
/* Removes the root entry (Floyd's bottom-up variant). */
LDSI_HIDDEN void ldsi_dstar_heap_pop_root(lds_DStar *ds);
/* UpdateVertex: queues u with its key when g != rhs, else takes it out. */
LDSI_HIDDEN void ldsi_dstar_update_vertex(lds_DStar *ds, uint32_t u);
/* Recomputes rhs(u); returns whether it changed (see lds_dstar_queue.c). */
LDSI_HIDDEN bool ldsi_dstar_recompute_rhs(lds_DStar *ds, uint32_t u);

/* Settling the top vertex leaves a hole at the root (root_hole, see the
** expansion): the first new vertex queued after it takes the root's place
** and sifts down from there, which saves a whole removal; any other queue
** operation (or the end of the expansion) removes the hole first. */
static inline void ldsi_dstar_fill_hole(lds_DStar *ds) {
  if (ds->root_hole) {
    ds->root_hole = false;
    ldsi_dstar_heap_pop_root(ds);
  }
}

#endif
