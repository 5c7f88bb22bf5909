/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_defer.c — deferred edits of flapping cells: a request whose
** search is disturbed by a cell toggled again (a door opened and closed) is
** paused instead of repaired, and goes on with nothing lost when the cell
** comes back. The rule is in docs/scheduler.md ("Flapping cells wait").
**
** Why a resumed search's answer is right. The search's records are a
** function of the grid as it read it; the per-cell rule (lds_search_edit.c)
** accepts an edit that changes no move the records depend on, and repairs
** or restarts on the others. A paused search is not stepped and not
** repaired, so its records stay as they were. Every edit heard while it is
** paused either may disturb it (ldsi_search_edit_may_disturb: the rule,
** reading no neighbour's move mask, so that its answer does not depend on
** the other queued cells' states) and is queued with the cell's state as
** the search read it -- its blocked bit and cost --, or changes no move the
** records depend on, whatever the queued cells' states. When every queued
** cell's blocked state is back to what the search read, a queued cell whose
** cost is back too is dropped: the grid then agrees, at every cell the
** records depend on, with the grid the search read, and its state is one
** the same algorithm reaches on the grid as it is. The queued cells left
** (a cost that changed, or a toggle not undone after DEFER_TICKS ticks)
** go to the per-cell rule one after the other against the current grid,
** as the cells of one rectangle edit do; then the search goes on. So its
** path is optimal for the grid at delivery, as without pauses.
**
** Why every request still finishes. A pause lasts at most DEFER_TICKS ticks
** (its cells then go to the per-cell rule), a request pauses at most
** DEFER_MAX times, and a pause never undoes an expansion; after its last
** pause the restarts bound of docs/scheduler.md applies unchanged.
**
** Cost: one SlotDefer per search slot (allocated with the pool at
** lds_scheduler_add_grid, none in an edit); an edit heard while paused is
** O(queued cells) (at most DEFER_CELLS).
*/
#include "lds_grid_internal.h"
#include "lds_scheduler_internal.h"
#include "lds_search_edit_internal.h"

#include <math.h>

void ldsi_sched_defer_reset(GridEntry *ge, int k, bool new_request) {
  SlotDefer *d = &ge->defer[k];
  d->n = d->noff = 0;
  if (new_request) d->nflap = 0;
}

bool ldsi_sched_defer_paused(const GridEntry *ge, int k) { return ge->defer[k].n > 0; }

static bool remembered(const SlotDefer *d, uint32_t p) {
  uint32_t i, n = d->nflap < FLAP_CELLS ? d->nflap : FLAP_CELLS;
  for (i = 0; i < n; i++)
    if (d->flap[i] == p) return true;
  return false;
}

void ldsi_sched_defer_remember(GridEntry *ge, int k, uint32_t p) {
  SlotDefer *d = &ge->defer[k];
  if (remembered(d, p)) return;
  d->flap[d->nflap % FLAP_CELLS] = p; /* a ring: the oldest goes first */
  d->nflap++;
}

/* Queues padded cell p of slot k's pause with its state as the search read
** it: blocked `was`; for a toggle its cost is known (a toggle keeps the
** grid's cost and layers), for a cost edit it is not. */
static void enqueue(GridEntry *ge, int k, uint32_t p, bool was, int kind) {
  SlotDefer *d = &ge->defer[k];
  DeferCell *e = &d->cell[d->n++];
  e->cell = p;
  e->seen_blocked = was;
  e->known = kind == LDSI_EDIT_TOGGLE;
  e->seen_cost = was ? INFINITY : e->known ? ldsi_search_edit_open_cost(ge->search[k], p) : NAN;
  e->off = (ge->grid->blocked[p] != 0) != was;
  if (e->off) d->noff++;
}

bool ldsi_sched_defer_begin(lds_Scheduler *sc, int gi, int k, uint32_t p) {
  GridEntry *ge = &sc->grids[gi];
  SlotDefer *d = &ge->defer[k];
  Req *q = &sc->req[ge->owner[k]];
  if (q->deferrals >= DEFER_MAX || q->rq.hierarchy || !ldsi_search_edit_can_wait(ge->search[k]) ||
      !remembered(d, p))
    return false;
  d->n = d->noff = 0;
  d->since = sc->frame;
  enqueue(ge, k, p, ge->grid->blocked[p] == 0, LDSI_EDIT_TOGGLE); /* toggled: it was the other */
  q->deferrals++;
  sc->edit_stats.deferred++;
  sc->new_deferrals++;
  return true;
}

/* Ends slot k's pause (its request not disturbed): drops the queued cells
** whose state is what the search read, gives the others to the per-cell
** rule against the current grid, and lets the search take the grid's
** version unless that rule disturbed it. */
static void end_pause(lds_Scheduler *sc, int gi, int k, bool timed_out) {
  GridEntry *ge = &sc->grids[gi];
  SlotDefer *d = &ge->defer[k];
  const lds_Grid *g = ge->grid;
  lds_Search *s = ge->search[k];
  uint32_t i, n = d->n;
  if (timed_out)
    sc->edit_stats.defer_timeouts++;
  else
    sc->edit_stats.resumed++;
  d->n = d->noff = 0; /* not paused: the rule below may repair it */
  for (i = 0; i < n && !sc->req[ge->owner[k]].disturbed; i++) {
    const DeferCell *e = &d->cell[i];
    bool now = g->blocked[e->cell] != 0;
    int32_t x, y;
    if (now == e->seen_blocked &&
        (now || (e->known && ldsi_search_edit_cost(s, e->cell) == e->seen_cost)))
      continue; /* as the search read it */
    ldsi_grid_pxy(g, e->cell, &x, &y);
    ldsi_sched_edit_apply(sc, gi, k, x, y, now != e->seen_blocked ? LDSI_EDIT_TOGGLE : LDSI_EDIT_COST,
                          false);
  }
  if (!sc->req[ge->owner[k]].disturbed && ldsi_search_edit_version(s) != g->version)
    ldsi_search_edit_accept(s);
}

void ldsi_sched_defer_note(lds_Scheduler *sc, int gi, int k, uint32_t p, bool was, int kind) {
  GridEntry *ge = &sc->grids[gi];
  SlotDefer *d = &ge->defer[k];
  int32_t x, y;
  uint32_t i;
  for (i = 0; i < d->n; i++) {
    DeferCell *e = &d->cell[i];
    bool off;
    if (e->cell != p) continue;
    off = (ge->grid->blocked[p] != 0) != e->seen_blocked;
    if (off != e->off) {
      e->off = off;
      if (off)
        d->noff++;
      else
        d->noff--;
    }
    return;
  }
  ldsi_grid_pxy(ge->grid, p, &x, &y);
  if (!ldsi_search_edit_may_disturb(ge->search[k], x, y, (ldsi_EditKind)kind)) return;
  if (d->n == DEFER_CELLS) { /* too many: the pause ends, this cell follows the rule */
    end_pause(sc, gi, k, true);
    if (!sc->req[ge->owner[k]].disturbed) ldsi_sched_edit_apply(sc, gi, k, x, y, kind, false);
    return;
  }
  enqueue(ge, k, p, was, kind);
}

void ldsi_sched_defer_settle(lds_Scheduler *sc, int gi, bool all) {
  int g0 = all ? 0 : gi, g1 = all ? sc->ngrids : gi + 1, k;
  for (gi = g0; gi < g1; gi++) {
    GridEntry *ge = &sc->grids[gi];
    if (!ge->defer || !ge->grid) continue;
    for (k = 0; k < ge->nsearch; k++) {
      const SlotDefer *d = &ge->defer[k];
      if (ge->owner[k] == NO_INDEX || !d->n || sc->req[ge->owner[k]].disturbed) continue;
      if (d->noff == 0)
        end_pause(sc, gi, k, false);
      else if (sc->frame - d->since >= DEFER_TICKS)
        end_pause(sc, gi, k, true);
    }
  }
}
