/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_edits.c — the scheduler's grid listener: which searches in
** progress an edit disturbs (lds_search_edit.c decides per search and
** cell), and the watched paths it breaks (lds_scheduler_watch.c). The
** rules are in docs/scheduler.md ("Edits").
**
** The listener keeps a copy of each cell's blocked state (shadow, one byte
** per padded cell of the grid) because a listener hears only the
** rectangle an edit touched: the copy tells a cost change (or a layer or
** terrain write) from a cell that was blocked or unblocked, and a cell
** blocked before and after (a cost change of a wall) changes no move at
** all. Cost of an edit: O(cells touched x searches in progress of that
** grid) plus the watchers of the cells touched and their neighbours.
*/
#include "lds_grid_internal.h"
#include "lds_scheduler_internal.h"
#include "lds_search_edit_internal.h"

#include <string.h>

/* Marks the request on search slot k of grid entry ge disturbed. */
static void disturb(lds_Scheduler *sc, GridEntry *ge, int k) {
  Req *q = &sc->req[ge->owner[k]];
  if (q->disturbed) return;
  q->disturbed = true;
  sc->edit_stats.disturbed++;
}

void ldsi_sched_edit_apply(lds_Scheduler *sc, int gi, int k, int32_t x, int32_t y, int kind,
                           bool may_defer) {
  GridEntry *ge = &sc->grids[gi];
  lds_Search *s = ge->search[k];
  uint32_t p = (uint32_t)ldsi_grid_pidx(ge->grid, x, y);
  int rep;
  if (!ldsi_search_edit_disturbs(s, x, y, (ldsi_EditKind)kind)) return;
  /* a cell toggled again: the search waits for it to come back */
  if (kind == LDSI_EDIT_TOGGLE && may_defer && ldsi_sched_defer_begin(sc, gi, k, p)) return;
  rep = ldsi_search_edit_repair(s, x, y, (ldsi_EditKind)kind);
  if (rep == 0) {
    disturb(sc, ge, k);
  } else {
    Req *q = &sc->req[ge->owner[k]];
    sc->edit_stats.repaired++;
    /* a repair that lost work (made expanded cells fresh) counts toward
    ** the restarts bound, so a request whose area keeps changing still
    ** finishes; one that made only open cells fresh undid no expansion */
    if (rep == 2 && ++q->repairs_lost + q->restarts > sc->cfg.max_restarts) q->urgent = true;
  }
}

static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  lds_Scheduler *sc = (lds_Scheduler *)ud;
  int gi = ldsi_sched_find_grid(sc, g), k;
  GridEntry *ge;
  bool whole;
  int32_t x, y;
  (void)version;
  if (gi < 0) return;
  ge = &sc->grids[gi];
  sc->edit_stats.edits++;
  /* a rule change, a layer removed, a touch of everything: every move may
  ** have changed */
  whole = x0 == 0 && y0 == 0 && x1 == g->w - 1 && y1 == g->h - 1 && (size_t)g->w * g->h > 1;
  for (k = 0; k < ge->nsearch; k++) {
    if (ge->owner[k] == NO_INDEX || sc->req[ge->owner[k]].disturbed) continue;
    /* a hierarchy request (lds_scheduler_hier.c) restarts on every edit */
    if (whole || sc->req[ge->owner[k]].rq.hierarchy || ldsi_search_edit_any_disturbs(ge->search[k]))
      disturb(sc, ge, k);
  }
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      size_t p = ldsi_grid_pidx(g, x, y);
      uint8_t was = ge->shadow[p], now = g->blocked[p] ? 1 : 0;
      ldsi_EditKind kind;
      ge->shadow[p] = now;
      if (was && now) continue; /* a wall stays a wall: no move changed */
      kind = was != now ? LDSI_EDIT_TOGGLE : LDSI_EDIT_COST;
      if (!whole)
        for (k = 0; k < ge->nsearch; k++) {
          if (ge->owner[k] == NO_INDEX || sc->req[ge->owner[k]].disturbed) continue;
          if (ldsi_sched_defer_paused(ge, k)) /* queued while it waits */
            ldsi_sched_defer_note(sc, gi, k, (uint32_t)p, was != 0, (int)kind);
          else
            ldsi_sched_edit_apply(sc, gi, k, x, y, (int)kind, true);
          /* a cell toggled again during the request is a flapping one */
          if (kind == LDSI_EDIT_TOGGLE) ldsi_sched_defer_remember(ge, k, (uint32_t)p);
        }
      if (ge->watch.n && !whole) ldsi_sched_watch_cell(sc, gi, p, kind == LDSI_EDIT_TOGGLE);
    }
  if (whole && ge->watch.n) ldsi_sched_watch_all(sc, gi);
  /* pauses whose cells came back (or that waited too long) end */
  ldsi_sched_defer_settle(sc, gi, false);
  /* the searches left alone take the new version: lds_search_step goes on
  ** (a paused search keeps its own until its pause ends) */
  for (k = 0; k < ge->nsearch; k++) {
    if (ge->owner[k] == NO_INDEX || sc->req[ge->owner[k]].disturbed ||
        ldsi_sched_defer_paused(ge, k))
      continue;
    if (ldsi_search_edit_version(ge->search[k]) != g->version) {
      ldsi_search_edit_accept(ge->search[k]);
      sc->edit_stats.kept++;
    }
  }
  ldsi_sched_watch_fire(sc);
}

lds_Status ldsi_sched_edits_attach(lds_Scheduler *sc, int gi) {
  GridEntry *ge = &sc->grids[gi];
  lds_Grid *g = (lds_Grid *)ge->grid; /* listening is allowed on a shared grid */
  size_t p;
  ge->pcells = g->pcells;
  ge->shadow = (uint8_t *)ldsi_alloc(&sc->env, ge->pcells);
  if (!ge->shadow) return LDS_E_NOMEM;
  for (p = 0; p < ge->pcells; p++) ge->shadow[p] = g->blocked[p] ? 1 : 0;
  if (lds_grid_listen(g, on_edit, sc) != LDS_OK) {
    ldsi_free(&sc->env, ge->shadow, ge->pcells);
    ge->shadow = NULL;
    return LDS_E_NOMEM;
  }
  ge->listening = true;
  return LDS_OK;
}

void ldsi_sched_edits_detach(lds_Scheduler *sc, int gi) {
  GridEntry *ge = &sc->grids[gi];
  if (ge->listening && ge->grid) lds_grid_unlisten((lds_Grid *)ge->grid, on_edit, sc);
  ge->listening = false;
  if (ge->shadow) ldsi_free(&sc->env, ge->shadow, ge->pcells);
  ge->shadow = NULL;
}
