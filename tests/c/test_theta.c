/* SPDX-License-Identifier: MIT */
/*
** test_theta.c — Theta* and Lazy Theta* (core/lds_theta.c): on random maps
** with and without terrain costs and layers, under every neighbourhood and
** diagonal rule, every path's steps see each other and cost exactly what
** the search says (lds_grid_path_cost_weighted), the cost is never above
** A*'s optimum of the grid moves, reachability equals A*'s; slicing does not
** change the path; partial paths; bad input.
*/
#include "harness.h"
#include "lds.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t rng_state;
static uint32_t rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

/* A w x h grid with about pct % blocked cells; costs 1..4 when costs. */
static lds_Grid *random_grid(int32_t w, int32_t h, int pct, bool costs) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
      if (costs) lds_grid_set_cost(g, x, y, (float)(1 + rnd() % 4) * 0.75f);
    }
  return g;
}

/* Runs algo from (sx,sy) to (gx,gy); returns the status, *cost and *path. */
static lds_Status solve(lds_Search *s, const lds_SearchParams *p0, lds_Algo algo, int32_t sx,
                        int32_t sy, int32_t gx, int32_t gy, uint64_t slice, double *cost,
                        lds_Path **path) {
  lds_SearchParams p = *p0;
  lds_Status st;
  p.algo = algo;
  *path = NULL;
  *cost = -1.0;
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (st != LDS_OK) return st;
  if (slice) {
    lds_Budget b = {slice, 0};
    while ((st = lds_search_step(s, &b)) == LDS_RUNNING) {
    }
  } else {
    st = lds_search_step(s, NULL);
  }
  if (st == LDS_FOUND) {
    *cost = lds_search_cost(s);
    *path = lds_search_path(s, NULL);
  }
  return st;
}

static void random_maps(bool costs, bool layer) {
  int trial, bad_cost = 0, above = 0, reach = 0, illegal = 0, ends = 0, found = 0;
  int strictly_shorter = 0;
  for (trial = 0; trial < 120; trial++) {
    int32_t w = 8 + (int32_t)(rnd() % 25), h = 8 + (int32_t)(rnd() % 25);
    lds_Grid *g = random_grid(w, h, 10 + (int)(rnd() % 30), costs);
    int rule = (int)(rnd() % 5);
    lds_Search *s;
    lds_SearchParams p;
    double lw[1] = {0.5};
    int q;
    if (rule == 4)
      lds_grid_set_neighbourhood(g, 4);
    else
      lds_grid_set_diagonal(g, (lds_Diagonal)rule);
    lds_search_params_init(&p);
    if (layer) {
      int li;
      int32_t x, y;
      lds_grid_layer_add(g, "mud", &li);
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) lds_grid_layer_set(g, li, x, y, (float)(rnd() % 3));
      p.layer_weights = lw;
      p.n_layer_weights = 1;
    }
    s = lds_search_new(NULL, g, NULL);
    for (q = 0; q < 12; q++) {
      int32_t sx = (int32_t)(rnd() % (uint32_t)w), sy = (int32_t)(rnd() % (uint32_t)h);
      int32_t gx = (int32_t)(rnd() % (uint32_t)w), gy = (int32_t)(rnd() % (uint32_t)h);
      double ca, ct;
      lds_Path *pa, *pt;
      lds_Status sa;
      int k;
      if (lds_grid_blocked(g, sx, sy) || lds_grid_blocked(g, gx, gy)) continue;
      sa = solve(s, &p, LDS_ALGO_ASTAR, sx, sy, gx, gy, 0, &ca, &pa);
      for (k = 0; k < 2; k++) {
        lds_Algo al = k ? LDS_ALGO_LAZY_THETA : LDS_ALGO_THETA;
        lds_Status st = solve(s, &p, al, sx, sy, gx, gy, (q % 3) ? 0 : 1 + rnd() % 7, &ct, &pt);
        if (st != sa) reach++;
        if (st == LDS_FOUND) {
          double rc = -1.0;
          int32_t x0, y0, x1, y1;
          size_t n = lds_path_length(pt);
          found++;
          lds_path_cell(pt, 0, &x0, &y0);
          lds_path_cell(pt, n - 1, &x1, &y1);
          if (x0 != sx || y0 != sy || x1 != gx || y1 != gy) ends++;
          if (lds_grid_path_cost_weighted(g, pt, p.layer_weights, p.n_layer_weights, &rc,
                                          NULL) != LDS_OK)
            illegal++;
          else if (fabs(rc - ct) > 1e-9 * (ct > 1 ? ct : 1) || lds_path_cost(pt) != ct)
            bad_cost++;
          if (ct > ca * (1 + 1e-12)) {
            above++;
            fprintf(stderr, "theta above A*: %s trial %d (%d,%d)->(%d,%d) %.15g > %.15g\n",
                    lds_algo_name(al), trial, sx, sy, gx, gy, ct, ca);
          }
          if (ct < ca * (1 - 1e-9)) strictly_shorter++;
        }
        lds_path_free(pt);
      }
      lds_path_free(pa);
    }
    lds_search_free(s);
    lds_grid_free(g);
  }
  CHECK(found > 200);
  CHECK_INT(reach, 0);
  CHECK_INT(ends, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(bad_cost, 0);
  CHECK_INT(above, 0);
  CHECK(strictly_shorter > found / 4); /* any-angle: often shorter than the grid's optimum */
}

/* Slicing by one expansion gives the same path as one run. */
static void slicing(void) {
  lds_Grid *g;
  lds_Search *s;
  lds_SearchParams p;
  int k, same = 0, total = 0;
  rng_state = 99;
  g = random_grid(40, 30, 25, true);
  s = lds_search_new(NULL, g, NULL);
  lds_search_params_init(&p);
  for (k = 0; k < 40; k++) {
    int32_t sx = (int32_t)(rnd() % 40), sy = (int32_t)(rnd() % 30), gx = (int32_t)(rnd() % 40),
            gy = (int32_t)(rnd() % 30);
    double c1, c2;
    lds_Path *p1, *p2;
    lds_Algo al = k & 1 ? LDS_ALGO_LAZY_THETA : LDS_ALGO_THETA;
    if (lds_grid_blocked(g, sx, sy) || lds_grid_blocked(g, gx, gy)) continue;
    solve(s, &p, al, sx, sy, gx, gy, 0, &c1, &p1);
    solve(s, &p, al, sx, sy, gx, gy, 1, &c2, &p2);
    total++;
    if ((!p1 && !p2) ||
        (p1 && p2 && c1 == c2 && lds_path_length(p1) == lds_path_length(p2) &&
         memcmp(lds_path_nodes(p1), lds_path_nodes(p2), 4 * lds_path_length(p1)) == 0))
      same++;
    lds_path_free(p1);
    lds_path_free(p2);
  }
  CHECK(total > 10);
  CHECK_INT(same, total);
  lds_search_free(s);
  lds_grid_free(g);
}

static lds_Status edge_one(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1, double base,
                           double *out) {
  (void)ud, (void)x0, (void)y0, (void)x1, (void)y1;
  *out = base;
  return LDS_OK;
}

static void known_cases(void) {
  lds_Grid *g = lds_grid_new(NULL, 20, 10, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path;
  lds_Error err;
  double c;
  int32_t x, y;
  lds_Stats st;
  lds_search_params_init(&p);
  /* open grid: one straight step */
  CHECK_INT(solve(s, &p, LDS_ALGO_THETA, 1, 2, 18, 7, 0, &c, &path), LDS_FOUND);
  CHECK_INT(lds_path_length(path), 2);
  CHECK_NEAR(c, sqrt(17.0 * 17 + 5 * 5), 1e-12);
  lds_path_free(path);
  CHECK_INT(solve(s, &p, LDS_ALGO_LAZY_THETA, 1, 2, 18, 7, 0, &c, &path), LDS_FOUND);
  CHECK_INT(lds_path_length(path), 2);
  CHECK_NEAR(c, sqrt(17.0 * 17 + 5 * 5), 1e-12);
  lds_path_free(path);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_LAZY_THETA);
  /* start == goal */
  CHECK_INT(solve(s, &p, LDS_ALGO_THETA, 3, 3, 3, 3, 0, &c, &path), LDS_FOUND);
  CHECK_INT(lds_path_length(path), 1);
  CHECK_NEAR(c, 0.0, 0.0);
  lds_path_free(path);
  /* a wall with one gap at (10,9): the path bends at the gap's corner cells */
  for (y = 0; y < 9; y++) lds_grid_set_blocked(g, 10, y, true);
  CHECK_INT(solve(s, &p, LDS_ALGO_THETA, 2, 1, 18, 1, 0, &c, &path), LDS_FOUND);
  CHECK(lds_path_length(path) >= 3);
  CHECK(c >= 2 * sqrt(128.0) - 1e-9); /* at least the two straight legs via the gap */
  CHECK(c < 24.0);
  lds_path_free(path);
  /* dearer cells: the straight step across a band of cost 10 is not taken */
  lds_grid_set_blocked(g, 10, 9, false);
  for (y = 0; y < 9; y++) lds_grid_set_blocked(g, 10, y, false);
  for (x = 0; x < 20; x++)
    for (y = 3; y < 7; y++) lds_grid_set_cost(g, x, y, 10.0f);
  for (y = 3; y < 7; y++) lds_grid_set_cost(g, 0, y, 1.0f);
  CHECK_INT(solve(s, &p, LDS_ALGO_THETA, 8, 1, 8, 8, 0, &c, &path), LDS_FOUND);
  CHECK(c < 7.0 * 10.0); /* cheaper than straight through the band... */
  {
    double a;
    lds_Path *pa;
    CHECK_INT(solve(s, &p, LDS_ALGO_ASTAR, 8, 1, 8, 8, 0, &a, &pa), LDS_FOUND);
    CHECK(c <= a * (1 + 1e-12)); /* ...and never above A* */
    lds_path_free(pa);
  }
  CHECK_INT(lds_grid_path_cost(g, path, &c, NULL), LDS_OK);
  lds_path_free(path);
  /* partial: the goal walled in */
  for (x = 0; x < 20; x++) lds_grid_set_cost(g, x, 3, 1.0f);
  lds_grid_set_blocked(g, 14, 5, true);
  lds_grid_set_blocked(g, 16, 5, true);
  lds_grid_set_blocked(g, 15, 4, true);
  lds_grid_set_blocked(g, 15, 6, true);
  lds_grid_set_blocked(g, 14, 4, true);
  lds_grid_set_blocked(g, 16, 4, true);
  lds_grid_set_blocked(g, 14, 6, true);
  lds_grid_set_blocked(g, 16, 6, true);
  p.partial = true;
  p.algo = LDS_ALGO_THETA;
  CHECK_INT(lds_search_start(s, &p, 1, 1, 15, 5), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  path = lds_search_path(s, &err);
  CHECK(path != NULL);
  if (path) {
    CHECK(lds_path_flags(path) & LDS_PATH_PARTIAL);
    lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
    CHECK_INT((x - 15) * (x - 15) + (y - 5) * (y - 5), 4); /* a cell two away from the goal */
    CHECK_INT(lds_grid_path_cost(g, path, &c, NULL), LDS_OK);
    CHECK_NEAR(c, lds_path_cost(path), 1e-9);
    lds_path_free(path);
  }
  lds_search_stats(s, &st);
  CHECK(st.expansions > 100);
  /* an edge callback cannot cost a straight step */
  p.partial = false;
  p.edge_cost = NULL;
  {
    lds_SearchParams q = p;
    q.edge_cost = edge_one;
    CHECK_INT(lds_search_start(s, &q, 1, 1, 2, 2), LDS_E_ARG);
    CHECK_CONTAINS(lds_search_errmsg(s), "edge_cost");
  }
  {
    lds_Algo a;
    CHECK_INT(lds_algo_parse("theta", &a), LDS_OK);
    CHECK_INT(a, LDS_ALGO_THETA);
    CHECK_INT(lds_algo_parse("lazytheta", &a), LDS_OK);
    CHECK_INT(a, LDS_ALGO_LAZY_THETA);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

void suite_theta(void);
void suite_theta(void) {
  rng_state = 12345;
  random_maps(false, false);
  random_maps(true, false);
  random_maps(true, true);
  slicing();
  known_cases();
}
