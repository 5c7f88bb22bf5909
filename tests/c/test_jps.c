/* SPDX-License-Identifier: MIT */
/* test_jps.c — Jump Point Search and JPS+: randomised differential tests
** against A* (costs, legality, slicing, grid edits), fallbacks, errors, OOM,
** and a Moving AI scenario. */
#include "harness.h"
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdlib.h>

/* ------------------------------------------------------ map makers -- */

/* random obstacles, density pct % */
static void make_random(lds_Grid *g, th_Rng *r, int pct) {
  int32_t x, y, w = lds_grid_width(g), h = lds_grid_height(g);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, y, th_randint(r, 100) < pct);
}

/* perfect maze (recursive backtracker) with corridors `cw` cells wide and
** walls one cell thick; a few extra holes when loops is set */
static void make_maze(lds_Grid *g, th_Rng *r, int cw, int loops) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), x, y;
  int32_t cs = cw + 1, nx = (w - 1) / cs, ny = (h - 1) / cs, top = 0, i;
  int32_t *stack = (int32_t *)malloc((size_t)(nx * ny + 1) * sizeof(int32_t));
  unsigned char *seen = (unsigned char *)calloc((size_t)(nx * ny + 1), 1);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, y, true);
  if (nx < 1 || ny < 1) goto out;
  for (i = 0; i < nx * ny; i++) { /* open every room */
    int32_t cx = (i % nx) * cs + 1, cy = (i / nx) * cs + 1, a, b;
    for (b = 0; b < cw; b++)
      for (a = 0; a < cw; a++) lds_grid_set_blocked(g, cx + a, cy + b, false);
  }
  stack[top++] = 0;
  seen[0] = 1;
  while (top > 0) {
    int32_t c = stack[top - 1], cx = c % nx, cy = c / nx, opts[4], no = 0, k, n, a;
    if (cx > 0 && !seen[c - 1]) opts[no++] = c - 1;
    if (cx < nx - 1 && !seen[c + 1]) opts[no++] = c + 1;
    if (cy > 0 && !seen[c - nx]) opts[no++] = c - nx;
    if (cy < ny - 1 && !seen[c + nx]) opts[no++] = c + nx;
    if (!no) {
      top--;
      continue;
    }
    n = opts[th_randint(r, no)];
    seen[n] = 1;
    stack[top++] = n;
    for (k = 0; k < cw; k++) { /* knock down the wall between c and n */
      if (n == c + 1) lds_grid_set_blocked(g, (cx + 1) * cs, cy * cs + 1 + k, false);
      if (n == c - 1) lds_grid_set_blocked(g, cx * cs, cy * cs + 1 + k, false);
      if (n == c + nx) lds_grid_set_blocked(g, cx * cs + 1 + k, (cy + 1) * cs, false);
      if (n == c - nx) lds_grid_set_blocked(g, cx * cs + 1 + k, cy * cs, false);
    }
    (void)a;
  }
  for (i = 0; i < loops; i++) lds_grid_set_blocked(g, th_randint(r, w), th_randint(r, h), false);
out:
  free(stack);
  free(seen);
}

/* rooms of size rs separated by walls with one or two random doors each */
static void make_rooms(lds_Grid *g, th_Rng *r, int rs) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) lds_grid_set_blocked(g, x, y, (x % (rs + 1)) == rs || (y % (rs + 1)) == rs);
  for (y = 0; y < h; y += rs + 1)
    for (x = 0; x < w; x += rs + 1) {
      int k;
      for (k = 0; k < 1 + th_randint(r, 2); k++) {
        if (x + rs < w) lds_grid_set_blocked(g, x + rs, y + th_randint(r, rs), false);
        if (y + rs < h) lds_grid_set_blocked(g, x + th_randint(r, rs), y + rs, false);
      }
      if (th_randint(r, 4) == 0 && x + rs < w) /* some doors open, some rooms dead ends */
        lds_grid_set_blocked(g, x + rs, y + th_randint(r, rs), true);
    }
}

/* --------------------------------------------------------- checking -- */

/* Path legality: starts/ends right, every step a legal move, cell costs sum
** to the reported cost. Returns true when all hold. */
static bool path_ok(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx,
                    int32_t gy) {
  lds_PathCheck o;
  lds_path_check_init(&o);
  o.check_start = o.check_goal = true;
  o.sx = sx;
  o.sy = sy;
  o.gx = gx;
  o.gy = gy;
  return lds_path_check(g, p, &o, NULL, NULL) == LDS_OK;
}

/* Jump points: same ends, consecutive points on one straight or diagonal
** line, a subsequence of the full path. */
static bool jumps_ok(const lds_Path *full, const lds_Path *jp) {
  size_t i, k = 0, n = lds_path_length(jp), nf = lds_path_length(full);
  if (n == 0 || n > nf || lds_path_node(jp, 0) != lds_path_node(full, 0) ||
      lds_path_node(jp, n - 1) != lds_path_node(full, nf - 1))
    return false;
  if (lds_path_cost(jp) != lds_path_cost(full)) return false;
  for (i = 0; i < n; i++) {
    while (k < nf && lds_path_node(full, k) != lds_path_node(jp, i)) k++;
    if (k == nf) return false;
    if (i > 0) {
      int32_t xa, ya, xb, yb, ax, ay;
      lds_path_cell(jp, i - 1, &xa, &ya);
      lds_path_cell(jp, i, &xb, &yb);
      ax = abs(xb - xa);
      ay = abs(yb - ya);
      if (!(ax == 0 || ay == 0 || ax == ay)) return false;
    }
  }
  return true;
}

static lds_Status solve(lds_Search *s, lds_Algo algo, int32_t sx, int32_t sy, int32_t gx,
                        int32_t gy) {
  lds_SearchParams p;
  lds_Status st;
  lds_search_params_init(&p);
  p.algo = algo;
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (st != LDS_OK) return st;
  return lds_search_step(s, NULL);
}

static bool same_path(const lds_Path *a, const lds_Path *b) {
  size_t i;
  if (!a || !b || lds_path_length(a) != lds_path_length(b)) return false;
  if (memcmp(&(double){lds_path_cost(a)}, &(double){lds_path_cost(b)}, sizeof(double)) != 0)
    return false;
  for (i = 0; i < lds_path_length(a); i++)
    if (lds_path_node(a, i) != lds_path_node(b, i)) return false;
  return true;
}

typedef struct Tally {
  long queries, found, nopath, same_cell, cost_bad, status_bad, illegal, jumps_bad, slice_bad;
} Tally;

/* every query of a tally agreed with A* (status, cost), gave a legal path,
** consistent jump points, and the same answer under budget-1 slicing */
static void check_tally(const Tally *t) {
  CHECK_INT(t->status_bad, 0);
  CHECK_INT(t->cost_bad, 0);
  CHECK_INT(t->illegal, 0);
  CHECK_INT(t->jumps_bad, 0);
  CHECK_INT(t->slice_bad, 0);
}

/* One differential query: A* vs JPS vs JPS+ on the same grid. */
static void diff_query(Tally *t, lds_Search *sa, lds_Search *sj, lds_Search *sp, int32_t sx,
                       int32_t sy, int32_t gx, int32_t gy, bool slice) {
  const lds_Grid *g = lds_search_grid(sa);
  lds_Status a = solve(sa, LDS_ALGO_ASTAR, sx, sy, gx, gy);
  lds_Status sts[2];
  lds_Search *ss[2];
  int k;
  ss[0] = sj;
  ss[1] = sp;
  sts[0] = solve(sj, LDS_ALGO_JPS, sx, sy, gx, gy);
  sts[1] = solve(sp, LDS_ALGO_JPS_PLUS, sx, sy, gx, gy);
  t->queries++;
  if (a == LDS_FOUND) t->found++;
  if (a == LDS_NO_PATH) t->nopath++;
  if (sx == gx && sy == gy) t->same_cell++;
  for (k = 0; k < 2; k++) {
    double ca, cj;
    lds_Path *full, *jp;
    if (sts[k] != a) {
      if (t->status_bad++ < 5)
        fprintf(stderr, "  status %s vs A* %s at (%d,%d)->(%d,%d) k=%d: %s\n",
              lds_status_name(sts[k]), lds_status_name(a), sx, sy, gx, gy, k,
              lds_search_errmsg(ss[k]));
      continue;
    }
    if (a != LDS_FOUND) continue;
    ca = lds_search_cost(sa);
    cj = lds_search_cost(ss[k]);
    if (fabs(ca - cj) > 1e-9 * (ca > 1.0 ? ca : 1.0)) {
      if (t->cost_bad++ < 5)
        fprintf(stderr, "  cost %.12g vs A* %.12g at (%d,%d)->(%d,%d) k=%d\n", cj, ca, sx, sy, gx,
              gy, k);
    }
    full = lds_search_path(ss[k], NULL);
    jp = lds_search_jump_points(ss[k], NULL);
    if (!full || !path_ok(g, full, sx, sy, gx, gy)) t->illegal++;
    if (!full || !jp || !jumps_ok(full, jp)) t->jumps_bad++;
    if (slice && full) { /* budget 1 expansion == one shot, bit for bit */
      lds_SearchParams p;
      lds_Status st;
      lds_Path *sl;
      long steps = 0;
      lds_Stats stats;
      lds_search_params_init(&p);
      p.algo = k ? LDS_ALGO_JPS_PLUS : LDS_ALGO_JPS;
      lds_search_start(ss[k], &p, sx, sy, gx, gy);
      while ((st = lds_search_step(ss[k], &(lds_Budget){1, 0})) == LDS_RUNNING) steps++;
      lds_search_stats(ss[k], &stats);
      sl = lds_search_path(ss[k], NULL);
      if (st != LDS_FOUND || !same_path(full, sl) || (uint64_t)steps + 1 != stats.expansions)
        t->slice_bad++;
      lds_path_free(sl);
    }
    lds_path_free(full);
    lds_path_free(jp);
  }
}

/* A random query: mostly open cells; sometimes start == goal or a blocked goal. */
static void random_query(th_Rng *r, const lds_Grid *g, int32_t *c) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), tries = 0;
  int kind = th_randint(r, 20);
  do {
    c[0] = th_randint(r, w);
    c[1] = th_randint(r, h);
  } while (lds_grid_blocked(g, c[0], c[1]) && ++tries < 100);
  tries = 0;
  do {
    c[2] = th_randint(r, w);
    c[3] = th_randint(r, h);
  } while (kind != 0 && lds_grid_blocked(g, c[2], c[3]) && ++tries < 100);
  if (kind == 1) {
    c[2] = c[0];
    c[3] = c[1];
  }
}

/* JPS+ tables / JPS jump events kept up to date through edits and rule
** changes (on sp) answer n random queries exactly as ones built from scratch
** do: same status, same path, same expansions. Returns the number of
** differences. */
static int edited_vs_fresh(th_Rng *r, lds_Grid *g, lds_Search *sp, int n, lds_Algo algo) {
  lds_Search *fresh = lds_search_new(NULL, g, NULL);
  int q, bad = 0;
  int32_t c[4];
  for (q = 0; q < n; q++) {
    lds_Status a, b;
    random_query(r, g, c);
    a = solve(sp, algo, c[0], c[1], c[2], c[3]);
    b = solve(fresh, algo, c[0], c[1], c[2], c[3]);
    if (a != b) bad++;
    if (a == LDS_FOUND && b == LDS_FOUND) {
      lds_Path *pa = lds_search_path(sp, NULL), *pb = lds_search_path(fresh, NULL);
      lds_Stats x, y;
      lds_search_stats(sp, &x);
      lds_search_stats(fresh, &y);
      if (!same_path(pa, pb) || x.expansions != y.expansions) bad++;
      lds_path_free(pa);
      lds_path_free(pb);
    }
  }
  lds_search_free(fresh);
  return bad;
}

static void diff_suite(lds_Diagonal rule) {
  th_Rng r;
  Tally t;
  int m;
  memset(&t, 0, sizeof t);
  r.s = 0x9E3779B97F4A7C15ULL + (unsigned long long)rule;
  for (m = 0; m < 60; m++) {
    int32_t w = 8 + th_randint(&r, 90), h = 8 + th_randint(&r, 90), q, c[4];
    lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
    lds_Search *sa, *sj, *sp;
    int kind = m % 3;
    if (kind == 0) make_random(g, &r, th_randint(&r, 46));
    if (kind == 1) make_maze(g, &r, 1 + th_randint(&r, 4), th_randint(&r, 3) * th_randint(&r, 20));
    if (kind == 2) make_rooms(g, &r, 3 + th_randint(&r, 10));
    lds_grid_set_diagonal(g, rule);
    sa = lds_search_new(NULL, g, NULL);
    sj = lds_search_new(NULL, g, NULL);
    sp = lds_search_new(NULL, g, NULL);
    for (q = 0; q < 60; q++) {
      random_query(&r, g, c);
      diff_query(&t, sa, sj, sp, c[0], c[1], c[2], c[3], q % 10 == 0);
    }
    /* edits between queries: bit grid and JPS+ tables must follow */
    for (q = 0; q < 20; q++) {
      int e, ne = 1 + th_randint(&r, 6);
      for (e = 0; e < ne; e++)
        lds_grid_set_blocked(g, th_randint(&r, w), th_randint(&r, h), th_randint(&r, 3) == 0);
      random_query(&r, g, c);
      diff_query(&t, sa, sj, sp, c[0], c[1], c[2], c[3], q % 5 == 0);
    }
    if (rule == LDS_DIAG_NO_CORNER_CUTTING)
      CHECK_INT(edited_vs_fresh(&r, g, sp, 20, LDS_ALGO_JPS_PLUS), 0);
    CHECK_INT(edited_vs_fresh(&r, g, sj, 20, LDS_ALGO_JPS), 0);
    lds_search_free(sa);
    lds_search_free(sj);
    lds_search_free(sp);
    lds_grid_free(g);
  }
  CHECK_INT(t.queries, 60 * 80);
  CHECK(t.found > t.queries / 3);  /* the generator makes real problems */
  CHECK(t.nopath > 50);            /* ... unreachable goals */
  CHECK(t.same_cell > 50);         /* ... and start == goal */
  check_tally(&t);
}

/* ------------------------------------------------------------ cases -- */

static void test_small_cases(void) {
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, 10, 5, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path, *jp;
  lds_JpsInfo info;
  int32_t x, y;
  /* empty grid: one diagonal and one straight segment */
  CHECK_INT(solve(s, LDS_ALGO_JPS, 0, 0, 9, 4), LDS_FOUND);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_JPS);
  CHECK_NEAR(lds_search_cost(s), 5.0 + 4.0 * 1.4142135623730951, 1e-12);
  path = lds_search_path(s, NULL);
  jp = lds_search_jump_points(s, NULL);
  CHECK_INT(lds_path_length(path), 10);
  CHECK_INT(lds_path_length(jp), 3);
  lds_path_cell(jp, 1, &x, &y);
  CHECK_INT(x, 4); /* diagonal first (canonical), then straight */
  CHECK_INT(y, 4);
  lds_path_free(path);
  lds_path_free(jp);
  /* start == goal */
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 3, 3, 3, 3), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 0.0, 0);
  path = lds_search_path(s, NULL);
  CHECK_INT(lds_path_length(path), 1);
  lds_path_free(path);
  lds_search_jps_info(s, &info);
  CHECK(info.bitgrid_bytes > 0);
  CHECK_INT(info.plus_bytes, 12 * 7 * 8 * 1 + 2 * (10 + 5 - 1)); /* int8 entries */

  /* wall with a gap: JPS+ local update after edits */
  for (y = 0; y < 5; y++) lds_grid_set_blocked(g, 5, y, y != 2);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 9, 0), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 5.0 + 4.0 * 1.4142135623730951, 1e-12);
  lds_search_jps_info(s, &info);
  CHECK_INT(info.plus_updates, 4); /* (5,2) stayed open: no notification */
  lds_grid_set_blocked(g, 5, 2, true);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 9, 0), LDS_NO_PATH);
  CHECK_INT(solve(s, LDS_ALGO_JPS, 0, 0, 9, 0), LDS_NO_PATH);
  /* partial path: to A*'s closest reachable cell */
  lds_search_params_init(&p);
  p.algo = LDS_ALGO_JPS;
  p.partial = true;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  path = lds_search_path(s, &err);
  CHECK(path != NULL);
  CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
  /* a full wall leaves no jump point to expand: the path ends at (4,0),
  ** beside the wall, a cell the jump east passed (as A*'s, cost 4) */
  CHECK_INT(lds_path_length(path), 5);
  lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
  CHECK_INT(x, 4);
  CHECK_INT(y, 0);
  CHECK_NEAR(lds_path_cost(path), 4.0, 0);
  CHECK(path_ok(g, path, 0, 0, x, y));
  lds_path_free(path);
  lds_grid_set_blocked(g, 5, 2, false); /* a gap: partial path ends beside the goal */
  lds_grid_set_blocked(g, 8, 0, true);
  lds_grid_set_blocked(g, 8, 1, true);
  lds_grid_set_blocked(g, 9, 1, true);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
  path = lds_search_path(s, &err);
  lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
  CHECK(x >= 6);
  CHECK(path_ok(g, path, 0, 0, x, y));
  lds_grid_set_blocked(g, 8, 0, false);
  lds_grid_set_blocked(g, 8, 1, false);
  lds_grid_set_blocked(g, 9, 1, false);
  lds_grid_set_blocked(g, 5, 2, true);
  lds_path_free(path);
  /* no path: lds_search_jump_points refuses like lds_search_path */
  solve(s, LDS_ALGO_JPS, 0, 0, 9, 0);
  CHECK(lds_search_jump_points(s, &err) == NULL);
  CHECK_INT(err.code, LDS_E_STATE);
  CHECK_STR(err.msg, "lds_search_jump_points: no path (status no_path)");

  /* stale: the grid changes under a running query */
  lds_grid_set_blocked(g, 5, 2, false);
  CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_RUNNING);
  lds_grid_set_blocked(g, 0, 4, true);
  CHECK_INT(lds_search_step(s, &(lds_Budget){1, 0}), LDS_E_STALE);
  CHECK_CONTAINS(lds_search_errmsg(s), "the grid changed since the query started");
  /* exact expansion budget */
  {
    lds_Stats st;
    CHECK_INT(lds_search_start(s, &p, 0, 0, 9, 0), LDS_OK);
    CHECK_INT(lds_search_step(s, &(lds_Budget){2, 0}), LDS_RUNNING);
    lds_search_stats(s, &st);
    CHECK_INT(st.expansions, 2);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

/* Where JPS is not optimal, a JPS query runs A* and says so. */
/* A diagonal jump's intermediate jump point is pruned: the straight jump
** point it finds becomes the start's successor, joined by a diagonal then a
** straight segment, and both path forms show the corner. */
static void test_pruned_link(void) {
  lds_Grid *g = lds_grid_new(NULL, 12, 6, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  static const int32_t want[4][2] = {{0, 0}, {4, 4}, {7, 4}, {11, 0}};
  int32_t x, y, i, k;
  lds_Stats st;
  for (y = 0; y < 4; y++) lds_grid_set_blocked(g, 6, y, true); /* a wall, open below y = 4 */
  for (k = 0; k < 2; k++) {
    lds_Path *path, *jp;
    CHECK_INT(solve(s, k ? LDS_ALGO_JPS_PLUS : LDS_ALGO_JPS, 0, 0, 11, 0), LDS_FOUND);
    CHECK_NEAR(lds_search_cost(s), 3.0 + 8.0 * 1.4142135623730951, 1e-12);
    lds_search_stats(s, &st);
    CHECK_INT((int)st.expansions, 3); /* start, (7,4), goal: (4,4) never enters the open list */
    jp = lds_search_jump_points(s, NULL);
    path = lds_search_path(s, NULL);
    CHECK_INT(lds_path_length(jp), 4);
    for (i = 0; i < 4 && i < (int32_t)lds_path_length(jp); i++) {
      lds_path_cell(jp, (size_t)i, &x, &y);
      CHECK_INT(x, want[i][0]);
      CHECK_INT(y, want[i][1]);
    }
    CHECK_INT(lds_path_length(path), 12); /* 11 moves: 4 diagonal, 3 straight, 4 diagonal */
    for (i = 0; i < 12 && i < (int32_t)lds_path_length(path); i++) {
      lds_path_cell(path, (size_t)i, &x, &y);
      CHECK_INT(x, i);
      CHECK_INT(y, i <= 4 ? i : i <= 7 ? 4 : 11 - i);
    }
    lds_path_free(path);
    lds_path_free(jp);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

static void test_fallback(void) {
  lds_Grid *g = lds_grid_new(NULL, 30, 20, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL), *a = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  double w = 2.0;
  int li;
  th_Rng r;
  r.s = 7;
  make_random(g, &r, 20);
  lds_grid_set_blocked(g, 0, 0, false);
  lds_grid_set_blocked(g, 29, 19, false);
  /* uniform: runs JPS */
  CHECK_INT(solve(s, LDS_ALGO_JPS, 0, 0, 29, 19), solve(a, LDS_ALGO_ASTAR, 0, 0, 29, 19));
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_JPS);
  /* a cell cost: A* */
  lds_grid_set_cost(g, 10, 10, 5.0f);
  CHECK_INT(solve(s, LDS_ALGO_JPS, 0, 0, 29, 19), solve(a, LDS_ALGO_ASTAR, 0, 0, 29, 19));
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  CHECK(lds_search_cost(s) == lds_search_cost(a));
  { /* an A* query's "jump points" are all its cells */
    lds_Path *full = lds_search_path(s, NULL), *jp = lds_search_jump_points(s, NULL);
    CHECK(same_path(full, jp));
    CHECK(lds_path_length(jp) > 20);
    lds_path_free(full);
    lds_path_free(jp);
  }
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 29, 19), LDS_FOUND);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  lds_grid_set_cost(g, 10, 10, 1.0f);
  /* a layer weight: A* */
  lds_grid_layer_add(g, "danger", &li);
  lds_grid_layer_set(g, li, 3, 3, 4.0f);
  lds_search_params_init(&p);
  p.algo = LDS_ALGO_JPS;
  p.layer_weights = &w;
  p.n_layer_weights = 1;
  CHECK_INT(lds_search_start(s, &p, 0, 0, 29, 19), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  /* 4-neighbourhood, never, allow_one_blocked: A* */
  lds_grid_set_neighbourhood(g, 4);
  CHECK_INT(solve(s, LDS_ALGO_JPS, 0, 0, 29, 19), solve(a, LDS_ALGO_ASTAR, 0, 0, 29, 19));
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  CHECK(lds_search_cost(s) == lds_search_cost(a));
  lds_grid_set_neighbourhood(g, 8);
  lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED);
  solve(s, LDS_ALGO_JPS, 0, 0, 29, 19);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  solve(s, LDS_ALGO_JPS, 0, 0, 29, 19);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_ASTAR);
  /* always: JPS+ runs JPS (tables are for no_corner_cutting) */
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 29, 19), solve(a, LDS_ALGO_ASTAR, 0, 0, 29, 19));
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_JPS);
  CHECK_NEAR(lds_search_cost(s), lds_search_cost(a), 1e-9 * lds_search_cost(a));
  /* back to no_corner_cutting after edits under another rule: tables rebuilt */
  lds_grid_set_blocked(g, 15, 10, true);
  lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 29, 19), solve(a, LDS_ALGO_ASTAR, 0, 0, 29, 19));
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_JPS_PLUS);
  CHECK_NEAR(lds_search_cost(s), lds_search_cost(a), 1e-9 * lds_search_cost(a));
  /* other algorithms report themselves */
  solve(s, LDS_ALGO_DIJKSTRA, 0, 0, 29, 19);
  CHECK_INT(lds_search_algo_used(s), LDS_ALGO_DIJKSTRA);
  lds_search_free(s);
  lds_search_free(a);
  lds_grid_free(g);
}

/* Out of memory while building the bit grids / tables: clean error, no leak. */
static void test_oom(void) {
  th_Alloc al;
  lds_Env env;
  long n;
  int ok = 0, nomem = 0;
  for (n = 1; n < 12; n++) {
    lds_Grid *g;
    lds_Search *s;
    lds_Status st;
    memset(&al, 0, sizeof al);
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &al;
    g = lds_grid_new(&env, 20, 20, NULL);
    s = lds_search_new(&env, g, NULL);
    CHECK_INT(lds_search_reserve(s), LDS_OK); /* the node records: only prepare allocates below */
    al.fail_at = al.count + n;
    st = lds_search_jps_prepare(s, true);
    if (st == LDS_OK) {
      ok++;
      CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 19, 19), LDS_FOUND);
    } else {
      nomem++;
      CHECK_INT(st, LDS_E_NOMEM);
      CHECK_CONTAINS(lds_search_errmsg(s), "lds_search_jps_prepare: out of memory for the");
      al.fail_at = 0;
      CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 0, 19, 19), LDS_FOUND); /* recovers */
      CHECK_NEAR(lds_search_cost(s), 19 * 1.4142135623730951, 1e-9);
    }
    al.fail_at = 0;
    lds_search_free(s);
    lds_grid_free(g);
    CHECK_INT(al.live, 0);
  }
  CHECK(nomem >= 4);
  CHECK(ok >= 1);
}

/* A Moving AI scenario from tests/data: JPS and JPS+ match the optimal lengths. */
static void test_scen(void) {
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, "tests/data/den011d.map", &err);
  lds_Scenario *sc = lds_scen_load(NULL, "tests/data/den011d.map.scen", &err);
  lds_Search *s;
  size_t i;
  int k, bad = 0, n = 0;
  CHECK(g != NULL && sc != NULL);
  if (!g || !sc) return;
  s = lds_search_new(NULL, g, NULL);
  for (k = 0; k < 2; k++)
    for (i = 0; i < lds_scen_count(sc); i++) {
      const lds_ScenEntry *e = lds_scen_entry(sc, i);
      lds_Status st = solve(s, k ? LDS_ALGO_JPS_PLUS : LDS_ALGO_JPS, e->sx, e->sy, e->gx, e->gy);
      n++;
      if (st != LDS_FOUND || !lds_scen_matches(e, lds_search_cost(s))) bad++;
    }
  CHECK_INT(n, 2 * 780);
  CHECK_INT(bad, 0);
  lds_search_free(s);
  lds_scen_free(sc);
  lds_grid_free(g);
}

/* JPS+ distances beyond the int16 range: a 40000-cell corridor. */
static void test_long_lines(void) {
  lds_Grid *g = lds_grid_new(NULL, 40000, 3, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL), *a = lds_search_new(NULL, g, NULL);
  int32_t x;
  for (x = 0; x < 40000; x++) lds_grid_set_blocked(g, x, 0, true);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 1, 39999, 1), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 39999.0, 0);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 39999, 2, 0, 1), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 39998.0 + 1.4142135623730951, 1e-9);
  CHECK_INT(solve(s, LDS_ALGO_JPS, 39999, 2, 0, 1), LDS_FOUND);
  CHECK_NEAR(lds_search_cost(s), 39998.0 + 1.4142135623730951, 1e-9);
  lds_grid_set_blocked(g, 20000, 1, true); /* a pillar: jump point beyond 32767 */
  lds_grid_set_blocked(g, 35000, 2, true);
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 0, 1, 39999, 2), solve(a, LDS_ALGO_ASTAR, 0, 1, 39999, 2));
  CHECK_NEAR(lds_search_cost(s), lds_search_cost(a), 1e-9 * lds_search_cost(a));
  CHECK_INT(solve(s, LDS_ALGO_JPS_PLUS, 39999, 1, 0, 2), solve(a, LDS_ALGO_ASTAR, 39999, 1, 0, 2));
  CHECK_NEAR(lds_search_cost(s), lds_search_cost(a), 1e-9 * lds_search_cost(a));
  lds_search_free(s);
  lds_search_free(a);
  lds_grid_free(g);
}

/* Wide, sparsely blocked maps: jumps longer than the JPS+ table's int8
** range (continuations, see plus_entry in lds_jps.c), straight and
** diagonal, before and after edits; JPS and JPS+ against A*, and the edited
** JPS+ tables against freshly built ones. */
static void test_wide_open(void) {
  th_Rng r;
  Tally t;
  int m, bad = 0;
  memset(&t, 0, sizeof t);
  r.s = 0xC0FFEEULL;
  for (m = 0; m < 6; m++) {
    int32_t w = 200 + th_randint(&r, 250), h = 140 + th_randint(&r, 150), q, c[4];
    lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
    lds_Search *sa = lds_search_new(NULL, g, NULL), *sj = lds_search_new(NULL, g, NULL),
               *sp = lds_search_new(NULL, g, NULL);
    make_random(g, &r, m % 3 == 0 ? 0 : 1 + th_randint(&r, 4));
    if (m % 2) lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
    for (q = 0; q < 40; q++) {
      random_query(&r, g, c);
      diff_query(&t, sa, sj, sp, c[0], c[1], c[2], c[3], q % 10 == 0);
    }
    for (q = 0; q < 20; q++) {
      int e;
      for (e = 0; e < 3; e++)
        lds_grid_set_blocked(g, th_randint(&r, w), th_randint(&r, h), th_randint(&r, 3) != 0);
      random_query(&r, g, c);
      diff_query(&t, sa, sj, sp, c[0], c[1], c[2], c[3], q % 5 == 0);
    }
    bad += edited_vs_fresh(&r, g, sp, 20, LDS_ALGO_JPS_PLUS);
    bad += edited_vs_fresh(&r, g, sj, 20, LDS_ALGO_JPS);
    lds_search_free(sa);
    lds_search_free(sj);
    lds_search_free(sp);
    lds_grid_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK_INT(t.queries, 6 * 60);
  CHECK(t.found > t.queries / 2);
  check_tally(&t);
}

/* The jump events follow a change of the diagonal rule and edits after it:
** one search kept across the changes answers as a fresh one, at the cost
** A* finds. */
static void test_rule_switch(void) {
  th_Rng r;
  int round, bad = 0, cost_bad = 0, found = 0;
  lds_Grid *g = lds_grid_new(NULL, 70, 50, NULL);
  lds_Search *sj = lds_search_new(NULL, g, NULL), *sa = lds_search_new(NULL, g, NULL);
  r.s = 0x5EEDULL;
  make_random(g, &r, 25);
  for (round = 0; round < 6; round++) {
    int q;
    lds_grid_set_diagonal(g, round % 2 ? LDS_DIAG_ALWAYS : LDS_DIAG_NO_CORNER_CUTTING);
    if (round >= 2)
      for (q = 0; q < 30; q++)
        lds_grid_set_blocked(g, th_randint(&r, 70), th_randint(&r, 50), th_randint(&r, 3) == 0);
    bad += edited_vs_fresh(&r, g, sj, 15, LDS_ALGO_JPS);
    for (q = 0; q < 15; q++) {
      int32_t c[4];
      lds_Status a, b;
      random_query(&r, g, c);
      a = solve(sa, LDS_ALGO_ASTAR, c[0], c[1], c[2], c[3]);
      b = solve(sj, LDS_ALGO_JPS, c[0], c[1], c[2], c[3]);
      if (a != b) cost_bad++;
      if (a == LDS_FOUND && b == LDS_FOUND) {
        found++;
        if (fabs(lds_search_cost(sa) - lds_search_cost(sj)) > 1e-9 * lds_search_cost(sa))
          cost_bad++;
      }
    }
  }
  CHECK_INT(bad, 0);
  CHECK_INT(cost_bad, 0);
  CHECK(found > 30);
  lds_search_free(sa);
  lds_search_free(sj);
  lds_grid_free(g);
}

/* One search object answering JPS, JPS+ and A* queries in turn, with edits
** in between, answers each exactly as a new search does (same status,
** path and expansions): nothing of one query (the goal's mark in the jump
** events, the events themselves) leaks into the next. */
static void test_mixed_queries(void) {
  static const lds_Algo algos[3] = {LDS_ALGO_JPS, LDS_ALGO_ASTAR, LDS_ALGO_JPS_PLUS};
  th_Rng r;
  int q, bad = 0, found = 0;
  lds_Grid *g = lds_grid_new(NULL, 61, 43, NULL);
  lds_Search *sm = lds_search_new(NULL, g, NULL);
  r.s = 0xA11CEULL;
  make_random(g, &r, 20);
  int32_t c[4] = {0, 0, 0, 0};
  for (q = 0; q < 120; q++) {
    lds_Algo algo = algos[th_randint(&r, 3)];
    lds_Search *fresh = lds_search_new(NULL, g, NULL);
    lds_Status a, b;
    if (q % 4 == 3 && !lds_grid_blocked(g, c[2], c[3])) {
      /* an edit on the last goal's row or column, then the same query again */
      int32_t x = th_randint(&r, 61), y = th_randint(&r, 43);
      if (q % 8 == 3) y = c[3];
      else x = c[2];
      if (x != c[2] || y != c[3]) lds_grid_set_blocked(g, x, y, !lds_grid_blocked(g, x, y));
      algo = LDS_ALGO_JPS;
    } else {
      random_query(&r, g, c);
    }
    a = solve(sm, algo, c[0], c[1], c[2], c[3]);
    b = solve(fresh, algo, c[0], c[1], c[2], c[3]);
    if (a != b) bad++;
    if (a == LDS_FOUND && b == LDS_FOUND) {
      lds_Path *pa = lds_search_path(sm, NULL), *pb = lds_search_path(fresh, NULL);
      lds_Stats x, y;
      lds_search_stats(sm, &x);
      lds_search_stats(fresh, &y);
      if (!same_path(pa, pb) || x.expansions != y.expansions) bad++;
      found++;
      lds_path_free(pa);
      lds_path_free(pb);
    }
    lds_search_free(fresh);
  }
  CHECK_INT(bad, 0);
  CHECK(found > 50);
  lds_search_free(sm);
  lds_grid_free(g);
}


/* A partial path ends at the reachable cell closest to the walled-in goal
** (5,2), as A*'s: (3,2), at distance 2, cost 1 + 2*sqrt(2), a cell that no
** jump point is on but a jump passes (track_scans in core/lds_jps.c). */
static void test_partial_cut(void) {
  static const char *rows[5] = {".......", "....@@@", "....@.@", "....@@@", "......."};
  lds_Grid *g = lds_grid_new(NULL, 7, 5, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path, *jp;
  int32_t x, y, i;
  int algo;
  for (y = 0; y < 5; y++)
    for (x = 0; x < 7; x++) lds_grid_set_blocked(g, x, y, rows[y][x] == '@');
  for (algo = 0; algo < 2; algo++) {
    lds_search_params_init(&p);
    p.algo = algo ? LDS_ALGO_JPS_PLUS : LDS_ALGO_JPS;
    p.partial = true;
    CHECK_INT(lds_search_start(s, &p, 0, 0, 5, 2), LDS_OK);
    CHECK_INT(lds_search_step(s, NULL), LDS_NO_PATH);
    path = lds_search_path(s, NULL);
    CHECK(path != NULL);
    CHECK_INT(lds_path_flags(path), LDS_PATH_PARTIAL);
    CHECK_INT(lds_path_length(path), 4);
    lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
    CHECK_INT(x, 3);
    CHECK_INT(y, 2);
    CHECK_NEAR(lds_path_cost(path), 1.0 + 2.0 * 1.4142135623730951, 0);
    CHECK(path_ok(g, path, 0, 0, 3, 2));
    /* the sparse form ends at the same cell with the same cost */
    jp = lds_search_jump_points(s, NULL);
    CHECK(jp != NULL);
    CHECK(jumps_ok(path, jp));
    lds_path_free(jp);
    lds_path_free(path);
  }
  /* random maps, unreachable goals: every partial path ends at its first
  ** cell of smallest distance to the goal, is legal, and its sparse form
  ** agrees (tests/c/test_partial.c compares the cell and cost with A*'s) */
  {
    th_Rng r;
    lds_Grid *gr = lds_grid_new(NULL, 40, 30, NULL);
    lds_Search *sr = lds_search_new(NULL, gr, NULL);
    long checked = 0, cut_ok = 0;
    r.s = 4242;
    for (i = 0; i < 400; i++) {
      int32_t sx, sy, gx, gy, k;
      size_t n, j, first = 0;
      double best = INFINITY;
      make_random(gr, &r, 25 + (int)th_randint(&r, 20));
      sx = (int32_t)th_randint(&r, 40);
      sy = (int32_t)th_randint(&r, 30);
      gx = (int32_t)th_randint(&r, 40);
      gy = (int32_t)th_randint(&r, 30);
      lds_grid_set_blocked(gr, sx, sy, false);
      lds_grid_set_blocked(gr, gx, gy, false);
      for (k = 0; k < 8; k++) { /* wall the goal in */
        int32_t wx = gx + lds_dir_dx[k], wy = gy + lds_dir_dy[k];
        if (wx >= 0 && wy >= 0 && wx < 40 && wy < 30 && (wx != sx || wy != sy))
          lds_grid_set_blocked(gr, wx, wy, true);
      }
      lds_search_params_init(&p);
      p.algo = (i & 1) ? LDS_ALGO_JPS_PLUS : LDS_ALGO_JPS;
      p.partial = true;
      if (lds_search_start(sr, &p, sx, sy, gx, gy) != LDS_OK) continue;
      if (lds_search_step(sr, NULL) != LDS_NO_PATH) continue;
      path = lds_search_path(sr, NULL);
      jp = lds_search_jump_points(sr, NULL);
      checked++;
      n = lds_path_length(path);
      for (j = 0; j < n; j++) {
        double d, ax, ay;
        lds_path_cell(path, j, &x, &y);
        ax = fabs((double)(gx - x));
        ay = fabs((double)(gy - y));
        d = ax * ax + ay * ay;
        if (d < best) {
          best = d;
          first = j;
        }
      }
      lds_path_cell(path, n - 1, &x, &y);
      if (first == n - 1 && path_ok(gr, path, sx, sy, x, y) && jumps_ok(path, jp)) cut_ok++;
      lds_path_free(jp);
      lds_path_free(path);
    }
    CHECK(checked > 100);
    CHECK_INT(cut_ok, checked);
    lds_search_free(sr);
    lds_grid_free(gr);
  }
  lds_search_free(s);
  lds_grid_free(g);
}

void suite_jps(void);
void suite_jps(void) {
  test_long_lines();
  test_wide_open();
  test_small_cases();
  test_pruned_link();
  test_partial_cut();
  test_fallback();
  test_oom();
  test_scen();
  test_rule_switch();
  test_mixed_queries();
  diff_suite(LDS_DIAG_NO_CORNER_CUTTING);
  diff_suite(LDS_DIAG_ALWAYS);
}
