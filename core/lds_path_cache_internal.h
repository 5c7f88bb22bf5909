/* SPDX-License-Identifier: MIT */
/*
** lds_path_cache_internal.h — the path cache's records (lds_path_cache.h),
** shared by its trees and queries (lds_path_cache.c) and what an edit of
** the grid does to them (lds_path_cache_edit.c). Hidden; not installed.
**
** A tree is a resumable Dijkstra search rooted at the goal over the
** reversed moves (the forward move v -> u costs its length times the
** effective cost of u, the cell entered), one record per padded cell
** tagged by a generation (a reset is O(1)). Its invariants, which every
** answer relies on (proof in lds_path_cache_edit.c):
**  (P) every settled or open cell but the goal has a parent, a legal move
**      of the grid as it is, and g(cell) >= g(parent) + the move's cost
**      (the path along the parents is a real path of cost <= g);
**  (I) for every settled cell p and legal move q -> p, q is settled with
**      g(q) <= g(p) + cost, or open with a key <= g(p) + cost;
** so a settled cell whose g is <= the open list's smallest key has its
** exact distance, and its parents give an optimal path (pc_exact).
*/
#ifndef LDS_PATH_CACHE_INTERNAL_H
#define LDS_PATH_CACHE_INTERNAL_H

#include "lds_path_cache.h"

#include "lds_grid_internal.h"

#define PC_MAX_WEIGHTS 16
#define PC_POS_NONE 0x0FFFFFFFu   /* not in the open list (unsettled, no key) */
#define PC_POS_CLOSED 0x0FFFFFFEu /* settled */
#define PC_NODIR 8u               /* the goal: no parent */
#define PC_MAX_CELLS (UINT64_C(1) << 27)

/* One record per padded cell: the distance to the goal (settled) or key
** (open), the generation that made it valid, and pos << 4 | dir (pos:
** open-list position or PC_POS_*; dir: the LDS_DIR_* of the move from this
** cell to its parent, the next cell towards the goal). */
typedef struct PcRec {
  double g;
  uint32_t gen;
  uint32_t posdir;
} PcRec;

typedef struct PcOpen {
  double g;
  uint32_t id;
  uint32_t pad;
} PcOpen;

typedef struct PcEntry {
  bool used, started;
  uint32_t goal; /* padded id */
  int nweights;
  double weights[PC_MAX_WEIGHTS];
  uint32_t gen;
  PcRec *rec;    /* pcells, NULL until first used */
  PcOpen *open;
  size_t on, ocap;
  int32_t bx0, by0, bx1, by1; /* a box holding every cell of the generation */
  uint64_t last_use;
} PcEntry;

struct lds_PathCache {
  ldsi_Env env;
  const lds_Grid *grid;
  uint32_t max_entries;
  PcEntry *entries;
  uint64_t tick;
  ptrdiff_t off[8];
  uint32_t *stack; /* scratch of the edits: the cells of a cut subtree */
  size_t scap;
  lds_PathCacheStats stats;
};

extern const double ldsi_pc_len[8];

/* Effective cost of entering padded cell p under e's weights: INFINITY when
** blocked (on the grid or by a weighted layer). */
static inline double ldsi_pc_cost(const lds_PathCache *pc, const PcEntry *e, size_t p) {
  const lds_Grid *g = pc->grid;
  double c;
  size_t u;
  int i;
  if (g->blocked[p]) return INFINITY;
  c = (double)g->cost[p];
  if (!e->nweights) return c;
  u = (size_t)(p / (size_t)g->pw - 1) * (size_t)g->w + (size_t)(p % (size_t)g->pw - 1);
  for (i = 0; i < e->nweights; i++)
    if (e->weights[i] != 0.0) c += e->weights[i] * (double)g->layers[i].data[u];
  return c;
}

static inline uint32_t ldsi_pc_pos(const PcEntry *e, uint32_t id) {
  return e->rec[id].gen == e->gen ? e->rec[id].posdir >> 4 : PC_POS_NONE;
}

/* Whether padded cell id is settled in e's tree. */
static inline bool ldsi_pc_settled(const PcEntry *e, uint32_t id) {
  return ldsi_pc_pos(e, id) == PC_POS_CLOSED;
}

/* Pushes id (a record of the current generation) with key g, or lowers its
** key when it is open. false on allocation failure. */
bool ldsi_pc_push(lds_PathCache *pc, PcEntry *e, uint32_t id, double g);
/* Takes the open cell at position pos out of the open list (its record's
** pos becomes PC_POS_NONE). */
void ldsi_pc_remove(PcEntry *e, size_t pos);
/* The cache's grid listener: brings every tree to the grid as edited in
** cells [x0..x1] x [y0..y1] (lds_path_cache_edit.c). */
void ldsi_pc_listener(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                      uint64_t version);

#endif /* LDS_PATH_CACHE_INTERNAL_H */
