/* SPDX-License-Identifier: MIT */
/*
** test_step_shape.c — the one slicing shape of every incremental object
** (lds_common.h): lds_<obj>_step(obj, const lds_Budget *, ...) with NULL =
** no limit, and lds_<obj>_stats(obj, lds_Stats *) with the common counters;
** the deprecated names (docs/embedding.md, "Deprecated names") give the same
** results as the new ones.
*/
#include "harness.h"

#include "lds.h"

#include <stdint.h>
#include <string.h>

/* 32x32 open grid with a wall at x = 16 from y = 0 to 27: paths bend. */
static lds_Grid *wall_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, 32, 32, NULL);
  int y;
  for (y = 0; y < 28; y++) lds_grid_set_blocked(g, 16, y, true);
  return g;
}

static void start(lds_Search *s) {
  lds_SearchParams p;
  lds_search_params_init(&p);
  CHECK_INT(lds_search_start(s, &p, 2, 2, 30, 2), LDS_OK);
}

static void test_search_step_budget(void) {
  lds_Grid *g = wall_grid();
  lds_Search *a = lds_search_new(NULL, g, NULL), *b = lds_search_new(NULL, g, NULL);
  lds_Budget three = {3, 0};
  lds_Stats sa, sb;
  lds_Status st;
  int steps = 0;
  start(a);
  start(b);
  /* the new step and the deprecated two-argument form slice alike */
  CHECK_INT(lds_search_step(a, &three), LDS_RUNNING);
  CHECK_INT(lds_search_step_expansions(b, 3), LDS_RUNNING);
  lds_search_stats(a, &sa);
  lds_search_stats(b, &sb);
  CHECK_INT(sa.expansions, 3);
  CHECK_INT(sb.expansions, 3);
  CHECK_INT(sa.pushes, sb.pushes);
  /* a budget of both zero is no limit, as NULL */
  while ((st = lds_search_step(a, &three)) == LDS_RUNNING) steps++;
  CHECK_INT(st, LDS_FOUND);
  CHECK(steps > 10);
  CHECK_INT(lds_search_step(b, &(lds_Budget){0, 0}), LDS_FOUND);
  lds_search_stats(a, &sa);
  lds_search_stats(b, &sb);
  CHECK_INT(sa.expansions, sb.expansions);
  CHECK_INT(sa.pushes, sb.pushes);
  CHECK_INT(sa.peak_open, sb.peak_open);
  CHECK_NEAR(lds_search_cost(a), lds_search_cost(b), 1e-12);
  /* deprecated aliases: lds_search_run, lds_search_step_budget */
  start(b);
  CHECK_INT(lds_search_step_budget(b, &three), LDS_RUNNING);
  CHECK_INT(lds_search_run(b), LDS_FOUND);
  lds_search_stats(b, &sb);
  CHECK_INT(sb.expansions, sa.expansions);
  CHECK_NEAR(lds_search_cost(b), lds_search_cost(a), 1e-12);
  lds_search_free(a);
  lds_search_free(b);
  lds_grid_free(g);
}

static void test_dstar_step_stats(void) {
  lds_Grid *g = wall_grid();
  lds_DStar *a = lds_dstar_new(NULL, g, 2, 2, 30, 2, NULL, NULL);
  lds_DStar *b = lds_dstar_new(NULL, g, 2, 2, 30, 2, NULL, NULL);
  lds_Budget five = {5, 0};
  lds_Stats sa;
  lds_DStarStats ca, cb;
  lds_Status st;
  CHECK(a && b);
  CHECK_INT(lds_dstar_step(a, &five), LDS_RUNNING);
  CHECK_INT(lds_dstar_compute(b, &five), LDS_RUNNING);
  lds_dstar_counters(a, &ca);
  lds_dstar_counters(b, &cb);
  CHECK_INT(ca.expansions, cb.expansions);
  while ((st = lds_dstar_step(a, &five)) == LDS_RUNNING) {}
  CHECK_INT(st, LDS_FOUND);
  CHECK_INT(lds_dstar_compute(b, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(a), lds_dstar_cost(b), 1e-12);
  /* the common counters are the matching members of lds_DStarStats */
  lds_dstar_stats(a, &sa);
  lds_dstar_counters(a, &ca);
  CHECK(sa.expansions > 0);
  CHECK_INT(sa.expansions, ca.expansions);
  CHECK_INT(sa.pushes, ca.pushes);
  CHECK_INT(sa.peak_open, ca.peak_queue);
  CHECK_INT(sa.elapsed_us, ca.elapsed_us);
  lds_dstar_free(a);
  lds_dstar_free(b);
  lds_grid_free(g);
}

/* A deterministic scheduler with one request on g. */
static lds_Scheduler *one_request(const lds_Grid *g, lds_RequestId *id) {
  lds_SchedulerConfig cfg;
  lds_Request rq;
  lds_Scheduler *sc;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.expansions_per_us = 1;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK(sc != NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);
  lds_request_init(&rq, g, 2, 2, 30, 2);
  CHECK_INT(lds_scheduler_submit(sc, &rq, id), LDS_OK);
  return sc;
}

static void test_scheduler_step_stats(void) {
  lds_Grid *g = wall_grid();
  lds_RequestId ia, ib;
  lds_Scheduler *a = one_request(g, &ia), *b = one_request(g, &ib);
  lds_Search *ref = lds_search_new(NULL, g, NULL);
  lds_TickStats ta, tb, tot;
  lds_Stats sa, sr;
  /* lds_scheduler_step(budget_us) and the deprecated tick agree */
  CHECK_INT(lds_scheduler_step(a, &(lds_Budget){0, 20}, &ta), LDS_OK);
  CHECK_INT(lds_scheduler_tick(b, 20, &tb), LDS_OK);
  CHECK_INT(ta.expansions, 20);
  CHECK_INT(tb.expansions, 20);
  CHECK_INT(ta.budget_expansions, tb.budget_expansions);
  CHECK_INT(lds_scheduler_status(a, ia), LDS_RUNNING);
  /* NULL = no limit: the request runs to its end */
  CHECK_INT(lds_scheduler_step(a, NULL, &ta), LDS_OK);
  CHECK_INT(lds_scheduler_tick_budget(b, &(lds_Budget){0, 0}, &tb), LDS_OK);
  CHECK_INT(lds_scheduler_status(a, ia), LDS_FOUND);
  CHECK_INT(lds_scheduler_status(b, ib), LDS_FOUND);
  CHECK_INT(ta.expansions, tb.expansions);
  /* the common counters: the same query run alone by one search */
  start(ref);
  CHECK_INT(lds_search_step(ref, NULL), LDS_FOUND);
  lds_search_stats(ref, &sr);
  lds_scheduler_stats(a, &sa);
  lds_scheduler_totals(a, &tot);
  CHECK_INT(sa.expansions, sr.expansions);
  CHECK_INT(sa.expansions, tot.expansions);
  CHECK_INT(sa.pushes, sr.pushes);
  CHECK_INT(sa.peak_open, sr.peak_open);
  CHECK_INT(sa.elapsed_us, tot.elapsed_us);
  lds_search_free(ref);
  lds_scheduler_free(a);
  lds_scheduler_free(b);
  lds_grid_free(g);
}

void suite_step_shape(void);
void suite_step_shape(void) {
  test_search_step_budget();
  test_dstar_step_stats();
  test_scheduler_step_stats();
}
