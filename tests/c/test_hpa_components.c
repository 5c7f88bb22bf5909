/* SPDX-License-Identifier: MIT */
/* test_hpa_components.c — hierarchy queries and the grid's connectivity
** index (lds_components.h, lds_hpa_query_start): a query to an island walled
** off by a closed door ends no_path with 0 expansions in the fast and the
** optimal mode, sliced or not, and as a scheduler request, with the grid
** search's status and message; opening the door (the index follows the
** edit) lets the same queries find the path, at the grid search's cost in
** the optimal mode. An index on a layer counts only for a hierarchy that
** weights that layer positively, as for lds_search. Without an index the
** fast query searches (the index is what answers). */
#include "harness.h"
#include "lds.h"
#include "lds_hpa.h"

#include <string.h>

#define W 160
#define H 96
#define WALL 100
#define DOOR 40 /* the door's cells are (WALL, DOOR..DOOR+2) */

/* A grid of W x H cells with a wall at x = WALL whose door is closed: the
** right part is an island. */
static lds_Grid *island_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, W, H, NULL);
  int32_t y;
  for (y = 0; y < H; y++) lds_grid_set_blocked(g, WALL, y, true);
  for (y = 10; y < 80; y++) lds_grid_set_blocked(g, 40, y, true); /* something to go round */
  return g;
}

/* Runs q from (sx,sy) to (gx,gy) in mode m with budget b (NULL: to the end,
** in one step); returns its final status, its expansions in *exp and the
** number of steps taken in *steps. */
static lds_Status run_hpa(lds_HpaQuery *q, lds_HpaMode m, const lds_Budget *b, int32_t sx,
                          int32_t sy, int32_t gx, int32_t gy, uint64_t *exp, int *steps) {
  lds_Status st;
  lds_Stats s;
  *steps = 0;
  *exp = 0;
  if (lds_hpa_query_start(q, m, sx, sy, gx, gy) != LDS_OK) return LDS_E_ARG;
  do {
    st = lds_hpa_query_step(q, b);
    (*steps)++;
  } while (st == LDS_RUNNING);
  lds_hpa_query_stats(q, &s);
  *exp = s.expansions;
  return st;
}

/* The grid search's status and expansions (A*, the given weights and partial). */
static lds_Status run_search(lds_Grid *g, const double *w, int nw, bool partial, int32_t sx,
                             int32_t sy, int32_t gx, int32_t gy, uint64_t *exp, double *cost,
                             char *msg, size_t msgsz) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Stats stt;
  lds_Status st;
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = nw;
  p.partial = partial;
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (st == LDS_OK) st = lds_search_run(s);
  lds_search_stats(s, &stt);
  *exp = stt.expansions;
  *cost = lds_search_cost(s);
  snprintf(msg, msgsz, "%s", lds_search_errmsg(s));
  lds_search_free(s);
  return st;
}

static void test_island(void) {
  lds_Grid *g = island_grid();
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL);
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  lds_Budget small = {20, 0};
  lds_Components *c;
  uint64_t e, es;
  double cost;
  char smsg[256];
  int steps, m;
  lds_Status st;
  CHECK(h && q);
  /* without an index the fast mode searches the start's side to learn it */
  st = run_hpa(q, LDS_HPA_FAST, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK(e > 0);

  c = lds_components_new(NULL, g, 0, NULL);
  CHECK(c != NULL);
  /* the grid search: no_path at its start, 0 expansions */
  st = run_search(g, NULL, 0, false, 5, 5, 150, 90, &es, &cost, smsg, sizeof smsg);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK_INT(es, 0);
  CHECK_CONTAINS(smsg, "goal (150,90) is in another component than the start");
  for (m = 0; m < 2; m++) {
    lds_HpaMode mode = m ? LDS_HPA_OPTIMAL : LDS_HPA_FAST;
    /* in one step */
    st = run_hpa(q, mode, NULL, 5, 5, 150, 90, &e, &steps);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK_INT(e, 0);
    CHECK_CONTAINS(lds_hpa_query_errmsg(q), "goal (150,90) is in another component than the start");
    CHECK(lds_hpa_query_prefix(q, NULL) == NULL);
    CHECK(lds_hpa_query_path(q, NULL) == NULL);
    CHECK_NEAR(lds_hpa_query_cost(q), -1, 0);
    /* sliced: the status is known at the start, the first step returns it */
    CHECK_INT(lds_hpa_query_start(q, mode, 5, 5, 150, 90), LDS_OK);
    CHECK_INT(lds_hpa_query_status(q), LDS_NO_PATH);
    st = run_hpa(q, mode, &small, 5, 5, 150, 90, &e, &steps);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK_INT(e, 0);
    CHECK_INT(steps, 1);
    /* the other way round too */
    st = run_hpa(q, mode, &small, 150, 90, 5, 5, &e, &steps);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK_INT(e, 0);
    /* inside one component: found */
    st = run_hpa(q, mode, &small, 5, 5, 90, 90, &e, &steps);
    CHECK_INT(st, LDS_FOUND);
    CHECK(e > 0);
  }
  /* the grid search with partial keeps searching for its closest cell; a
  ** hierarchy query has no partial mode (the scheduler refuses partial
  ** hierarchy requests: test_scheduler) */
  st = run_search(g, NULL, 0, true, 5, 5, 150, 90, &es, &cost, smsg, sizeof smsg);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK(es > 0);

  /* the door opens: the index joins the island, the queries find it */
  lds_grid_set_blocked(g, WALL, DOOR + 1, false);
  CHECK(lds_components_connected(c, 5, 5, 150, 90));
  st = run_search(g, NULL, 0, false, 5, 5, 150, 90, &es, &cost, smsg, sizeof smsg);
  CHECK_INT(st, LDS_FOUND);
  st = run_hpa(q, LDS_HPA_OPTIMAL, &small, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_FOUND);
  CHECK(e > 0);
  CHECK_NEAR(lds_hpa_query_cost(q), cost, 1e-9 * cost);
  st = run_hpa(q, LDS_HPA_FAST, &small, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_FOUND);
  CHECK(lds_hpa_query_cost(q) >= cost - 1e-9 && lds_hpa_query_cost(q) <= 1.25 * cost);
  {
    lds_Path *p = lds_hpa_query_path(q, NULL);
    int32_t x, y;
    size_t i;
    bool through = false;
    CHECK(p != NULL);
    for (i = 0; p && i < lds_path_length(p); i++) {
      lds_path_cell(p, i, &x, &y);
      through |= x == WALL && y == DOOR + 1;
    }
    CHECK(through);
    lds_path_free(p);
  }
  /* closed again: no_path at once again */
  lds_grid_set_blocked(g, WALL, DOOR + 1, true);
  st = run_hpa(q, LDS_HPA_FAST, &small, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK_INT(e, 0);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
}

/* The island is walled by a lava layer (+inf), with the grid's own index
** on the empty set absent: only the index on {lava} can answer, and only
** for a hierarchy weighting lava positively. */
static void test_layer_rule(void) {
  lds_Grid *g = lds_grid_new(NULL, W, H, NULL);
  lds_HpaParams hp;
  lds_Hpa *hw, *hn;
  lds_HpaQuery *qw, *qn;
  double w1 = 1.0;
  int32_t y;
  int lava = -1, steps;
  uint64_t e;
  lds_Status st;
  CHECK_INT(lds_grid_layer_add(g, "lava", &lava), LDS_OK);
  for (y = 0; y < H; y++) lds_grid_layer_set(g, lava, WALL, y, INFINITY);
  lds_hpa_params_init(&hp);
  hp.layer_weights = &w1;
  hp.n_layer_weights = 1;
  hw = lds_hpa_new(NULL, g, &hp, NULL);
  hn = lds_hpa_new(NULL, g, NULL, NULL);
  qw = lds_hpa_query_new(hw, NULL);
  qn = lds_hpa_query_new(hn, NULL);
  CHECK(qw && qn);
  CHECK(lds_components_new(NULL, g, 1u, NULL) != NULL);
  st = run_hpa(qw, LDS_HPA_FAST, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK_INT(e, 0);
  st = run_hpa(qw, LDS_HPA_OPTIMAL, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK_INT(e, 0);
  /* lava not weighted: the wall is no wall for this hierarchy */
  st = run_hpa(qn, LDS_HPA_FAST, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_FOUND);
  st = run_hpa(qn, LDS_HPA_OPTIMAL, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_FOUND);
  /* lava cooled on one cell: the weighted hierarchy crosses there */
  lds_grid_layer_set(g, lava, WALL, 50, 0.0f);
  st = run_hpa(qw, LDS_HPA_FAST, NULL, 5, 5, 150, 90, &e, &steps);
  CHECK_INT(st, LDS_FOUND);
  lds_hpa_query_free(qw);
  lds_hpa_query_free(qn);
  lds_hpa_free(hw);
  lds_hpa_free(hn);
  lds_grid_free(g);
}

typedef struct Done {
  int calls;
  lds_Status status;
  uint64_t expansions;
  char msg[256];
} Done;

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Done *d = (Done *)ud;
  if (ev == LDS_EVENT_PARTIAL) return LDS_OK;
  d->calls++;
  d->status = info->status;
  d->expansions = info->stats.expansions;
  snprintf(d->msg, sizeof d->msg, "%s", lds_scheduler_request_errmsg(sc, id));
  return LDS_OK;
}

/* Scheduler requests naming the hierarchy: no_path, 0 expansions; after
** the door opens, found. Partial hierarchy requests stay refused. */
static void test_scheduler(void) {
  lds_Grid *g = island_grid();
  lds_Hpa *h = lds_hpa_new(NULL, g, NULL, NULL);
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId id;
  Done d;
  int m, ticks;
  CHECK(lds_components_new(NULL, g, 0, NULL) != NULL);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  for (m = 0; m < 4; m++) {
    if (m == 2) lds_grid_set_blocked(g, WALL, DOOR, false); /* the door opens */
    memset(&d, 0, sizeof d);
    lds_request_init(&rq, g, 5, 5, 150, 90);
    rq.hierarchy = h;
    rq.hierarchy_mode = m % 2 ? LDS_HPA_OPTIMAL : LDS_HPA_FAST;
    rq.on_done = on_done;
    rq.ud = &d;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
    for (ticks = 0; d.calls == 0 && ticks < 10000; ticks++) {
      lds_Budget b = {100, 0};
      lds_scheduler_step(sc, &b, NULL);
    }
    CHECK_INT(d.calls, 1);
    if (m < 2) {
      CHECK_INT(d.status, LDS_NO_PATH);
      CHECK_INT(d.expansions, 0);
    } else {
      CHECK_INT(d.status, LDS_FOUND);
      CHECK(d.expansions > 0);
    }
    lds_scheduler_release(sc, id);
  }
  lds_request_init(&rq, g, 5, 5, 150, 90);
  rq.hierarchy = h;
  rq.params.partial = true;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "partial");
  lds_scheduler_free(sc);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_hpa_components(void);
void suite_hpa_components(void) {
  test_island();
  test_layer_rule();
  test_scheduler();
}
