/* SPDX-License-Identifier: MIT */
/*
** test_path_cache.c — the path cache (core/lds_path_cache.h) and the
** scheduler's use of it: every cached answer against a fresh A* search on
** the grid as it is (same status, same cost, a legal path between the
** right endpoints), across random edits of walls, costs and layers, with
** layer weights, sliced growth, and queries the cache must decline.
*/
#include "harness.h"

#include "lds.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static lds_Grid *cache_grid(th_Rng *r, int32_t w, int32_t h) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  int idx;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      int k = th_randint(r, 100);
      if (k < 22) lds_grid_set_blocked(g, x, y, true);
      else if (k < 40) lds_grid_set_cost(g, x, y, 1.0f + (float)th_randint(r, 5));
    }
  for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, h / 2, x % 13 != 6); /* doors */
  lds_grid_layer_add(g, "mud", &idx);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (th_randint(r, 100) < 10) lds_grid_layer_set(g, idx, x, y, th_randint(r, 4) ? 2.0f : INFINITY);
  return g;
}

/* The fresh search's status and cost for the same query. */
static lds_Status fresh(lds_Search *s, const lds_SearchParams *p, int32_t sx, int32_t sy,
                        int32_t gx, int32_t gy, double *cost) {
  lds_Status st = lds_search_start(s, p, sx, sy, gx, gy);
  if (st == LDS_OK) st = lds_search_run(s);
  *cost = lds_search_cost(s);
  return st;
}

/* Whether a cached answer (st, path) agrees with a fresh search. */
static bool agrees(const lds_Grid *g, lds_Search *s, const lds_SearchParams *p, int32_t sx,
                   int32_t sy, int32_t gx, int32_t gy, lds_Status st, const lds_Path *path) {
  double cost;
  lds_Status fs = fresh(s, p, sx, sy, gx, gy, &cost);
  lds_PathCheck chk;
  if (fs != st) return false;
  if (st != LDS_FOUND) return path == NULL;
  if (!path || fabs(lds_path_cost(path) - cost) > 1e-9 * (cost > 1 ? cost : 1)) return false;
  lds_path_check_init(&chk);
  chk.check_start = chk.check_goal = true;
  chk.sx = sx;
  chk.sy = sy;
  chk.gx = gx;
  chk.gy = gy;
  chk.layer_weights = p->layer_weights;
  chk.nlayers = p->n_layer_weights;
  return lds_path_check(g, path, &chk, NULL, NULL) == LDS_OK;
}

static void test_random_queries_and_edits(void) {
  th_Rng r = {0xC0FFEEULL};
  lds_Grid *g = cache_grid(&r, 90, 60);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_PathCache *pc = lds_path_cache_new(NULL, g, 4, NULL);
  lds_PathCacheStats st;
  int32_t goals[6][2];
  double w1 = 1.0;
  int i, wrong = 0, answered = 0;
  CHECK(pc != NULL);
  for (i = 0; i < 6; i++) {
    do {
      goals[i][0] = th_randint(&r, 90);
      goals[i][1] = th_randint(&r, 60);
    } while (lds_grid_blocked(g, goals[i][0], goals[i][1]));
  }
  for (i = 0; i < 3000; i++) {
    lds_SearchParams p;
    int32_t sx = th_randint(&r, 90), sy = th_randint(&r, 60), *gl = goals[th_randint(&r, 6)];
    lds_Path *path = NULL;
    lds_Status qs;
    lds_search_params_init(&p);
    if (i % 3 == 0) { /* a weighted profile: its own trees */
      p.layer_weights = &w1;
      p.n_layer_weights = 1;
    }
    if (i % 5 == 0) p.algo = LDS_ALGO_JPS;
    if (i % 7 == 0) { /* an edit: a wall, a door, a cost, a layer value */
      int32_t x = th_randint(&r, 90), y = th_randint(&r, 60);
      switch (th_randint(&r, 4)) {
        case 0: lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); break;
        case 1: lds_grid_set_blocked(g, x - x % 13 + 6, 30, !lds_grid_blocked(g, x - x % 13 + 6, 30)); break;
        case 2: lds_grid_set_cost(g, x, y, 0.5f + (float)th_randint(&r, 6)); break;
        default: lds_grid_layer_set(g, 0, x, y, th_randint(&r, 2) ? INFINITY : 0.0f); break;
      }
    }
    if (!lds_path_cache_accepts(pc, &p, sx, sy, gl[0], gl[1])) continue;
    qs = lds_path_cache_query(pc, &p, sx, sy, gl[0], gl[1], 0, NULL, &path, NULL);
    answered++;
    if (!agrees(g, s, &p, sx, sy, gl[0], gl[1], qs, path)) {
      if (wrong++ < 3) TH_FAIL("query %d (%d,%d)->(%d,%d): cached %s differs from a fresh search", i,
                               sx, sy, gl[0], gl[1], lds_status_name(qs));
    }
    lds_path_free(path);
  }
  CHECK_INT(wrong, 0);
  CHECK(answered > 1500);
  lds_path_cache_stats(pc, &st);
  printf("  path cache, 3000 random queries with edits: %llu answered, %llu hits, %llu grown, %llu resets, %llu evictions\n",
         (unsigned long long)st.answered, (unsigned long long)st.hits, (unsigned long long)st.grown,
         (unsigned long long)st.resets, (unsigned long long)st.evictions);
  CHECK(st.hits > 100);             /* answers that reused a tree */
  CHECK(st.grown > 100);            /* and answers that grew one */
  CHECK(st.resets > 0);             /* edits touched trees */
  CHECK(st.evictions > 0);          /* 12 keys, 4 entries */
  CHECK_INT(st.entries, 4);
  CHECK(st.bytes >= 4 * (size_t)92 * 62 * 16);
  CHECK_INT(st.answered, (uint64_t)answered);
  lds_path_cache_free(pc);
  lds_search_free(s);
  lds_grid_free(g);
}

static void test_sliced_and_declined(void) {
  lds_Grid *g = lds_grid_new(NULL, 60, 40, NULL);
  lds_PathCache *pc = lds_path_cache_new(NULL, g, 2, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path = NULL;
  lds_Status st;
  uint64_t n, total = 0;
  int calls = 0;
  lds_Error err;
  int32_t y;
  lds_search_params_init(&p);
  /* sliced growth: 50 cells a call, the same answer as one call */
  do {
    st = lds_path_cache_query(pc, &p, 0, 0, 59, 39, 50, &n, &path, &err);
    total += n;
    calls++;
    CHECK(n <= 50);
  } while (st == LDS_RUNNING);
  CHECK(calls > 5);
  CHECK(agrees(g, s, &p, 0, 0, 59, 39, st, path));
  lds_path_free(path);
  /* a hit: no expansion */
  st = lds_path_cache_query(pc, &p, 10, 5, 59, 39, 0, &n, &path, &err);
  CHECK_INT(st, LDS_FOUND);
  CHECK_INT(n, 0);
  lds_path_free(path);
  /* a wall: the start is cut off: no path. The edits cut the west side
  ** out of the tree and none of its cells has a move into a settled cell,
  ** so no cell is left to settle: answered at once */
  for (y = 0; y < 40; y++) lds_grid_set_blocked(g, 30, y, true);
  st = lds_path_cache_query(pc, &p, 10, 5, 59, 39, 0, &n, &path, &err);
  CHECK_INT(st, LDS_NO_PATH);
  CHECK(path == NULL);
  CHECK_INT(n, 0);
  {
    lds_PathCacheStats cs;
    lds_path_cache_stats(pc, &cs);
    CHECK_INT(cs.truncations, 40); /* each cell of the wall cut the subtree behind it */
  }
  st = lds_path_cache_query(pc, &p, 3, 3, 59, 39, 0, &n, &path, &err); /* exhausted: at once */
  CHECK_INT(st, LDS_NO_PATH);
  CHECK_INT(n, 0);
  /* declined queries */
  p.partial = true;
  CHECK(!lds_path_cache_accepts(pc, &p, 0, 0, 59, 39));
  p.partial = false;
  p.algo = LDS_ALGO_WASTAR;
  CHECK(!lds_path_cache_accepts(pc, &p, 0, 0, 59, 39));
  p.algo = LDS_ALGO_ASTAR;
  p.heuristic = LDS_H_MANHATTAN;
  CHECK(!lds_path_cache_accepts(pc, &p, 0, 0, 59, 39));
  p.heuristic = LDS_H_AUTO;
  CHECK(!lds_path_cache_accepts(pc, &p, 30, 0, 59, 39)); /* blocked start */
  CHECK(!lds_path_cache_accepts(pc, &p, 5, 5, 5, 5));    /* start == goal */
  CHECK_INT(lds_path_cache_query(pc, &p, 30, 0, 59, 39, 0, &n, &path, &err), LDS_E_ARG);
  CHECK(lds_path_cache_new(NULL, g, 0, &err) == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  lds_path_cache_free(pc);
  lds_search_free(s);
  lds_grid_free(g);
}

typedef struct Deliv {
  lds_Search *s;
  const lds_Grid *g;
  int delivered, wrong;
} Deliv;

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Deliv *d = (Deliv *)ud;
  lds_SearchParams p;
  const lds_Path *path = lds_scheduler_path(sc, id);
  int32_t sx, sy, gx, gy;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  d->delivered++;
  lds_search_params_init(&p);
  if (path) {
    lds_path_cell(path, 0, &sx, &sy);
    lds_path_cell(path, lds_path_length(path) - 1, &gx, &gy);
    if (!agrees(d->g, d->s, &p, sx, sy, gx, gy, info->status, path)) d->wrong++;
  } else if (info->status != LDS_NO_PATH) {
    d->wrong++;
  }
  return LDS_OK;
}

static void test_scheduler(void) {
  th_Rng r = {99};
  lds_Grid *g = lds_grid_new(NULL, 80, 50, NULL);
  lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
  lds_TickStats tot;
  lds_PathCacheStats st;
  Deliv d;
  int i;
  int32_t x, y;
  for (y = 0; y < 50; y++)
    for (x = 0; x < 80; x++)
      if (th_randint(&r, 100) < 20) lds_grid_set_blocked(g, x, y, true);
  d.s = lds_search_new(NULL, g, NULL);
  d.g = g;
  d.delivered = d.wrong = 0;
  CHECK_INT(lds_scheduler_add_grid(sc, g, 2), LDS_OK);
  CHECK(lds_scheduler_path_cache(sc, g) == NULL);
  CHECK_INT(lds_scheduler_set_path_cache(sc, g, 3), LDS_OK);
  CHECK(lds_scheduler_path_cache(sc, g) != NULL);
  for (i = 0; i < 300; i++) {
    lds_Request rq;
    int32_t sx, sy, gx = 10 + 30 * (i % 3), gy = 25;
    lds_grid_set_blocked(g, gx, gy, false);
    do {
      sx = th_randint(&r, 80);
      sy = th_randint(&r, 50);
    } while (lds_grid_blocked(g, sx, sy) || (sx == gx && sy == gy));
    lds_request_init(&rq, g, sx, sy, gx, gy);
    rq.on_done = on_done;
    rq.ud = &d;
    rq.flags = LDS_REQ_AUTO_RELEASE;
    CHECK(lds_scheduler_submit(sc, &rq, NULL) == LDS_OK);
    if (i % 50 == 49) {
      lds_Budget b = {2000, 0};
      lds_scheduler_step(sc, &b, NULL);
      lds_grid_set_blocked(g, th_randint(&r, 80), th_randint(&r, 50), true); /* an edit */
    }
  }
  while (lds_scheduler_pending(sc) > 0) lds_scheduler_step(sc, NULL, NULL);
  lds_scheduler_totals(sc, &tot);
  lds_path_cache_stats(lds_scheduler_path_cache(sc, g), &st);
  CHECK_INT(d.delivered, 300);
  CHECK_INT(d.wrong, 0);
  CHECK_INT(tot.started, 0);              /* no search: the cache took every request */
  CHECK_INT(st.answered, 300);
  CHECK(st.grown < 60);                   /* most requests were hits */
  CHECK(lds_scheduler_mem_used(sc) > st.bytes);
  CHECK_INT(lds_scheduler_set_path_cache(sc, g, 0), LDS_OK);
  CHECK(lds_scheduler_path_cache(sc, g) == NULL);
  CHECK_INT(lds_scheduler_set_path_cache(sc, NULL, 2), LDS_E_ARG);
  lds_scheduler_free(sc);
  lds_search_free(d.s);
  lds_grid_free(g);
}

/* Bad queries: a clear LDS_E_ARG naming what is wrong, never a crash. */
static void test_bad_queries(void) {
  lds_Grid *g = lds_grid_new(NULL, 8, 8, NULL);
  lds_PathCache *pc = lds_path_cache_new(NULL, g, 2, NULL);
  lds_SearchParams p;
  lds_Path *path = (lds_Path *)&p; /* must be reset to NULL */
  lds_Error err;
  lds_search_params_init(&p);
  CHECK(pc != NULL);
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 5, 5, 0, NULL, NULL, &err), LDS_E_ARG);
  CHECK(strstr(err.msg, "out is NULL") != NULL);
  CHECK_INT(lds_path_cache_query(NULL, &p, 0, 0, 5, 5, 0, NULL, &path, &err), LDS_E_ARG);
  CHECK(path == NULL && strstr(err.msg, "pc is NULL") != NULL);
  CHECK_INT(lds_path_cache_query(pc, NULL, 0, 0, 5, 5, 0, NULL, &path, &err), LDS_E_ARG);
  CHECK(strstr(err.msg, "params is NULL") != NULL);
  CHECK_INT(lds_path_cache_query(pc, &p, -1, 0, 5, 5, 0, NULL, &path, &err), LDS_E_ARG);
  CHECK(strstr(err.msg, "(-1,0)->(5,5) not accepted: start out of the grid") != NULL);
  p.algo = LDS_ALGO_WASTAR;
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 5, 5, 0, NULL, &path, &err), LDS_E_ARG);
  CHECK(strstr(err.msg, "algo: expected an optimal one") != NULL);
  CHECK(!lds_path_cache_accepts(NULL, &p, 0, 0, 5, 5));
  lds_search_params_init(&p);
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 5, 5, 0, NULL, &path, &err), LDS_FOUND);
  CHECK(path != NULL);
  lds_path_free(path);
  lds_path_cache_free(pc);
  lds_grid_free(g);
}

/* One run of test_interleaved_edits: STEPS steps of edits and queries on a
** grid of random walls and costs with 3 goals, every answer checked against
** a fresh search; returns the wrong answers, fills a checksum of the
** answers (cells and costs) and the cache's counters. */
static int interleaved_run(unsigned long long seed, int steps, uint64_t *sum, lds_PathCacheStats *st,
                           int *answered) {
  th_Rng r = {seed};
  const int32_t W = 70, H = 50;
  lds_Grid *g = cache_grid(&r, W, H);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_PathCache *pc = lds_path_cache_new(NULL, g, 3, NULL);
  int32_t goals[3][2];
  double w1 = 1.0;
  int i, k, wrong = 0;
  *sum = 0;
  *answered = 0;
  for (k = 0; k < 3; k++) {
    do {
      goals[k][0] = th_randint(&r, W);
      goals[k][1] = th_randint(&r, H);
    } while (lds_grid_blocked(g, goals[k][0], goals[k][1]));
  }
  for (i = 0; i < steps; i++) {
    int kind = th_randint(&r, 100), burst = th_randint(&r, 10) == 0 ? 12 : 1, b;
    if (kind < 55) { /* edits, often next to a goal's trees' busiest cells */
      for (b = 0; b < burst; b++) {
        int32_t *gl = goals[th_randint(&r, 3)], x, y;
        if (th_randint(&r, 2)) {
          x = gl[0] - 6 + th_randint(&r, 13);
          y = gl[1] - 6 + th_randint(&r, 13);
        } else {
          x = th_randint(&r, W);
          y = th_randint(&r, H);
        }
        if (!lds_grid_in_bounds(g, x, y)) continue;
        for (k = 0; k < 3; k++)
          if (x == goals[k][0] && y == goals[k][1]) break;
        if (k < 3) continue; /* the goals stay open (else their queries are declined) */
        switch (th_randint(&r, 7)) {
          case 0:
          case 1: lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y)); break;
          case 2: lds_grid_set_cost(g, x, y, 0.25f + (float)th_randint(&r, 8)); break;
          case 3: lds_grid_layer_set(g, 0, x, y, th_randint(&r, 3) ? (float)th_randint(&r, 3) : INFINITY); break;
          case 4: { /* a 3x3 crate put down or taken away at once */
            float *cost = lds_grid_layer_data(g, 0);
            int32_t cx, cy, x1 = x + 2 < W ? x + 2 : W - 1, y1 = y + 2 < H ? y + 2 : H - 1;
            for (cy = y; cy <= y1; cy++)
              for (cx = x; cx <= x1; cx++) cost[cy * W + cx] = th_randint(&r, 2) ? 0.0f : 3.0f;
            lds_grid_touch(g, x, y, x1, y1);
            break;
          }
          case 5: lds_grid_set_blocked(g, x - x % 13 + 6, H / 2, !lds_grid_blocked(g, x - x % 13 + 6, H / 2)); break;
          default: /* a rule of the whole grid, now and then */
            if (th_randint(&r, 20) == 0)
              lds_grid_set_diagonal(g, (lds_Diagonal)th_randint(&r, 4));
            else
              lds_grid_set_cost(g, x, y, 1.0f);
            break;
        }
      }
    } else { /* a query, sliced sometimes with edits between the slices */
      lds_SearchParams p;
      int32_t sx = th_randint(&r, W), sy = th_randint(&r, H), *gl = goals[th_randint(&r, 3)];
      uint64_t budget = th_randint(&r, 3) == 0 ? 1 + (uint64_t)th_randint(&r, 300) : 0;
      lds_Path *path = NULL;
      lds_Status qs;
      lds_search_params_init(&p);
      if (th_randint(&r, 3) == 0) {
        p.layer_weights = &w1;
        p.n_layer_weights = 1;
      }
      if (!lds_path_cache_accepts(pc, &p, sx, sy, gl[0], gl[1])) continue;
      for (;;) {
        qs = lds_path_cache_query(pc, &p, sx, sy, gl[0], gl[1], budget, NULL, &path, NULL);
        if (qs != LDS_RUNNING) break;
        if (th_randint(&r, 2)) { /* an edit away from the query's ends */
          int32_t x = th_randint(&r, W), y = th_randint(&r, H);
          if ((x != sx || y != sy) && (x != gl[0] || y != gl[1]))
            lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
          if (!lds_path_cache_accepts(pc, &p, sx, sy, gl[0], gl[1])) break;
        }
      }
      if (qs == LDS_RUNNING) continue;
      (*answered)++;
      if (!agrees(g, s, &p, sx, sy, gl[0], gl[1], qs, path)) {
        if (wrong++ < 3)
          TH_FAIL("step %d (%d,%d)->(%d,%d): cached %s differs from a fresh search", i, sx, sy,
                  gl[0], gl[1], lds_status_name(qs));
      }
      if (path) {
        size_t c, n = lds_path_length(path);
        for (c = 0; c < n; c++) {
          int32_t x, y;
          lds_path_cell(path, c, &x, &y);
          *sum = *sum * 1000003u + (uint64_t)(y * W + x);
        }
        *sum = *sum * 31u + (uint64_t)(lds_path_cost(path) * 1e6);
      }
      *sum = *sum * 7u + (uint64_t)qs;
      lds_path_free(path);
    }
  }
  lds_path_cache_stats(pc, st);
  lds_path_cache_free(pc);
  lds_search_free(s);
  lds_grid_free(g);
  return wrong;
}

/* Edits and cached queries interleaved: bursts of edits (walls, doors,
** costs up and down, layer values, rectangles of layer data, the diagonal
** rule), sliced queries with edits between the slices; every answer against
** a fresh search; the same run twice gives the same answers bit for bit. */
static void test_interleaved_edits(void) {
  lds_PathCacheStats st, st2;
  uint64_t sum, sum2;
  int answered, answered2;
  CHECK_INT(interleaved_run(0x5EED1234ULL, 10000, &sum, &st, &answered), 0);
  printf("  path cache, 10000 steps of edits and queries: %d answered, %llu hits, %llu grown, %llu"
         " edits changed a tree, %llu cut one\n", answered, (unsigned long long)st.hits,
         (unsigned long long)st.grown, (unsigned long long)st.resets,
         (unsigned long long)st.truncations);
  CHECK(answered > 1500);
  CHECK(st.hits > 300);
  CHECK(st.grown > 300);
  CHECK(st.truncations > 100);
  CHECK(interleaved_run(0x5EED1234ULL, 10000, &sum2, &st2, &answered2) == 0);
  CHECK_INT(answered2, answered);
  CHECK(sum2 == sum);
  CHECK_INT(st2.expansions, st.expansions);
}

/* An edit costs what it changes: on an open 100x100 grid with the tree of
** (50,50) grown to (0,0), blocking the far corner (99,0) cuts that leaf
** alone (a hit stays a hit, no cell settled), and unblocking it gives it
** its key again (one cell to settle before (0,0), which is farther). */
static void test_edit_is_local(void) {
  lds_Grid *g = lds_grid_new(NULL, 100, 100, NULL);
  lds_PathCache *pc = lds_path_cache_new(NULL, g, 1, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path = NULL;
  lds_PathCacheStats st;
  uint64_t n;
  lds_search_params_init(&p);
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 50, 50, 0, &n, &path, NULL), LDS_FOUND);
  CHECK(n > 9000);
  lds_path_free(path);
  lds_grid_set_blocked(g, 99, 0, true);
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 50, 50, 0, &n, &path, NULL), LDS_FOUND);
  CHECK_INT(n, 0);
  CHECK(agrees(g, s, &p, 0, 0, 50, 50, LDS_FOUND, path));
  lds_path_free(path);
  lds_grid_set_blocked(g, 99, 0, false);
  CHECK_INT(lds_path_cache_query(pc, &p, 0, 0, 50, 50, 0, &n, &path, NULL), LDS_FOUND);
  CHECK_INT(n, 1);
  CHECK(agrees(g, s, &p, 0, 0, 50, 50, LDS_FOUND, path));
  lds_path_free(path);
  CHECK_INT(lds_path_cache_query(pc, &p, 99, 0, 50, 50, 0, &n, &path, NULL), LDS_FOUND);
  CHECK_INT(n, 0);
  CHECK(agrees(g, s, &p, 99, 0, 50, 50, LDS_FOUND, path));
  lds_path_free(path);
  lds_path_cache_stats(pc, &st);
  CHECK_INT(st.truncations, 1);
  CHECK_INT(st.resets, 2);
  lds_path_cache_free(pc);
  lds_search_free(s);
  lds_grid_free(g);
}

void suite_path_cache(void);
void suite_path_cache(void) {
  test_bad_queries();
  test_sliced_and_declined();
  test_random_queries_and_edits();
  test_interleaved_edits();
  test_edit_is_local();
  test_scheduler();
}
