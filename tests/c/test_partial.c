/* SPDX-License-Identifier: MIT */
/*
** test_partial.c — partial paths (params.partial, lds_search_partial_path):
** the goal on a blocked cell, a walled-in goal, a blocked start, and every
** algorithm against A* and against an independent Dijkstra on random maps.
** The partial path ends at the reachable cell closest to the goal: smallest
** squared Euclidean distance, then the cheaper path, then the smaller cell
** id (row-major); docs/search.md, "Partial paths".
*/
#include "harness.h"

#include "lds.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#define SQRT2 1.4142135623730951


static lds_Grid *grid_rows(int h, const char *const *rows) {
  int w = (int)strlen(rows[0]), x, y;
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, y, rows[y][x] == '#');
  return g;
}

/* Runs one query to the end; returns its partial path (NULL if none) and
** status in *st. */
static lds_Path *run_partial(lds_Search *s, lds_Algo algo, int32_t sx, int32_t sy, int32_t gx,
                             int32_t gy, lds_Status *st) {
  lds_SearchParams p;
  lds_search_params_init(&p);
  p.algo = algo;
  p.partial = true;
  *st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (*st != LDS_OK) return NULL;
  *st = lds_search_step(s, NULL);
  return lds_search_path(s, NULL);
}

/* The path's moves are legal (lds_path_check), it starts at (sx,sy), and
** its cost is the sum of its moves (length * cost of the cell entered). */
static bool path_legal(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy) {
  lds_PathCheck o;
  lds_path_check_init(&o);
  o.check_start = true;
  o.sx = sx;
  o.sy = sy;
  return lds_path_check(g, p, &o, NULL, NULL) == LDS_OK;
}

/* ---------------------------------------------------- hand-made maps -- */

static const lds_Algo ALGOS[6] = {LDS_ALGO_ASTAR, LDS_ALGO_DIJKSTRA, LDS_ALGO_WASTAR,
                                  LDS_ALGO_GREEDY, LDS_ALGO_JPS,     LDS_ALGO_JPS_PLUS};

/* Checks that every algorithm's partial path ends at (ex,ey); for the
** optimal ones (all but wastar and greedy) with cost `cost`. */
static void expect_all(lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy, int32_t ex,
                       int32_t ey, double cost) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  int a;
  for (a = 0; a < 6; a++) {
    lds_Status st;
    lds_Path *p = run_partial(s, ALGOS[a], sx, sy, gx, gy, &st);
    int32_t x = -1, y = -1;
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(p != NULL);
    if (!p) continue;
    CHECK_INT(lds_path_flags(p), LDS_PATH_PARTIAL);
    lds_path_cell(p, lds_path_length(p) - 1, &x, &y);
    if (x != ex || y != ey)
      TH_FAIL("%s: partial path ends at (%d,%d), expected (%d,%d)", lds_algo_name(ALGOS[a]),
              (int)x, (int)y, (int)ex, (int)ey);
    else
      th_passed++;
    if (ALGOS[a] != LDS_ALGO_WASTAR && ALGOS[a] != LDS_ALGO_GREEDY)
      CHECK_NEAR(lds_path_cost(p), cost, 1e-12);
    CHECK(path_legal(g, p, sx, sy));
    lds_path_free(p);
  }
  lds_search_free(s);
}

/* The goal on a blocked cell: the partial path, not no-path-at-all; before,
** lds_search_path said "no path (status no_path)" and
** lds_search_partial_path "no query started". */
static void test_blocked_goal(void) {
  static const char *const rows[] = {"...#..", "...#..", "......"};
  static const char *const tie[] = {".....", "..#..", "....."};
  lds_Grid *g = grid_rows(3, rows);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Error err;
  lds_Path *path;
  lds_Stats stats;
  int32_t x, y;

  /* goal (3,0) blocked: (2,0) and (4,0) are at distance 1; (2,0) costs 2 */
  expect_all(g, 0, 0, 3, 0, 2, 0, 2.0);

  /* lds_search_partial_path on the same query, every algorithm */
  lds_search_params_init(&p);
  p.partial = true;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 3, 0), LDS_OK);
  CHECK_STR(lds_search_errmsg(s), "lds_search_start: goal (3,0) is blocked");
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  path = lds_search_partial_path(s, &err);
  CHECK(path != NULL);
  if (path) {
    CHECK_INT(lds_path_length(path), 3);
    CHECK(lds_path_cell(path, 2, &x, &y) && x == 2 && y == 0);
    CHECK_NEAR(lds_path_cost(path), 2.0, 0);
    lds_path_free(path);
  }
  lds_search_stats(s, &stats);
  CHECK_INT(stats.expansions, 16); /* every reachable cell */

  /* without params.partial: no_path at once, nothing expanded; the partial
  ** path is the start alone (the best so far) */
  CHECK_INT(lds_search_start(s, NULL, 0, 0, 3, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  lds_search_stats(s, &stats);
  CHECK_INT(stats.expansions, 0);
  CHECK(lds_search_path(s, &err) == NULL);
  CHECK_STR(err.msg, "lds_search_path: no path (status no_path)");
  path = lds_search_partial_path(s, &err);
  CHECK(path != NULL);
  if (path) {
    CHECK_INT(lds_path_length(path), 1);
    CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
    CHECK_NEAR(lds_path_cost(path), 0.0, 0);
    lds_path_free(path);
  }

  /* a blocked start has no partial path (not even the start): no_path, and
  ** the path calls say why */
  p.partial = true;
  CHECK_INT(lds_search_start(s, &p, 3, 1, 0, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  CHECK(lds_search_path(s, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_STR(err.msg, "lds_search_path: no path (start (3,1) is blocked)");
  CHECK(lds_search_partial_path(s, &err) == NULL);
  CHECK_STR(err.msg, "lds_search_partial_path: no path (start (3,1) is blocked)");
  p.algo = LDS_ALGO_JPS;
  CHECK_INT(lds_search_start(s, &p, 3, 1, 0, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  CHECK(lds_search_jump_points(s, &err) == NULL);
  CHECK_STR(err.msg, "lds_search_path: no path (start (3,1) is blocked)");
  /* a goal out of bounds stays an argument error */
  CHECK_INT(lds_search_start(s, &p, 0, 0, 6, 0), LDS_E_ARG);
  CHECK(lds_search_partial_path(s, &err) == NULL);
  CHECK_STR(err.msg, "lds_search_partial_path: no query started");
  lds_search_free(s);
  lds_grid_free(g);

  /* a tie: goal (2,0) blocked, (2,1) blocked: (1,0) and (3,0) are both at
  ** distance 1 with the same cost; the smaller id, (1,0), wins */
  g = grid_rows(3, tie);
  lds_grid_set_blocked(g, 2, 0, true);
  expect_all(g, 2, 2, 2, 0, 1, 0, 3.0); /* no_corner_cutting: 3 straight moves */
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  expect_all(g, 2, 2, 2, 0, 1, 0, 1.0 + SQRT2);
  lds_grid_free(g);
}

/* A walled-in free goal, and a wall across the map: the cells where the
** partial path ends are ones JPS's jumps pass, not jump points (JPS ended
** at its closest expanded jump point, the start behind the wall). */
static void test_enclosed_goal(void) {
  static const char *const ring[] = {".......", "....###", "....#.#", "....###", "......."};
  lds_Grid *g = grid_rows(5, ring);
  lds_Search *s;
  int32_t y;
  expect_all(g, 0, 0, 5, 2, 3, 2, 1.0 + 2.0 * SQRT2);
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  expect_all(g, 0, 0, 5, 2, 3, 2, 1.0 + 2.0 * SQRT2);
  lds_grid_free(g);

  g = lds_grid_new(NULL, 10, 5, NULL);
  for (y = 0; y < 5; y++) lds_grid_set_blocked(g, 5, y, true);
  expect_all(g, 0, 0, 9, 0, 4, 0, 4.0);
  expect_all(g, 0, 4, 9, 1, 4, 1, 1.0 + 3.0 * SQRT2);
  /* sliced, one expansion per step: the same end and cost */
  s = lds_search_new(NULL, g, NULL);
  {
    int a;
    for (a = 4; a < 6; a++) {
      lds_SearchParams p;
      lds_Path *path;
      lds_Status st;
      int32_t x = -1, yy = -1;
      lds_search_params_init(&p);
      p.algo = ALGOS[a];
      p.partial = true;
      CHECK_INT(lds_search_start(s, &p, 0, 4, 9, 1), LDS_OK);
      while ((st = lds_search_step(s, &(lds_Budget){1, 0})) == LDS_RUNNING) {
        path = lds_search_partial_path(s, NULL); /* best so far: a legal path */
        CHECK(path != NULL && path_legal(g, path, 0, 4));
        lds_path_free(path);
      }
      CHECK_INT(st, LDS_NO_PATH);
      path = lds_search_path(s, NULL);
      CHECK(path != NULL);
      lds_path_cell(path, lds_path_length(path) - 1, &x, &yy);
      CHECK(x == 4 && yy == 1);
      CHECK_NEAR(lds_path_cost(path), 1.0 + 3.0 * SQRT2, 0);
      lds_path_free(path);
      /* the sparse form: start, corner, end */
      path = lds_search_jump_points(s, NULL);
      CHECK(path != NULL);
      CHECK_INT(lds_path_length(path), 3);
      lds_path_cell(path, 1, &x, &yy);
      CHECK(x == 3 && yy == 1);
      CHECK_NEAR(lds_path_cost(path), 1.0 + 3.0 * SQRT2, 0);
      lds_path_free(path);
    }
  }
  lds_search_free(s);
  lds_grid_free(g);
}

/* ------------------------------------------------- random comparison -- */

/* Independent Dijkstra over lds_grid_can_move: g*[y*w + x] (INFINITY when
** unreachable). A binary heap of (g, cell) with lazy deletion. */
typedef struct { double g; int c; } HeapE;

static void heap_push(HeapE *h, int *n, double g, int c) {
  int i = (*n)++;
  while (i > 0 && h[(i - 1) / 2].g > g) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i].g = g;
  h[i].c = c;
}

static HeapE heap_pop(HeapE *h, int *n) {
  HeapE top = h[0], last = h[--(*n)];
  int i = 0;
  for (;;) {
    int c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1].g < h[c].g) c++;
    if (!(h[c].g < last.g)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
  return top;
}

static void ref_dijkstra(const lds_Grid *g, int32_t sx, int32_t sy, double *dist, HeapE *heap) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  int i, n = 0;
  for (i = 0; i < w * h; i++) dist[i] = INFINITY;
  if (lds_grid_blocked(g, sx, sy)) return;
  dist[sy * w + sx] = 0.0;
  heap_push(heap, &n, 0.0, sy * w + sx);
  while (n) {
    HeapE e = heap_pop(heap, &n);
    int32_t x = e.c % w, y = e.c / w;
    int d;
    if (e.g > dist[e.c]) continue;
    for (d = 0; d < 8; d++) {
      int32_t x1 = x + lds_dir_dx[d], y1 = y + lds_dir_dy[d];
      double ng;
      if (!lds_grid_can_move(g, x, y, d)) continue;
      ng = e.g + lds_directions[d].length * (double)lds_grid_cost(g, x1, y1);
      if (ng < dist[y1 * w + x1]) {
        dist[y1 * w + x1] = ng;
        heap_push(heap, &n, ng, y1 * w + x1);
      }
    }
  }
}

static uint64_t d2_of(int32_t x, int32_t y, int32_t gx, int32_t gy) {
  int64_t dx = gx - x, dy = gy - y;
  return (uint64_t)(dx * dx + dy * dy);
}

/* One variant of a query: algorithm, heuristic, weight */
typedef struct {
  lds_Algo algo;
  lds_Heuristic h;
  bool optimal;
  double h_scale; /* 0.5: a user scale (below every cell cost): closed nodes reopen */
} Variant;

static const Variant VARIANTS[] = {
    {LDS_ALGO_ASTAR, LDS_H_AUTO, true, 0},     {LDS_ALGO_DIJKSTRA, LDS_H_AUTO, true, 0},
    {LDS_ALGO_ASTAR, LDS_H_EUCLIDEAN, true, 0}, {LDS_ALGO_ASTAR, LDS_H_CHEBYSHEV, true, 0},
    {LDS_ALGO_WASTAR, LDS_H_AUTO, false, 0},   {LDS_ALGO_GREEDY, LDS_H_AUTO, false, 0},
    {LDS_ALGO_JPS, LDS_H_AUTO, true, 0},       {LDS_ALGO_JPS_PLUS, LDS_H_AUTO, true, 0},
    {LDS_ALGO_JPS, LDS_H_ZERO, true, 0},       {LDS_ALGO_ASTAR, LDS_H_AUTO, true, 0.5},
    {LDS_ALGO_JPS, LDS_H_AUTO, true, 0.5},
};
#define NVARIANTS ((int)(sizeof VARIANTS / sizeof *VARIANTS))

/* Random maps (40x30; density, diagonal rule, neighbourhood and costs
** varied), goals walled in, blocked, or simply unreachable: each variant's
** partial path ends at a cell with the reference's smallest distance and,
** for the optimal ones, the cheapest reference cost among those cells, with
** that cost; on uniform-cost maps at exactly A*'s cell (costs are exact
** there: no rounding ties). Weighted A* ends at a cell at the same distance
** with cost <= 1.5 x A*'s, greedy at the same distance with a legal path. */
static void test_random_vs_astar(void) {
  const int32_t W = 40, H = 30;
  lds_Grid *g = lds_grid_new(NULL, W, H, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  double *dist = (double *)malloc((size_t)(W * H) * sizeof(double));
  HeapE *heap = (HeapE *)malloc((size_t)(W * H * 8 + 8) * sizeof(HeapE));
  th_Rng r;
  int i, checked = 0, bad = 0, jps_ran = 0, same_cell = 0, uniform_checks = 0;
  r.s = 160016;
  for (i = 0; i < 600; i++) {
    int32_t x, y, sx, sy, gx, gy, k, ax = -1, ay = -1;
    int pct = 10 + th_randint(&r, 35), kind = th_randint(&r, 3), v;
    bool costs = th_randint(&r, 3) == 0;
    uint64_t dmin = UINT64_MAX;
    double gmin = INFINITY;
    static const lds_Diagonal rules[4] = {LDS_DIAG_NO_CORNER_CUTTING, LDS_DIAG_ALWAYS,
                                          LDS_DIAG_NEVER, LDS_DIAG_ALLOW_ONE_BLOCKED};
    lds_grid_set_neighbourhood(g, th_randint(&r, 5) == 0 ? 4 : 8);
    lds_grid_set_diagonal(g, rules[th_randint(&r, 6) < 4 ? th_randint(&r, 2) : 2 + th_randint(&r, 2)]);
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        lds_grid_set_blocked(g, x, y, th_randint(&r, 100) < pct);
        lds_grid_set_cost(g, x, y, costs ? (float)(1 + th_randint(&r, 4)) * 0.75f : 1.0f);
      }
    sx = th_randint(&r, W);
    sy = th_randint(&r, H);
    gx = th_randint(&r, W);
    gy = th_randint(&r, H);
    if (sx == gx && sy == gy) continue;
    lds_grid_set_blocked(g, sx, sy, false);
    if (kind == 0) { /* wall the goal in */
      lds_grid_set_blocked(g, gx, gy, false);
      for (k = 0; k < 8; k++) {
        int32_t wx = gx + lds_dir_dx[k], wy = gy + lds_dir_dy[k];
        if (lds_grid_in_bounds(g, wx, wy) && (wx != sx || wy != sy)) lds_grid_set_blocked(g, wx, wy, true);
      }
    } else if (kind == 1) { /* the goal on a blocked cell, in a blocked blob */
      lds_grid_set_blocked(g, gx, gy, true);
      for (k = 0; k < 8; k++) {
        int32_t wx = gx + lds_dir_dx[k], wy = gy + lds_dir_dy[k];
        if (lds_grid_in_bounds(g, wx, wy) && (wx != sx || wy != sy) && th_randint(&r, 2))
          lds_grid_set_blocked(g, wx, wy, true);
      }
    } else { /* a wall across the map between them, with no gap */
      lds_grid_set_blocked(g, gx, gy, false);
      if (abs(gx - sx) > 1) {
        int32_t wx = (sx + gx) / 2;
        for (y = 0; y < H; y++) lds_grid_set_blocked(g, wx, y, true);
      } else {
        continue;
      }
    }
    ref_dijkstra(g, sx, sy, dist, heap);
    if (dist[gy * W + gx] < INFINITY) continue; /* reachable after all */
    for (y = 0; y < H; y++)
      for (x = 0; x < W; x++) {
        double c = dist[y * W + x];
        uint64_t d2 = d2_of(x, y, gx, gy);
        if (c == INFINITY) continue;
        if (d2 < dmin || (d2 == dmin && c < gmin)) {
          dmin = d2;
          gmin = c;
        }
      }
    checked++;
    for (v = 0; v < NVARIANTS; v++) {
      lds_SearchParams p;
      lds_Path *path;
      lds_Status st;
      double c, cref;
      lds_search_params_init(&p);
      p.algo = VARIANTS[v].algo;
      p.heuristic = VARIANTS[v].h;
      p.h_scale = VARIANTS[v].h_scale;
      p.partial = true;
      if (lds_grid_neighbourhood(g) == 4 && p.heuristic != LDS_H_AUTO && p.heuristic != LDS_H_ZERO)
        continue; /* octile-family heuristics only where they are admissible */
      if (lds_grid_diagonal(g) == LDS_DIAG_NEVER && p.heuristic != LDS_H_AUTO &&
          p.heuristic != LDS_H_ZERO)
        continue;
      CHECK_INT(lds_search_start(s, &p, sx, sy, gx, gy), LDS_OK);
      st = lds_search_step(s, NULL);
      if (st != LDS_NO_PATH) {
        TH_FAIL("map %d %s: status %s", i, lds_algo_name(p.algo), lds_status_name(st));
        bad++;
        continue;
      }
      if ((p.algo == LDS_ALGO_JPS || p.algo == LDS_ALGO_JPS_PLUS) &&
          lds_search_algo_used(s) != LDS_ALGO_ASTAR)
        jps_ran++;
      path = lds_search_path(s, NULL);
      if (!path) {
        TH_FAIL("map %d %s: no partial path", i, lds_algo_name(p.algo));
        bad++;
        continue;
      }
      lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
      c = lds_path_cost(path);
      cref = dist[y * W + x];
      if (!path_legal(g, path, sx, sy) || lds_path_flags(path) != LDS_PATH_PARTIAL ||
          d2_of(x, y, gx, gy) != dmin ||
          (VARIANTS[v].optimal && (fabs(c - cref) > 1e-9 * (1 + c) || cref > gmin * (1 + 1e-9))) ||
          (p.algo == LDS_ALGO_WASTAR && c > 1.5 * gmin * (1 + 1e-9))) {
        TH_FAIL("map %d (%s, %s h %s): partial path ends at (%d,%d) d2 %llu cost %.12g (reference "
                "there %.12g); expected d2 %llu cost %.12g",
                i, lds_diagonal_name(lds_grid_diagonal(g)), lds_algo_name(p.algo),
                lds_heuristic_name(p.heuristic), (int)x, (int)y,
                (unsigned long long)d2_of(x, y, gx, gy), c, cref, (unsigned long long)dmin, gmin);
        bad++;
      }
      if ((p.algo == LDS_ALGO_JPS || p.algo == LDS_ALGO_JPS_PLUS) && i % 5 == 0) {
        /* sliced, 1-3 expansions per step: the same partial path */
        lds_Path *sl;
        int32_t x2 = -1, y2 = -1;
        CHECK_INT(lds_search_start(s, &p, sx, sy, gx, gy), LDS_OK);
        while (lds_search_step(s, &(lds_Budget){1 + (uint64_t)th_randint(&r, 3), 0}) == LDS_RUNNING) {
        }
        sl = lds_search_path(s, NULL);
        CHECK(sl != NULL);
        if (sl) {
          lds_path_cell(sl, lds_path_length(sl) - 1, &x2, &y2);
          CHECK(x2 == x && y2 == y && lds_path_cost(sl) == c && lds_path_length(sl) == lds_path_length(path));
          lds_path_free(sl);
        }
      }
      if (v == 0) {
        ax = x;
        ay = y;
      } else if (!costs && VARIANTS[v].optimal) {
        uniform_checks++;
        if (x == ax && y == ay) same_cell++;
        else
          TH_FAIL("map %d %s h %s: ends at (%d,%d), A* at (%d,%d)", i, lds_algo_name(p.algo),
                  lds_heuristic_name(p.heuristic), (int)x, (int)y, (int)ax, (int)ay);
      }
      lds_path_free(path);
    }
  }
  CHECK(checked > 300);
  CHECK(jps_ran > 200);
  CHECK_INT(bad, 0);
  CHECK_INT(same_cell, uniform_checks);
  CHECK(uniform_checks > 1000);
  free(dist);
  free(heap);
  lds_search_free(s);
  lds_grid_free(g);
}

/* --------------------------------------------------------------- graphs -- */

/* Graphs with coordinates: every algorithm's partial path ends at the node
** nearest the goal in coordinates (ties: cheaper, then smaller id), the
** optimal ones at the reference cost, whatever the heuristic. */
static void test_graph(void) {
  th_Rng r;
  int i, bad = 0, checked = 0;
  r.s = 91;
  for (i = 0; i < 150; i++) {
    const uint32_t n = 60;
    lds_Graph *gr = lds_graph_new(NULL, LDS_COORDS_XY, NULL);
    lds_Search *s;
    double dist[60];
    uint32_t u, goal = n - 1, e;
    int a, it;
    for (u = 0; u < n; u++)
      lds_graph_add_node(gr, (double)th_randint(&r, 20), (double)th_randint(&r, 20), 0, NULL);
    for (e = 0; e < 150; e++) {
      uint32_t a0 = (uint32_t)th_randint(&r, (int)n - 1), b0 = (uint32_t)th_randint(&r, (int)n - 1);
      if (a0 != b0) /* cost >= the coordinate distance: euclidean h stays admissible */
        lds_graph_add_edge(gr, a0, b0, lds_graph_distance(gr, a0, b0) + 0.5 * th_randint(&r, 4) + 0.25);
    }
    if (lds_graph_freeze(gr, NULL) != LDS_OK) {
      lds_graph_free(gr);
      continue;
    }
    /* reference: Bellman-Ford style relaxation from node 0 (goal n-1 has no in-edges) */
    for (u = 0; u < n; u++) dist[u] = INFINITY;
    dist[0] = 0.0;
    for (it = 0; it < (int)n; it++)
      for (e = 0; e < lds_graph_edge_count(gr); e++) {
        uint32_t f, t;
        lds_graph_edge_ends(gr, e, &f, &t);
        if (dist[f] + lds_graph_edge_cost(gr, e) < dist[t]) dist[t] = dist[f] + lds_graph_edge_cost(gr, e);
      }
    {
      double dmin = INFINITY, gmin = INFINITY;
      for (u = 0; u < n; u++) {
        double d = lds_graph_distance(gr, u, goal);
        if (dist[u] == INFINITY) continue;
        if (d < dmin || (d == dmin && dist[u] < gmin)) {
          dmin = d;
          gmin = dist[u];
        }
      }
      s = lds_search_new_graph(NULL, gr, NULL);
      for (a = 0; a < 4; a++) {
        lds_SearchParams p;
        lds_Path *path;
        uint32_t last;
        lds_search_params_init(&p);
        p.algo = ALGOS[a];
        p.partial = true;
        if (lds_search_start_nodes(s, &p, 0, goal) != LDS_OK || lds_search_step(s, NULL) != LDS_NO_PATH) {
          bad++;
          continue;
        }
        path = lds_search_path(s, NULL);
        if (!path) {
          bad++;
          continue;
        }
        last = lds_path_node(path, lds_path_length(path) - 1);
        checked++;
        if (lds_graph_distance(gr, last, goal) != dmin ||
            (a < 2 && (fabs(lds_path_cost(path) - gmin) > 1e-9 * (1 + gmin))) ||
            (a == 2 && lds_path_cost(path) > 1.5 * gmin + 1e-9)) {
          TH_FAIL("graph %d %s: ends at node %u (distance %g, cost %g), expected distance %g cost %g",
                  i, lds_algo_name(p.algo), (unsigned)last, lds_graph_distance(gr, last, goal),
                  lds_path_cost(path), dmin, gmin);
          bad++;
        }
        lds_path_free(path);
      }
      lds_search_free(s);
    }
    lds_graph_free(gr);
  }
  CHECK(checked > 400);
  CHECK_INT(bad, 0);
}

void suite_partial(void);
void suite_partial(void) {
  test_blocked_goal();
  test_enclosed_goal();
  test_random_vs_astar();
  test_graph();
}
