/* SPDX-License-Identifier: MIT */
/* test_search_edits.c — searches in progress under grid edits
** (lds_search_edit.c, lds_scheduler_edits.c): thousands of random small
** maps, random edits interleaved with slices of the scheduler's searches,
** and every delivered path compared with a fresh one-shot A* on the grid as
** it is at delivery. Also the precise rule: which edits leave a search
** alone and which disturb it (corner cutting included).
**
** Tolerance of the cost comparison: both costs are sums, in double, of at
** most w*h terms (move length 1 or sqrt(2), as a double, times a float
** cell cost); two optimal paths may add different but equal-valued terms
** in another order, so they can differ by rounding alone, at most about
** (terms) x 2^-52 x cost < 400 x 2.3e-16 x cost ~ 1e-13 x cost. 1e-9 x
** max(1, cost) is far above that and far below any real difference (the
** smallest difference between two path costs here is a cost step of 0.25
** or sqrt(2) - 1 minus 1/4-multiples, > 1e-3). */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

typedef struct Ctx {
  lds_Grid *g;
  lds_Search *one;        /* the one-shot reference search */
  lds_Algo algo[16];      /* per request index (agent_id) */
  int32_t sx[16], sy[16], gx[16], gy[16];
  int done[16];
  int mismatches, illegal, stale, delivered, compared;
} Ctx;

static const float cost_values[] = {1.0f, 1.0f, 1.5f, 2.0f, 3.0f, 5.0f, 0.5f};

/* One-shot A* (default parameters) on the grid as it is now. */
static lds_Status oneshot(Ctx *c, int i, double *cost) {
  lds_Status st = lds_search_start(c->one, NULL, c->sx[i], c->sy[i], c->gx[i], c->gy[i]);
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
  c->done[i] = 1;
  c->delivered++;
  if (info->status == LDS_E_STALE) {
    c->stale++;
    return LDS_OK;
  }
  st = oneshot(c, i, &ref);
  p = lds_scheduler_path(sc, id);
  if (p) { /* legal on the grid as it is now, its cost recomputed */
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = c->sx[i];
    pc.sy = c->sy[i];
    pc.gx = c->gx[i];
    pc.gy = c->gy[i];
    if (lds_path_check(c->g, p, &pc, &rep, NULL) != LDS_OK || rep.fault != LDS_PATHCHECK_OK) {
      c->illegal++;
      if (c->illegal <= 3) {
        size_t k;
        TH_FAIL("request %d (%s): illegal path (fault %d at step %zu)", i, lds_algo_name(c->algo[i]), rep.fault, rep.step);
        for (k = 0; k < lds_path_length(p); k++) { /* the path, blocked cells marked B */
          int32_t px, py;
          lds_path_cell(p, k, &px, &py);
          fprintf(stderr, " (%d,%d)%s", px, py, lds_grid_blocked(c->g, px, py) ? "B" : "");
        }
        fprintf(stderr, " neighbourhood %d diagonal rule %d\n", lds_grid_neighbourhood(c->g),
                (int)lds_grid_diagonal(c->g));
      }
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
      TH_FAIL("request %d (%s) %d,%d -> %d,%d: %s cost %.12g, one-shot %s cost %.12g", i,
              lds_algo_name(c->algo[i]), c->sx[i], c->sy[i], c->gx[i], c->gy[i],
              lds_status_name(info->status), info->cost, lds_status_name(st), ref);
  }
  return LDS_OK;
}

/* A random edit of g: block or unblock a cell, change a cost, rarely the
** diagonal rule (a whole-grid edit). */
static void random_edit(lds_Grid *g, th_Rng *rng, int mix) {
  int32_t x = th_randint(rng, lds_grid_width(g)), y = th_randint(rng, lds_grid_height(g));
  int k = mix == 1 ? th_randint(rng, 45) : mix == 2 ? 45 + th_randint(rng, 53) : th_randint(rng, 100);
  if (k < 45)
    lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
  else if (k < 98)
    lds_grid_set_cost(g, x, y, cost_values[th_randint(rng, 7)]);
  else
    lds_grid_set_diagonal(g, (lds_Diagonal)th_randint(rng, 4));
}

static void test_random_edits(void) {
  th_Rng rng;
  int map, nmaps = 3000, mismatches = 0, illegal = 0, stale = 0, unfinished = 0;
  long delivered = 0, compared = 0;
  lds_EditStats all;
  memset(&all, 0, sizeof all);
  rng.s = 12345;
  for (map = 0; map < nmaps; map++) {
    int32_t w = 4 + th_randint(&rng, 17), h = 4 + th_randint(&rng, 17), x, y;
    /* edit mix: 0 any, 1 blocking only (uniform maps keep the exact loop
    ** running), 2 costs only */
    int mix = th_randint(&rng, 3);
    int pct = th_randint(&rng, 35), costly = mix != 1 && th_randint(&rng, 2), i;
    int nreq = 1 + th_randint(&rng, 8);
    int frame, rate = 1 + th_randint(&rng, 4); /* edits per frame, at most */
    lds_SchedulerConfig cfg;
    lds_Scheduler *sc;
    lds_EditStats es;
    Ctx c;
    memset(&c, 0, sizeof c);
    c.g = lds_grid_new(NULL, w, h, NULL);
    if (th_randint(&rng, 5) == 0) lds_grid_set_neighbourhood(c.g, 4);
    lds_grid_set_diagonal(c.g, (lds_Diagonal)th_randint(&rng, 4));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (th_randint(&rng, 100) < pct) lds_grid_set_blocked(c.g, x, y, true);
        if (costly) lds_grid_set_cost(c.g, x, y, cost_values[th_randint(&rng, 6)]);
      }
    c.one = lds_search_new(NULL, c.g, NULL);
    lds_scheduler_config_init(&cfg);
    cfg.deterministic = true;
    cfg.searches_per_grid = 1 + th_randint(&rng, 3);
    cfg.max_restarts = (uint32_t)th_randint(&rng, 4);
    sc = lds_scheduler_new(NULL, &cfg, NULL);
    lds_scheduler_add_grid(sc, c.g, 0);
    for (i = 0; i < nreq; i++) {
      lds_Request rq;
      int a = th_randint(&rng, 20);
      c.sx[i] = th_randint(&rng, w);
      c.sy[i] = th_randint(&rng, h);
      c.gx[i] = th_randint(&rng, w);
      c.gy[i] = th_randint(&rng, h);
      lds_request_init(&rq, c.g, c.sx[i], c.sy[i], c.gx[i], c.gy[i]);
      c.algo[i] = a < 12 ? LDS_ALGO_ASTAR : a < 15 ? LDS_ALGO_DIJKSTRA : a < 17 ? LDS_ALGO_JPS
                  : a < 19 ? LDS_ALGO_WASTAR : LDS_ALGO_GREEDY;
      rq.params.algo = c.algo[i];
      if (th_randint(&rng, 4) == 0) rq.params.heuristic = LDS_H_EUCLIDEAN; /* admissible, not exact */
      rq.agent_id = i;
      rq.on_done = on_done;
      rq.ud = &c;
      lds_scheduler_submit(sc, &rq, NULL);
    }
    for (frame = 0; frame < 400 && lds_scheduler_pending(sc) > 0; frame++) {
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
  CHECK(compared > 10000);
  /* both sides of the rule ran many times */
  CHECK(all.kept > 10000);
  CHECK(all.disturbed > 1000);
  CHECK(all.repaired > 1000);
  printf("  (%d maps: %ld delivered, %ld compared; edits %llu, searches kept %llu, repaired %llu, "
         "disturbed %llu)\n", nmaps, delivered, compared, (unsigned long long)all.edits,
         (unsigned long long)all.kept, (unsigned long long)all.repaired,
         (unsigned long long)all.disturbed);
}

/* ------------------------------------------------- the rule, case by case -- */

typedef struct One {
  lds_Grid *g;
  lds_Scheduler *sc;
  lds_RequestId id;
} One;

/* A 20x20 grid (uniform, or with one far cell of cost 2 so the plain loop
** runs), a scheduler, and one request (5,5) -> (19,5) of algorithm algo
** that has expanded its start only. */
static void one_open(One *o, bool uniform, lds_Algo algo, int32_t pre_block_x, int32_t pre_block_y) {
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_Budget b = {1, 0};
  o->g = lds_grid_new(NULL, 20, 20, NULL);
  if (!uniform) lds_grid_set_cost(o->g, 19, 19, 2.0f);
  if (pre_block_x >= 0) lds_grid_set_blocked(o->g, pre_block_x, pre_block_y, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  o->sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(o->sc, o->g, 1);
  lds_request_init(&rq, o->g, 5, 5, 19, 5);
  rq.params.algo = algo;
  lds_scheduler_submit(o->sc, &rq, &o->id);
  lds_scheduler_step(o->sc, &b, NULL);
}

/* Closes o after running it to its end: 1 when the edits since one_open
** disturbed the search (it restarted), 2 when it was repaired, 0 when it
** went on untouched; -1 on a wrong path. */
static int one_close(One *o) {
  lds_EditStats es;
  lds_RequestInfo info;
  lds_Search *s = lds_search_new(NULL, o->g, NULL);
  int r;
  lds_scheduler_step(o->sc, NULL, NULL);
  lds_scheduler_edit_stats(o->sc, &es);
  lds_scheduler_info(o->sc, o->id, &info);
  lds_search_start(s, NULL, 5, 5, 19, 5);
  lds_search_run(s);
  r = info.restarts > 0 ? 1 : es.repaired > 0 ? 2 : 0;
  if (es.disturbed != info.restarts) r = -2;
  if (info.status != LDS_FOUND || fabs(info.cost - lds_search_cost(s)) > 1e-9) r = -1;
  lds_search_free(s);
  lds_scheduler_free(o->sc);
  lds_grid_free(o->g);
  return r;
}

static void test_rule(void) {
  One o;
  /* a cost change of a cell it has not generated: goes on */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_cost(o.g, 7, 5, 3.0f);
  CHECK_INT(one_close(&o), 0);
  /* ... of a cell it has generated (a neighbour of the start): disturbed;
  ** dearer, so the cell is made fresh and relaxed again: repaired */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_cost(o.g, 6, 5, 3.0f);
  CHECK_INT(one_close(&o), 2);
  /* the same with weighted A* (never re-expands): restarted */
  one_open(&o, false, LDS_ALGO_WASTAR, -1, -1);
  lds_grid_set_cost(o.g, 6, 5, 3.0f);
  CHECK_INT(one_close(&o), 1);
  /* blocking a generated cell: repaired (its subtree made fresh) */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_blocked(o.g, 6, 5, true);
  CHECK_INT(one_close(&o), 2);
  /* blocking the start: restarted */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_blocked(o.g, 5, 5, true);
  CHECK_INT(one_close(&o), -1); /* restarted, and no path from a blocked start */
  /* blocking a cell two steps away: only open cells around it, goes on */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_blocked(o.g, 7, 5, true);
  CHECK_INT(one_close(&o), 0);
  /* the same in the exact uniform loop, whose open entries keep their
  ** neighbours' legal moves: disturbed */
  one_open(&o, true, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_blocked(o.g, 7, 5, true);
  CHECK_INT(one_close(&o), 1);
  /* ... a cost other than 1 far away breaks its uniform costs: disturbed */
  one_open(&o, true, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_cost(o.g, 15, 15, 2.0f);
  CHECK_INT(one_close(&o), 1);
  /* unblocking a wall beside the expanded start: the moves into it, and
  ** the diagonals it cut (corner cutting), are new moves of a closed cell;
  ** only cheaper or new moves: repaired */
  one_open(&o, false, LDS_ALGO_ASTAR, 6, 5);
  lds_grid_set_blocked(o.g, 6, 5, false);
  CHECK_INT(one_close(&o), 2);
  /* the same in the exact loop: restarted */
  one_open(&o, true, LDS_ALGO_ASTAR, 6, 5);
  lds_grid_set_blocked(o.g, 6, 5, false);
  CHECK_INT(one_close(&o), 1);
  /* an unchanged cost is no edit; a cheaper generated cell: repaired */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_cost(o.g, 19, 19, 4.0f); /* scale stays 1 */
  lds_grid_set_cost(o.g, 6, 6, 1.0f);   /* unchanged: no edit */
  CHECK_INT(one_close(&o), 0);
  {
    lds_Grid *g = lds_grid_new(NULL, 20, 20, NULL);
    lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
    lds_Request rq;
    lds_RequestId id;
    lds_Budget b = {1, 0};
    lds_EditStats es;
    lds_RequestInfo info;
    lds_grid_set_cost(g, 6, 5, 3.0f);
    lds_scheduler_add_grid(sc, g, 1);
    lds_request_init(&rq, g, 5, 5, 19, 5);
    lds_scheduler_submit(sc, &rq, &id);
    lds_scheduler_step(sc, &b, NULL);
    lds_grid_set_cost(g, 6, 5, 1.0f); /* cheaper, generated: repaired */
    lds_scheduler_step(sc, NULL, NULL);
    lds_scheduler_edit_stats(sc, &es);
    lds_scheduler_info(sc, id, &info);
    CHECK_INT(es.repaired, 1);
    CHECK_INT(info.restarts, 0);
    CHECK_NEAR(info.cost, 14.0, 1e-12);
    lds_scheduler_free(sc);
    lds_grid_free(g);
  }
  /* a wall that stays a wall (its cost changes): no move changed */
  one_open(&o, false, LDS_ALGO_ASTAR, 6, 5);
  lds_grid_set_cost(o.g, 6, 5, 4.0f);
  CHECK_INT(one_close(&o), 0);
  /* a cost below the heuristic's scale (the smallest cost at start) far
  ** away: h would overestimate, disturbed */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_cost(o.g, 15, 15, 0.5f);
  CHECK_INT(one_close(&o), 1);
  /* Dijkstra has no heuristic: goes on */
  one_open(&o, false, LDS_ALGO_DIJKSTRA, -1, -1);
  lds_grid_set_cost(o.g, 15, 15, 0.5f);
  CHECK_INT(one_close(&o), 0);
  /* JPS scans cells it never generates: any edit disturbs it */
  one_open(&o, true, LDS_ALGO_JPS, -1, -1);
  lds_grid_set_blocked(o.g, 15, 15, true);
  CHECK_INT(one_close(&o), 1);
  /* a whole-grid edit (the diagonal rule): disturbed */
  one_open(&o, false, LDS_ALGO_ASTAR, -1, -1);
  lds_grid_set_diagonal(o.g, LDS_DIAG_ALWAYS);
  CHECK_INT(one_close(&o), 1);
}

void suite_search_edits(void);
void suite_search_edits(void) {
  test_rule();
  test_random_edits();
}
