/* SPDX-License-Identifier: MIT */
/* test_weighted_edit_rule.c — the smallest cases of the edit rule for a
** search the scheduler holds (lds_search_edit.c, lds_scheduler_edits.c)
** that were once answered wrong, each checked against a fresh one-shot
** search on the grid as it is at delivery.
**
** A settled start: lds_search_start settles a query whose goal (or start)
** is blocked without expanding anything (no_path). A layer-weighted request
** waits for its cost view; when building the view spends the tick's last
** budget, the scheduler starts the search and steps it, and so delivers
** the answer, only in the next tick. An edit between the two ticks that
** unblocks the goal must make the request search again: a rule that left
** alone every search not running delivered no_path on a grid with a path
** (seen first as a weighted Dijkstra request (2,1) -> (1,0) of class 2 on a
** 4x4 map of test_search_edits_weights.c's random maps, under another
** scheduling of the restarts). */
#include "harness.h"
#include "lds.h"

#include <math.h>

/* One-shot search of (sx,sy) -> (gx,gy) with algo and weights w[0..n) on
** the grid as it is now; *cost gets its cost (-1 without a path). */
static lds_Status oneshot(lds_Grid *g, lds_Algo algo, const double *w, int n, int32_t sx,
                          int32_t sy, int32_t gx, int32_t gy, double *cost) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Status st;
  lds_search_params_init(&p);
  p.algo = algo;
  p.layer_weights = w;
  p.n_layer_weights = n;
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (st == LDS_OK) st = lds_search_run(s);
  *cost = lds_search_cost(s);
  lds_search_free(s);
  return st;
}

/* The blocked cell (bx, by) (the goal or the start of the request) is
** unblocked after the first tick, which the view's build spent. */
static void settled_start_case(lds_Algo algo, bool goal_blocked) {
  static const double w[2] = {0.5, 1.0};
  const int32_t sx = 2, sy = 1, gx = 1, gy = 0;
  const int32_t bx = goal_blocked ? gx : sx, by = goal_blocked ? gy : sy;
  lds_Grid *g = lds_grid_new(NULL, 4, 4, NULL);
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_Budget one = {1, 0}, lots = {1000, 0};
  lds_Status ref;
  double ref_cost;
  int l0, l1, x, y;
  lds_grid_layer_add(g, "mud", &l0);
  lds_grid_layer_add(g, "danger", &l1);
  for (y = 0; y < 4; y++)
    for (x = 0; x < 4; x++) {
      lds_grid_layer_set(g, l0, x, y, (float)((x + y) % 3));
      lds_grid_layer_set(g, l1, x, y, (float)((x * y) % 2));
    }
  lds_grid_set_blocked(g, bx, by, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, sx, sy, gx, gy);
  rq.params.algo = algo;
  rq.params.layer_weights = w;
  rq.params.n_layer_weights = 2;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  /* 16 cells of view: one expansion's worth, the whole budget; the search
  ** starts (settled: no_path) but is not stepped, so not delivered */
  lds_scheduler_step(sc, &one, NULL);
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  CHECK((info.flags & LDS_REQINFO_STARTED) != 0);
  CHECK((info.flags & LDS_REQINFO_DONE) == 0);
  CHECK_INT(lds_scheduler_pending(sc), 1);
  lds_grid_set_blocked(g, bx, by, false);
  lds_scheduler_step(sc, &lots, NULL);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  ref = oneshot(g, algo, w, 2, sx, sy, gx, gy, &ref_cost);
  CHECK_INT(ref, LDS_FOUND);
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  if (info.status != ref)
    TH_FAIL("%s, %s blocked then unblocked: delivered %s, one-shot %s", lds_algo_name(algo),
            goal_blocked ? "goal" : "start", lds_status_name(info.status), lds_status_name(ref));
  else
    th_passed++;
  CHECK_NEAR(info.cost, ref_cost, 1e-9 * fmax(1.0, ref_cost));
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* The other way round: the settled answer stays no_path when the edit is
** elsewhere, and the request is delivered once (the restart costs nothing). */
static void settled_start_far_edit(void) {
  static const double w[1] = {1.0};
  lds_Grid *g = lds_grid_new(NULL, 4, 4, NULL);
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_Budget one = {1, 0}, lots = {1000, 0};
  int l0;
  lds_grid_layer_add(g, "mud", &l0);
  lds_grid_layer_set(g, l0, 3, 3, 2.0f);
  lds_grid_set_blocked(g, 1, 0, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(sc, g, 0);
  lds_request_init(&rq, g, 2, 1, 1, 0);
  rq.params.algo = LDS_ALGO_DIJKSTRA;
  rq.params.layer_weights = w;
  rq.params.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  lds_scheduler_step(sc, &one, NULL);
  CHECK_INT(lds_scheduler_pending(sc), 1);
  lds_grid_layer_set(g, l0, 3, 2, 4.0f);
  lds_scheduler_step(sc, &lots, NULL);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  CHECK_INT(lds_scheduler_status(sc, id), LDS_NO_PATH);
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  CHECK_INT(info.expansions, 0);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

void suite_weighted_edit_rule(void);
void suite_weighted_edit_rule(void) {
  settled_start_case(LDS_ALGO_DIJKSTRA, true);
  settled_start_case(LDS_ALGO_ASTAR, true);
  settled_start_case(LDS_ALGO_DIJKSTRA, false);
  settled_start_case(LDS_ALGO_ASTAR, false);
  settled_start_far_edit();
}
