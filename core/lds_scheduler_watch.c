/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_watch.c — watched paths: a delivered path of a request with
** LDS_REQ_WATCH is watched until it breaks, is walked to its end
** (lds_scheduler_path_progress) or the request is released. The rules are
** in lds_scheduler.h and docs/scheduler.md ("Watched paths").
**
** Index: each watched path keeps one WatchCell per cell (in its request,
** Req.watch), linked into a doubly linked list per grid cell whose head
** sits in the grid's hash map from padded cell to first watcher (WatchMap:
** open addressing, linear probing, backward-shift deletion). An edit of a
** cell visits the watchers of that cell (and, when its blocked state
** changed, of its 4 orthogonal neighbours, whose diagonal moves it may
** decide), so its cost is proportional to the cells edited and their
** watchers, never to the number of watched paths. Walked cells are
** unlinked as the agent passes them.
**
** A cell j of the remaining part (j > progress) is broken when it is
** blocked, when its cost exceeds watch_cost_ratio x its cost at delivery
** (ratio > 0), or when the move from cell j-1 into it is no longer legal
** (the corner-cutting rule with a neighbour now blocked). A path fires at
** most once: its watch is disarmed before its event is delivered.
*/
#include "lds_grid_internal.h"
#include "lds_scheduler_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ the map -- */

static size_t map_hash(const WatchMap *m, uint32_t cell) {
  return (size_t)((cell * 0x9E3779B1u) ^ (cell >> 15)) & (m->cap - 1);
}

/* Slot of cell in m, or SIZE_MAX. */
static size_t map_find(const WatchMap *m, uint32_t cell) {
  size_t i;
  if (!m->cap) return SIZE_MAX;
  for (i = map_hash(m, cell);; i = (i + 1) & (m->cap - 1)) {
    if (m->slots[i].cell == cell) return i;
    if (m->slots[i].cell == WATCH_EMPTY) return SIZE_MAX;
  }
}

static bool map_grow(lds_Scheduler *sc, WatchMap *m) {
  size_t ncap = m->cap ? m->cap * 2 : 256, i;
  WatchSlot *old = m->slots, *ns = (WatchSlot *)ldsi_alloc(&sc->env, ncap * sizeof(WatchSlot));
  size_t ocap = m->cap;
  if (!ns) return false;
  for (i = 0; i < ncap; i++) ns[i].cell = WATCH_EMPTY;
  m->slots = ns;
  m->cap = ncap;
  for (i = 0; i < ocap; i++)
    if (old[i].cell != WATCH_EMPTY) {
      size_t j = map_hash(m, old[i].cell);
      while (ns[j].cell != WATCH_EMPTY) j = (j + 1) & (ncap - 1);
      ns[j] = old[i];
    }
  if (old) ldsi_free(&sc->env, old, ocap * sizeof(WatchSlot));
  return true;
}

/* Slot of cell, inserted (head WATCH_NONE) if absent; SIZE_MAX on no memory. */
static size_t map_get(lds_Scheduler *sc, WatchMap *m, uint32_t cell) {
  size_t i = map_find(m, cell);
  if (i != SIZE_MAX) return i;
  if ((m->n + 1) * 2 > m->cap && !map_grow(sc, m)) return SIZE_MAX;
  for (i = map_hash(m, cell); m->slots[i].cell != WATCH_EMPTY; i = (i + 1) & (m->cap - 1)) {}
  m->slots[i].cell = cell;
  m->slots[i].head = WATCH_NONE;
  m->n++;
  return i;
}

/* Removes slot i, shifting back the entries of its probe run. */
static void map_delete(WatchMap *m, size_t i) {
  size_t j = i;
  m->slots[i].cell = WATCH_EMPTY;
  m->n--;
  for (;;) {
    size_t h;
    j = (j + 1) & (m->cap - 1);
    if (m->slots[j].cell == WATCH_EMPTY) return;
    h = map_hash(m, m->slots[j].cell);
    /* the entry at j may move to the hole at i when its home h is not in (i, j] */
    if ((i <= j) ? (h <= i || h > j) : (h <= i && h > j)) {
      m->slots[i] = m->slots[j];
      m->slots[j].cell = WATCH_EMPTY;
      i = j;
    }
  }
}

void ldsi_sched_watch_free_map(lds_Scheduler *sc, int gi) {
  WatchMap *m = &sc->grids[gi].watch;
  if (m->slots) ldsi_free(&sc->env, m->slots, m->cap * sizeof(WatchSlot));
  memset(m, 0, sizeof *m);
}

/* ------------------------------------------------------ the watchers -- */

static WatchCell *ref_cell(lds_Scheduler *sc, uint64_t ref) {
  return &sc->req[(uint32_t)(ref >> 32)].watch[(uint32_t)ref];
}

static void unlink_cell(lds_Scheduler *sc, WatchMap *m, uint32_t r, uint32_t i) {
  WatchCell *w = &sc->req[r].watch[i];
  if (w->prev == WATCH_NONE && w->next == WATCH_NONE) { /* alone, or unlinked */
    size_t s = map_find(m, w->cell);
    if (s != SIZE_MAX && m->slots[s].head == (((uint64_t)r << 32) | i)) map_delete(m, s);
    return;
  }
  if (w->prev != WATCH_NONE) {
    ref_cell(sc, w->prev)->next = w->next;
  } else {
    size_t s = map_find(m, w->cell);
    if (s != SIZE_MAX) m->slots[s].head = w->next;
  }
  if (w->next != WATCH_NONE) ref_cell(sc, w->next)->prev = w->prev;
  w->prev = w->next = WATCH_NONE;
}

void ldsi_sched_watch_disarm(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  uint32_t i;
  if (!q->watch) return;
  if (q->grid >= 0 && q->grid < sc->ngrids) {
    WatchMap *m = &sc->grids[q->grid].watch;
    for (i = q->progress; i < q->nwatch; i++) unlink_cell(sc, m, r, i);
    sc->edit_stats.watched_cells -= q->nwatch - q->progress;
  }
  sc->edit_stats.watched--;
  ldsi_free(&sc->env, q->watch, (size_t)q->nwatch * sizeof(WatchCell));
  q->watch = NULL;
  q->nwatch = 0;
  q->progress = 0;
}

static void log_msg(lds_Scheduler *sc, const char *msg) {
  if (sc->env.log) sc->env.log(sc->env.log_ud, 0, msg);
}

void ldsi_sched_watch_arm(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  GridEntry *ge;
  const lds_Grid *g;
  size_t n, i;
  if (!(q->rq.flags & LDS_REQ_WATCH) || !q->path || q->grid < 0) return;
  ldsi_sched_watch_disarm(sc, r);
  ge = &sc->grids[q->grid];
  g = ge->grid;
  n = lds_path_length(q->path);
  if (n < 2) return; /* nothing left to walk */
  q->watch = (WatchCell *)ldsi_alloc(&sc->env, n * sizeof(WatchCell));
  if (!q->watch) {
    log_msg(sc, "lds_scheduler: out of memory for a watched path (not watched)");
    return;
  }
  q->nwatch = (uint32_t)n;
  q->progress = 0;
  sc->edit_stats.watched++;
  sc->edit_stats.watched_cells += n;
  for (i = 0; i < n; i++) {
    int32_t x, y;
    WatchCell *w = &q->watch[i];
    size_t s;
    lds_path_cell(q->path, i, &x, &y);
    w->cell = (uint32_t)ldsi_grid_pidx(g, x, y);
    w->cost0 = g->cost[w->cell];
    w->prev = w->next = WATCH_NONE;
    s = map_get(sc, &ge->watch, w->cell);
    if (s == SIZE_MAX) {
      q->nwatch = (uint32_t)i; /* the cells linked so far */
      sc->edit_stats.watched_cells -= n - i;
      ldsi_sched_watch_disarm(sc, r);
      log_msg(sc, "lds_scheduler: out of memory for a watched path (not watched)");
      return;
    }
    w->next = ge->watch.slots[s].head;
    if (w->next != WATCH_NONE) ref_cell(sc, w->next)->prev = ((uint64_t)r << 32) | i;
    ge->watch.slots[s].head = ((uint64_t)r << 32) | i;
  }
}

/* Whether the move from padded cell a to its neighbour b is legal on g as
** far as b and the corners are concerned (a's own state is the agent's
** business: it stands there). */
static bool move_ok(const lds_Grid *g, uint32_t a, uint32_t b) {
  int32_t ax, ay, bx, by;
  bool c1, c2;
  if (g->blocked[b]) return false;
  ldsi_grid_pxy(g, a, &ax, &ay);
  ldsi_grid_pxy(g, b, &bx, &by);
  if (ax == bx || ay == by) return true;
  if (g->neighbourhood != 8 || g->diag == LDS_DIAG_NEVER) return false;
  c1 = !g->blocked[ldsi_grid_pidx(g, bx, ay)];
  c2 = !g->blocked[ldsi_grid_pidx(g, ax, by)];
  switch (g->diag) {
    case LDS_DIAG_NO_CORNER_CUTTING: return c1 && c2;
    case LDS_DIAG_ALLOW_ONE_BLOCKED: return c1 || c2;
    default: return true;
  }
}

/* Why cell j (> progress) of request q's watched path is broken, or 0. */
static int broken(const lds_Grid *g, const Req *q, uint32_t j) {
  const WatchCell *w = &q->watch[j];
  if (g->blocked[w->cell]) return LDS_WATCH_BLOCKED;
  if (q->rq.watch_cost_ratio > 0.0 &&
      (double)g->cost[w->cell] > q->rq.watch_cost_ratio * (double)w->cost0)
    return LDS_WATCH_COST;
  if (!move_ok(g, q->watch[j - 1].cell, w->cell)) return LDS_WATCH_MOVE;
  return 0;
}

/* Records that cell j of request r is broken for reason why (the first such
** cell of the edit wins). */
static void hit(lds_Scheduler *sc, uint32_t r, uint32_t j, int why) {
  Req *q = &sc->req[r];
  if (q->hit_j == NO_INDEX) {
    if (sc->nhits == sc->hits_cap) {
      size_t ncap = sc->hits_cap ? sc->hits_cap * 2 : 64;
      uint32_t *h = (uint32_t *)ldsi_realloc(&sc->env, sc->hits, sc->hits_cap * sizeof(uint32_t),
                                             ncap * sizeof(uint32_t));
      if (!h) {
        log_msg(sc, "lds_scheduler: out of memory for a watched-path event (lost)");
        return;
      }
      sc->hits = h;
      sc->hits_cap = ncap;
    }
    sc->hits[sc->nhits++] = r;
    q->hit_j = j;
    q->hit_reason = (uint8_t)why;
  } else if (j < q->hit_j) {
    q->hit_j = j;
    q->hit_reason = (uint8_t)why;
  }
}

/* Checks cells j of the watchers of padded cell p (j = their index, and
** with moves also the next one) and records the breaks. */
static void check_watchers(lds_Scheduler *sc, const lds_Grid *g, WatchMap *m, uint32_t p,
                           bool moves) {
  size_t s = map_find(m, p);
  uint64_t ref;
  if (s == SIZE_MAX) return;
  for (ref = m->slots[s].head; ref != WATCH_NONE; ref = ref_cell(sc, ref)->next) {
    uint32_t r = (uint32_t)(ref >> 32), i = (uint32_t)ref;
    const Req *q = &sc->req[r];
    int why;
    if (i > q->progress && (why = broken(g, q, i)) != 0) hit(sc, r, i, why);
    if (moves && i + 1 < q->nwatch && (why = broken(g, q, i + 1)) != 0) hit(sc, r, i + 1, why);
  }
}

void ldsi_sched_watch_cell(lds_Scheduler *sc, int gi, size_t p, int toggled) {
  GridEntry *ge = &sc->grids[gi];
  const lds_Grid *g = ge->grid;
  check_watchers(sc, g, &ge->watch, (uint32_t)p, false);
  if (toggled && g->blocked[p] && g->neighbourhood == 8 && g->diag != LDS_DIAG_ALWAYS) {
    /* its orthogonal neighbours' diagonal moves may need it free */
    ptrdiff_t off[8];
    int d;
    ldsi_grid_offsets(g, off);
    for (d = 0; d < 4; d++)
      check_watchers(sc, g, &ge->watch, (uint32_t)((ptrdiff_t)p + off[d]), true);
  }
}

void ldsi_sched_watch_all(lds_Scheduler *sc, int gi) {
  const lds_Grid *g = sc->grids[gi].grid;
  uint32_t r, j;
  for (r = 0; r < sc->nreq; r++) {
    const Req *q = &sc->req[r];
    int why;
    if (q->state != SLOT_DONE || !q->watch || q->grid != gi) continue;
    for (j = q->progress + 1; j < q->nwatch; j++)
      if ((why = broken(g, q, j)) != 0) {
        hit(sc, r, j, why);
        break;
      }
  }
}

void ldsi_sched_watch_fire(lds_Scheduler *sc) {
  size_t i;
  bool was_ticking = sc->ticking;
  if (sc->firing) return; /* an edit inside an event: the outer loop delivers it */
  if (!sc->nhits) return;
  sc->firing = true;
  /* on_broken is a callback: it cannot tick nor remove a grid (the grid's
  ** listener list is being walked) */
  sc->ticking = true;
  for (i = 0; i < sc->nhits; i++) {
    uint32_t r = sc->hits[i];
    Req *q = &sc->req[r];
    uint32_t j = q->hit_j, policy;
    lds_WatchReason why = (lds_WatchReason)q->hit_reason;
    lds_RequestId id;
    int32_t x, y;
    q->hit_j = NO_INDEX;
    if (!q->watch || j >= q->nwatch || j <= q->progress) continue; /* released or walked since */
    policy = q->rq.watch_policy ? q->rq.watch_policy : LDS_WATCH_NOTIFY;
    ldsi_grid_pxy(sc->grids[q->grid].grid, q->watch[j].cell, &x, &y);
    if (policy & LDS_WATCH_REPLAN) { /* from the agent's cell */
      int32_t sx, sy;
      ldsi_grid_pxy(sc->grids[q->grid].grid, q->watch[q->progress].cell, &sx, &sy);
      q->rq.sx = sx;
      q->rq.sy = sy;
    }
    ldsi_sched_watch_disarm(sc, r);
    sc->edit_stats.watch_events++;
    id = ldsi_sched_id(sc, r);
    if (policy & LDS_WATCH_REPLAN) {
      if (ldsi_sched_requeue(sc, r) == LDS_OK)
        sc->edit_stats.replans++;
      else
        log_msg(sc, "lds_scheduler: out of memory to replan a broken watched path");
    }
    if ((policy & LDS_WATCH_NOTIFY) && sc->req[r].rq.on_broken) {
      lds_Status st = sc->req[r].rq.on_broken(sc->req[r].rq.ud, sc, id, x, y, why);
      if (st < 0) {
        char msg[LDS_ERRMSG_SIZE];
        snprintf(msg, sizeof msg,
                 "lds_scheduler: on_broken of request 0x%016llx failed: %s",
                 (unsigned long long)id, lds_status_name(st));
        log_msg(sc, msg);
      }
    }
  }
  sc->nhits = 0;
  sc->firing = false;
  sc->ticking = was_ticking;
}

/* ------------------------------------------------------------ the API -- */

static uint32_t watched_slot(lds_Scheduler *sc, lds_RequestId id, const char *fn,
                             lds_Status *st) {
  uint32_t r = ldsi_sched_slot(sc, id);
  *st = LDS_OK;
  if (r == NO_INDEX) {
    *st = ldsi_sched_fail(sc, LDS_E_ARG, "%s: stale or invalid request handle 0x%016llx", fn,
                          (unsigned long long)id);
    return NO_INDEX;
  }
  if (!sc->req[r].watch) {
    *st = ldsi_sched_fail(sc, LDS_E_STATE,
                          "%s: request 0x%016llx has no watched path (not LDS_REQ_WATCH, not "
                          "delivered, broken, or walked to its end)",
                          fn, (unsigned long long)id);
    return NO_INDEX;
  }
  return r;
}

lds_Status lds_scheduler_path_progress(lds_Scheduler *sc, lds_RequestId id, size_t index) {
  lds_Status st;
  uint32_t r = watched_slot(sc, id, "lds_scheduler_path_progress", &st), i;
  Req *q;
  WatchMap *m;
  if (r == NO_INDEX) return st;
  q = &sc->req[r];
  if (index >= q->nwatch)
    return ldsi_sched_fail(sc, LDS_E_ARG,
                           "lds_scheduler_path_progress: index %zu out of range (the path has %lu "
                           "cells)", index, (unsigned long)q->nwatch);
  if (index + 1 == q->nwatch) { /* arrived */
    ldsi_sched_watch_disarm(sc, r);
    return LDS_OK;
  }
  if (index <= q->progress) return LDS_OK;
  m = &sc->grids[q->grid].watch;
  for (i = q->progress; i < (uint32_t)index; i++) unlink_cell(sc, m, r, i);
  sc->edit_stats.watched_cells -= (uint32_t)index - q->progress;
  q->progress = (uint32_t)index;
  return LDS_OK;
}

lds_Status lds_scheduler_path_progress_cell(lds_Scheduler *sc, lds_RequestId id, int32_t x,
                                            int32_t y) {
  lds_Status st;
  uint32_t r = watched_slot(sc, id, "lds_scheduler_path_progress_cell", &st), i, p;
  const Req *q;
  const lds_Grid *g;
  if (r == NO_INDEX) return st;
  q = &sc->req[r];
  g = sc->grids[q->grid].grid;
  if (lds_grid_in_bounds(g, x, y)) {
    p = (uint32_t)ldsi_grid_pidx(g, x, y);
    for (i = q->progress; i < q->nwatch; i++)
      if (q->watch[i].cell == p) return lds_scheduler_path_progress(sc, id, i);
  }
  return ldsi_sched_fail(sc, LDS_E_ARG,
                         "lds_scheduler_path_progress_cell: cell (%ld,%ld) is not on the "
                         "remaining path", (long)x, (long)y);
}

bool lds_scheduler_watched(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = ldsi_sched_slot(sc, id);
  return r != NO_INDEX && sc->req[r].watch != NULL;
}

void lds_scheduler_edit_stats(const lds_Scheduler *sc, lds_EditStats *out) {
  *out = sc->edit_stats;
}
