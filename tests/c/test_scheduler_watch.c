/* SPDX-License-Identifier: MIT */
/* test_scheduler_watch.c — watched paths (lds_scheduler_watch.c): a bridge
** closed under walking agents (every watched path that still has to cross
** it fires exactly one event, none that does not, and no watched path
** crosses a blocked cell without one), replans that give an optimal path
** from the agent's cell, the walker's progress, the cost threshold, the
** corner-cutting rule, and the API's errors. */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

/* --------------------------------------------------------- the bridge -- */

enum { W = 60, H = 30, NA = 45, RIVER_X0 = 28, RIVER_X1 = 31, BRIDGE_Y0 = 14, BRIDGE_Y1 = 15 };

typedef struct Agent {
  lds_RequestId id;
  int32_t x, y;          /* where it stands */
  int32_t gx, gy;
  size_t index;          /* its index on the current path */
  int events, replans_done;
  int32_t bx, by;        /* the broken cell of its last event */
  int reason;
  bool waiting;          /* a replan is queued */
  bool expect_event;
  uint32_t policy;
} Agent;

typedef struct World {
  lds_Grid *g;
  lds_Scheduler *sc;
  Agent a[NA];
  int bad_replans, replans_checked;
} World;

static int agent_of(World *w, lds_RequestId id) {
  int i;
  for (i = 0; i < NA; i++)
    if (w->a[i].id == id) return i;
  return -1;
}

static double oneshot_cost(const lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  double c = -1.0;
  lds_search_start(s, NULL, sx, sy, gx, gy);
  if (lds_search_run(s) == LDS_FOUND) c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  World *w = (World *)ud;
  int i = agent_of(w, id);
  Agent *a;
  const lds_Path *p = lds_scheduler_path(sc, id);
  int32_t x0, y0;
  if (ev != LDS_EVENT_DONE || i < 0) return LDS_OK;
  a = &w->a[i];
  a->index = 0;
  if (a->waiting) { /* a replan: from where it stood, optimal on the grid now */
    double ref = oneshot_cost(w->g, a->x, a->y, a->gx, a->gy);
    a->waiting = false;
    a->replans_done++;
    w->replans_checked++;
    if (lds_grid_blocked(w->g, a->x, a->y)) { /* it stood on the bridge: no path from there */
      if (info->status != LDS_NO_PATH || p) w->bad_replans++;
      return LDS_OK;
    }
    if (!p || !lds_path_cell(p, 0, &x0, &y0) || x0 != a->x || y0 != a->y ||
        info->status != LDS_FOUND || fabs(info->cost - ref) > 1e-9 * fmax(1.0, ref))
    {
      w->bad_replans++;
      TH_FAIL("agent %d: replan from (%d,%d): %s cost %.12g, one-shot %.12g", i, a->x, a->y,
              lds_status_name(info->status), info->cost, ref);
    }
  }
  return LDS_OK;
}

static lds_Status on_broken(void *ud, lds_Scheduler *sc, lds_RequestId id, int32_t x, int32_t y,
                            lds_WatchReason why) {
  World *w = (World *)ud;
  int i = agent_of(w, id);
  (void)sc;
  if (i < 0) return LDS_E_ARG;
  w->a[i].events++;
  w->a[i].bx = x;
  w->a[i].by = y;
  w->a[i].reason = (int)why;
  return LDS_OK;
}

/* The move a -> b is legal on g for a walker standing on a (a's own state
** aside): b free, and the corners the diagonal rule needs. */
static bool walk_ok(const lds_Grid *g, int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  bool c1, c2;
  if (lds_grid_blocked(g, bx, by)) return false;
  if (ax == bx || ay == by) return true;
  c1 = !lds_grid_blocked(g, bx, ay);
  c2 = !lds_grid_blocked(g, ax, by);
  return c1 && c2; /* no_corner_cutting, the default */
}

/* Whether the remaining part of agent a's path (after its index) is broken
** on g as it is now. */
static bool remaining_broken(const lds_Grid *g, const lds_Path *p, size_t from) {
  size_t j;
  for (j = from + 1; j < lds_path_length(p); j++) {
    int32_t ax, ay, bx, by;
    lds_path_cell(p, j - 1, &ax, &ay);
    lds_path_cell(p, j, &bx, &by);
    if (!walk_ok(g, ax, ay, bx, by)) return true;
  }
  return false;
}

static void test_bridge(void) {
  World w;
  lds_SchedulerConfig cfg;
  lds_EditStats es;
  th_Rng rng;
  int32_t x, y;
  int i, frame, expected = 0, fired = 0, unexpected = 0, missed = 0, crossing_unwatched = 0;
  memset(&w, 0, sizeof w);
  rng.s = 99;
  w.g = lds_grid_new(NULL, W, H, NULL);
  /* a river with two bridges: the near one (rows 14-15) closes at frame 20 */
  for (y = 0; y < H; y++)
    for (x = RIVER_X0; x <= RIVER_X1; x++)
      if (!(y >= BRIDGE_Y0 && y <= BRIDGE_Y1) && y != 2) lds_grid_set_blocked(w.g, x, y, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  w.sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(w.sc, w.g, 3);
  for (i = 0; i < NA; i++) {
    Agent *a = &w.a[i];
    lds_Request rq;
    a->x = th_randint(&rng, RIVER_X0 - 8);
    a->y = 8 + th_randint(&rng, 14);
    a->gx = RIVER_X1 + 4 + th_randint(&rng, W - RIVER_X1 - 5);
    a->gy = 8 + th_randint(&rng, 14);
    a->policy = i % 3 == 0 ? LDS_WATCH_NOTIFY : i % 3 == 1 ? LDS_WATCH_REPLAN
                                                          : LDS_WATCH_NOTIFY | LDS_WATCH_REPLAN;
    lds_request_init(&rq, w.g, a->x, a->y, a->gx, a->gy);
    rq.flags = LDS_REQ_WATCH;
    rq.watch_policy = a->policy;
    rq.on_done = on_done;
    rq.on_broken = on_broken;
    rq.ud = &w;
    CHECK_INT(lds_scheduler_submit(w.sc, &rq, &a->id), LDS_OK);
  }
  for (frame = 0; frame < 200; frame++) {
    lds_Budget b = {300, 0};
    if (frame == 20) {
      /* who has to cross the bridge still: the watched paths whose
      ** remaining part the closing breaks (computed on a copy) */
      lds_Grid *after = lds_grid_clone(w.g, NULL);
      for (y = BRIDGE_Y0; y <= BRIDGE_Y1; y++)
        for (x = RIVER_X0; x <= RIVER_X1; x++) lds_grid_set_blocked(after, x, y, true);
      for (i = 0; i < NA; i++) {
        Agent *a = &w.a[i];
        const lds_Path *p = lds_scheduler_path(w.sc, a->id);
        a->expect_event = lds_scheduler_watched(w.sc, a->id) && p &&
                          remaining_broken(after, p, a->index);
        expected += a->expect_event;
      }
      lds_grid_free(after);
      /* the bridge closes, one cell at a time (8 edits) */
      for (y = BRIDGE_Y0; y <= BRIDGE_Y1; y++)
        for (x = RIVER_X0; x <= RIVER_X1; x++) lds_grid_set_blocked(w.g, x, y, true);
      for (i = 0; i < NA; i++) { /* replans start where the agent stands */
        Agent *a = &w.a[i];
        if ((a->policy & LDS_WATCH_REPLAN) && lds_scheduler_status(w.sc, a->id) == LDS_RUNNING &&
            lds_scheduler_path(w.sc, a->id) != NULL)
          a->waiting = true;
        fired += a->events > 0 || a->waiting;
      }
    }
    lds_scheduler_step(w.sc, &b, NULL);
    /* every watched path: no blocked cell ahead without an event */
    for (i = 0; i < NA; i++) {
      const lds_Path *p = lds_scheduler_path(w.sc, w.a[i].id);
      if (lds_scheduler_watched(w.sc, w.a[i].id) && p && remaining_broken(w.g, p, w.a[i].index)) {
        if (crossing_unwatched++ < 3)
          TH_FAIL("frame %d: agent %d's watched path crosses a blocked cell (index %zu of %zu, "
                  "%d events)", frame, i, w.a[i].index, lds_path_length(p), w.a[i].events);
      }
    }
    /* the walkers take one step on their delivered path */
    for (i = 0; i < NA; i++) {
      Agent *a = &w.a[i];
      const lds_Path *p = lds_scheduler_path(w.sc, a->id);
      if (a->waiting || !lds_scheduler_watched(w.sc, a->id) || !p) continue;
      if (a->index + 1 < lds_path_length(p)) {
        a->index++;
        lds_path_cell(p, a->index, &a->x, &a->y);
        CHECK_INT(lds_scheduler_path_progress(w.sc, a->id, a->index), LDS_OK);
      }
    }
  }
  for (i = 0; i < NA; i++) {
    Agent *a = &w.a[i];
    int ev = (a->policy & LDS_WATCH_NOTIFY) ? a->events : a->replans_done;
    if (a->expect_event && ev != 1) missed++;
    if (!a->expect_event && ev != 0) unexpected++;
    if (a->expect_event && (a->policy & LDS_WATCH_NOTIFY)) {
      /* the first broken cell: on the bridge, as a blocked cell */
      CHECK(a->bx >= RIVER_X0 && a->bx <= RIVER_X1 && a->by >= BRIDGE_Y0 && a->by <= BRIDGE_Y1);
      CHECK_INT(a->reason, LDS_WATCH_BLOCKED);
    }
  }
  printf("  (bridge: %d of %d watched paths broken, %d replans checked)\n", expected, NA,
         w.replans_checked);
  CHECK(expected >= 10); /* the scenario really has paths to break */
  CHECK(expected < NA);  /* and some that already crossed or were not delivered */
  CHECK_INT(missed, 0);
  CHECK_INT(unexpected, 0);
  CHECK_INT(crossing_unwatched, 0);
  CHECK_INT(w.bad_replans, 0);
  CHECK(w.replans_checked >= 5);
  lds_scheduler_edit_stats(w.sc, &es);
  CHECK_INT(es.watch_events, (uint64_t)expected);
  CHECK_INT(fired, expected);
  /* everything walked to its end or broken: nothing left in the index */
  for (i = 0; i < NA; i++) lds_scheduler_release(w.sc, w.a[i].id);
  lds_scheduler_edit_stats(w.sc, &es);
  CHECK_INT(es.watched, 0);
  CHECK_INT(es.watched_cells, 0);
  lds_scheduler_free(w.sc);
  lds_grid_free(w.g);
}

/* ------------------------------------ threshold, progress, corners, API -- */

typedef struct Last {
  int n;
  int32_t x, y;
  int why;
} Last;

static lds_Status record(void *ud, lds_Scheduler *sc, lds_RequestId id, int32_t x, int32_t y,
                         lds_WatchReason why) {
  Last *l = (Last *)ud;
  (void)sc;
  (void)id;
  l->n++;
  l->x = x;
  l->y = y;
  l->why = (int)why;
  return LDS_OK;
}

/* A watched straight path (0,5) -> (9,5) on a 10x10 grid, delivered. */
static lds_RequestId watched_line(lds_Scheduler *sc, lds_Grid *g, Last *l, double ratio,
                                  int32_t gx, int32_t gy) {
  lds_Request rq;
  lds_RequestId id = 0;
  lds_request_init(&rq, g, 0, 5, gx, gy);
  rq.flags = LDS_REQ_WATCH;
  rq.watch_cost_ratio = ratio;
  rq.on_broken = record;
  rq.ud = l;
  lds_scheduler_submit(sc, &rq, &id);
  lds_scheduler_step(sc, NULL, NULL);
  return id;
}

static void test_threshold_progress(void) {
  lds_Grid *g = lds_grid_new(NULL, 10, 10, NULL);
  lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
  lds_RequestId id;
  lds_EditStats es;
  Last l;
  memset(&l, 0, sizeof l);
  lds_scheduler_add_grid(sc, g, 1);
  id = watched_line(sc, g, &l, 2.0, 9, 5);
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK(lds_scheduler_watched(sc, id));
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT(es.watched_cells, 10);
  /* below the threshold (1.5 <= 2 x 1): nothing */
  lds_grid_set_cost(g, 6, 5, 1.5f);
  CHECK_INT(l.n, 0);
  /* the walker is on (4,5): cells behind it no longer count */
  CHECK_INT(lds_scheduler_path_progress(sc, id, 4), LDS_OK);
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT(es.watched_cells, 6);
  lds_grid_set_blocked(g, 2, 5, true);
  lds_grid_set_cost(g, 4, 5, 9.0f); /* its own cell */
  CHECK_INT(l.n, 0);
  CHECK_INT(lds_scheduler_path_progress(sc, id, 2), LDS_OK); /* never goes back */
  CHECK_INT(lds_scheduler_path_progress_cell(sc, id, 5, 5), LDS_OK);
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT(es.watched_cells, 5);
  /* above it (2.5 > 2): the event names the cell */
  lds_grid_set_cost(g, 7, 5, 2.5f);
  CHECK_INT(l.n, 1);
  CHECK_INT(l.x, 7);
  CHECK_INT(l.y, 5);
  CHECK_INT(l.why, LDS_WATCH_COST);
  /* one event per path: disarmed */
  CHECK(!lds_scheduler_watched(sc, id));
  lds_grid_set_blocked(g, 8, 5, true);
  CHECK_INT(l.n, 1);
  CHECK_INT(lds_scheduler_path_progress(sc, id, 5), LDS_E_STATE);
  lds_scheduler_release(sc, id);
  lds_grid_set_blocked(g, 8, 5, false);
  lds_grid_set_blocked(g, 2, 5, false);

  /* ratio 0: costs never break, blocking does */
  memset(&l, 0, sizeof l);
  id = watched_line(sc, g, &l, 0.0, 9, 5);
  lds_grid_set_cost(g, 3, 6, 50.0f); /* not on the path */
  lds_grid_set_cost(g, 8, 5, 50.0f);
  CHECK_INT(l.n, 0);
  /* walked to the end: no longer watched */
  CHECK_INT(lds_scheduler_path_progress(sc, id, lds_path_length(lds_scheduler_path(sc, id)) - 1),
            LDS_OK);
  CHECK(!lds_scheduler_watched(sc, id));
  lds_grid_set_blocked(g, 9, 5, true);
  CHECK_INT(l.n, 0);
  lds_grid_set_blocked(g, 9, 5, false);
  lds_scheduler_release(sc, id);

  /* corner cutting: a diagonal of the path loses a corner */
  memset(&l, 0, sizeof l);
  id = watched_line(sc, g, &l, 0.0, 5, 0); /* (0,5) -> (5,0): five diagonal moves */
  CHECK_INT(lds_path_length(lds_scheduler_path(sc, id)), 6);
  lds_grid_set_blocked(g, 3, 3, true); /* a corner of (2,3) -> (3,2) */
  CHECK_INT(l.n, 1);
  CHECK_INT(l.why, LDS_WATCH_MOVE);
  CHECK_INT(l.x, 3);
  CHECK_INT(l.y, 2);
  lds_grid_set_blocked(g, 3, 3, false);
  lds_scheduler_release(sc, id);

  /* errors */
  {
    lds_Request rq;
    lds_request_init(&rq, g, 0, 0, 9, 9);
    rq.flags = LDS_REQ_WATCH | LDS_REQ_AUTO_RELEASE;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_E_ARG);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "LDS_REQ_AUTO_RELEASE");
    rq.flags = LDS_REQ_WATCH;
    rq.watch_cost_ratio = 0.5;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_E_ARG);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "watch_cost_ratio 0.5");
    rq.watch_cost_ratio = 0.0;
    rq.watch_policy = 4;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_E_ARG);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "watch_policy 4");
    rq.flags = 0;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
    lds_scheduler_step(sc, NULL, NULL);
    CHECK_INT(lds_scheduler_path_progress(sc, id, 1), LDS_E_STATE);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "no watched path");
    lds_scheduler_release(sc, id);
    CHECK_INT(lds_scheduler_path_progress(sc, id, 1), LDS_E_ARG);
    memset(&l, 0, sizeof l);
    id = watched_line(sc, g, &l, 0.0, 9, 5);
    CHECK_INT(lds_scheduler_path_progress(sc, id, 10), LDS_E_ARG);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "index 10 out of range (the path has 10 cells)");
    CHECK_INT(lds_scheduler_path_progress_cell(sc, id, 3, 3), LDS_E_ARG);
    lds_scheduler_release(sc, id);
  }
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT(es.watched, 0);
  CHECK_INT(es.watched_cells, 0);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* A watched path of a grid that is removed, and a scheduler freed with
** watched paths: nothing leaks (the harness allocator counts), and edits
** after removal reach no one. */
static void test_teardown(void) {
  th_Alloc ta;
  lds_Env env;
  lds_Grid *g = lds_grid_new(NULL, 10, 10, NULL);
  lds_Scheduler *sc;
  Last l;
  memset(&l, 0, sizeof l);
  memset(&ta, 0, sizeof ta);
  lds_env_init(&env);
  env.alloc = th_alloc;
  env.alloc_ud = &ta;
  sc = lds_scheduler_new(&env, NULL, NULL);
  lds_scheduler_add_grid(sc, g, 1);
  watched_line(sc, g, &l, 0.0, 9, 5);
  lds_scheduler_remove_grid(sc, g);
  lds_grid_set_blocked(g, 5, 5, true);
  CHECK_INT(l.n, 0);
  lds_grid_set_blocked(g, 5, 5, false);
  lds_scheduler_add_grid(sc, g, 1);
  watched_line(sc, g, &l, 0.0, 9, 5);
  lds_scheduler_free(sc);
  CHECK_INT(ta.live, 0);
  lds_grid_set_blocked(g, 5, 5, true); /* no listener left */
  CHECK_INT(l.n, 0);
  lds_grid_free(g);
}

/* on_broken may edit the grid (the events of its edits follow), may not
** remove a grid or tick. */
typedef struct Nest {
  lds_Grid *g;
  int n;
  lds_Status remove_st, step_st;
  int32_t x[4], y[4];
} Nest;

static lds_Status nest_cb(void *ud, lds_Scheduler *sc, lds_RequestId id, int32_t x, int32_t y,
                          lds_WatchReason why) {
  Nest *ne = (Nest *)ud;
  (void)id;
  (void)why;
  if (ne->n < 4) {
    ne->x[ne->n] = x;
    ne->y[ne->n] = y;
  }
  ne->n++;
  if (ne->n == 1) {
    ne->remove_st = lds_scheduler_remove_grid(sc, ne->g);
    ne->step_st = lds_scheduler_step(sc, NULL, NULL);
    lds_grid_set_blocked(ne->g, 5, 3, true); /* breaks the second path, after this returns */
    CHECK_INT(ne->n, 1);
  }
  return LDS_OK;
}

static void test_callbacks(void) {
  lds_Grid *g = lds_grid_new(NULL, 10, 10, NULL);
  lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
  lds_Request rq;
  lds_RequestId a, b;
  Nest ne;
  memset(&ne, 0, sizeof ne);
  ne.g = g;
  lds_scheduler_add_grid(sc, g, 1);
  lds_request_init(&rq, g, 0, 5, 9, 5);
  rq.flags = LDS_REQ_WATCH;
  rq.on_broken = nest_cb;
  rq.ud = &ne;
  lds_scheduler_submit(sc, &rq, &a);
  lds_request_init(&rq, g, 0, 3, 9, 3);
  rq.flags = LDS_REQ_WATCH;
  rq.on_broken = nest_cb;
  rq.ud = &ne;
  lds_scheduler_submit(sc, &rq, &b);
  lds_scheduler_step(sc, NULL, NULL);
  CHECK(lds_scheduler_watched(sc, a) && lds_scheduler_watched(sc, b));
  lds_grid_set_blocked(g, 5, 5, true);
  CHECK_INT(ne.n, 2);
  CHECK_INT(ne.remove_st, LDS_E_STATE);
  CHECK_INT(ne.step_st, LDS_E_STATE);
  CHECK_INT(ne.x[0], 5);
  CHECK_INT(ne.y[0], 5);
  CHECK_INT(ne.x[1], 5);
  CHECK_INT(ne.y[1], 3);
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK); /* ticking again afterwards */
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

void suite_scheduler_watch(void);
void suite_scheduler_watch(void) {
  test_bridge();
  test_threshold_progress();
  test_teardown();
  test_callbacks();
}
