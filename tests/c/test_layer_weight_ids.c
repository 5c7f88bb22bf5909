/* SPDX-License-Identifier: MIT */
/*
** test_layer_weight_ids.c — layer weights follow their layers by layer id,
** not by index, in the scheduler (plain requests, with and without a path
** cache, and requests through a hierarchy) and in the hierarchy itself.
** The grid has layers "mud" (index 0) and "sand" (index 1); the weights
** {0, 2} weight sand. Then mud is removed and "rock" added: sand moves to
** index 0 and rock takes index 1, the index the weight of 2 was given
** for. A request submitted (or a hierarchy built) before the change keeps
** weighting sand; one submitted after it with the same array weights rock.
** Every cell costs 1, sand is 1 everywhere and rock 5, so the straight
** path of 23 steps from (0,4) to (23,4) costs 23 x (1 + 2 x 1) = 69 when
** sand is weighted and 23 x (1 + 2 x 5) = 253 when rock is: a match by
** index gives 253 where 69 is right.
*/
#include "harness.h"

#include "lds.h"

#define W 24
#define H 8
#define SAND_COST 69.0
#define ROCK_COST 253.0

static const double SAND_W[2] = {0.0, 2.0}; /* index 1: sand before the change, rock after */

/* A grid with layers mud (0 everywhere) and sand (1 everywhere). */
static lds_Grid *two_layers(void) {
  lds_Grid *g = lds_grid_new(NULL, W, H, NULL);
  int mud, sand, x, y;
  CHECK_INT(lds_grid_layer_add(g, "mud", &mud), LDS_OK);
  CHECK_INT(lds_grid_layer_add(g, "sand", &sand), LDS_OK);
  CHECK_INT(mud, 0);
  CHECK_INT(sand, 1);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) lds_grid_layer_set(g, sand, x, y, 1.0f);
  return g;
}

/* Removes mud and adds rock (5 everywhere), which takes index 1. */
static void swap_mud_for_rock(lds_Grid *g) {
  int rock, x, y;
  CHECK_INT(lds_grid_layer_remove(g, lds_grid_layer_find(g, "mud")), LDS_OK);
  CHECK_INT(lds_grid_layer_add(g, "rock", &rock), LDS_OK);
  CHECK_INT(rock, 1);
  CHECK_INT(lds_grid_layer_find(g, "sand"), 0);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) lds_grid_layer_set(g, rock, x, y, 5.0f);
}

/* One-shot A* cost of the test's query under weights w (n of them). */
static double astar_cost(const lds_Grid *g, const double *w, int n) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  double c = -1;
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = n;
  if (lds_search_start(s, &p, 0, 4, W - 1, 4) == LDS_OK && lds_search_run(s) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

/* Submits the test's query with the weights {0, 2}, or through h. */
static lds_RequestId submit(lds_Scheduler *sc, lds_Grid *g, lds_Hpa *h, int mode) {
  lds_Request rq;
  lds_RequestId id = 0;
  lds_request_init(&rq, g, 0, 4, W - 1, 4);
  if (h) {
    rq.hierarchy = h;
    rq.hierarchy_mode = mode;
  } else {
    rq.params.layer_weights = SAND_W;
    rq.params.n_layer_weights = 2;
  }
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  return id;
}

static double cost_of(lds_Scheduler *sc, lds_RequestId id) {
  lds_RequestInfo info;
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  CHECK_INT(lds_scheduler_info(sc, id, &info), LDS_OK);
  return info.cost;
}

/* Plain requests; cache: entries of the grid's path cache (0 none). A
** request answered before the change leaves its cost view (and cache tree)
** for {0, 2} behind, which must not answer the later ones. */
static void test_scheduler(uint32_t cache) {
  const double rock_only[2] = {0.0, 2.0}, sand_only[1] = {2.0};
  lds_Grid *g = two_layers();
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_RequestId before, queued, after;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
  if (cache) CHECK_INT(lds_scheduler_set_path_cache(sc, g, cache), LDS_OK);
  before = submit(sc, g, NULL, 0);
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);
  CHECK_NEAR(cost_of(sc, before), SAND_COST, 1e-9);
  queued = submit(sc, g, NULL, 0); /* waits in the queue across the change */
  swap_mud_for_rock(g);
  after = submit(sc, g, NULL, 0); /* {0, 2} now weights rock */
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);
  CHECK_NEAR(cost_of(sc, queued), SAND_COST, 1e-9);
  CHECK_NEAR(cost_of(sc, after), ROCK_COST, 1e-9);
  /* the references, by one-shot searches on the grid as it is now */
  CHECK_NEAR(astar_cost(g, sand_only, 1), SAND_COST, 1e-9);
  CHECK_NEAR(astar_cost(g, rock_only, 2), ROCK_COST, 1e-9);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

/* A hierarchy built with {0, 2} keeps weighting sand after the change: its
** own queries and the scheduler's requests through it, both modes. */
static void test_hierarchy(void) {
  lds_Grid *g = two_layers();
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_RequestId fast, opt;
  lds_hpa_params_init(&hp);
  hp.cluster_size = 8;
  hp.layer_weights = SAND_W;
  hp.n_layer_weights = 2;
  h = lds_hpa_new(NULL, g, &hp, NULL);
  CHECK(h != NULL);
  if (!h) {
    lds_grid_free(g);
    return;
  }
  q = lds_hpa_query_new(h, NULL);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_OPTIMAL, 0, 4, W - 1, 4), LDS_OK);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_FOUND);
  CHECK_NEAR(lds_hpa_query_cost(q), SAND_COST, 1e-9);
  swap_mud_for_rock(g);
  CHECK_INT(lds_hpa_repair(h), LDS_OK);
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_OPTIMAL, 0, 4, W - 1, 4), LDS_OK);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_FOUND);
  CHECK_NEAR(lds_hpa_query_cost(q), SAND_COST, 1e-9);
  /* the fast mode's path is legal, within its weight of the optimum */
  CHECK_INT(lds_hpa_query_start(q, LDS_HPA_FAST, 0, 4, W - 1, 4), LDS_OK);
  CHECK_INT(lds_hpa_query_step(q, NULL), LDS_FOUND);
  CHECK(lds_hpa_query_cost(q) >= SAND_COST - 1e-9);
  CHECK(lds_hpa_query_cost(q) <= LDS_HPA_FAST_WEIGHT * SAND_COST + 1e-9);
  lds_hpa_query_free(q);

  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
  fast = submit(sc, g, h, LDS_HPA_FAST);
  opt = submit(sc, g, h, LDS_HPA_OPTIMAL);
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);
  CHECK_NEAR(cost_of(sc, opt), SAND_COST, 1e-9);
  CHECK(cost_of(sc, fast) <= LDS_HPA_FAST_WEIGHT * SAND_COST + 1e-9);
  lds_scheduler_free(sc);
  lds_hpa_free(h);
  lds_grid_free(g);
}

void suite_layer_weight_ids(void);
void suite_layer_weight_ids(void) {
  test_scheduler(0);
  test_scheduler(8);
  test_hierarchy();
}
