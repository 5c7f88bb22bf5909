/* SPDX-License-Identifier: MIT */
/* test_weighted_edit_random.c — a randomized differential test of the edit
** rule for searches in progress (lds_search_edit.c: kept, repaired or
** restarted per edited cell; lds_scheduler_edits.c) with layer weights:
** thousands of small random grids with 2 or 3 layers and 3 agent classes
** (weight sets, one of them sometimes without weights), random edits (walls
** toggled, base costs, layer values including +inf, a rectangle of a layer
** written through lds_grid_layer_data + lds_grid_touch, the start or goal
** cell of a request in progress toggled, now and then the diagonal rule)
** between scheduler ticks of small budgets (deterministic, or timed on a
** clock that advances one µs per read) and inside the completion
** callbacks; A*, Dijkstra, weighted A* and greedy, some with a user
** heuristic scale, partial paths or quick paths, and a connectivity index on
** some grids. Every delivered answer is compared with a fresh one-shot
** search of the same parameters on the grid as it is at delivery:
**   - A* and Dijkstra: same status, cost equal within 1e-9 relative; with
**     params.partial and no path, the partial path ends at the same cell
**     with the same cost;
**   - weighted A* (weight w): found exactly when a path exists, cost between
**     the optimum and w times it (the bound of weighted A* without
**     re-expansion, consistent heuristic); greedy: found exactly when a
**     path exists;
**   - every path legal on the grid at delivery, its cost the sum of its
**     moves (lds_path_check with the class's weights);
**   - no request fails (stale or otherwise), every request finishes.
** The seed is fixed: a failure names its case and request. */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

#define NCASES 3000
#define MAXREQ 16
#define NCLASS 3
#define MAXLAYER 3
#define MAXFRAMES 3000

static const float cost_values[] = {1.0f, 1.0f, 1.0f, 1.5f, 2.0f, 3.0f, 0.5f};
static const float layer_values[] = {0.0f, 0.0f, 0.0f, 0.5f, 1.0f, 2.0f, 4.0f};
static const double weight_values[] = {0.0, 0.0, 0.25, 0.5, 1.0, 2.0, 3.0};

typedef struct Query {
  int32_t sx, sy, gx, gy;
  lds_SearchParams p; /* layer_weights points into Ctx.w */
  int cls;
  bool live;          /* submitted, not delivered */
} Query;

typedef struct Ctx {
  lds_Grid *g;
  int nl;
  th_Rng *rng;
  lds_Search *one;
  double w[NCLASS][MAXLAYER];
  int nw[NCLASS];
  Query q[MAXREQ];
  int nq, ncase;
  int edit_in_callback; /* 0..100: chance of an edit after a delivery */
  /* results */
  int mismatches, illegal, failed, delivered, compared;
} Ctx;

static uint64_t fake_clock(void *ud) { return ++*(uint64_t *)ud; }

/* A random cell near (x, y) (within 2 cells, clamped). */
static void near(const Ctx *c, int32_t x, int32_t y, int32_t *ox, int32_t *oy) {
  int32_t w = lds_grid_width(c->g), h = lds_grid_height(c->g);
  x += th_randint(c->rng, 5) - 2;
  y += th_randint(c->rng, 5) - 2;
  *ox = x < 0 ? 0 : x >= w ? w - 1 : x;
  *oy = y < 0 ? 0 : y >= h ? h - 1 : y;
}

static float random_layer_value(th_Rng *rng) {
  return th_randint(rng, 12) == 0 ? INFINITY : layer_values[th_randint(rng, 7)];
}

/* One random edit, biased toward the cells around the live requests (where
** their searches have generated cells). */
static void random_edit(Ctx *c) {
  th_Rng *rng = c->rng;
  int32_t w = lds_grid_width(c->g), h = lds_grid_height(c->g), x, y;
  int k = th_randint(rng, 100), live[MAXREQ], nlive = 0, i;
  for (i = 0; i < c->nq; i++)
    if (c->q[i].live) live[nlive++] = i;
  if (nlive && th_randint(rng, 2)) {
    const Query *q = &c->q[live[th_randint(rng, nlive)]];
    int t = th_randint(rng, 3);
    near(c, t == 0 ? q->sx : t == 1 ? q->gx : (q->sx + q->gx) / 2,
         t == 0 ? q->sy : t == 1 ? q->gy : (q->sy + q->gy) / 2, &x, &y);
    if (k >= 95) { /* the start or the goal itself */
      x = t == 0 ? q->sx : q->gx;
      y = t == 0 ? q->sy : q->gy;
      lds_grid_set_blocked(c->g, x, y, !lds_grid_blocked(c->g, x, y));
      return;
    }
  } else {
    x = th_randint(rng, w);
    y = th_randint(rng, h);
  }
  if (k < 22) {
    lds_grid_set_blocked(c->g, x, y, !lds_grid_blocked(c->g, x, y));
  } else if (k < 38) {
    lds_grid_set_cost(c->g, x, y, cost_values[th_randint(rng, 7)]);
  } else if (k < 88) {
    lds_grid_layer_set(c->g, th_randint(rng, c->nl), x, y, random_layer_value(rng));
  } else if (k < 94) { /* a rectangle of one layer, written directly */
    int l = th_randint(rng, c->nl);
    int32_t x1 = x + th_randint(rng, 3), y1 = y + th_randint(rng, 3), xx, yy;
    float *d = lds_grid_layer_data(c->g, l);
    if (x1 >= w) x1 = w - 1;
    if (y1 >= h) y1 = h - 1;
    for (yy = y; yy <= y1; yy++)
      for (xx = x; xx <= x1; xx++) d[(size_t)yy * (size_t)w + (size_t)xx] = random_layer_value(rng);
    lds_grid_touch(c->g, x, y, x1, y1);
  } else if (k < 95) { /* every move may change */
    lds_grid_set_diagonal(c->g, (lds_Diagonal)th_randint(rng, 4));
  } else {
    lds_grid_set_blocked(c->g, x, y, !lds_grid_blocked(c->g, x, y));
  }
}

/* The last cell of path p. */
static void path_end(const lds_Path *p, int32_t *x, int32_t *y) {
  lds_path_cell(p, lds_path_length(p) - 1, x, y);
}

/* Compares the answer delivered for query i with a one-shot search of the
** same parameters on the grid as it is now. */
static void compare(Ctx *c, lds_Scheduler *sc, lds_RequestId id, int i,
                    const lds_RequestInfo *info) {
  const Query *q = &c->q[i];
  lds_Algo a = q->p.algo;
  lds_Status ref;
  double rc, tol;
  const lds_Path *dp = lds_scheduler_path(sc, id);
  bool bad = false, own_path;
  lds_SearchParams rp = q->p;
  /* the reference of weighted A* and greedy is the optimum (A*) */
  if (a == LDS_ALGO_WASTAR || a == LDS_ALGO_GREEDY) {
    rp.algo = LDS_ALGO_ASTAR;
    rp.weight = 0.0;
  }
  ref = lds_search_start(c->one, &rp, q->sx, q->sy, q->gx, q->gy);
  if (ref == LDS_OK) ref = lds_search_run(c->one);
  rc = lds_search_cost(c->one);
  tol = 1e-9 * fmax(1.0, fabs(rc));
  if (info->status < 0) {
    c->failed++;
    if (c->failed <= 3)
      TH_FAIL("case %d request %d (%s): failed %s", c->ncase, i, lds_algo_name(a),
              lds_status_name(info->status));
    return;
  }
  /* A request without a path has no path of its own but for a partial one
  ** from a free start; a finished request answers with its own path only
  ** (the quick path it may have served while running is gone) */
  own_path = info->status == LDS_FOUND ||
                  (q->p.partial && !lds_grid_blocked(c->g, q->sx, q->sy));
  if (!own_path && dp && !q->p.partial) {
    c->illegal++;
    if (c->illegal <= 3)
      TH_FAIL("case %d request %d (%s): a path after %s without partial", c->ncase, i,
              lds_algo_name(a), lds_status_name(info->status));
  }
  if (dp && own_path) {
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    lds_path_check_init(&pc);
    pc.check_start = true;
    pc.sx = q->sx;
    pc.sy = q->sy;
    pc.check_goal = info->status == LDS_FOUND;
    pc.gx = q->gx;
    pc.gy = q->gy;
    pc.check_cost = true;
    pc.layer_weights = q->p.layer_weights;
    pc.nlayers = q->p.n_layer_weights;
    if (lds_path_check(c->g, dp, &pc, &rep, NULL) != LDS_OK || rep.fault != LDS_PATHCHECK_OK) {
      c->illegal++;
      if (c->illegal <= 3)
        TH_FAIL("case %d request %d (%s): illegal path (fault %d at step %zu)", c->ncase, i,
                lds_algo_name(a), (int)rep.fault, rep.step);
    }
  }
  if (a == LDS_ALGO_GREEDY || a == LDS_ALGO_WASTAR) {
    double wt = q->p.weight > 0.0 ? q->p.weight : 1.5;
    bad = (info->status == LDS_FOUND) != (ref == LDS_FOUND);
    if (!bad && ref == LDS_FOUND && a == LDS_ALGO_WASTAR)
      bad = info->cost < rc - tol || info->cost > wt * rc + wt * tol;
  } else {
    c->compared++;
    bad = info->status != ref || (ref == LDS_FOUND && !(fabs(info->cost - rc) <= tol));
    if (!bad && ref == LDS_NO_PATH && q->p.partial) {
      lds_Error err;
      lds_Path *fp = lds_search_path(c->one, &err);
      int32_t x0 = -1, y0 = -1, x1 = -2, y1 = -2;
      if (fp && dp) {
        path_end(fp, &x0, &y0);
        path_end(dp, &x1, &y1);
      }
      if (own_path)
        bad = !fp || !dp || x0 != x1 || y0 != y1 ||
              !(fabs(lds_path_cost(fp) - lds_path_cost(dp)) <= tol);
      lds_path_free(fp);
    }
  }
  if (bad) {
    c->mismatches++;
    if (c->mismatches <= 5)
      TH_FAIL("case %d request %d (%s, class %d, h %d, h_scale %g, partial %d) (%d,%d) -> "
              "(%d,%d): delivered %s cost %.12g, one-shot %s cost %.12g",
              c->ncase, i, lds_algo_name(a), q->cls, (int)q->p.heuristic, q->p.h_scale,
              (int)q->p.partial, q->sx, q->sy, q->gx, q->gy, lds_status_name(info->status),
              info->cost, lds_status_name(ref), rc);
  }
}

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Ctx *c = (Ctx *)ud;
  int i = (int)info->agent_id;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  c->delivered++;
  c->q[i].live = false;
  compare(c, sc, id, i, info);
  /* edits inside a callback reach the other searches in mid-tick */
  if (th_randint(c->rng, 100) < c->edit_in_callback) random_edit(c);
  return LDS_OK;
}

/* Submits a new random request. */
static void submit(Ctx *c, lds_Scheduler *sc) {
  th_Rng *rng = c->rng;
  int32_t w = lds_grid_width(c->g), h = lds_grid_height(c->g);
  int i = c->nq++, a = th_randint(rng, 20), hsel = th_randint(rng, 8);
  Query *q = &c->q[i];
  lds_Request rq;
  q->sx = th_randint(rng, w);
  q->sy = th_randint(rng, h);
  q->gx = th_randint(rng, w);
  q->gy = th_randint(rng, h);
  q->cls = th_randint(rng, NCLASS);
  lds_search_params_init(&q->p);
  q->p.algo = a < 10 ? LDS_ALGO_ASTAR : a < 16 ? LDS_ALGO_DIJKSTRA
              : a < 19 ? LDS_ALGO_WASTAR : LDS_ALGO_GREEDY;
  /* admissible heuristics only: octile/auto, euclidean, chebyshev */
  q->p.heuristic = hsel == 0 ? LDS_H_EUCLIDEAN : hsel == 1 ? LDS_H_CHEBYSHEV : LDS_H_AUTO;
  if (q->p.algo == LDS_ALGO_WASTAR) q->p.weight = th_randint(rng, 2) ? 0.0 : 2.5;
  /* a user scale at most every cost (0.5 base, no negative layer): optimal,
  ** with re-expansion */
  if (q->p.algo == LDS_ALGO_ASTAR && th_randint(rng, 6) == 0) q->p.h_scale = 0.25;
  if (q->p.algo <= LDS_ALGO_DIJKSTRA && th_randint(rng, 8) == 0) q->p.partial = true;
  q->p.layer_weights = c->nw[q->cls] ? c->w[q->cls] : NULL;
  q->p.n_layer_weights = c->nw[q->cls];
  q->live = true;
  lds_request_init(&rq, c->g, q->sx, q->sy, q->gx, q->gy);
  rq.params = q->p;
  rq.agent_id = i;
  rq.on_done = on_done;
  rq.ud = c;
  if (th_randint(rng, 8) == 0) rq.quick_expansions = 1 + (uint64_t)th_randint(rng, 6);
  if (lds_scheduler_submit(sc, &rq, NULL) != LDS_OK) {
    q->live = false;
    TH_FAIL("case %d: submit failed: %s", c->ncase, lds_scheduler_errmsg(sc));
  }
}

static void test_random_weighted_edit_rule(void) {
  th_Rng rng;
  int n, unfinished = 0;
  long delivered = 0, compared = 0, mismatches = 0, illegal = 0, failed = 0;
  lds_EditStats all;
  memset(&all, 0, sizeof all);
  rng.s = 0x5eed18u;
  for (n = 0; n < NCASES; n++) {
    int32_t w = 3 + th_randint(&rng, 12), h = 3 + th_randint(&rng, 12), x, y;
    int pct = th_randint(&rng, 30), costly = th_randint(&rng, 2), layered = th_randint(&rng, 4);
    int rate = th_randint(&rng, 4), bmax = 1 + th_randint(&rng, 10), nreq0 = 1 + th_randint(&rng, 6);
    int l, k, frame, idx[MAXLAYER];
    bool timed = th_randint(&rng, 5) == 0;
    uint64_t clock_now = 0;
    lds_Env env;
    lds_SchedulerConfig cfg;
    lds_Scheduler *sc;
    lds_EditStats es;
    Ctx c;
    static const char *const names[MAXLAYER] = {"mud", "danger", "cover"};
    memset(&c, 0, sizeof c);
    c.rng = &rng;
    c.ncase = n;
    c.nl = 2 + th_randint(&rng, 2);
    c.edit_in_callback = th_randint(&rng, 2) ? 0 : 30;
    c.g = lds_grid_new(NULL, w, h, NULL);
    for (l = 0; l < c.nl; l++) lds_grid_layer_add(c.g, names[l], &idx[l]);
    if (th_randint(&rng, 5) == 0) lds_grid_set_neighbourhood(c.g, 4);
    lds_grid_set_diagonal(c.g, (lds_Diagonal)th_randint(&rng, 4));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (th_randint(&rng, 100) < pct) lds_grid_set_blocked(c.g, x, y, true);
        if (costly) lds_grid_set_cost(c.g, x, y, cost_values[th_randint(&rng, 7)]);
        if (layered)
          for (l = 0; l < c.nl; l++) lds_grid_layer_set(c.g, idx[l], x, y, random_layer_value(&rng));
      }
    /* the classes: a weight per layer, at least one nonzero; class 0 is
    ** sometimes the unweighted one */
    for (k = 0; k < NCLASS; k++) {
      bool any = false;
      c.nw[k] = c.nl;
      for (l = 0; l < c.nl; l++) {
        c.w[k][l] = weight_values[th_randint(&rng, 7)];
        if (c.w[k][l] != 0.0) any = true;
      }
      if (!any) c.w[k][th_randint(&rng, c.nl)] = 1.0;
      if (k == 0 && th_randint(&rng, 3) == 0) c.nw[k] = 0;
    }
    if (th_randint(&rng, 4) == 0) { /* a connectivity index: settled starts */
      uint32_t mask = (uint32_t)th_randint(&rng, 1 << c.nl);
      lds_components_new(NULL, c.g, mask, NULL);
    }
    c.one = lds_search_new(NULL, c.g, NULL);
    lds_scheduler_config_init(&cfg);
    cfg.deterministic = !timed;
    cfg.searches_per_grid = 1 + th_randint(&rng, 3);
    cfg.max_restarts = th_randint(&rng, 3) ? (uint32_t)th_randint(&rng, 4) : 1000;
    cfg.quick_share = th_randint(&rng, 2) ? 0.25 : 0.0;
    lds_env_init(&env);
    env.clock = fake_clock;
    env.clock_ud = &clock_now;
    sc = lds_scheduler_new(timed ? &env : NULL, &cfg, NULL);
    lds_scheduler_add_grid(sc, c.g, 0);
    for (k = 0; k < nreq0; k++) submit(&c, sc);
    for (frame = 0; frame < MAXFRAMES && lds_scheduler_pending(sc) > 0; frame++) {
      lds_Budget b;
      int e, ne = th_randint(&rng, rate + 1);
      for (e = 0; e < ne; e++) random_edit(&c);
      if (c.nq < MAXREQ && th_randint(&rng, 10) == 0) submit(&c, sc);
      b.max_expansions = timed ? 0 : 1 + (uint64_t)th_randint(&rng, bmax);
      b.budget_us = timed ? 4 + (uint64_t)th_randint(&rng, 40) : 0;
      lds_scheduler_step(sc, &b, NULL);
    }
    if (lds_scheduler_pending(sc) > 0) {
      unfinished++;
      if (unfinished <= 3) TH_FAIL("case %d: %zu requests unfinished", n, lds_scheduler_pending(sc));
    }
    lds_scheduler_edit_stats(sc, &es);
    all.edits += es.edits;
    all.kept += es.kept;
    all.disturbed += es.disturbed;
    all.repaired += es.repaired;
    delivered += c.delivered;
    compared += c.compared;
    mismatches += c.mismatches;
    illegal += c.illegal;
    failed += c.failed;
    lds_scheduler_free(sc);
    lds_search_free(c.one);
    lds_grid_free(c.g);
  }
  CHECK_INT(mismatches, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(failed, 0);
  CHECK_INT(unfinished, 0);
  /* the test covers what it claims: many answers compared, searches kept
  ** and repaired as well as restarted */
  CHECK(compared > 10000);
  CHECK(all.kept > 20000);
  CHECK(all.repaired > 5000);
  CHECK(all.disturbed > 1000);
  printf("  (%d cases: %ld delivered, %ld compared exactly; edits %llu, searches kept %llu, "
         "repaired %llu, disturbed %llu)\n",
         NCASES, delivered, compared, (unsigned long long)all.edits,
         (unsigned long long)all.kept, (unsigned long long)all.repaired,
         (unsigned long long)all.disturbed);
}

void suite_weighted_edit_random(void);
void suite_weighted_edit_random(void) { test_random_weighted_edit_rule(); }
