/* SPDX-License-Identifier: MIT */
/*
** test_grid_mesh.c — grid -> mesh (core/lds_grid_outline.c,
** core/lds_grid_mesh.c) and the optimal any-angle path through it:
**  - random maps (strict and non-strict meshes): the polygons' area is the
**    free cell count, every polygon convex (strictly in strict mode),
**    neighbour links mirrored, the mesh boundary and the outline's rings
**    cut into unit steps equal the free/blocked cell sides found here
**    directly, ring areas per piece equal its cells;
**  - the six maps of shared/data/navmesh/2d: the outline equals the .poly
**    file ring for ring;
**  - optimal paths (Polyanya, lds_navsearch, on the strict mesh) against an
**    oracle written here: a visibility graph over the obstacles' convex
**    corners with an exact legality test (no meeting the interior of the
**    blocked cells' union, no passing a pinch vertex) and Dijkstra, on
**    random small maps and on Moving AI maps: 0 mismatches at 1e-6
**    relative.
*/
#include "harness.h"
#include "lds.h"
#include "lds_io.h"

#include <stdint.h>
#include <stdlib.h>

static uint64_t rs;
static uint32_t rnd(void) {
  rs = rs * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rs >> 33);
}

static bool fr(const lds_Grid *g, long x, long y) {
  return x >= 0 && y >= 0 && x < lds_grid_width(g) && y < lds_grid_height(g) &&
         !lds_grid_blocked(g, (int32_t)x, (int32_t)y);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* a unit step (x0,y0) -> (x1,y1) on grid points, encoded */
static uint64_t step_key(long x0, long y0, long x1, long y1) {
  return (uint64_t)x0 << 48 | (uint64_t)y0 << 32 | (uint64_t)x1 << 16 | (uint64_t)y1;
}

/* The free/blocked cell sides of g as unit steps, free cell on the right
** on screen (the outline's direction); returns the count (keys sorted). */
static size_t expected_steps(const lds_Grid *g, uint64_t *k) {
  long x, y, n = 0;
  for (y = 0; y < lds_grid_height(g); y++)
    for (x = 0; x < lds_grid_width(g); x++) {
      if (!fr(g, x, y)) continue;
      if (!fr(g, x, y - 1)) k[n++] = step_key(x, y, x + 1, y);
      if (!fr(g, x + 1, y)) k[n++] = step_key(x + 1, y, x + 1, y + 1);
      if (!fr(g, x, y + 1)) k[n++] = step_key(x + 1, y + 1, x, y + 1);
      if (!fr(g, x - 1, y)) k[n++] = step_key(x, y + 1, x, y);
    }
  qsort(k, (size_t)n, sizeof *k, cmp_u64);
  return (size_t)n;
}

/* Appends the unit steps of segment a -> b (axis-parallel, grid points). */
static bool unit_steps(long ax, long ay, long bx, long by, uint64_t *k, size_t *n, size_t cap) {
  long dx = bx > ax ? 1 : bx < ax ? -1 : 0, dy = by > ay ? 1 : by < ay ? -1 : 0;
  if (dx && dy) return false;
  while (ax != bx || ay != by) {
    if (*n >= cap) return false;
    k[(*n)++] = step_key(ax, ay, ax + dx, ay + dy);
    ax += dx;
    ay += dy;
  }
  return true;
}

static lds_Grid *random_grid(int32_t w, int32_t h, int pct) {
  lds_Grid *g = lds_grid_new(NULL, w, h, NULL);
  int32_t x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if ((int)(rnd() % 100) < pct) lds_grid_set_blocked(g, x, y, true);
  return g;
}

/* Checks mesh m and outline of g (see the header); returns the failures. */
static int check_mesh(const lds_Grid *g, const lds_Navmesh *m, bool strict) {
  size_t ncell = (size_t)lds_grid_width(g) * (size_t)lds_grid_height(g), ne, nb = 0, no = 0;
  uint64_t *exp_k = (uint64_t *)malloc(4 * ncell * sizeof(uint64_t) + 8);
  uint64_t *mesh_k = (uint64_t *)malloc(4 * ncell * sizeof(uint64_t) + 8);
  uint64_t *ol_k = (uint64_t *)malloc(4 * ncell * sizeof(uint64_t) + 8);
  uint32_t p, k, np = lds_navmesh_poly_count(m);
  const double *v = lds_navmesh_vertices(m);
  double area2 = 0.0;
  int bad = 0;
  lds_GridOutline ol;
  ne = expected_steps(g, exp_k);
  for (p = 0; p < np; p++) {
    const uint32_t *vs, *nbr;
    uint32_t n = lds_navmesh_poly(m, p, &vs, &nbr);
    double a = 0.0;
    for (k = 0; k < n; k++) {
      const double *A = v + 3 * vs[k], *B = v + 3 * vs[(k + 1) % n], *C = v + 3 * vs[(k + 2) % n];
      double t = (B[0] - A[0]) * (C[2] - B[2]) - (B[2] - A[2]) * (C[0] - B[0]);
      a += A[0] * B[2] - B[0] * A[2];
      if (t > 0 || (strict && t == 0)) bad++; /* reflex, or straight in strict mode */
      if (nbr[k] != LDS_NAVMESH_NONE) {
        const uint32_t *qv, *qn;
        uint32_t qnn = lds_navmesh_poly(m, nbr[k], &qv, &qn), j;
        bool back = false;
        for (j = 0; j < qnn; j++)
          back |= qv[j] == vs[(k + 1) % n] && qv[(j + 1) % qnn] == vs[k] && qn[j] == p;
        if (!back) bad++;
      } else { /* boundary: reversed, it is a step of the outline's direction */
        if (!unit_steps((long)B[0], (long)B[2], (long)A[0], (long)A[2], mesh_k, &nb, 4 * ncell))
          bad++;
      }
    }
    if (!(a < 0)) bad++; /* canonical winding */
    area2 += -a;
  }
  if (area2 != 2.0 * (double)lds_grid_passable_count(g)) bad++;
  qsort(mesh_k, nb, sizeof *mesh_k, cmp_u64);
  if (nb != ne || memcmp(mesh_k, exp_k, ne * sizeof *exp_k) != 0) bad++;
  /* the outline: its rings' unit steps, and the area per piece */
  if (lds_grid_outline(NULL, g, &ol, NULL) != LDS_OK) return bad + 1;
  {
    double *piece_area = (double *)calloc(ol.n_pieces + 1, sizeof(double));
    uint32_t r;
    for (r = 0; r < ol.n_rings; r++) {
      uint32_t s0 = ol.ring_start[r], n = ol.ring_start[r + 1] - s0, i;
      double a = 0.0;
      for (i = 0; i < n; i++) {
        const int32_t *A = ol.xy + 2 * (s0 + i), *B = ol.xy + 2 * (s0 + (i + 1) % n);
        a += (double)A[0] * B[1] - (double)B[0] * A[1];
        if (!unit_steps(A[0], A[1], B[0], B[1], ol_k, &no, 4 * ncell)) bad++;
      }
      if ((a < 0) != (ol.ring_hole[r] != 0)) bad++;
      piece_area[ol.ring_piece[r]] += a / 2;
    }
    for (r = 0; r < ol.n_pieces; r++)
      if (piece_area[r] != (double)ol.piece_cells[r]) bad++;
    free(piece_area);
  }
  qsort(ol_k, no, sizeof *ol_k, cmp_u64);
  if (no != ne || memcmp(ol_k, exp_k, ne * sizeof *exp_k) != 0) bad++;
  lds_grid_outline_free(&ol);
  free(exp_k);
  free(mesh_k);
  free(ol_k);
  return bad;
}

/* ------------------------------------------------------------ oracle -- */

/* Exact legality of segment a -> b (map coordinates doubled: integers),
** the rule of shared/data/navmesh/README.md: it must not meet the interior
** of the union of the blocked cells (outside counts blocked) nor pass
** through a pinch vertex. The segment is cut where it crosses grid lines;
** each piece is inside one cell, or along a grid line between two cells. */
static bool legal(const lds_Grid *g, long ax, long ay, long bx, long by) {
  double t[4096];
  int n = 0, i, j;
  long dx = bx - ax, dy = by - ay, k, lo, hi;
  t[n++] = 0.0;
  t[n++] = 1.0;
  if (dx) {
    lo = (ax < bx ? ax : bx) / 2 - 1;
    hi = (ax < bx ? bx : ax) / 2 + 1;
    for (k = lo; k <= hi && n < 4090; k++) {
      double tt = (double)(2 * k - ax) / (double)dx;
      if (tt > 0 && tt < 1) t[n++] = tt;
    }
  }
  if (dy) {
    lo = (ay < by ? ay : by) / 2 - 1;
    hi = (ay < by ? by : ay) / 2 + 1;
    for (k = lo; k <= hi && n < 4090; k++) {
      double tt = (double)(2 * k - ay) / (double)dy;
      if (tt > 0 && tt < 1) t[n++] = tt;
    }
  }
  for (i = 1; i < n; i++) /* insertion sort */
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
    if (dx == 0 && ax % 2 == 0) { /* along the vertical line x = ax/2 */
      long cy = (long)floor(my);
      if (!fr(g, ax / 2 - 1, cy) && !fr(g, ax / 2, cy)) return false;
    } else if (dy == 0 && ay % 2 == 0) {
      long cx = (long)floor(mx);
      if (!fr(g, cx, ay / 2 - 1) && !fr(g, cx, ay / 2)) return false;
    } else if (!fr(g, (long)floor(mx), (long)floor(my))) {
      return false;
    }
  }
  /* grid vertices passed (not the ends): no pinch vertex */
  for (i = 1; i + 1 < n; i++) {
    double px = (ax + t[i] * dx) / 2.0, py = (ay + t[i] * dy) / 2.0;
    long vx = lround(px), vy = lround(py);
    if (fabs(px - vx) < 1e-9 && fabs(py - vy) < 1e-9) {
      bool nw = fr(g, vx - 1, vy - 1), ne = fr(g, vx, vy - 1), sw = fr(g, vx - 1, vy),
           se = fr(g, vx, vy);
      if ((nw && se && !ne && !sw) || (ne && sw && !nw && !se)) return false;
    }
  }
  return true;
}

typedef struct Oracle {
  const lds_Grid *g;
  long *cx, *cy; /* convex corners, doubled coordinates */
  size_t n;
  double *w;     /* n x n visibility lengths (INFINITY: not visible) */
} Oracle;

static void oracle_init(Oracle *o, const lds_Grid *g) {
  long x, y;
  size_t i, j, cap = 64;
  o->g = g;
  o->n = 0;
  o->cx = (long *)malloc(cap * sizeof(long));
  o->cy = (long *)malloc(cap * sizeof(long));
  for (y = 0; y <= lds_grid_height(g); y++)
    for (x = 0; x <= lds_grid_width(g); x++) {
      int blocked = !fr(g, x - 1, y - 1) + !fr(g, x, y - 1) + !fr(g, x - 1, y) + !fr(g, x, y);
      if (blocked != 1) continue; /* a convex obstacle corner: one blocked cell of four */
      if (o->n == cap) {
        cap *= 2;
        o->cx = (long *)realloc(o->cx, cap * sizeof(long));
        o->cy = (long *)realloc(o->cy, cap * sizeof(long));
      }
      o->cx[o->n] = 2 * x;
      o->cy[o->n] = 2 * y;
      o->n++;
    }
  o->w = (double *)malloc((o->n * o->n + 1) * sizeof(double));
  for (i = 0; i < o->n; i++) {
    o->w[i * o->n + i] = 0;
    for (j = i + 1; j < o->n; j++) {
      double d = legal(g, o->cx[i], o->cy[i], o->cx[j], o->cy[j])
                     ? hypot((double)(o->cx[i] - o->cx[j]), (double)(o->cy[i] - o->cy[j])) / 2
                     : INFINITY;
      o->w[i * o->n + j] = o->w[j * o->n + i] = d;
    }
  }
}

static void oracle_free(Oracle *o) {
  free(o->cx);
  free(o->cy);
  free(o->w);
}

/* Shortest legal path from cell centre (sx, sy) to (gx, gy) (cells);
** INFINITY when none. Dijkstra over start, corners, goal (O(n^2)). */
static double oracle_len(const Oracle *o, long sx, long sy, long gx, long gy) {
  size_t n = o->n, i, u;
  long ax = 2 * sx + 1, ay = 2 * sy + 1, bx = 2 * gx + 1, by = 2 * gy + 1;
  double *d = (double *)malloc((n + 1) * sizeof(double)), *tg = (double *)malloc(n * sizeof(double));
  char *done = (char *)calloc(n + 1, 1);
  double best;
  if (legal(o->g, ax, ay, bx, by)) {
    free(d);
    free(tg);
    free(done);
    return hypot((double)(bx - ax), (double)(by - ay)) / 2;
  }
  for (i = 0; i < n; i++) {
    d[i] = legal(o->g, ax, ay, o->cx[i], o->cy[i])
               ? hypot((double)(o->cx[i] - ax), (double)(o->cy[i] - ay)) / 2
               : INFINITY;
    tg[i] = legal(o->g, o->cx[i], o->cy[i], bx, by)
                ? hypot((double)(o->cx[i] - bx), (double)(o->cy[i] - by)) / 2
                : INFINITY;
  }
  best = INFINITY;
  for (;;) {
    double m = INFINITY;
    u = n;
    for (i = 0; i < n; i++)
      if (!done[i] && d[i] < m) {
        m = d[i];
        u = i;
      }
    if (u == n || m >= best) break;
    done[u] = 1;
    if (m + tg[u] < best) best = m + tg[u];
    for (i = 0; i < n; i++)
      if (!done[i] && m + o->w[u * n + i] < d[i]) d[i] = m + o->w[u * n + i];
  }
  free(d);
  free(tg);
  free(done);
  return best;
}

/* Polyanya's length from cell centre (sx,sy) to (gx,gy) on mesh m; -1 for
** no path. */
static double mesh_len(lds_NavSearch *s, long sx, long sy, long gx, long gy) {
  lds_NavParams p;
  double a[3] = {sx + 0.5, 0, sy + 0.5}, b[3] = {gx + 0.5, 0, gy + 0.5};
  lds_nav_params_init(&p);
  p.algo = LDS_NAV_OPTIMAL;
  p.snap_radius = 0.01;
  if (lds_navsearch_start(s, &p, a, b) != LDS_RUNNING) return -2;
  if (lds_navsearch_step(s, NULL) != LDS_FOUND) return -1;
  return lds_navsearch_length(s);
}

static void random_maps(void) {
  int trial, bad = 0, mism = 0, compared = 0, nopath_both = 0;
  rs = 4242;
  for (trial = 0; trial < 60; trial++) {
    int32_t w = 4 + (int32_t)(rnd() % 20), h = 4 + (int32_t)(rnd() % 20);
    lds_Grid *g = random_grid(w, h, (int)(rnd() % 45));
    lds_GridMeshParams mp;
    lds_Navmesh *m;
    int strict;
    if (lds_grid_passable_count(g) == 0) {
      lds_grid_free(g);
      continue;
    }
    for (strict = 0; strict < 2; strict++) {
      lds_grid_mesh_params_init(&mp);
      mp.strict = strict != 0;
      mp.max_verts = 4 + (int)(rnd() % 61);
      m = lds_grid_to_navmesh(NULL, g, &mp, NULL, NULL);
      CHECK(m != NULL);
      if (!m) continue;
      bad += check_mesh(g, m, mp.strict);
      if (strict) { /* optimal paths against the oracle */
        Oracle o;
        lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
        int q;
        oracle_init(&o, g);
        for (q = 0; q < 15; q++) {
          long sx = (long)(rnd() % (uint32_t)w), sy = (long)(rnd() % (uint32_t)h);
          long gx = (long)(rnd() % (uint32_t)w), gy = (long)(rnd() % (uint32_t)h);
          double lo, lm;
          if (!fr(g, sx, sy) || !fr(g, gx, gy)) continue;
          lo = oracle_len(&o, sx, sy, gx, gy);
          lm = mesh_len(s, sx, sy, gx, gy);
          compared++;
          if (lo == INFINITY && lm == -1) {
            nopath_both++;
            continue;
          }
          if (!(fabs(lo - lm) <= 1e-6 * (lo > 1 ? lo : 1))) {
            mism++;
            fprintf(stderr, "mesh trial %d (%ld,%ld)->(%ld,%ld): oracle %.9g mesh %.9g\n", trial,
                    sx, sy, gx, gy, lo, lm);
          }
        }
        oracle_free(&o);
        lds_navsearch_free(s);
      }
      lds_navmesh_free(m);
    }
    lds_grid_free(g);
  }
  CHECK_INT(bad, 0);
  CHECK(compared > 300);
  CHECK(nopath_both > 5); /* pieces apart (pinch vertices too) */
  CHECK_INT(mism, 0);
}

/* A pinch: two free cells touching at a corner only are not joined. */
static void pinch(void) {
  lds_Grid *g = lds_grid_new(NULL, 2, 2, NULL);
  lds_Navmesh *m;
  lds_GridMeshInfo info;
  lds_GridOutline ol;
  lds_Error err;
  lds_grid_set_blocked(g, 1, 0, true);
  lds_grid_set_blocked(g, 0, 1, true);
  m = lds_grid_to_navmesh(NULL, g, NULL, &info, &err);
  CHECK(m != NULL);
  CHECK_INT(lds_navmesh_poly_count(m), 2);
  CHECK_INT(lds_navmesh_vertex_count(m), 8); /* (1,1) twice */
  CHECK_INT(lds_navmesh_piece_count(m), 2);
  CHECK_INT(lds_grid_outline(NULL, g, &ol, NULL), LDS_OK);
  CHECK_INT(ol.n_pieces, 2);
  CHECK_INT(ol.n_rings, 2);
  lds_grid_outline_free(&ol);
  lds_navmesh_free(m);
  {
    lds_GridMeshParams p;
    lds_grid_mesh_params_init(&p);
    p.max_verts = 3;
    CHECK(lds_grid_to_navmesh(NULL, g, &p, NULL, &err) == NULL);
    CHECK_CONTAINS(err.msg, "max_verts 3 out of range (expected 4..64)");
  }
  lds_grid_set_blocked(g, 0, 0, true);
  lds_grid_set_blocked(g, 1, 1, true);
  CHECK(lds_grid_to_navmesh(NULL, g, NULL, NULL, &err) == NULL);
  CHECK_CONTAINS(err.msg, "no passable cell");
  lds_grid_free(g);
}

/* ------------------------------------------------ shared maps (.poly) -- */

typedef struct Ring {
  long *xy;
  size_t n;
} Ring;

static void canon(Ring *r) {
  size_t best = 0, s, k, n = r->n;
  long *t = (long *)malloc(2 * n * sizeof(long));
  for (s = 1; s < n; s++)
    for (k = 0; k < n; k++) {
      long ax = r->xy[2 * ((best + k) % n)], ay = r->xy[2 * ((best + k) % n) + 1];
      long bx = r->xy[2 * ((s + k) % n)], by = r->xy[2 * ((s + k) % n) + 1];
      if (ax != bx || ay != by) {
        if (by < ay || (by == ay && bx < ax)) best = s;
        break;
      }
    }
  for (k = 0; k < n; k++) {
    t[2 * k] = r->xy[2 * ((best + k) % n)];
    t[2 * k + 1] = r->xy[2 * ((best + k) % n) + 1];
  }
  memcpy(r->xy, t, 2 * n * sizeof(long));
  free(t);
}

static int ring_cmp(const void *a, const void *b) {
  const Ring *x = (const Ring *)a, *y = (const Ring *)b;
  size_t k;
  if (x->n != y->n) return x->n < y->n ? -1 : 1;
  for (k = 0; k < 2 * x->n; k++)
    if (x->xy[k] != y->xy[k]) return x->xy[k] < y->xy[k] ? -1 : 1;
  return 0;
}

/* The rings of a .poly file (o and h lines); -1 when it cannot be read. */
static long read_poly(const char *path, Ring **out) {
  FILE *f = fopen(path, "r");
  size_t n = 0, cap = 16;
  Ring *r;
  char tag[4];
  if (!f) return -1;
  r = (Ring *)malloc(cap * sizeof(Ring));
  while (fscanf(f, "%3s", tag) == 1) {
    if ((tag[0] == 'o' || tag[0] == 'h') && tag[1] == 0) {
      long m, k;
      if (fscanf(f, "%ld", &m) != 1 || m < 3) break;
      if (n == cap) r = (Ring *)realloc(r, (cap *= 2) * sizeof(Ring));
      r[n].n = (size_t)m;
      r[n].xy = (long *)malloc(2 * (size_t)m * sizeof(long));
      for (k = 0; k < 2 * m; k++)
        if (fscanf(f, "%ld", &r[n].xy[k]) != 1) break;
      n++;
    } else { /* the rest of the line */
      int c;
      while ((c = fgetc(f)) != EOF && c != '\n') {
      }
    }
  }
  fclose(f);
  *out = r;
  return (long)n;
}

static void shared_maps(void) {
  static const char *const maps[] = {"arena", "den011d", "brc202d", "AR0011SR", "maze512-32-0",
                                     "32room_000"};
  size_t i;
  for (i = 0; i < sizeof maps / sizeof *maps; i++) {
    char mp[512], pp[512];
    lds_Grid *g;
    lds_GridOutline ol;
    Ring *file = NULL, *ours;
    long nf, k;
    uint32_t r;
    snprintf(mp, sizeof mp, "%s/data/movingai/maps/%s.map", LDS_SHARED_DIR, maps[i]);
    snprintf(pp, sizeof pp, "%s/data/navmesh/2d/%s.poly", LDS_SHARED_DIR, maps[i]);
    g = lds_map_load(NULL, mp, NULL);
    nf = g ? read_poly(pp, &file) : -1;
    if (!g || nf < 0) { /* the shared data is not there: nothing to compare */
      if (g) lds_grid_free(g);
      continue;
    }
    CHECK_INT(lds_grid_outline(NULL, g, &ol, NULL), LDS_OK);
    CHECK_INT(ol.n_rings, nf);
    ours = (Ring *)calloc(ol.n_rings + 1, sizeof(Ring));
    for (r = 0; r < ol.n_rings; r++) {
      size_t j;
      ours[r].n = ol.ring_start[r + 1] - ol.ring_start[r];
      ours[r].xy = (long *)malloc(2 * ours[r].n * sizeof(long));
      for (j = 0; j < 2 * ours[r].n; j++) ours[r].xy[j] = ol.xy[2 * ol.ring_start[r] + j];
      canon(&ours[r]);
    }
    for (k = 0; k < nf; k++) canon(&file[k]);
    qsort(ours, ol.n_rings, sizeof(Ring), ring_cmp);
    qsort(file, (size_t)nf, sizeof(Ring), ring_cmp);
    if ((long)ol.n_rings == nf) {
      long same = 0;
      for (k = 0; k < nf; k++) same += ring_cmp(&ours[k], &file[k]) == 0;
      CHECK_INT(same, nf);
    }
    /* the mesh of a real map passes the same checks; arena and den011d
    ** also against the oracle on cell pairs */
    {
      lds_Navmesh *m = lds_grid_to_navmesh(NULL, g, NULL, NULL, NULL);
      CHECK(m != NULL);
      if (m && i < 2) {
        Oracle o;
        lds_NavSearch *s = lds_navsearch_new(NULL, m, NULL);
        int q, mism = 0, n = 0;
        CHECK_INT(check_mesh(g, m, true), 0);
        oracle_init(&o, g);
        rs = 99 + i;
        for (q = 0; q < 2000 && n < (i == 0 ? 60 : 25); q++) {
          long w = lds_grid_width(g), h = lds_grid_height(g);
          long sx = (long)(rnd() % (uint32_t)w), sy = (long)(rnd() % (uint32_t)h);
          long gx = (long)(rnd() % (uint32_t)w), gy = (long)(rnd() % (uint32_t)h);
          double lo, lm;
          if (!fr(g, sx, sy) || !fr(g, gx, gy)) continue;
          lo = oracle_len(&o, sx, sy, gx, gy);
          lm = mesh_len(s, sx, sy, gx, gy);
          n++;
          if (!(fabs(lo - lm) <= 1e-6 * (lo > 1 ? lo : 1))) mism++;
        }
        CHECK(n > 10);
        CHECK_INT(mism, 0);
        oracle_free(&o);
        lds_navsearch_free(s);
      }
      lds_navmesh_free(m);
    }
    for (r = 0; r < ol.n_rings; r++) free(ours[r].xy);
    for (k = 0; k < nf; k++) free(file[k].xy);
    free(ours);
    free(file);
    lds_grid_outline_free(&ol);
    lds_grid_free(g);
  }
}

void suite_grid_mesh(void);
void suite_grid_mesh(void) {
  pinch();
  random_maps();
  shared_maps();
}
