/* SPDX-License-Identifier: MIT */
/* test_scheduler_defer.c — deferred edits of flapping cells
** (core/lds_scheduler_defer.c, docs/scheduler.md "Flapping cells wait"): a
** door toggled every few ticks across a query that needs many ticks pauses
** the request instead of costing it its subtree; it is never forced, no
** tick runs an expansion past its budget (expansion-counted budgets:
** deterministic mode), and it delivers the cost of a one-shot A* on the
** grid at delivery. A door that stays changed ends the pause after
** DEFER_TICKS (12) ticks. Random maps with flapping doors, cost edits and
** layer writes compare every delivered path with a one-shot search. */
#include "harness.h"
#include "lds.h"

#include <math.h>

enum { DEFER_TICKS_EXPECTED = 12 }; /* DEFER_TICKS of core/lds_scheduler_internal.h */

static lds_Status tick_exp(lds_Scheduler *sc, uint64_t n, lds_TickStats *ts) {
  lds_Budget b;
  b.max_expansions = n;
  b.budget_us = 0;
  return lds_scheduler_step(sc, &b, ts);
}

/* One-shot search with params p (NULL: defaults) on g as it is now: its
** cost (-1 without a path) and expansions. */
static double oneshot(const lds_Grid *g, const lds_SearchParams *p, int32_t sx, int32_t sy,
                      int32_t gx, int32_t gy, uint64_t *expansions) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_Stats st;
  double c = -1.0;
  if (lds_search_start(s, p, sx, sy, gx, gy) == LDS_OK && lds_search_run(s) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_stats(s, &st);
  if (expansions) *expansions = st.expansions;
  lds_search_free(s);
  return c;
}

/* 96 x 96, costs 1 and 2 (the plain loop, which edits repair), a layer
** "mud" in a band, and a wall across x = 48 with a door of 8 cells at
** y 44..51 and a gap at the bottom (y 94, 95): with the door closed the
** way round is long, so the door decides a large part of the tree. */
enum { W = 96, DOOR_X = 48, DOOR_Y0 = 44, DOOR_N = 8 };
static lds_Grid *door_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, W, W, NULL);
  int32_t x, y;
  int l;
  lds_grid_layer_add(g, "mud", &l);
  for (y = 0; y < W; y++)
    for (x = 0; x < W; x++) {
      if ((x * 7 + y * 3) % 5 == 0) lds_grid_set_cost(g, x, y, 2.0f);
      if (y >= 20 && y < 30) lds_grid_layer_set(g, l, x, y, 3.0f);
    }
  for (y = 0; y < W - 2; y++)
    if (y < DOOR_Y0 || y >= DOOR_Y0 + DOOR_N) lds_grid_set_blocked(g, DOOR_X, y, true);
  return g;
}

static void set_door(lds_Grid *g, bool closed) {
  int32_t y;
  for (y = DOOR_Y0; y < DOOR_Y0 + DOOR_N; y++) lds_grid_set_blocked(g, DOOR_X, y, closed);
}

/* A door toggled every 3 ticks while one request runs for many ticks of
** 60 expansions: plain A*, then A* with a layer weight (the weighted loop
** on the grid's cost view). */
static void test_door_flapping(bool weighted) {
  enum { BUDGET = 60, EVERY = 3 };
  static const double wt[1] = {1.0};
  lds_Grid *g = door_grid();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_TickStats ts;
  lds_EditStats es;
  lds_SearchParams sp;
  uint64_t lone = 0, lone_closed = 0;
  int f, over = 0, forced = 0, paused_ticks = 0, paused_ran = 0;
  bool closed = false;
  double best;
  lds_search_params_init(&sp);
  if (weighted) {
    sp.layer_weights = wt;
    sp.n_layer_weights = 1;
  }
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK(sc != NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 48, 93, 48);
  rq.params = sp;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  CHECK(oneshot(g, &sp, 2, 48, 93, 48, &lone) > 0.0);
  CHECK(lone > 20 * BUDGET); /* many ticks of budget, many toggles */
  /* the door closes before the first tick and is first reached by the
  ** search while closed: the search lives with it closed */
  set_door(g, true);
  CHECK(oneshot(g, &sp, 2, 48, 93, 48, &lone_closed) > 0.0);
  set_door(g, false);
  for (f = 0; f < 2000 && lds_scheduler_status(sc, id) == LDS_RUNNING; f++) {
    bool paused;
    if (f % EVERY == 0) {
      closed = !closed;
      set_door(g, closed);
    }
    lds_scheduler_info(sc, id, &info);
    paused = (info.flags & LDS_REQINFO_PAUSED) != 0;
    CHECK_INT(tick_exp(sc, BUDGET, &ts), LDS_OK);
    if (ts.expansions > BUDGET) over++;
    forced += (int)ts.forced;
    if (paused) {
      paused_ticks++;
      if (ts.expansions > 0) paused_ran++; /* a paused request is not stepped */
      CHECK_INT(ts.paused, 1);
    }
  }
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK_INT(forced, 0);
  CHECK_INT(over, 0);
  CHECK_INT(paused_ran, 0);
  CHECK(paused_ticks > 0);
  lds_scheduler_info(sc, id, &info);
  CHECK((info.flags & LDS_REQINFO_FORCED) == 0);
  CHECK(info.deferrals > 1);
  CHECK_INT(info.restarts, 0);
  /* waiting lost nothing: exactly the expansions of one search on the grid
  ** with the door closed (a repair at each toggle would take back the
  ** subtree through the door) */
  printf("  (door every %d ticks%s: %llu expansions, a one-shot search %llu with the door closed, "
         "%llu open; %u pauses)\n", EVERY, weighted ? ", weighted" : "",
         (unsigned long long)info.expansions, (unsigned long long)lone_closed,
         (unsigned long long)lone, info.deferrals);
  CHECK_INT(info.expansions, lone_closed);
  best = oneshot(g, &sp, 2, 48, 93, 48, NULL);
  CHECK_NEAR(info.cost, best, 1e-9 * best);
  {
    lds_PathCheck pc;
    lds_path_check_init(&pc);
    if (weighted) {
      pc.layer_weights = wt;
      pc.nlayers = 1;
    }
    CHECK_INT(lds_path_check(g, lds_scheduler_path(sc, id), &pc, NULL, NULL), LDS_OK);
  }
  lds_scheduler_edit_stats(sc, &es);
  CHECK(es.deferred > 1);
  CHECK(es.resumed > 0);
  CHECK_INT(es.defer_timeouts, 0);
  {
    lds_TickStats tot;
    lds_scheduler_totals(sc, &tot);
    CHECK_INT(tot.deferrals, es.deferred);
  }
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* A door that flaps once and then stays open: the pause waits DEFER_TICKS
** ticks (no edit at all meanwhile: the tick ends it), then the queued
** cells go to the per-cell rule and the search goes on to the optimal
** cost of the grid as it is. */
static void test_door_stays(void) {
  enum { BUDGET = 60 };
  lds_Grid *g = door_grid();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_TickStats ts;
  lds_EditStats es;
  int f, paused_ticks = 0, forced = 0, over = 0;
  double best;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 48, 93, 48);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  /* the search reaches the door (46 cells away: about 46^2/2 expansions) */
  for (f = 0; f < 25; f++) tick_exp(sc, BUDGET, &ts);
  set_door(g, true);  /* the first toggle: repaired */
  tick_exp(sc, BUDGET, &ts);
  tick_exp(sc, BUDGET, &ts);
  set_door(g, false); /* the second: the search waits for the door to close again */
  lds_scheduler_info(sc, id, &info);
  CHECK(info.flags & LDS_REQINFO_PAUSED);
  CHECK_INT(info.deferrals, 1);
  for (f = 0; f < 1000 && lds_scheduler_status(sc, id) == LDS_RUNNING; f++) {
    tick_exp(sc, BUDGET, &ts);
    paused_ticks += (int)ts.paused; /* still paused after the tick */
    forced += (int)ts.forced;
    if (ts.expansions > BUDGET) over++;
  }
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK_INT(paused_ticks, DEFER_TICKS_EXPECTED);
  CHECK_INT(forced, 0);
  CHECK_INT(over, 0);
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT(es.deferred, 1);
  CHECK_INT(es.defer_timeouts, 1);
  CHECK_INT(es.resumed, 0);
  lds_scheduler_info(sc, id, &info);
  best = oneshot(g, NULL, 2, 48, 93, 48, NULL);
  CHECK_NEAR(info.cost, best, 1e-9 * best);
  CHECK_INT(lds_path_check(g, lds_scheduler_path(sc, id), NULL, NULL, NULL), LDS_OK);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* -------------------------------------------------- random sequences -- */

enum { NREQ = 6 };
typedef struct Ctx {
  lds_Grid *g;
  lds_SearchParams sp[NREQ];
  double wt[NREQ][2];
  int32_t sx[NREQ], sy[NREQ], gx[NREQ], gy[NREQ];
  int done[NREQ];
  int delivered, compared, mismatches, illegal, failed;
} Ctx;

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Ctx *c = (Ctx *)ud;
  int i = (int)info->agent_id;
  double ref;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  c->done[i] = 1;
  c->delivered++;
  if (info->status < 0) {
    c->failed++;
    return LDS_OK;
  }
  ref = oneshot(c->g, &c->sp[i], c->sx[i], c->sy[i], c->gx[i], c->gy[i], NULL);
  if (info->status == LDS_FOUND) {
    lds_PathCheck pc;
    lds_path_check_init(&pc);
    pc.layer_weights = c->sp[i].layer_weights;
    pc.nlayers = c->sp[i].n_layer_weights;
    if (lds_path_check(c->g, lds_scheduler_path(sc, id), &pc, NULL, NULL) != LDS_OK) c->illegal++;
  }
  c->compared++;
  if ((info->status == LDS_FOUND) != (ref >= 0.0) ||
      (ref >= 0.0 && !(fabs(info->cost - ref) <= 1e-9 * (ref > 1.0 ? ref : 1.0)))) {
    if (++c->mismatches <= 3)
      TH_FAIL("request %d: delivered %s cost %.12g, one-shot %.12g", i,
              lds_status_name(info->status), info->cost, ref);
  }
  return LDS_OK;
}

/* Random maps 20..40 cells a side (every fifth with all costs 1: the exact
** uniform-cost loop), 4 requests at a time (A*, Dijkstra, A* with layer
** weights), 2 doors of 1..5 cells each toggled at random
** periods (some left changed for longer than a pause waits), a random cost
** edit, layer write or wall toggle most ticks; ticks of 5..40 expansions.
** Every delivered cost equals a one-shot search on the grid at delivery. */
static void test_random(void) {
  enum { MAPS = 400 };
  th_Rng rng;
  int m, total_deferred = 0, total_resumed = 0, total_timeouts = 0, over = 0;
  Ctx c;
  rng.s = 1818;
  memset(&c, 0, sizeof c);
  for (m = 0; m < MAPS; m++) {
    int32_t w = 20 + th_randint(&rng, 21), h = 20 + th_randint(&rng, 21), x, y;
    bool uniform = m % 5 == 4; /* every cost 1: A* and Dijkstra run the exact loop */
    int32_t door_x[2], door_y[2], door_n[2], door_vert[2], period[2];
    bool door_closed[2] = {false, false};
    int i, f, l, d;
    lds_SchedulerConfig cfg;
    lds_Scheduler *sc;
    lds_RequestId id[NREQ];
    lds_EditStats es;
    c.g = lds_grid_new(NULL, w, h, NULL);
    lds_grid_layer_add(c.g, "mud", &l);
    lds_grid_layer_add(c.g, "fire", &l);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        int r = th_randint(&rng, 100);
        if (r < 18) lds_grid_set_blocked(c.g, x, y, true);
        else if (r < 40 && !uniform) lds_grid_set_cost(c.g, x, y, (float)(1 + th_randint(&rng, 4)));
        if (th_randint(&rng, 8) == 0) lds_grid_layer_set(c.g, 0, x, y, (float)th_randint(&rng, 3));
      }
    if (m % 3 == 1) lds_grid_set_diagonal(c.g, (lds_Diagonal)th_randint(&rng, 4));
    for (d = 0; d < 2; d++) {
      door_vert[d] = th_randint(&rng, 2);
      door_n[d] = 1 + th_randint(&rng, 5);
      door_x[d] = th_randint(&rng, w - (door_vert[d] ? 0 : door_n[d]));
      door_y[d] = th_randint(&rng, h - (door_vert[d] ? door_n[d] : 0));
      if (door_vert[d] && door_x[d] >= w) door_x[d] = w - 1;
      if (!door_vert[d] && door_y[d] >= h) door_y[d] = h - 1;
      period[d] = 1 + th_randint(&rng, m % 4 == 3 ? 20 : 6);
    }
    lds_scheduler_config_init(&cfg);
    cfg.deterministic = true;
    cfg.searches_per_grid = 4;
    cfg.max_restarts = (uint32_t)th_randint(&rng, 6);
    sc = lds_scheduler_new(NULL, &cfg, NULL);
    lds_scheduler_add_grid(sc, c.g, 0);
    for (i = 0; i < NREQ; i++) {
      lds_Request rq;
      lds_search_params_init(&c.sp[i]);
      if (i % 3 == 1) c.sp[i].algo = LDS_ALGO_DIJKSTRA;
      if (i % 3 == 2) {
        c.wt[i][0] = 0.5 + th_randint(&rng, 3);
        c.wt[i][1] = th_randint(&rng, 2);
        c.sp[i].layer_weights = c.wt[i];
        c.sp[i].n_layer_weights = 2;
      }
      c.sx[i] = th_randint(&rng, w);
      c.sy[i] = th_randint(&rng, h);
      c.gx[i] = th_randint(&rng, w);
      c.gy[i] = th_randint(&rng, h);
      c.done[i] = 0;
      lds_request_init(&rq, c.g, c.sx[i], c.sy[i], c.gx[i], c.gy[i]);
      rq.params = c.sp[i];
      rq.agent_id = i;
      rq.on_done = on_done;
      rq.ud = &c;
      CHECK_INT(lds_scheduler_submit(sc, &rq, &id[i]), LDS_OK);
    }
    for (f = 0; f < 3000 && lds_scheduler_pending(sc) > 0; f++) {
      lds_TickStats ts;
      uint64_t budget = 5 + (uint64_t)th_randint(&rng, 36);
      int r = th_randint(&rng, 10);
      for (d = 0; d < 2; d++)
        if (f % period[d] == 0) {
          int32_t k;
          door_closed[d] = !door_closed[d];
          for (k = 0; k < door_n[d]; k++)
            lds_grid_set_blocked(c.g, door_x[d] + (door_vert[d] ? 0 : k),
                                 door_y[d] + (door_vert[d] ? k : 0), door_closed[d]);
        }
      x = th_randint(&rng, w);
      y = th_randint(&rng, h);
      if (r < 4 && !uniform) lds_grid_set_cost(c.g, x, y, (float)(1 + th_randint(&rng, 4)));
      else if (r < 6) lds_grid_layer_set(c.g, th_randint(&rng, 2), x, y,
                                         th_randint(&rng, 6) == 0 ? INFINITY : (float)th_randint(&rng, 3));
      else if (r < 7) lds_grid_set_blocked(c.g, x, y, !lds_grid_blocked(c.g, x, y));
      tick_exp(sc, budget, &ts);
      if (!ts.forced && ts.expansions > budget) over++;
    }
    CHECK_INT(lds_scheduler_pending(sc), 0);
    lds_scheduler_edit_stats(sc, &es);
    total_deferred += (int)es.deferred;
    total_resumed += (int)es.resumed;
    total_timeouts += (int)es.defer_timeouts;
    lds_scheduler_free(sc);
    lds_grid_free(c.g);
  }
  printf("  (%d maps: %d delivered, %d compared; pauses %d, resumed %d, timed out %d)\n", MAPS,
         c.delivered, c.compared, total_deferred, total_resumed, total_timeouts);
  CHECK_INT(c.delivered, MAPS * NREQ);
  CHECK_INT(c.mismatches, 0);
  CHECK_INT(c.illegal, 0);
  CHECK_INT(c.failed, 0);
  CHECK_INT(over, 0);
  CHECK(total_deferred > 100); /* the doors really were waited out... */
  CHECK(total_resumed > 50);   /* ...mostly with nothing lost... */
  CHECK(total_timeouts > 5);   /* ...and some left changed past the wait */
}

void suite_scheduler_defer(void);
void suite_scheduler_defer(void) {
  test_door_flapping(false);
  test_door_flapping(true);
  test_door_stays();
  test_random();
}
