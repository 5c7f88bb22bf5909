/* SPDX-License-Identifier: MIT */
/*
** test_search_pages.c — the layouts of the search's node records
** (lds_search_internal.h): the paged ldsi_Hot records give the same paths,
** costs and expansion counts as the dense array, for every algorithm and
** for partial paths; pages are recycled by the next query (a search costs
** its largest query, not the sum); the ldsi_Node records wait for a query
** that needs them; a failed page allocation ends the step with LDS_E_NOMEM.
*/
#include "harness.h"
#include "lds.h"
#include "lds_search_internal.h"

#include <stdlib.h>

/* A w x h grid with about pct % of its cells blocked (seeded). */
static lds_Grid *random_grid(const lds_Env *env, int32_t w, int32_t h, int pct, th_Rng *r) {
  lds_Grid *g = lds_grid_new(env, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (th_randint(r, 100) < pct) lds_grid_set_blocked(g, x, y, true);
  return g;
}

/* The same query on two searches: the same status, cost, expansions and
** path cells; returns the number of differences. */
static int compare(lds_Search *a, lds_Search *b, const lds_SearchParams *p, int32_t sx, int32_t sy,
                   int32_t gx, int32_t gy) {
  lds_Status sa, sb;
  lds_Stats ta, tb;
  lds_Path *pa, *pb;
  int bad = 0;
  size_t i;
  if (lds_search_start(a, p, sx, sy, gx, gy) != lds_search_start(b, p, sx, sy, gx, gy)) return 1;
  sa = lds_search_run(a);
  sb = lds_search_run(b);
  if (sa != sb) return 1;
  lds_search_stats(a, &ta);
  lds_search_stats(b, &tb);
  if (ta.expansions != tb.expansions || ta.pushes != tb.pushes) bad++;
  if (lds_search_cost(a) != lds_search_cost(b)) bad++;
  pa = lds_search_path(a, NULL);
  pb = lds_search_path(b, NULL);
  if (!pa != !pb) bad++;
  if (pa && pb) {
    if (lds_path_length(pa) != lds_path_length(pb) || lds_path_cost(pa) != lds_path_cost(pb) ||
        lds_path_flags(pa) != lds_path_flags(pb))
      bad++;
    else
      for (i = 0; i < lds_path_length(pa); i++)
        if (lds_path_node(pa, i) != lds_path_node(pb, i)) bad++;
  }
  lds_path_free(pa);
  lds_path_free(pb);
  return bad;
}

/* Paged and dense records agree on every algorithm and on partial paths. */
static void test_paged_equals_dense(void) {
  th_Rng r = {0x9A6E5ULL};
  lds_Grid *g = random_grid(NULL, 301, 257, 28, &r);
  lds_Search *dense = ldsi_search_new_layout(NULL, g, 0, NULL);
  lds_Search *paged = ldsi_search_new_layout(NULL, g, 1, NULL);
  static const lds_Algo algos[] = {LDS_ALGO_ASTAR, LDS_ALGO_DIJKSTRA, LDS_ALGO_WASTAR, LDS_ALGO_JPS};
  int q, bad = 0, found = 0;
  CHECK(dense && !dense->hot_tab && dense->hot);
  CHECK(paged && paged->hot_tab && !paged->hot);
  for (q = 0; q < 400; q++) {
    lds_SearchParams p;
    int32_t sx = th_randint(&r, 301), sy = th_randint(&r, 257), gx = th_randint(&r, 301),
            gy = th_randint(&r, 257);
    lds_search_params_init(&p);
    p.algo = algos[q % 4];
    p.partial = (q % 7) == 0;
    bad += compare(dense, paged, &p, sx, sy, gx, gy);
    if (lds_search_status(paged) == LDS_FOUND) found++;
  }
  CHECK_INT(bad, 0);
  CHECK(found > 150); /* both outcomes were exercised */
  CHECK(found < 400);
  lds_search_free(dense);
  lds_search_free(paged);
  lds_grid_free(g);
}

/* A paged search keeps the pages of its largest query: a short query after a
** long one claims a few pages of the pool, and the pool never grows past the
** pages one query touched. The ldsi_Node records are allocated by the first
** query that runs a loop on them (Dijkstra here), never by A*. */
static void test_pages_recycled(void) {
  lds_Grid *g = lds_grid_new(NULL, 600, 600, NULL);
  lds_Search *s = ldsi_search_new_layout(NULL, g, 1, NULL);
  lds_SearchParams p;
  size_t big, pages;
  lds_search_params_init(&p);
  CHECK(s->nodes == NULL);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 599, 599), LDS_OK);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  CHECK(s->nodes == NULL); /* the exact A* loop runs on ldsi_Hot records alone */
  big = s->pool_used;
  pages = s->pool_n;
  CHECK(big > 2); /* the diagonal crosses many pages ... */
  CHECK(big < s->hot_npages / 2); /* ... but not the map */
  CHECK_INT(lds_search_start(s, &p, 300, 300, 302, 300), LDS_OK);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  CHECK(s->pool_used <= 8); /* rows 299..301 (one or two pages each) and "no move" */
  CHECK_INT(s->pool_n, pages); /* recycled: nothing allocated */
  CHECK(fabs(lds_search_cost(s) - 2.0) < 1e-12);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 599, 599), LDS_OK);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  CHECK_INT(s->pool_used, big);
  CHECK_INT(s->pool_n, pages);
  CHECK(fabs(lds_search_cost(s) - 599.0 * LDSI_SQRT2) < 1e-9);
  p.algo = LDS_ALGO_DIJKSTRA;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 5, 5), LDS_OK);
  CHECK(s->nodes != NULL);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  CHECK(lds_search_mem_used(s) > 600 * 600 * sizeof(ldsi_Node));
  lds_search_free(s);
  lds_grid_free(g);
}

/* Out of memory for a page: the step ends with LDS_E_NOMEM and a message,
** and the next query (memory back) runs normally. */
static void test_page_nomem(void) {
  th_Alloc al = {0};
  lds_Env env;
  lds_Grid *g;
  lds_Search *s;
  lds_SearchParams p;
  lds_env_init(&env);
  env.alloc = th_alloc;
  env.alloc_ud = &al;
  g = lds_grid_new(&env, 400, 400, NULL);
  s = ldsi_search_new_layout(&env, g, 1, NULL);
  lds_search_params_init(&p);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 399, 399), LDS_OK);
  al.limit = al.live + 1024; /* no room for a chunk of pages */
  CHECK_INT(lds_search_run(s), LDS_E_NOMEM);
  CHECK(strstr(lds_search_errmsg(s), "out of memory") != NULL);
  al.limit = 0;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 399, 399), LDS_OK);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  CHECK(fabs(lds_search_cost(s) - 399.0 * LDSI_SQRT2) < 1e-9);
  /* the 32-byte records of the first Dijkstra query: LDS_E_NOMEM at start */
  al.limit = al.live + 1024;
  p.algo = LDS_ALGO_DIJKSTRA;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 9), LDS_E_NOMEM);
  CHECK(strstr(lds_search_errmsg(s), "out of memory for") != NULL);
  CHECK_INT(lds_search_reserve(s), LDS_E_NOMEM);
  al.limit = 0;
  CHECK_INT(lds_search_reserve(s), LDS_OK);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 9), LDS_OK);
  CHECK_INT(lds_search_run(s), LDS_FOUND);
  lds_search_free(s);
  lds_grid_free(g);
  CHECK_INT(al.live, 0);
}

void suite_search_pages(void);
void suite_search_pages(void) {
  test_paged_equals_dense();
  test_pages_recycled();
  test_page_nomem();
}
