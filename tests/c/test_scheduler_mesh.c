/* SPDX-License-Identifier: MIT */
/* test_scheduler_mesh.c — mesh requests in the scheduler
** (lds_scheduler_submit_nav, lds_scheduler_nav.c): 200 random queries of
** four agent classes (funnel, funnel with area costs, optimal with a
** blocked area and partial paths, the fast funnel with a blocked area) on
** a 2-D and a 3-D mesh of ../shared/data/navmesh (areas painted per
** polygon; a mesh built from a grid and a sloped copy of it when the
** shared data is absent), all submitted at once and sliced by ticks of 40
** expansions: every delivered path equals the one-shot lds_navsearch
** answer bit for bit (points, length, cost, corridor, partial flag,
** expansions), no tick runs past its budget, delivery follows priority
** then submission on each mesh, two runs deliver in the same frames.
** Then grid and mesh requests mixed in one scheduler (grid edits between
** ticks leave mesh requests alone), cancel / release / auto-release, bad
** points and bad parameters (only their request fails), remove_navmesh,
** the timed mode, and allocation failures. */
#include "harness.h"
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NQ 200
#define NCLASS 4
#define BUDGET 40

static uint32_t mesh_rng = 99991;
static uint32_t rnd(void) {
  mesh_rng = mesh_rng * 1664525u + 1013904223u;
  return mesh_rng >> 8;
}
static double unit(void) { return (double)(rnd() & 0xFFFF) / 65536.0; }

/* A copy of mesh m with area (p * 7) % 3 on polygon p and, with slope,
** y raised by slope * x (the fallback 3-D mesh). */
static lds_Navmesh *painted(const lds_Navmesh *m, double slope) {
  uint32_t nv = lds_navmesh_vertex_count(m), np = lds_navmesh_poly_count(m), p, k, ni = 0;
  double *v = (double *)malloc(3 * (size_t)nv * sizeof(double) + 1);
  uint32_t *start = (uint32_t *)malloc(((size_t)np + 1) * sizeof(uint32_t));
  uint32_t *idx = NULL;
  uint8_t *area = (uint8_t *)malloc((size_t)np + 1);
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *out;
  memcpy(v, lds_navmesh_vertices(m), 3 * (size_t)nv * sizeof(double));
  for (k = 0; k < nv; k++) v[3 * k + 1] += slope * v[3 * k];
  for (p = 0; p < np; p++) {
    const uint32_t *vi;
    ni += lds_navmesh_poly(m, p, &vi, NULL);
  }
  idx = (uint32_t *)malloc((size_t)ni * sizeof(uint32_t) + 1);
  ni = 0;
  for (p = 0; p < np; p++) {
    const uint32_t *vi;
    uint32_t n = lds_navmesh_poly(m, p, &vi, NULL);
    start[p] = ni;
    for (k = 0; k < n; k++) idx[ni++] = vi[k];
    area[p] = (uint8_t)((p * 7) % 3);
  }
  start[np] = ni;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = nv;
  d.poly_verts = idx;
  d.poly_start = start;
  d.n_polys = np;
  d.areas = area;
  out = lds_navmesh_new(NULL, &d, &err);
  if (!out) printf("  painted mesh: %s\n", err.msg);
  free(v);
  free(start);
  free(idx);
  free(area);
  return out;
}

/* The two meshes of the test: shared 2-D and 3-D ones, else a grid's. */
static void load_meshes(lds_Navmesh *out[2]) {
  static const char *const files[2] = {"2d/den011d.nav", "3d/nav_test.nav"};
  int i;
  for (i = 0; i < 2; i++) {
    char path[512];
    lds_Error err;
    lds_Navmesh *m;
    snprintf(path, sizeof path, "%s/data/navmesh/%s", LDS_SHARED_DIR, files[i]);
    m = lds_navmesh_load(NULL, path, &err);
    if (!m) {
      lds_Grid *g = lds_grid_new(NULL, 40, 30, &err);
      int32_t x, y;
      printf("  %s not found: a mesh of a 40x30 grid instead\n", path);
      for (y = 0; y < 30; y++)
        for (x = 0; x < 40; x++)
          if ((x % 8 == 4 && y % 10 != 5) || (y % 9 == 3 && x % 13 == 2))
            lds_grid_set_blocked(g, x, y, true);
      m = lds_grid_to_navmesh(NULL, g, NULL, NULL, &err);
      lds_grid_free(g);
      out[i] = m ? painted(m, i ? 0.25 : 0.0) : NULL;
    } else {
      out[i] = painted(m, 0.0);
    }
    lds_navmesh_free(m);
  }
}

/* A random point inside a random polygon of m (of piece `piece`, unless
** LDS_NAVMESH_NONE), on its surface; returns the polygon's piece. */
static uint32_t rand_point_in(const lds_Navmesh *m, double p[3], uint32_t piece) {
  uint32_t poly = rnd() % lds_navmesh_poly_count(m), n, k;
  const uint32_t *vi;
  double wsum = 0, v[3];
  n = lds_navmesh_poly(m, poly, &vi, NULL);
  p[0] = p[1] = p[2] = 0;
  for (k = 0; k < n; k++) {
    double w = 0.05 + unit();
    lds_navmesh_vertex(m, vi[k], v);
    p[0] += w * v[0];
    p[2] += w * v[2];
    wsum += w;
  }
  p[0] /= wsum;
  p[2] /= wsum;
  p[1] = lds_navmesh_poly_height(m, poly, p[0], p[2]);
  if (piece != LDS_NAVMESH_NONE && lds_navmesh_piece(m, poly) != piece)
    return rand_point_in(m, p, piece);
  return lds_navmesh_piece(m, poly);
}

static void rand_point(const lds_Navmesh *m, double p[3]) { (void)rand_point_in(m, p, LDS_NAVMESH_NONE); }

static const double class_costs[NCLASS][3] = {
    {1, 1, 1}, {1, 2.5, 1.5}, {1, 1, INFINITY}, {1, INFINITY, 1}};

/* The parameters of agent class c (costs point into class_costs). */
static void class_params(int c, lds_NavParams *p) {
  lds_nav_params_init(p);
  p->algo = c == 2 ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
  if (c > 0) {
    p->area_costs = class_costs[c];
    p->n_area_costs = 3;
  }
  p->partial = c >= 2;
  p->thorough = c != 3;
}

typedef struct Query {
  int mesh, cls;
  double a[3], b[3];
  int32_t priority;
  lds_RequestId id;
  uint64_t frame;  /* tick of delivery */
  int order;       /* delivery rank on its mesh */
  int done;
} Query;

static Query qs[NQ];
static int delivered_on[2];
static lds_Scheduler *cb_sc;

static lds_Status on_query(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                           const lds_RequestInfo *info) {
  Query *q = (Query *)ud;
  (void)info;
  CHECK(sc == cb_sc && id == q->id && ev == LDS_EVENT_DONE);
  q->done++;
  q->frame = lds_scheduler_frame(sc);
  q->order = delivered_on[q->mesh]++;
  return LDS_OK;
}

/* Compares request q's result with a one-shot search s of the same query. */
static int same_as_one_shot(lds_Scheduler *sc, const Query *q, lds_NavSearch *s) {
  lds_NavParams p;
  lds_Status st, rst = lds_scheduler_status(sc, q->id);
  lds_NavPath np;
  lds_RequestInfo info;
  lds_Stats stats;
  const double *pts;
  const uint32_t *corr;
  size_t n, nc;
  double len, cost;
  int ok = 1;
  class_params(q->cls, &p);
  st = lds_navsearch_start(s, &p, q->a, q->b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  if (st != rst) {
    printf("  query %d: status %s, one-shot %s\n", (int)(q - qs), lds_status_name(rst),
           lds_status_name(st));
    return 0;
  }
  lds_navsearch_stats(s, &stats);
  lds_scheduler_info(sc, q->id, &info);
  if (info.expansions != stats.expansions) ok = 0;
  pts = lds_navsearch_points(s, &n);
  if (!pts) return ok && lds_scheduler_nav_path(sc, q->id, &np) == LDS_E_STATE;
  if (lds_scheduler_nav_path(sc, q->id, &np) != LDS_OK) return 0;
  len = lds_navsearch_length(s);
  cost = lds_navsearch_cost(s);
  corr = lds_navsearch_corridor(s, &nc);
  if (np.n_points != n || memcmp(np.points, pts, 3 * n * sizeof(double)) != 0) ok = 0;
  if (memcmp(&np.length, &len, sizeof len) != 0 || memcmp(&np.cost, &cost, sizeof cost) != 0) ok = 0;
  if (np.n_corridor != nc || (nc && memcmp(np.corridor, corr, nc * sizeof(uint32_t)) != 0)) ok = 0;
  if (np.partial != lds_navsearch_is_partial(s) || np.algo != p.algo) ok = 0;
  if (info.path_length != n || memcmp(&info.cost, &cost, sizeof cost) != 0) ok = 0;
  if (!ok) printf("  query %d (class %d) differs from its one-shot search\n", (int)(q - qs), q->cls);
  return ok;
}

/* Runs the 200 queries once; fills frames[] with each one's delivery tick. */
static void run_queries(lds_Navmesh *m[2], uint64_t frames[NQ], int check) {
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Error err;
  lds_TickStats ts;
  lds_Budget b = {BUDGET, 0};
  lds_NavSearch *one[2];
  int i, ticks = 0, over = 0, mism = 0, found = 0, partial = 0, nopath = 0, failed = 0;
  int order_bad = 0;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.aging_frames = 1000000; /* priority decides within this test's frames */
  sc = lds_scheduler_new(NULL, &cfg, &err);
  cb_sc = sc;
  CHECK_INT(lds_scheduler_add_navmesh(sc, m[0], 1), LDS_OK);
  CHECK_INT(lds_scheduler_add_navmesh(sc, m[1], 1), LDS_OK);
  delivered_on[0] = delivered_on[1] = 0;
  for (i = 0; i < NQ; i++) {
    lds_NavRequest rq;
    Query *q = &qs[i];
    q->done = 0;
    lds_nav_request_init(&rq, m[q->mesh], q->a, q->b);
    class_params(q->cls, &rq.params);
    rq.priority = q->priority;
    rq.agent_id = 1000 + i;
    rq.on_done = on_query;
    rq.ud = q;
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &q->id), LDS_OK);
  }
  CHECK_INT(lds_scheduler_pending(sc), NQ);
  while (lds_scheduler_pending(sc) > 0 && ticks < 100000) {
    CHECK_INT(lds_scheduler_step(sc, &b, &ts), LDS_OK);
    if (ts.expansions > BUDGET + 1) over++;
    ticks++;
  }
  CHECK_INT(over, 0);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  for (i = 0; i < NQ; i++) {
    CHECK_INT(qs[i].done, 1);
    frames[i] = qs[i].frame;
  }
  if (check) {
    one[0] = lds_navsearch_new(NULL, m[0], &err);
    one[1] = lds_navsearch_new(NULL, m[1], &err);
    for (i = 0; i < NQ; i++) {
      lds_Status st = lds_scheduler_status(sc, qs[i].id);
      lds_NavPath np;
      if (!same_as_one_shot(sc, &qs[i], one[qs[i].mesh])) mism++;
      if (st == LDS_FOUND) found++;
      else if (st == LDS_NO_PATH) nopath++;
      else failed++;
      if (lds_scheduler_nav_path(sc, qs[i].id, &np) == LDS_OK && np.partial) partial++;
    }
    /* one search per mesh: requests start, so finish, in key order
    ** (priority, then submission) on each mesh */
    for (i = 0; i < NQ; i++) {
      int j;
      for (j = 0; j < NQ; j++) {
        const Query *a = &qs[i], *c = &qs[j];
        if (a->mesh != c->mesh || i == j) continue;
        if ((a->priority > c->priority || (a->priority == c->priority && i < j)) &&
            a->order > c->order)
          order_bad++;
      }
    }
    printf("  %d queries in %d ticks of %d expansions: %d found (%d partial), %d no path, %d "
           "failed\n", NQ, ticks, BUDGET, found, partial, nopath, failed);
    CHECK_INT(mism, 0);
    CHECK_INT(order_bad, 0);
    CHECK_INT(failed, 0);
    CHECK(found > NQ / 2);
    CHECK(nopath > 0);
    CHECK(partial > 0);
    CHECK(ticks > 20); /* really sliced */
    lds_navsearch_free(one[0]);
    lds_navsearch_free(one[1]);
  }
  for (i = 0; i < NQ; i++) CHECK_INT(lds_scheduler_release(sc, qs[i].id), LDS_OK);
  lds_scheduler_free(sc);
}

static void test_sliced(lds_Navmesh *m[2]) {
  static uint64_t f1[NQ], f2[NQ];
  int i, same = 1;
  for (i = 0; i < NQ; i++) {
    Query *q = &qs[i];
    q->mesh = i % 2;
    q->cls = (int)(rnd() % NCLASS);
    q->priority = (int32_t)(rnd() % 4);
    /* mostly in the start's piece (nav_test has 17), some anywhere */
    rand_point_in(m[q->mesh], q->b,
                  i % 10 ? rand_point_in(m[q->mesh], q->a, LDS_NAVMESH_NONE) : LDS_NAVMESH_NONE);
    if (i % 10 == 0) rand_point(m[q->mesh], q->a);
  }
  run_queries(m, f1, 1);
  run_queries(m, f2, 0); /* deterministic mode: the same frames */
  for (i = 0; i < NQ; i++)
    if (f1[i] != f2[i]) same = 0;
  CHECK(same);
}

/* Grid and mesh requests in one scheduler, grid edits between ticks. */
static void test_mixed(lds_Navmesh *m) {
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, 60, 40, &err);
  lds_Search *ref = lds_search_new(NULL, g, &err);
  lds_NavSearch *one = lds_navsearch_new(NULL, m, &err);
  lds_RequestId gid[30], mid[30];
  lds_Request gr[30];
  double ma[30][3], mb[30][3];
  lds_Budget b = {60, 0};
  lds_TickStats ts;
  int i, ticks = 0, over = 0, bad = 0, grid_exp = 0, mesh_exp = 0;
  int32_t x, y;
  for (y = 0; y < 40; y++)
    for (x = 0; x < 60; x++)
      if (x % 10 == 5 && y % 13 != 6) lds_grid_set_blocked(g, x, y, true);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, &err);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 2), LDS_OK);
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 2), LDS_OK);
  for (i = 0; i < 30; i++) {
    lds_NavRequest rq;
    lds_request_init(&gr[i], g, (int32_t)(rnd() % 5), (int32_t)(rnd() % 40),
                     (int32_t)(55 + rnd() % 5), (int32_t)(rnd() % 40));
    gr[i].priority = (int32_t)(rnd() % 3);
    CHECK_INT(lds_scheduler_submit(sc, &gr[i], &gid[i]), LDS_OK);
    rand_point(m, ma[i]);
    rand_point(m, mb[i]);
    lds_nav_request_init(&rq, m, ma[i], mb[i]);
    rq.priority = (int32_t)(rnd() % 3);
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &mid[i]), LDS_OK);
  }
  while (lds_scheduler_pending(sc) > 0 && ticks < 100000) {
    CHECK_INT(lds_scheduler_step(sc, &b, &ts), LDS_OK);
    if (ts.expansions > 60 + 1) over++;
    /* a cost edit far from every path: the grid's listener runs, the mesh
    ** requests are none of its business */
    lds_grid_set_cost(g, 0, 0, ticks % 2 ? 1.0f : 2.0f);
    ticks++;
  }
  CHECK_INT(over, 0);
  for (i = 0; i < 30; i++) {
    lds_RequestInfo info;
    lds_SearchParams sp;
    lds_NavPath np;
    const lds_Path *p = lds_scheduler_path(sc, gid[i]);
    lds_search_params_init(&sp);
    lds_search_start(ref, &sp, gr[i].sx, gr[i].sy, gr[i].gx, gr[i].gy);
    if (lds_search_step(ref, NULL) == LDS_FOUND) {
      if (!p || fabs(lds_path_cost(p) - lds_search_cost(ref)) > 1e-9) bad++;
    } else if (p) {
      bad++;
    }
    lds_scheduler_info(sc, gid[i], &info);
    grid_exp += info.expansions > 0;
    lds_scheduler_info(sc, mid[i], &info);
    mesh_exp += info.expansions > 0;
    CHECK_INT(info.restarts, 0);
    CHECK(lds_scheduler_path(sc, mid[i]) == NULL); /* a mesh path is read with nav_path */
    {
      lds_NavParams p0;
      lds_nav_params_init(&p0);
      if (lds_navsearch_start(one, &p0, ma[i], mb[i]) == LDS_RUNNING &&
          lds_navsearch_step(one, NULL) == LDS_FOUND) {
        size_t n;
        const double *pts = lds_navsearch_points(one, &n);
        if (lds_scheduler_nav_path(sc, mid[i], &np) != LDS_OK || np.n_points != n ||
            memcmp(np.points, pts, 3 * n * sizeof(double)) != 0)
          bad++;
      } else if (lds_scheduler_nav_path(sc, mid[i], &np) == LDS_OK) {
        bad++;
      }
    }
  }
  CHECK_INT(bad, 0);
  CHECK(grid_exp > 20 && mesh_exp > 20);
  lds_scheduler_free(sc);
  lds_navsearch_free(one);
  lds_search_free(ref);
  lds_grid_free(g);
}

static int cb_count;
static lds_RequestId cb_cancel;
static lds_Status on_count(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                           const lds_RequestInfo *info) {
  (void)ud;
  (void)ev;
  (void)info;
  cb_count++;
  if (cb_cancel) { /* cancel another request from a callback */
    CHECK_INT(lds_scheduler_cancel(sc, cb_cancel), LDS_OK);
    cb_cancel = 0;
  }
  CHECK(lds_scheduler_status(sc, id) != LDS_RUNNING);
  return LDS_OK;
}

/* Cancel, release, auto-release, set_priority, info, errors, removal. */
static void test_lifecycle(lds_Navmesh *m) {
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Error err;
  lds_NavRequest rq;
  lds_RequestId id[8], bad_start, bad_goal, opt_costs, autorel, other;
  lds_RequestInfo info;
  lds_NavPath np;
  lds_TickStats ts;
  lds_Budget one = {1, 0};
  double a[3], b[3], far[3] = {1e6, 0, 1e6}, nanp[3] = {0, NAN, 0}, costs[3] = {1, 2, 1};
  int i;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  sc = lds_scheduler_new(NULL, &cfg, &err);
  rand_point(m, a);
  rand_point(m, b);
  lds_nav_request_init(&rq, m, a, b);
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG); /* not added */
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "was not added");
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 1), LDS_OK);
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 1), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "already added");
  CHECK_INT(lds_scheduler_add_navmesh(sc, NULL, 1), LDS_E_ARG);
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 65), LDS_E_ARG);
  /* refused at submission, naming the field */
  lds_nav_request_init(&rq, m, nanp, b);
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "start[1] is nan");
  CHECK_INT(id[0], 0);
  lds_nav_request_init(&rq, m, a, b);
  rq.params.area_costs = costs;
  rq.params.n_area_costs = 3;
  costs[1] = -1;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "params.area_costs[1] is -1");
  costs[1] = 2;
  rq.params.n_area_costs = 300;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "n_area_costs 300");
  rq.params.n_area_costs = 3;
  rq.params.algo = (lds_NavAlgo)7;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "params.algo 7");
  rq.params.algo = LDS_NAV_FUNNEL;
  rq.flags = LDS_REQ_WATCH;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "flags");
  rq.flags = 0;
  rq.priority = 2000000;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "priority 2000000");
  rq.priority = 0;
  rq.params.snap_radius = -1;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[0]), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_errmsg(sc), "params.snap_radius is -1");
  rq.params.snap_radius = 2;
  CHECK_INT(lds_scheduler_pending(sc), 0);
  /* a request is copied: costs changed after submission do not matter */
  for (i = 0; i < 8; i++) {
    rand_point(m, a);
    rand_point(m, b);
    lds_nav_request_init(&rq, m, a, b);
    rq.params.area_costs = costs;
    rq.params.n_area_costs = 3;
    rq.on_done = on_count;
    rq.agent_id = 70 + i;
    rq.priority = i == 7 ? 5 : 0;
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[i]), LDS_OK);
  }
  costs[0] = costs[1] = costs[2] = -5; /* the scheduler kept its copies */
  /* failing requests: start, goal off the mesh; optimal with unequal costs */
  rand_point(m, a);
  lds_nav_request_init(&rq, m, far, a);
  rq.on_done = on_count;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &bad_start), LDS_OK);
  lds_nav_request_init(&rq, m, a, far);
  rq.on_done = on_count;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &bad_goal), LDS_OK);
  {
    double c2[3] = {1, 2, 1};
    lds_nav_request_init(&rq, m, a, a);
    rq.params.algo = LDS_NAV_OPTIMAL;
    rq.params.area_costs = c2;
    rq.params.n_area_costs = 3;
    rq.on_done = on_count;
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &opt_costs), LDS_OK);
  }
  lds_nav_request_init(&rq, m, a, a);
  rq.flags = LDS_REQ_AUTO_RELEASE;
  rq.on_done = on_count;
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &autorel), LDS_OK);
  lds_nav_request_init(&rq, m, a, a);
  CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &other), LDS_OK);
  CHECK_INT(lds_scheduler_set_params(sc, id[0], NULL), LDS_E_ARG);
  {
    lds_SearchParams sp;
    lds_search_params_init(&sp);
    CHECK_INT(lds_scheduler_set_params(sc, id[0], &sp), LDS_E_ARG);
    CHECK_CONTAINS(lds_scheduler_errmsg(sc), "is a mesh request");
  }
  /* set_priority on a queued mesh request: it goes first, fails at its
  ** start (no expansion), its callback cancels id[2]; then the priority-5
  ** request runs the tick's one expansion */
  CHECK_INT(lds_scheduler_set_priority(sc, opt_costs, 9), LDS_OK);
  CHECK_INT(lds_scheduler_cancel(sc, id[1]), LDS_OK); /* queued */
  CHECK_INT(lds_scheduler_status(sc, id[1]), LDS_E_ARG); /* stale */
  cb_count = 0;
  cb_cancel = id[2];
  CHECK_INT(lds_scheduler_step(sc, &one, &ts), LDS_OK);
  CHECK(ts.expansions <= 1);
  CHECK_INT(lds_scheduler_status(sc, opt_costs), LDS_E_ARG);
  CHECK_INT(cb_count >= 1, 1);
  lds_scheduler_info(sc, id[7], &info);
  CHECK((info.flags & LDS_REQINFO_STARTED) != 0);
  CHECK_INT(info.agent_id, 77);
  CHECK_INT(info.priority, 5);
  CHECK_INT(info.restarts, 0);
  lds_scheduler_info(sc, id[6], &info);
  CHECK_INT(info.flags & LDS_REQINFO_STARTED, 0);
  while (lds_scheduler_pending(sc) > 0) CHECK_INT(lds_scheduler_step(sc, NULL, &ts), LDS_OK);
  CHECK_INT(cb_count, 12 - 2); /* 12 with a callback, id[1] and id[2] cancelled */
  CHECK_INT(lds_scheduler_status(sc, id[2]), LDS_E_ARG);
  CHECK_INT(lds_scheduler_status(sc, autorel), LDS_E_ARG); /* released after its callback */
  CHECK_INT(lds_scheduler_status(sc, bad_start), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_request_errmsg(sc, bad_start), "lds_scheduler_step: start (1e+06, 0, 1e+06) is not on the mesh");
  CHECK_INT(lds_scheduler_status(sc, bad_goal), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_request_errmsg(sc, bad_goal), "goal (1e+06, 0, 1e+06)");
  CHECK_INT(lds_scheduler_status(sc, opt_costs), LDS_E_ARG);
  CHECK_CONTAINS(lds_scheduler_request_errmsg(sc, opt_costs), "optimal needs one cost");
  CHECK_INT(lds_scheduler_nav_path(sc, bad_start, &np), LDS_E_STATE);
  CHECK_INT(lds_scheduler_status(sc, other), LDS_FOUND);
  CHECK_INT(lds_scheduler_nav_path(sc, other, &np), LDS_OK);
  CHECK_INT(np.n_points, 1 + (np.n_points > 1)); /* start == goal: one or two points */
  for (i = 0; i < 8; i++) {
    if (i == 1 || i == 2) continue;
    CHECK(lds_scheduler_status(sc, id[i]) == LDS_FOUND || lds_scheduler_status(sc, id[i]) == LDS_NO_PATH);
  }
  /* release: the handle goes stale, its path with it */
  CHECK_INT(lds_scheduler_release(sc, id[0]), LDS_OK);
  CHECK_INT(lds_scheduler_nav_path(sc, id[0], &np), LDS_E_ARG);
  CHECK(np.points == NULL && np.n_points == 0);
  CHECK_INT(lds_scheduler_set_priority(sc, id[3], 1), LDS_E_STATE); /* finished */
  /* a grid request's handle is not a mesh path */
  {
    lds_Grid *g = lds_grid_new(NULL, 8, 8, &err);
    lds_Request gq;
    lds_RequestId gid;
    CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
    lds_request_init(&gq, g, 0, 0, 7, 7);
    CHECK_INT(lds_scheduler_submit(sc, &gq, &gid), LDS_OK);
    CHECK_INT(lds_scheduler_step(sc, NULL, &ts), LDS_OK);
    CHECK_INT(lds_scheduler_nav_path(sc, gid, &np), LDS_E_ARG);
    CHECK_INT(lds_scheduler_remove_grid(sc, g), LDS_OK);
    lds_grid_free(g);
  }
  /* remove_navmesh: pending requests end with "state", finished ones keep their paths */
  for (i = 0; i < 3; i++) {
    rand_point(m, a);
    rand_point(m, b);
    lds_nav_request_init(&rq, m, a, b);
    rq.on_done = on_count;
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[i]), LDS_OK);
  }
  CHECK_INT(lds_scheduler_step(sc, &one, &ts), LDS_OK);
  {
    lds_Status before[3];
    size_t pend = lds_scheduler_pending(sc);
    CHECK(pend >= 2); /* one expansion settles one request at most */
    for (i = 0; i < 3; i++) before[i] = lds_scheduler_status(sc, id[i]);
    cb_count = 0;
    CHECK_INT(lds_scheduler_remove_navmesh(sc, m), LDS_OK);
    CHECK_INT(cb_count, pend);
    for (i = 0; i < 3; i++) {
      if (before[i] != LDS_RUNNING) continue;
      CHECK_INT(lds_scheduler_status(sc, id[i]), LDS_E_STATE);
      CHECK_CONTAINS(lds_scheduler_request_errmsg(sc, id[i]), "mesh was removed");
    }
  }
  CHECK_INT(lds_scheduler_nav_path(sc, other, &np), LDS_OK); /* still there */
  CHECK_INT(lds_scheduler_remove_navmesh(sc, m), LDS_E_ARG);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 0), LDS_OK); /* again */
  lds_scheduler_free(sc); /* frees the finished requests' paths too (ASan) */
}

/* The timed mode (the default): the same answers, whatever the frames. */
static void test_timed(lds_Navmesh *m) {
  lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
  lds_NavSearch *one = lds_navsearch_new(NULL, m, NULL);
  lds_RequestId id[40];
  double a[40][3], b[40][3];
  lds_Budget bud = {0, 200};
  int i, bad = 0, ticks = 0;
  CHECK_INT(lds_scheduler_add_navmesh(sc, m, 0), LDS_OK);
  for (i = 0; i < 40; i++) {
    lds_NavRequest rq;
    rand_point(m, a[i]);
    rand_point(m, b[i]);
    lds_nav_request_init(&rq, m, a[i], b[i]);
    rq.params.algo = i % 2 ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
    CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id[i]), LDS_OK);
  }
  while (lds_scheduler_pending(sc) > 0 && ticks < 1000000) {
    lds_scheduler_step(sc, &bud, NULL);
    ticks++;
  }
  for (i = 0; i < 40; i++) {
    lds_NavParams p;
    lds_NavPath np;
    lds_Status st;
    lds_nav_params_init(&p);
    p.algo = i % 2 ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
    st = lds_navsearch_start(one, &p, a[i], b[i]);
    if (st == LDS_RUNNING) st = lds_navsearch_step(one, NULL);
    if (st != lds_scheduler_status(sc, id[i])) bad++;
    if (st == LDS_FOUND) {
      size_t n;
      const double *pts = lds_navsearch_points(one, &n);
      if (lds_scheduler_nav_path(sc, id[i], &np) != LDS_OK || np.n_points != n ||
          memcmp(np.points, pts, 3 * n * sizeof(double)) != 0)
        bad++;
    }
  }
  CHECK_INT(bad, 0);
  CHECK_INT(lds_scheduler_pending(sc), 0);
  lds_navsearch_free(one);
  lds_scheduler_free(sc);
}

/* Every allocation of add, submit and a run failing in turn: a clean
** error or the right answer, never a leak. */
static void test_oom(lds_Navmesh *m) {
  long k;
  int clean = 1;
  for (k = 1; k < 400; k++) {
    th_Alloc a = {0, 0, 0, 0};
    lds_Env env;
    lds_Scheduler *sc;
    lds_NavRequest rq;
    lds_RequestId id;
    double p0[3], p1[3];
    uint32_t save = mesh_rng;
    memset(&env, 0, sizeof env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    a.fail_at = k;
    sc = lds_scheduler_new(&env, NULL, NULL);
    if (sc) {
      if (lds_scheduler_add_navmesh(sc, m, 1) == LDS_OK) {
        mesh_rng = 4242;
        rand_point(m, p0);
        rand_point(m, p1);
        lds_nav_request_init(&rq, m, p0, p1);
        if (lds_scheduler_submit_nav(sc, &rq, &id) == LDS_OK) {
          lds_Status st;
          lds_scheduler_step(sc, NULL, NULL);
          st = lds_scheduler_status(sc, id);
          if (st != LDS_FOUND && st != LDS_NO_PATH && st != LDS_E_NOMEM) clean = 0;
        }
      }
      lds_scheduler_free(sc);
    }
    mesh_rng = save;
    if (a.live != 0) clean = 0;
    if (a.count < k) break; /* every allocation was tried */
  }
  CHECK(clean);
}

void suite_scheduler_mesh(void);
void suite_scheduler_mesh(void) {
  lds_Navmesh *m[2];
  load_meshes(m);
  CHECK(m[0] != NULL && m[1] != NULL);
  if (!m[0] || !m[1]) return;
  test_sliced(m);
  test_mixed(m[0]);
  test_lifecycle(m[1]);
  test_timed(m[0]);
  test_oom(m[1]);
  lds_navmesh_free(m[0]);
  lds_navmesh_free(m[1]);
}
