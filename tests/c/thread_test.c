/* SPDX-License-Identifier: MIT */
/*
** thread_test.c — the thread model of docs/threads.md, checked: one grid and
** one graph shared by N worker threads, each with its own searches (A*,
** A* with layer weights, JPS, JPS+, Dijkstra and A* on the graph, D* Lite on
** the grid and on the graph, a scheduler), line-of-sight pruning on the
** shared grid. The main thread edits the grid and the graph between rounds,
** while every worker waits at a barrier (the edits reach the workers' JPS
** tables and D* Lite queues through the listeners). Every answer must equal,
** bit for bit, the answer of the same work done on the main thread alone.
**
** After a barrier every worker prepares NSUBS more JPS/JPS+ searches (each
** subscribes to the grid) and subscribes its D* Lite searches, all at once;
** every round starts with the grid's cheapest-cost cache
** and the graph's heuristic-scale cache invalidated by an edit, so the
** workers' first queries compute them concurrently: built with
** -fsanitize=thread (make sanitize) this reports any hidden write on the
** read paths (an unlocked listener list can also lose an update, and the
** next edit then calls a garbage listener: a crash even without TSan). Its
** own program (-pthread), run by `make test-thread` (part of `make test`).
*/
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include "lds.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NTHREADS 4
#define ROUNDS 3
#define NQ 16          /* grid queries per round */
#define W 72
#define H 64
#define NSUBS 32       /* extra JPS searches per worker (every 4th JPS+), prepared at once */

static int passed, failed;

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (cond)                                             \
      passed++;                                           \
    else {                                                \
      failed++;                                           \
      fprintf(stderr, "FAIL thread_test:%d: ", __LINE__); \
      fprintf(stderr, __VA_ARGS__);                       \
      fputc('\n', stderr);                                \
    }                                                     \
  } while (0)

/* One answer: status, cost bits, length and a hash of the nodes. */
typedef struct Answer {
  int status;
  double cost;
  size_t len;
  uint64_t hash;
} Answer;

enum { A_ASTAR, A_WEIGHTED, A_JPS, A_JPSP, A_PRUNED, A_GDIJ, A_GASTAR, A_SCHED, NKIND };

typedef struct Results {
  Answer q[ROUNDS][NKIND][NQ];
  Answer dstar[ROUNDS], dstar_graph[ROUNDS];
} Results;

typedef struct Worker {
  int index;
  const lds_Grid *grid;
  const lds_Graph *graph;
  lds_Search *astar, *weighted, *jps, *jpsp, *gsearch;
  lds_Search *subs[NSUBS]; /* prepared together: many listens at once */
  lds_DStar *ds, *dsg;
  lds_Scheduler *sc;
  Results *res;
  int setup_failed;
} Worker;

static int32_t qs[NQ][4]; /* the queries: sx, sy, gx, gy */
static pthread_barrier_t barrier;
static lds_Grid *shared_grid;
static lds_Graph *shared_graph;

static uint64_t hash_path(const lds_Path *p) {
  uint64_t h = 1469598103934665603ull;
  size_t i, n = lds_path_length(p);
  for (i = 0; i < n; i++) {
    h ^= lds_path_node(p, i);
    h *= 1099511628211ull;
  }
  return h;
}

static Answer answer_of(int status, const lds_Path *p) {
  Answer a;
  memset(&a, 0, sizeof a);
  a.status = status;
  a.cost = p ? lds_path_cost(p) : -1.0;
  a.len = p ? lds_path_length(p) : 0;
  a.hash = p ? hash_path(p) : 0;
  return a;
}

/* Runs one query to its end; the answer, and the path (caller frees) in *out. */
static Answer run_query(lds_Search *s, const lds_SearchParams *p, int q, bool graph,
                        lds_Path **out) {
  lds_Status st;
  lds_Path *path = NULL;
  Answer a;
  if (graph)
    st = lds_search_start_nodes(s, p, (uint32_t)(qs[q][1] * W + qs[q][0]),
                                (uint32_t)(qs[q][3] * W + qs[q][2]));
  else
    st = lds_search_start(s, p, qs[q][0], qs[q][1], qs[q][2], qs[q][3]);
  if (st == LDS_OK) st = lds_search_step(s, NULL);
  if (st == LDS_FOUND) path = lds_search_path(s, NULL);
  a = answer_of(st, path);
  if (out)
    *out = path;
  else
    lds_path_free(path);
  return a;
}

static Answer dstar_answer(lds_DStar *ds) {
  lds_Status st = lds_dstar_step(ds, NULL);
  lds_Path *p = st == LDS_FOUND ? lds_dstar_path(ds, NULL) : NULL;
  Answer a = answer_of(st, p);
  lds_path_free(p);
  return a;
}

static void worker_setup(Worker *w) {
  lds_SchedulerConfig cfg;
  lds_Error err;
  w->astar = lds_search_new(NULL, w->grid, &err);
  w->weighted = lds_search_new(NULL, w->grid, &err);
  w->jps = lds_search_new(NULL, w->grid, &err);
  w->jpsp = lds_search_new(NULL, w->grid, &err);
  w->gsearch = lds_search_new_graph(NULL, w->graph, &err);
  /* D* Lite: query 0's start and goal */
  w->ds = lds_dstar_new(NULL, w->grid, qs[0][0], qs[0][1], qs[0][2], qs[0][3], NULL, &err);
  w->dsg = lds_dstar_new_graph(NULL, w->graph, (uint32_t)(qs[0][1] * W + qs[0][0]),
                               (uint32_t)(qs[0][3] * W + qs[0][2]), NULL, &err);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  w->sc = lds_scheduler_new(NULL, &cfg, &err);
  w->setup_failed = !w->astar || !w->weighted || !w->jps || !w->jpsp || !w->gsearch || !w->ds ||
                    !w->dsg || !w->sc;
  {
    int i;
    for (i = 0; i < NSUBS; i++)
      if (!(w->subs[i] = lds_search_new(NULL, w->grid, &err))) w->setup_failed = 1;
  }
}

/* The subscriptions: they write into the shared grid's and graph's listener
** lists, in every worker at once. */
static void worker_subscribe(Worker *w) {
  int i;
  if (w->setup_failed) return;
  for (i = 0; i < NSUBS; i++)
    if (lds_search_jps_prepare(w->subs[i], i % 4 == 0) != LDS_OK) w->setup_failed = 1;
  if (lds_dstar_subscribe(w->ds, (lds_Grid *)(uintptr_t)w->grid) != LDS_OK ||
      lds_dstar_subscribe_graph(w->dsg, (lds_Graph *)(uintptr_t)w->graph) != LDS_OK ||
      lds_scheduler_add_grid(w->sc, w->grid, 2) != LDS_OK)
    w->setup_failed = 1;
}

static void worker_teardown(Worker *w) {
  int i;
  for (i = 0; i < NSUBS; i++) lds_search_free(w->subs[i]);
  lds_search_free(w->astar);
  lds_search_free(w->weighted);
  lds_search_free(w->jps);
  lds_search_free(w->jpsp);
  lds_search_free(w->gsearch);
  lds_dstar_free(w->ds);
  lds_dstar_free(w->dsg);
  lds_scheduler_free(w->sc);
}

/* One round of work on the shared objects; queries in a per-worker order. */
static void worker_round(Worker *w, int r) {
  lds_SearchParams p;
  lds_RequestId ids[NQ];
  double lw[1] = {0.75};
  int k;
  if (w->setup_failed) return;
  for (k = 0; k < NQ; k++) {
    int q = (k + w->index * 5) % NQ;
    lds_Path *path = NULL;
    lds_search_params_init(&p);
    w->res->q[r][A_ASTAR][q] = run_query(w->astar, &p, q, false, &path);
    if (path) { /* line-of-sight pruning reads the shared grid */
      lds_Path *pr = lds_path_prune_los(path, w->grid, NULL);
      w->res->q[r][A_PRUNED][q] = answer_of(pr ? LDS_OK : LDS_E_ARG, pr);
      lds_path_free(pr);
      lds_path_free(path);
    }
    p.layer_weights = lw;
    p.n_layer_weights = 1;
    w->res->q[r][A_WEIGHTED][q] = run_query(w->weighted, &p, q, false, NULL);
    lds_search_params_init(&p);
    p.algo = LDS_ALGO_JPS;
    w->res->q[r][A_JPS][q] = run_query(w->jps, &p, q, false, NULL);
    p.algo = LDS_ALGO_JPS_PLUS;
    w->res->q[r][A_JPSP][q] = run_query(w->jpsp, &p, q, false, NULL);
    lds_search_params_init(&p);
    p.algo = LDS_ALGO_DIJKSTRA;
    w->res->q[r][A_GDIJ][q] = run_query(w->gsearch, &p, q, true, NULL);
    p.algo = LDS_ALGO_ASTAR;
    w->res->q[r][A_GASTAR][q] = run_query(w->gsearch, &p, q, true, NULL);
  }
  w->res->dstar[r] = dstar_answer(w->ds);
  w->res->dstar_graph[r] = dstar_answer(w->dsg);
  /* the scheduler: every query as a request, ticked to the end */
  for (k = 0; k < NQ; k++) {
    lds_Request rq;
    lds_request_init(&rq, w->grid, qs[k][0], qs[k][1], qs[k][2], qs[k][3]);
    rq.params.algo = k % 2 ? LDS_ALGO_JPS : LDS_ALGO_ASTAR;
    if (lds_scheduler_submit(w->sc, &rq, &ids[k]) != LDS_OK) ids[k] = 0;
  }
  while (lds_scheduler_pending(w->sc) > 0) lds_scheduler_step(w->sc, &(lds_Budget){0, 50}, NULL);
  for (k = 0; k < NQ; k++) {
    w->res->q[r][A_SCHED][k] =
        answer_of(lds_scheduler_status(w->sc, ids[k]), lds_scheduler_path(w->sc, ids[k]));
    lds_scheduler_release(w->sc, ids[k]);
  }
}

static void *worker_main(void *ud) {
  Worker *w = (Worker *)ud;
  int r;
  pthread_barrier_wait(&barrier); /* all workers set up at once */
  worker_setup(w);
  pthread_barrier_wait(&barrier); /* and subscribe at once */
  worker_subscribe(w);
  for (r = 0; r < ROUNDS; r++) {
    pthread_barrier_wait(&barrier); /* the main thread's edit is done */
    worker_round(w, r);
    pthread_barrier_wait(&barrier); /* the main thread may edit */
  }
  worker_teardown(w); /* the unsubscriptions, concurrent too */
  return NULL;
}

/* ------------------------------------------------------ the world -- */

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

/* A deterministic maze-like grid (uniform cost, so JPS runs), a layer, and
** its graph; the cheapest-cost cache invalidated (a cost lowered, then
** raised back: the minimum must be recomputed). */
static int build_world(void) {
  lds_Error err;
  uint32_t seed = 12345;
  int32_t x, y;
  int layer, q;
  shared_grid = lds_grid_new(NULL, W, H, &err);
  if (!shared_grid) return 0;
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      if (lcg(&seed) % 100 < 28) lds_grid_set_blocked(shared_grid, x, y, true);
  if (lds_grid_layer_add(shared_grid, "danger", &layer) != LDS_OK) return 0;
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++)
      lds_grid_layer_set(shared_grid, layer, x, y, (float)(lcg(&seed) % 4));
  for (q = 0; q < NQ; q++) {
    int c;
    for (c = 0; c < 2; c++) {
      do {
        x = (int32_t)(lcg(&seed) % W);
        y = (int32_t)(lcg(&seed) % H);
      } while (lds_grid_blocked(shared_grid, x, y));
      qs[q][2 * c] = x;
      qs[q][2 * c + 1] = y;
    }
  }
  lds_grid_set_cost(shared_grid, 3, 3, 0.5f);
  lds_grid_set_cost(shared_grid, 3, 3, 1.0f);
  shared_graph = lds_graph_from_grid(NULL, shared_grid, &err);
  return shared_graph != NULL;
}

/* The edit after round r: cells blocked and unblocked, the cheapest-cost
** cache invalidated again, a graph edge raised (its heuristic-scale cache
** too: every edge of a graph from a uniform grid is tight). */
static void edit_world(int r) {
  int32_t k;
  for (k = 0; k < 6; k++) {
    int32_t x = 5 + 11 * k + r, y = 7 + 9 * r + k;
    if (x >= W - 1 || y >= H - 1) continue;
    lds_grid_set_blocked(shared_grid, x, y, !lds_grid_blocked(shared_grid, x, y));
  }
  lds_grid_set_cost(shared_grid, 2 + r, 5, 0.25f);
  lds_grid_set_cost(shared_grid, 2 + r, 5, 1.0f);
  lds_graph_set_edge_cost_id(shared_graph, (uint32_t)(40 * (r + 1)), 2.5);
}

static void free_world(void) {
  lds_graph_free(shared_graph);
  lds_grid_free(shared_grid);
}

static int same(const Answer *a, const Answer *b) {
  return a->status == b->status && memcmp(&a->cost, &b->cost, sizeof a->cost) == 0 &&
         a->len == b->len && a->hash == b->hash;
}

static const char *const kind_names[NKIND] = {"astar",          "astar+weights", "jps", "jps+",
                                              "prune_los",      "graph dijkstra",
                                              "graph astar",    "scheduler"};

int main(void) {
  static Results ref, got[NTHREADS];
  Worker w[NTHREADS], rw;
  pthread_t th[NTHREADS];
  int t, r, k, q, found = 0;

  /* the reference: the same work on the main thread alone */
  if (!build_world()) {
    fprintf(stderr, "thread_test: could not build the world\n");
    return 1;
  }
  memset(&rw, 0, sizeof rw);
  rw.grid = shared_grid;
  rw.graph = shared_graph;
  rw.res = &ref;
  worker_setup(&rw);
  worker_subscribe(&rw);
  CHECK(!rw.setup_failed, "reference setup");
  for (r = 0; r < ROUNDS; r++) {
    worker_round(&rw, r);
    if (r + 1 < ROUNDS) edit_world(r);
  }
  worker_teardown(&rw);
  free_world();
  for (r = 0; r < ROUNDS; r++)
    for (q = 0; q < NQ; q++) found += ref.q[r][A_ASTAR][q].status == LDS_FOUND;
  CHECK(found > ROUNDS * NQ / 2, "most reference queries find a path (%d of %d)", found,
        ROUNDS * NQ);
  CHECK(ref.dstar[0].status == LDS_FOUND && ref.q[0][A_ASTAR][0].status == LDS_FOUND,
        "reference D* Lite and A* find a path");
  CHECK(fabs(ref.dstar[0].cost - ref.q[0][A_ASTAR][0].cost) < 1e-9 &&
            fabs(ref.dstar_graph[0].cost - ref.q[0][A_ASTAR][0].cost) < 1e-9,
        "reference D* Lite costs %.17g and %.17g, A* %.17g", ref.dstar[0].cost,
        ref.dstar_graph[0].cost, ref.q[0][A_ASTAR][0].cost);

  /* the same world again, shared by the workers */
  if (!build_world()) {
    fprintf(stderr, "thread_test: could not build the world\n");
    return 1;
  }
  pthread_barrier_init(&barrier, NULL, NTHREADS + 1);
  for (t = 0; t < NTHREADS; t++) {
    memset(&w[t], 0, sizeof w[t]);
    w[t].index = t + 1;
    w[t].grid = shared_grid;
    w[t].graph = shared_graph;
    w[t].res = &got[t];
    pthread_create(&th[t], NULL, worker_main, &w[t]);
  }
  pthread_barrier_wait(&barrier); /* setup */
  pthread_barrier_wait(&barrier); /* subscriptions */
  for (r = 0; r < ROUNDS; r++) {
    pthread_barrier_wait(&barrier); /* round r runs */
    pthread_barrier_wait(&barrier); /* round r done */
    if (r + 1 < ROUNDS) edit_world(r); /* after the last round the workers free their searches */
  }
  for (t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
  pthread_barrier_destroy(&barrier);
  free_world();

  for (t = 0; t < NTHREADS; t++) {
    CHECK(!w[t].setup_failed, "worker %d setup", t);
    for (r = 0; r < ROUNDS; r++) {
      for (k = 0; k < NKIND; k++)
        for (q = 0; q < NQ; q++)
          CHECK(same(&got[t].q[r][k][q], &ref.q[r][k][q]),
                "worker %d round %d %s query %d: status %d cost %.17g len %zu, expected "
                "status %d cost %.17g len %zu",
                t, r, kind_names[k], q, got[t].q[r][k][q].status, got[t].q[r][k][q].cost,
                got[t].q[r][k][q].len, ref.q[r][k][q].status, ref.q[r][k][q].cost,
                ref.q[r][k][q].len);
      CHECK(same(&got[t].dstar[r], &ref.dstar[r]), "worker %d round %d D* Lite", t, r);
      CHECK(same(&got[t].dstar_graph[r], &ref.dstar_graph[r]),
            "worker %d round %d D* Lite on the graph", t, r);
    }
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
