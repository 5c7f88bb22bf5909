/* SPDX-License-Identifier: MIT */
/* test_weighted_edit_rule.c — the smallest cases of the edit rule for a
** search the scheduler holds (lds_search_edit.c, lds_scheduler_edits.c) in
** which a rule that looks only at moves out of closed cells answers wrong,
** each checked against a fresh one-shot search on the grid as it is at
** delivery.
**
** A settled start: lds_search_start settles a query whose goal (or start)
** is blocked without expanding anything (no_path). A layer-weighted request
** waits for its cost view; when building the view spends the tick's last
** budget, the scheduler starts the search and steps it, and so delivers
** the answer, only in the next tick. An edit between the two ticks that
** unblocks the goal must make the request search again; a rule that leaves
** alone every search not running delivers no_path on a grid with a path
** (in test_search_edits_weights.c's random maps: a weighted Dijkstra
** request (2,1) -> (1,0) of class 2 on a 4x4 map, under a scheduling of
** restarts that spends the tick's budget on the view).
**
** A re-opened cell: see reopened_corner_case. */
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

/* A re-opened cell's records. A 5x2 grid, no corner cutting, one layer
** (weight 1) that is +inf at c = (2,1) and 0 elsewhere:
**
**   y=0   (0,0) 1   (1,0) 5   v=(2,0) 1   (3,0) 1   G=(4,0) 1
**   y=1   S=(0,1)   u=(1,1) 2   c=(2,1) inf  wall     wall
**
** Dijkstra from S expands S, (0,0) and u; u's expansion gives v its g by
** the diagonal u -> v (legal: (1,0) and c are not walls; c itself is never
** generated, its cost is infinite). u's cost is lowered to 1: a repair
** re-opens u with a better g (S's move into it), so u is open again, while
** v still holds the g of u's first expansion. Then c becomes a wall: the
** diagonal u -> v is no longer legal, and v's record depends on it though
** no neighbour of c is closed and c has no record. A rule that looked only
** at closed neighbours kept the search and delivered S u v (3,0) G with
** the illegal move and v's old g (cost 2 + 1.41 + 1 + 1 = 5.41); the
** optimum is S (0,0) (1,0) v (3,0) G or S u (1,0) v (3,0) G, cost 9. */
static void reopened_corner_case(lds_Algo algo) {
  static const double w[1] = {1.0};
  lds_Grid *g = lds_grid_new(NULL, 5, 2, NULL);
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_RequestId id;
  lds_RequestInfo info;
  lds_Budget one = {1, 0}, three = {3, 0}, lots = {1000, 0};
  lds_PathCheck pc;
  lds_PathCheckReport rep;
  lds_Status ref;
  double ref_cost;
  int l;
  lds_grid_layer_add(g, "danger", &l);
  lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING);
  lds_grid_set_cost(g, 1, 0, 5.0f);
  lds_grid_set_cost(g, 1, 1, 2.0f);
  lds_grid_layer_set(g, l, 2, 1, INFINITY);
  lds_grid_set_blocked(g, 3, 1, true);
  lds_grid_set_blocked(g, 4, 1, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(sc, g, 0);
  lds_request_init(&rq, g, 0, 1, 4, 0);
  rq.params.algo = algo;
  rq.params.layer_weights = w;
  rq.params.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  lds_scheduler_step(sc, &one, NULL);   /* the view */
  lds_scheduler_step(sc, &three, NULL); /* S, (0,0), u */
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  CHECK_INT(info.expansions, 3);
  CHECK_INT(lds_scheduler_pending(sc), 1);
  lds_grid_set_cost(g, 1, 1, 1.0f); /* u re-opened by the repair */
  lds_grid_set_blocked(g, 2, 1, true); /* u -> v cuts c's corner now */
  lds_scheduler_step(sc, &lots, NULL);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  ref = oneshot(g, algo, w, 1, 0, 1, 4, 0, &ref_cost);
  CHECK_INT(ref, LDS_FOUND);
  CHECK_NEAR(ref_cost, 9.0, 1e-12);
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  CHECK_INT(info.status, LDS_FOUND);
  CHECK_NEAR(info.cost, ref_cost, 1e-9 * ref_cost);
  lds_path_check_init(&pc);
  pc.layer_weights = w;
  pc.nlayers = 1;
  CHECK_INT(lds_path_check(g, lds_scheduler_path(sc, id), &pc, &rep, NULL), LDS_OK);
  CHECK_INT(info.restarts, 0); /* repaired, not restarted */
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
  reopened_corner_case(LDS_ALGO_DIJKSTRA);
  reopened_corner_case(LDS_ALGO_ASTAR);
}
