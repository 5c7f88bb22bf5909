/* SPDX-License-Identifier: MIT */
/* test_dstar.c — D* Lite: a differential test against fresh A* over random
** change sequences, hand-made cases for every status and flag, sliced ==
** one-shot, the failing allocator, argument errors. */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

#define REL 1e-9

/* Checks a path: starts at s, ends at goal, legal moves, finite costs that
** sum to the reported cost. Returns the summed cost or -1. */
static double check_path(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx,
                         int32_t gy, const double *w, int nw) {
  lds_PathCheck o;
  lds_PathCheckReport rep;
  lds_path_check_init(&o);
  o.check_start = o.check_goal = true;
  o.sx = sx;
  o.sy = sy;
  o.gx = gx;
  o.gy = gy;
  o.check_cost = false;
  o.layer_weights = w;
  o.nlayers = nw;
  return lds_path_check(g, p, &o, &rep, NULL) == LDS_OK ? rep.cost : -1.0;
}

static bool close_rel(double a, double b) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= REL * (m > 1.0 ? m : 1.0);
}

/* maze: passages on odd cells, randomized DFS with an explicit stack */
static void carve_maze(lds_Grid *g, th_Rng *r) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), x, y;
  int32_t *stack = (int32_t *)malloc(sizeof(int32_t) * 2 * (size_t)(w * h));
  int sp = 0;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, y, true);
  lds_grid_set_blocked(g, 1, 1, false);
  stack[sp++] = 1;
  stack[sp++] = 1;
  while (sp > 0) {
    int32_t cx = stack[sp - 2], cy = stack[sp - 1], opts[4], no = 0, k;
    static const int32_t mx[4] = {0, 2, 0, -2}, my[4] = {-2, 0, 2, 0};
    for (k = 0; k < 4; k++) {
      int32_t nx = cx + mx[k], ny = cy + my[k];
      if (nx > 0 && ny > 0 && nx < w - 1 && ny < h - 1 && lds_grid_blocked(g, nx, ny))
        opts[no++] = k;
    }
    if (!no) {
      sp -= 2;
      continue;
    }
    k = opts[th_randint(r, no)];
    lds_grid_set_blocked(g, cx + mx[k] / 2, cy + my[k] / 2, false);
    lds_grid_set_blocked(g, cx + mx[k], cy + my[k], false);
    stack[sp++] = cx + mx[k];
    stack[sp++] = cy + my[k];
  }
  /* a few extra openings make cycles, so changes have detours */
  for (x = 0; x < (w * h) / 20; x++)
    lds_grid_set_blocked(g, th_randint(r, w), th_randint(r, h), false);
  free(stack);
}

static const float cost_choices[] = {0.5f, 1.0f, 1.0f, 2.0f, 3.5f, 7.0f};

typedef struct DiffStats {
  long replans, found, nopath, mismatches, bad_paths, status_mismatch, sliced, midway;
} DiffStats;

/* One random change sequence; returns false on the first disagreement. */
static bool diff_case(th_Rng *r, DiffStats *ds_stats, int case_no) {
  int32_t w = 5 + th_randint(r, 20), h = 5 + th_randint(r, 20), sx, sy, gx, gy, x, y;
  bool maze = th_randint(r, 4) == 0, listen = th_randint(r, 2) == 0;
  bool use_layer = th_randint(r, 5) == 0;
  double wts[1] = {0.0};
  int nw = 0, step, nsteps = 10 + th_randint(r, 30);
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  lds_Search *a = lds_search_new(NULL, g, NULL);
  lds_DStar *ds;
  lds_DStarParams dp;
  lds_SearchParams sp;
  bool ok = true;
  if (maze) {
    carve_maze(g, r);
  } else {
    double dens = th_randint(r, 40) / 100.0;
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (th_rand(r) % 1000 < (unsigned long long)(dens * 1000)) lds_grid_set_blocked(g, x, y, true);
  }
  if (th_randint(r, 3) == 0) lds_grid_set_neighbourhood(g, 4);
  lds_grid_set_diagonal(g, (lds_Diagonal)th_randint(r, 4));
  if (th_randint(r, 2) == 0)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (th_randint(r, 3) == 0) lds_grid_set_cost(g, x, y, cost_choices[th_randint(r, 6)]);
  if (use_layer) {
    int li;
    lds_grid_layer_add(g, "danger", &li);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if (th_randint(r, 4) == 0) lds_grid_layer_set(g, li, x, y, (float)th_randint(r, 5));
    wts[0] = 0.5 + th_randint(r, 3);
    nw = 1;
  }
  sx = th_randint(r, w);
  sy = th_randint(r, h);
  gx = th_randint(r, w);
  gy = th_randint(r, h);
  if (th_randint(r, 8)) lds_grid_set_blocked(g, sx, sy, false);
  if (th_randint(r, 8)) lds_grid_set_blocked(g, gx, gy, false);
  lds_dstar_params_init(&dp);
  dp.layer_weights = wts;
  dp.n_layer_weights = nw;
  lds_search_params_init(&sp);
  sp.layer_weights = wts;
  sp.n_layer_weights = nw;
  ds = lds_dstar_new(NULL, g, sx, sy, gx, gy, &dp, NULL);
  if (!ds || !a) {
    TH_FAIL("case %d: create failed", case_no);
    ok = false;
    goto done;
  }
  if (listen) lds_dstar_subscribe(ds, g);

  for (step = 0; step < nsteps && ok; step++) {
    lds_Status st, as;
    int k, nchanges;
    /* a partial replan, then an edit (and maybe a move) before it finishes:
    ** changes may arrive while a sliced compute is still running */
    if (th_randint(r, 6) == 0) {
      lds_Budget b0;
      b0.max_expansions = 1 + (uint64_t)th_randint(r, 3);
      b0.budget_us = 0;
      if (lds_dstar_step(ds, &b0) == LDS_RUNNING) ds_stats->midway++;
      x = th_randint(r, w);
      y = th_randint(r, h);
      lds_grid_set_blocked(g, x, y, th_randint(r, 2) == 0);
      if (!listen) lds_dstar_update(ds, x, y);
      if (th_randint(r, 3) == 0) {
        sx = th_randint(r, w);
        sy = th_randint(r, h);
        lds_dstar_move_start(ds, sx, sy);
      }
    }
    /* replan: sliced with a random budget, or one-shot */
    if (th_randint(r, 3) == 0) {
      lds_Budget b;
      b.max_expansions = 1 + (uint64_t)th_randint(r, 7);
      b.budget_us = 0;
      while ((st = lds_dstar_step(ds, &b)) == LDS_RUNNING) {
      }
      ds_stats->sliced++;
    } else {
      st = lds_dstar_step(ds, NULL);
    }
    lds_search_start(a, &sp, sx, sy, gx, gy);
    as = lds_search_step(a, NULL);
    ds_stats->replans++;
    if (st != as) {
      TH_FAIL("case %d step %d: D* Lite %s, A* %s (%s)", case_no, step, lds_status_name(st),
              lds_status_name(as), lds_dstar_errmsg(ds));
      ds_stats->status_mismatch++;
      ok = false;
      break;
    }
    if (st == LDS_FOUND) {
      lds_Path *p = lds_dstar_path(ds, NULL);
      double c = p ? check_path(g, p, sx, sy, gx, gy, wts, nw) : -1.0;
      ds_stats->found++;
      if (c < 0 || !close_rel(c, lds_path_cost(p)) || !close_rel(c, lds_dstar_cost(ds))) {
        TH_FAIL("case %d step %d: invalid D* Lite path (checked cost %g, reported %g)", case_no,
                step, c, p ? lds_path_cost(p) : -1.0);
        ds_stats->bad_paths++;
        ok = false;
      } else if (!close_rel(c, lds_search_cost(a))) {
        TH_FAIL("case %d step %d: D* Lite cost %.12g, A* optimal %.12g", case_no, step, c,
                lds_search_cost(a));
        ds_stats->mismatches++;
        ok = false;
      }
      /* lds_dstar_next is the path's next cell (the CLI agent steps with it
      ** and extracts no path): the same greedy choice, in O(1) */
      if (ok) {
        int32_t nx = -1, ny = -1, px = -2, py = -2;
        CHECK_INT(lds_dstar_next(ds, &nx, &ny), LDS_OK);
        lds_path_cell(p, lds_path_length(p) > 1 ? 1 : 0, &px, &py);
        if (nx != px || ny != py) {
          TH_FAIL("case %d step %d: next (%ld,%ld), path's next cell (%ld,%ld)", case_no, step,
                  (long)nx, (long)ny, (long)px, (long)py);
          ok = false;
        }
      }
      /* the agent walks 0..3 steps along the path */
      if (ok && th_randint(r, 2) == 0) {
        size_t len = lds_path_length(p), adv = (size_t)th_randint(r, 4);
        if (adv >= len) adv = len - 1;
        lds_path_cell(p, adv, &sx, &sy);
        lds_dstar_move_start(ds, sx, sy);
      }
      /* changes on the current path */
      if (ok && th_randint(r, 3) == 0 && lds_path_length(p) > 2) {
        size_t i = 1 + (size_t)th_randint(r, (int)lds_path_length(p) - 1);
        lds_path_cell(p, i, &x, &y);
        if (th_randint(r, 2))
          lds_grid_set_blocked(g, x, y, true);
        else
          lds_grid_set_cost(g, x, y, cost_choices[th_randint(r, 6)]);
        if (!listen) lds_dstar_update(ds, x, y);
      }
      lds_path_free(p);
    } else {
      ds_stats->nopath++;
    }
    /* random changes, some next to the start or at the goal */
    nchanges = th_randint(r, 5);
    for (k = 0; k < nchanges; k++) {
      int kind = th_randint(r, 10);
      if (kind == 0) { /* next to the start */
        x = sx + th_randint(r, 3) - 1;
        y = sy + th_randint(r, 3) - 1;
      } else if (kind == 1) { /* at or next to the goal */
        x = gx + (th_randint(r, 2) ? 0 : th_randint(r, 3) - 1);
        y = gy + (th_randint(r, 2) ? 0 : th_randint(r, 3) - 1);
      } else {
        x = th_randint(r, w);
        y = th_randint(r, h);
      }
      if (!lds_grid_in_bounds(g, x, y)) continue;
      switch (th_randint(r, 5)) {
        case 0: lds_grid_set_blocked(g, x, y, true); break;
        case 1: case 2: lds_grid_set_blocked(g, x, y, false); break;
        case 3: lds_grid_set_cost(g, x, y, cost_choices[th_randint(r, 6)]); break;
        default:
          if (use_layer) lds_grid_layer_set(g, 0, x, y, (float)th_randint(r, 5));
          else lds_grid_set_cost(g, x, y, lds_grid_cost(g, x, y) * 2.0f);
          break;
      }
      if (!listen) lds_dstar_update(ds, x, y);
    }
    /* a rectangle edit, notified as one rectangle */
    if (th_randint(r, 6) == 0) {
      int32_t x0 = th_randint(r, w), y0 = th_randint(r, h);
      int32_t x1 = x0 + th_randint(r, 3), y1 = y0 + th_randint(r, 3);
      bool blk = th_randint(r, 2) == 0;
      if (x1 >= w) x1 = w - 1;
      if (y1 >= h) y1 = h - 1;
      for (y = y0; y <= y1; y++)
        for (x = x0; x <= x1; x++) lds_grid_set_blocked(g, x, y, blk);
      if (!listen) lds_dstar_update_rect(ds, x0, y0, x1, y1);
    }
    /* the agent teleports (rare): any cell */
    if (th_randint(r, 25) == 0) {
      sx = th_randint(r, w);
      sy = th_randint(r, h);
      lds_dstar_move_start(ds, sx, sy);
    }
  }
done:
  lds_dstar_free(ds);
  lds_search_free(a);
  lds_grid_free(g);
  return ok;
}

static void test_differential(void) {
  th_Rng r = {0x9E3779B97F4A7C15ULL};
  DiffStats st = {0, 0, 0, 0, 0, 0, 0, 0};
  int i, failures = 0;
  for (i = 0; i < 2000 && failures < 3; i++)
    if (!diff_case(&r, &st, i)) failures++;
  CHECK_INT(failures, 0);
  CHECK_INT(st.mismatches, 0);
  CHECK_INT(st.bad_paths, 0);
  CHECK_INT(st.status_mismatch, 0);
  /* the random sequences really exercise both outcomes and slicing */
  CHECK(st.replans > 40000);
  CHECK(st.found > 20000);
  CHECK(st.nopath > 1000);
  CHECK(st.sliced > 10000);
  CHECK(st.midway > 1000); /* edits landed in the middle of a replan */
}

/* ------------------------------------------------------ hand-made -- */

static lds_Grid *open_grid(int32_t w, int32_t h) { return lds_grid_new(NULL, w, h, NULL); }

static void test_statuses(void) {
  lds_Grid *g = open_grid(10, 10);
  lds_DStar *ds = lds_dstar_new(NULL, g, 0, 0, 9, 0, NULL, NULL);
  lds_DStarStats s1, s2;
  int32_t x, y;
  lds_Path *p;
  lds_Error err;
  CHECK_INT(lds_dstar_status(ds), LDS_RUNNING);
  CHECK(lds_dstar_path(ds, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_STR(err.msg, "lds_dstar_path: no path (status running)");
  CHECK_INT(lds_dstar_next(ds, &x, &y), LDS_E_STATE);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_NEAR(lds_dstar_cost(ds), 9.0, 1e-12);
  CHECK_INT(lds_dstar_flags(ds), 0);
  CHECK_INT(lds_dstar_next(ds, &x, &y), LDS_OK);
  CHECK_INT(x, 1);
  CHECK_INT(y, 0);
  /* nothing new: same status at once, no work */
  lds_dstar_counters(ds, &s1);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  lds_dstar_counters(ds, &s2);
  CHECK_INT(s2.expansions, s1.expansions);
  CHECK(s1.expansions >= 9);
  CHECK(s1.rhs_updates > 0 && s1.g_updates > 0 && s1.pushes > 0 && s1.peak_queue > 0);

  lds_dstar_subscribe(ds, g);
  /* a wall right in front of the agent: replan, flags say what happened */
  lds_grid_set_blocked(g, 1, 0, true);
  CHECK_INT(lds_dstar_status(ds), LDS_RUNNING);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_CHANGES | LDS_DSTAR_NEAR_START);
  CHECK_NEAR(lds_dstar_cost(ds), 9.0 + 1.4142135623730951, 1e-12); /* S, E, E, NE, 6 x E */
  lds_dstar_counters(ds, &s1);
  CHECK_INT(s1.replans, 1);
  CHECK_INT(s1.cells_changed, 1);

  /* wall the goal off completely: unreachable, then reachable again */
  lds_grid_set_blocked(g, 8, 0, true);
  lds_grid_set_blocked(g, 8, 1, true);
  lds_grid_set_blocked(g, 9, 1, true);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
  CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_CHANGES | LDS_DSTAR_UNREACHABLE);
  CHECK_NEAR(lds_dstar_cost(ds), -1.0, 0);
  lds_grid_set_blocked(g, 9, 1, false);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_CHANGES | LDS_DSTAR_REACHABLE_AGAIN);
  CHECK_NEAR(lds_dstar_cost(ds), 11.0 + 1.4142135623730951, 1e-12); /* S, SE, 8 x E, N, N */

  /* goal blocked, then the start blocked (the cell under the agent) */
  lds_grid_set_blocked(g, 9, 0, true);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
  CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_CHANGES | LDS_DSTAR_GOAL_BLOCKED);
  lds_grid_set_blocked(g, 9, 0, false);
  lds_grid_set_blocked(g, 0, 0, true);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_NO_PATH);
  CHECK_INT(lds_dstar_flags(ds),
            LDS_DSTAR_CHANGES | LDS_DSTAR_NEAR_START | LDS_DSTAR_START_BLOCKED);
  lds_grid_set_blocked(g, 0, 0, false);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK_INT(lds_dstar_flags(ds),
            LDS_DSTAR_CHANGES | LDS_DSTAR_NEAR_START | LDS_DSTAR_REACHABLE_AGAIN);

  /* a cost below the heuristic scale forces a restart */
  lds_grid_set_cost(g, 5, 5, 0.25f);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_REINIT);
  /* rules changed: restart */
  lds_grid_set_neighbourhood(g, 4);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  CHECK(lds_dstar_flags(ds) & LDS_DSTAR_REINIT);
  CHECK_NEAR(lds_dstar_cost(ds), 13.0, 1e-12); /* S, 7 x E, S, 2 x E, N, N */

  /* walk to the goal with next + move_start */
  {
    int steps = 0;
    while (lds_dstar_next(ds, &x, &y) == LDS_OK && steps < 50) {
      int32_t sx, sy;
      lds_dstar_endpoints(ds, &sx, &sy, NULL, NULL);
      if (sx == 9 && sy == 0) break;
      lds_dstar_move_start(ds, x, y);
      CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
      steps++;
    }
    CHECK_INT(steps, 13);
    CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_AT_GOAL);
    CHECK_NEAR(lds_dstar_cost(ds), 0.0, 0);
    p = lds_dstar_path(ds, NULL);
    CHECK(p && lds_path_length(p) == 1);
    lds_path_free(p);
  }
  lds_dstar_free(ds); /* unsubscribes: the edit below must not reach freed memory */
  lds_grid_set_blocked(g, 3, 3, true);
  lds_grid_free(g);
}

/* sliced (1 pop per call, and a fake-clock µs budget) == one-shot, bit for
** bit, through a sequence of changes */
typedef struct FakeClock { uint64_t t; } FakeClock;
static uint64_t fake_clock(void *ud) {
  FakeClock *c = (FakeClock *)ud;
  return c->t += 7;
}

static void test_sliced(void) {
  th_Rng r = {12345};
  lds_Grid *g = open_grid(40, 30);
  lds_DStar *one, *sl, *tm;
  lds_Env env;
  FakeClock fc = {0};
  int i, k, same = 0, rounds = 0, multi = 0, tmulti = 0;
  for (i = 0; i < 300; i++) lds_grid_set_blocked(g, th_randint(&r, 40), th_randint(&r, 30), true);
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_set_blocked(g, 39, 29, false);
  lds_env_init(&env);
  env.clock = fake_clock;
  env.clock_ud = &fc;
  one = lds_dstar_new(NULL, g, 0, 0, 39, 29, NULL, NULL);
  sl = lds_dstar_new(NULL, g, 0, 0, 39, 29, NULL, NULL);
  tm = lds_dstar_new(&env, g, 0, 0, 39, 29, NULL, NULL);
  lds_dstar_subscribe(one, g);
  lds_dstar_subscribe(sl, g);
  lds_dstar_subscribe(tm, g);
  for (k = 0; k < 30; k++) {
    lds_Budget b1 = {1, 0}, bt = {0, 10};
    lds_Status s1 = lds_dstar_step(one, NULL), s2, s3;
    int calls = 0, tcalls = 0;
    lds_DStarStats a, b, c;
    while ((s2 = lds_dstar_step(sl, &b1)) == LDS_RUNNING) calls++;
    while ((s3 = lds_dstar_step(tm, &bt)) == LDS_RUNNING) tcalls++;
    if (calls > 1) multi++;
    if (tcalls > 0) tmulti++;
    lds_dstar_counters(one, &a);
    lds_dstar_counters(sl, &b);
    lds_dstar_counters(tm, &c);
    rounds++;
    if (s1 == s2 && s2 == s3 && a.expansions == b.expansions && a.expansions == c.expansions &&
        a.rhs_updates == b.rhs_updates && a.rhs_updates == c.rhs_updates) {
      if (s1 == LDS_FOUND) {
        lds_Path *p1 = lds_dstar_path(one, NULL), *p2 = lds_dstar_path(sl, NULL),
                 *p3 = lds_dstar_path(tm, NULL);
        if (lds_path_length(p1) == lds_path_length(p2) &&
            lds_path_length(p1) == lds_path_length(p3) &&
            memcmp(lds_path_nodes(p1), lds_path_nodes(p2), 4 * lds_path_length(p1)) == 0 &&
            memcmp(lds_path_nodes(p1), lds_path_nodes(p3), 4 * lds_path_length(p1)) == 0 &&
            lds_path_cost(p1) == lds_path_cost(p2) && lds_path_cost(p1) == lds_path_cost(p3))
          same++;
        if (lds_path_length(p1) > 1) {
          int32_t x, y;
          lds_path_cell(p1, 1, &x, &y);
          lds_dstar_move_start(one, x, y);
          lds_dstar_move_start(sl, x, y);
          lds_dstar_move_start(tm, x, y);
        }
        lds_path_free(p1);
        lds_path_free(p2);
        lds_path_free(p3);
      } else {
        same++;
      }
    }
    for (i = 0; i < 6; i++) {
      int32_t x = th_randint(&r, 40), y = th_randint(&r, 30);
      lds_grid_set_blocked(g, x, y, th_randint(&r, 3) == 0 ? false : true);
    }
    lds_grid_set_blocked(g, 39, 29, false);
  }
  CHECK_INT(same, rounds);
  /* the budgets really sliced the work */
  if (multi < 10 || tmulti < 1) fprintf(stderr, "multi=%d tmulti=%d\n", multi, tmulti);
  CHECK(multi >= 10);
  CHECK(tmulti >= 1);
  lds_dstar_free(one);
  lds_dstar_free(sl);
  lds_dstar_free(tm);
  lds_grid_free(g);
}

static void test_alloc_and_args(void) {
  lds_Grid *g = open_grid(20, 10);
  lds_Error err;
  lds_Env env;
  th_Alloc al;
  lds_DStarParams p;
  double wts[2] = {1.0, 1.0};
  long n;
  int fails = 0;
  lds_DStar *ds;
  /* every allocation of create fails in turn: NULL, NOMEM, nothing leaked */
  for (n = 1; n < 40; n++) {
    memset(&al, 0, sizeof al);
    al.fail_at = n;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &al;
    ds = lds_dstar_new(&env, g, 0, 0, 19, 9, NULL, &err);
    if (ds) {
      CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
      lds_dstar_free(ds);
      CHECK_INT(al.live, 0);
      break;
    }
    fails++;
    if (err.code != LDS_E_NOMEM || al.live != 0) break;
  }
  CHECK_INT(fails, 5); /* struct + 4 arrays */
  CHECK_INT(err.code, LDS_OK);
  CHECK_INT(al.live, 0);
  /* a byte limit below the need */
  memset(&al, 0, sizeof al);
  al.limit = 2000;
  ds = lds_dstar_new(&env, g, 0, 0, 19, 9, NULL, &err);
  CHECK(ds == NULL);
  CHECK_INT(err.code, LDS_E_NOMEM);
  CHECK_CONTAINS(err.msg, "lds_dstar_new: out of memory for 264 cells");
  CHECK_INT(al.live, 0);

  CHECK(lds_dstar_new(NULL, NULL, 0, 0, 1, 1, NULL, &err) == NULL);
  CHECK_STR(err.msg, "lds_dstar_new: grid is NULL");
  CHECK(lds_dstar_new(NULL, g, 20, 0, 1, 1, NULL, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_dstar_new: start (20,0) out of bounds (grid is 20x10)");
  CHECK(lds_dstar_new(NULL, g, 0, 0, 1, -1, NULL, &err) == NULL);
  CHECK_STR(err.msg, "lds_dstar_new: goal (1,-1) out of bounds (grid is 20x10)");
  lds_dstar_params_init(&p);
  p.h_scale = -1.0;
  CHECK(lds_dstar_new(NULL, g, 0, 0, 1, 1, &p, &err) == NULL);
  CHECK_STR(err.msg, "lds_dstar_new: h_scale -1 out of range (expected finite, >= 0)");
  lds_dstar_params_init(&p);
  p.heuristic = (lds_Heuristic)42;
  CHECK(lds_dstar_new(NULL, g, 0, 0, 1, 1, &p, &err) == NULL);
  CHECK_STR(err.msg, "lds_dstar_new: unknown heuristic 42");
  lds_dstar_params_init(&p);
  p.layer_weights = wts;
  p.n_layer_weights = 2;
  CHECK(lds_dstar_new(NULL, g, 0, 0, 1, 1, &p, &err) == NULL);
  CHECK_STR(err.msg, "lds_dstar_new: 2 layer weights for a grid with 0 layers (expected 0..0)");

  /* a layer that drives a cell cost to <= 0: at create and after a change */
  {
    int li;
    lds_grid_layer_add(g, "bonus", &li);
    lds_grid_layer_set(g, li, 3, 4, -2.0f);
    p.n_layer_weights = 1;
    CHECK(lds_dstar_new(NULL, g, 0, 0, 1, 1, &p, &err) == NULL);
    CHECK_STR(err.msg, "lds_dstar_new: cell (3,4) has cost -1 under the layer weights (base 1; "
                       "expected finite, > 0, or +inf from a layer to block it)");
    lds_grid_layer_set(g, li, 3, 4, 0.0f);
    ds = lds_dstar_new(NULL, g, 0, 0, 19, 9, &p, &err);
    CHECK(ds != NULL);
    CHECK_INT(lds_dstar_subscribe(ds, g), LDS_OK);
    CHECK_INT(lds_dstar_subscribe(ds, g), LDS_OK); /* idempotent */
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    lds_grid_layer_set(g, li, 5, 5, -1.0f);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_E_ARG);
    CHECK_CONTAINS(lds_dstar_errmsg(ds), "lds_dstar_step: cell (5,5) has cost 0");
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_E_ARG); /* sticky */
    CHECK_INT(lds_dstar_unsubscribe(ds), LDS_OK);
    CHECK_INT(lds_dstar_unsubscribe(ds), LDS_E_STATE);
    CHECK_STR(lds_dstar_errmsg(ds), "lds_dstar_unsubscribe: not subscribed");
    CHECK_INT(lds_dstar_update(ds, 20, 0), LDS_E_ARG);
    CHECK_STR(lds_dstar_errmsg(ds), "lds_dstar_update: cell (20,0) out of bounds (grid is 20x10)");
    CHECK_INT(lds_dstar_update_rect(ds, 3, 3, 2, 4), LDS_E_ARG);
    CHECK_STR(lds_dstar_errmsg(ds), "lds_dstar_update_rect: rectangle (3,3)-(2,4) is empty or "
                                    "out of bounds (grid is 20x10)");
    CHECK_INT(lds_dstar_move_start(ds, -1, 0), LDS_E_ARG);
    CHECK_STR(lds_dstar_errmsg(ds),
              "lds_dstar_move_start: cell (-1,0) out of bounds (grid is 20x10)");
    lds_dstar_free(ds);
    /* the weighted layer is removed under a subscribed search */
    lds_grid_layer_set(g, li, 5, 5, 0.0f);
    ds = lds_dstar_new(NULL, g, 0, 0, 19, 9, &p, &err);
    CHECK(ds != NULL);
    lds_dstar_subscribe(ds, g);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
    CHECK_INT(lds_grid_layer_remove(g, li), LDS_OK);
    CHECK_INT(lds_dstar_status(ds), LDS_RUNNING);
    CHECK_INT(lds_dstar_step(ds, NULL), LDS_E_STATE);
    CHECK_STR(lds_dstar_errmsg(ds), "lds_dstar_step: the search weights 1 layers but the grid "
                                    "now has 0 (a layer was removed; create a new search)");
    lds_dstar_free(ds);
  }
  {
    lds_Grid *other = open_grid(3, 3);
    ds = lds_dstar_new(NULL, g, 0, 0, 19, 9, NULL, &err);
    CHECK_INT(lds_dstar_subscribe(ds, other), LDS_E_ARG);
    CHECK_STR(lds_dstar_errmsg(ds), "lds_dstar_subscribe: not the grid the search was created on");
    CHECK(lds_dstar_mem_used(ds) > 264 * 50);
    lds_dstar_free(ds);
    lds_grid_free(other);
  }
  lds_grid_free(g);
}

/* D* Lite repairs instead of starting over: after a small change far from
** the agent, far fewer expansions than the first search. */
static void test_incremental(void) {
  lds_Grid *g = open_grid(100, 100);
  lds_DStar *ds = lds_dstar_new(NULL, g, 0, 50, 99, 50, NULL, NULL);
  lds_DStarStats s0, s1;
  int y;
  for (y = 10; y < 90; y++) lds_grid_set_blocked(g, 50, y, true);
  lds_dstar_free(ds);
  ds = lds_dstar_new(NULL, g, 0, 50, 99, 50, NULL, NULL);
  lds_dstar_subscribe(ds, g);
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  lds_dstar_counters(ds, &s0);
  lds_grid_set_blocked(g, 90, 5, true); /* off the path */
  CHECK_INT(lds_dstar_step(ds, NULL), LDS_FOUND);
  lds_dstar_counters(ds, &s1);
  CHECK(s1.expansions - s0.expansions < s0.expansions / 10);
  CHECK_INT(lds_dstar_flags(ds), LDS_DSTAR_CHANGES);
  lds_dstar_free(ds);
  lds_grid_free(g);
}

extern void suite_dstar(void);
void suite_dstar(void) {
  test_statuses();
  test_sliced();
  test_alloc_and_args();
  test_incremental();
  test_differential();
}
