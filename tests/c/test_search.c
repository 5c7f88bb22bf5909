/* SPDX-License-Identifier: MIT */
/* test_search.c — the A* family on small hand-made grids with hand-computed
** costs, then random differential tests (A* against Dijkstra), slicing,
** determinism, stale detection, layers, edge callbacks and allocator failures.
** Expected costs are written as exact expressions (2 + 3*sqrt(2)). */
#include "harness.h"
#include "lds.h"
#include "lds_open_list.h" /* only to force the generation counter's wrap */

#include <math.h>
#include <stdlib.h>

#define S2 1.4142135623730951
#define EPS 1e-12

/* Builds a grid from rows of text: '#' blocked, '1'..'9' passable with that
** cost, 'h' passable with cost 0.5, anything else passable with cost 1. */
static lds_Grid *grid_of(int nrows, const char *const *rows) {
  int32_t w = (int32_t)strlen(rows[0]), x, y;
  lds_Grid *g = lds_grid_new(NULL, w, nrows, NULL);
  for (y = 0; y < nrows; y++)
    for (x = 0; x < w; x++) {
      char c = rows[y][x];
      if (c == '#') lds_grid_set_blocked(g, x, y, true);
      else if (c >= '1' && c <= '9') lds_grid_set_cost(g, x, y, (float)(c - '0'));
      else if (c == 'h') lds_grid_set_cost(g, x, y, 0.5f);
    }
  return g;
}

/* Runs one query to the end; returns the status, *cost (-1 when none). */
static lds_Status solve(const lds_Grid *g, const lds_SearchParams *p, int32_t sx, int32_t sy,
                        int32_t gx, int32_t gy, double *cost) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_Status st = lds_search_start(s, p, sx, sy, gx, gy);
  if (st == LDS_OK) st = lds_search_step(s, NULL);
  *cost = lds_search_cost(s);
  lds_search_free(s);
  return st;
}

/* Cost of a query under a neighbourhood, diagonal rule and heuristic. */
static double cost_of(lds_Grid *g, int nb, lds_Diagonal d, lds_Heuristic h, int32_t sx,
                      int32_t sy, int32_t gx, int32_t gy) {
  lds_SearchParams p;
  double c;
  lds_search_params_init(&p);
  p.heuristic = h;
  lds_grid_set_neighbourhood(g, nb);
  lds_grid_set_diagonal(g, d);
  solve(g, &p, sx, sy, gx, gy, &c);
  return c;
}

/* Checks a path cell by cell: starts and ends where asked, each step legal
** under the grid's rules; returns its cost from the grid (-1 if illegal). */
static double path_cost_checked(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy,
                                int32_t gx, int32_t gy) {
  lds_PathCheck o;
  lds_PathCheckReport rep;
  if (!p) return -1.0;
  lds_path_check_init(&o);
  o.check_start = o.check_goal = true;
  o.sx = sx;
  o.sy = sy;
  o.gx = gx;
  o.gy = gy;
  o.check_cost = false;
  return lds_path_check(g, p, &o, &rep, NULL) == LDS_OK ? rep.cost : -1.0;
}

static bool same_path(const lds_Path *a, const lds_Path *b) {
  return a && b && lds_path_length(a) == lds_path_length(b) &&
         memcmp(lds_path_nodes(a), lds_path_nodes(b), lds_path_length(a) * sizeof(uint32_t)) == 0 &&
         lds_path_cost(a) == lds_path_cost(b);
}

/* A random grid: size up to max x max, random walls, costs and rules. */
static lds_Grid *random_grid(th_Rng *r, int max, bool costs, bool low) {
  int32_t w = 1 + th_randint(r, max), h = 1 + th_randint(r, max), x, y;
  int wall = th_randint(r, 45);
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      if (th_randint(r, 100) < wall) lds_grid_set_blocked(g, x, y, true);
      if (costs) {
        float c = low ? 0.05f + (float)th_randint(r, 1000) / 400.0f
                      : 1.0f + (float)th_randint(r, 8);
        lds_grid_set_cost(g, x, y, c);
      }
    }
  lds_grid_set_neighbourhood(g, th_randint(r, 3) ? 8 : 4);
  lds_grid_set_diagonal(g, (lds_Diagonal)th_randint(r, 4));
  return g;
}

/* ------------------------------------------------- hand-made grids -- */

static void test_rules(void) {
  static const char *const ring[] = {"...", ".#.", "..."};
  static const char *const squeeze[] = {".#", "#."};
  static const char *const one[] = {".#", ".."};
  static const char *const open5[] = {".....", ".....", "....."};
  lds_Grid *g = grid_of(3, ring);
  /* around a blocked centre, (0,0) -> (2,2) */
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_ALWAYS, LDS_H_AUTO, 0, 0, 2, 2), 4, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NEVER, LDS_H_AUTO, 0, 0, 2, 2), 4, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_AUTO, 0, 0, 2, 2), 4, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALLOW_ONE_BLOCKED, LDS_H_AUTO, 0, 0, 2, 2), 2 + sqrt(2), EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALWAYS, LDS_H_AUTO, 0, 0, 2, 2), 2 + sqrt(2), EPS);
  lds_grid_free(g);

  /* squeezing between two blocked cells that touch at a corner */
  g = grid_of(2, squeeze);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NEVER, LDS_H_AUTO, 0, 0, 1, 1), -1, 0);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_AUTO, 0, 0, 1, 1), -1, 0);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALLOW_ONE_BLOCKED, LDS_H_AUTO, 0, 0, 1, 1), -1, 0);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALWAYS, LDS_H_AUTO, 0, 0, 1, 1), sqrt(2), EPS);
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_ALWAYS, LDS_H_AUTO, 0, 0, 1, 1), -1, 0);
  lds_grid_free(g);

  /* one orthogonal neighbour blocked */
  g = grid_of(2, one);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NEVER, LDS_H_AUTO, 0, 0, 1, 1), 2, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_AUTO, 0, 0, 1, 1), 2, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALLOW_ONE_BLOCKED, LDS_H_AUTO, 0, 0, 1, 1), sqrt(2), EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALWAYS, LDS_H_AUTO, 0, 0, 1, 1), sqrt(2), EPS);
  lds_grid_free(g);

  /* open grid: octile distance, or manhattan when 4-connected */
  g = grid_of(3, open5);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_AUTO, 0, 0, 4, 2), 2 + 2 * sqrt(2),
             EPS);
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_AUTO, 0, 0, 4, 2), 6, EPS);
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NEVER, LDS_H_AUTO, 4, 2, 0, 0), 6, EPS);
  lds_grid_free(g);
}

static void test_heuristics(void) {
  /* a wall with one gap and a costly cell: optimum (0,0) -> (6,0) goes down
  ** to the gap at (3,3) and back up: 3 diagonals in, ... hand-computed below */
  static const char *const walls[] = {"...#...", "...#...", "...#...", ".......", "..5...."};
  static const lds_Heuristic hs[] = {LDS_H_ZERO, LDS_H_OCTILE, LDS_H_EUCLIDEAN, LDS_H_CHEBYSHEV,
                                     LDS_H_AUTO};
  lds_Grid *g = grid_of(5, walls);
  size_t i;
  /* 8-connected, no corner cutting: (0,0) SE (1,1) SE (2,2) S (2,3) E (3,3)
  ** E (4,3) NE (5,2) NE (6,1) N (6,0)? A diagonal (2,2)->(3,3) needs (3,2),
  ** blocked. Optimal: 2 diagonals to (2,2), 1 down to (2,3), 2 right to
  ** (4,3) -- (3,3)->(4,2) NE needs (3,2): blocked -- then 2 diagonals to
  ** (6,1), 1 up: 2*sqrt2 + 1 + 2 + 2*sqrt2 + 1 = 4 + 4*sqrt(2). */
  for (i = 0; i < sizeof hs / sizeof *hs; i++)
    CHECK_NEAR(cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, hs[i], 0, 0, 6, 0), 4 + 4 * sqrt(2),
               1e-12);
  /* 4-connected: manhattan is admissible there: 3 down, 6 right, 3 up */
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_MANHATTAN, 0, 0, 6, 0), 12, EPS);
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_ZERO, 0, 0, 6, 0), 12, EPS);
  CHECK_NEAR(cost_of(g, 4, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_OCTILE, 0, 0, 6, 0), 12, EPS);
  /* allowing one blocked side: (2,2) SE (3,3) passes (2,3) free: saves a step */
  CHECK_NEAR(cost_of(g, 8, LDS_DIAG_ALLOW_ONE_BLOCKED, LDS_H_OCTILE, 0, 0, 6, 0), 6 * sqrt(2),
             EPS);
  /* manhattan with diagonals is inadmissible: the path is legal, maybe longer */
  {
    double c = cost_of(g, 8, LDS_DIAG_NO_CORNER_CUTTING, LDS_H_MANHATTAN, 0, 0, 6, 0);
    CHECK(c >= 4 + 4 * sqrt(2) - EPS);
  }
  lds_grid_free(g);

  /* the distance functions themselves */
  CHECK_NEAR(lds_heuristic_distance(LDS_H_ZERO, 3, -4), 0, 0);
  CHECK_NEAR(lds_heuristic_distance(LDS_H_MANHATTAN, 3, -4), 7, 0);
  CHECK_NEAR(lds_heuristic_distance(LDS_H_OCTILE, 3, -4), 1 + 3 * sqrt(2), EPS);
  CHECK_NEAR(lds_heuristic_distance(LDS_H_AUTO, -4, 3), 1 + 3 * sqrt(2), EPS);
  CHECK_NEAR(lds_heuristic_distance(LDS_H_EUCLIDEAN, 3, -4), 5, EPS);
  CHECK_NEAR(lds_heuristic_distance(LDS_H_CHEBYSHEV, 3, -4), 4, 0);
  {
    lds_Heuristic h;
    lds_Algo a;
    CHECK_INT(lds_heuristic_parse("euclidean", &h), LDS_OK);
    CHECK_INT(h, LDS_H_EUCLIDEAN);
    CHECK_INT(lds_heuristic_parse("Euclid", &h), LDS_E_ARG);
    CHECK_STR(lds_heuristic_name(LDS_H_CHEBYSHEV), "chebyshev");
    CHECK(lds_heuristic_name((lds_Heuristic)9) == NULL);
    CHECK_INT(lds_algo_parse("wastar", &a), LDS_OK);
    CHECK_INT(a, LDS_ALGO_WASTAR);
    CHECK_INT(lds_algo_parse("bfs", &a), LDS_E_ARG);
    CHECK_STR(lds_algo_name(LDS_ALGO_GREEDY), "greedy");
  }
}

/* LDS_H_AUTO is octile where diagonal moves exist and manhattan where they
** do not: on an 8-connected grid under the `never` rule it expands what
** manhattan expands, far fewer cells than octile (which underestimates
** every diagonal offset there), for the same cost. */
static int expansions_of(lds_Grid *g, lds_Heuristic h, double *cost) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Stats st;
  lds_Path *path;
  lds_search_params_init(&p);
  p.heuristic = h;
  lds_search_start(s, &p, 1, 2, 27, 25);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  lds_search_stats(s, &st);
  path = lds_search_path(s, NULL);
  *cost = path ? lds_path_cost(path) : -1.0;
  lds_path_free(path);
  lds_search_free(s);
  return (int)st.expansions;
}

static void test_auto_heuristic(void) {
  lds_Grid *g = lds_grid_new(NULL, 32, 32, NULL);
  double ca, cm, co;
  int ea, em, eo;
  lds_grid_set_neighbourhood(g, 8);
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  ea = expansions_of(g, LDS_H_AUTO, &ca);
  em = expansions_of(g, LDS_H_MANHATTAN, &cm);
  eo = expansions_of(g, LDS_H_OCTILE, &co);
  CHECK_INT(ea, em);
  CHECK(ea * 4 < eo);
  CHECK_NEAR(ca, 26 + 23, EPS);
  CHECK_NEAR(cm, 26 + 23, EPS);
  CHECK_NEAR(co, 26 + 23, EPS);
  lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING); /* diagonals: octile */
  ea = expansions_of(g, LDS_H_AUTO, &ca);
  eo = expansions_of(g, LDS_H_OCTILE, &co);
  CHECK_INT(ea, eo);
  CHECK_NEAR(ca, 3 + 23 * sqrt(2), EPS);
  lds_grid_free(g);
}

/* start == goal, blocked or out-of-bounds ends, unreachable goal, partial */
static void test_ends(void) {
  static const char *const rows[] = {"..#.", "..#.", "#..."};
  static const char *const cut[] = {"..#.", "..#."};
  lds_Grid *g = grid_of(3, rows);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Error err;
  lds_Path *path;
  lds_Stats st;
  int32_t x, y;

  CHECK_INT(lds_search_start(s, NULL, 1, 1, 1, 1), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 0, 0);
  lds_search_stats(s, &st);
  CHECK_INT(st.expansions, 1);
  path = lds_search_path(s, &err);
  CHECK(path != NULL);
  CHECK_INT(lds_path_length(path), 1);
  CHECK(lds_path_cell(path, 0, &x, &y) && x == 1 && y == 1);
  CHECK_INT(lds_path_flags(path), 0);
  lds_path_free(path);

  /* blocked start / goal: started, first step says no_path, with a message */
  CHECK_INT(lds_search_start(s, NULL, 2, 0, 0, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_NO_PATH);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: start (2,0) is blocked");
  CHECK_NEAR(lds_search_cost(s), -1, 0);
  CHECK(lds_search_path(s, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_STR(err.msg, "lds_search_path: no path (status no_path)");
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 0, 2), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: goal (0,2) is blocked");

  /* out of bounds: LDS_E_ARG, exact messages; the search stays usable */
  CHECK_INT(lds_search_start(s, NULL, 4, 0, 0, 0), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: start (4,0) out of bounds (grid is 4x3)");
  CHECK_INT(lds_search_step(s, NULL), LDS_E_ARG);
  CHECK_INT(lds_search_start(s, NULL, 0, 0, -1, 2), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: goal (-1,2) out of bounds (grid is 4x3)");
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 3, 3), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: goal (3,3) out of bounds (grid is 4x3)");
  lds_search_params_init(&p);
  p.weight = 0.5;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s),
            "lds_search_start: weight 0.5 out of range (expected 0 for the default, or finite >= 1)");
  p.weight = NAN;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
  lds_search_params_init(&p);
  p.algo = (lds_Algo)17;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: unknown algorithm 17");
  lds_search_params_init(&p);
  p.heuristic = (lds_Heuristic)-3;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 1, 1), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: unknown heuristic -3");
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 3, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  /* (0,0) SE (1,1) S (1,2) E (2,2) E (3,2) N (3,1) N (3,0): the two diagonals
  ** past (2,1) would cut its corner */
  CHECK_NEAR(lds_search_cost(s), 5 + sqrt(2), EPS);
  lds_search_free(s);
  lds_grid_free(g);

  /* unreachable goal: no_path; with partial, the path to the reachable cell
  ** closest to the goal (Euclidean distance; ties: smaller g; see
  ** tests/c/test_partial.c) */
  g = grid_of(2, cut);
  s = lds_search_new(NULL, g, NULL);
  CHECK_INT(lds_search_start(s, NULL, 0, 1, 3, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  lds_search_stats(s, &st);
  CHECK_INT(st.expansions, 4);
  CHECK(lds_search_path(s, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  lds_search_params_init(&p);
  p.partial = true;
  CHECK_INT(lds_search_start(s, &p, 0, 1, 3, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  path = lds_search_path(s, &err);
  CHECK(path != NULL);
  if (path) {
    CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
    CHECK_INT(lds_path_length(path), 2); /* (0,1) -> (1,0): distance 2, g sqrt2 */
    CHECK(lds_path_cell(path, 1, &x, &y) && x == 1 && y == 0);
    CHECK_NEAR(lds_path_cost(path), sqrt(2), EPS);
    lds_path_free(path);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

/* 1x1, 1xN and Nx1 grids */
static void test_thin(void) {
  static const char *const col[] = {".", ".", ".", ".", "."};
  static const char *const row[] = {"..#.."};
  lds_Grid *g = lds_grid_new(NULL, 1, 1, NULL);
  lds_Search *s;
  double c;
  int nb;
  CHECK_INT(solve(g, NULL, 0, 0, 0, 0, &c), LDS_FOUND);
  CHECK_NEAR(c, 0, 0);
  lds_grid_free(g);
  g = grid_of(5, col);
  for (nb = 4; nb <= 8; nb += 4) {
    lds_grid_set_neighbourhood(g, nb);
    CHECK_INT(solve(g, NULL, 0, 0, 0, 4, &c), LDS_FOUND);
    CHECK_NEAR(c, 4, EPS);
    CHECK_INT(solve(g, NULL, 0, 3, 0, 1, &c), LDS_FOUND);
    CHECK_NEAR(c, 2, EPS);
  }
  s = lds_search_new(NULL, g, NULL);
  lds_search_start(s, NULL, 0, 0, 0, 4);
  lds_search_step(s, NULL);
  {
    lds_Path *p = lds_search_path(s, NULL);
    int32_t x, y;
    size_t i;
    CHECK_INT(lds_path_length(p), 5);
    for (i = 0; i < 5; i++) CHECK(lds_path_cell(p, i, &x, &y) && x == 0 && y == (int32_t)i);
    lds_path_free(p);
  }
  lds_search_free(s);
  lds_grid_free(g);
  g = grid_of(1, row);
  CHECK_INT(solve(g, NULL, 0, 0, 1, 0, &c), LDS_FOUND);
  CHECK_NEAR(c, 1, EPS);
  CHECK_INT(solve(g, NULL, 0, 0, 4, 0, &c), LDS_NO_PATH);
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  CHECK_INT(solve(g, NULL, 4, 0, 3, 0, &c), LDS_FOUND);
  CHECK_NEAR(c, 1, EPS);
  CHECK_INT(solve(g, NULL, 4, 0, 0, 0, &c), LDS_NO_PATH);
  lds_grid_free(g);
}

/* exact counts on a 5x2 open grid, (0,0) -> (4,0), octile:
** expansions: (0,0) (1,0) (2,0) (3,0) and the goal = 5; pushes: start, then
** 3 + 2 + 2 + 2 new cells = 10; the open list peaks at 6 after (3,0). */
static void test_stats(void) {
  lds_Grid *g = lds_grid_new(NULL, 5, 2, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Stats st, sd;
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 4, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  lds_search_stats(s, &st);
  CHECK_INT(st.expansions, 5);
  CHECK_INT(st.pushes, 10);
  CHECK_INT(st.peak_open, 6);
  CHECK_NEAR(lds_search_cost(s), 4, 0);
  /* Dijkstra expands every cell with g < 4 (all 10 but one corner at least) */
  lds_search_params_init(&p);
  p.algo = LDS_ALGO_DIJKSTRA;
  lds_search_start(s, &p, 0, 0, 4, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  lds_search_stats(s, &sd);
  CHECK_INT(sd.expansions, 9); /* the 8 cells with g < 4, then the goal */
  CHECK(sd.pushes >= sd.expansions);
  CHECK(sd.peak_open >= 1 && sd.peak_open <= 10);
  CHECK_NEAR(lds_search_cost(s), 4, 0);
  /* stats reset with each start */
  lds_search_start(s, NULL, 0, 0, 0, 0);
  lds_search_stats(s, &st);
  CHECK_INT(st.expansions, 0);
  CHECK_INT(st.pushes, 1);
  lds_search_free(s);
  lds_grid_free(g);
}

/* ------------------------------------------------------ cost below 1 -- */

static void test_low_costs(void) {
  static const char *const half[] = {"hhhh"};
  lds_Grid *g = grid_of(1, half);
  double c;
  th_Rng r = {0x1234567ULL};
  int k, bad = 0, runs = 0;
  CHECK_NEAR(lds_grid_min_cost(g), 0.5, 0);
  CHECK_INT(solve(g, NULL, 0, 0, 3, 0, &c), LDS_FOUND);
  CHECK_NEAR(c, 1.5, EPS);
  lds_grid_free(g);
  /* a cheap detour below a costly corridor */
  {
    static const char *const detour[] = {".99999.", ".hhhhh."};
    g = grid_of(2, detour);
    lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
    CHECK_INT(solve(g, NULL, 0, 0, 6, 0, &c), LDS_FOUND);
    /* (0,0) SE (1,1) 4 x E on 0.5 cells (5,1) NE (6,0): sqrt2*0.5 + 4*0.5 + sqrt2*1 */
    CHECK_NEAR(c, 0.5 * sqrt(2) + 2 + sqrt(2), EPS);
    lds_grid_free(g);
  }
  /* random grids with costs from 0.05 to 2.55: A* == Dijkstra */
  for (k = 0; k < 150; k++) {
    lds_SearchParams p;
    double ca, cd;
    lds_Status sa, sd;
    int32_t sx, sy, gx, gy;
    g = random_grid(&r, 20, true, true);
    sx = th_randint(&r, lds_grid_width(g));
    sy = th_randint(&r, lds_grid_height(g));
    gx = th_randint(&r, lds_grid_width(g));
    gy = th_randint(&r, lds_grid_height(g));
    lds_search_params_init(&p);
    sa = solve(g, &p, sx, sy, gx, gy, &ca);
    p.algo = LDS_ALGO_DIJKSTRA;
    sd = solve(g, &p, sx, sy, gx, gy, &cd);
    runs++;
    if (sa != sd || fabs(ca - cd) > 1e-9 * (cd > 1 ? cd : 1)) bad++;
    lds_grid_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(runs, 150);
}

/* ----------------------------------------------------- differential -- */

static void test_differential(void) {
  static const lds_Heuristic hs8[] = {LDS_H_AUTO, LDS_H_OCTILE, LDS_H_EUCLIDEAN, LDS_H_CHEBYSHEV,
                                      LDS_H_ZERO};
  th_Rng r = {0xC0FFEEULL};
  int k, bad = 0, illegal = 0, found = 0, nopath = 0, wbad = 0, gbad = 0;
  for (k = 0; k < 400; k++) {
    lds_Grid *g = random_grid(&r, 32, th_randint(&r, 2) == 0, false);
    lds_Search *s = lds_search_new(NULL, g, NULL);
    lds_SearchParams p;
    lds_Status sa, sd;
    double ca, cd;
    int q;
    for (q = 0; q < 3; q++) {
      int32_t sx = th_randint(&r, lds_grid_width(g)), sy = th_randint(&r, lds_grid_height(g));
      int32_t gx = th_randint(&r, lds_grid_width(g)), gy = th_randint(&r, lds_grid_height(g));
      lds_search_params_init(&p);
      p.algo = LDS_ALGO_DIJKSTRA;
      lds_search_start(s, &p, sx, sy, gx, gy);
      sd = lds_search_step(s, NULL);
      cd = lds_search_cost(s);
      lds_search_params_init(&p);
      p.heuristic = lds_grid_neighbourhood(g) == 4 && th_randint(&r, 3) == 0
                        ? LDS_H_MANHATTAN
                        : hs8[th_randint(&r, 5)];
      lds_search_start(s, &p, sx, sy, gx, gy);
      sa = lds_search_step(s, NULL);
      ca = lds_search_cost(s);
      if (sa != sd || fabs(ca - cd) > 1e-9 * (cd > 1 ? cd : 1)) bad++;
      if (sa == LDS_FOUND) {
        lds_Path *path = lds_search_path(s, NULL);
        double pc = path_cost_checked(g, path, sx, sy, gx, gy);
        found++;
        if (pc < 0 || fabs(pc - ca) > 1e-9 * (ca > 1 ? ca : 1)) illegal++;
        lds_path_free(path);
        /* weighted A*: cost <= w * optimal; greedy: a legal path */
        p.algo = LDS_ALGO_WASTAR;
        p.weight = 1.0 + (double)th_randint(&r, 3);
        lds_search_start(s, &p, sx, sy, gx, gy);
        if (lds_search_step(s, NULL) != LDS_FOUND ||
            lds_search_cost(s) > p.weight * cd * (1 + 1e-12) + 1e-9 ||
            (p.weight == 1.0 && fabs(lds_search_cost(s) - cd) > 1e-9 * (cd > 1 ? cd : 1)))
          wbad++;
        p.algo = LDS_ALGO_GREEDY;
        lds_search_start(s, &p, sx, sy, gx, gy);
        if (lds_search_step(s, NULL) != LDS_FOUND) {
          gbad++;
        } else {
          path = lds_search_path(s, NULL);
          pc = path_cost_checked(g, path, sx, sy, gx, gy);
          if (pc < 0 || pc < cd - 1e-9 || fabs(pc - lds_search_cost(s)) > 1e-9 * (pc > 1 ? pc : 1))
            gbad++;
          lds_path_free(path);
        }
      } else {
        nopath++;
      }
    }
    lds_search_free(s);
    lds_grid_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(wbad, 0);
  CHECK_INT(gbad, 0);
  CHECK(found > 600);  /* the test exercises both outcomes */
  CHECK(nopath > 50);
}

/* The exact-form open list (4-ary, a pop's hole left for the next push:
** lds_search_internal.h) under random pushes, pops, decrease-keys and
** settles: after every expansion-like step the heap property holds, every
** entry's node knows its slot, three sentinels follow the last entry, and
** every pop returns the smallest live key. */
static int exact_heap_errors(lds_Search *s) {
  size_t i, bad = 0;
  for (i = 0; i < s->open_n; i++) {
    if (s->nodes[s->open[i].node].heap != (uint32_t)i) bad++;
    if (i > 0 &&
        ldsi_open_less_x(&s->open[i], &s->open[(i - 1) / LDSI_XK_ARITY], LDSI_KEYS_EXACT))
      bad++;
  }
  for (i = s->open_n; i < s->open_n + 3; i++)
    if (s->open[i].fk != LDSI_KEY_INF) bad++;
  return (int)bad + (s->hole != LDSI_NONE);
}

static void test_open_list_exact(void) {
  th_Rng r = {0x4EA9ULL};
  lds_Grid *g = lds_grid_new(NULL, 64, 64, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  static uint64_t kf[4096], k2[4096];
  CHECK_INT(ldsi_search_need_nodes(s), LDS_OK); /* the ldsi_Node records this test reads */
  static bool live[4096];
  int round, step, bad = 0, wrong_min = 0, pops = 0, fills = 0, decreases = 0;
  for (round = 0; round < 60; round++) {
    uint32_t next = 0, v;
    ldsi_open_clear(s);
    memset(live, 0, sizeof live);
    for (step = 0; step < 400 && next < 4000; step++) {
      int k, npush = th_randint(&r, 4), ndec = th_randint(&r, 3);
      if (s->open_n > 0 && th_randint(&r, 3) > 0) { /* an expansion: pop, then pushes */
        uint32_t u;
        uint64_t f0 = s->open[0].fk, g0 = s->open[0].k2;
        u = ldsi_open_pop_x(s, LDSI_KEYS_EXACT);
        pops++;
        for (v = 0; v < next; v++)
          if (live[v] && v != u && (kf[v] < f0 || (kf[v] == f0 && k2[v] < g0))) wrong_min++;
        if (!live[u] || kf[u] != f0 || k2[u] != g0) wrong_min++;
        live[u] = false;
        if (npush && s->hole != LDSI_NONE) fills++;
      }
      for (k = 0; k < npush; k++) { /* fresh nodes; the first fills the hole */
        v = next++;
        ldsi_open_push_x(s, v, (double)th_randint(&r, 60), 0.0, (uint64_t)th_randint(&r, 9) << 32,
                         LDSI_KEYS_EXACT);
        live[v] = true;
        kf[v] = s->open[s->nodes[v].heap].fk;
        k2[v] = s->open[s->nodes[v].heap].k2;
      }
      for (k = 0; k < ndec && s->open_n > 1; k++) { /* lower a live key */
        ldsi_Open e;
        uint32_t i = 1 + (uint32_t)th_randint(&r, (int)s->open_n); /* the last is h[open_n] with a hole */
        if (i == s->hole || (s->hole == LDSI_NONE && i >= s->open_n)) continue;
        v = s->open[i].node;
        e = s->open[i];
        if (ldsi_open_val(e.fk) < 1.0) continue;
        ldsi_open_decrease_x(s, s->nodes[v].heap, ldsi_open_val(e.fk) - 1.0, 0.0,
                             e.k2 & ~(uint64_t)UINT32_MAX, LDSI_KEYS_EXACT);
        decreases++;
        kf[v] = s->open[s->nodes[v].heap].fk;
        k2[v] = s->open[s->nodes[v].heap].k2;
      }
      ldsi_open_settle_x(s, LDSI_KEYS_EXACT);
      bad += exact_heap_errors(s);
    }
  }
  CHECK_INT(bad, 0);
  CHECK_INT(wrong_min, 0);
  CHECK(pops > 5000);
  CHECK(fills > 2000);    /* pushes that filled a pop's hole */
  CHECK(decreases > 2000);
  lds_search_free(s);
  lds_grid_free(g);
}

/* ldsi_exact_f_key orders f = a + b*sqrt(2) exactly for a, b below 2^29.01
** (the exact A* loop's bound; lds_search_internal.h): against the exact sign
** of (a1 - a2) + (b1 - b2)*sqrt(2), computed on integers, for random pairs
** and for the nearest ties there are, q*sqrt(2) - p for the convergents p/q
** of sqrt(2) (Pell numbers), whose gap shrinks to 1/(2.4*p). */
static int f_key_order_wrong(uint32_t a1, uint32_t b1, uint32_t a2, uint32_t b2) {
  int64_t da = (int64_t)a1 - a2, db = (int64_t)b1 - b2;
  int sign; /* of da + db*sqrt(2) */
  uint64_t k1 = ldsi_exact_f_key(a1, b1), k2 = ldsi_exact_f_key(a2, b2);
  if (db == 0) sign = (da > 0) - (da < 0);
  else if (da >= 0 && db > 0) sign = 1;
  else if (da <= 0 && db < 0) sign = -1;
  else if (da > 0) sign = (uint64_t)(da * da) > (uint64_t)(2 * db * db) ? 1 : -1; /* db < 0 */
  else sign = (uint64_t)(2 * db * db) > (uint64_t)(da * da) ? 1 : -1; /* da < 0 < db */
  if (k1 >= LDSI_KEY_INF || k2 >= LDSI_KEY_INF) return 1;
  return sign != ((k1 > k2) - (k1 < k2));
}

static void test_exact_f_key(void) {
  th_Rng r = {0xF4E1ULL};
  const uint32_t amax = 541000000u; /* 2^29.01 */
  uint64_t p = 1, q = 1;
  int wrong = 0, pell = 0, k;
  for (k = 0; k < 200000; k++) {
    uint32_t a1 = (uint32_t)(th_rand(&r) % amax), b1 = (uint32_t)(th_rand(&r) % amax);
    uint32_t a2 = k % 2 ? (uint32_t)(th_rand(&r) % amax) : a1 + (uint32_t)th_randint(&r, 3) - 1;
    uint32_t b2 = (uint32_t)(th_rand(&r) % amax);
    if (a2 >= amax) a2 = a1;
    wrong += f_key_order_wrong(a1, b1, a2, b2);
  }
  while (p < amax) { /* (p, q) = (1, 1), (3, 2), (7, 5), (17, 12), ... */
    uint64_t np = p + 2 * q, nq = p + q;
    int j;
    for (j = 0; j < 50; j++) {
      uint32_t x = (uint32_t)(th_rand(&r) % (amax - p)), y = (uint32_t)(th_rand(&r) % (amax - q));
      if (j == 0) x = y = 0;
      wrong += f_key_order_wrong(x, y + (uint32_t)q, x + (uint32_t)p, y); /* q*sqrt(2) - p */
      wrong += f_key_order_wrong(x + (uint32_t)p, y, x, y + (uint32_t)q);
      pell++;
    }
    p = np;
    q = nq;
  }
  wrong += f_key_order_wrong(amax, amax, amax, amax);
  CHECK(ldsi_exact_f_key(amax, amax) < LDSI_KEY_INF);
  CHECK_INT(wrong, 0);
  CHECK(pell > 1000);
}

/* The uniform octile loops (A*, JPS) order their open list with exact-form
** keys (h as a fixed-point key; lds_search_internal.h). Forcing the general form
** (hq_scale = 0, as on grids too large for the keys) must give the same
** expansion order: same status, stats, path cell by cell and partial path.
** The exact form's heap leaves a pop's hole for the next push; a query run
** in slices of `slice` expansions (0: one run) crosses that at every slice. */
static void run_form(lds_Search *s, const lds_SearchParams *p, int32_t sx, int32_t sy, int32_t gx,
                     int32_t gy, bool general, uint64_t slice, lds_Status *st, lds_Stats *stats,
                     lds_Path **path) {
  lds_search_start(s, p, sx, sy, gx, gy);
  if (general) s->hq_scale = 0.0;
  if (slice) {
    while ((*st = lds_search_step(s, &(lds_Budget){slice, 0})) == LDS_RUNNING) {
    }
  } else {
    *st = lds_search_step(s, NULL);
  }
  lds_search_stats(s, stats);
  *path = lds_search_partial_path(s, NULL);
}

static void test_exact_keys(void) {
  th_Rng r = {0xE4AC7ULL};
  int k, q, runs = 0, differ = 0, partials = 0;
  lds_Grid *wide;
  lds_Search *ws;
  for (k = 0; k < 300; k++) {
    lds_Grid *g = random_grid(&r, 40, false, false);
    lds_Search *s = lds_search_new(NULL, g, NULL);
    lds_SearchParams p;
    CHECK_INT(lds_search_reserve(s), LDS_OK); /* run_form's general form runs on ldsi_Node records */
    lds_search_params_init(&p);
    p.partial = true;
    if (k % 4) lds_grid_set_neighbourhood(g, 8); /* else random_grid's (4 or 8) */
    for (q = 0; q < 4; q++) {
      /* JPS (lds_jps.c) uses the same keys when f is exact; on the rules it
      ** does not support it runs the A* loop */
      p.algo = q % 2 ? LDS_ALGO_JPS : LDS_ALGO_ASTAR;
      int32_t sx = th_randint(&r, lds_grid_width(g)), sy = th_randint(&r, lds_grid_height(g));
      int32_t gx = th_randint(&r, lds_grid_width(g)), gy = th_randint(&r, lds_grid_height(g));
      lds_Status sa, sb;
      lds_Stats ta, tb;
      lds_Path *pa, *pb;
      size_t i;
      run_form(s, &p, sx, sy, gx, gy, false, k % 3 == 1 ? 1 + (uint64_t)th_randint(&r, 4) : 0,
               &sa, &ta, &pa);
      run_form(s, &p, sx, sy, gx, gy, true, 0, &sb, &tb, &pb);
      runs++;
      if (sa != sb || ta.expansions != tb.expansions || ta.pushes != tb.pushes ||
          ta.peak_open != tb.peak_open || (pa == NULL) != (pb == NULL)) {
        differ++;
      } else if (pa) {
        if (lds_path_length(pa) != lds_path_length(pb) || lds_path_cost(pa) != lds_path_cost(pb))
          differ++;
        else
          for (i = 0; i < lds_path_length(pa); i++)
            if (lds_path_node(pa, i) != lds_path_node(pb, i)) {
              differ++;
              break;
            }
        if (sa == LDS_NO_PATH) partials++;
      }
      lds_path_free(pa);
      lds_path_free(pb);
    }
    lds_search_free(s);
    lds_grid_free(g);
  }
  CHECK_INT(runs, 1200);
  CHECK_INT(differ, 0);
  CHECK(partials > 20); /* the closest-cell tracking of both forms is compared */
  /* the keys are used up to 16384 cells a side, not beyond, and a search
  ** across a grid too wide for them (the general form) is still exact */
  wide = lds_grid_new(NULL, 16384, 2, NULL);
  ws = lds_search_new(NULL, wide, NULL);
  CHECK(lds_search_start(ws, NULL, 0, 0, 16383, 1) == LDS_OK);
  CHECK(ws->hq_scale > 0.0);
  CHECK(lds_search_step(ws, NULL) == LDS_FOUND);
  CHECK_NEAR(lds_search_cost(ws), 16382 + sqrt(2), 1e-9);
  lds_search_free(ws);
  lds_grid_free(wide);
  wide = lds_grid_new(NULL, 40000, 2, NULL);
  ws = lds_search_new(NULL, wide, NULL);
  CHECK(lds_search_start(ws, NULL, 0, 0, 39999, 1) == LDS_OK);
  CHECK(ws->hq_scale == 0.0);
  CHECK(lds_search_step(ws, NULL) == LDS_FOUND);
  CHECK_NEAR(lds_search_cost(ws), 39998 + sqrt(2), 1e-9);
  lds_search_free(ws);
  lds_grid_free(wide);
}

/* ------------------------------------------------ slicing, determinism -- */

typedef struct FakeClock { uint64_t t, step; int reads; } FakeClock;
static uint64_t fake_clock(void *ud) {
  FakeClock *c = (FakeClock *)ud;
  c->reads++;
  return c->t += c->step;
}

static lds_Grid *maze(void) {
  th_Rng r = {42};
  int32_t x, y;
  lds_Grid *g = lds_grid_new(NULL, 48, 40, NULL);
  for (y = 0; y < 40; y++)
    for (x = 0; x < 48; x++)
      if (th_randint(&r, 100) < 20 && !(x == 0 && y == 0) && !(x == 47 && y == 39))
        lds_grid_set_blocked(g, x, y, true);
  for (x = 0; x < 48; x++) lds_grid_set_blocked(g, x, 20, x != 45 && x != 3 && x != 4); /* two gaps */
  return g;
}

static void test_slicing(void) {
  lds_Grid *g = maze();
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_Path *one, *two, *sliced, *timed;
  lds_Status st;
  lds_Stats stats, st1;
  int steps = 0;
  FakeClock fc = {1000, 10, 0};
  lds_Env env;

  CHECK_INT(lds_search_start(s, NULL, 0, 0, 47, 39), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  lds_search_stats(s, &st1);
  one = lds_search_path(s, NULL);
  CHECK(path_cost_checked(g, one, 0, 0, 47, 39) > 0);
  lds_search_start(s, NULL, 0, 0, 47, 39);
  lds_search_step(s, NULL);
  two = lds_search_path(s, NULL);
  CHECK(same_path(one, two));

  /* budget 1: one expansion per step, same path bit for bit */
  lds_search_start(s, NULL, 0, 0, 47, 39);
  while ((st = lds_search_step(s, &(lds_Budget){1, 0})) == LDS_RUNNING) {
    lds_search_stats(s, &stats);
    if (stats.expansions != (uint64_t)steps + 1) break;
    steps++;
  }
  CHECK_INT(st, LDS_FOUND);
  CHECK_INT(steps + 1, st1.expansions);
  sliced = lds_search_path(s, NULL);
  CHECK(same_path(one, sliced));
  CHECK(lds_path_cost(one) == lds_path_cost(sliced));
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_FOUND); /* a finished query keeps its status */
  lds_search_free(s);

  /* a microsecond budget with a fake clock: the clock is read every 64
  ** expansions, so each step does exactly 64 (the clock moved 10 us >= 1) */
  lds_env_init(&env);
  env.clock = fake_clock;
  env.clock_ud = &fc;
  s = lds_search_new(&env, g, NULL);
  lds_search_start(s, NULL, 0, 0, 47, 39);
  {
    lds_Budget b = {0, 1};
    st = lds_search_step(s, &b);
    CHECK_INT(st, LDS_RUNNING);
    lds_search_stats(s, &stats);
    CHECK_INT(stats.expansions, 64);
    CHECK_INT(stats.elapsed_us, 20); /* 3 reads: t0, the check, the end */
    CHECK_INT(fc.reads, 3);
    steps = 1;
    while ((st = lds_search_step(s, &b)) == LDS_RUNNING) steps++;
    CHECK_INT(st, LDS_FOUND);
    CHECK(st1.expansions > 128);
    CHECK_INT(steps, (int)((st1.expansions + 63) / 64) - 1);
    b.budget_us = 1000000; /* a large budget finishes in one step */
    lds_search_start(s, NULL, 0, 0, 47, 39);
    CHECK_INT(lds_search_step(s, &b), LDS_FOUND);
  }
  timed = lds_search_path(s, NULL);
  CHECK(same_path(one, timed));
  lds_search_free(s);
  lds_path_free(one);
  lds_path_free(two);
  lds_path_free(sliced);
  lds_path_free(timed);

  /* partial path while running, then stale detection and misuse */
  s = lds_search_new(NULL, g, NULL);
  {
    lds_Error err;
    lds_Path *pp;
    CHECK_INT(lds_search_step(s, &(lds_Budget){5, 0}), LDS_E_STATE);
    CHECK_STR(lds_search_errmsg(s), "lds_search_step: no query started (call lds_search_start first)");
    CHECK_INT(lds_search_status(s), LDS_E_STATE);
    pp = lds_search_partial_path(s, &err);
    CHECK(pp == NULL);
    CHECK_INT(err.code, LDS_E_STATE);
    lds_search_start(s, NULL, 0, 0, 47, 39);
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_RUNNING);
    CHECK_INT(lds_search_status(s), LDS_RUNNING);
    CHECK_NEAR(lds_search_cost(s), -1, 0);
    pp = lds_search_partial_path(s, &err);
    CHECK(pp != NULL);
    if (pp) {
      int32_t x, y;
      CHECK_INT(lds_path_flags(pp), LDS_PATH_PARTIAL);
      CHECK(lds_path_cell(pp, 0, &x, &y) && x == 0 && y == 0);
      CHECK(lds_path_length(pp) >= 2);
      lds_path_free(pp);
    }
    CHECK(lds_search_path(s, &err) == NULL); /* running: no final path yet */
    lds_grid_set_blocked(g, 10, 10, !lds_grid_blocked(g, 10, 10));
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_E_STALE);
    CHECK_CONTAINS(lds_search_errmsg(s), "lds_search_step: the grid changed since the query started");
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_E_STALE);
    /* rule changes and layer edits are edits too */
    lds_search_start(s, NULL, 0, 0, 47, 39);
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_RUNNING);
    lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_E_STALE);
    lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING);
    lds_search_start(s, NULL, 0, 0, 47, 39);
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_RUNNING);
    lds_grid_set_neighbourhood(g, 4);
    CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_E_STALE);
    lds_grid_set_neighbourhood(g, 8);
    {
      int k;
      lds_grid_layer_add(g, "tmp", &k);
      lds_search_start(s, NULL, 0, 0, 47, 39);
      CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_RUNNING);
      lds_grid_layer_set(g, k, 5, 5, 1.0f);
      CHECK_INT(lds_search_step(s, &(lds_Budget){10, 0}), LDS_E_STALE);
      lds_grid_layer_remove(g, k);
    }
    CHECK_INT(lds_search_start(s, NULL, 0, 0, 47, 39), LDS_OK); /* a new start works */
    CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
    lds_grid_set_cost(g, 1, 1, 2.0f);
    CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_FOUND); /* finished: edits don't matter */
  }
  lds_search_free(s);
  lds_grid_free(g);
}

/* 10^5 queries on one search, then the generation counter's wrap */
static void test_many_queries(void) {
  lds_Grid *g = maze();
  lds_Search *s = lds_search_new(NULL, g, NULL), *fresh = lds_search_new(NULL, g, NULL);
  th_Rng r = {7};
  long k, errors = 0, diffs = 0, found = 0;
  for (k = 0; k < 100000; k++) {
    int32_t sx = th_randint(&r, 48), sy = th_randint(&r, 40), gx = sx + th_randint(&r, 7) - 3,
            gy = sy + th_randint(&r, 7) - 3;
    lds_Status st;
    if (gx < 0) gx = 0;
    if (gx > 47) gx = 47;
    if (gy < 0) gy = 0;
    if (gy > 39) gy = 39;
    if (lds_search_start(s, NULL, sx, sy, gx, gy) != LDS_OK) errors++;
    st = lds_search_step(s, NULL);
    if (st < 0) errors++;
    if (st == LDS_FOUND) found++;
    if (k % 997 == 0) {
      lds_search_start(fresh, NULL, sx, sy, gx, gy);
      if (lds_search_step(fresh, NULL) != st || lds_search_cost(fresh) != lds_search_cost(s)) diffs++;
    }
  }
  CHECK_INT(errors, 0);
  CHECK_INT(diffs, 0);
  CHECK(found > 10000);
  CHECK_INT(s->gen, 100000);
  /* force the 32-bit generation counter to wrap: records are cleared once
  ** and results stay the same */
  s->gen = 0xFFFFFFFFu - 3;
  for (k = 0; k < 8; k++) {
    lds_Status a, b;
    lds_search_start(s, NULL, 0, 0, 47, 39 - (int32_t)k);
    a = lds_search_step(s, NULL);
    lds_search_start(fresh, NULL, 0, 0, 47, 39 - (int32_t)k);
    b = lds_search_step(fresh, NULL);
    CHECK(a == b && lds_search_cost(s) == lds_search_cost(fresh));
  }
  CHECK_INT(s->gen, 5);
  lds_search_free(fresh);
  lds_search_free(s);
  lds_grid_free(g);
}

/* two searches, two allocators, interleaved on one grid */
static void test_two_searches(void) {
  lds_Grid *g = maze();
  th_Alloc a = {0}, b = {0};
  lds_Env ea, eb;
  lds_Search *sa, *sb;
  lds_Status x = LDS_RUNNING, y = LDS_RUNNING;
  lds_Path *pa, *pb, *ref;
  long ca;
  lds_env_init(&ea);
  lds_env_init(&eb);
  ea.alloc = th_alloc;
  ea.alloc_ud = &a;
  eb.alloc = th_alloc;
  eb.alloc_ud = &b;
  sa = lds_search_new(&ea, g, NULL);
  sb = lds_search_new(&eb, g, NULL);
  CHECK(a.live > 0 && b.live > 0);
  CHECK_INT(a.live, b.live);
  lds_search_start(sa, NULL, 0, 0, 47, 39);
  lds_search_start(sb, NULL, 47, 39, 0, 0);
  while (x == LDS_RUNNING || y == LDS_RUNNING) {
    if (x == LDS_RUNNING) x = lds_search_step(sa, &(lds_Budget){3, 0});
    if (y == LDS_RUNNING) y = lds_search_step(sb, &(lds_Budget){5, 0});
  }
  CHECK_INT(x, LDS_FOUND);
  CHECK_INT(y, LDS_FOUND);
  ca = a.count;
  pa = lds_search_path(sa, NULL);
  CHECK(a.count > ca); /* the path comes from the search's allocator */
  pb = lds_search_path(sb, NULL);
  CHECK_NEAR(lds_path_cost(pa), lds_path_cost(pb), 1e-9);
  {
    lds_Search *s = lds_search_new(NULL, g, NULL);
    lds_search_start(s, NULL, 0, 0, 47, 39);
    lds_search_step(s, NULL);
    ref = lds_search_path(s, NULL);
    CHECK(same_path(pa, ref));
    lds_path_free(ref);
    lds_search_free(s);
  }
  lds_path_free(pa);
  lds_path_free(pb);
  lds_search_free(sa);
  CHECK_INT(a.live, 0);
  CHECK(b.live > 0);
  lds_search_free(sb);
  CHECK_INT(b.live, 0);
  lds_grid_free(g);
}

/* --------------------------------------------- layers and callbacks -- */

static void test_layers(void) {
  lds_Grid *g = lds_grid_new(NULL, 3, 1, NULL), *g2 = lds_grid_new(NULL, 3, 2, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL), *s2 = lds_search_new(NULL, g2, NULL);
  lds_SearchParams p;
  double w[2] = {0.5, 0};
  int mud, wall;
  lds_grid_layer_add(g, "mud", &mud);
  lds_grid_layer_add(g, "wall", &wall);
  lds_grid_layer_set(g, mud, 1, 0, 2.0f);
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = 2;
  /* effective cost of (1,0) = 1 + 0.5 * 2 = 2 */
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 2 + 1, EPS);
  /* two layers: 1 + 0.5*2 + 3*0.25 */
  lds_grid_layer_set(g, wall, 1, 0, 0.25f);
  w[1] = 3;
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 1 + 0.5 * 2 + 3 * 0.25 + 1, EPS);
  /* a result <= 0: LDS_E_ARG naming the cell and the layer */
  w[0] = -0.25;
  w[1] = 0;
  lds_grid_layer_set(g, mud, 1, 0, 4.0f);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s),
            "lds_search_start: cell (1,0) has cost 0 under the layer weights (base 1, layer "
            "'mud' value 4 x weight -0.25; expected finite, > 0)");
  /* +inf with a positive weight blocks the cell; with weight 0 it is ignored,
  ** even when a later layer has a weight (0 * inf must not become NaN) */
  lds_grid_layer_set(g, mud, 1, 0, INFINITY);
  lds_grid_layer_set(g, wall, 1, 0, 0.0f);
  w[0] = 1;
  w[1] = 0;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  w[0] = 0;
  w[1] = 1;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_STR(lds_search_errmsg(s), "");
  CHECK_NEAR(lds_search_cost(s), 2, EPS);
  /* too many weights */
  p.n_layer_weights = 3;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_E_ARG);
  CHECK_STR(lds_search_errmsg(s),
            "lds_search_start: 3 layer weights for a grid with 2 layers (expected 0..2)");
  /* around a layer-blocked cell on a 4-connected 3x2 grid */
  {
    int k;
    double w2 = 1;
    lds_grid_layer_add(g2, "fire", &k);
    lds_grid_layer_set(g2, k, 1, 0, INFINITY);
    lds_grid_set_neighbourhood(g2, 4);
    p.layer_weights = &w2;
    p.n_layer_weights = 1;
    CHECK_INT(lds_search_start(s2, &p, 0, 0, 2, 0), LDS_OK);
    CHECK_INT(lds_search_step(s2, NULL), LDS_FOUND);
    CHECK_NEAR(lds_search_cost(s2), 4, EPS);
  }
  lds_search_free(s);
  lds_search_free(s2);
  lds_grid_free(g);
  lds_grid_free(g2);
}

typedef struct CbState { int mode; int calls; } CbState;
static lds_Status edge_cb(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1, double base,
                          double *out) {
  CbState *c = (CbState *)ud;
  c->calls++;
  switch (c->mode) {
    case 0: *out = base * 2; break;                                  /* override */
    case 1: *out = (x0 == 0 && y0 == 0 && x1 == 1 && y1 == 0) ? INFINITY : base; break;
    case 2: return LDS_E_ARG;                                        /* failure */
    case 3: *out = 0.0; break;                                       /* bad value */
    case 5: *out = -(double)NAN; break;                              /* a negative NaN */
    default: *out = NAN; break;
  }
  return LDS_OK;
}

static void test_callback(void) {
  lds_Grid *g = lds_grid_new(NULL, 3, 2, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  CbState cb = {0, 0};
  lds_search_params_init(&p);
  p.edge_cost = edge_cb;
  p.edge_ud = &cb;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 2, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 4, EPS);
  CHECK(cb.calls > 0);
  cb.mode = 1; /* (0,0)->(1,0) forbidden: (0,0) SE (1,1) NE (2,0) */
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 2 * sqrt(2), EPS);
  cb.mode = 2;
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_E_CALLBACK);
  CHECK_STR(lds_search_errmsg(s), "lds_search_step: edge callback failed at (0,0)->(1,0)");
  CHECK_INT(lds_search_status(s), LDS_E_CALLBACK);
  cb.mode = 3;
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_E_CALLBACK);
  CHECK_STR(lds_search_errmsg(s), "lds_search_step: edge callback returned 0 for (0,0)->(1,0) "
                                  "(expected finite, > 0, or inf to forbid)");
  cb.mode = 4;
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_E_CALLBACK);
  CHECK_CONTAINS(lds_search_errmsg(s), "edge callback returned nan for (0,0)->(1,0)");
  cb.mode = 5; /* printf would write "-nan" */
  lds_search_start(s, &p, 0, 0, 2, 0);
  CHECK_INT(lds_search_step(s, NULL), LDS_E_CALLBACK);
  CHECK_CONTAINS(lds_search_errmsg(s), "edge callback returned nan for (0,0)->(1,0)");
  lds_search_free(s);
  lds_grid_free(g);
}

/* ------------------------------------------------- failing allocator -- */

static void test_nomem(void) {
  lds_Grid *g = maze();
  lds_Error err;
  long k;
  int nfail = 0, pfail = 0;
  lds_Search *s = NULL;
  for (k = 1; k < 20 && !s; k++) {
    th_Alloc a = {0};
    lds_Env env;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    a.fail_at = k;
    s = lds_search_new(&env, g, &err);
    if (!s) {
      nfail++;
      CHECK_INT(err.code, LDS_E_NOMEM);
      CHECK_CONTAINS(err.msg, "lds_search_new: out of memory");
      CHECK_INT(a.live, 0);
    } else {
      lds_search_free(s);
      CHECK_INT(a.live, 0);
    }
  }
  CHECK(s != NULL);
  CHECK_INT(nfail, 4); /* the search, its open list, its plateau stack, its 16-byte
                       ** records (the 32-byte ones wait for a query that needs them:
                       ** test_search_pages.c) */
  for (k = 1; k < 20; k++) {
    th_Alloc a = {0};
    lds_Env env;
    lds_Path *p;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    s = lds_search_new(&env, g, NULL);
    lds_search_start(s, NULL, 0, 0, 47, 39);
    lds_search_step(s, NULL);
    a.fail_at = a.count + k;
    p = lds_search_path(s, &err);
    if (!p) {
      pfail++;
      CHECK_INT(err.code, LDS_E_NOMEM);
    } else {
      lds_path_free(p);
    }
    lds_search_free(s);
    CHECK_INT(a.live, 0);
    if (p) break;
  }
  CHECK_INT(pfail, 2); /* the cell scratch array, the path */
  lds_grid_free(g);
}

/* The partial option on an exhausted budget, and best-so-far paths after a
** failed start (they must not return the previous query's path). */
static void test_partial_budget(void) {
  lds_Grid *g = maze();
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Error err;
  lds_Path *path;
  int32_t x, y;
  lds_search_params_init(&p);
  p.partial = true;
  /* budget spent: with params.partial, lds_search_path gives the best-so-far
  ** path, flagged partial (issue 2: "on an unreachable goal (or exhausted
  ** budget), return the path to the expanded cell closest to the goal") */
  CHECK_INT(lds_search_start(s, &p, 0, 0, 47, 39), LDS_OK);
  CHECK_INT(lds_search_step(s, &(lds_Budget){30, 0}), LDS_RUNNING);
  path = lds_search_path(s, &err);
  CHECK(path != NULL);
  if (path) {
    lds_Path *pp = lds_search_partial_path(s, NULL);
    CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
    CHECK(lds_path_cell(path, 0, &x, &y) && x == 0 && y == 0);
    CHECK(same_path(path, pp));
    lds_path_free(pp);
    lds_path_free(path);
  }
  /* without the option, no path while running */
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 47, 39), LDS_OK);
  CHECK_INT(lds_search_step(s, &(lds_Budget){30, 0}), LDS_RUNNING);
  CHECK(lds_search_path(s, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  /* a failed start cancels the previous query: no stale best-so-far path */
  CHECK_INT(lds_search_start(s, &p, 0, 0, 99, 0), LDS_E_ARG);
  path = lds_search_partial_path(s, &err);
  CHECK(path == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  lds_path_free(path);
  path = lds_search_path(s, &err);
  CHECK(path == NULL);
  lds_path_free(path);
  lds_search_free(s);
  lds_grid_free(g);
}


/* Runs (0,0) -> (gx,gy) with algo and weight; *cost and *exp receive the
** cost and the expansions (the status is checked: found). */
static void run_weighted(lds_Search *s, lds_Algo algo, double weight, int32_t gx, int32_t gy,
                         double *cost, uint64_t *exp) {
  lds_SearchParams p;
  lds_Stats st;
  lds_search_params_init(&p);
  p.algo = algo;
  p.weight = weight;
  CHECK_INT(lds_search_start(s, &p, 0, 0, gx, gy), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  *cost = lds_search_cost(s);
  lds_search_stats(s, &st);
  *exp = st.expansions;
}

/* params.weight: 0 (the default) is 1.5 for weighted A* and 1 otherwise; an
** explicit 1 is honoured (weighted A* with w = 1 expands exactly as A*). */
static void test_weight_default(void) {
  lds_Grid *g = lds_grid_new(NULL, 40, 40, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  th_Rng r = {7};
  int i, differs = 0;
  lds_search_params_init(&p);
  CHECK_NEAR(p.weight, 0.0, 0);
  for (i = 0; i < 400; i++)
    lds_grid_set_blocked(g, th_randint(&r, 40), th_randint(&r, 40), true);
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_set_blocked(g, 39, 39, false);
  for (i = 0; i < 2; i++) {
    double c_astar, c_w1, c_def, c_15;
    uint64_t e_astar, e_w1, e_def, e_15;
    int32_t gx = i ? 39 : 35, gy = i ? 39 : 2;
    lds_grid_set_blocked(g, gx, gy, false);
    run_weighted(s, LDS_ALGO_ASTAR, 0.0, gx, gy, &c_astar, &e_astar);
    run_weighted(s, LDS_ALGO_WASTAR, 1.0, gx, gy, &c_w1, &e_w1);
    run_weighted(s, LDS_ALGO_WASTAR, 0.0, gx, gy, &c_def, &e_def);
    run_weighted(s, LDS_ALGO_WASTAR, 1.5, gx, gy, &c_15, &e_15);
    CHECK_NEAR(c_w1, c_astar, 0);
    CHECK_INT((long long)e_w1, (long long)e_astar);
    CHECK_NEAR(c_def, c_15, 0);
    CHECK_INT((long long)e_def, (long long)e_15);
    CHECK(c_def <= 1.5 * c_astar + 1e-9);
    if (e_def != e_astar) differs++;
  }
  CHECK(differs > 0); /* w = 1.5 really is a different search here */
  lds_search_free(s);
  lds_grid_free(g);
}

void suite_search(void);
void suite_search(void) {
  test_weight_default();
  test_partial_budget();
  test_rules();
  test_heuristics();
  test_ends();
  test_thin();
  test_stats();
  test_low_costs();
  test_differential();
  test_exact_keys();
  test_exact_f_key();
  test_auto_heuristic();
  test_open_list_exact();
  test_slicing();
  test_many_queries();
  test_two_searches();
  test_layers();
  test_callback();
  test_nomem();
}
