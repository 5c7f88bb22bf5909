/* SPDX-License-Identifier: MIT */
/* test_search_edits_weights.c — layer-weighted searches in progress under
** grid edits (lds_search_edit.c with cost views, lds_scheduler_edits.c):
** the style of test_search_edits.c (thousands of random small maps, random
** edits between slices of the scheduler's searches, every delivered path
** compared with a fresh one-shot A* of the same weights on the grid as it is
** at delivery), with two layers, four weight sets (agent classes) and edits
** that write layer cells as well as walls and base costs. The scheduler
** listens to the grid before any view exists (the views are created by the
** first weighted requests), so the views' listeners must still run first.
** Also the rule itself: an edit of a layer cell the search has not
** generated leaves it alone; one it has generated is repaired.
**
** Cost tolerance: as in test_search_edits.c (sums of at most w*h terms in
** double; 1e-9 x max(1, cost) is far above rounding and far below any real
** difference between two path costs here). */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

#define NCLASS 4
static const double class_w[NCLASS][2] = {{1.0, 0.0}, {0.0, 2.0}, {0.5, 1.0}, {3.0, 0.25}};
static const float cost_values[] = {1.0f, 1.0f, 1.5f, 2.0f, 3.0f, 0.5f};
static const float layer_values[] = {0.0f, 0.0f, 0.0f, 1.0f, 2.0f, 0.5f, 4.0f};

typedef struct Ctx {
  lds_Grid *g;
  lds_Search *one;       /* the one-shot reference search */
  lds_Algo algo[16];     /* per request index (agent_id) */
  int cls[16];
  int32_t sx[16], sy[16], gx[16], gy[16];
  int mismatches, illegal, stale, delivered, compared;
} Ctx;

/* One-shot A* with request i's weights on the grid as it is now. */
static lds_Status oneshot(Ctx *c, int i, double *cost) {
  lds_SearchParams p;
  lds_Status st;
  lds_search_params_init(&p);
  p.layer_weights = class_w[c->cls[i]];
  p.n_layer_weights = 2;
  st = lds_search_start(c->one, &p, c->sx[i], c->sy[i], c->gx[i], c->gy[i]);
  if (st != LDS_OK) return st;
  st = lds_search_run(c->one);
  *cost = lds_search_cost(c->one);
  return st;
}

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Ctx *c = (Ctx *)ud;
  int i = (int)info->agent_id;
  double ref = -1.0;
  lds_Status st;
  const lds_Path *p;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  c->delivered++;
  if (info->status == LDS_E_STALE) {
    c->stale++;
    return LDS_OK;
  }
  st = oneshot(c, i, &ref);
  p = lds_scheduler_path(sc, id);
  if (p) { /* legal on the grid as it is now */
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = c->sx[i];
    pc.sy = c->sy[i];
    pc.gx = c->gx[i];
    pc.gy = c->gy[i];
    pc.layer_weights = class_w[c->cls[i]];
    pc.nlayers = 2;
    if (lds_path_check(c->g, p, &pc, &rep, NULL) != LDS_OK || rep.fault != LDS_PATHCHECK_OK) {
      c->illegal++;
      if (c->illegal <= 3)
        TH_FAIL("request %d (%s, class %d): illegal path (fault %d at step %zu)", i,
                lds_algo_name(c->algo[i]), c->cls[i], rep.fault, rep.step);
    }
  }
  if (c->algo[i] == LDS_ALGO_WASTAR || c->algo[i] == LDS_ALGO_GREEDY) {
    /* bounded-suboptimal: found exactly when a path exists, never cheaper */
    if ((info->status == LDS_FOUND) != (st == LDS_FOUND) ||
        (st == LDS_FOUND && info->cost < ref - 1e-9 * fmax(1.0, ref)))
      c->mismatches++;
    return LDS_OK;
  }
  c->compared++;
  if (info->status != st ||
      (st == LDS_FOUND && !(fabs(info->cost - ref) <= 1e-9 * fmax(1.0, ref)))) {
    c->mismatches++;
    if (c->mismatches <= 5)
      TH_FAIL("request %d (%s, class %d) %d,%d -> %d,%d: %s cost %.12g, one-shot %s cost %.12g",
              i, lds_algo_name(c->algo[i]), c->cls[i], c->sx[i], c->sy[i], c->gx[i], c->gy[i],
              lds_status_name(info->status), info->cost, lds_status_name(st), ref);
  }
  return LDS_OK;
}

/* A random edit: a wall toggled, a base cost, or a layer cell (rarely an
** infinite layer value: a cell the weighted classes cannot enter). */
static void random_edit(lds_Grid *g, th_Rng *rng, int mix) {
  int32_t x = th_randint(rng, lds_grid_width(g)), y = th_randint(rng, lds_grid_height(g));
  int k = mix == 1 ? 30 + th_randint(rng, 70) : th_randint(rng, 100);
  if (k < 30) {
    lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
  } else if (k < 50) {
    lds_grid_set_cost(g, x, y, cost_values[th_randint(rng, 6)]);
  } else {
    float v = th_randint(rng, 50) == 0 ? INFINITY : layer_values[th_randint(rng, 7)];
    lds_grid_layer_set(g, th_randint(rng, 2), x, y, v);
  }
}

static void test_random_weighted_edits(void) {
  th_Rng rng;
  int map, nmaps = 2500, mismatches = 0, illegal = 0, stale = 0, unfinished = 0;
  long delivered = 0, compared = 0;
  lds_EditStats all;
  memset(&all, 0, sizeof all);
  rng.s = 424242;
  for (map = 0; map < nmaps; map++) {
    int32_t w = 4 + th_randint(&rng, 17), h = 4 + th_randint(&rng, 17), x, y;
    /* edit mix: 0 any, 1 costs and layers only */
    int mix = th_randint(&rng, 2);
    int pct = th_randint(&rng, 30), costly = th_randint(&rng, 2), layered = th_randint(&rng, 4);
    int nreq = 1 + th_randint(&rng, 8), i, l0, l1;
    int frame, rate = 1 + th_randint(&rng, 4);
    lds_SchedulerConfig cfg;
    lds_Scheduler *sc;
    lds_EditStats es;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.g = lds_grid_new(NULL, w, h, NULL);
    lds_grid_layer_add(c.g, "mud", &l0);
    lds_grid_layer_add(c.g, "danger", &l1);
    if (th_randint(&rng, 5) == 0) lds_grid_set_neighbourhood(c.g, 4);
    lds_grid_set_diagonal(c.g, (lds_Diagonal)th_randint(&rng, 4));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (th_randint(&rng, 100) < pct) lds_grid_set_blocked(c.g, x, y, true);
        if (costly) lds_grid_set_cost(c.g, x, y, cost_values[th_randint(&rng, 6)]);
        /* layered 0: the layers start at 0 (a uniform view when the base
        ** costs are 1, until an edit writes a layer) */
        if (layered) {
          lds_grid_layer_set(c.g, l0, x, y, layer_values[th_randint(&rng, 7)]);
          lds_grid_layer_set(c.g, l1, x, y, layer_values[th_randint(&rng, 7)]);
        }
      }
    c.one = lds_search_new(NULL, c.g, NULL);
    lds_scheduler_config_init(&cfg);
    cfg.deterministic = true;
    cfg.searches_per_grid = 1 + th_randint(&rng, 3);
    cfg.max_restarts = (uint32_t)th_randint(&rng, 4);
    sc = lds_scheduler_new(NULL, &cfg, NULL);
    lds_scheduler_add_grid(sc, c.g, 0); /* listens before any view exists */
    for (i = 0; i < nreq; i++) {
      lds_Request rq;
      int a = th_randint(&rng, 20);
      c.sx[i] = th_randint(&rng, w);
      c.sy[i] = th_randint(&rng, h);
      c.gx[i] = th_randint(&rng, w);
      c.gy[i] = th_randint(&rng, h);
      c.cls[i] = th_randint(&rng, NCLASS);
      lds_request_init(&rq, c.g, c.sx[i], c.sy[i], c.gx[i], c.gy[i]);
      c.algo[i] = a < 13 ? LDS_ALGO_ASTAR : a < 17 ? LDS_ALGO_DIJKSTRA
                  : a < 19 ? LDS_ALGO_WASTAR : LDS_ALGO_GREEDY;
      rq.params.algo = c.algo[i];
      rq.params.layer_weights = class_w[c.cls[i]];
      rq.params.n_layer_weights = 2;
      if (th_randint(&rng, 4) == 0) rq.params.heuristic = LDS_H_EUCLIDEAN;
      rq.agent_id = i;
      rq.on_done = on_done;
      rq.ud = &c;
      lds_scheduler_submit(sc, &rq, NULL);
    }
    for (frame = 0; frame < 600 && lds_scheduler_pending(sc) > 0; frame++) {
      lds_Budget b;
      int e, ne = th_randint(&rng, rate + 1);
      for (e = 0; e < ne; e++) random_edit(c.g, &rng, mix);
      b.max_expansions = 1 + (uint64_t)th_randint(&rng, 12);
      b.budget_us = 0;
      lds_scheduler_step(sc, &b, NULL);
    }
    if (lds_scheduler_pending(sc) > 0) unfinished++;
    lds_scheduler_edit_stats(sc, &es);
    all.edits += es.edits;
    all.kept += es.kept;
    all.disturbed += es.disturbed;
    all.repaired += es.repaired;
    mismatches += c.mismatches;
    illegal += c.illegal;
    stale += c.stale;
    delivered += c.delivered;
    compared += c.compared;
    lds_scheduler_free(sc);
    lds_search_free(c.one);
    lds_grid_free(c.g);
  }
  CHECK_INT(mismatches, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(stale, 0);
  CHECK_INT(unfinished, 0);
  CHECK(compared > 5000);
  /* weighted searches are kept and repaired, not all restarted */
  CHECK(all.kept > 10000);
  CHECK(all.repaired > 1000);
  CHECK(all.disturbed > 100);
  printf("  (%d maps, weighted: %ld delivered, %ld compared; edits %llu, searches kept %llu, "
         "repaired %llu, disturbed %llu)\n", nmaps, delivered, compared,
         (unsigned long long)all.edits, (unsigned long long)all.kept,
         (unsigned long long)all.repaired, (unsigned long long)all.disturbed);
}

/* The rule, case by case: a 30x10 grid with a layer of 1s, one weighted A*
** request (2,5) -> (27,5) that has run a few expansions; an edit of a far
** layer cell leaves it alone, one of a cell next to the start (generated) is
** repaired (or disturbs it), and the path stays optimal. */
static void test_weighted_rule(void) {
  static const double wt[1] = {2.0};
  lds_Grid *g = lds_grid_new(NULL, 30, 10, NULL);
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_RequestId id;
  lds_EditStats es;
  lds_Budget b = {0, 3};
  lds_Search *one;
  lds_SearchParams p;
  lds_RequestInfo info;
  int l, x, y;
  lds_grid_layer_add(g, "mud", &l);
  for (y = 0; y < 10; y++)
    for (x = 0; x < 30; x++) lds_grid_layer_set(g, l, x, y, 1.0f);
  /* one far cell costs 1 (the heuristic scale), the others 3 */
  lds_grid_layer_set(g, l, 29, 9, 0.0f);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(sc, g, 0);
  lds_request_init(&rq, g, 2, 5, 27, 5);
  rq.params.layer_weights = wt;
  rq.params.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &id), LDS_OK);
  /* the view is built, then a few expansions */
  do {
    lds_scheduler_step(sc, &b, NULL);
    lds_scheduler_info(sc, id, &info);
  } while (info.expansions == 0 && lds_scheduler_pending(sc) > 0);
  CHECK(lds_scheduler_pending(sc) > 0);
  /* far from anything generated: kept */
  lds_grid_layer_set(g, l, 27, 0, 3.0f);
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT((long long)es.kept, 1);
  CHECK_INT((long long)es.disturbed, 0);
  CHECK_INT((long long)es.repaired, 0);
  /* next to the start (generated), cheaper (2, above the scale): repaired,
  ** no restart */
  lds_grid_layer_set(g, l, 3, 5, 0.5f);
  lds_scheduler_edit_stats(sc, &es);
  CHECK_INT((long long)es.repaired, 1);
  CHECK_INT((long long)es.disturbed, 0);
  while (lds_scheduler_pending(sc) > 0) lds_scheduler_step(sc, &b, NULL);
  CHECK_INT(lds_scheduler_status(sc, id), LDS_FOUND);
  one = lds_search_new(NULL, g, NULL);
  lds_search_params_init(&p);
  p.layer_weights = wt;
  p.n_layer_weights = 1;
  lds_search_start(one, &p, 2, 5, 27, 5);
  CHECK_INT(lds_search_run(one), LDS_FOUND);
  lds_scheduler_info(sc, id, &info);
  CHECK_INT((long long)info.restarts, 0);
  CHECK_NEAR(info.cost, lds_search_cost(one), 1e-9);
  lds_search_free(one);
  lds_scheduler_free(sc);
  lds_grid_free(g);
}

void suite_search_edits_weights(void);
void suite_search_edits_weights(void) {
  test_weighted_rule();
  test_random_weighted_edits();
}
