/* SPDX-License-Identifier: MIT */
/* test_scheduler_urgent.c — the scheduler's bound on restarts without
** failing (docs/scheduler.md, "Restarts are bounded, never failed"): a
** request whose area is edited before every tick becomes urgent, is picked
** before the others, stays within every tick's budget (counted in
** expansions: deterministic mode), is repaired rather than restarted, and
** finishes with the optimal cost of the grid at delivery; only an urgent
** attempt that must start over again runs past the budget, once. */
#include "harness.h"
#include "lds.h"

/* One-shot A* cost of a query on g as it is now (-1 without a path). */
static double oneshot_cost(const lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                           uint64_t *expansions) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_Stats st;
  double c = -1.0;
  lds_search_start(s, NULL, sx, sy, gx, gy);
  if (lds_search_run(s) == LDS_FOUND) c = lds_search_cost(s);
  lds_search_stats(s, &st);
  if (expansions) *expansions = st.expansions;
  lds_search_free(s);
  return c;
}

static lds_Status tick_exp(lds_Scheduler *sc, uint64_t n, lds_TickStats *ts) {
  lds_Budget b;
  b.max_expansions = n;
  b.budget_us = 0;
  return lds_scheduler_step(sc, &b, ts);
}

/* A 64 x 64 grid of costs 1 and 2 (not uniform, so the plain A* loop runs,
** which edits repair), with a wall across x = 32 open at the ends. */
static lds_Grid *make_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, 64, 64, NULL);
  int32_t x, y;
  for (y = 0; y < 64; y++)
    for (x = 0; x < 64; x++)
      if ((x * 7 + y * 3) % 5 == 0) lds_grid_set_cost(g, x, y, 2.0f);
  for (y = 4; y < 60; y++) lds_grid_set_blocked(g, 32, y, true);
  return g;
}

/* The edits of frame f in the search's area (x 3..29, y 18..45 around the
** start (2, 32)): a cost change (1..4) of one cell, and every other frame
** a wall cell toggled, so the edits disturb the search (repaired: the
** plain A* loop) and the raises and walls make repairs lose work. */
static void edit_area(lds_Grid *g, th_Rng *rng, int f) {
  lds_grid_set_cost(g, 3 + th_randint(rng, 27), 18 + th_randint(rng, 28),
                    (float)(1 + th_randint(rng, 4)));
  if (f % 2 == 0) lds_grid_set_blocked(g, 8 + (f / 2) % 20, 26 + (f / 2) % 12, (f / 2) % 4 < 2);
}

/* A cost change of frame f right beside the start (one of three cells,
** costs 1..4 in turn: its raises make a large part of the tree fresh). */
static void edit_cost_beside_start(lds_Grid *g, int f) {
  lds_grid_set_cost(g, 3 + f % 3, 31 + f % 3, (float)(1 + f % 4));
}

/* The edits of frame f right beside the start: the cost change above and
** the wall cell (3, 33) toggled every frame. The wall flaps: from its
** second toggle on, the search waits it out (paused every other tick, at
** most DEFER_MAX times; docs/scheduler.md "Flapping cells wait") instead of
** losing its subtree, and the cost changes queued meanwhile are repaired
** when the pause ends. */
static void edit_beside_start(lds_Grid *g, int f) {
  edit_cost_beside_start(g, f);
  lds_grid_set_blocked(g, 3, 33, f % 2 == 0);
}

static void test_urgent_sliced(void) {
  enum { BUDGET = 100 };
  lds_Grid *g = make_grid();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id, other;
  lds_RequestInfo info, oinfo;
  lds_TickStats ts;
  lds_EditStats es;
  uint64_t lone = 0, other_exp0;
  int f, ticks = 0, over = 0, forced = 0, urgent_at = -1, limit;
  double best;
  th_Rng rng;
  rng.s = 2024;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.max_restarts = 2;
  cfg.searches_per_grid = 2;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK(sc != NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 32, 61, 32);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  best = oneshot_cost(g, 2, 32, 61, 32, &lone);
  CHECK(best > 0.0);
  /* at most 8 times the expansions of a lone search, in ticks of BUDGET */
  limit = (int)(8 * lone / BUDGET) + 8;
  for (f = 0; f < limit && lds_scheduler_status(sc, id) == LDS_RUNNING; f++) {
    edit_area(g, &rng, f);
    CHECK_INT(tick_exp(sc, BUDGET, &ts), LDS_OK);
    ticks++;
    if (ts.expansions > BUDGET) over++;
    forced += (int)ts.forced;
    lds_scheduler_info(sc, id, &info);
    if (urgent_at < 0 && (info.flags & LDS_REQINFO_URGENT)) urgent_at = f;
  }
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK(urgent_at >= 0);  /* its area kept changing: it became urgent... */
  CHECK_INT(over, 0);     /* ...and no tick ran a single expansion past its budget */
  CHECK_INT(forced, 0);
  CHECK(ticks > (int)(lone / BUDGET)); /* the search really was sliced */
  lds_scheduler_info(sc, id, &info);
  CHECK((info.flags & LDS_REQINFO_FORCED) == 0);
  /* optimal on the grid as it is at delivery */
  best = oneshot_cost(g, 2, 32, 61, 32, NULL);
  CHECK_NEAR(info.cost, best, 1e-9 * best);
  CHECK_INT(lds_path_check(g, lds_scheduler_path(sc, id), NULL, NULL, NULL), LDS_OK);
  lds_scheduler_edit_stats(sc, &es);
  CHECK(es.repaired > 0);
  lds_scheduler_release(sc, id);

  /* an urgent request runs before a request of higher priority that is in
  ** progress too: it gets the tick's whole budget. The first request runs
  ** one tick alone; then the priority-5 one takes every tick, while the
  ** edits around the first one's start cost it work (repairs that make
  ** cells fresh count toward its bound even while it waits) */
  lds_request_init(&rq, g, 2, 32, 61, 32);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  tick_exp(sc, BUDGET, &ts);
  lds_request_init(&rq, g, 61, 2, 2, 61);
  rq.priority = 5;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &other), LDS_OK);
  for (f = 0; f < 50; f++) {
    lds_scheduler_info(sc, id, &info);
    if (info.flags & LDS_REQINFO_URGENT) break;
    CHECK_INT(info.expansions, BUDGET); /* waits while the other runs */
    edit_beside_start(g, f);
    tick_exp(sc, BUDGET, &ts);
  }
  lds_scheduler_info(sc, id, &info);
  lds_scheduler_info(sc, other, &oinfo);
  CHECK(info.flags & LDS_REQINFO_URGENT);
  CHECK_INT(info.status, LDS_RUNNING);
  CHECK_INT(oinfo.status, LDS_RUNNING);
  other_exp0 = oinfo.expansions;
  CHECK(other_exp0 > 0);
  /* paused by the flapping wall: toggling it back ends the pause */
  if (info.flags & LDS_REQINFO_PAUSED) {
    lds_grid_set_blocked(g, 3, 33, !lds_grid_blocked(g, 3, 33));
    lds_scheduler_info(sc, id, &info);
    CHECK((info.flags & LDS_REQINFO_PAUSED) == 0);
  }
  {
    uint64_t e0 = info.expansions;
    tick_exp(sc, BUDGET, &ts);
    CHECK_INT(ts.expansions, BUDGET);
    lds_scheduler_info(sc, id, &info);
    lds_scheduler_info(sc, other, &oinfo);
    CHECK_INT(oinfo.expansions, other_exp0); /* the urgent one went first... */
    CHECK_INT(info.expansions, e0 + BUDGET); /* ...with the whole budget */
  }
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* An edit of the whole grid repairs nothing: every search in progress
** restarts. Urgent, it stays within
** the budget; disturbed again while urgent, its next attempt is forced: it
** runs to its end in that one tick, the only tick past the budget. */
static void test_forced_fallback(void) {
  enum { BUDGET = 20 };
  lds_Grid *g = make_grid();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_TickStats ts;
  int f, over = 0, forced = 0;
  uint64_t lone = 0;
  double best;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.max_restarts = 1;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 32, 61, 32);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  CHECK(oneshot_cost(g, 2, 32, 61, 32, &lone) > 0.0);
  CHECK(lone > 4 * BUDGET);
  for (f = 0; f < 100 && lds_scheduler_status(sc, id) == LDS_RUNNING; f++) {
    tick_exp(sc, BUDGET, &ts);
    if (ts.expansions > BUDGET) over++;
    forced += (int)ts.forced;
    /* restarts 1 and 2 within the bound (the 2nd makes it urgent), the 3rd forced */
    CHECK_INT(ts.forced, f == 3 ? 1 : 0);
    lds_grid_touch(g, 0, 0, 63, 63);
  }
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK_INT(forced, 1);
  CHECK_INT(over, 1);
  lds_scheduler_info(sc, id, &info);
  CHECK(info.flags & LDS_REQINFO_URGENT);
  CHECK(info.flags & LDS_REQINFO_FORCED);
  CHECK_INT(info.restarts, cfg.max_restarts + 2); /* urgent at the 2nd, forced at the 3rd */
  best = oneshot_cost(g, 2, 32, 61, 32, NULL);
  CHECK_NEAR(info.cost, best, 1e-9 * best);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* Edits that keep taking back more work than a tick's budget gives (cost
** changes beside the start, and a wall beside it toggled before every
** tick: the search waits the wall out, DEFER_MAX times at most, and the
** cost changes' repairs re-open a large part of the tree) would keep a
** repaired search from ever finishing. The last resort: once an urgent
** request has expanded as many times as its grid has (padded) cells, more
** than an A* without edits ever expands, its attempt is forced and ends in
** that tick; every other tick stays within its budget. */
static void test_churn_bound(void) {
  enum { BUDGET = 40 };
  lds_Grid *g = make_grid();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_TickStats ts;
  int f, over = 0, forced = 0, forced_at = -1;
  uint64_t urgent_exp = 0;
  double best;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.max_restarts = 2;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 32, 61, 32);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  for (f = 0; f < 1000 && lds_scheduler_status(sc, id) == LDS_RUNNING; f++) {
    bool urgent;
    edit_beside_start(g, f);
    lds_scheduler_info(sc, id, &info);
    urgent = (info.flags & LDS_REQINFO_URGENT) != 0;
    tick_exp(sc, BUDGET, &ts);
    if (ts.forced) forced_at = f;
    forced += (int)ts.forced;
    if (ts.expansions > BUDGET) over++;
    else if (urgent) urgent_exp += ts.expansions;
  }
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK_INT(forced, 1);
  CHECK_INT(over, 1);
  CHECK(forced_at == f - 1); /* the forced attempt ended in its tick */
  /* forced once its urgent expansions passed the grid's 66 x 66 padded cells */
  CHECK(urgent_exp > 66 * 66 - BUDGET && urgent_exp <= 66 * 66 + BUDGET);
  lds_scheduler_info(sc, id, &info);
  CHECK_INT(info.restarts, 0); /* repaired every time, never restarted */
  CHECK(info.deferrals > 0);   /* the wall was waited out too */
  best = oneshot_cost(g, 2, 32, 61, 32, NULL);
  CHECK_NEAR(info.cost, best, 1e-9 * best);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

void suite_scheduler_urgent(void);
void suite_scheduler_urgent(void) {
  test_urgent_sliced();
  test_forced_fallback();
  test_churn_bound();
}
