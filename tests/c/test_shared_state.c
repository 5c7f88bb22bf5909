/* SPDX-License-Identifier: MIT */
/*
** test_shared_state.c — the state a reader may write in a shared grid or
** graph (docs/threads.md), single-threaded: the lds_grid_min_cost and
** lds_graph_h_scale caches keep their answers across edits and clones, and
** the listener lock is released on every path (an out-of-memory listen, an
** absent unlisten), so the next call does not spin forever. The threaded
** checks are tests/c/thread_test.c.
*/
#include "harness.h"
#include "lds.h"

static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  (void)g, (void)x0, (void)y0, (void)x1, (void)y1, (void)version;
  ++*(int *)ud;
}

static void on_graph_edit(void *ud, const lds_Graph *g, uint32_t edge, uint32_t from, uint32_t to,
                          double old_cost, double new_cost, uint64_t version) {
  (void)g, (void)edge, (void)from, (void)to, (void)old_cost, (void)new_cost, (void)version;
  ++*(int *)ud;
}

static void test_min_cost_cache(void) {
  lds_Grid *g = lds_grid_new(NULL, 5, 4, NULL), *c;
  CHECK_NEAR(lds_grid_min_cost(g), 1.0, 0);
  lds_grid_set_cost(g, 1, 1, 0.5f);
  CHECK_NEAR(lds_grid_min_cost(g), 0.5, 0); /* lowered: updated in place */
  lds_grid_set_cost(g, 2, 2, 0.5f);
  lds_grid_set_cost(g, 1, 1, 3.0f);         /* the cheapest raised: recomputed */
  CHECK_NEAR(lds_grid_min_cost(g), 0.5, 0); /* (2,2) still costs 0.5 */
  lds_grid_set_cost(g, 2, 2, 2.0f);
  c = lds_grid_clone(g, NULL); /* clones the unknown cache */
  CHECK_NEAR(lds_grid_min_cost(g), 1.0, 0);
  CHECK_NEAR(lds_grid_min_cost(c), 1.0, 0);
  lds_grid_set_cost(c, 4, 3, 0.25f);
  CHECK_NEAR(lds_grid_min_cost(c), 0.25, 0);
  CHECK_NEAR(lds_grid_min_cost(g), 1.0, 0); /* the clone's cache is its own */
  lds_grid_set_blocked(g, 0, 0, true);        /* blocked cells count too */
  lds_grid_set_cost(g, 0, 0, 0.125f);
  CHECK_NEAR(lds_grid_min_cost(g), 0.125, 0);
  lds_grid_free(c);
  lds_grid_free(g);
}

static void test_h_scale_cache(void) {
  /* 0 -(2)- 1 -(3)- 2 along a line of unit steps */
  double xyz[6] = {0, 0, 1, 0, 2, 0};
  lds_GraphEdge e[2] = {{0, 1, 2.0}, {1, 2, 3.0}};
  lds_Graph *g = lds_graph_from_edges(NULL, 3, LDS_COORDS_XY, xyz, e, 2, NULL);
  CHECK(g != NULL);
  if (!g) return;
  CHECK_NEAR(lds_graph_h_scale(g), 2.0 * (1 - 1e-9), 0);
  lds_graph_set_edge_cost(g, 1, 2, 1.5); /* lowered below: updated in place */
  CHECK_NEAR(lds_graph_h_scale(g), 1.5 * (1 - 1e-9), 0);
  lds_graph_set_edge_cost(g, 1, 2, 4.0); /* the tight edge raised: recomputed */
  CHECK_NEAR(lds_graph_h_scale(g), 2.0 * (1 - 1e-9), 0);
  lds_graph_set_edge_cost(g, 1, 2, 5.0); /* another edge raised: kept */
  CHECK_NEAR(lds_graph_h_scale(g), 2.0 * (1 - 1e-9), 0);
  lds_graph_free(g);
}

static void test_listener_lock(void) {
  th_Alloc a = {0};
  lds_Env env;
  lds_Grid *g;
  lds_Graph *gr;
  int n = 0, m = 0, k;
  lds_env_init(&env);
  env.alloc = th_alloc;
  env.alloc_ud = &a;
  g = lds_grid_new(&env, 4, 4, NULL);
  gr = lds_graph_from_grid(&env, g, NULL);
  CHECK(g && gr);
  if (!g || !gr) return;
  a.fail_at = a.count + 1; /* the listener array's first allocation fails */
  CHECK_INT(lds_grid_listen(g, on_edit, &n), LDS_E_NOMEM);
  CHECK_INT(lds_grid_listen(g, on_edit, &n), LDS_OK); /* the lock was released */
  CHECK_INT(lds_grid_unlisten(g, on_edit, &m), LDS_E_ARG);
  for (k = 0; k < 9; k++) CHECK_INT(lds_grid_listen(g, on_edit, &m), LDS_OK); /* grows twice */
  lds_grid_set_blocked(g, 1, 1, true);
  CHECK_INT(n, 1);
  CHECK_INT(m, 9);
  CHECK(lds_grid_mem_used(g) > 0);
  for (k = 0; k < 9; k++) CHECK_INT(lds_grid_unlisten(g, on_edit, &m), LDS_OK);
  CHECK_INT(lds_grid_unlisten(g, on_edit, &n), LDS_OK);
  lds_grid_set_blocked(g, 1, 1, false);
  CHECK_INT(n + m, 10);

  n = 0;
  a.fail_at = a.count + 1;
  CHECK_INT(lds_graph_listen(gr, on_graph_edit, &n), LDS_E_NOMEM);
  CHECK_INT(lds_graph_listen(gr, on_graph_edit, &n), LDS_OK);
  CHECK_INT(lds_graph_unlisten(gr, on_graph_edit, &m), LDS_E_ARG);
  CHECK(lds_graph_mem_used(gr, NULL, NULL) > 0);
  lds_graph_set_edge_cost_id(gr, 0, 2.0);
  CHECK_INT(n, 1);
  CHECK_INT(lds_graph_unlisten(gr, on_graph_edit, &n), LDS_OK);
  lds_graph_free(gr);
  lds_grid_free(g);
  CHECK_INT(a.live, 0);
}

void suite_shared_state(void);
void suite_shared_state(void) {
  test_min_cost_cache();
  test_h_scale_cache();
  test_listener_lock();
}
