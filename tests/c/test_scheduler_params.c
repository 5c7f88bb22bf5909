/* SPDX-License-Identifier: MIT */
/* test_scheduler_params.c — lds_scheduler_set_params (what the embedding
** runtime calls after a mod reload): a queued request and a request whose
** search is in progress both answer under the new parameters, keep their
** handle, and the result equals a one-shot A* with those parameters; stale
** handles, finished requests and bad weights are refused with a message. */
#include "harness.h"
#include "lds.h"

#include <math.h>

static double weighted_cost(const lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                            double w0) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  double w[1], c = -1;
  lds_search_params_init(&p);
  w[0] = w0;
  p.layer_weights = w;
  p.n_layer_weights = 1;
  if (lds_search_start(s, &p, sx, sy, gx, gy) == LDS_OK && lds_search_step(s, NULL) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

void suite_scheduler_params(void);
void suite_scheduler_params(void) {
  lds_Grid *g = lds_grid_new(NULL, 80, 60, NULL);
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Request rq;
  lds_RequestId a, b;
  lds_RequestInfo ia, ib;
  lds_SearchParams p;
  lds_Budget bud;
  double w1[1] = {1.0}, w8[1] = {8.0}, w17[17];
  int32_t x, y, layer = -1;
  int i;
  /* a band of "mud" (layer value 1) across the middle: weight 8 makes the
  ** path go round it, weight 1 makes it cross */
  CHECK_INT(lds_grid_layer_add(g, "mud", &layer), LDS_OK);
  for (y = 20; y < 40; y++)
    for (x = 0; x < 70; x++) lds_grid_layer_set(g, layer, x, y, 1.0f);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.searches_per_grid = 1;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
  lds_request_init(&rq, g, 5, 2, 5, 57);
  rq.params.layer_weights = w1;
  rq.params.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &a), LDS_OK);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &b), LDS_OK);
  /* a runs for 50 expansions (in progress), b waits (one search); the cost
  ** view of w1 is built beforehand, so the budget goes to the search */
  {
    lds_CostView *v = lds_cost_view_get(g, w1, 1, NULL);
    CHECK_INT(lds_cost_view_build_step(v, NULL), LDS_OK);
    lds_cost_view_release(v);
  }
  bud.max_expansions = 50;
  bud.budget_us = 0;
  CHECK_INT(lds_scheduler_step(sc, &bud, NULL), LDS_OK);
  CHECK_INT(lds_scheduler_status(sc, a), LDS_RUNNING);
  lds_scheduler_info(sc, a, &ia);
  CHECK(ia.flags & LDS_REQINFO_STARTED);
  lds_scheduler_info(sc, b, &ib);
  CHECK(!(ib.flags & LDS_REQINFO_STARTED));
  lds_search_params_init(&p);
  p.layer_weights = w8;
  p.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_set_params(sc, a, &p), LDS_OK);
  CHECK_INT(lds_scheduler_set_params(sc, b, &p), LDS_OK);
  w8[0] = 99.0; /* copied: the caller's array may change */
  for (i = 0; i < 1000 && lds_scheduler_pending(sc) > 0; i++) lds_scheduler_step(sc, &(lds_Budget){0, 100}, NULL);
  CHECK_INT(lds_scheduler_status(sc, a), LDS_FOUND);
  CHECK_INT(lds_scheduler_status(sc, b), LDS_FOUND);
  lds_scheduler_info(sc, a, &ia);
  lds_scheduler_info(sc, b, &ib);
  CHECK_NEAR(ia.cost, weighted_cost(g, 5, 2, 5, 57, 8.0), 1e-9);
  CHECK_NEAR(ib.cost, weighted_cost(g, 5, 2, 5, 57, 8.0), 1e-9);
  CHECK(fabs(ia.cost - weighted_cost(g, 5, 2, 5, 57, 1.0)) > 1.0); /* not the old answer */
  CHECK_INT(ia.restarts, 0); /* not counted as a staleness restart */
  /* finished, stale, bad input */
  CHECK_INT(lds_scheduler_set_params(sc, a, &p), LDS_E_STATE);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "already finished (found)");
  lds_scheduler_release(sc, a);
  CHECK_INT(lds_scheduler_set_params(sc, a, &p), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "stale or invalid request handle");
  CHECK_INT(lds_scheduler_submit(sc, &rq, &a), LDS_OK);
  CHECK_INT(lds_scheduler_set_params(sc, a, NULL), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "params is NULL");
  for (i = 0; i < 17; i++) w17[i] = 1.0;
  p.layer_weights = w17;
  p.n_layer_weights = 17;
  CHECK_INT(lds_scheduler_set_params(sc, a, &p), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "17 layer weights (expected 0..16");
  lds_scheduler_free(sc);
  lds_grid_free(g);
}
