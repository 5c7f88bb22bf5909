/* SPDX-License-Identifier: MIT */
/*
** test_scheduler_weights.c — a request's layer weights survive the growth
** of the scheduler's request slots: more weighted requests than the slots
** reserved at creation, each delivered path costs what a one-shot A* with
** the same weights finds (the copy of the weights moves with its slot).
*/
#include "harness.h"
#include "lds.h"

#include <stdlib.h>

/* An allocator whose realloc always moves the block and scribbles over the
** old one, so a pointer left into a moved block reads garbage (NaN weights)
** instead of the old values. */
static void *moving_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  void *q;
  (void)ud;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  q = malloc(nsize);
  if (q && ptr) {
    memcpy(q, ptr, osize < nsize ? osize : nsize);
    memset(ptr, 0xFF, osize);
    free(ptr);
  }
  return q;
}

void suite_scheduler_weights(void);
void suite_scheduler_weights(void) {
  lds_Env env;
  lds_Grid *g = lds_grid_new(NULL, 48, 48, NULL);
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Search *one = lds_search_new(NULL, g, NULL);
  lds_RequestId ids[40];
  double w[40][1];
  int layer, i, x, y, found = 0, wrong = 0;
  CHECK_INT(lds_grid_layer_add(g, "mud", &layer), LDS_OK);
  for (y = 0; y < 48; y++)
    for (x = 0; x < 48; x++) lds_grid_layer_set(g, layer, x, y, (float)((x / 6 + y / 5) % 4));
  lds_scheduler_config_init(&cfg);
  cfg.initial_capacity = 4; /* the slots grow several times below */
  cfg.deterministic = true;
  lds_env_init(&env);
  env.alloc = moving_alloc;
  sc = lds_scheduler_new(&env, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 2), LDS_OK);
  for (i = 0; i < 40; i++) {
    lds_Request rq;
    double lw[1];
    lw[0] = 0.5 + (double)(i % 5); /* a local array: the scheduler keeps a copy */
    w[i][0] = lw[0];
    lds_request_init(&rq, g, i % 48, 0, 47 - i % 48, 47);
    rq.params.layer_weights = lw;
    rq.params.n_layer_weights = 1;
    CHECK_INT(lds_scheduler_submit(sc, &rq, &ids[i]), LDS_OK);
  }
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);
  for (i = 0; i < 40; i++) {
    lds_SearchParams p;
    const lds_Path *path = lds_scheduler_path(sc, ids[i]);
    CHECK_INT(lds_scheduler_status(sc, ids[i]), LDS_FOUND);
    lds_search_params_init(&p);
    p.layer_weights = w[i];
    p.n_layer_weights = 1;
    CHECK_INT(lds_search_start(one, &p, i % 48, 0, 47 - i % 48, 47), LDS_OK);
    CHECK_INT(lds_search_run(one), LDS_FOUND);
    if (path) {
      found++;
      if (fabs(lds_path_cost(path) - lds_search_cost(one)) > 1e-9 * lds_search_cost(one)) wrong++;
    }
  }
  CHECK_INT(found, 40);
  CHECK_INT(wrong, 0);
  lds_scheduler_free(sc);
  lds_search_free(one);
  lds_grid_free(g);
}

/* A request whose weighted layer is removed before it runs ends with
** LDS_E_STATE and LDS_REQINFO_LAYER_REMOVED (a status the bindings read,
** not the message); a request on the same grid that weights only the other
** layer, and one without weights, still find their paths and lack the flag. */
void suite_scheduler_layer_removed(void);
void suite_scheduler_layer_removed(void) {
  lds_Grid *g = lds_grid_new(NULL, 16, 16, NULL);
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_RequestId mud_id, sand_id, plain_id;
  lds_RequestInfo info;
  lds_Request rq;
  double mud_w[2] = {3.0, 0.0}, sand_w[2] = {0.0, 2.0};
  int mud, sand, x, y;
  CHECK_INT(lds_grid_layer_add(g, "mud", &mud), LDS_OK);
  CHECK_INT(lds_grid_layer_add(g, "sand", &sand), LDS_OK);
  for (y = 0; y < 16; y++)
    for (x = 0; x < 16; x++) {
      lds_grid_layer_set(g, mud, x, y, 1.0f);
      lds_grid_layer_set(g, sand, x, y, 1.0f);
    }
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
  lds_request_init(&rq, g, 0, 0, 15, 0);
  rq.params.layer_weights = mud_w;
  rq.params.n_layer_weights = 2;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &mud_id), LDS_OK);
  rq.params.layer_weights = sand_w;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &sand_id), LDS_OK);
  rq.params.layer_weights = NULL;
  rq.params.n_layer_weights = 0;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &plain_id), LDS_OK);
  CHECK_INT(lds_grid_layer_remove(g, mud), LDS_OK);
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);

  CHECK_INT(lds_scheduler_status(sc, mud_id), LDS_E_STATE);
  CHECK_INT(lds_scheduler_info(sc, mud_id, &info), LDS_OK);
  CHECK((info.flags & LDS_REQINFO_LAYER_REMOVED) != 0);
  CHECK((info.flags & LDS_REQINFO_DONE) != 0);
  CHECK_CONTAINS(lds_scheduler_request_errmsg(sc, mud_id),
                 "lds_scheduler_step: request params.layer_weights: the layer of weight 0 (3) was "
                 "removed from the grid since the request was submitted");
  CHECK(lds_scheduler_path(sc, mud_id) == NULL);

  /* sand's weight followed sand to index 0: 15 steps of cost 1 + 2 x 1 */
  CHECK_INT(lds_scheduler_status(sc, sand_id), LDS_FOUND);
  CHECK_INT(lds_scheduler_info(sc, sand_id, &info), LDS_OK);
  CHECK((info.flags & LDS_REQINFO_LAYER_REMOVED) == 0);
  CHECK_NEAR(info.cost, 45.0, 1e-9);
  CHECK_INT(lds_scheduler_status(sc, plain_id), LDS_FOUND);
  CHECK_INT(lds_scheduler_info(sc, plain_id, &info), LDS_OK);
  CHECK((info.flags & LDS_REQINFO_LAYER_REMOVED) == 0);
  CHECK_NEAR(info.cost, 15.0, 1e-9);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}
