/* SPDX-License-Identifier: MIT */
/*
** lds_search_edit_internal.h — what a grid edit does to a grid search in
** progress (lds_search_edit.c): whether the edit disturbs it, i.e. changes
** a move its records depend on, and accepting the edits that do not, so
** the search goes on where it was instead of starting over. The scheduler
** (lds_scheduler_edits.c) calls these from its grid listener. Hidden; not
** installed.
*/
#ifndef LDS_SEARCH_EDIT_INTERNAL_H
#define LDS_SEARCH_EDIT_INTERNAL_H

#include "lds_search.h"

/* Kinds of an edited cell, as the caller (who keeps the cells' previous
** blocked state) classifies them. */
typedef enum {
  LDSI_EDIT_COST = 0,   /* passable before and after: its cost (or a layer, or
                        ** its terrain) may have changed */
  LDSI_EDIT_TOGGLE = 1  /* blocked before and passable now, or the reverse */
} ldsi_EditKind;

/* Whether a grid search in progress (status LDS_RUNNING) is disturbed by an
** edit of cell (x, y) of kind `kind` (the cell's state on the grid is the
** new one). An edit disturbs a search when the search's records may depend
** on a move it changed:
**  - LDSI_EDIT_COST changes the cost of the moves into (x, y) only: it
**    disturbs when (x, y) has been generated (a record of the current
**    generation: every legal move into a cell from an expanded cell made it
**    generated, so a fresh cell has no record that used a move into it);
**  - LDSI_EDIT_TOGGLE changes the legality of the moves into (x, y) and,
**    under the corner-cutting rules, of diagonal moves between two of its
**    neighbours (both endpoints of such a move are neighbours of (x, y)):
**    it disturbs when (x, y) has been generated or one of its 8
**    neighbours has been expanded (closed), or has a record whose parent
**    is in the 3x3 block around (x, y) (the parent may have been expanded
**    and re-opened since: its earlier relaxations stay); in the exact
**    uniform-cost loop, which keeps an open node's legal-move mask in its
**    open-list entry, when one of them has been generated.
** Beyond that, an edit always disturbs a search that its loop cannot go on
** with: JPS and JPS+ (their jumps scan cells they never generate), an edge
** callback (costs the grid does not hold), the exact uniform-cost loop
** when a passable cell's cost is no longer 1, and an automatic heuristic
** scale (the smallest cell cost at start) above the new cost of a passable
** cell, which would make the heuristic inadmissible. A layer-weighted
** search follows the same rule with its cost view's effective costs (the
** view has taken the edit first: it listens before the scheduler). A
** search that is not running (its query settled, not yet delivered: a
** start that found the start or goal blocked) is disturbed by every edit.
** O(1). */
bool ldsi_search_edit_disturbs(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind);

/* ldsi_search_edit_disturbs without reading the legal-move mask of any
** neighbour: true whenever that rule could be true for some state of the
** other cells. Its answer depends on the search's records and on (x, y)
** alone, so it holds while edits of other cells wait unaccounted (a paused
** request, lds_scheduler_defer.c): the one place the rule reads a mask --
** a layer-weighted search, an expanded neighbour with a legal move into a
** cell it holds no record of -- counts every expanded neighbour. O(1). */
bool ldsi_search_edit_may_disturb(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind);

/* Whether search s may wait for its disturbing edits to be undone instead
** of being repaired or restarted at once: its query is running and it
** follows the per-cell rule (not one of the kinds every edit disturbs). */
bool ldsi_search_edit_can_wait(const lds_Search *s);

/* The cost of entering padded cell p as search s reads it now: its cost
** view's effective cost for a layer-weighted search, the grid's cost
** otherwise; INFINITY for a wall (or an infinite layer value). [Units: cost] */
double ldsi_search_edit_cost(const lds_Search *s, size_t p);

/* The cost padded cell p would have for search s were it passable: the
** grid's cost, plus the weighted layers of s's cost view (the view's own
** sum, bit for bit). Blocking and unblocking a cell change neither, so for
** a cell just blocked this is the cost s read before. [Units: cost] */
double ldsi_search_edit_open_cost(const lds_Search *s, size_t p);

/* Whether any edit at all disturbs search s (the kinds of search listed
** above that no edit leaves alone). */
bool ldsi_search_edit_any_disturbs(const lds_Search *s);

/* Repairs search s after an edit of cell (x, y) of kind `kind` that
** disturbs it (ldsi_search_edit_disturbs): the cells of the 3x3 block
** around it whose parent move became dearer or illegal, and their subtrees
** in the search tree, become fresh and are relaxed again from the expanded
** cells around them; the moves out of the expanded cells of the block are
** relaxed with the current costs; cells that improve are re-opened, and
** from then on the search re-expands improved cells. Returns 0 when the
** search must restart instead (a settled query, the start blocked, a
** partial request losing
** cells, no memory, and every search the repair does not cover: anything
** but A* and Dijkstra in the plain or layer-weighted cost loop), 1 when
** repaired without making an expanded cell fresh, 2 when repaired by making
** expanded (closed) cells fresh (work lost: the scheduler counts it toward
** a request's restarts bound; open cells made fresh lose no expansion).
** Why the repaired
** search's path is optimal: lds_search_edit.c. Cost: the block, plus the
** cells made fresh and their neighbours. */
int ldsi_search_edit_repair(lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind);

/* Takes the grid's current version as the search's own, after every edit
** since its version was checked with ldsi_search_edit_disturbs and none
** disturbed it: lds_search_step then goes on instead of returning
** LDS_E_STALE. The search's state is then a state that the same algorithm
** reaches on the edited grid (see docs/scheduler.md, "Edits"). */
void ldsi_search_edit_accept(lds_Search *s);

/* The grid's version the search's records are valid for. */
uint64_t ldsi_search_edit_version(const lds_Search *s);

#endif
