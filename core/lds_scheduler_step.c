/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_step.c — the scheduler's per-frame slicing (lds_scheduler_step
** and its deprecated aliases): the frame's budget, chunk sizes from the
** measured expansion rate, quick passes, and which request runs next. The
** rules are in lds_scheduler.h and docs/scheduler.md; the state in
** lds_scheduler_internal.h.
*/
#include "lds_cost_view.h"
#include "lds_scheduler_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ----------------------------------------------------------- slicing -- */

#define FOREVER ((uint64_t)-1 >> 1) /* a chunk without limit: runs to the end */

/* The budget of the running tick. Timed mode: t0 + budget_us on the clock;
** expansion limits count exactly. */
typedef struct Budget {
  bool timed;          /* the clock decides */
  uint64_t t0, us;     /* start, budget [µs] */
  uint64_t max_exp;    /* 0 = none */
  uint64_t spent_exp;
  uint64_t now;        /* last clock reading */
  uint64_t check_us;
  uint64_t run_exp;    /* expansions run in this tick (timed) */
  double rate;         /* expansions per µs used in this tick */
  uint64_t view_us;    /* time spent building cost views in this tick (timed) */
  uint64_t view_cells; /* cells built in that time */
  uint64_t nav_us;     /* time of mesh requests' chunks (timed): not in the
                       ** grid searches' rate, they have their own */
} Budget;

static uint64_t read_clock(lds_Scheduler *sc, Budget *b) {
  b->now = sc->env.clock(sc->env.clock_ud);
  sc->cur->clock_reads++;
  return b->now;
}

/* Expansions allowed in the next chunk; 0 = the budget is spent. Timed mode:
** about check_us of work at the measured rate, never more than half of the
** time left, so the last chunks shrink geometrically towards the deadline and
** the overshoot is at most one small chunk. */
static uint64_t next_chunk(lds_Scheduler *sc, Budget *b, double rate, uint64_t cap) {
  uint64_t k = 0;
  if (b->max_exp) {
    if (b->spent_exp >= b->max_exp) return 0;
    k = b->max_exp - b->spent_exp;
  }
  if (b->timed) {
    uint64_t el = b->now - b->t0, left, kt;
    double want;
    if (el >= b->us) return 0;
    left = b->us - el;
    if (left < 2) return 0; /* nothing useful fits in under 2 µs */
    want = (rate > 0.0 && rate < b->rate ? rate : b->rate) * (double)(left / 2 < b->check_us ? left / 2 : b->check_us);
    kt = want > (double)K_MAX ? K_MAX : (uint64_t)want;
    if (kt < K_MIN && left > 2 * b->check_us) kt = K_MIN;
    if (kt == 0) kt = 1; /* always progress while time is left */
    if (!k || kt < k) k = kt;
    sc->last_k = k;
  }
  if (cap && (!k || cap < k)) k = cap;
  return k ? k : (uint64_t)-1 >> 1; /* no limit at all: run to the end */
}

/* After a chunk of n expansions: count them, read the clock, update the
** rate used for the rest of this tick: the smaller of the carried estimate
** and what this tick measured so far (once there is enough of it to trust),
** so a slow tick (costly callbacks, a cold cache) shrinks chunks at once while
** one preempted chunk cannot poison later ticks (see end_rate). */
static void after_chunk(lds_Scheduler *sc, Budget *b, Req *q, uint64_t n) {
  b->spent_exp += n;
  q->expansions += n;
  sc->cur->expansions += n;
  if (b->timed) {
    uint64_t before = b->now;
    read_clock(sc, b);
    q->elapsed_us += b->now - before;
    q->rate_exp += n;
    b->run_exp += n;
    if (b->now - b->t0 - b->view_us - b->nav_us >= 20 && b->run_exp > 0) {
      double measured = (double)b->run_exp / (double)(b->now - b->t0 - b->view_us - b->nav_us);
      b->rate = measured < sc->rate ? measured : sc->rate;
      if (b->rate < RATE_MIN) b->rate = RATE_MIN;
    }
  }
}

/* End of a timed tick: fold its measured rate into the carried estimate
** (exponential moving average, weight 0.3) when the tick ran long enough. */
static void end_rate(lds_Scheduler *sc, const Budget *b) {
  uint64_t us = b->now - b->t0 - b->view_us - b->nav_us; /* grid searching time only */
  if (!b->timed || us < 50 || b->run_exp < 16) return;
  sc->rate = 0.7 * sc->rate + 0.3 * ((double)b->run_exp / (double)us);
  if (sc->rate < RATE_MIN) sc->rate = RATE_MIN;
}

/* One step of s bounded by max_exp expansions (0 = no limit). */
static lds_Status step_n(lds_Search *s, uint64_t max_exp) {
  lds_Budget b;
  b.max_expansions = max_exp;
  b.budget_us = 0;
  return lds_search_step(s, &b);
}

/* Adds a step's open-list counters to the scheduler's lds_Stats. */
static void count_open(lds_Scheduler *sc, const lds_Stats *st, uint64_t pushes) {
  sc->pushes += pushes;
  if (st->peak_open > sc->peak_open) sc->peak_open = st->peak_open;
}

/* Whether request r has layer weights (then it runs on a cost view). */
static bool has_weights(const Req *q) {
  int i;
  for (i = 0; i < q->rq.params.n_layer_weights; i++)
    if (q->weights[i] != 0.0) return true;
  return false;
}

/* The cost view request r needs, as a new reference, or NULL when r has no
** weights or the lookup fails (bad weights, no memory: the search's start
** then fails with the message the request ends with). */
static lds_CostView *view_of(const lds_Scheduler *sc, const Req *q) {
  lds_Error err;
  if (!has_weights(q)) return NULL;
  return lds_cost_view_get(sc->grids[q->grid].grid, q->weights, q->rq.params.n_layer_weights,
                           &err);
}

/* Whether request r may start now: it has no layer weights, or their cost
** view is ready, or is made ready within the tick's budget here (slices of
** at most VIEW_CHUNK cells, counted against the budget like expansions; in
** timed mode a slice is also kept under half the time left at the build
** rate measured in this tick, VIEW_RATE0 cells per µs before any). false:
** the budget ran out first; the request waits for the next tick. A view
** that fails to build lets the request start, so its search reports the
** error. */
#define VIEW_CHUNK 2048   /* largest slice [cells] */
#define VIEW_RATE0 64.0   /* first guess of the build rate [cells per µs] */
static bool view_ready(lds_Scheduler *sc, Budget *b, uint32_t r) {
  lds_CostView *v = view_of(sc, &sc->req[r]);
  bool ok = true;
  if (!v) return true;
  while (!lds_cost_view_ready(v)) {
    uint64_t k = next_chunk(sc, b, 0.0, 0), c0 = lds_cost_view_cells_done(v), dc, t0 = b->now;
    lds_Budget vb;
    lds_Status st;
    if (k == 0) {
      ok = false;
      break;
    }
    vb.budget_us = 0;
    vb.max_expansions = k;
    if (b->timed) {
      double rate = b->view_us >= 10 ? (double)b->view_cells / (double)b->view_us : VIEW_RATE0;
      double cells = rate * (double)(b->us - (b->now - b->t0)) / 2.0;
      if (cells > VIEW_CHUNK) cells = VIEW_CHUNK;
      if (cells < LDS_COST_VIEW_CELLS_PER_EXPANSION) cells = LDS_COST_VIEW_CELLS_PER_EXPANSION;
      vb.max_expansions = (uint64_t)cells / LDS_COST_VIEW_CELLS_PER_EXPANSION;
    }
    st = lds_cost_view_build_step(v, &vb);
    dc = lds_cost_view_cells_done(v) - c0;
    sc->cur->view_cells += dc;
    b->spent_exp += (dc + LDS_COST_VIEW_CELLS_PER_EXPANSION - 1) / LDS_COST_VIEW_CELLS_PER_EXPANSION;
    if (b->timed) {
      read_clock(sc, b);
      b->view_us += b->now - t0;
      b->view_cells += dc;
    }
    if (st < 0) break;                  /* the search's start reports it */
    if (st == LDS_RUNNING && dc == 0) { /* another thread builds it */
      ok = false;
      break;
    }
  }
  lds_cost_view_release(v);
  return ok;
}

/* Starts (or restarts) the search of request r on search slot k. Returns
** LDS_OK, or the error that ended the request. */
static lds_Status start_search(lds_Scheduler *sc, uint32_t r, lds_Search *s) {
  Req *q = &sc->req[r];
  lds_Status st;
  ldsi_sched_defer_reset(&sc->grids[q->grid], q->search, false); /* on the current grid */
  if (q->rq.hierarchy) return ldsi_sched_hier_start(sc, r); /* lds_scheduler_hier.c */
  st = lds_search_start(s, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy);
  if (st == LDS_OK) { /* the start's own push, before the first step's snapshot */
    lds_Stats s0;
    lds_search_stats(s, &s0);
    count_open(sc, &s0, s0.pushes);
  }
  sc->cur->started++;
  q->flags |= LDS_REQINFO_STARTED;
  q->disturbed = false; /* on the current grid */
  return st;
}

/* Ends request r with status st: from search s, from its hierarchy query,
** or from its mesh search. */
static void finish_req(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s) {
  if (sc->req[r].nav) ldsi_sched_nav_finish(sc, r, st);
  else if (sc->req[r].rq.hierarchy) ldsi_sched_hier_finish(sc, r, st);
  else ldsi_sched_finish(sc, r, st, s);
}

/* Runs mesh request r (ACTIVE, lds_scheduler_nav.c) until it finishes or
** the budget is spent; true when the budget is spent. Chunks are sized by
** the same rule as a grid search's, with the mesh's own measured rate
** (the request's once 10 µs of it were seen, else its mesh's; before any,
** K_MIN expansions probe it), and their time stays out of the grid
** searches' rate. A mesh never changes: no restart, pause or urgency. */
static bool run_nav_request(lds_Scheduler *sc, Budget *b, uint32_t r) {
  for (;;) {
    Req *q = &sc->req[r];
    lds_Stats st0, st1;
    lds_Status st;
    double own = 0.0;
    uint64_t cap = 0, k, n;
    if (b->timed) {
      own = ldsi_sched_nav_rate(sc, r);
      if (own <= 0.0) cap = K_MIN;
    }
    k = next_chunk(sc, b, own, cap);
    if (k == 0) return true;
    st = ldsi_sched_nav_step(sc, r, k, &st0, &st1);
    count_open(sc, &st1, st1.pushes - st0.pushes);
    n = st1.expansions - st0.expansions;
    b->spent_exp += n;
    q->expansions += n;
    sc->cur->expansions += n;
    if (b->timed) {
      uint64_t before = b->now, dt;
      read_clock(sc, b);
      dt = b->now - before;
      q->elapsed_us += dt;
      q->rate_exp += n;
      b->nav_us += dt;
      ldsi_sched_nav_count(sc, r, n, dt);
    }
    if (st == LDS_RUNNING) continue;
    finish_req(sc, r, st, NULL);
    return false;
  }
}

/* Runs request r (ACTIVE, holding search s) until it finishes or the budget
** is spent. Returns true when the budget is spent. */
static bool run_request(lds_Scheduler *sc, Budget *b, uint32_t r) {
  for (;;) {
    Req *q = &sc->req[r];
    GridEntry *ge = &sc->grids[q->grid];
    lds_Search *s = ge->search[q->search];
    lds_Stats st0, st1;
    lds_Status st;
    double own = 0.0;
    uint64_t cap = 0, k;
    /* A request's own measured rate wins when it is slower than the tick's
    ** (an edge callback, a layer-weighted grid); a request with an edge
    ** callback probes with K_MIN expansions until 10 µs of it were seen. */
    if (b->timed && q->elapsed_us >= 10 && q->rate_exp > 0)
      own = (double)q->rate_exp / (double)q->elapsed_us;
    else if (b->timed && q->rq.params.edge_cost)
      cap = K_MIN;
    /* an urgent request is sliced like any other (it is picked first, so it
    ** gets what is left of every tick); only a forced one runs to its end */
    k = q->forced ? FOREVER : next_chunk(sc, b, own, cap);
    if (k == 0) return true;
    if (q->params_changed) { /* new parameters: start over, keep the place */
      if (!view_ready(sc, b, r)) return true; /* its view is built first */
      q->params_changed = false;
      st = start_search(sc, r, s);
      if (st != LDS_OK) {
        finish_req(sc, r, st, s);
        return false;
      }
    }
    if (q->disturbed) {
      /* An edit changed a move the search had used and the search could
      ** not be repaired (lds_scheduler_edits.c): start over on the current
      ** grid. After more than max_restarts restarts (and repairs that lost
      ** work) the request is urgent: picked first, sliced within the
      ** budget. An urgent attempt that has to start over again is forced:
      ** the new attempt runs to its end in this tick, whatever the budget,
      ** so a request whose search no edit can repair still finishes (edits
      ** happen between ticks, or in callbacks once this search is done). A
      ** layer-weighted request waits for its cost view first. */
      bool was_urgent = q->urgent;
      if (!view_ready(sc, b, r)) return true;
      q->restarts++;
      sc->cur->restarted++;
      if (q->restarts + q->repairs_lost > sc->cfg.max_restarts) q->urgent = true;
      if (was_urgent) q->forced = true;
      st = start_search(sc, r, s);
      if (st != LDS_OK) {
        finish_req(sc, r, st, s);
        return false;
      }
    }
    /* the bound on an urgent request that keeps being repaired: after
    ** URGENT_CELLS times its grid's cells of expansions it is forced too */
    if (q->urgent && !q->forced && q->urgent_exp > URGENT_CELLS * (uint64_t)ge->pcells)
      q->forced = true;
    if (q->forced) {
      if (!q->forced_counted) {
        q->forced_counted = true;
        sc->cur->forced++;
      }
      k = FOREVER;
    }
    if (q->rq.hierarchy) {
      st = ldsi_sched_hier_step(sc, r, k, &st0, &st1);
    } else {
      lds_search_stats(s, &st0);
      st = step_n(s, k);
      lds_search_stats(s, &st1);
    }
    count_open(sc, &st1, st1.pushes - st0.pushes);
    after_chunk(sc, b, q, st1.expansions - st0.expansions);
    if (q->urgent) q->urgent_exp += st1.expansions - st0.expansions;
    if (st == LDS_RUNNING) {
      if (q->rq.hierarchy && ldsi_sched_hier_partial(sc, r)) return false; /* released */
      continue;
    }
    if (st == LDS_E_STALE) {
      /* the search stopped itself: its cost view was reset or changed its
      ** scale or uniform flag under it (lds_cost_view.h), or an edit the
      ** scheduler could not hear (a grid edited from another thread during
      ** the tick, against docs/threads.md): treat it as a disturbing edit */
      q->disturbed = true;
      continue;
    }
    finish_req(sc, r, st, s);
    return false;
  }
}

/* A queued request r that its grid's path cache accepts is answered from
** the cache (lds_path_cache.h): a hit at once, or the goal's tree grown in
** chunks sized like a search's. Returns 0 when the cache does not take it
** (or fails: the search then meets the same problem and reports it), 1 when
** the request finished, 2 when the budget ran out while the tree grows (the
** request stays queued; the growth is kept). */
static int serve_from_cache(lds_Scheduler *sc, Budget *b, uint32_t r) {
  Req *q = &sc->req[r];
  lds_PathCache *pc = sc->grids[q->grid].cache;
  lds_Path *path = NULL;
  lds_Status st;
  uint64_t total = 0;
  if (!pc || q->rq.hierarchy || !lds_path_cache_accepts(pc, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy))
    return 0;
  for (;;) {
    lds_Error err;
    uint64_t n = 0, k = next_chunk(sc, b, 0.0, 0);
    if (k == 0) return 2;
    st = lds_path_cache_query(pc, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy, k, &n,
                              &path, &err);
    after_chunk(sc, b, q, n);
    total += n;
    if (st != LDS_RUNNING) break;
  }
  if (st != LDS_FOUND && st != LDS_NO_PATH) return 0;
  q->flags |= LDS_REQINFO_STARTED;
  memset(&q->stats, 0, sizeof q->stats);
  q->stats.expansions = total;
  ldsi_sched_finish_path(sc, r, st, path);
  return 1;
}

/* Quick passes: pop quick requests in key order while the quick share lasts.
** Each runs at most quick_expansions on the grid's quick search. */
static void quick_passes(lds_Scheduler *sc, Budget *b) {
  uint64_t qmax_exp = 0, qus = 0;
  double share = sc->cfg.quick_share;
  if (share <= 0.0) return;
  if (b->max_exp) qmax_exp = (uint64_t)((double)b->max_exp * share);
  if (b->timed) qus = (uint64_t)((double)b->us * share);
  for (;;) {
    int gi, best = -1;
    uint32_t r = NO_INDEX;
    Req *q;
    GridEntry *ge;
    lds_Search *s;
    lds_Stats stt;
    lds_Status st;
    uint64_t cap;
    if (b->max_exp && b->spent_exp >= qmax_exp) return;
    if (b->timed && b->now - b->t0 >= qus) return;
    for (gi = 0; gi < sc->ngrids; gi++) {
      Heap *h = &sc->grids[gi].heap[HEAP_QUICK];
      if (h->n && (r == NO_INDEX || ldsi_sched_req_before(sc, h->items[0], r))) {
        r = h->items[0];
        best = gi;
      }
    }
    if (r == NO_INDEX) return;
    if (!ldsi_sched_weights_match(sc, r)) { /* a weighted layer was removed */
      ldsi_sched_finish(sc, r, LDS_E_STATE, NULL);
      continue;
    }
    ge = &sc->grids[best];
    q = &sc->req[r];
    {
      lds_CostView *v = view_of(sc, q);
      bool wait = v && !lds_cost_view_ready(v);
      lds_cost_view_release(v);
      if (wait) return; /* the main pass builds its view */
    }
    ldsi_sched_heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
    q->quick_pending = false;
    cap = q->rq.quick_expansions;
    if (b->max_exp && b->max_exp - b->spent_exp < cap) cap = b->max_exp - b->spent_exp;
    if (cap == 0) return; /* 0 would mean "no limit" to lds_search_step */
    s = ge->quick;
    st = lds_search_start(s, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy);
    if (st == LDS_OK) st = step_n(s, cap);
    lds_search_stats(s, &stt);
    count_open(sc, &stt, stt.pushes);
    after_chunk(sc, b, q, stt.expansions);
    sc->cur->started++;
    q->flags |= LDS_REQINFO_STARTED;
    if (st != LDS_RUNNING) {
      /* the quick pass settled it (found, no path, or the error the full
      ** search would meet too): that is the full answer */
      ldsi_sched_finish(sc, r, st, s);
      if (b->timed) read_clock(sc, b);
      continue;
    }
    {
      lds_Error err;
      q->quick = lds_search_partial_path(s, &err);
      if (q->quick) {
        q->flags |= LDS_REQINFO_PARTIAL;
        sc->cur->partial_paths++;
        ldsi_sched_deliver(sc, r, LDS_EVENT_PARTIAL);
      }
    }
    if (b->timed) read_clock(sc, b);
  }
}

/* Rank of an ACTIVE request in pick: forced before urgent before the rest. */
static int rank_of(const Req *q) { return q->forced ? 2 : q->urgent ? 1 : 0; }

/* The best request to run next: a forced request, else an urgent one (the
** larger key first among them), else the largest key among ACTIVE requests
** and the heads of the queues of grids with a free search. */
static uint32_t pick(lds_Scheduler *sc) {
  uint32_t best = NO_INDEX;
  int gi, k, best_rank = 0;
  for (gi = 0; gi < sc->ngrids; gi++) {
    GridEntry *ge = &sc->grids[gi];
    for (k = 0; k < ge->nsearch; k++) {
      uint32_t r = ge->owner[k];
      int rk;
      if (r == NO_INDEX) continue;
      /* a paused request waits for its flapping cells (lds_scheduler_defer.c) */
      if (ldsi_sched_defer_paused(ge, k) && !sc->req[r].disturbed && !sc->req[r].params_changed)
        continue;
      rk = rank_of(&sc->req[r]);
      if (best == NO_INDEX || rk > best_rank ||
          (rk == best_rank && ldsi_sched_req_before(sc, r, best))) {
        best = r;
        best_rank = rk;
      }
    }
    if (ge->nfree > 0 && ge->heap[HEAP_MAIN].n) {
      uint32_t r = ge->heap[HEAP_MAIN].items[0];
      if (best == NO_INDEX || (best_rank == 0 && ldsi_sched_req_before(sc, r, best))) best = r;
    }
  }
  /* mesh requests (lds_scheduler_nav.c): never urgent nor forced */
  for (gi = 0; gi < sc->nmeshes; gi++) {
    const MeshEntry *me = &sc->meshes[gi];
    if (best != NO_INDEX && best_rank > 0) break;
    for (k = 0; k < me->nsearch; k++) {
      uint32_t r = me->owner[k];
      if (r != NO_INDEX && (best == NO_INDEX || ldsi_sched_req_before(sc, r, best))) best = r;
    }
    if (me->nfree > 0 && me->heap.n) {
      uint32_t r = me->heap.items[0];
      if (best == NO_INDEX || ldsi_sched_req_before(sc, r, best)) best = r;
    }
  }
  return best;
}

lds_Status lds_scheduler_step(lds_Scheduler *sc, const lds_Budget *budget, lds_TickStats *out) {
  lds_TickStats ts;
  Budget b;
  uint64_t tstart;
  if (sc->ticking)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_step: called from inside a callback");
  memset(&ts, 0, sizeof ts);
  memset(&b, 0, sizeof b);
  ts.frame = sc->frame;
  /* pauses that waited DEFER_TICKS on a grid without edits end here */
  ldsi_sched_defer_settle(sc, 0, true);
  sc->cur = &ts;
  sc->ticking = true;
  b.max_exp = budget ? budget->max_expansions : 0;
  ts.budget_us = budget ? budget->budget_us : 0;
  if (sc->cfg.deterministic) {
    if (ts.budget_us) {
      uint64_t e = ts.budget_us * sc->cfg.expansions_per_us;
      if (!b.max_exp || e < b.max_exp) b.max_exp = e;
    }
  } else if (ts.budget_us) {
    b.timed = true;
    b.us = ts.budget_us;
    b.check_us = sc->cfg.check_us ? sc->cfg.check_us : ts.budget_us / 16;
    if (b.check_us < CHECK_US_MIN) b.check_us = CHECK_US_MIN;
  }
  ts.budget_expansions = b.max_exp;
  tstart = sc->env.clock(sc->env.clock_ud);
  b.t0 = b.now = tstart;
  b.rate = sc->rate;

  quick_passes(sc, &b);
  for (;;) {
    uint32_t r = pick(sc);
    Req *q;
    if (r == NO_INDEX) break;
    if (!sc->req[r].forced && next_chunk(sc, &b, 0.0, 0) == 0) break;
    q = &sc->req[r];
    if (q->nav) { /* a mesh request (lds_scheduler_nav.c) */
      if (q->state == SLOT_QUEUED) {
        lds_Status st = ldsi_sched_nav_begin(sc, r);
        if (st != LDS_OK) {
          finish_req(sc, r, st, NULL);
          if (b.timed) read_clock(sc, &b);
          continue;
        }
      }
      if (run_nav_request(sc, &b, r)) break;
      if (b.timed) read_clock(sc, &b);
      continue;
    }
    if (!ldsi_sched_weights_match(sc, r)) { /* a weighted layer was removed */
      ldsi_sched_finish(sc, r, LDS_E_STATE, NULL);
      if (b.timed) read_clock(sc, &b);
      continue;
    }
    if (q->state == SLOT_QUEUED && sc->grids[q->grid].cache) {
      int served = serve_from_cache(sc, &b, r);
      if (served == 2) break;
      if (served == 1) {
        if (b.timed) read_clock(sc, &b);
        continue;
      }
    }
    if (q->state == SLOT_QUEUED) {
      GridEntry *ge;
      int k;
      lds_Status st;
      if (!view_ready(sc, &b, r)) break; /* waits for its cost view */
      q = &sc->req[r];
      ge = &sc->grids[q->grid];
      for (k = 0; ge->owner[k] != NO_INDEX; k++) {}
      ldsi_sched_heap_remove(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
      if (q->quick_pending) {
        ldsi_sched_heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
        q->quick_pending = false;
      }
      ge->owner[k] = r;
      ge->nfree--;
      q->state = SLOT_ACTIVE;
      q->search = k;
      ldsi_sched_defer_reset(ge, k, true);
      st = start_search(sc, r, ge->search[k]);
      if (st != LDS_OK) {
        finish_req(sc, r, st, ge->search[k]);
        if (b.timed) read_clock(sc, &b);
        continue;
      }
    }
    if (run_request(sc, &b, r)) break;
    /* a request finished: its path and callback took time the next chunk
    ** must not be sized without */
    if (b.timed) read_clock(sc, &b);
  }

  end_rate(sc, &b);
  {
    uint64_t tend = sc->env.clock(sc->env.clock_ud);
    ts.elapsed_us = tend - tstart;
  }
  sc->frame++;
  ts.queued = 0;
  ts.active = 0;
  {
    int gi, k;
    for (gi = 0; gi < sc->ngrids; gi++) {
      ts.queued += (uint32_t)sc->grids[gi].heap[HEAP_MAIN].n;
      ts.active += (uint32_t)(sc->grids[gi].nsearch - sc->grids[gi].nfree);
      for (k = 0; k < sc->grids[gi].nsearch; k++)
        if (sc->grids[gi].owner[k] != NO_INDEX && ldsi_sched_defer_paused(&sc->grids[gi], k) &&
            !sc->req[sc->grids[gi].owner[k]].disturbed)
          ts.paused++;
    }
    for (gi = 0; gi < sc->nmeshes; gi++) {
      ts.queued += (uint32_t)sc->meshes[gi].heap.n;
      ts.active += (uint32_t)(sc->meshes[gi].nsearch - sc->meshes[gi].nfree);
    }
  }
  ts.deferrals = sc->new_deferrals;
  sc->new_deferrals = 0;
  ts.rate = sc->rate;
  ts.chunk_expansions = sc->last_k;
  sc->totals.expansions += ts.expansions;
  sc->totals.elapsed_us += ts.elapsed_us;
  sc->totals.budget_us += ts.budget_us;
  sc->totals.budget_expansions += ts.budget_expansions;
  sc->totals.started += ts.started;
  sc->totals.finished += ts.finished;
  sc->totals.found += ts.found;
  sc->totals.restarted += ts.restarted;
  sc->totals.partial_paths += ts.partial_paths;
  sc->totals.failed += ts.failed;
  sc->totals.callback_errors += ts.callback_errors;
  sc->totals.clock_reads += ts.clock_reads;
  sc->totals.view_cells += ts.view_cells;
  sc->totals.forced += ts.forced;
  sc->totals.deferrals += ts.deferrals;
  sc->totals.paused = ts.paused;
  sc->totals.queued = ts.queued;
  sc->totals.active = ts.active;
  sc->totals.chunk_expansions = ts.chunk_expansions;
  sc->totals.rate = ts.rate;
  sc->totals.frame = sc->frame;
  sc->cur = NULL;
  sc->ticking = false;
  if (out) *out = ts;
  return LDS_OK;
}

lds_Status lds_scheduler_tick_budget(lds_Scheduler *sc, const lds_Budget *budget,
                                     lds_TickStats *out) {
  return lds_scheduler_step(sc, budget, out);
}

lds_Status lds_scheduler_tick(lds_Scheduler *sc, uint64_t budget_us, lds_TickStats *out) {
  lds_Budget b;
  b.max_expansions = 0;
  b.budget_us = budget_us;
  return lds_scheduler_step(sc, &b, out);
}
