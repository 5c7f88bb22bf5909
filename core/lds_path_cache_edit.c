/* SPDX-License-Identifier: MIT */
/*
** lds_path_cache_edit.c — what an edit of the grid does to the path cache's
** trees (lds_path_cache_internal.h), for a cost in proportion to the part
** of a tree the edit changes, not to the tree.
**
** An edit of the rectangle R changes only moves with both ends in R1 (R
** grown by one cell: a move's legality reads its two ends and, diagonal,
** the two cells beside it; its cost reads the cell it enters). Per tree:
**  1. cut: every settled or open cell q of R1 whose parent move is no
**     longer legal or costs more than g(q) - g(parent) (P broken) leaves
**     the tree with the subtree hanging from it (the cells whose parent
**     path runs through q, found through the parent directions of the
**     eight neighbours of each cut cell);
**  2. each cut cell gets the key of its best move into a settled cell, or
**     none (I for the moves out of it);
**  3. every move into a settled cell of R1 is relaxed: a cell it reaches
**     with less than its g gets that key, opened again if it was settled
**     (I for the moves the edit made legal or cheaper).
** Then P and I hold again: P for the kept cells (a parent move outside R1
** is unchanged, one in R1 was checked in 1, and a parent's g only falls);
** I for a move into a settled cell outside R1 (unchanged, and its start is
** kept as it was or cut and given a key in 2) and into one in R1 (3).
**
** Why P and I make an answer exact: let y be settled with g(y) > d(y), its
** distance on the grid as it is, and take an optimal path from the goal to
** y; let q be its first cell, from the goal, that is unsettled or settled
** with g > d, and p the cell before it (settled, g(p) = d(p); the goal is
** settled at 0). If q were settled, I would give g(q) <= g(p) + cost =
** d(q); so q is open with key(q) <= d(q) <= d(y) < g(y). Hence a settled
** cell with g <= the smallest open key has g = d, and its parent path (P: a
** legal path of cost <= g) is optimal. The query settles cells until its
** start is such a cell; a popped cell reaching a settled one with less
** than its g opens it again (keeps I). Without edits every settled cell
** qualifies, as in plain Dijkstra.
**
** Cost per edit and tree: O(cells of R1 + cells cut), without expansions;
** the cut cells are settled again by the queries that need them. An edit
** that reaches the goal, or whose R1 holds more than 256 cells and at least
** a quarter of the tree's box, resets the tree instead (O(1)).
*/
#include "lds_path_cache_internal.h"

/* Whether padded cell id is settled or open in e's tree. */
static inline bool pc_in_tree(const PcEntry *e, uint32_t id) {
  return ldsi_pc_pos(e, id) != PC_POS_NONE;
}

/* Appends id to the cache's scratch list of *n cells; false on allocation
** failure. */
static bool pc_list_add(lds_PathCache *pc, size_t *n, uint32_t id) {
  if (*n == pc->scap) {
    size_t ncap = pc->scap ? pc->scap * 2 : 256;
    uint32_t *ns = (uint32_t *)ldsi_realloc(&pc->env, pc->stack, pc->scap * sizeof(uint32_t),
                                            ncap * sizeof(uint32_t));
    if (!ns) return false;
    pc->stack = ns;
    pc->scap = ncap;
  }
  pc->stack[(*n)++] = id;
  return true;
}

/* Takes settled or open cell id out of e's tree (no key) and appends it to
** the cut list. */
static bool pc_cut_one(lds_PathCache *pc, PcEntry *e, size_t *n, uint32_t id) {
  uint32_t pos = e->rec[id].posdir >> 4;
  if (pos != PC_POS_CLOSED) ldsi_pc_remove(e, pos);
  e->rec[id].posdir = PC_POS_NONE << 4 | (e->rec[id].posdir & 15u);
  e->rec[id].g = INFINITY;
  return pc_list_add(pc, n, id);
}

/* Whether q's parent move (q in e's tree, not the goal) still keeps P: legal,
** into a cell of the tree, costing no more than g(q) - g(parent). *bad on a
** weighted cost <= 0 or NaN (the tree must be reset: the query reports it). */
static bool pc_parent_holds(const lds_PathCache *pc, const PcEntry *e, uint32_t q, bool *bad) {
  unsigned d = e->rec[q].posdir & 15u;
  uint32_t p = (uint32_t)((ptrdiff_t)q + pc->off[d]);
  double cp;
  if (!((pc->grid->nbr[q] >> d) & 1u) || !pc_in_tree(e, p)) return false;
  cp = ldsi_pc_cost(pc, e, p);
  if (!(cp > 0.0)) *bad = true;
  return cp < INFINITY && e->rec[q].g >= e->rec[p].g + ldsi_pc_len[d] * cp;
}

/* Steps 1 and 2 (file comment) for the cells of [x0..x1] x [y0..y1] (R1,
** in the grid): the number of cells cut, or -1 when the tree must be reset
** (a bad weighted cost, or no memory). */
static long pc_cut(lds_PathCache *pc, PcEntry *e, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = pc->grid;
  size_t n = 0, i;
  int32_t x, y;
  bool bad = false;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      uint32_t q = (uint32_t)ldsi_grid_pidx(g, x, y);
      if (q == e->goal || !pc_in_tree(e, q) || pc_parent_holds(pc, e, q, &bad)) continue;
      if (!pc_cut_one(pc, e, &n, q)) return -1;
    }
  if (bad) return -1;
  /* the subtrees: a neighbour v whose parent direction d points at a cut
  ** cell (v + off[d]) hangs from it */
  for (i = 0; i < n; i++) {
    uint32_t u = pc->stack[i];
    int d;
    for (d = 0; d < 8; d++) {
      uint32_t v = (uint32_t)((ptrdiff_t)u - pc->off[d]);
      if (pc_in_tree(e, v) && (e->rec[v].posdir & 15u) == (uint32_t)d &&
          !pc_cut_one(pc, e, &n, v))
        return -1;
    }
  }
  for (i = 0; i < n; i++) { /* their keys: the best move into a settled cell */
    uint32_t q = pc->stack[i];
    double best = INFINITY;
    unsigned bd = 0;
    int d;
    for (d = 0; d < 8; d++) {
      uint32_t p = (uint32_t)((ptrdiff_t)q + pc->off[d]);
      double cp, ng;
      if (!((g->nbr[q] >> d) & 1u) || !ldsi_pc_settled(e, p)) continue;
      cp = ldsi_pc_cost(pc, e, p);
      if (cp == INFINITY) continue;
      if (!(cp > 0.0)) return -1;
      ng = e->rec[p].g + ldsi_pc_len[d] * cp;
      if (ng < best) {
        best = ng;
        bd = (unsigned)d;
      }
    }
    if (best == INFINITY) continue;
    e->rec[q].g = best;
    e->rec[q].posdir = PC_POS_NONE << 4 | bd;
    if (!ldsi_pc_push(pc, e, q, best)) return -1;
  }
  return (long)n;
}

/* Step 3 (file comment) for the settled cells of [x0..x1] x [y0..y1]: the
** number of cells given a lower key, or -1 when the tree must be reset. */
static long pc_relax(lds_PathCache *pc, PcEntry *e, int32_t x0, int32_t y0, int32_t x1,
                     int32_t y1) {
  const lds_Grid *g = pc->grid;
  long lowered = 0;
  int32_t x, y;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      uint32_t p = (uint32_t)ldsi_grid_pidx(g, x, y);
      double cp;
      int d;
      if (!ldsi_pc_settled(e, p)) continue;
      cp = ldsi_pc_cost(pc, e, p);
      if (cp == INFINITY) continue;
      if (!(cp > 0.0)) return -1;
      for (d = 0; d < 8; d++) {
        uint32_t q = (uint32_t)((ptrdiff_t)p - pc->off[d]);
        PcRec *rq = &e->rec[q];
        double ng;
        if (!((g->nbr[q] >> d) & 1u)) continue; /* the move q -> p */
        ng = e->rec[p].g + ldsi_pc_len[d] * cp;
        if (rq->gen == e->gen) {
          if (rq->g <= ng) continue;
          if ((rq->posdir >> 4) == PC_POS_CLOSED) rq->posdir = PC_POS_NONE << 4;
        } else {
          int32_t qx, qy;
          rq->gen = e->gen;
          rq->posdir = PC_POS_NONE << 4;
          ldsi_grid_pxy(g, q, &qx, &qy);
          if (qx < e->bx0) e->bx0 = qx;
          if (qx > e->bx1) e->bx1 = qx;
          if (qy < e->by0) e->by0 = qy;
          if (qy > e->by1) e->by1 = qy;
        }
        rq->g = ng;
        rq->posdir = (rq->posdir & ~15u) | (uint32_t)d;
        if (!ldsi_pc_push(pc, e, q, ng)) return -1;
        lowered++;
      }
    }
  return lowered;
}

/* An edit of the grid's cells [x0..x1] x [y0..y1] and e's tree. */
static void pc_edit(lds_PathCache *pc, PcEntry *e, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = pc->grid;
  int32_t gx, gy;
  long cut, lowered;
  uint64_t area, box;
  x0 = x0 > 0 ? x0 - 1 : 0; /* R1, in the grid (padding is never in a tree) */
  y0 = y0 > 0 ? y0 - 1 : 0;
  x1 = x1 < g->w - 1 ? x1 + 1 : g->w - 1;
  y1 = y1 < g->h - 1 ? y1 + 1 : g->h - 1;
  if (x1 < e->bx0 || x0 > e->bx1 || y1 < e->by0 || y0 > e->by1) return; /* no cell of the tree */
  ldsi_grid_pxy(g, e->goal, &gx, &gy);
  area = (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
  box = (uint64_t)(e->bx1 - e->bx0 + 1) * (uint64_t)(e->by1 - e->by0 + 1);
  if ((gx >= x0 && gx <= x1 && gy >= y0 && gy <= y1) || (area > 256 && 4 * area >= box)) {
    e->started = false;
    pc->stats.resets++;
    return;
  }
  cut = pc_cut(pc, e, x0, y0, x1, y1);
  lowered = cut < 0 ? -1 : pc_relax(pc, e, x0, y0, x1, y1);
  if (lowered < 0) {
    e->started = false;
    pc->stats.resets++;
    return;
  }
  if (cut > 0) pc->stats.truncations++;
  if (cut > 0 || lowered > 0) pc->stats.resets++;
}

void ldsi_pc_listener(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                      uint64_t version) {
  lds_PathCache *pc = (lds_PathCache *)ud;
  uint32_t i;
  (void)g;
  (void)version;
  for (i = 0; i < pc->max_entries; i++) {
    PcEntry *e = &pc->entries[i];
    if (e->used && e->started) pc_edit(pc, e, x0, y0, x1, y1);
  }
}
