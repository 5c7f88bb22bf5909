/* SPDX-License-Identifier: MIT */
/* test_path_cost.c — exact weighted path costs and cost-keeping line-of-
** sight pruning (core/lds_postprocess.h, "Cost of a path"): worked
** examples, the 7x3 staircase, a swamp the weighted path avoids, blocked
** crossings, bad input, and random grids checked against an integration
** written here apart from the library's (sorted border crossings, each
** piece's cell found from its midpoint). */
#include "harness.h"
#include "lds.h"

#include <math.h>
#include <stdlib.h>

static lds_Path *cells_path(const int32_t *xy, size_t n, int32_t w) {
  uint32_t ids[256];
  size_t i;
  for (i = 0; i < n; i++) ids[i] = (uint32_t)(xy[2 * i + 1] * w + xy[2 * i]);
  return lds_path_new(NULL, ids, n, w, 0.0, 0, NULL);
}

/* Effective cost of (x,y) under weights w[0..nw): INFINITY when blocked/outside. */
static double ref_eff(const lds_Grid *g, const double *w, int nw, int32_t x, int32_t y) {
  double c;
  int i;
  if (!lds_grid_in_bounds(g, x, y) || lds_grid_blocked(g, x, y)) return INFINITY;
  c = (double)lds_grid_cost(g, x, y);
  for (i = 0; i < nw; i++)
    if (w[i] != 0.0) c += w[i] * (double)lds_grid_layer_get(g, i, x, y);
  return c;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Cost of the segment between the centres of (ax,ay) and (bx,by): the
** length in each crossed cell times its cost, the start cell's length at
** the end cell's cost. */
static double ref_segment(const lds_Grid *g, const double *w, int nw, int32_t ax, int32_t ay,
                          int32_t bx, int32_t by) {
  double ts[1024], dx = bx - ax, dy = by - ay, len = sqrt(dx * dx + dy * dy), total = 0.0;
  double cend = ref_eff(g, w, nw, bx, by);
  size_t n = 0, i;
  int32_t k;
  int first = 1;
  ts[n++] = 0.0;
  ts[n++] = 1.0;
  for (k = (ax < bx ? ax : bx); k < (ax < bx ? bx : ax); k++) ts[n++] = (k + 0.5 - ax) / dx;
  for (k = (ay < by ? ay : by); k < (ay < by ? by : ay); k++) ts[n++] = (k + 0.5 - ay) / dy;
  qsort(ts, n, sizeof ts[0], cmp_double);
  for (i = 1; i < n; i++) {
    double tm = (ts[i - 1] + ts[i]) / 2, piece = (ts[i] - ts[i - 1]) * len;
    int32_t cx = (int32_t)floor(ax + dx * tm + 0.5), cy = (int32_t)floor(ay + dy * tm + 0.5);
    if (piece <= 1e-9) continue;
    total += piece * (first ? cend : ref_eff(g, w, nw, cx, cy));
    first = 0;
  }
  return total;
}

static double ref_path(const lds_Grid *g, const double *w, int nw, const lds_Path *p) {
  double total = 0.0;
  size_t i;
  for (i = 1; i < lds_path_length(p); i++) {
    int32_t ax, ay, bx, by;
    lds_path_cell(p, i - 1, &ax, &ay);
    lds_path_cell(p, i, &bx, &by);
    total += ref_segment(g, w, nw, ax, ay, bx, by);
  }
  return total;
}

static int rel_near(double a, double b, double rel) {
  double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  return fabs(a - b) <= rel * (m > 1.0 ? m : 1.0);
}

static unsigned lcg_next(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

static lds_Path *find(lds_Grid *g, const double *w, int nw, int32_t sx, int32_t sy, int32_t gx,
                      int32_t gy) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams prm;
  lds_Path *p = NULL;
  lds_search_params_init(&prm);
  prm.layer_weights = w;
  prm.n_layer_weights = nw;
  if (lds_search_start(s, &prm, sx, sy, gx, gy) == LDS_OK && lds_search_step(s, NULL) == LDS_FOUND)
    p = lds_search_path(s, NULL);
  lds_search_free(s);
  return p;
}

void suite_path_cost(void);
void suite_path_cost(void) {
  lds_Error err;
  double c = -1.0;

  /* worked example: (0,0)->(2,1) crosses (0,0) (1,0) (1,1) (2,1), sqrt(5)/4 in
  ** each; the quarter in (0,0) is charged at (2,1)'s cost 4 */
  {
    lds_Grid *g = lds_grid_new(NULL, 3, 2, NULL);
    static const int32_t xy[] = {0, 0, 2, 1};
    static const double line[] = {0, 0, 2, 1}, cut[] = {0, 0, 1, 0.5, 2, 1};
    static const double near_cut[] = {0, 0, 0.3, 0.15, 1.7, 0.85, 2, 1};
    lds_Path *p = cells_path(xy, 2, 3);
    double want = 0.25 * sqrt(5.0) * (4 + 2 + 3 + 4);
    lds_grid_set_cost(g, 1, 0, 2);
    lds_grid_set_cost(g, 1, 1, 3);
    lds_grid_set_cost(g, 2, 1, 4);
    CHECK_INT(lds_grid_path_cost(g, p, &c, &err), LDS_OK);
    CHECK_NEAR(c, want, 1e-12);
    CHECK_NEAR(ref_path(g, NULL, 0, p), want, 1e-12);
    CHECK_INT(lds_grid_polyline_cost(g, line, 2, NULL, 0, &c, &err), LDS_OK);
    CHECK_NEAR(c, want, 1e-12);
    CHECK_INT(lds_grid_polyline_cost(g, cut, 3, NULL, 0, &c, &err), LDS_OK); /* cut off-centre */
    CHECK_NEAR(c, want, 1e-12);
    CHECK_INT(lds_grid_polyline_cost(g, near_cut, 4, NULL, 0, &c, &err), LDS_OK);
    CHECK_NEAR(c, want, 1e-12);
    CHECK_INT(lds_grid_polyline_cost(g, line, 1, NULL, 0, &c, &err), LDS_OK);
    CHECK_NEAR(c, 0.0, 0);
    { /* far off the grid: +inf at once, no walk through 1e15 cells */
      static const double far[] = {0, 0, 1e15, 0}, inside_edge[] = {-0.5, 0, 0, 0};
      CHECK_INT(lds_grid_polyline_cost(g, far, 2, NULL, 0, &c, &err), LDS_OK);
      CHECK(c == INFINITY);
      CHECK_INT(lds_grid_polyline_cost(g, inside_edge, 2, NULL, 0, &c, &err), LDS_OK);
      CHECK_NEAR(c, 0.5, 1e-12); /* from the grid's border to the centre of (0,0) */
    }
    lds_path_free(p);
    lds_grid_free(g);
  }

  /* along the edge x = 0.5 between columns 0 and 1: the dearer cell of each row */
  {
    lds_Grid *g = lds_grid_new(NULL, 2, 2, NULL);
    static const double edge[] = {0.5, 0, 0.5, 1};
    lds_grid_set_cost(g, 1, 0, 5);
    lds_grid_set_cost(g, 0, 1, 2);
    lds_grid_set_cost(g, 1, 1, 3);
    CHECK_INT(lds_grid_polyline_cost(g, edge, 2, NULL, 0, &c, &err), LDS_OK);
    CHECK_NEAR(c, 0.5 * 5 + 0.5 * 3, 1e-12);
    lds_grid_free(g);
  }

  /* the 7x3 staircase under "always": (0,0) sees (6,2) past (4,1), which it
  ** does not see; the segment passes two corners, no length in a wall */
  {
    static const char *rows[] = {"..@@@@@", "@@...@@", "@@@@@.."};
    static const int32_t xy[] = {0, 0, 1, 0, 2, 1, 3, 1, 4, 1, 5, 2, 6, 2};
    lds_Grid *g = lds_grid_new(NULL, 7, 3, NULL);
    lds_Path *p = cells_path(xy, 7, 7), *q;
    size_t kept[7];
    int32_t x, y, r, k;
    for (r = 0; r < 3; r++)
      for (k = 0; k < 7; k++) lds_grid_set_blocked(g, k, r, rows[r][k] == '@');
    lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
    CHECK(lds_grid_line_of_sight(g, 0, 0, 6, 2));
    CHECK(!lds_grid_line_of_sight(g, 0, 0, 4, 1));
    q = lds_path_prune_los_weighted(p, g, NULL, 0, kept, &err);
    CHECK(q != NULL);
    if (q) {
      CHECK_INT(lds_path_length(q), 2);
      CHECK(lds_path_cell(q, 1, &x, &y) && x == 6 && y == 2);
      CHECK_NEAR(lds_path_cost(q), sqrt(40.0), 1e-12);
      CHECK_INT(kept[0], 0);
      CHECK_INT(kept[1], 6);
      lds_path_free(q);
    }
    lds_path_free(p);
    lds_grid_free(g);
  }

  /* a swamp (layer 0, value 4, weight 1) the weighted path avoids: pruning
  ** under the same weights keeps it out; under base costs it cuts through */
  {
    lds_Grid *g = lds_grid_new(NULL, 21, 10, NULL);
    double w[1] = {1.0}, base, ref;
    lds_Path *p, *q, *b;
    int32_t x, y;
    size_t i;
    lds_grid_layer_add(g, "swamp", NULL);
    for (y = 2; y < 10; y++)
      for (x = 4; x <= 16; x++) lds_grid_layer_set(g, 0, x, y, 4.0f);
    p = find(g, w, 1, 0, 9, 20, 9);
    CHECK(p != NULL);
    if (p) {
      CHECK_INT(lds_grid_path_cost_weighted(g, p, w, 1, &c, &err), LDS_OK);
      CHECK(rel_near(c, lds_path_cost(p), 1e-12));
      q = lds_path_prune_los_weighted(p, g, w, 1, NULL, &err);
      b = lds_path_prune_los(p, g, &err);
      CHECK(q != NULL && b != NULL);
      if (q && b) {
        ref = ref_path(g, w, 1, q);
        CHECK(rel_near(lds_path_cost(q), ref, 1e-12));
        CHECK(lds_path_cost(q) <= lds_path_cost(p));
        CHECK(lds_path_length(q) < lds_path_length(p));
        /* no length in the swamp: the weighted cost equals the base cost */
        base = ref_path(g, NULL, 0, q);
        CHECK(rel_near(base, ref, 1e-12));
        for (i = 0; i < lds_path_length(q); i++) {
          lds_path_cell(q, i, &x, &y);
          CHECK(lds_grid_layer_get(g, 0, x, y) == 0.0f);
        }
        CHECK_INT(lds_grid_path_cost_weighted(g, b, w, 1, &c, &err), LDS_OK);
        CHECK(c > lds_path_cost(p) + 1.0); /* the base-cost pruning is dearer under the weights */
      }
      lds_path_free(q);
      lds_path_free(b);
      lds_path_free(p);
    }
    lds_grid_free(g);
  }

  /* under allow_one_blocked, (0,0) sees (2,1) but the segment cuts (1,1) */
  {
    lds_Grid *g = lds_grid_new(NULL, 3, 2, NULL);
    static const int32_t two[] = {0, 0, 2, 1}, three[] = {0, 0, 1, 0, 2, 1};
    lds_Path *p2 = cells_path(two, 2, 3), *p3 = cells_path(three, 3, 3), *q;
    lds_grid_set_blocked(g, 1, 1, true);
    lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED);
    CHECK(lds_grid_line_of_sight(g, 0, 0, 2, 1));
    CHECK_INT(lds_grid_path_cost(g, p2, &c, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_path_cost: step 1 (0,0)->(2,1) crosses a blocked cell");
    q = lds_path_prune_los(p3, g, &err);
    CHECK(q != NULL);
    if (q) CHECK_INT(lds_path_length(q), 3);
    CHECK_NEAR(lds_path_cost(q), 1.0 + sqrt(2.0), 1e-12);
    lds_path_free(q);
    lds_path_free(p2);
    lds_path_free(p3);
    lds_grid_free(g);
  }

  /* bad input: weights, coordinates, a cell the weights make free of cost */
  {
    lds_Grid *g = lds_grid_new(NULL, 4, 1, NULL);
    static const int32_t xy[] = {0, 0, 3, 0};
    static const double pts[] = {0, 0, NAN, 0};
    double w2[2] = {1, 1}, wneg[1] = {-1}, winf[1] = {INFINITY};
    lds_Path *p = cells_path(xy, 2, 4);
    lds_grid_layer_add(g, "road", NULL);
    CHECK(lds_path_prune_los_weighted(p, g, w2, 2, NULL, &err) == NULL);
    CHECK_STR(err.msg,
              "lds_path_prune_los: 2 layer weights for a grid with 1 layers (expected 0..1)");
    CHECK_INT(lds_grid_path_cost_weighted(g, p, winf, 1, &c, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_path_cost: weight of layer 'road' is inf (expected finite)");
    CHECK_INT(lds_grid_polyline_cost(g, pts, 2, NULL, 0, &c, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_polyline_cost: point 2 has x nan (expected finite)");
    lds_grid_layer_set(g, 0, 2, 0, 1.0f);
    CHECK_INT(lds_grid_path_cost_weighted(g, p, wneg, 1, &c, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_path_cost: cell (2,0) has cost 0 under the layer weights "
                       "(expected finite, > 0)");
    lds_grid_layer_set(g, 0, 2, 0, INFINITY); /* blocked for queries that weight it */
    CHECK_INT(lds_grid_path_cost_weighted(g, p, w2, 1, &c, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_path_cost: step 1 (0,0)->(3,0) crosses a blocked cell (or one a "
                       "weighted layer blocks)");
    CHECK_INT(lds_grid_path_cost_weighted(g, p, wneg, 0, &c, &err), LDS_OK);
    CHECK_NEAR(c, 3.0, 1e-12);
    lds_path_free(p);
    lds_grid_free(g);
  }

  /* random grids, costs, layers and weights: the search's cost is the path
  ** cost, pruning is never dearer and reports what the reference computes */
  {
    unsigned seed = 16;
    int round, checked = 0, removed = 0;
    for (round = 0; round < 40; round++) {
      lds_Grid *g = lds_grid_new(NULL, 16, 16, NULL);
      double w[2];
      int i;
      lds_grid_set_diagonal(g, (lds_Diagonal)(round % 4));
      lds_grid_layer_add(g, "swamp", NULL);
      lds_grid_layer_add(g, "road", NULL);
      for (i = 0; i < 40; i++)
        lds_grid_set_blocked(g, lcg_next(&seed) % 16, lcg_next(&seed) % 16, true);
      for (i = 0; i < 50; i++)
        lds_grid_set_cost(g, lcg_next(&seed) % 16, lcg_next(&seed) % 16,
                          (float)(0.5 + (lcg_next(&seed) % 6) * 0.5));
      for (i = 0; i < 70; i++)
        lds_grid_layer_set(g, 0, lcg_next(&seed) % 16, lcg_next(&seed) % 16,
                           (float)(lcg_next(&seed) % 5));
      for (i = 0; i < 40; i++)
        lds_grid_layer_set(g, 1, lcg_next(&seed) % 16, lcg_next(&seed) % 16, 1);
      w[0] = (lcg_next(&seed) % 3) * 1.25;
      w[1] = (lcg_next(&seed) % 2) ? -0.25 : 0.0;
      for (i = 0; i < 6; i++) {
        int32_t sx = lcg_next(&seed) % 16, sy = lcg_next(&seed) % 16;
        int32_t gx = lcg_next(&seed) % 16, gy = lcg_next(&seed) % 16;
        lds_Path *p = find(g, w, 2, sx, sy, gx, gy), *q;
        size_t k;
        if (!p) continue;
        CHECK_INT(lds_grid_path_cost_weighted(g, p, w, 2, &c, &err), LDS_OK);
        CHECK(rel_near(c, lds_path_cost(p), 1e-12));
        CHECK(rel_near(ref_path(g, w, 2, p), lds_path_cost(p), 1e-12));
        q = lds_path_prune_los_weighted(p, g, w, 2, NULL, &err);
        CHECK(q != NULL);
        if (q) {
          double ref = ref_path(g, w, 2, q);
          if (!rel_near(lds_path_cost(q), ref, 1e-12))
            TH_FAIL("round %d: reported %.17g, reference %.17g", round, lds_path_cost(q), ref);
          if (!(lds_path_cost(q) <= c))
            TH_FAIL("round %d: pruned %.17g > original %.17g", round, lds_path_cost(q), c);
          for (k = 1; k < lds_path_length(q); k++) {
            int32_t ax, ay, bx, by;
            lds_path_cell(q, k - 1, &ax, &ay);
            lds_path_cell(q, k, &bx, &by);
            CHECK(lds_grid_line_of_sight(g, ax, ay, bx, by));
          }
          removed += (int)(lds_path_length(p) - lds_path_length(q));
          checked++;
          lds_path_free(q);
        }
        lds_path_free(p);
      }
      lds_grid_free(g);
    }
    CHECK(checked > 150);
    CHECK(removed > checked);
  }
}
