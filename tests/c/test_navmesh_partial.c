/* SPDX-License-Identifier: MIT */
/*
** test_navmesh_partial.c — partial paths on navigation meshes, both modes
** (docs/navmesh.md, "Partial paths"): on random cell meshes with walled-off
** parts and a blocked area, a goal the start cannot reach gives
** LDS_NO_PATH and, with params.partial, a path to the partial target. The
** oracle is this file's own: the region the start reaches (breadth-first
** over the mesh's neighbour links, allowed areas only) and, by brute force
** over its polygons, the least x-z distance from the goal to them (point
** in convex polygon, else nearest point of its edges). The target must be
** at that distance and on a reached polygon; the optimal mode's partial
** path must be as long as the exact optimal path to the target (the
** optimal search to it, itself checked against a visibility-graph oracle in
** test_polyanya.c), the funnel mode's no shorter and ending at the same
** target; every path walks through allowed polygons; every run is the same
** bit for bit (same object, fresh object). While a query runs (1 expansion
** a step) every best-so-far path (lds_navsearch_partial_points) is legal
** and starts at the start. Degenerate inputs: start == goal, start off the
** mesh, goal on a blocked area, a budget of 1 expansion. The shared 3-D
** levels' queries Detour cannot answer (start and goal apart): the same
** checks, the target at the least x-z distance over the start's piece.
** Stepping a few expansions at a time (random meshes and the shared
** AR0011SR query), the best so far never moves away from the goal and ends
** as the final path.
*/
#include "cell_mesh.h"
#include "harness.h"

#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PW 14
#define PH 14


static int pcells[PH * PW]; /* -1 blocked, else the area */

/* area 1 with probability 1/4 */
static uint8_t quarter_area(uint32_t draw, void *ud) {
  (void)ud;
  return (uint8_t)(draw % 4 == 0);
}

/* Free cells of a PW x PH grid (pct % blocked: walls that cut the mesh
** into pieces; diagonal pinches opened), each a quad or two triangles
** (cell_mesh.h), area 1 with probability 1/4; the cells into pcells. */
static lds_Navmesh *pmesh_make(TcmRng *g, int pct) { return tcm_make(g, PW, PH, pct, quarter_area, NULL, pcells); }

/* ------------------------------------------------------------ oracle -- */

/* Squared x-z distance from g to convex polygon p (0 inside). */
static double poly_dist2(const lds_Navmesh *m, uint32_t p, const double *g) {
  const uint32_t *vi, *nb;
  uint32_t n = lds_navmesh_poly(m, p, &vi, &nb), k;
  double best = INFINITY;
  if (lds_navmesh_poly_contains(m, p, g[0], g[2])) return 0;
  for (k = 0; k < n; k++) {
    double a[3], b[3], ex, ez, t, px, pz, d;
    lds_navmesh_vertex(m, vi[k], a);
    lds_navmesh_vertex(m, vi[(k + 1) % n], b);
    ex = b[0] - a[0], ez = b[2] - a[2];
    t = ((g[0] - a[0]) * ex + (g[2] - a[2]) * ez) / (ex * ex + ez * ez);
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    px = a[0] + t * ex - g[0], pz = a[2] + t * ez - g[2];
    d = px * px + pz * pz;
    if (d < best) best = d;
  }
  return best;
}

/* The polygons the start polygon sp reaches through shared edges into
** allowed areas (blocked: area 1 is not allowed): reach[p] = 1. */
static void region(const lds_Navmesh *m, uint32_t sp, bool blocked1, unsigned char *reach) {
  uint32_t np = lds_navmesh_poly_count(m), *queue = (uint32_t *)malloc(np * sizeof(uint32_t));
  uint32_t head = 0, tail = 0;
  memset(reach, 0, np);
  reach[sp] = 1;
  queue[tail++] = sp;
  while (head < tail) {
    const uint32_t *vi, *nb;
    uint32_t p = queue[head++], n = lds_navmesh_poly(m, p, &vi, &nb), k;
    for (k = 0; k < n; k++) {
      uint32_t q = nb[k];
      if (q == LDS_NAVMESH_NONE || reach[q]) continue;
      if (blocked1 && lds_navmesh_poly_area(m, q) == 1) continue;
      reach[q] = 1;
      queue[tail++] = q;
    }
  }
  free(queue);
}

/* x-z distance of a and b */
static double dxz(const double *a, const double *b) {
  return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[2] - b[2]) * (a[2] - b[2]));
}

/* The polyline is legal: every segment walked through allowed polygons. */
static bool legal(const lds_Navmesh *m, const double *pts, size_t n, const double *costs,
                  size_t nc) {
  char msg[LDS_ERRMSG_SIZE];
  if (n == 1) {
    uint32_t p = lds_navmesh_locate(m, pts[0], pts[1], pts[2], 4);
    return p != LDS_NAVMESH_NONE;
  }
  if (lds_navmesh_check_path(m, pts, n, 4, costs, nc, NULL, NULL, msg) != LDS_OK) {
    fprintf(stderr, "illegal path: %s\n", msg);
    return false;
  }
  return true;
}

static double poly_len(const double *pts, size_t n) {
  double len = 0;
  size_t i;
  for (i = 1; i < n; i++) {
    const double *a = pts + 3 * (i - 1), *b = pts + 3 * i;
    len += sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
  }
  return len;
}

/* A copy of s's path (points), *n of them; NULL for none. */
static double *path_copy(lds_NavSearch *s, size_t *n) {
  const double *p = lds_navsearch_points(s, n);
  double *c;
  if (!p) return NULL;
  c = (double *)malloc(*n * 3 * sizeof(double));
  memcpy(c, p, *n * 3 * sizeof(double));
  return c;
}

static lds_Status run_to_end(lds_NavSearch *s, const lds_NavParams *p, const double *a,
                             const double *b) {
  lds_Status st = lds_navsearch_start(s, p, a, b);
  if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
  return st;
}

/* Sliced with 1 expansion a step: every best-so-far path while running is
** legal and starts at the start; the final path equals path (n points). */
static bool sliced_ok(lds_NavSearch *s, const lds_Navmesh *m, const lds_NavParams *p,
                      const double *a, const double *b, const double *path, size_t n,
                      const double *costs, size_t nc, int *nprefix) {
  lds_Budget bud = {1, 0};
  lds_Status st = lds_navsearch_start(s, p, a, b);
  size_t k, pn;
  const double *pp;
  bool part, ok = true;
  int steps = 0;
  while (st == LDS_RUNNING && steps < 100000) {
    st = lds_navsearch_step(s, &bud);
    steps++;
    if (st != LDS_RUNNING) break;
    pp = lds_navsearch_partial_points(s, &pn, &part);
    if (!pp || pn == 0) return false;
    (*nprefix)++;
    if (memcmp(pp, a, 3 * sizeof(double)) != 0) ok = false;
    if (!legal(m, pp, pn, costs, nc)) ok = false;
  }
  pp = lds_navsearch_points(s, &k);
  if (!path) return ok && !pp;
  return ok && pp && k == n && memcmp(pp, path, n * 3 * sizeof(double)) == 0;
}

/* ------------------------------------------------------------- tests -- */

static void test_random_partial(void) {
  TcmRng g = {0x5eed1234u};
  int mesh, unreachable = 0, reachable = 0, prefixes = 0, bad_target = 0, bad_len = 0,
            bad_legal = 0, bad_det = 0, bad_slice = 0, bad_funnel = 0, cut = 0;
  double costs[2] = {1, INFINITY};
  for (mesh = 0; mesh < 70; mesh++) {
    lds_Navmesh *m = pmesh_make(&g, 30 + (int)(tcm_rnd(&g) % 15));
    lds_NavSearch *s, *s2, *so;
    uint32_t np, q;
    unsigned char *reach;
    if (!m) continue;
    np = lds_navmesh_poly_count(m);
    reach = (unsigned char *)malloc(np);
    s = lds_navsearch_new(NULL, m, NULL);
    s2 = lds_navsearch_new(NULL, m, NULL);
    so = lds_navsearch_new(NULL, m, NULL);
    for (q = 0; q < 8; q++) {
      const bool blk = tcm_rnd(&g) % 2;
      int cx, cy, gx, gy, algo;
      double a[3], b[3], target[3] = {0, 0, 0};
      uint32_t sp, gp, p;
      double dbest = INFINITY;
      bool goal_reach;
      do {
        cx = (int)(tcm_rnd(&g) % PW), cy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[cy * PW + cx] < 0));
      do {
        gx = (int)(tcm_rnd(&g) % PW), gy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[gy * PW + gx] < 0));
      a[0] = cx + 0.3, a[1] = 0, a[2] = cy + 0.55;
      b[0] = gx + 0.6, b[1] = 0, b[2] = gy + 0.35;
      sp = lds_navmesh_locate(m, a[0], a[1], a[2], 4);
      gp = lds_navmesh_locate(m, b[0], b[1], b[2], 4);
      if (blk && lds_navmesh_poly_area(m, sp) == 1) continue; /* blocked start: below */
      region(m, sp, blk, reach);
      for (p = 0; p < np; p++)
        if (reach[p]) {
          double d = poly_dist2(m, p, b);
          if (d < dbest) dbest = d;
        }
      dbest = sqrt(dbest);
      goal_reach = reach[gp] != 0;
      for (algo = 0; algo < 2; algo++) {
        lds_NavParams pr;
        lds_Status st;
        size_t n, n2, k;
        double *path, *path2;
        lds_nav_params_init(&pr);
        pr.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
        pr.partial = true;
        pr.area_costs = costs;
        pr.n_area_costs = blk ? 2 : 0;
        st = run_to_end(s, &pr, a, b);
        path = path_copy(s, &n);
        if (goal_reach) {
          reachable++;
          if (st != LDS_FOUND || !path || lds_navsearch_is_partial(s)) bad_target++;
        } else {
          unreachable++;
          if (st != LDS_NO_PATH || !path || !lds_navsearch_is_partial(s)) {
            bad_target++;
          } else {
            const double *end = path + 3 * (n - 1);
            /* on a reached polygon, at the oracle's least distance */
            uint32_t ep = lds_navmesh_locate(m, end[0], end[1], end[2], 4);
            bool on_reach = false;
            for (p = 0; p < np && !on_reach; p++)
              if (reach[p] && poly_dist2(m, p, end) <= 1e-20) on_reach = true;
            if (ep == LDS_NAVMESH_NONE || !on_reach || fabs(dxz(end, b) - dbest) > 1e-9 * (1 + dbest))
              bad_target++;
            if (algo == 0) {
              memcpy(target, end, sizeof target);
            } else if (memcmp(target, end, sizeof target) != 0) {
              bad_funnel++; /* both modes end at the same target */
            }
          }
        }
        if (path && !legal(m, path, n, costs, pr.n_area_costs)) bad_legal++;
        if (path && !goal_reach) {
          /* the exact optimal length to the target: the optimal search to
          ** a point t moved 1e-6 into a reached polygon holding the target
          ** (a target on an edge to a blocked polygon may locate there),
          ** so the two lengths differ by at most |t - target| */
          lds_NavParams po;
          double opt, t[3], c[3] = {0, 0, 0}, tol;
          const double *end = path + 3 * (n - 1);
          const uint32_t *vi, *nb;
          uint32_t tp = LDS_NAVMESH_NONE, nv, k2;
          for (p = 0; p < np && tp == LDS_NAVMESH_NONE; p++)
            if (reach[p] && poly_dist2(m, p, end) <= 1e-20) tp = p;
          if (tp == LDS_NAVMESH_NONE) tp = sp;
          nv = lds_navmesh_poly(m, tp, &vi, &nb);
          for (k2 = 0; k2 < nv; k2++) {
            double w[3];
            lds_navmesh_vertex(m, vi[k2], w);
            c[0] += w[0] / nv, c[2] += w[2] / nv;
          }
          t[0] = end[0] + 1e-6 * (c[0] - end[0]);
          t[1] = end[1];
          t[2] = end[2] + 1e-6 * (c[2] - end[2]);
          tol = dxz(t, end) + 1e-9 * (1 + dxz(a, end));
          lds_nav_params_init(&po);
          po.algo = LDS_NAV_OPTIMAL;
          po.area_costs = costs;
          po.n_area_costs = pr.n_area_costs;
          st = run_to_end(so, &po, a, t);
          opt = st == LDS_FOUND ? lds_navsearch_length(so) : NAN;
          if (!(st == LDS_FOUND)) bad_len++;
          else if (algo == 1 && fabs(poly_len(path, n) - opt) > tol) bad_len++;
          else if (algo == 0 && poly_len(path, n) < opt - tol) bad_len++;
          if (getenv("NP_DEBUG") && (st != LDS_FOUND || (algo == 1 && fabs(poly_len(path, n) - opt) > tol)))
            fprintf(stderr, "mesh %d q %u algo %d st %d len %.12g opt %.12g n %zu end (%g %g) a (%g %g) b (%g %g) blk %d\n", mesh, q, algo, (int)st, poly_len(path, n), opt, n, end[0], end[2], a[0], a[2], b[0], b[2], blk);
        }
        /* bit for bit: the same object again, a fresh object */
        st = run_to_end(s2, &pr, a, b);
        path2 = path_copy(s2, &n2);
        if ((path == NULL) != (path2 == NULL) || n != n2 ||
            (path && memcmp(path, path2, n * 3 * sizeof(double)) != 0))
          bad_det++;
        free(path2);
        st = run_to_end(s, &pr, a, b);
        path2 = path_copy(s, &n2);
        if ((path == NULL) != (path2 == NULL) || n != n2 ||
            (path && memcmp(path, path2, n * 3 * sizeof(double)) != 0))
          bad_det++;
        free(path2);
        /* sliced, one expansion a step */
        if (!sliced_ok(s2, m, &pr, a, b, path, n, costs, pr.n_area_costs, &prefixes)) bad_slice++;
        /* cut short by the caller after 3 expansions: the best so far is legal */
        {
          lds_Budget bud = {3, 0};
          const double *pp;
          bool part;
          st = lds_navsearch_start(s, &pr, a, b);
          if (st == LDS_RUNNING) st = lds_navsearch_step(s, &bud);
          pp = lds_navsearch_partial_points(s, &k, &part);
          if (st == LDS_RUNNING) {
            cut++;
            if (!pp || !legal(m, pp, k, costs, pr.n_area_costs) ||
                memcmp(pp, a, 3 * sizeof(double)) != 0)
              bad_slice++;
          }
        }
        free(path);
      }
    }
    free(reach);
    lds_navsearch_free(s);
    lds_navsearch_free(s2);
    lds_navsearch_free(so);
    lds_navmesh_free(m);
  }
  printf("  navmesh partial: %d unreachable, %d reachable queries, %d best-so-far paths, %d cut\n",
         unreachable, reachable, prefixes, cut);
  CHECK(unreachable >= 150);
  CHECK(reachable >= 150);
  CHECK(prefixes >= 1000);
  CHECK_INT(bad_target, 0);
  CHECK_INT(bad_funnel, 0);
  CHECK_INT(bad_len, 0);
  CHECK_INT(bad_legal, 0);
  CHECK_INT(bad_det, 0);
  CHECK_INT(bad_slice, 0);
}

/* Two rooms joined by a corridor through area 1, and an island:
**
**   z 4  +---+---+---+   +---+
**        | A | C | B |   | I |       A, B: area 0; C: area 1; I: apart
**   z 0  +---+---+---+   +---+
**        0   4   8   12  16  20
*/
static lds_Navmesh *rooms(void) {
  static const double v[] = {0, 0, 0, 4, 0, 0, 8, 0, 0, 12, 0, 0, 0, 0, 4, 4, 0, 4, 8, 0, 4, 12, 0, 4,
                             16, 0, 0, 20, 0, 0, 16, 0, 4, 20, 0, 4};
  static const uint32_t idx[] = {0, 4, 5, 1, 1, 5, 6, 2, 2, 6, 7, 3, 8, 10, 11, 9};
  static const uint32_t st[] = {0, 4, 8, 12, 16};
  static const uint8_t area[] = {0, 1, 0, 0};
  lds_NavmeshDesc d;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = 12;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = 4;
  d.areas = area;
  return lds_navmesh_new(NULL, &d, NULL);
}

static void test_degenerate(void) {
  lds_Navmesh *m = rooms();
  lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
  double costs[2] = {1, INFINITY};
  int algo;
  CHECK(m && s);
  if (!m || !s) return;
  for (algo = 0; algo < 2; algo++) {
    lds_NavParams p;
    lds_Status st;
    const double *pts;
    size_t n;
    bool part;
    double a[3] = {1, 0, 2}, b[3], off[3] = {50, 0, 50};
    lds_nav_params_init(&p);
    p.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
    p.partial = true;
    /* start == goal: found, one point */
    st = run_to_end(s, &p, a, a);
    pts = lds_navsearch_points(s, &n);
    CHECK_INT(st, LDS_FOUND);
    CHECK_INT(n, 1);
    CHECK(!lds_navsearch_is_partial(s));
    pts = lds_navsearch_partial_points(s, &n, &part);
    CHECK(pts && n == 1 && !part);
    /* start off the mesh: an error naming it, no best-so-far */
    st = lds_navsearch_start(s, &p, off, a);
    CHECK_INT(st, LDS_E_ARG);
    CHECK(strstr(lds_navsearch_errmsg(s), "start (50, 0, 50) is not on the mesh") != NULL);
    CHECK(lds_navsearch_partial_points(s, &n, NULL) == NULL && n == 0);
    /* the island: apart; the target is B's point nearest (17, 2): (12, 2) */
    b[0] = 17, b[1] = 0, b[2] = 2;
    st = run_to_end(s, &p, a, b);
    pts = lds_navsearch_points(s, &n);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(pts && n == 2 && lds_navsearch_is_partial(s));
    if (pts && n >= 2) {
      CHECK_NEAR(pts[3 * (n - 1)], 12, 0);
      CHECK_NEAR(pts[3 * (n - 1) + 2], 2, 0);
      CHECK_NEAR(lds_navsearch_length(s), 11, 1e-12);
    }
    /* without partial: no path, no points, at once */
    p.partial = false;
    st = run_to_end(s, &p, a, b);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(lds_navsearch_points(s, &n) == NULL && n == 0);
    /* the best so far of a query that ended at its start: A's point nearest the goal */
    pts = lds_navsearch_partial_points(s, &n, &part);
    CHECK(pts && n == 2 && part);
    if (pts && n == 2) CHECK(pts[3] == 4 && pts[5] == 2);
    p.partial = true;
    /* C blocked: the goal in B is cut off; target (4, 2) on A's edge */
    p.area_costs = costs;
    p.n_area_costs = 2;
    b[0] = 10, b[2] = 2;
    st = run_to_end(s, &p, a, b);
    pts = lds_navsearch_points(s, &n);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(pts && n == 2);
    if (pts && n == 2) CHECK(pts[3] == 4 && pts[4] == 0 && pts[5] == 2);
    /* the goal on the blocked area itself: the same target */
    b[0] = 6, b[2] = 3;
    st = run_to_end(s, &p, a, b);
    pts = lds_navsearch_points(s, &n);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(pts && n == 2 && lds_navsearch_is_partial(s));
    if (pts && n == 2) CHECK(pts[3] == 4 && pts[5] == 3);
    /* a blocked start: no path and no partial one */
    st = run_to_end(s, &p, b, a);
    CHECK_INT(st, LDS_NO_PATH);
    CHECK(lds_navsearch_points(s, &n) == NULL);
    CHECK(lds_navsearch_partial_points(s, &n, NULL) == NULL);
    /* a budget of 1 expansion: running, the best so far legal from the start */
    p.n_area_costs = 0;
    b[0] = 11, b[2] = 1;
    st = lds_navsearch_start(s, &p, a, b);
    CHECK_INT(st, LDS_RUNNING);
    {
      lds_Budget bud = {1, 0};
      int steps = 0, running = 0;
      while ((st = lds_navsearch_step(s, &bud)) == LDS_RUNNING && steps++ < 100) {
        pts = lds_navsearch_partial_points(s, &n, &part);
        running++;
        CHECK(pts && n >= 1 && memcmp(pts, a, sizeof a) == 0);
        /* flagged partial unless it ends at the goal */
        if (pts) CHECK(part == (memcmp(pts + 3 * (n - 1), b, sizeof b) != 0));
        if (pts) CHECK(legal(m, pts, n, NULL, 0));
      }
      CHECK_INT(st, LDS_FOUND);
      CHECK(running >= 1);
      pts = lds_navsearch_points(s, &n);
      CHECK(pts && pts[3 * (n - 1)] == 11);
    }
  }
  /* no query started */
  {
    lds_NavSearch *t = lds_navsearch_new(NULL, m, NULL);
    size_t n = 7;
    CHECK(lds_navsearch_partial_points(t, &n, NULL) == NULL && n == 0);
    CHECK(lds_navsearch_partial_points(NULL, &n, NULL) == NULL);
    lds_navsearch_free(t);
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
}

/* Scheduler mesh requests, both modes, partial and an island goal: while
** a request runs (2 expansions a tick) lds_scheduler_nav_partial_path is a
** legal path from the start; once finished it is lds_scheduler_nav_path's,
** equal bit for bit to a one-shot query's partial path. */
static void test_scheduler_partial(void) {
  TcmRng g = {77};
  lds_Navmesh *m = NULL;
  int tries, algo, running = 0, bad = 0, done = 0;
  for (tries = 0; tries < 10 && !m; tries++) m = pmesh_make(&g, 38);
  CHECK(m != NULL);
  if (!m) return;
  for (algo = 0; algo < 2; algo++) {
    int q;
    for (q = 0; q < 6; q++) {
      lds_SchedulerConfig cfg;
      lds_Scheduler *sc;
      lds_NavRequest rq;
      lds_RequestId id;
      lds_TickStats ts;
      lds_Budget b = {2, 0};
      lds_NavPath np;
      lds_NavSearch *one = lds_navsearch_new(NULL, m, NULL);
      lds_NavParams pr;
      int cx, cy, gx, gy, ticks = 0;
      double a[3], z[3];
      const double *pts;
      size_t n;
      do {
        cx = (int)(tcm_rnd(&g) % PW), cy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[cy * PW + cx] < 0));
      do {
        gx = (int)(tcm_rnd(&g) % PW), gy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[gy * PW + gx] < 0));
      a[0] = cx + 0.3, a[1] = 0, a[2] = cy + 0.55;
      z[0] = gx + 0.6, z[1] = 0, z[2] = gy + 0.35;
      lds_scheduler_config_init(&cfg);
      cfg.deterministic = true;
      sc = lds_scheduler_new(NULL, &cfg, NULL);
      CHECK_INT(lds_scheduler_add_navmesh(sc, m, 1), LDS_OK);
      lds_nav_request_init(&rq, m, a, z);
      rq.params.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
      rq.params.partial = true;
      CHECK_INT(lds_scheduler_submit_nav(sc, &rq, &id), LDS_OK);
      CHECK_INT(lds_scheduler_nav_partial_path(sc, id, &np), LDS_E_STATE); /* not started */
      while (lds_scheduler_pending(sc) > 0 && ticks++ < 100000) {
        CHECK_INT(lds_scheduler_step(sc, &b, &ts), LDS_OK);
        if (lds_scheduler_status(sc, id) != LDS_RUNNING) break;
        if (lds_scheduler_nav_partial_path(sc, id, &np) != LDS_OK) {
          bad++;
          continue;
        }
        running++;
        if (np.n_points < 1 || memcmp(np.points, a, sizeof a) != 0 ||
            !legal(m, np.points, np.n_points, NULL, 0) || np.algo != rq.params.algo ||
            fabs(np.length - poly_len(np.points, np.n_points)) > 1e-12 * (1 + np.length))
          bad++;
      }
      lds_nav_params_init(&pr);
      pr.algo = rq.params.algo;
      pr.partial = true;
      run_to_end(one, &pr, a, z);
      pts = lds_navsearch_points(one, &n);
      if (pts) {
        done++;
        if (lds_scheduler_nav_partial_path(sc, id, &np) != LDS_OK || np.n_points != n ||
            memcmp(np.points, pts, n * 3 * sizeof(double)) != 0 ||
            np.partial != lds_navsearch_is_partial(one))
          bad++;
      }
      lds_navsearch_free(one);
      lds_scheduler_free(sc);
    }
  }
  CHECK(running >= 20);
  CHECK_INT(done, 12);
  CHECK_INT(bad, 0);
  lds_navmesh_free(m);
}

/* The shared 3-D levels (several pieces, levels over each other): the
** queries whose Detour length is -1, both modes with partial. */
static void test_levels(const char *name) {
  char mp[512], qp[512], line[512];
  lds_Navmesh *m;
  lds_NavSearch *s, *so;
  FILE *f;
  unsigned char *reach;
  int n = 0, bad = 0;
  uint32_t np;
  snprintf(mp, sizeof mp, "%s/data/navmesh/3d/%s.nav", LDS_SHARED_DIR, name);
  snprintf(qp, sizeof qp, "%s/data/navmesh/3d/%s.queries", LDS_SHARED_DIR, name);
  f = fopen(qp, "r");
  if (!f) {
    printf("  skipped: %s not found\n", qp);
    return;
  }
  m = lds_navmesh_load(NULL, mp, NULL);
  CHECK(m != NULL);
  if (!m) {
    fclose(f);
    return;
  }
  np = lds_navmesh_poly_count(m);
  reach = (unsigned char *)malloc(np);
  s = lds_navsearch_new(NULL, m, NULL);
  so = lds_navsearch_new(NULL, m, NULL);
  while (fgets(line, sizeof line, f) && n < 80) {
    double v[8], a[3], b[3], dbest = INFINITY;
    uint32_t sp, gp, p;
    int algo;
    if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
               &v[6], &v[7]) != 8 || v[6] != -1)
      continue;
    sp = lds_navmesh_nearest(m, v, 2, 4, a);
    gp = lds_navmesh_nearest(m, v + 3, 2, 4, b);
    if (sp == LDS_NAVMESH_NONE || gp == LDS_NAVMESH_NONE) continue;
    region(m, sp, false, reach);
    if (reach[gp]) continue; /* reachable after all (through a link Detour's query missed) */
    for (p = 0; p < np; p++)
      if (reach[p]) dbest = fmin(dbest, poly_dist2(m, p, b));
    dbest = sqrt(dbest);
    n++;
    for (algo = 0; algo < 2; algo++) {
      lds_NavParams pr;
      lds_Status st;
      size_t k;
      const double *pts;
      lds_nav_params_init(&pr);
      pr.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
      pr.partial = true;
      st = run_to_end(s, &pr, v, v + 3);
      pts = lds_navsearch_points(s, &k);
      if (st != LDS_NO_PATH || !pts || memcmp(pts, a, sizeof a) != 0 ||
          fabs(dxz(pts + 3 * (k - 1), b) - dbest) > 1e-9 * (1 + dbest) ||
          !legal(m, pts, k, NULL, 0)) {
        bad++;
        continue;
      }
      if (algo == 1) {
        double len = lds_navsearch_length(s), opt;
        lds_NavParams po;
        lds_nav_params_init(&po);
        po.algo = LDS_NAV_OPTIMAL;
        po.snap_radius = 0;
        po.height_tol = 1e-6;
        st = run_to_end(so, &po, a, pts + 3 * (k - 1));
        opt = st == LDS_FOUND ? lds_navsearch_length(so) : NAN;
        if (!(fabs(len - opt) <= 1e-9 * (1 + opt))) bad++;
      }
    }
  }
  fclose(f);
  printf("  %s: %d queries apart\n", name, n);
  CHECK(n >= 10);
  CHECK_INT(bad, 0);
  free(reach);
  lds_navsearch_free(s);
  lds_navsearch_free(so);
  lds_navmesh_free(m);
}

/* Steps q with `every` expansions a step: the x-z distance from the end of
** the best-so-far path (lds_navsearch_partial_points) to b never grows from
** one step to the next (docs/navmesh.md "Partial paths"), and the best so
** far once the query ended is its final path, bit for bit. Returns the
** number of violations; *nrun: the steps that answered a best so far;
** last_end: the end of the last best so far answered while running. */
static int monotone_run(lds_NavSearch *s, const lds_NavParams *p, const double *a, const double *b,
                        uint64_t every, int *nrun, double *last_end) {
  lds_Budget bud = {every, 0};
  lds_Status st = lds_navsearch_start(s, p, a, b);
  double prev = INFINITY;
  const double *pp, *fp;
  size_t pn, fn;
  int bad = 0, steps = 0;
  while (st == LDS_RUNNING && steps < 1000000) {
    st = lds_navsearch_step(s, &bud);
    steps++;
    pp = lds_navsearch_partial_points(s, &pn, NULL);
    if (!pp || pn == 0) continue;
    {
      double d = dxz(pp + 3 * (pn - 1), b);
      if (d > prev + 1e-9 * (1 + prev)) {
        if (bad < 3)
          fprintf(stderr, "  best so far moved away from the goal at step %d (algo %d): %.9g -> %.9g\n",
                  steps, (int)p->algo, prev, d);
        bad++;
      }
      prev = d;
    }
    if (st == LDS_RUNNING) {
      (*nrun)++;
      if (last_end) memcpy(last_end, pp + 3 * (pn - 1), 3 * sizeof(double));
    }
  }
  fp = lds_navsearch_points(s, &fn);
  pp = lds_navsearch_partial_points(s, &pn, NULL);
  if (fp && !(pp && pn == fn && memcmp(pp, fp, fn * 3 * sizeof(double)) == 0)) bad++;
  return bad;
}

/* The best so far never moves away from the goal, both modes, a few
** expansions a step: random meshes (goal reachable or apart, with and
** without partial) and the shared AR0011SR query whose optimal second
** search (to the partial target) used to answer paths ending farther. */
static void test_monotone(void) {
  TcmRng g = {0x0a11ce5u};
  int mesh, bad = 0, nrun = 0, bad_end = 0;
  for (mesh = 0; mesh < 40; mesh++) {
    lds_Navmesh *m = pmesh_make(&g, 30 + (int)(tcm_rnd(&g) % 15));
    lds_NavSearch *s;
    int q;
    if (!m) continue;
    s = lds_navsearch_new(NULL, m, NULL);
    for (q = 0; q < 6; q++) {
      int cx, cy, gx, gy, algo;
      double a[3], b[3];
      do {
        cx = (int)(tcm_rnd(&g) % PW), cy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[cy * PW + cx] < 0));
      do {
        gx = (int)(tcm_rnd(&g) % PW), gy = (int)(tcm_rnd(&g) % PH);
      } while ((pcells[gy * PW + gx] < 0));
      a[0] = cx + 0.3, a[1] = 0, a[2] = cy + 0.55;
      b[0] = gx + 0.6, b[1] = 0, b[2] = gy + 0.35;
      for (algo = 0; algo < 2; algo++) {
        lds_NavParams pr;
        lds_nav_params_init(&pr);
        pr.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
        pr.partial = q % 3 != 2;
        bad += monotone_run(s, &pr, a, b, 1 + tcm_rnd(&g) % 4, &nrun, NULL);
      }
    }
    lds_navsearch_free(s);
    lds_navmesh_free(m);
  }
  CHECK(nrun > 1000);
  CHECK_INT(bad, 0);
  {
    char mp[512];
    const double a[3] = {177.33, 0, 42.5}, b[3] = {84, 0, 445.33};
    lds_Navmesh *m;
    int algo;
    snprintf(mp, sizeof mp, "%s/data/navmesh/2d/AR0011SR.nav", LDS_SHARED_DIR);
    m = lds_navmesh_load(NULL, mp, NULL);
    if (!m) {
      printf("  skipped: %s not loaded\n", mp);
      return;
    }
    for (algo = 0; algo < 2; algo++) {
      lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
      lds_NavParams pr;
      double last[3] = {0, 0, 0};
      const double *fp;
      size_t fn;
      int n = 0;
      lds_nav_params_init(&pr);
      pr.algo = algo ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
      pr.partial = true;
      CHECK_INT(monotone_run(s, &pr, a, b, 5, &n, last), 0);
      CHECK_INT(lds_navsearch_status(s), LDS_NO_PATH);
      CHECK(n > 100);
      fp = lds_navsearch_points(s, &fn);
      CHECK(fp != NULL);
      /* the optimal mode's best so far ends at the partial target once the
      ** first search has run dry: where the final path ends */
      if (fp && algo == 1 && dxz(last, fp + 3 * (fn - 1)) > 1e-9) bad_end++;
      lds_navsearch_free(s);
    }
    CHECK_INT(bad_end, 0);
    lds_navmesh_free(m);
  }
}

void suite_navmesh_partial(void);
void suite_navmesh_partial(void) {
  test_degenerate();
  test_random_partial();
  test_scheduler_partial();
  test_levels("dungeon");
  test_levels("nav_test");
  test_monotone();
}
