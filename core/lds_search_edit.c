/* SPDX-License-Identifier: MIT */
/*
** lds_search_edit.c — which grid edits disturb a search in progress
** (lds_search_edit_internal.h). The rule and why it is correct:
**
** A* (and its family: Dijkstra, weighted A*, greedy) only ever reads the
** grid through the moves it relaxes: expanding u reads the legal-move mask
** of u and the cost of each cell u can move into, and every cell so reached
** gets a record of the current generation ("generated"). So the records of
** a search are a function of the moves out of its expanded (closed) cells.
** An edit that changes none of those moves leaves every record exactly as
** the same algorithm would have computed it on the edited grid, from the
** same start, with the same heuristic: the search's state is one that a run
** on the edited grid reaches, and going on from it gives that run's answer
** (for A* with a consistent heuristic, a path optimal on the grid as it is
** when the search ends, provided no later edit disturbs it either). An
** edit of a cell c changes the moves into c (cost, legality) and, when its
** blocked state changes, the diagonal moves between two neighbours of c
** (corner cutting); a move out of an expanded cell u into c made c
** generated, and a diagonal move that c's state decides leaves from a
** neighbour of c. Hence the two kinds in lds_search_edit_internal.h.
**
** The heuristic must stay what it was for that argument: the automatic
** scale (the smallest cell cost when the search started) must not exceed
** the cost of any passable cell, or h would overestimate; an edit that
** lowers a passable cell below it disturbs every search using it.
**
** The node records are read through cell_generated / cell_closed only, so
** the record layout (ldsi_Node, ldsi_Hot) stays the search's business.
*/
#include "lds_open_list.h"
#include "lds_search_edit_internal.h"
#include "lds_search_internal.h"

/* Whether padded cell p has a record of the current query. */
static inline bool cell_generated(const lds_Search *s, size_t p) {
  if (s->hot_query) return s->hot[p].gen == s->gen;
  return s->nodes[p].gen == s->gen;
}

/* Whether padded cell p has been expanded by the current query and not
** re-opened since. */
static inline bool cell_closed(const lds_Search *s, size_t p) {
  if (s->hot_query) return s->hot[p].gen == s->gen && s->hot[p].heap == LDSI_CLOSED;
  return s->nodes[p].gen == s->gen && s->nodes[p].heap == LDSI_CLOSED;
}

bool ldsi_search_edit_any_disturbs(const lds_Search *s) {
  return s->space != LDSI_SPACE_GRID || s->ops != &ldsi_astar_ops || s->params.edge_cost != NULL ||
         s->nweights > 0;
}

bool ldsi_search_edit_disturbs(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind) {
  const lds_Grid *g = s->grid;
  size_t p;
  if (s->status != LDS_RUNNING) return false;
  if (ldsi_search_edit_any_disturbs(s)) return true;
  p = ldsi_grid_pidx(g, x, y);
  if (!g->blocked[p]) {
    double c = (double)g->cost[p];
    /* the exact loop enters every cell at cost 1 */
    if (s->hot_query && c != 1.0) return true;
    /* the automatic scale must stay a lower bound of every passable cost */
    if (s->params.h_scale == 0.0 && s->hk != LDS_H_ZERO && c < s->scale) return true;
  }
  if (cell_generated(s, p)) return true;
  if (kind == LDSI_EDIT_TOGGLE) {
    ptrdiff_t off[8];
    int d;
    ldsi_grid_offsets(g, off);
    /* padded: every neighbour index exists. The exact loop keeps the
    ** directions to relax from an open node in its open-list entry (the
    ** legal-move mask when it was queued): there an open neighbour counts
    ** too, its mask may have changed */
    for (d = 0; d < 8; d++) {
      size_t n = (size_t)((ptrdiff_t)p + off[d]);
      if (s->hot_query ? cell_generated(s, n) : cell_closed(s, n)) return true;
    }
  }
  return false;
}

/* ------------------------------------------------------------ repair --
**
** A disturbed search can often be repaired instead of restarted: when the
** edit only made moves cheaper or legal (a cost lowered, a wall removed),
** every record's g is still the cost of a real path on the edited grid,
** only some may now be too high. Relaxing every legal move out of every
** expanded cell around the edited one, with the current costs, and
** re-expanding the cells that improve (A* with re-expansion from then on,
** s->reopen) gives back the invariant A* needs:
**
**   (I) every expanded (closed) cell u has relaxed every move it has on the
**       current grid with its current g: g(v) <= g(u) + c(u, v).
**
** A closed cell's g is the one it was expanded with (an improvement
** re-opens it). (I) held before the edit; the edit changed only moves into
** the edited cell c and, for a wall removed, diagonal moves between two
** neighbours of c, all out of the 3x3 block around c, which the repair
** relaxes again. With (I) the textbook argument holds: on any optimal path
** of the edited grid, take the first cell whose g is not optimal; its
** predecessor has an optimal g and is either open (an open cell with an
** optimal g lies on the optimal path) or closed, and then by (I) the cell's
** g would be optimal. So while the goal is not expanded, an open cell n
** with g(n) optimal on an optimal path exists, f(n) <= the optimal cost
** (admissible h: the scale <= every passable cost, checked), and the goal
** is expanded with f = g <= that cost: its path is optimal on the grid as it
** is then. Further edits repair or restart the same way, so the path is
** optimal on the grid as at delivery.
**
** An edit that made a move dearer or illegal could leave a g below the true
** cost (no longer the cost of a path); the repair detects it (some
** generated cell of the block whose parent move now costs more than its g
** says, or is illegal) and gives up: the search restarts. Repair applies to
** optimal A* and Dijkstra in the plain cost loop (ldsi_Node records); the
** exact uniform-cost loop, weighted A* and greedy (which never re-expand)
** restart. */

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* Relaxes every legal move out of closed cell u with the current costs
** (the plain loop's relaxation, lds_astar.c relax_general). */
static void relax_out(lds_Search *s, uint32_t u, const ptrdiff_t *off) {
  const lds_Grid *g = s->grid;
  ldsi_Node *nodes = s->nodes;
  uint32_t m = g->nbr[u];
  double gu = nodes[u].g;
  int32_t ux, uy;
  ldsi_grid_pxy(g, u, &ux, &uy);
  while (m) {
    int d = __builtin_ctz(m);
    uint32_t v = (uint32_t)((ptrdiff_t)u + off[d]);
    ldsi_Node *nv = &nodes[v];
    double ng = gu + move_len[d] * (double)g->cost[v], fv;
    m &= m - 1;
    if (!(ng < INFINITY)) continue;
    if (nv->gen == s->gen && !(ng < nv->g)) continue;
    fv = s->gk * ng + s->hw * ldsi_hdist(s->hk, s->gx - (ux + ldsi_dir_dx[d]), s->gy - (uy + ldsi_dir_dy[d]));
    if (nv->gen != s->gen) { /* fresh */
      nv->gen = s->gen;
      nv->aux = 0;
      nv->nsd = 0;
      nv->heap = LDSI_NONE;
    }
    nv->g = ng;
    nv->parent = u;
    if (nv->heap == LDSI_NONE || nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF)
      ldsi_open_push_x(s, v, fv, ng, 0, LDSI_KEYS_GENERAL); /* a stack entry turns stale */
    else
      ldsi_open_decrease_x(s, nv->heap, fv, ng, 0, LDSI_KEYS_GENERAL);
  }
}

bool ldsi_search_edit_repair(lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind) {
  const lds_Grid *g = s->grid;
  size_t p;
  ptrdiff_t off[8];
  int dy, dx;
  (void)kind;
  if (s->status != LDS_RUNNING) return true;
  if (ldsi_search_edit_any_disturbs(s) || s->hot_query || s->run_mode != 1 /* MODE_PLAIN */ ||
      (s->params.algo != LDS_ALGO_ASTAR && s->params.algo != LDS_ALGO_DIJKSTRA))
    return false;
  p = ldsi_grid_pidx(g, x, y);
  if (!g->blocked[p] && s->params.h_scale == 0.0 && s->hk != LDS_H_ZERO &&
      (double)g->cost[p] < s->scale)
    return false;
  ldsi_grid_offsets(g, off);
  /* every generated cell of the block keeps a g its parent move still pays */
  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++) {
      uint32_t v = (uint32_t)((ptrdiff_t)p + dy * (ptrdiff_t)g->pw + dx), u;
      const ldsi_Node *nv = &s->nodes[v];
      int d;
      if (nv->gen != s->gen) continue;
      if (v == s->start) {
        if (g->blocked[v]) return false;
        continue;
      }
      u = nv->parent;
      for (d = 0; d < 8; d++)
        if ((uint32_t)((ptrdiff_t)u + off[d]) == v) break;
      if (d == 8 || !((g->nbr[u] >> d) & 1u)) return false; /* illegal now */
      if (nv->g < s->nodes[u].g + move_len[d] * (double)g->cost[v]) return false; /* dearer */
    }
  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++) {
      uint32_t u = (uint32_t)((ptrdiff_t)p + dy * (ptrdiff_t)g->pw + dx);
      if (s->nodes[u].gen == s->gen && s->nodes[u].heap == LDSI_CLOSED) relax_out(s, u, off);
    }
  s->reopen = true; /* improvements reach closed cells: re-expand them */
  return true;
}

void ldsi_search_edit_accept(lds_Search *s) {
  if (s->space == LDSI_SPACE_GRID) s->version = s->grid->version;
}

uint64_t ldsi_search_edit_version(const lds_Search *s) { return s->version; }
