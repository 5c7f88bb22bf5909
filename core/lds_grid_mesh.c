/* SPDX-License-Identifier: MIT */
/*
** lds_grid_mesh.c — grid -> navigation mesh (lds_grid_mesh.h): rectangles,
** T-junction points so polygons meet along whole edges, a pinch vertex as
** two vertices, then the greedy convex merge.
*/
#include "lds_grid_internal.h"
#include "lds_grid_mesh.h"

#include <string.h>

#define NONE 0xFFFFFFFFu

void lds_grid_mesh_params_init(lds_GridMeshParams *p) {
  p->max_verts = LDS_NAVMESH_MAX_POLY_VERTS;
  p->area = 0;
  p->strict = true;
}

/* The builder's state. Points are grid points (x, y), id y*(w+1)+x; a
** vertex is a point and a side (0, or 1 for the second cell of a pinch). */
typedef struct Build {
  ldsi_Env e;
  const lds_Grid *g;
  int32_t W, H;
  uint32_t P;           /* points per row: W + 1 */
  int maxv;
  bool strict;          /* no straight vertex in any polygon */
  uint32_t *vid;        /* [2 * points] vertex id of (point, side), NONE */
  uint8_t *corner;      /* [points] 1 where some rectangle has a corner */
  uint32_t *vx, *vy;    /* vertex coordinates */
  uint32_t *use;        /* polygons holding each vertex */
  size_t nv, vcap;
  uint32_t *pool;       /* polygon vertex lists */
  size_t pn, pcap;
  uint32_t *pstart, *plen; /* per polygon: offset in pool, count (0 = dead) */
  size_t np, npcap;
  uint64_t *hkey;       /* directed edge u -> v (u << 32 | v) -> polygon */
  uint32_t *hval;
  size_t hcap;          /* a power of two */
  size_t hn;
  bool oom;
} Build;

static bool free_at(const lds_Grid *g, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < g->w && y < g->h && !g->blocked[ldsi_grid_pidx(g, x, y)];
}

static bool grow(Build *b, void **p, size_t *cap, size_t need, size_t elem) {
  size_t nc;
  void *q;
  if (need <= *cap) return true;
  nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  q = ldsi_realloc(&b->e, *p, *cap * elem, nc * elem);
  if (!q) {
    b->oom = true;
    return false;
  }
  *p = q;
  *cap = nc;
  return true;
}

/* The vertex at point (x, y) for the corner of the cell in column cx (one
** of the four cells around the point, row cy): at a pinch vertex the two
** free cells, told apart by their column, get two vertices. */
static uint32_t vertex(Build *b, int32_t x, int32_t y, int32_t cx, int32_t cy) {
  const lds_Grid *g = b->g;
  bool nw = free_at(g, x - 1, y - 1), ne = free_at(g, x, y - 1);
  bool sw = free_at(g, x - 1, y), se = free_at(g, x, y);
  int side = 0;
  uint32_t k;
  if (nw && se && !ne && !sw) side = cx == x ? 1 : 0; /* SE is the second */
  else if (ne && sw && !nw && !se) side = cx == x - 1 ? 1 : 0; /* SW is the second */
  (void)cy; /* the column tells the two cells of a pinch apart */
  k = 2 * ((uint32_t)y * b->P + (uint32_t)x) + (uint32_t)side;
  if (b->vid[k] == NONE) {
    size_t c1 = b->vcap, c2 = b->vcap, c3 = b->vcap;
    if (b->nv >= LDS_NAVMESH_MAX_IDS) {
      b->oom = true;
      return 0;
    }
    if (b->nv == b->vcap) {
      if (!grow(b, (void **)&b->vx, &c1, b->nv + 1, sizeof(uint32_t)) ||
          !grow(b, (void **)&b->vy, &c2, b->nv + 1, sizeof(uint32_t)) ||
          !grow(b, (void **)&b->use, &c3, b->nv + 1, sizeof(uint32_t)))
        return 0;
      b->vcap = c1;
    }
    b->vx[b->nv] = (uint32_t)x;
    b->vy[b->nv] = (uint32_t)y;
    b->use[b->nv] = 0;
    b->vid[k] = (uint32_t)b->nv++;
  }
  return b->vid[k];
}

/* ------------------------------------------------------- edge table -- */

static size_t hslot(const Build *b, uint64_t key) {
  uint64_t h = key * 0x9E3779B97F4A7C15ull;
  size_t i = (size_t)(h >> 20) & (b->hcap - 1);
  while (b->hkey[i] != UINT64_MAX && b->hkey[i] != key) i = (i + 1) & (b->hcap - 1);
  return i;
}

/* Doubles the edge table (rehashing); false when out of memory. */
static bool hgrow(Build *b) {
  size_t oc = b->hcap, i;
  uint64_t *ok = b->hkey;
  uint32_t *ov = b->hval;
  b->hkey = (uint64_t *)ldsi_alloc(&b->e, 2 * oc * sizeof(uint64_t));
  b->hval = (uint32_t *)ldsi_alloc(&b->e, 2 * oc * sizeof(uint32_t));
  if (!b->hkey || !b->hval) {
    if (b->hkey) ldsi_free(&b->e, b->hkey, 2 * oc * sizeof(uint64_t));
    if (b->hval) ldsi_free(&b->e, b->hval, 2 * oc * sizeof(uint32_t));
    b->hkey = ok;
    b->hval = ov;
    b->oom = true;
    return false;
  }
  b->hcap = 2 * oc;
  for (i = 0; i < b->hcap; i++) b->hkey[i] = UINT64_MAX;
  for (i = 0; i < oc; i++)
    if (ok[i] != UINT64_MAX) {
      size_t j = hslot(b, ok[i]);
      b->hkey[j] = ok[i];
      b->hval[j] = ov[i];
    }
  ldsi_free(&b->e, ok, oc * sizeof(uint64_t));
  ldsi_free(&b->e, ov, oc * sizeof(uint32_t));
  return true;
}

static void hset(Build *b, uint32_t u, uint32_t v, uint32_t poly) {
  uint64_t key = (uint64_t)u << 32 | v;
  size_t i;
  if (2 * (b->hn + 1) > b->hcap && !hgrow(b)) return;
  i = hslot(b, key);
  if (b->hkey[i] == UINT64_MAX) b->hn++;
  b->hkey[i] = key;
  b->hval[i] = poly;
}

static uint32_t hget(const Build *b, uint32_t u, uint32_t v) {
  size_t i = hslot(b, (uint64_t)u << 32 | v);
  return b->hkey[i] == UINT64_MAX ? NONE : b->hval[i];
}

/* ---------------------------------------------------------- polygons -- */

/* Appends a polygon of n vertices vs (canonical winding) and registers its
** edges; returns its id or NONE (no memory). */
static uint32_t add_poly(Build *b, const uint32_t *vs, uint32_t n) {
  size_t c1 = b->npcap, c2 = b->npcap;
  uint32_t id, k;
  if (!grow(b, (void **)&b->pool, &b->pcap, b->pn + n, sizeof(uint32_t))) return NONE;
  if (b->np == b->npcap) {
    if (!grow(b, (void **)&b->pstart, &c1, b->np + 1, sizeof(uint32_t)) ||
        !grow(b, (void **)&b->plen, &c2, b->np + 1, sizeof(uint32_t)))
      return NONE;
    b->npcap = c1;
  }
  id = (uint32_t)b->np++;
  b->pstart[id] = (uint32_t)b->pn;
  b->plen[id] = n;
  memcpy(b->pool + b->pn, vs, n * sizeof(uint32_t));
  b->pn += n;
  for (k = 0; k < n; k++) hset(b, vs[k], vs[(k + 1) % n], id);
  return b->oom ? NONE : id;
}

/* Cross product of the turn at b between a -> b and b -> c (integers). */
static int64_t turn(const Build *bd, uint32_t a, uint32_t b, uint32_t c) {
  int64_t x1 = (int64_t)bd->vx[b] - bd->vx[a], y1 = (int64_t)bd->vy[b] - bd->vy[a];
  int64_t x2 = (int64_t)bd->vx[c] - bd->vx[b], y2 = (int64_t)bd->vy[c] - bd->vy[b];
  return x1 * y2 - y1 * x2;
}

/* The union of polygons A and B (sharing at least one edge) into out (room
** for 2 * LDS_NAVMESH_MAX_POLY_VERTS), or 0 when it is not a convex polygon
** of at most maxv vertices after dropping the straight corners no other
** polygon uses (use[] counts A and B both for the shared ones). *shared
** receives the length of the shared boundary [Units: cells]. */
static uint32_t merged(const Build *b, uint32_t A, uint32_t B, uint32_t *out, int64_t *shared) {
  const uint32_t *a = b->pool + b->pstart[A], *c = b->pool + b->pstart[B];
  uint32_t na = b->plen[A], nc = b->plen[B], n = 0, k, i, s, m;
  uint32_t from[2 * LDS_NAVMESH_MAX_POLY_VERTS], to[2 * LDS_NAVMESH_MAX_POLY_VERTS];
  uint32_t cyc[2 * LDS_NAVMESH_MAX_POLY_VERTS];
  int64_t len = 0;
  /* the directed edges of both, without the shared pairs */
  for (k = 0; k < na; k++) {
    uint32_t u = a[k], v = a[(k + 1) % na];
    if (hget(b, v, u) == B) {
      len += (int64_t)(b->vx[u] > b->vx[v] ? b->vx[u] - b->vx[v] : b->vx[v] - b->vx[u]) +
             (int64_t)(b->vy[u] > b->vy[v] ? b->vy[u] - b->vy[v] : b->vy[v] - b->vy[u]);
      continue;
    }
    from[n] = u;
    to[n++] = v;
  }
  for (k = 0; k < nc; k++) {
    uint32_t u = c[k], v = c[(k + 1) % nc];
    if (hget(b, v, u) == A) continue;
    from[n] = u;
    to[n++] = v;
  }
  *shared = len;
  if (n < 3) return 0;
  /* link them into one cycle (each vertex starts one edge, or the union is
  ** not a simple polygon) */
  cyc[0] = from[0];
  s = to[0];
  for (m = 1; s != cyc[0]; m++) {
    if (m >= n) return 0;
    cyc[m] = s;
    for (i = 0; i < n && from[i] != s; i++) {
    }
    if (i == n) return 0;
    s = to[i];
  }
  if (m != n) return 0; /* two cycles: not one polygon */
  /* convex (every turn <= 0 in the canonical winding, straight ones
  ** allowed but not reversals); straight corners used by A and B alone are
  ** dropped */
  for (k = 0, i = 0; k < m; k++) {
    uint32_t p = cyc[(k + m - 1) % m], q = cyc[k], r = cyc[(k + 1) % m];
    int64_t t = turn(b, p, q, r);
    if (t > 0) return 0;
    if (t == 0) {
      bool keep = true;
      int64_t dot = ((int64_t)b->vx[q] - b->vx[p]) * ((int64_t)b->vx[r] - b->vx[q]) +
                    ((int64_t)b->vy[q] - b->vy[p]) * ((int64_t)b->vy[r] - b->vy[q]);
      if (dot <= 0) return 0;
      if (b->use[q] <= 2) {
        /* held by A and B only (it is in both: a shared edge's end) or by
        ** one of them only (a wall point): nobody else needs it */
        bool in_a = false, in_c = false;
        uint32_t j;
        for (j = 0; j < na; j++) in_a |= a[j] == q;
        for (j = 0; j < nc; j++) in_c |= c[j] == q;
        if ((uint32_t)in_a + (uint32_t)in_c == b->use[q]) keep = false;
      }
      if (!keep) continue;
      if (b->strict) return 0; /* a straight vertex another polygon needs */
    }
    out[i++] = q;
  }
  if (i < 3 || i > (uint32_t)b->maxv) return 0;
  return i;
}

/* Replaces A and B by their union (out, n vertices): a new polygon; the
** use counts of the vertices follow. */
static bool do_merge(Build *b, uint32_t A, uint32_t B, const uint32_t *out, uint32_t n) {
  uint32_t k, j, id;
  const uint32_t *lists[2];
  uint32_t lens[2];
  /* the old polygons stop holding their vertices */
  lists[0] = b->pool + b->pstart[A];
  lens[0] = b->plen[A];
  lists[1] = b->pool + b->pstart[B];
  lens[1] = b->plen[B];
  for (j = 0; j < 2; j++)
    for (k = 0; k < lens[j]; k++) b->use[lists[j][k]]--;
  for (k = 0; k < n; k++) b->use[out[k]]++;
  b->plen[A] = b->plen[B] = 0;
  id = add_poly(b, out, n); /* its edges now point to it */
  return id != NONE;
}

/* ------------------------------------------------------------- build -- */

/* The first decomposition: rectangles of at most side cells a side, each
** added with the T-junction points on its sides. */
static bool rectangles(Build *b, int side, uint32_t *nrect) {
  const lds_Grid *g = b->g;
  int32_t W = b->W, H = b->H, x, y;
  uint8_t *done = (uint8_t *)ldsi_calloc(&b->e, (size_t)W * (size_t)H, 1);
  int32_t *rx0 = NULL, *ry0 = NULL, *rx1 = NULL, *ry1 = NULL;
  size_t nr = 0, cap = 0, c2, c3, c4, i;
  uint32_t vs[4 * LDS_NAVMESH_MAX_POLY_VERTS];
  if (!done) return b->oom = true, false;
  if (b->strict) {
    /* maximal runs of each row, a rectangle extended down while the row
    ** below has the same maximal run: its left and right sides then border
    ** blocked cells, so only its top and bottom carry T-junction points */
    int32_t *open_at = (int32_t *)ldsi_alloc(&b->e, 2 * (size_t)W * sizeof(int32_t));
    int32_t *next_at;
    if (!open_at) {
      ldsi_free(&b->e, done, (size_t)W * (size_t)H);
      return b->oom = true, false;
    }
    next_at = open_at + W;
    for (x = 0; x < W; x++) open_at[x] = -1;
    for (y = 0; y < H; y++) {
      for (x = 0; x < W; x++) next_at[x] = -1;
      for (x = 0; x < W;) {
        int32_t x1 = x, r;
        if (!free_at(g, x, y)) {
          x++;
          continue;
        }
        while (x1 < W && free_at(g, x1, y)) x1++;
        r = open_at[x];
        if (r >= 0 && rx1[r] == x1) {
          ry1[r] = y + 1;
        } else {
          if (nr == cap) {
            c2 = c3 = c4 = cap;
            if (!grow(b, (void **)&rx0, &cap, nr + 1, sizeof(int32_t)) ||
                !grow(b, (void **)&ry0, &c2, nr + 1, sizeof(int32_t)) ||
                !grow(b, (void **)&rx1, &c3, nr + 1, sizeof(int32_t)) ||
                !grow(b, (void **)&ry1, &c4, nr + 1, sizeof(int32_t))) {
              ldsi_free(&b->e, open_at, 2 * (size_t)W * sizeof(int32_t));
              goto out;
            }
          }
          rx0[nr] = x;
          ry0[nr] = y;
          rx1[nr] = x1;
          ry1[nr] = y + 1;
          r = (int32_t)nr++;
        }
        next_at[x] = r;
        x = x1;
      }
      memcpy(open_at, next_at, (size_t)W * sizeof(int32_t));
    }
    ldsi_free(&b->e, open_at, 2 * (size_t)W * sizeof(int32_t));
  }
  /* greedy: the first free cell not yet covered, its run to the right, then
  ** down while the same run is free and uncovered */
  for (y = 0; y < H && !b->strict; y++)
    for (x = 0; x < W; x++) {
      int32_t x1 = x, y1, xx;
      if (done[(size_t)y * W + x] || !free_at(g, x, y)) continue;
      while (x1 < W && x1 - x < side && free_at(g, x1, y) && !done[(size_t)y * W + x1]) x1++;
      for (y1 = y + 1; y1 < H && y1 - y < side; y1++) {
        for (xx = x; xx < x1; xx++)
          if (!free_at(g, xx, y1) || done[(size_t)y1 * W + xx]) break;
        if (xx < x1) break;
      }
      {
        int32_t yy;
        for (yy = y; yy < y1; yy++) memset(done + (size_t)yy * W + x, 1, (size_t)(x1 - x));
      }
      if (nr == cap) {
        c2 = c3 = c4 = cap;
        if (!grow(b, (void **)&rx0, &cap, nr + 1, sizeof(int32_t)) ||
            !grow(b, (void **)&ry0, &c2, nr + 1, sizeof(int32_t)) ||
            !grow(b, (void **)&rx1, &c3, nr + 1, sizeof(int32_t)) ||
            !grow(b, (void **)&ry1, &c4, nr + 1, sizeof(int32_t)))
          goto out;
      }
      rx0[nr] = x;
      ry0[nr] = y;
      rx1[nr] = x1;
      ry1[nr] = y1;
      nr++;
    }
  for (i = 0; i < nr; i++) {
    b->corner[(uint32_t)ry0[i] * b->P + (uint32_t)rx0[i]] = 1;
    b->corner[(uint32_t)ry0[i] * b->P + (uint32_t)rx1[i]] = 1;
    b->corner[(uint32_t)ry1[i] * b->P + (uint32_t)rx0[i]] = 1;
    b->corner[(uint32_t)ry1[i] * b->P + (uint32_t)rx1[i]] = 1;
  }
  /* each rectangle in the canonical winding (negative shoelace in x-z, x =
  ** map x, z = map y): down the left side, east along the bottom, up the
  ** right side, west along the top, with every corner point on the way */
  for (i = 0; i < nr && b->strict; i++) {
    /* the rectangle cut between its top chain T (y0) and bottom chain B
    ** (y1), both left to right, into trapezoids T_i T_i+1 B_j+1 B_j while
    ** both chains go on, then triangles: strictly convex pieces (at most one
    ** segment of each side), no new point */
    int32_t x0 = rx0[i], y0 = ry0[i], x1 = rx1[i], y1 = ry1[i], t;
    uint32_t k, n, piece[4];
    int32_t tx = x0, bx = x0, tn, bn; /* the current point of each chain */
    uint32_t tv = vertex(b, x0, y0, x0, y0), bv = vertex(b, x0, y1, x0, y1 - 1);
    while (tx < x1 || bx < x1) {
      uint32_t tnv = 0, bnv = 0;
      tn = tx;
      bn = bx;
      if (tx < x1) {
        for (t = tx + 1; t < x1 && !b->corner[(uint32_t)y0 * b->P + (uint32_t)t]; t++) {
        }
        tn = t;
        tnv = t == x1 ? vertex(b, x1, y0, x1 - 1, y0) : vertex(b, t, y0, t, y0);
      }
      if (bx < x1) {
        for (t = bx + 1; t < x1 && !b->corner[(uint32_t)y1 * b->P + (uint32_t)t]; t++) {
        }
        bn = t;
        bnv = t == x1 ? vertex(b, x1, y1, x1 - 1, y1 - 1) : vertex(b, t, y1, t, y1 - 1);
      }
      n = 0;
      piece[n++] = tv;
      piece[n++] = bv;
      if (bn != bx) piece[n++] = bnv;
      if (tn != tx) piece[n++] = tnv;
      if (b->oom) goto out;
      for (k = 0; k < n; k++) b->use[piece[k]]++;
      if (add_poly(b, piece, n) == NONE) goto out;
      if (tn != tx) {
        tx = tn;
        tv = tnv;
      }
      if (bn != bx) {
        bx = bn;
        bv = bnv;
      }
    }
  }
  for (i = 0; i < nr && !b->strict; i++) {
    int32_t x0 = rx0[i], y0 = ry0[i], x1 = rx1[i], y1 = ry1[i], t;
    uint32_t n = 0, k;
    vs[n++] = vertex(b, x0, y0, x0, y0);
    for (t = y0 + 1; t < y1; t++)
      if (b->corner[(uint32_t)t * b->P + (uint32_t)x0]) vs[n++] = vertex(b, x0, t, x0, t);
    vs[n++] = vertex(b, x0, y1, x0, y1 - 1);
    for (t = x0 + 1; t < x1; t++)
      if (b->corner[(uint32_t)y1 * b->P + (uint32_t)t]) vs[n++] = vertex(b, t, y1, t, y1 - 1);
    vs[n++] = vertex(b, x1, y1, x1 - 1, y1 - 1);
    for (t = y1 - 1; t > y0; t--)
      if (b->corner[(uint32_t)t * b->P + (uint32_t)x1]) vs[n++] = vertex(b, x1, t, x1 - 1, t);
    vs[n++] = vertex(b, x1, y0, x1 - 1, y0);
    for (t = x1 - 1; t > x0; t--)
      if (b->corner[(uint32_t)y0 * b->P + (uint32_t)t]) vs[n++] = vertex(b, t, y0, t, y0);
    if (b->oom) goto out;
    for (k = 0; k < n; k++) b->use[vs[k]]++;
    if (add_poly(b, vs, n) == NONE) goto out;
  }
  *nrect = (uint32_t)nr;
out:
  ldsi_free(&b->e, done, (size_t)W * (size_t)H);
  if (rx0) ldsi_free(&b->e, rx0, cap * sizeof(int32_t));
  if (ry0) ldsi_free(&b->e, ry0, cap * sizeof(int32_t));
  if (rx1) ldsi_free(&b->e, rx1, cap * sizeof(int32_t));
  if (ry1) ldsi_free(&b->e, ry1, cap * sizeof(int32_t));
  return !b->oom;
}

/* The greedy merge: each live polygon, in id order, merges with the
** neighbour across the longest shared boundary whose union qualifies, again
** and again; passes until none merges. */
static bool merge_all(Build *b, uint32_t *merges) {
  bool any = true;
  uint32_t out[2 * LDS_NAVMESH_MAX_POLY_VERTS], best_out[2 * LDS_NAVMESH_MAX_POLY_VERTS];
  while (any) {
    size_t A;
    any = false;
    for (A = 0; A < b->np; A++) {
      uint32_t cur = (uint32_t)A;
      while (b->plen[cur]) {
        uint32_t n = b->plen[cur], k, best = NONE, best_n = 0;
        int64_t best_len = 0;
        for (k = 0; k < n; k++) {
          const uint32_t *a = b->pool + b->pstart[cur];
          uint32_t B = hget(b, a[(k + 1) % n], a[k]), m;
          int64_t len;
          if (B == NONE || B == cur || !b->plen[B]) continue;
          m = merged(b, cur, B, out, &len);
          if (m && (len > best_len || (len == best_len && B < best))) {
            best = B;
            best_len = len;
            best_n = m;
            memcpy(best_out, out, m * sizeof(uint32_t));
          }
        }
        if (best == NONE) break;
        if (!do_merge(b, cur, best, best_out, best_n)) return false;
        (*merges)++;
        any = true;
        cur = (uint32_t)(b->np - 1);
      }
    }
  }
  return true;
}

static void build_free(Build *b) {
  size_t npt = (size_t)b->P * (size_t)(b->H + 1);
  if (b->vid) ldsi_free(&b->e, b->vid, 2 * npt * sizeof(uint32_t));
  if (b->corner) ldsi_free(&b->e, b->corner, npt);
  if (b->vx) ldsi_free(&b->e, b->vx, b->vcap * sizeof(uint32_t));
  if (b->vy) ldsi_free(&b->e, b->vy, b->vcap * sizeof(uint32_t));
  if (b->use) ldsi_free(&b->e, b->use, b->vcap * sizeof(uint32_t));
  if (b->pool) ldsi_free(&b->e, b->pool, b->pcap * sizeof(uint32_t));
  if (b->pstart) ldsi_free(&b->e, b->pstart, b->npcap * sizeof(uint32_t));
  if (b->plen) ldsi_free(&b->e, b->plen, b->npcap * sizeof(uint32_t));
  if (b->hkey) ldsi_free(&b->e, b->hkey, b->hcap * sizeof(uint64_t));
  if (b->hval) ldsi_free(&b->e, b->hval, b->hcap * sizeof(uint32_t));
}

lds_Navmesh *lds_grid_to_navmesh(const lds_Env *env, const lds_Grid *g,
                                 const lds_GridMeshParams *params, lds_GridMeshInfo *info,
                                 lds_Error *err) {
  static const char fn[] = "lds_grid_to_navmesh";
  lds_GridMeshParams p;
  Build b;
  size_t npt, i, nfree;
  uint64_t t0;
  lds_Navmesh *m = NULL;
  lds_GridMeshInfo inf;
  memset(&b, 0, sizeof b);
  memset(&inf, 0, sizeof inf);
  ldsi_env_resolve(&b.e, env);
  if (params)
    p = *params;
  else
    lds_grid_mesh_params_init(&p);
  if (!g) {
    ldsi_error(err, LDS_E_ARG, "%s: grid is NULL", fn);
    return NULL;
  }
  if (p.max_verts < 4 || p.max_verts > LDS_NAVMESH_MAX_POLY_VERTS) {
    ldsi_error(err, LDS_E_ARG, "%s: max_verts %d out of range (expected 4..%d)", fn, p.max_verts,
               LDS_NAVMESH_MAX_POLY_VERTS);
    return NULL;
  }
  nfree = lds_grid_passable_count(g);
  if (nfree == 0) {
    ldsi_error(err, LDS_E_ARG, "%s: the grid has no passable cell (nothing to mesh)", fn);
    return NULL;
  }
  t0 = b.e.clock(b.e.clock_ud);
  b.g = g;
  b.W = g->w;
  b.H = g->h;
  b.P = (uint32_t)g->w + 1;
  b.maxv = p.max_verts;
  b.strict = p.strict;
  npt = (size_t)b.P * (size_t)(b.H + 1);
  b.vid = (uint32_t *)ldsi_alloc(&b.e, 2 * npt * sizeof(uint32_t));
  b.corner = (uint8_t *)ldsi_calloc(&b.e, npt, 1);
  /* the edge table: every rectangle and merged polygon's edges, at most
  ** half full (it grows) */
  b.hcap = 64;
  while (b.hcap < 8 * nfree + 64) b.hcap *= 2;
  b.hkey = (uint64_t *)ldsi_alloc(&b.e, b.hcap * sizeof(uint64_t));
  b.hval = (uint32_t *)ldsi_alloc(&b.e, b.hcap * sizeof(uint32_t));
  if (!b.vid || !b.corner || !b.hkey || !b.hval) goto nomem;
  for (i = 0; i < 2 * npt; i++) b.vid[i] = NONE;
  for (i = 0; i < b.hcap; i++) b.hkey[i] = UINT64_MAX;
  if (!rectangles(&b, p.max_verts / 4, &inf.rects)) goto nomem;
  if (!merge_all(&b, &inf.merges)) goto nomem;
  {
    /* the live polygons, their vertices renumbered in order of first use */
    uint32_t *remap = (uint32_t *)ldsi_alloc(&b.e, (b.nv ? b.nv : 1) * sizeof(uint32_t));
    double *verts = NULL;
    uint32_t *pv = NULL, *ps = NULL;
    size_t nlive = 0, nidx = 0, k, nv2 = 0;
    lds_NavmeshDesc d;
    if (!remap) goto nomem;
    for (i = 0; i < b.nv; i++) remap[i] = NONE;
    for (i = 0; i < b.np; i++)
      if (b.plen[i]) {
        nlive++;
        nidx += b.plen[i];
      }
    verts = (double *)ldsi_alloc(&b.e, 3 * (b.nv ? b.nv : 1) * sizeof(double));
    pv = (uint32_t *)ldsi_alloc(&b.e, (nidx ? nidx : 1) * sizeof(uint32_t));
    ps = (uint32_t *)ldsi_alloc(&b.e, (nlive + 1) * sizeof(uint32_t));
    if (!verts || !pv || !ps) {
      ldsi_free(&b.e, remap, (b.nv ? b.nv : 1) * sizeof(uint32_t));
      if (verts) ldsi_free(&b.e, verts, 3 * (b.nv ? b.nv : 1) * sizeof(double));
      if (pv) ldsi_free(&b.e, pv, (nidx ? nidx : 1) * sizeof(uint32_t));
      if (ps) ldsi_free(&b.e, ps, (nlive + 1) * sizeof(uint32_t));
      goto nomem;
    }
    nidx = 0;
    nlive = 0;
    for (i = 0; i < b.np; i++) {
      if (!b.plen[i]) continue;
      ps[nlive++] = (uint32_t)nidx;
      if (b.plen[i] > inf.max_poly_verts) inf.max_poly_verts = b.plen[i];
      for (k = 0; k < b.plen[i]; k++) {
        uint32_t v = b.pool[b.pstart[i] + k];
        if (remap[v] == NONE) {
          remap[v] = (uint32_t)nv2;
          verts[3 * nv2] = (double)b.vx[v];
          verts[3 * nv2 + 1] = 0.0;
          verts[3 * nv2 + 2] = (double)b.vy[v];
          nv2++;
        }
        pv[nidx++] = remap[v];
      }
    }
    ps[nlive] = (uint32_t)nidx;
    memset(&d, 0, sizeof d);
    d.verts = verts;
    d.n_verts = (uint32_t)nv2;
    d.poly_verts = pv;
    d.poly_start = ps;
    d.n_polys = (uint32_t)nlive;
    {
      uint8_t *areas = (uint8_t *)ldsi_alloc(&b.e, nlive ? nlive : 1);
      lds_Env pe = ldsi_env_public(&b.e);
      if (areas) {
        memset(areas, p.area, nlive ? nlive : 1);
        d.areas = areas;
        m = lds_navmesh_new(&pe, &d, err);
        ldsi_free(&b.e, areas, nlive ? nlive : 1);
      } else {
        ldsi_error(err, LDS_E_NOMEM, "%s: out of memory for %zu areas", fn, nlive);
      }
    }
    inf.polys = (uint32_t)nlive;
    inf.verts = (uint32_t)nv2;
    ldsi_free(&b.e, remap, (b.nv ? b.nv : 1) * sizeof(uint32_t));
    ldsi_free(&b.e, verts, 3 * (b.nv ? b.nv : 1) * sizeof(double));
    ldsi_free(&b.e, pv, (nidx ? nidx : 1) * sizeof(uint32_t));
    ldsi_free(&b.e, ps, (nlive + 1) * sizeof(uint32_t));
  }
  build_free(&b);
  inf.build_us = b.e.clock(b.e.clock_ud) - t0;
  if (info) *info = inf;
  return m;
nomem:
  build_free(&b);
  ldsi_error(err, b.nv >= LDS_NAVMESH_MAX_IDS ? LDS_E_LIMIT : LDS_E_NOMEM,
             "%s: %s for a %ldx%ld grid", fn,
             b.nv >= LDS_NAVMESH_MAX_IDS ? "too many vertices" : "out of memory", (long)g->w,
             (long)g->h);
  return NULL;
}
