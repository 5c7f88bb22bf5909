/* SPDX-License-Identifier: MIT */
/* test_scheduler_hier.c — hierarchy requests in the scheduler
** (lds_Request.hierarchy, lds_scheduler_hier.c): fast and optimal
** hierarchy requests, on a hierarchy without weights and on one with a
** layer weight, run interleaved with A* requests under small budgets while
** random edits (walls toggled, costs raised and lowered, layer values
** written) land between ticks. Every delivered path is checked at delivery,
** on the grid as it is then: legal with its cost recomputed, optimal (equal
** to a fresh lds_search with the same weights) for the optimal mode and A*,
** within 25 % for the fast mode; every partial path (the refined prefix) is
** legal and, when no restart came between, the final path begins with it.
** Submission errors and lds_scheduler_drop_hierarchy are checked too. */
#include "harness.h"
#include "lds.h"
#include "lds_hpa.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define W 96
#define H 80

typedef struct Tag {
  int kind;          /* 0 A*, 1 fast, 2 optimal (no weights), 3 optimal (weighted) */
  lds_Path *prefix;  /* the last partial path, a copy */
  uint32_t prefix_restarts;
  bool done;
} Tag;

typedef struct World {
  lds_Grid *g;
  lds_Search *ref;
  double wmud[1];
  int delivered[4], nopath, partials, prefix_checked, failures;
} World;

static World *world;

#define NREQ 48
static lds_Request test_hier_reqs[NREQ];
static Tag test_hier_tags[NREQ];

static uint32_t rng = 12345;
static uint32_t rnd(void) {
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

static double fresh_cost(lds_Search *s, const lds_Request *rq, bool weighted) {
  lds_SearchParams p;
  lds_search_params_init(&p);
  if (weighted) {
    p.layer_weights = world->wmud;
    p.n_layer_weights = 1;
  }
  if (lds_search_start(s, &p, rq->sx, rq->sy, rq->gx, rq->gy) != LDS_OK) return -2;
  return lds_search_step(s, NULL) == LDS_FOUND ? lds_search_cost(s) : -1;
}

static bool legal(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                  bool goal, bool weighted) {
  lds_PathCheck pc;
  lds_path_check_init(&pc);
  pc.check_start = true;
  pc.sx = sx;
  pc.sy = sy;
  pc.check_goal = goal;
  pc.gx = gx;
  pc.gy = gy;
  pc.check_cost = true;
  if (weighted) {
    pc.layer_weights = world->wmud;
    pc.nlayers = 1;
  }
  return lds_path_check(g, p, &pc, NULL, NULL) == LDS_OK;
}

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Tag *t = (Tag *)ud;
  const lds_Path *p = lds_scheduler_path(sc, id);
  lds_RequestInfo ri;
  lds_Request rq;
  bool weighted = t->kind == 3;
  (void)info;
  lds_scheduler_info(sc, id, &ri);
  rq = test_hier_reqs[t - test_hier_tags]; /* the request's cells */
  if (ev == LDS_EVENT_PARTIAL) {
    world->partials++;
    CHECK(t->kind == 1);
    CHECK(p != NULL);
    if (!p) return LDS_OK;
    CHECK(lds_path_flags(p) & LDS_PATH_PARTIAL);
    CHECK(legal(world->g, p, rq.sx, rq.sy, rq.gx, rq.gy, false, false));
    lds_path_free(t->prefix);
    t->prefix = lds_path_sub(p, 0, lds_path_length(p) - 1, lds_path_cost(p), NULL);
    t->prefix_restarts = ri.restarts;
    return LDS_OK;
  }
  t->done = true;
  if (ri.status == LDS_NO_PATH) { /* an edit cut start from goal: a fresh search agrees */
    CHECK(fresh_cost(world->ref, &rq, weighted) == -1.0);
    world->nopath++;
    return LDS_OK;
  }
  CHECK_INT(ri.status, LDS_FOUND);
  if (ri.status != LDS_FOUND || !p) {
    world->failures++;
    return LDS_OK;
  }
  world->delivered[t->kind]++;
  CHECK(legal(world->g, p, rq.sx, rq.sy, rq.gx, rq.gy, true, weighted));
  {
    double opt = fresh_cost(world->ref, &rq, weighted), c = lds_path_cost(p);
    if (t->kind == 1) {
      CHECK(c >= opt - 1e-9 * opt && c <= 1.25 * opt + 1e-9);
    } else {
      CHECK_NEAR(c, opt, 1e-9 * (opt > 1 ? opt : 1));
    }
  }
  if (t->prefix && t->prefix_restarts == ri.restarts) {
    size_t i, n = lds_path_length(t->prefix);
    bool same = n <= lds_path_length(p);
    for (i = 0; same && i < n; i++) {
      int32_t ax, ay, bx, by;
      lds_path_cell(t->prefix, i, &ax, &ay);
      lds_path_cell(p, i, &bx, &by);
      same = ax == bx && ay == by;
    }
    CHECK(same);
    world->prefix_checked++;
  }
  return LDS_OK;
}


static void random_cell(const lds_Grid *g, int32_t *x, int32_t *y) {
  do {
    *x = (int32_t)(rnd() % W);
    *y = (int32_t)(rnd() % H);
  } while (lds_grid_blocked(g, *x, *y));
}

void suite_scheduler_hier(void);
void suite_scheduler_hier(void) {
  World w;
  lds_Grid *g = lds_grid_new(NULL, W, H, NULL), *other = lds_grid_new(NULL, 8, 8, NULL);
  lds_HpaParams hp;
  lds_Hpa *h0, *h1, *ho;
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_RequestId ids[NREQ];
  lds_Request rq;
  lds_RequestId bad;
  int32_t x, y, layer = -1;
  int i, round;
  memset(&w, 0, sizeof w);
  world = &w;
  w.g = g;
  w.wmud[0] = 2.0;
  w.ref = lds_search_new(NULL, g, NULL);
  CHECK_INT(lds_grid_layer_add(g, "mud", &layer), LDS_OK);
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      uint32_t r = rnd() % 100;
      if (r < 18) lds_grid_set_blocked(g, x, y, true);
      else if (r < 30) lds_grid_set_cost(g, x, y, 3.0f);
      if (x > 40 && x < 60) lds_grid_layer_set(g, layer, x, y, 1.5f);
    }
  lds_hpa_params_init(&hp);
  hp.cluster_size = 4; /* a short smoothing horizon (8 sides): partial paths grow early */
  hp.landmarks = 4;
  h0 = lds_hpa_new(NULL, g, &hp, NULL);
  hp.layer_weights = w.wmud;
  hp.n_layer_weights = 1;
  h1 = lds_hpa_new(NULL, g, &hp, NULL);
  ho = lds_hpa_new(NULL, other, NULL, NULL);
  CHECK(h0 && h1 && ho);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.searches_per_grid = 3;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 0), LDS_OK);

  /* submission errors */
  lds_request_init(&rq, g, 0, 0, 5, 5);
  rq.hierarchy = ho;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &bad), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "another grid");
  rq.hierarchy = h0;
  rq.hierarchy_mode = 7;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &bad), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "hierarchy_mode 7");
  rq.hierarchy_mode = LDS_HPA_FAST;
  rq.params.layer_weights = w.wmud;
  rq.params.n_layer_weights = 1;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &bad), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "layer weights");
  rq.params.n_layer_weights = 0;
  rq.quick_expansions = 10;
  CHECK_INT(lds_scheduler_submit(sc, &rq, &bad), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "quick_expansions");

  for (round = 0; round < 4; round++) {
    int n = NREQ / 4, base = round * n, pending = 1, ticks = 0;
    for (i = base; i < base + n; i++) {
      Tag *t = &test_hier_tags[i];
      int32_t sx, sy, gx, gy;
      random_cell(g, &sx, &sy);
      do random_cell(g, &gx, &gy); while (abs(gx - sx) + abs(gy - sy) < 70);
      memset(t, 0, sizeof *t);
      t->kind = i % 4;
      lds_request_init(&test_hier_reqs[i], g, sx, sy, gx, gy);
      test_hier_reqs[i].on_done = on_done;
      test_hier_reqs[i].ud = t;
      if (t->kind == 1 || t->kind == 2) test_hier_reqs[i].hierarchy = h0;
      if (t->kind == 3) test_hier_reqs[i].hierarchy = h1;
      test_hier_reqs[i].hierarchy_mode = t->kind == 1 ? LDS_HPA_FAST : LDS_HPA_OPTIMAL;
      CHECK_INT(lds_scheduler_submit(sc, &test_hier_reqs[i], &ids[i]), LDS_OK);
    }
    if (round == 0) {
      CHECK_INT(lds_scheduler_drop_hierarchy(sc, h0), LDS_E_STATE);
      CHECK_CONTAINS(lds_scheduler_errmsg(sc), "still uses the hierarchy");
    }
    while (pending && ticks < 100000) {
      lds_Budget b = {150, 0};
      lds_scheduler_step(sc, &b, NULL);
      ticks++;
      /* edits between ticks: a wall toggled (never on a request's start or
      ** goal), a cost raised or lowered, a layer value written */
      if (ticks % 3 == 0) {
        int32_t ex = (int32_t)(rnd() % W), ey = (int32_t)(rnd() % H);
        uint32_t kind = rnd() % 4;
        bool endpoint = false;
        for (i = base; i < base + n; i++)
          endpoint |= (ex == test_hier_reqs[i].sx && ey == test_hier_reqs[i].sy) ||
                      (ex == test_hier_reqs[i].gx && ey == test_hier_reqs[i].gy);
        if (!endpoint) {
          if (kind == 0) lds_grid_set_blocked(g, ex, ey, !lds_grid_blocked(g, ex, ey));
          else if (kind == 1) lds_grid_set_cost(g, ex, ey, 1.0f + (float)(rnd() % 4));
          else if (kind == 2) lds_grid_set_cost(g, ex, ey, 1.0f);
          else lds_grid_layer_set(g, layer, ex, ey, (float)(rnd() % 3) * 0.5f);
        }
      }
      pending = 0;
      for (i = base; i < base + n; i++) pending += !test_hier_tags[i].done;
    }
    CHECK_INT(pending, 0);
    for (i = base; i < base + n; i++) {
      lds_path_free(test_hier_tags[i].prefix);
      lds_scheduler_release(sc, ids[i]);
    }
  }
  CHECK_INT(w.failures, 0);
  CHECK_INT(w.delivered[0] + w.delivered[1] + w.delivered[2] + w.delivered[3] + w.nopath, NREQ);
  CHECK(w.nopath <= 4);
  for (i = 0; i < 4; i++) CHECK(w.delivered[i] >= NREQ / 4 - 4);
  CHECK(w.partials > 0);
  CHECK(w.prefix_checked > 0);
  {
    lds_EditStats es;
    lds_scheduler_edit_stats(sc, &es);
    CHECK(es.edits > 0 && es.disturbed > 0);
  }
  /* every request done: the hierarchies can be dropped, then freed */
  CHECK_INT(lds_scheduler_drop_hierarchy(sc, h0), LDS_OK);
  CHECK_INT(lds_scheduler_drop_hierarchy(sc, h1), LDS_OK);
  lds_hpa_free(h0);
  lds_hpa_free(h1);
  lds_hpa_free(ho);
  lds_scheduler_free(sc);
  lds_search_free(w.ref);
  lds_grid_free(g);
  lds_grid_free(other);
}
