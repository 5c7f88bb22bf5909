/* SPDX-License-Identifier: MIT */
/*
** test_grid_funnel.c — lds_grid_funnel against an independent brute force:
** the shortest path through the same cell corridor by dynamic programming
** over the portal ends (a straight piece from a point on portal j to one on
** portal i is allowed when it meets every portal in between, in order), on
** A* paths over random maps; never longer than the input; points on the
** half-cell lattice; bad input.
*/
#include "harness.h"
#include "lds.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t rs;
static uint32_t rnd(void) {
  rs = rs * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rs >> 33);
}

typedef struct P2 {
  double x, y;
} P2;

/* portal i of cells c[0..n-1] (0 and n: the end centres), both ends */
static void bf_portal(const int32_t *c, size_t n, size_t i, P2 *a, P2 *b) {
  if (i == 0 || i == n) {
    size_t k = i == 0 ? 0 : n - 1;
    a->x = b->x = c[2 * k];
    a->y = b->y = c[2 * k + 1];
    return;
  }
  {
    double x0 = c[2 * i - 2], y0 = c[2 * i - 1], x1 = c[2 * i], y1 = c[2 * i + 1];
    double mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    if (x0 != x1 && y0 != y1) {
      a->x = b->x = mx;
      a->y = b->y = my;
    } else if (x0 != x1) { /* vertical edge */
      a->x = b->x = mx;
      a->y = my - 0.5;
      b->y = my + 0.5;
    } else {
      a->y = b->y = my;
      a->x = mx - 0.5;
      b->x = mx + 0.5;
    }
  }
}

/* Parameter interval [t0, t1] along A->B where it meets the closed segment
** C-D; false when it does not. */
static bool meet(P2 A, P2 B, P2 C, P2 D, double *t0, double *t1) {
  double rx = B.x - A.x, ry = B.y - A.y, sx = D.x - C.x, sy = D.y - C.y;
  double den = rx * sy - ry * sx;
  double qx = C.x - A.x, qy = C.y - A.y;
  if (den == 0.0) { /* parallel */
    double rr = rx * rx + ry * ry, ta, tb;
    if (qx * ry - qy * rx != 0.0) return false; /* not on one line */
    if (rr == 0.0) { /* A == B: on CD? */
      double ss = sx * sx + sy * sy, u = ss > 0 ? (qx * -sx + qy * -sy) / ss : 0;
      if (ss == 0.0) return qx == 0 && qy == 0 ? (*t0 = *t1 = 0, true) : false;
      if (u < 0 || u > 1 || (qx * sy - qy * sx) != 0) return false;
      *t0 = *t1 = 0;
      return true;
    }
    ta = (qx * rx + qy * ry) / rr;
    tb = ((D.x - A.x) * rx + (D.y - A.y) * ry) / rr;
    if (ta > tb) {
      double t = ta;
      ta = tb;
      tb = t;
    }
    if (tb < 0 || ta > 1) return false;
    *t0 = ta < 0 ? 0 : ta;
    *t1 = tb > 1 ? 1 : tb;
    return true;
  }
  {
    double t = (qx * sy - qy * sx) / den, u = (qx * ry - qy * rx) / den;
    if (t < -1e-12 || t > 1 + 1e-12 || u < -1e-12 || u > 1 + 1e-12) return false;
    *t0 = *t1 = t;
    return true;
  }
}

/* Shortest path length through the corridor of cells c (n of them). */
static double brute(const int32_t *c, size_t n) {
  size_t i, j, k;
  int e, f;
  double *d = (double *)malloc(2 * (n + 1) * sizeof(double));
  P2 *pt = (P2 *)malloc(2 * (n + 1) * sizeof(P2));
  double res;
  for (i = 0; i <= n; i++) bf_portal(c, n, i, &pt[2 * i], &pt[2 * i + 1]);
  for (i = 0; i < 2 * (n + 1); i++) d[i] = INFINITY;
  d[0] = d[1] = 0.0;
  for (i = 1; i <= n; i++)
    for (e = 0; e < 2; e++) {
      P2 B = pt[2 * i + e];
      for (j = 0; j < i; j++)
        for (f = 0; f < 2; f++) {
          P2 A = pt[2 * j + f];
          double tlast = 0.0, len;
          bool ok = true;
          if (d[2 * j + f] == INFINITY) continue;
          for (k = j + 1; k < i && ok; k++) {
            double t0, t1;
            if (!meet(A, B, pt[2 * k], pt[2 * k + 1], &t0, &t1) || t1 < tlast - 1e-12) ok = false;
            else if (t0 > tlast) tlast = t0;
          }
          if (!ok) continue;
          len = d[2 * j + f] + hypot(B.x - A.x, B.y - A.y);
          if (len < d[2 * i + e]) d[2 * i + e] = len;
        }
    }
  res = d[2 * n];
  free(d);
  free(pt);
  return res;
}

/* The corridor's definition (lds_grid_funnel.h), written again: p's cells
** with, at each diagonal move whose side cells are free, one of them put
** between its two cells; returns the count. */
static size_t corridor_of(const lds_Grid *g, const int32_t *pc, size_t n, int32_t *c) {
  size_t i, m = 0;
  for (i = 0; i < n; i++) {
    int32_t x = pc[2 * i], y = pc[2 * i + 1];
    if (i > 0 && pc[2 * i - 2] != x && pc[2 * i - 1] != y) {
      int32_t ax = pc[2 * i - 2], ay = pc[2 * i - 1];
      int32_t s1x = x, s1y = ay, s2x = ax, s2y = y;
      bool f1 = !lds_grid_blocked(g, s1x, s1y), f2 = !lds_grid_blocked(g, s2x, s2y);
      if (f1 && f2) {
        size_t ia = i >= 9 ? i - 9 : 0, ib = i + 8 < n ? i + 8 : n - 1;
        double cx = pc[2 * ia], cy = pc[2 * ia + 1];
        double ux = pc[2 * ib] - cx, uy = pc[2 * ib + 1] - cy;
        double d1 = fabs(ux * (s1y - cy) - uy * (s1x - cx));
        double d2 = fabs(ux * (s2y - cy) - uy * (s2x - cx));
        if (d2 < d1) f1 = false;
        else f2 = false;
      }
      if (f1 || f2) {
        c[2 * m] = f1 ? s1x : s2x;
        c[2 * m + 1] = f1 ? s1y : s2y;
        m++;
      }
    }
    c[2 * m] = x;
    c[2 * m + 1] = y;
    m++;
  }
  return m;
}

static void random_corridors(void) {
  int trial, mism = 0, longer = 0, lattice = 0, compared = 0, shorter = 0;
  rs = 777;
  for (trial = 0; trial < 150; trial++) {
    int32_t w = 6 + (int32_t)(rnd() % 20), h = 6 + (int32_t)(rnd() % 20), x, y;
    lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
    lds_Search *s;
    int q, pct = (int)(rnd() % 40);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
    switch (trial % 4) {
      case 1: lds_grid_set_neighbourhood(g, 4); break;
      case 2: lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS); break;
      case 3: lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED); break;
      default: break;
    }
    s = lds_search_new(NULL, g, NULL);
    for (q = 0; q < 10; q++) {
      int32_t sx = (int32_t)(rnd() % (uint32_t)w), sy = (int32_t)(rnd() % (uint32_t)h);
      int32_t gx = (int32_t)(rnd() % (uint32_t)w), gy = (int32_t)(rnd() % (uint32_t)h);
      lds_Path *p;
      size_t n, m, i, nc;
      double *xy, len, bf, plen = 0.0;
      int32_t *c, *cc;
      if (lds_search_start(s, NULL, sx, sy, gx, gy) != LDS_OK) continue;
      if (lds_search_step(s, NULL) != LDS_FOUND) continue;
      p = lds_search_path(s, NULL);
      n = lds_path_length(p);
      xy = (double *)malloc(4 * n * sizeof(double));
      c = (int32_t *)malloc(2 * n * sizeof(int32_t));
      cc = (int32_t *)malloc(4 * n * sizeof(int32_t));
      for (i = 0; i < n; i++) lds_path_cell(p, i, &c[2 * i], &c[2 * i + 1]);
      for (i = 1; i < n; i++) plen += hypot(c[2 * i] - c[2 * i - 2], c[2 * i + 1] - c[2 * i - 1]);
      CHECK_INT(lds_grid_funnel(g, p, xy, 2 * n, &m, &len, NULL), LDS_OK);
      nc = corridor_of(g, c, n, cc);
      bf = brute(cc, nc);
      compared++;
      if (fabs(len - bf) > 1e-9 * (bf > 1 ? bf : 1)) {
        mism++;
        fprintf(stderr, "funnel %.12g brute %.12g trial %d (%d,%d)->(%d,%d)\n", len, bf, trial,
                sx, sy, gx, gy);
      }
      if (len > plen + 1e-9) longer++;
      if (len < plen - 1e-9) shorter++;
      for (i = 0; i < 2 * m; i++)
        if (xy[i] * 2 != floor(xy[i] * 2)) lattice++;
      if (xy[0] != sx || xy[1] != sy || xy[2 * m - 2] != gx || xy[2 * m - 1] != gy) lattice++;
      free(xy);
      free(c);
      free(cc);
      lds_path_free(p);
    }
    lds_search_free(s);
    lds_grid_free(g);
  }
  CHECK(compared > 500);
  CHECK(shorter > compared / 4);
  CHECK_INT(mism, 0);
  CHECK_INT(longer, 0);
  CHECK_INT(lattice, 0);
}

static void known_and_bad(void) {
  lds_Grid *g = lds_grid_new(NULL, 10, 5, NULL);
  uint32_t cells[] = {0, 1, 2, 13, 24}; /* (0,0) (1,0) (2,0) (3,1) (4,2) */
  uint32_t jump[] = {0, 2};
  lds_Path *p = lds_path_new(NULL, cells, 5, 10, 0.0, 0, NULL), *q;
  double xy[20], len;
  size_t m;
  lds_Error err;
  CHECK_INT(lds_grid_funnel(g, p, xy, 10, &m, &len, &err), LDS_OK);
  /* the corridor (0,0) (1,0) (2,0) [(2,1)] (3,1) [(3,2)] (4,2): the line
  ** bends at the corner (1.5,0.5), then runs straight to (4,2) */
  CHECK_INT(m, 3);
  CHECK_NEAR(xy[2], 1.5, 0);
  CHECK_NEAR(xy[3], 0.5, 0);
  CHECK_NEAR(len, hypot(1.5, 0.5) + hypot(2.5, 1.5), 1e-12);
  /* the diagonal rule "always" with both side cells blocked: the corner */
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  lds_grid_set_blocked(g, 2, 1, true);
  lds_grid_set_blocked(g, 3, 0, true);
  CHECK_INT(lds_grid_funnel(g, p, xy, 10, &m, &len, &err), LDS_OK);
  CHECK_INT(m, 3);
  CHECK_NEAR(xy[2], 2.5, 0);
  CHECK_NEAR(xy[3], 0.5, 0);
  lds_grid_set_blocked(g, 2, 1, false);
  lds_grid_set_blocked(g, 3, 0, false);
  CHECK_INT(lds_grid_funnel(g, p, xy, 9, &m, &len, &err), LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "room for 9 points (expected at least 10)");
  q = lds_path_new(NULL, jump, 2, 10, 0.0, 0, NULL);
  CHECK_INT(lds_grid_funnel(g, q, xy, 10, &m, &len, &err), LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "not a move to a neighbouring cell");
  lds_path_free(q);
  lds_grid_set_blocked(g, 2, 0, true);
  CHECK_INT(lds_grid_funnel(g, p, xy, 10, &m, &len, &err), LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "cell 3 (2,0) of the path is blocked");
  q = lds_path_new(NULL, cells, 1, 9, 0.0, 0, NULL);
  CHECK_INT(lds_grid_funnel(g, q, xy, 10, &m, &len, &err), LDS_E_ARG);
  CHECK_CONTAINS(err.msg, "width 9");
  lds_path_free(q);
  q = lds_path_new(NULL, cells, 1, 10, 0.0, 0, NULL);
  CHECK_INT(lds_grid_funnel(g, q, xy, 2, &m, &len, &err), LDS_OK);
  CHECK_INT(m, 1);
  CHECK_NEAR(len, 0, 0);
  lds_path_free(q);
  lds_path_free(p);
  lds_grid_free(g);
}

void suite_grid_funnel(void);
void suite_grid_funnel(void) {
  random_corridors();
  known_and_bad();
}
