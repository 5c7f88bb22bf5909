/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_budget.c — a navmesh step's time budget (lds_Budget
** budget_us): with a clock whose every read advances a fixed time (so
** each expansion looks dear), a step stops after a few expansions, not 64;
** with a clock that hardly moves the clock is read about once per 64
** expansions; every mode; slicing by time gives the unsliced path.
** Expansion and clock-read counts only: the fake clock makes it exact.
*/
#include "harness.h"

#include "lds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BW 24
#define BH 24

/* A clock advancing by step µs at each read; reads counted. */
typedef struct BClock { uint64_t now, step, reads; } BClock;
static uint64_t bclock(void *ud) {
  BClock *c = (BClock *)ud;
  c->reads++;
  return c->now += c->step;
}

/* A serpentine of BW x BH cells: rows of even z free, rows of odd z free
** only at one end, alternately; one square per cell, area x % 2 (the
** areas alternate along each row). */
static lds_Navmesh *serpentine(void) {
  static double v[(BW + 1) * (BH + 1) * 3];
  static uint32_t idx[BW * BH * 4], st[BW * BH + 1];
  static uint8_t area[BW * BH];
  uint32_t np = 0, ni = 0;
  int x, z;
  lds_NavmeshDesc d;
  for (z = 0; z <= BH; z++)
    for (x = 0; x <= BW; x++) {
      double *p = v + 3 * (z * (BW + 1) + x);
      p[0] = x, p[1] = 0, p[2] = z;
    }
  st[0] = 0;
  for (z = 0; z < BH; z++)
    for (x = 0; x < BW; x++) {
      uint32_t a = (uint32_t)(z * (BW + 1) + x), b = a + 1, c = a + BW + 1, e = c + 1;
      if (z % 2 && x != ((z / 2) % 2 ? 0 : BW - 1)) continue;
      idx[ni++] = a, idx[ni++] = c, idx[ni++] = e, idx[ni++] = b;
      area[np] = (uint8_t)(x % 2), st[++np] = ni;
    }
  memset(&d, 0, sizeof d);
  d.verts = v, d.n_verts = (BW + 1) * (BH + 1);
  d.poly_verts = idx, d.poly_start = st, d.n_polys = np;
  d.areas = area;
  return lds_navmesh_new(NULL, &d, NULL);
}

static void test_time_budget(void) {
  BClock ck = {0, 10, 0};
  lds_Env env;
  lds_Navmesh *m = serpentine();
  lds_NavSearch *s, *ref;
  double costs[2] = {1, 2}, a[3] = {0.5, 0, 0.5}, b[3] = {0.5, 0, BH - 0.5};
  int mode;
  CHECK(m != NULL);
  if (!m) return;
  lds_env_init(&env);
  env.clock = bclock, env.clock_ud = &ck;
  s = lds_navsearch_new(&env, m, NULL);
  ref = lds_navsearch_new(NULL, m, NULL);
  for (mode = 0; mode < 4; mode++) { /* thorough, fast, area costs, optimal */
    lds_NavParams p;
    lds_Budget tiny = {0, 25}, loose = {0, 1000000};
    lds_Stats stt;
    lds_Status st;
    uint64_t e0, total, steps = 0, most = 0, reads0;
    size_t n1, n2;
    const double *p1, *p2;
    lds_nav_params_init(&p);
    if (mode == 1) p.thorough = false;
    if (mode == 2) p.area_costs = costs, p.n_area_costs = 2;
    if (mode == 3) p.algo = LDS_NAV_OPTIMAL;
    /* the reference: unsliced */
    CHECK_INT(lds_navsearch_start(ref, &p, a, b), LDS_RUNNING);
    CHECK_INT(lds_navsearch_step(ref, NULL), LDS_FOUND);
    lds_navsearch_stats(ref, &stt);
    total = stt.expansions;
    CHECK(total > 100); /* the serpentine's rows: many expansions */
    /* 10 us a read, 25 us a step: the clock read after expansions 1, 2, 3
    ** (mean 10 us each, so the next one would not fit half of what is
    ** left), then the budget is spent */
    ck.step = 10;
    CHECK_INT(lds_navsearch_start(s, &p, a, b), LDS_RUNNING);
    do {
      lds_navsearch_stats(s, &stt);
      e0 = stt.expansions;
      st = lds_navsearch_step(s, &tiny);
      lds_navsearch_stats(s, &stt);
      if (stt.expansions - e0 > most) most = stt.expansions - e0;
      steps++;
    } while (st == LDS_RUNNING && steps < 100000);
    CHECK_INT(st, LDS_FOUND);
    CHECK(most >= 1);
    if (most > 3) printf("  mode %d: a 25 us step ran %llu expansions\n", mode, (unsigned long long)most);
    CHECK(most <= 3);
    CHECK(steps >= total / 3);
    p1 = lds_navsearch_points(ref, &n1);
    p2 = lds_navsearch_points(s, &n2);
    CHECK(p1 && p2 && n1 == n2 && memcmp(p1, p2, 3 * n1 * sizeof(double)) == 0);
    /* 1 us a read, a budget never spent: one step, the clock read about
    ** once per 64 expansions (plus the step's own two reads) */
    ck.step = 1;
    CHECK_INT(lds_navsearch_start(s, &p, a, b), LDS_RUNNING);
    reads0 = ck.reads;
    CHECK_INT(lds_navsearch_step(s, &loose), LDS_FOUND);
    lds_navsearch_stats(s, &stt);
    CHECK_INT(stt.expansions, total);
    CHECK(ck.reads - reads0 <= 2 + 1 + total / 64);
  }
  lds_navsearch_free(s);
  lds_navsearch_free(ref);
  lds_navmesh_free(m);
}

void suite_navmesh_budget(void);
void suite_navmesh_budget(void) { test_time_budget(); }
