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

void ldsi_search_edit_accept(lds_Search *s) {
  if (s->space == LDSI_SPACE_GRID) s->version = s->grid->version;
}

uint64_t ldsi_search_edit_version(const lds_Search *s) { return s->version; }
