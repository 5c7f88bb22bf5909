/* SPDX-License-Identifier: MIT */
/*
** fuzz_search.c — every search of the core against an independent Dijkstra.
**
** Each case draws a random grid (1..24 a side, or up to 399 x 4; neighbourhood 4 or 8; every
** diagonal rule; blocked cells; cell costs log-uniform from 1e-45 to 3e38,
** denormal floats, uniform 1 for JPS, or one scale with small variation;
** cost layers with weights, some +inf to block; an edge-cost callback) or a
** random graph (0..4n edges with self-loops, parallel and zero-cost edges,
** costs log-uniform from 1e-300 to 1e300, with or without coordinates), then
** runs:
**   grids:  astar (auto and every admissible heuristic), dijkstra, wastar
**           (cost <= w * optimum), greedy (a legal path), jps, jps+, each
**           one-shot and sliced (same path, bit for bit); an edit during a
**           running query (LDS_E_STALE); D* Lite with edits between and in
**           the middle of computes, agent moves along lds_dstar_next and
**           jumps of the start;
**   graphs: A*, Dijkstra, weighted A*, greedy; D* Lite with edge-cost edits
**           and moves along lds_dstar_next_node.
** The reference is a Dijkstra written here from the documented rules (a move
** costs its length times the effective cost of the cell entered: base +
** sum of weight x layer over non-zero weights, +inf blocks; the callback sees
** that as its base; diagonals by the rule over blocked cells; out of the grid
** is blocked) reading the grid only through its getters. Costs compare with a
** relative tolerance of 1e-9 (sums of the same moves in another order differ
** by about n x 2^-53 relative; nothing here is absolute, since costs have no
** scale); paths must be legal (each step a move the reference allows and
** lds_grid_path_cost, the project's checker, accepts) and cost what they
** report.
**
** Usage: fuzz_search [--seed S] [--seconds T | --iters N] [--case C]
**   --seed S     master seed (default: from the clock, printed)
**   --seconds T  run cases until T seconds of CPU time have passed (make fuzz)
**   --iters N    run N cases (make test: a fixed seed and count)
**   --case C     run only case C of seed S (what a failure prints)
** The Makefile's test-fuzz replays two cases by number: a change to what
** the generator draws renumbers every case, so re-pick them then. On a
** failure it prints the seed, the case number, the command that
** reproduces it and the case (grid as text, query, algorithm, what differed,
** the grid as it was at the failure), and exits 1. FUZZ_DEBUG=1 adds, for a
** D* Lite mismatch, what a fresh D* Lite says, the stats and the path, and
** the effective cell costs.
*/
#include "lds.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REL 1e-9
#define MAXW 24
#define MAXN (MAXW * MAXW)
#define MAXL 3

/* ------------------------------------------------------------ random -- */

typedef struct Rng {
  uint64_t s;
} Rng;

static uint64_t splitmix(uint64_t *x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint64_t rnd(Rng *r) { return splitmix(&r->s); }
static int rint_n(Rng *r, int n) { return (int)(rnd(r) % (uint64_t)n); }
static double runif(Rng *r) { return (double)(rnd(r) >> 11) * (1.0 / 9007199254740992.0); }
static bool rbool(Rng *r, double p) { return runif(r) < p; }
/* log-uniform in [lo, hi] */
static double rlog(Rng *r, double lo, double hi) {
  return exp(log(lo) + runif(r) * (log(hi) - log(lo)));
}

/* --------------------------------------------------------- reporting -- */

static uint64_t g_seed;
static long g_case;
static char g_desc[16384]; /* the current case, printed on failure */
static size_t g_desc_n;
static long g_checks;
static void (*g_dump)(void); /* prints the current grid or graph on failure */

static void desc(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void desc(const char *fmt, ...) {
  va_list ap;
  if (g_desc_n >= sizeof g_desc - 1) return;
  va_start(ap, fmt);
  g_desc_n += (size_t)vsnprintf(g_desc + g_desc_n, sizeof g_desc - g_desc_n, fmt, ap);
  va_end(ap);
  if (g_desc_n > sizeof g_desc - 1) g_desc_n = sizeof g_desc - 1;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "\nfuzz_search: FAILED: seed %llu case %ld\n", (unsigned long long)g_seed,
          g_case);
  fprintf(stderr, "reproduce: fuzz_search --seed %llu --case %ld\n", (unsigned long long)g_seed,
          g_case);
  fprintf(stderr, "what: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\ncase:\n%s\n", g_desc);
  if (g_dump) {
    fprintf(stderr, "state at the failure:\n");
    g_desc_n = 0;
    g_desc[0] = '\0';
    g_dump();
    fprintf(stderr, "%s\n", g_desc);
  }
  exit(1);
}

#define EXPECT(cond, ...) \
  do {                    \
    g_checks++;           \
    if (!(cond)) fail(__VA_ARGS__); \
  } while (0)

static bool rel_eq(double a, double b) {
  if (a == b) return true;
  return fabs(a - b) <= REL * fmax(fabs(a), fabs(b));
}

/* ---------------------------------------------------- reference rules -- */

/* The reference's own move table, written from docs/search.md rather than
** taken from core/lds_directions.h: an oracle that shared the library's
** table would share its mistakes. */
static const int ddx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
static const int ddy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
static const double dlen[8] = {1, 1, 1, 1, 1.4142135623730951, 1.4142135623730951,
                               1.4142135623730951, 1.4142135623730951};
/* the two orthogonal directions a diagonal passes between */
static const int side_a[8] = {0, 0, 0, 0, 0 /*N*/, 2 /*S*/, 2 /*S*/, 0 /*N*/};
static const int side_b[8] = {0, 0, 0, 0, 1 /*E*/, 1 /*E*/, 3 /*W*/, 3 /*W*/};

typedef struct Query {
  const double *w; /* layer weights */
  int nw;
  int cb; /* edge callback mode (0 = none) */
} Query;

static bool passable(const lds_Grid *g, int x, int y) {
  return x >= 0 && y >= 0 && x < lds_grid_width(g) && y < lds_grid_height(g) &&
         !lds_grid_blocked(g, x, y);
}

/* the move from (x,y) in direction d is legal (blocked cells only) */
static bool ref_legal(const lds_Grid *g, int x, int y, int d) {
  bool a, b;
  if (!passable(g, x, y) || !passable(g, x + ddx[d], y + ddy[d])) return false;
  if (d < 4) return true;
  if (lds_grid_neighbourhood(g) == 4 || lds_grid_diagonal(g) == LDS_DIAG_NEVER) return false;
  a = passable(g, x + ddx[side_a[d]], y + ddy[side_a[d]]);
  b = passable(g, x + ddx[side_b[d]], y + ddy[side_b[d]]);
  switch (lds_grid_diagonal(g)) {
    case LDS_DIAG_NO_CORNER_CUTTING: return a && b;
    case LDS_DIAG_ALLOW_ONE_BLOCKED: return a || b;
    default: return true;
  }
}

/* effective cost of entering (x,y): base + weight x layer (non-zero weights) */
static double ref_eff(const lds_Grid *g, const Query *q, int x, int y) {
  double c = (double)lds_grid_cost(g, x, y);
  int i;
  for (i = 0; i < q->nw; i++)
    if (q->w[i] != 0.0) c += q->w[i] * (double)lds_grid_layer_get(g, i, x, y);
  return c;
}

/* the edge-cost callback: base times a factor >= 1 (keeps h admissible) from
** a hash of the move, or +inf to forbid it */
static double cb_factor(int mode, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  uint64_t h = (uint64_t)x0 * 73856093u ^ (uint64_t)y0 * 19349663u ^ (uint64_t)x1 * 83492791u ^
               (uint64_t)y1 * 50331653u ^ (uint64_t)mode;
  h = splitmix(&h);
  switch (h % 8) {
    case 0: return 2.0;
    case 1: return 1.25;
    case 2: return mode == 2 ? INFINITY : 1.0;
    default: return 1.0;
  }
}

static lds_Status edge_cb(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1, double base,
                          double *out) {
  int mode = *(const int *)ud;
  *out = base * cb_factor(mode, x0, y0, x1, y1);
  return LDS_OK;
}

/* cost of the move (x,y) -> d under q, +inf when unusable */
static double ref_step(const lds_Grid *g, const Query *q, int x, int y, int d) {
  double c, s;
  if (!ref_legal(g, x, y, d)) return INFINITY;
  c = ref_eff(g, q, x + ddx[d], y + ddy[d]);
  if (c == INFINITY) return INFINITY;
  s = dlen[d] * c;
  if (q->cb) s *= cb_factor(q->cb, x, y, x + ddx[d], y + ddy[d]);
  return s;
}

/* a binary heap of (key, id), lazy deletion */
typedef struct Heap {
  double *k;
  uint32_t *v;
  size_t n, cap;
} Heap;

static void heap_push(Heap *h, double k, uint32_t v) {
  size_t i;
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 256;
    h->k = (double *)realloc(h->k, h->cap * sizeof(double));
    h->v = (uint32_t *)realloc(h->v, h->cap * sizeof(uint32_t));
  }
  i = h->n++;
  while (i > 0 && h->k[(i - 1) / 2] > k) {
    h->k[i] = h->k[(i - 1) / 2];
    h->v[i] = h->v[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->k[i] = k;
  h->v[i] = v;
}

static uint32_t heap_pop(Heap *h, double *k) {
  uint32_t top = h->v[0], lv;
  double lk;
  size_t i = 0;
  *k = h->k[0];
  lk = h->k[--h->n];
  lv = h->v[h->n];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && h->k[c + 1] < h->k[c]) c++;
    if (h->k[c] >= lk) break;
    h->k[i] = h->k[c];
    h->v[i] = h->v[c];
    i = c;
  }
  if (h->n) {
    h->k[i] = lk;
    h->v[i] = lv;
  }
  return top;
}

static Heap g_heap;
static double g_dist[4096]; /* grids up to 399 x 4 or 24 x 24, graphs up to 60 nodes */

/* optimal cost from (sx,sy) to (gx,gy), -1 when there is no path (a path
** whose cost overflows to +inf counts as none) */
static double ref_grid(const lds_Grid *g, const Query *q, int sx, int sy, int gx, int gy) {
  int w = lds_grid_width(g), h = lds_grid_height(g), i;
  double k;
  if (!passable(g, sx, sy) || !passable(g, gx, gy)) return -1.0;
  for (i = 0; i < w * h; i++) g_dist[i] = INFINITY;
  g_heap.n = 0;
  g_dist[sy * w + sx] = 0.0;
  heap_push(&g_heap, 0.0, (uint32_t)(sy * w + sx));
  while (g_heap.n) {
    uint32_t u = heap_pop(&g_heap, &k);
    int x = (int)u % w, y = (int)u / w, d;
    if (k > g_dist[u]) continue;
    if (x == gx && y == gy) return k;
    for (d = 0; d < 8; d++) {
      double s = ref_step(g, q, x, y, d), nd;
      uint32_t v;
      if (s == INFINITY) continue;
      nd = k + s;
      v = (uint32_t)((y + ddy[d]) * w + x + ddx[d]);
      if (nd < g_dist[v]) {
        g_dist[v] = nd;
        heap_push(&g_heap, nd, v);
      }
    }
  }
  return -1.0;
}

/* Checks a grid path from (sx,sy) to (gx,gy): each step a legal adjacent
** move, the project's checker accepts it, and its cost under q (summed
** here) equals what it reports. Returns that cost. */
static double check_grid_path(const lds_Grid *g, const Query *q, const lds_Path *p, int sx, int sy,
                              int gx, int gy, const char *who) {
  size_t i, n = lds_path_length(p);
  int32_t px = 0, py = 0, x, y;
  double sum = 0.0, base = 0.0;
  lds_Error err;
  EXPECT(n >= 1 && lds_path_width(p) == lds_grid_width(g), "%s: path of %zu cells, width %d", who,
         n, (int)lds_path_width(p));
  lds_path_cell(p, 0, &px, &py);
  EXPECT(px == sx && py == sy, "%s: path starts at (%d,%d), not the start (%d,%d)", who, (int)px,
         (int)py, sx, sy);
  for (i = 1; i < n; i++) {
    int d;
    double s;
    lds_path_cell(p, i, &x, &y);
    for (d = 0; d < 8; d++)
      if (x - px == ddx[d] && y - py == ddy[d]) break;
    EXPECT(d < 8, "%s: step %zu (%d,%d)->(%d,%d) is not a move", who, i, (int)px, (int)py, (int)x,
           (int)y);
    s = ref_step(g, q, px, py, d);
    EXPECT(s < INFINITY, "%s: step %zu (%d,%d)->(%d,%d) is not legal", who, i, (int)px, (int)py,
           (int)x, (int)y);
    sum += s;
    px = x;
    py = y;
  }
  EXPECT(px == gx && py == gy, "%s: path ends at (%d,%d), not the goal (%d,%d)", who, (int)px,
         (int)py, gx, gy);
  EXPECT(lds_grid_path_cost(g, p, &base, &err) == LDS_OK, "%s: lds_grid_path_cost refuses it: %s",
         who, err.msg);
  EXPECT(rel_eq(sum, lds_path_cost(p)), "%s: path reports cost %.17g, its moves sum to %.17g",
         who, lds_path_cost(p), sum);
  return sum;
}

/* ------------------------------------------------------------- grids -- */

typedef struct GridCase {
  lds_Grid *g;
  int w, h, nl;
  double weights[MAXL];
  int nw;
  int cb;
  int costmode;
} GridCase;

static float draw_cost(Rng *r, int mode, double scale) {
  switch (mode) {
    case 0: return 1.0f;                                          /* uniform: JPS applies */
    case 1: return (float)(scale * (1.0 + 3.0 * runif(r)));       /* one scale */
    case 2: return (float)rlog(r, 1.401298464324817e-45, 3e38);   /* the whole float range */
    case 3: return (float)(1.401298464324817e-45 * (1 + rint_n(r, 64))); /* denormals */
    default: return rbool(r, 0.1) ? (float)rlog(r, 1e10, 3e38) : 1.0f; /* spans > 2^53 */
  }
}

static void set_random_cell(Rng *r, GridCase *c, int x, int y, double scale) {
  int i;
  if (rbool(r, 0.25)) {
    lds_grid_set_blocked(c->g, x, y, true);
    return;
  }
  lds_grid_set_blocked(c->g, x, y, false);
  lds_grid_set_cost(c->g, x, y, draw_cost(r, c->costmode, scale));
  for (i = 0; i < c->nl; i++) {
    float v = rbool(r, 0.6) ? 0.0f : (float)(runif(r) * 3.0);
    if (rbool(r, 0.03)) v = INFINITY; /* blocks where weighted, ignored where the weight is 0 */
    lds_grid_layer_set(c->g, i, x, y, v);
  }
}

static void describe_grid(const GridCase *c) {
  int x, y;
  static const char *const dn[] = {"never", "no_corner_cutting", "allow_one_blocked", "always"};
  desc("grid %dx%d neighbourhood %d diagonal %s costmode %d layers %d weights", c->w, c->h,
       lds_grid_neighbourhood(c->g), dn[lds_grid_diagonal(c->g)], c->costmode, c->nl);
  for (x = 0; x < c->nw; x++) desc(" %.17g", c->weights[x]);
  desc(" callback %d\n", c->cb);
  for (y = 0; y < c->h; y++) {
    for (x = 0; x < c->w; x++) {
      if (lds_grid_blocked(c->g, x, y))
        desc("  #########");
      else
        desc(" %10.3g", (double)lds_grid_cost(c->g, x, y));
    }
    desc("\n");
  }
  for (x = 0; x < c->nl; x++) {
    int yy, xx;
    desc("layer %d:\n", x);
    for (yy = 0; yy < c->h; yy++) {
      for (xx = 0; xx < c->w; xx++) desc(" %5.3g", (double)lds_grid_layer_get(c->g, x, xx, yy));
      desc("\n");
    }
  }
}

static const GridCase *g_grid; /* for dump_grid */
static void dump_grid(void) { describe_grid(g_grid); }

static void make_grid(Rng *r, GridCase *c) {
  int x, y, i;
  double scale;
  memset(c, 0, sizeof *c);
  c->w = 1 + rint_n(r, MAXW);
  c->h = 1 + rint_n(r, MAXW);
  if (rbool(r, 0.3)) c->h = 1 + rint_n(r, 3); /* corridors */
  if (rbool(r, 0.05)) { /* long ones: JPS+ jumps past its 126-cell table step */
    c->w = 100 + rint_n(r, 300);
    c->h = 1 + rint_n(r, 4);
  }
  c->g = lds_grid_new(NULL, c->w, c->h, NULL);
  lds_grid_set_neighbourhood(c->g, rbool(r, 0.25) ? 4 : 8);
  lds_grid_set_diagonal(c->g, (lds_Diagonal)rint_n(r, 4));
  c->costmode = rint_n(r, 5);
  scale = rlog(r, 1e-44, 1e38);
  c->nl = rint_n(r, MAXL + 1);
  if (c->costmode == 0 && rbool(r, 0.6)) c->nl = 0;
  for (i = 0; i < c->nl; i++) {
    char name[16];
    int idx;
    snprintf(name, sizeof name, "L%d", i);
    lds_grid_layer_add(c->g, name, &idx);
  }
  for (y = 0; y < c->h; y++)
    for (x = 0; x < c->w; x++) {
      if (rbool(r, 0.7)) {
        lds_grid_set_cost(c->g, x, y, draw_cost(r, c->costmode, scale));
        if (rbool(r, 0.2)) lds_grid_set_blocked(c->g, x, y, true);
        for (i = 0; i < c->nl; i++)
          if (rbool(r, 0.4)) lds_grid_layer_set(c->g, i, x, y, (float)(runif(r) * 3.0));
      } else {
        set_random_cell(r, c, x, y, scale);
      }
    }
  c->nw = c->nl ? rint_n(r, c->nl + 1) : 0;
  for (i = 0; i < c->nw; i++) {
    /* weights relative to the costs, so layers matter at every scale */
    double k = rint_n(r, 3);
    c->weights[i] = k == 0 ? 0.0 : k == 1 ? scale * runif(r) : scale * rlog(r, 1e-3, 1e3);
  }
  c->cb = rbool(r, 0.15) ? 1 + rint_n(r, 2) : 0;
}

static void random_cell(Rng *r, const GridCase *c, int *x, int *y) {
  *x = rint_n(r, c->w);
  *y = rint_n(r, c->h);
}

/* one grid query through lds_search, one-shot and sliced */
static void grid_query(Rng *r, GridCase *c, lds_Search *s, lds_Algo algo, int sx, int sy, int gx,
                       int gy, double opt) {
  lds_SearchParams p;
  Query q = {c->weights, c->nw, c->cb};
  lds_Status st;
  char who[96];
  lds_Path *path, *path2;
  lds_Error err;
  double wt = 1.0, cost;
  lds_search_params_init(&p);
  p.algo = algo;
  p.layer_weights = c->weights;
  p.n_layer_weights = c->nw;
  if (c->cb) {
    p.edge_cost = edge_cb;
    p.edge_ud = &c->cb;
  }
  if (algo == LDS_ALGO_ASTAR) {
    static const lds_Heuristic hs[] = {LDS_H_AUTO, LDS_H_ZERO, LDS_H_OCTILE, LDS_H_EUCLIDEAN,
                                       LDS_H_CHEBYSHEV, LDS_H_MANHATTAN};
    int nh = (lds_grid_neighbourhood(c->g) == 4 || lds_grid_diagonal(c->g) == LDS_DIAG_NEVER) ? 6 : 5;
    p.heuristic = hs[rint_n(r, nh)];
  }
  if (algo == LDS_ALGO_WASTAR || algo == LDS_ALGO_GREEDY) {
    wt = rbool(r, 0.3) ? 1.0 : 1.0 + 2.0 * runif(r);
    p.weight = wt;
  }
  snprintf(who, sizeof who, "%s (heuristic %s, weight %g) (%d,%d)->(%d,%d)", lds_algo_name(algo),
           lds_heuristic_name(p.heuristic), p.weight, sx, sy, gx, gy);
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  if (st == LDS_E_ARG && (algo == LDS_ALGO_JPS || algo == LDS_ALGO_JPS_PLUS)) return;
  EXPECT(st == LDS_OK, "%s: start: %s (%s)", who, lds_status_name(st), lds_search_errmsg(s));
  st = lds_search_step(s, NULL);
  EXPECT(st == (opt < 0 ? LDS_NO_PATH : LDS_FOUND), "%s: status %s, the reference says %s (%.17g)",
         who, lds_status_name(st), opt < 0 ? "no path" : "found", opt);
  if (st != LDS_FOUND) return;
  cost = lds_search_cost(s);
  path = lds_search_path(s, &err);
  EXPECT(path != NULL, "%s: no path object: %s", who, err.msg);
  check_grid_path(c->g, &q, path, sx, sy, gx, gy, who);
  EXPECT(rel_eq(cost, lds_path_cost(path)), "%s: cost %.17g, its path %.17g", who, cost,
         lds_path_cost(path));
  if (algo == LDS_ALGO_GREEDY) {
    EXPECT(cost >= opt * (1 - REL), "%s: cost %.17g below the optimum %.17g", who, cost, opt);
  } else if (algo == LDS_ALGO_WASTAR) {
    EXPECT(cost >= opt * (1 - REL) && cost <= wt * opt * (1 + REL),
           "%s: cost %.17g outside [optimum, w x optimum] = [%.17g, %.17g]", who, cost, opt,
           wt * opt);
  } else {
    EXPECT(rel_eq(cost, opt), "%s: cost %.17g, the optimum is %.17g", who, cost, opt);
  }
  /* sliced: the same path, bit for bit */
  st = lds_search_start(s, &p, sx, sy, gx, gy);
  {
    uint64_t k = 1 + (uint64_t)rint_n(r, 7);
    int guard = 0;
    while ((st = lds_search_step(s, &(lds_Budget){k, 0})) == LDS_RUNNING && guard++ < 100000) {
    }
  }
  EXPECT(st == LDS_FOUND, "%s sliced: status %s", who, lds_status_name(st));
  path2 = lds_search_path(s, &err);
  EXPECT(path2 && lds_path_length(path2) == lds_path_length(path) &&
             memcmp(lds_path_nodes(path2), lds_path_nodes(path),
                    lds_path_length(path) * sizeof(uint32_t)) == 0 &&
             lds_path_cost(path2) == lds_path_cost(path),
         "%s: sliced path differs from the one-shot path", who);
  lds_path_free(path);
  lds_path_free(path2);
}

/* An edit while a query runs: the next step says LDS_E_STALE. */
static void stale_query(Rng *r, GridCase *c, lds_Search *s, int sx, int sy, int gx, int gy) {
  lds_Status st;
  int x, y;
  if (lds_search_start(s, NULL, sx, sy, gx, gy) != LDS_OK) return;
  st = lds_search_step(s, &(lds_Budget){1, 0});
  if (st != LDS_RUNNING) return;
  random_cell(r, c, &x, &y);
  lds_grid_set_blocked(c->g, x, y, !lds_grid_blocked(c->g, x, y));
  desc("edit (%d,%d) during an A* query\n", x, y);
  st = lds_search_step(s, NULL);
  EXPECT(st == LDS_E_STALE, "edit during a running A* query: step returned %s, expected stale",
         lds_status_name(st));
}

/* D* Lite: compute (sliced, maybe with an edit between slices), compare with
** the reference from the current start; then walk, jump or edit. */
static void dstar_case(Rng *r, GridCase *c, int sx, int sy, int gx, int gy) {
  lds_DStarParams p;
  lds_DStar *ds;
  lds_Error err;
  Query q = {c->weights, c->nw, 0};
  int round, nh;
  static const lds_Heuristic hs[] = {LDS_H_AUTO, LDS_H_ZERO, LDS_H_OCTILE, LDS_H_CHEBYSHEV,
                                     LDS_H_MANHATTAN};
  double scale = rlog(r, 1e-44, 1e38);
  lds_dstar_params_init(&p);
  p.layer_weights = c->weights;
  p.n_layer_weights = c->nw;
  nh = (lds_grid_neighbourhood(c->g) == 4 || lds_grid_diagonal(c->g) == LDS_DIAG_NEVER) ? 5 : 4;
  p.heuristic = hs[rint_n(r, nh)];
  ds = lds_dstar_new(NULL, c->g, sx, sy, gx, gy, &p, &err);
  EXPECT(ds != NULL, "dstar_new: %s", err.msg);
  desc("dstar heuristic %s\n", lds_heuristic_name(p.heuristic));
  EXPECT(lds_dstar_subscribe(ds, c->g) == LDS_OK, "dstar_subscribe");
  for (round = 0; round < 12; round++) {
    lds_Status st;
    lds_Budget b = {0, 0};
    double opt, cost;
    int32_t cx, cy, nx, ny;
    int guard = 0;
    bool edited = false;
    lds_dstar_endpoints(ds, &cx, &cy, NULL, NULL);
    if (rbool(r, 0.5)) b.max_expansions = 1 + (uint64_t)rint_n(r, 20);
    while ((st = lds_dstar_step(ds, &b)) == LDS_RUNNING && guard++ < 1000000) {
      if (!edited && rbool(r, 0.2)) { /* an edit in the middle of a replan */
        int x, y;
        random_cell(r, c, &x, &y);
        desc("  (mid-compute) edit (%d,%d)\n", x, y);
        set_random_cell(r, c, x, y, scale);
        edited = true;
      }
    }
    opt = ref_grid(c->g, &q, cx, cy, gx, gy);
    desc("  round %d: start (%d,%d) -> %s, reference %.17g\n", round, (int)cx, (int)cy,
         lds_status_name(st), opt);
    if (st == LDS_E_ARG) break; /* a weighted cost went <= 0: not what this checks */
    if (getenv("FUZZ_DEBUG") && st != (opt < 0 ? LDS_NO_PATH : LDS_FOUND)) {
      lds_DStar *f = lds_dstar_new(NULL, c->g, cx, cy, gx, gy, &p, NULL);
      lds_Status fs = lds_dstar_step(f, NULL);
      fprintf(stderr, "fresh D* Lite: %s cost %.17g\n", lds_status_name(fs), lds_dstar_cost(f));
      {
        lds_Path *pp = lds_dstar_path(ds, NULL);
        size_t ii;
        lds_DStarStats dst;
        lds_dstar_counters(ds, &dst);
        fprintf(stderr, "flags %u expansions %llu changed %llu replans %llu queue %llu\n",
                lds_dstar_flags(ds), (unsigned long long)dst.expansions,
                (unsigned long long)dst.cells_changed, (unsigned long long)dst.replans,
                (unsigned long long)dst.queue_size);
        fprintf(stderr, "incremental: cost %.17g path:", lds_dstar_cost(ds));
        for (ii = 0; pp && ii < lds_path_length(pp); ii++) {
          int32_t xx, yy;
          lds_path_cell(pp, ii, &xx, &yy);
          fprintf(stderr, " (%d,%d)", (int)xx, (int)yy);
        }
        fprintf(stderr, "\n");
        lds_path_free(pp);
      }
      lds_dstar_free(f);
    }
    EXPECT(st == (opt < 0 ? LDS_NO_PATH : LDS_FOUND),
           "dstar (%d,%d)->(%d,%d): status %s, the reference says %s (%.17g)", (int)cx, (int)cy,
           gx, gy, lds_status_name(st), opt < 0 ? "no path" : "found", opt);
    if (st == LDS_FOUND) {
      lds_Path *path = lds_dstar_path(ds, &err);
      cost = lds_dstar_cost(ds);
      EXPECT(rel_eq(cost, opt), "dstar (%d,%d)->(%d,%d): cost %.17g, the optimum is %.17g",
             (int)cx, (int)cy, gx, gy, cost, opt);
      if (getenv("FUZZ_DEBUG") && !path) {
        int32_t xx, yy;
        fprintf(stderr, "cost %.17g\n", cost);
        for (yy = 0; yy < c->h; yy++) {
          for (xx = 0; xx < c->w; xx++) fprintf(stderr, " %10.4g", ref_eff(c->g, &q, xx, yy));
          fprintf(stderr, "\n");
        }
      }
      EXPECT(path != NULL, "dstar (%d,%d)->(%d,%d): lds_dstar_path: %s", (int)cx, (int)cy, gx, gy,
             err.msg);
      check_grid_path(c->g, &q, path, cx, cy, gx, gy, "dstar");
      EXPECT(rel_eq(lds_path_cost(path), opt), "dstar path cost %.17g, the optimum is %.17g",
             lds_path_cost(path), opt);
      EXPECT(lds_dstar_next(ds, &nx, &ny) == LDS_OK, "dstar_next");
      {
        int32_t px, py;
        lds_path_cell(path, lds_path_length(path) > 1 ? 1 : 0, &px, &py);
        EXPECT(px == nx && py == ny, "dstar_next (%d,%d) is not the path's second cell (%d,%d)",
               (int)nx, (int)ny, (int)px, (int)py);
      }
      lds_path_free(path);
    }
    /* what happens next */
    switch (rint_n(r, 4)) {
      case 0: /* the agent steps */
        if (st == LDS_FOUND) {
          desc("  move to (%d,%d)\n", (int)nx, (int)ny);
          lds_dstar_move_start(ds, nx, ny);
          break;
        }
        /* fall through */
      case 1: { /* the start jumps */
        int x, y;
        random_cell(r, c, &x, &y);
        desc("  jump to (%d,%d)\n", x, y);
        lds_dstar_move_start(ds, x, y);
        break;
      }
      default: { /* edits, a few cells or a rectangle */
        int k, n = 1 + rint_n(r, 4);
        for (k = 0; k < n; k++) {
          int x, y;
          random_cell(r, c, &x, &y);
          /* a rule edit (a restart); manhattan would turn inadmissible */
          if (rbool(r, 0.1) && p.heuristic != LDS_H_MANHATTAN) {
            desc("  set_diagonal\n");
            lds_grid_set_diagonal(c->g, (lds_Diagonal)rint_n(r, 4));
            continue;
          }
          desc("  edit (%d,%d)\n", x, y);
          set_random_cell(r, c, x, y, scale);
        }
        break;
      }
    }
  }
  lds_dstar_free(ds);
}

static void grid_case(Rng *r) {
  GridCase c;
  lds_Search *s;
  int k, nq;
  Query q;
  make_grid(r, &c);
  describe_grid(&c);
  g_grid = &c;
  g_dump = dump_grid;
  q.w = c.weights;
  q.nw = c.nw;
  q.cb = c.cb;
  s = lds_search_new(NULL, c.g, NULL);
  nq = 1 + rint_n(r, 4);
  for (k = 0; k < nq; k++) {
    int sx, sy, gx, gy, a;
    double opt;
    random_cell(r, &c, &sx, &sy);
    random_cell(r, &c, &gx, &gy);
    if (rbool(r, 0.3)) { /* far corners: long paths */
      sx = 0, sy = 0, gx = c.w - 1, gy = c.h - 1;
    }
    opt = ref_grid(c.g, &q, sx, sy, gx, gy);
    desc("query (%d,%d)->(%d,%d): reference %.17g\n", sx, sy, gx, gy, opt);
    for (a = LDS_ALGO_ASTAR; a <= LDS_ALGO_JPS_PLUS; a++)
      grid_query(r, &c, s, (lds_Algo)a, sx, sy, gx, gy, opt);
    if (rbool(r, 0.3)) stale_query(r, &c, s, sx, sy, gx, gy);
  }
  lds_search_free(s);
  if (!c.cb) {
    int sx, sy, gx, gy;
    random_cell(r, &c, &sx, &sy);
    random_cell(r, &c, &gx, &gy);
    desc("dstar (%d,%d)->(%d,%d)\n", sx, sy, gx, gy);
    dstar_case(r, &c, sx, sy, gx, gy);
  }
  g_dump = NULL;
  lds_grid_free(c.g);
}

/* ------------------------------------------------------------ graphs -- */

static double ref_graph(const lds_Graph *g, uint32_t s, uint32_t t) {
  uint32_t n = lds_graph_node_count(g), i;
  double k;
  for (i = 0; i < n; i++) g_dist[i] = INFINITY;
  g_heap.n = 0;
  g_dist[s] = 0.0;
  heap_push(&g_heap, 0.0, s);
  while (g_heap.n) {
    uint32_t u = heap_pop(&g_heap, &k), deg, j;
    const uint32_t *tg;
    const double *c;
    if (k > g_dist[u]) continue;
    if (u == t) return k;
    deg = lds_graph_out_edges(g, u, &tg, &c, NULL);
    for (j = 0; j < deg; j++) {
      double nd = k + c[j];
      if (nd < g_dist[tg[j]]) {
        g_dist[tg[j]] = nd;
        heap_push(&g_heap, nd, tg[j]);
      }
    }
  }
  return -1.0;
}

/* a chain of edges from s to t; returns its cost (each step the cheapest
** parallel edge) after checking it against what the path reports */
static double check_graph_path(const lds_Graph *g, const lds_Path *p, uint32_t s, uint32_t t,
                               const char *who) {
  size_t i, n = lds_path_length(p);
  double sum = 0.0;
  EXPECT(n >= 1 && lds_path_width(p) == 0 && lds_path_node(p, 0) == s &&
             lds_path_node(p, n - 1) == t,
         "%s: path of %zu nodes does not run from %u to %u", who, n, (unsigned)s, (unsigned)t);
  for (i = 0; i + 1 < n; i++) {
    const uint32_t *tg;
    const double *c;
    uint32_t k, deg = lds_graph_out_edges(g, lds_path_node(p, i), &tg, &c, NULL);
    double best = INFINITY;
    for (k = 0; k < deg; k++)
      if (tg[k] == lds_path_node(p, i + 1) && c[k] < best) best = c[k];
    EXPECT(best < INFINITY, "%s: step %zu %u -> %u is not an edge", who, i,
           (unsigned)lds_path_node(p, i), (unsigned)lds_path_node(p, i + 1));
    sum += best;
  }
  EXPECT(rel_eq(sum, lds_path_cost(p)), "%s: path reports %.17g, its edges sum to %.17g", who,
         lds_path_cost(p), sum);
  return sum;
}

static double draw_edge(Rng *r, int mode, double scale) {
  if (rbool(r, 0.05)) return 0.0;
  switch (mode) {
    case 0: return scale * (1.0 + 3.0 * runif(r));
    case 1: return rlog(r, 1e-300, 1e300);
    case 2: return 4.9406564584124654e-324 * (double)(1 + rint_n(r, 64)); /* denormals */
    default: return rbool(r, 0.1) ? fmin(rlog(r, 1e10, 1e20) * scale, 1e300) : scale;
  }
}

static void graph_case(Rng *r) {
  uint32_t n = 1 + (uint32_t)rint_n(r, 60), m, i;
  lds_GraphEdge *e;
  double *xy = NULL;
  lds_Graph *g;
  lds_Search *s;
  lds_Error err;
  int mode = rint_n(r, 4), k;
  double scale = rlog(r, 1e-300, 1e300);
  bool coords = rbool(r, 0.5);
  m = (uint32_t)rint_n(r, (int)(4 * n + 1));
  e = (lds_GraphEdge *)malloc(sizeof *e * (m ? m : 1));
  for (i = 0; i < m; i++) {
    e[i].from = (uint32_t)rint_n(r, (int)n);
    e[i].to = rbool(r, 0.05) ? e[i].from : (uint32_t)rint_n(r, (int)n);
    e[i].cost = draw_edge(r, mode, scale);
  }
  if (coords) {
    xy = (double *)malloc(sizeof *xy * 2 * n);
    for (i = 0; i < 2 * n; i++) xy[i] = 100.0 * runif(r);
  }
  g = lds_graph_from_edges(NULL, n, coords ? LDS_COORDS_XY : LDS_COORDS_NONE, xy, e, m, &err);
  EXPECT(g != NULL, "graph_from_edges: %s", err.msg);
  desc("graph: %u nodes, %u edges, cost mode %d, scale %.17g, coords %d\n", (unsigned)n,
       (unsigned)m, mode, scale, (int)coords);
  for (i = 0; i < m && i < 400; i++)
    desc("  %u -> %u %.17g\n", (unsigned)e[i].from, (unsigned)e[i].to, e[i].cost);
  s = lds_search_new_graph(NULL, g, &err);
  for (k = 0; k < 4; k++) {
    uint32_t a = (uint32_t)rint_n(r, (int)n), b = (uint32_t)rint_n(r, (int)n);
    double opt = ref_graph(g, a, b);
    int algo;
    for (algo = LDS_ALGO_ASTAR; algo <= LDS_ALGO_GREEDY; algo++) {
      lds_SearchParams p;
      lds_Status st;
      char who[64];
      double w = 1.0;
      lds_search_params_init(&p);
      p.algo = (lds_Algo)algo;
      if (algo >= LDS_ALGO_WASTAR) p.weight = w = 1.0 + 2.0 * runif(r);
      snprintf(who, sizeof who, "graph %s %u -> %u", lds_algo_name(p.algo), (unsigned)a,
               (unsigned)b);
      st = lds_search_start_nodes(s, &p, a, b);
      EXPECT(st == LDS_OK, "%s: start: %s", who, lds_search_errmsg(s));
      st = lds_search_step(s, NULL);
      EXPECT(st == (opt < 0 ? LDS_NO_PATH : LDS_FOUND), "%s: status %s, reference %.17g", who,
             lds_status_name(st), opt);
      if (st == LDS_FOUND) {
        lds_Path *p1 = lds_search_path(s, &err);
        double c = lds_search_cost(s);
        EXPECT(p1 != NULL, "%s: path: %s", who, err.msg);
        check_graph_path(g, p1, a, b, who);
        EXPECT(rel_eq(c, lds_path_cost(p1)), "%s: cost %.17g, path %.17g", who, c,
               lds_path_cost(p1));
        if (algo == LDS_ALGO_GREEDY)
          EXPECT(c >= opt * (1 - REL), "%s: %.17g below the optimum %.17g", who, c, opt);
        else if (algo == LDS_ALGO_WASTAR)
          EXPECT(c >= opt * (1 - REL) && c <= w * opt * (1 + REL),
                 "%s: %.17g outside [opt, w opt], opt %.17g w %g", who, c, opt, w);
        else
          EXPECT(rel_eq(c, opt), "%s: cost %.17g, the optimum is %.17g", who, c, opt);
        lds_path_free(p1);
      }
    }
  }
  lds_search_free(s);
  /* D* Lite with edits and moves */
  {
    uint32_t a = (uint32_t)rint_n(r, (int)n), b = (uint32_t)rint_n(r, (int)n);
    lds_DStar *ds = lds_dstar_new_graph(NULL, g, a, b, NULL, &err);
    int round;
    EXPECT(ds != NULL, "dstar_new_graph: %s", err.msg);
    EXPECT(lds_dstar_subscribe_graph(ds, g) == LDS_OK, "subscribe_graph");
    desc("graph dstar %u -> %u\n", (unsigned)a, (unsigned)b);
    for (round = 0; round < 12; round++) {
      lds_Budget bud = {0, 0};
      lds_Status st;
      uint32_t cur, nx = 0;
      double opt;
      int guard = 0;
      lds_dstar_endpoint_nodes(ds, &cur, NULL);
      if (rbool(r, 0.5)) bud.max_expansions = 1 + (uint64_t)rint_n(r, 10);
      while ((st = lds_dstar_step(ds, &bud)) == LDS_RUNNING && guard++ < 1000000) {
      }
      opt = ref_graph(g, cur, b);
      desc("  round %d: start %u -> %s, reference %.17g\n", round, (unsigned)cur,
           lds_status_name(st), opt);
      EXPECT(st == (opt < 0 ? LDS_NO_PATH : LDS_FOUND), "graph dstar %u -> %u: %s, reference %.17g",
             (unsigned)cur, (unsigned)b, lds_status_name(st), opt);
      if (st == LDS_FOUND) {
        lds_Path *p1 = lds_dstar_path(ds, &err);
        EXPECT(rel_eq(lds_dstar_cost(ds), opt), "graph dstar %u -> %u: cost %.17g, optimum %.17g",
               (unsigned)cur, (unsigned)b, lds_dstar_cost(ds), opt);
        EXPECT(p1 != NULL, "graph dstar path: %s", err.msg);
        check_graph_path(g, p1, cur, b, "graph dstar");
        EXPECT(rel_eq(lds_path_cost(p1), opt), "graph dstar path cost %.17g, optimum %.17g",
               lds_path_cost(p1), opt);
        EXPECT(lds_dstar_next_node(ds, &nx) == LDS_OK, "next_node");
        EXPECT(nx == lds_path_node(p1, lds_path_length(p1) > 1 ? 1 : 0),
               "graph dstar next %u is not the path's second node", (unsigned)nx);
        lds_path_free(p1);
      }
      if (st == LDS_FOUND && rbool(r, 0.4)) {
        desc("  move to %u\n", (unsigned)nx);
        lds_dstar_move_start_node(ds, nx);
      } else if (rbool(r, 0.2)) {
        uint32_t j = (uint32_t)rint_n(r, (int)n);
        desc("  jump to %u\n", (unsigned)j);
        lds_dstar_move_start_node(ds, j);
      } else if (m) {
        int kk, ne = 1 + rint_n(r, 4);
        for (kk = 0; kk < ne; kk++) {
          uint32_t id = (uint32_t)rint_n(r, (int)m);
          double c = draw_edge(r, mode, scale);
          if (rbool(r, 0.2)) c = 1e300; /* cut a road */
          desc("  edge %u := %.17g\n", (unsigned)id, c);
          lds_graph_set_edge_cost_id(g, id, c);
        }
      }
    }
    lds_dstar_free(ds);
  }
  lds_graph_free(g);
  free(e);
  free(xy);
}

/* --------------------------------------------------------------- main -- */

static void run_case(uint64_t seed, long k) {
  Rng r;
  uint64_t x = seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ull);
  r.s = splitmix(&x);
  g_case = k;
  g_desc_n = 0;
  g_desc[0] = '\0';
  if (rint_n(&r, 4) == 0)
    graph_case(&r);
  else
    grid_case(&r);
}

int main(int argc, char **argv) {
  uint64_t seed = 0;
  bool have_seed = false;
  double seconds = 0.0;
  long iters = 0, only = -1, k;
  clock_t t0;
  int i;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
      have_seed = true;
    } else if (!strcmp(argv[i], "--seconds") && i + 1 < argc) {
      seconds = atof(argv[++i]);
    } else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
      iters = atol(argv[++i]);
    } else if (!strcmp(argv[i], "--case") && i + 1 < argc) {
      only = atol(argv[++i]);
    } else {
      fprintf(stderr, "usage: fuzz_search [--seed S] [--seconds T | --iters N] [--case C]\n");
      return 2;
    }
  }
  if (!have_seed) {
    uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    seed = splitmix(&x) % 1000000000000ull;
  }
  g_seed = seed;
  if (only >= 0) {
    run_case(seed, only);
    printf("fuzz_search: seed %llu case %ld: ok (%ld checks)\n", (unsigned long long)seed, only,
           g_checks);
    return 0;
  }
  if (!iters && !(seconds > 0)) iters = 200;
  printf("fuzz_search: seed %llu (reproduce with SEED=%llu)\n", (unsigned long long)seed,
         (unsigned long long)seed);
  fflush(stdout);
  t0 = clock();
  for (k = 0; iters ? k < iters : (double)(clock() - t0) / CLOCKS_PER_SEC < seconds; k++)
    run_case(seed, k);
  printf("fuzz_search: seed %llu: %ld cases, %ld checks, 0 failures\n", (unsigned long long)seed,
         k, g_checks);
  free(g_heap.k);
  free(g_heap.v);
  return 0;
}
