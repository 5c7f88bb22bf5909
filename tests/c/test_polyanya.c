/* SPDX-License-Identifier: MIT */
/*
** test_polyanya.c — the optimal (Polyanya) mesh search against an
** independent oracle on random grid maps, on the grid -> mesh builder's
** meshes both strict (no collinear vertex) and non-strict (rectangles
** carrying their neighbours' T-junction points as collinear vertices), with
** start and goal on cell centres, on mesh vertices and on edges; plus
** hand-made degenerate meshes (collinear vertices, an unlinked T-junction,
** slivers, start == goal, points outside the mesh, blocked areas).
**
** The oracle knows nothing of the mesh's polygons: Dijkstra over the
** visibility graph of start, goal and the mesh's vertex positions (pinch
** points left out), with visibility tested exactly on the grid's free space
** (the rule of docs/any-angle.md: a segment may not meet the interior of
** the blocked cells' union nor pass through a pinch vertex).
*/
#include "harness.h"

#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t prs;
static uint32_t prnd(void) {
  prs = prs * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(prs >> 33);
}

static bool pfree(const lds_Grid *g, long x, long y) {
  return x >= 0 && y >= 0 && x < lds_grid_width(g) && y < lds_grid_height(g) &&
         !lds_grid_blocked(g, (int32_t)x, (int32_t)y);
}

/* A grid point (vx, vy) where two free cells touch only at their corner. */
static bool pinch_at(const lds_Grid *g, long vx, long vy) {
  bool nw = pfree(g, vx - 1, vy - 1), ne = pfree(g, vx, vy - 1), sw = pfree(g, vx - 1, vy),
       se = pfree(g, vx, vy);
  return (nw && se && !ne && !sw) || (ne && sw && !nw && !se);
}

/* Segment a -> b legal (coordinates doubled: integers). Cut where it
** crosses grid lines; each piece lies in one cell or along a grid line
** between two cells, one of which must be free; no pinch point passed. */
static bool seg_legal(const lds_Grid *g, long ax, long ay, long bx, long by) {
  double t[2048];
  int n = 0, i, j;
  long dx = bx - ax, dy = by - ay, k;
  t[n++] = 0.0;
  t[n++] = 1.0;
  if (dx)
    for (k = (ax < bx ? ax : bx) / 2 - 1; k <= (ax < bx ? bx : ax) / 2 + 1 && n < 2040; k++) {
      double tt = (double)(2 * k - ax) / (double)dx;
      if (tt > 0 && tt < 1) t[n++] = tt;
    }
  if (dy)
    for (k = (ay < by ? ay : by) / 2 - 1; k <= (ay < by ? by : ay) / 2 + 1 && n < 2040; k++) {
      double tt = (double)(2 * k - ay) / (double)dy;
      if (tt > 0 && tt < 1) t[n++] = tt;
    }
  for (i = 1; i < n; i++)
    for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
      double s = t[j];
      t[j] = t[j - 1];
      t[j - 1] = s;
    }
  for (i = 0; i + 1 < n; i++) {
    double tm = (t[i] + t[i + 1]) / 2, mx, my;
    if (t[i + 1] - t[i] < 1e-12) continue;
    mx = (ax + tm * dx) / 2.0;
    my = (ay + tm * dy) / 2.0;
    if (dx == 0 && ax % 2 == 0) {
      long cy = (long)floor(my);
      if (!pfree(g, ax / 2 - 1, cy) && !pfree(g, ax / 2, cy)) return false;
    } else if (dy == 0 && ay % 2 == 0) {
      long cx = (long)floor(mx);
      if (!pfree(g, cx, ay / 2 - 1) && !pfree(g, cx, ay / 2)) return false;
    } else if (!pfree(g, (long)floor(mx), (long)floor(my))) {
      return false;
    }
  }
  for (i = 1; i + 1 < n; i++) {
    double px = (ax + t[i] * dx) / 2.0, py = (ay + t[i] * dy) / 2.0;
    long vx = lround(px), vy = lround(py);
    if (fabs(px - vx) < 1e-9 && fabs(py - vy) < 1e-9 && pinch_at(g, vx, vy)) return false;
  }
  return true;
}

/* The oracle's graph: distinct mesh vertex positions (doubled), pinch
** points left out, with their mutual visibility. */
typedef struct VisGraph {
  const lds_Grid *g;
  long *x, *y;
  size_t n;
  double *w; /* n x n, INFINITY: not visible */
} VisGraph;

static void vis_init(VisGraph *o, const lds_Grid *g, const lds_Navmesh *m) {
  uint32_t nv = lds_navmesh_vertex_count(m), v;
  const double *vs = lds_navmesh_vertices(m);
  size_t i, j;
  o->g = g;
  o->n = 0;
  o->x = (long *)malloc((nv + 1) * sizeof(long));
  o->y = (long *)malloc((nv + 1) * sizeof(long));
  for (v = 0; v < nv; v++) {
    const double *p = vs + 3 * (size_t)v;
    long X = lround(2 * p[0]), Y = lround(2 * p[2]);
    bool dup = false;
    if (X % 2 == 0 && Y % 2 == 0 && pinch_at(g, X / 2, Y / 2)) continue;
    for (i = 0; i < o->n && !dup; i++) dup = o->x[i] == X && o->y[i] == Y;
    if (dup) continue;
    o->x[o->n] = X;
    o->y[o->n] = Y;
    o->n++;
  }
  o->w = (double *)malloc((o->n * o->n + 1) * sizeof(double));
  for (i = 0; i < o->n; i++) {
    o->w[i * o->n + i] = 0;
    for (j = i + 1; j < o->n; j++) {
      double d = seg_legal(g, o->x[i], o->y[i], o->x[j], o->y[j])
                     ? hypot((double)(o->x[i] - o->x[j]), (double)(o->y[i] - o->y[j])) / 2
                     : INFINITY;
      o->w[i * o->n + j] = o->w[j * o->n + i] = d;
    }
  }
}

static void vis_free(VisGraph *o) {
  free(o->x);
  free(o->y);
  free(o->w);
}

/* Shortest legal length between doubled points a and b; INFINITY if none. */
static double vis_len(const VisGraph *o, long ax, long ay, long bx, long by) {
  size_t n = o->n, i, u;
  double *d, *tg, best;
  char *done;
  if (ax == bx && ay == by) return 0;
  if (seg_legal(o->g, ax, ay, bx, by)) return hypot((double)(bx - ax), (double)(by - ay)) / 2;
  d = (double *)malloc((n + 1) * sizeof(double));
  tg = (double *)malloc((n + 1) * sizeof(double));
  done = (char *)calloc(n + 1, 1);
  for (i = 0; i < n; i++) {
    d[i] = seg_legal(o->g, ax, ay, o->x[i], o->y[i])
               ? hypot((double)(o->x[i] - ax), (double)(o->y[i] - ay)) / 2
               : INFINITY;
    tg[i] = seg_legal(o->g, o->x[i], o->y[i], bx, by)
                ? hypot((double)(o->x[i] - bx), (double)(o->y[i] - by)) / 2
                : INFINITY;
  }
  best = INFINITY;
  for (;;) {
    double mn = INFINITY;
    u = n;
    for (i = 0; i < n; i++)
      if (!done[i] && d[i] < mn) {
        mn = d[i];
        u = i;
      }
    if (u == n || mn >= best) break;
    done[u] = 1;
    if (mn + tg[u] < best) best = mn + tg[u];
    for (i = 0; i < n; i++)
      if (!done[i] && mn + o->w[u * n + i] < d[i]) d[i] = mn + o->w[u * n + i];
  }
  free(d);
  free(tg);
  free(done);
  return best;
}

/* A random point of the free space, doubled: a cell centre, a grid point
** or the midpoint of a cell side (never a pinch point). */
static bool rand_point(const lds_Grid *g, long *X, long *Y) {
  int tries;
  for (tries = 0; tries < 100; tries++) {
    long cx = (long)(prnd() % (uint32_t)lds_grid_width(g)), cy = (long)(prnd() % (uint32_t)lds_grid_height(g));
    uint32_t kind = prnd() % 4;
    if (!pfree(g, cx, cy)) continue;
    *X = 2 * cx + 1;
    *Y = 2 * cy + 1;
    if (kind == 1) { /* a corner of the cell */
      *X += (prnd() & 1) ? 1 : -1;
      *Y += (prnd() & 1) ? 1 : -1;
      if (pinch_at(g, *X / 2, *Y / 2)) continue;
    } else if (kind == 2) { /* the midpoint of a side */
      if (prnd() & 1) *X += (prnd() & 1) ? 1 : -1;
      else *Y += (prnd() & 1) ? 1 : -1;
    }
    return true;
  }
  return false;
}

/* Polyanya's length between doubled points; -1: no path; -2: error. */
static double opt_len(lds_NavSearch *s, const lds_Navmesh *m, long ax, long ay, long bx, long by,
                      int *illegal) {
  lds_NavParams p;
  double a[3] = {ax / 2.0, 0, ay / 2.0}, b[3] = {bx / 2.0, 0, by / 2.0};
  lds_Status st;
  size_t n;
  const double *pts;
  lds_nav_params_init(&p);
  p.algo = LDS_NAV_OPTIMAL;
  p.snap_radius = 1e-6;
  if (lds_navsearch_start(s, &p, a, b) != LDS_RUNNING) return -2;
  st = lds_navsearch_step(s, NULL);
  if (st == LDS_NO_PATH) return -1;
  if (st != LDS_FOUND) return -2;
  pts = lds_navsearch_points(s, &n);
  if (n < 1 || lds_navmesh_check_path(m, pts, n, -1, NULL, 0, NULL, NULL, NULL) != LDS_OK ||
      pts[0] != a[0] || pts[2] != a[2] || pts[3 * n - 3] != b[0] || pts[3 * n - 1] != b[2])
    ++*illegal;
  return lds_navsearch_length(s);
}

static void random_grids(void) {
  int trial, mism = 0, illegal = 0, errors = 0, compared = 0, nopath = 0, collinear_meshes = 0;
  prs = 20261201;
  for (trial = 0; trial < 160; trial++) {
    int32_t w = 3 + (int32_t)(prnd() % 18), h = 3 + (int32_t)(prnd() % 18), x, y;
    int pct = (int)(prnd() % 45), variant;
    lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++)
        if ((int)(prnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
    if (lds_grid_passable_count(g) == 0) {
      lds_grid_free(g);
      continue;
    }
    for (variant = 0; variant < 3; variant++) {
      lds_GridMeshParams mp;
      lds_Navmesh *m;
      lds_NavSearch *s;
      VisGraph o;
      int q;
      lds_grid_mesh_params_init(&mp);
      mp.strict = variant == 2; /* two non-strict meshes, one strict */
      mp.max_verts = variant == 0 ? 64 : 4 + (int)(prnd() % 8);
      m = lds_grid_to_navmesh(NULL, g, &mp, NULL, NULL);
      CHECK(m != NULL);
      if (!m) continue;
      if (!mp.strict) {
        /* count meshes that really have a straight-angle vertex */
        uint32_t p, found = 0;
        const double *vs = lds_navmesh_vertices(m);
        for (p = 0; p < lds_navmesh_poly_count(m) && !found; p++) {
          const uint32_t *pv;
          uint32_t n = lds_navmesh_poly(m, p, &pv, NULL), k;
          for (k = 0; k < n && !found; k++) {
            const double *a = vs + 3 * (size_t)pv[(k + n - 1) % n], *b = vs + 3 * (size_t)pv[k],
                         *c = vs + 3 * (size_t)pv[(k + 1) % n];
            found = (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]) == 0;
          }
        }
        collinear_meshes += found ? 1 : 0;
      }
      s = lds_navsearch_new(NULL, m, NULL);
      vis_init(&o, g, m);
      for (q = 0; q < 8; q++) {
        long ax, ay, bx, by;
        double lo, lm;
        if (!rand_point(g, &ax, &ay) || !rand_point(g, &bx, &by)) continue;
        if (q == 0) { /* start == goal */
          bx = ax;
          by = ay;
        }
        lo = vis_len(&o, ax, ay, bx, by);
        lm = opt_len(s, m, ax, ay, bx, by, &illegal);
        compared++;
        if (lm == -2) {
          errors++;
          continue;
        }
        if (lo == INFINITY && lm == -1) {
          nopath++;
          continue;
        }
        if (!(fabs(lo - lm) <= 1e-9 * (lo > 1 ? lo : 1))) {
          if (mism < 5)
            fprintf(stderr, "polyanya trial %d variant %d (%g,%g)->(%g,%g): oracle %.12g, optimal %.12g\n",
                    trial, variant, ax / 2.0, ay / 2.0, bx / 2.0, by / 2.0, lo, lm);
          mism++;
        }
      }
      vis_free(&o);
      lds_navsearch_free(s);
      lds_navmesh_free(m);
    }
    lds_grid_free(g);
  }
  CHECK(compared > 3000);
  CHECK(nopath > 20);
  CHECK(collinear_meshes > 100);
  CHECK_INT(errors, 0);
  CHECK_INT(illegal, 0);
  CHECK_INT(mism, 0);
}

/* ---------------------------------------------------- degenerate meshes -- */

static double mesh_query(const lds_Navmesh *m, const double *a, const double *b, const double *costs,
                         size_t nc, lds_Status *st) {
  lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
  lds_NavParams p;
  double len = -1;
  lds_nav_params_init(&p);
  p.algo = LDS_NAV_OPTIMAL;
  p.area_costs = costs;
  p.n_area_costs = nc;
  *st = lds_navsearch_start(s, &p, a, b);
  if (*st == LDS_RUNNING) *st = lds_navsearch_step(s, NULL);
  if (*st == LDS_FOUND) {
    size_t n;
    const double *pts = lds_navsearch_points(s, &n);
    CHECK_INT(lds_navmesh_check_path(m, pts, n, -1, costs, nc, NULL, NULL, NULL), LDS_OK);
    len = lds_navsearch_length(s);
  }
  lds_navsearch_free(s);
  return len;
}

static lds_Navmesh *mk(const double *v, uint32_t nv, const uint32_t *idx, const uint32_t *st,
                       uint32_t np, const uint8_t *areas) {
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = nv;
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = np;
  d.areas = areas;
  m = lds_navmesh_new(NULL, &d, &err);
  if (!m) fprintf(stderr, "mesh: %s\n", err.msg);
  return m;
}

static void degenerate(void) {
  lds_Status st;
  double l;
  {
    /* A U-shaped corridor: rectangles with collinear vertices where they
    ** meet (x-z plane). Bottom bar [0,9]x[0,1] carries (1,1) and (8,1);
    ** left arm [0,1]x[1,5], right arm [8,9]x[1,5]. The wall y = 1 runs
    ** straight through the collinear points (1,1)..(8,1). */
    double v[] = {0, 0, 0, 9, 0, 0, 9, 0, 1, 8, 0, 1, 1, 0, 1, 0, 0, 1, /* 0..5 */
                  0, 0, 5, 1, 0, 5, 8, 0, 5, 9, 0, 5};                   /* 6..9 */
    uint32_t idx[] = {0, 5, 4, 3, 2, 1, /* bar, reversed to canonical by the constructor if needed */
                      5, 6, 7, 4, 3, 8, 9, 2};
    uint32_t sts[] = {0, 6, 10, 14};
    lds_Navmesh *m = mk(v, 10, idx, sts, 3, NULL);
    double a[3] = {0.5, 0, 4.5}, b[3] = {8.5, 0, 4.5}, c[3] = {4, 0, 1}, e[3] = {1, 0, 1};
    CHECK(m != NULL);
    if (m) {
      /* round both inner corners (1,1) and (8,1) */
      l = mesh_query(m, a, b, NULL, 0, &st);
      CHECK_INT(st, LDS_FOUND);
      CHECK_NEAR(l, hypot(0.5, 3.5) + 7 + hypot(0.5, 3.5), 1e-9);
      /* goal on the straight wall, between the collinear vertices */
      l = mesh_query(m, a, c, NULL, 0, &st);
      CHECK_NEAR(l, hypot(0.5, 3.5) + 3, 1e-9);
      /* goal on a corner vertex; start == goal on a vertex */
      l = mesh_query(m, a, e, NULL, 0, &st);
      CHECK_NEAR(l, hypot(0.5, 3.5), 1e-9);
      l = mesh_query(m, e, e, NULL, 0, &st);
      CHECK_INT(st, LDS_FOUND);
      CHECK_NEAR(l, 0, 0);
      /* outside the mesh: a clear error */
      {
        double out[3] = {4.5, 0, 3};
        lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
        lds_NavParams p;
        lds_nav_params_init(&p);
        p.algo = LDS_NAV_OPTIMAL;
        p.snap_radius = 0.5;
        CHECK_INT(lds_navsearch_start(s, &p, a, out), LDS_E_ARG);
        CHECK(strstr(lds_navsearch_errmsg(s), "goal") != NULL);
        CHECK(strstr(lds_navsearch_errmsg(s), "not on the mesh") != NULL);
        lds_navsearch_free(s);
      }
      lds_navmesh_free(m);
    }
  }
  {
    /* An unlinked T-junction: the square [0,2]x[0,2] over two unit squares
    ** [0,1]x[2,3] and [1,2]x[2,3] whose shared vertex (1,2) is not a vertex
    ** of the big square: they touch along z = 2 but share no edge, so the
    ** mesh has them apart (as lds_navmesh_new links only shared edges) and
    ** there is no path. A third square bridges [2,3]x[0,3] fully linked. */
    double v[] = {0, 0, 0, 2, 0, 0, 2, 0, 2, 0, 0, 2, 1, 0, 2, 1, 0, 3, 0, 0, 3, 2, 0, 3};
    uint32_t idx[] = {0, 3, 2, 1, 3, 6, 5, 4, 4, 5, 7, 2};
    uint32_t sts[] = {0, 4, 8, 12};
    lds_Navmesh *m = mk(v, 8, idx, sts, 3, NULL);
    double a[3] = {1, 0, 1}, b[3] = {0.5, 0, 2.5};
    CHECK(m != NULL);
    if (m) {
      l = mesh_query(m, a, b, NULL, 0, &st);
      CHECK_INT(st, LDS_NO_PATH);
      lds_navmesh_free(m);
    }
  }
  {
    /* Slivers: a fan of needle triangles round the apex (0, 0), their union
    ** a convex needle, so every path is straight. With the third needle
    ** blocked the first two and the last touch only at the apex: no path
    ** (a path moves between polygons through shared edges, never through a
    ** lone shared vertex, the pinch rule of docs/any-angle.md). */
    double v[] = {0, 0, 0, 10, 0, 0.001, 10, 0, 0.002, 10, 0, 0.003, 10, 0, 0.004, 10, 0, 0.005};
    uint32_t idx[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5};
    uint32_t sts[] = {0, 3, 6, 9, 12};
    uint8_t areas[] = {0, 0, 1, 0};
    double costs[] = {1, INFINITY};
    lds_Navmesh *m = mk(v, 6, idx, sts, 4, areas);
    double a[3] = {9.9, 0, 0.0015}, b[3] = {9.9, 0, 0.0045}, c[3] = {0.5, 0, 0.00007},
           apex[3] = {0, 0, 0}, base[3] = {10, 0, 0.003};
    CHECK(m != NULL);
    if (m) {
      l = mesh_query(m, a, b, NULL, 0, &st);
      CHECK_INT(st, LDS_FOUND);
      CHECK_NEAR(l, 0.003, 1e-12);
      l = mesh_query(m, b, c, NULL, 0, &st);
      CHECK_NEAR(l, hypot(9.4, 0.00443), 1e-12);
      l = mesh_query(m, apex, base, NULL, 0, &st); /* vertex to vertex along a shared edge */
      CHECK_NEAR(l, hypot(10, 0.003), 1e-12);
      l = mesh_query(m, a, b, costs, 2, &st);
      CHECK_INT(st, LDS_NO_PATH);
      l = mesh_query(m, a, c, costs, 2, &st); /* both on the open side */
      CHECK_INT(st, LDS_FOUND);
      CHECK_NEAR(l, hypot(9.4, 0.00143), 1e-12);
      lds_navmesh_free(m);
    }
  }
}

/* The six shared maps as non-strict meshes (collinear vertices at every
** T-junction) against the exact optima of their query files. */
static void shared_nonstrict(void) {
  static const char *const maps[] = {"arena", "den011d", "brc202d", "AR0011SR", "maze512-32-0",
                                     "32room_000"};
  size_t i;
  int mism = 0, done = 0, maps_run = 0;
  for (i = 0; i < sizeof maps / sizeof *maps; i++) {
    char mp[512], qp[512], line[512];
    lds_Grid *g;
    lds_GridMeshParams gp;
    lds_Navmesh *m;
    lds_NavSearch *s;
    lds_NavParams p;
    FILE *f;
    snprintf(mp, sizeof mp, "%s/data/movingai/maps/%s.map", LDS_SHARED_DIR, maps[i]);
    snprintf(qp, sizeof qp, "%s/data/navmesh/2d/%s.queries", LDS_SHARED_DIR, maps[i]);
    g = lds_map_load(NULL, mp, NULL);
    f = g ? fopen(qp, "r") : NULL;
    if (!f) { /* the shared data is not there: nothing to compare */
      if (g) lds_grid_free(g);
      continue;
    }
    lds_grid_mesh_params_init(&gp);
    gp.strict = false;
    m = lds_grid_to_navmesh(NULL, g, &gp, NULL, NULL);
    CHECK(m != NULL);
    s = m ? lds_navsearch_new(NULL, m, NULL) : NULL;
    lds_nav_params_init(&p);
    p.algo = LDS_NAV_OPTIMAL;
    maps_run++;
    while (s && fgets(line, sizeof line, f)) {
      double a[3], b[3], dl, dc, opt, len = -1;
      if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", a, a + 1, a + 2, b, b + 1, b + 2, &dl,
                 &dc, &opt) != 9)
        continue;
      if (lds_navsearch_start(s, &p, a, b) == LDS_RUNNING && lds_navsearch_step(s, NULL) == LDS_FOUND)
        len = lds_navsearch_length(s);
      done++;
      if (!(fabs(len - opt) <= 1e-6 * (opt > 1 ? opt : 1) + 5e-7)) {
        if (mism < 5) fprintf(stderr, "non-strict %s: %s  got %.9f\n", maps[i], line, len);
        mism++;
      }
    }
    fclose(f);
    lds_navsearch_free(s);
    lds_navmesh_free(m);
    lds_grid_free(g);
  }
  if (maps_run) CHECK(done >= 500 * maps_run - 340); /* arena has 160 queries */
  CHECK_INT(mism, 0);
}

void suite_polyanya(void);
void suite_polyanya(void) {
  random_grids();
  degenerate();
  shared_nonstrict();
}
