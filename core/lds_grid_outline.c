/* SPDX-License-Identifier: MIT */
/*
** lds_grid_outline.c — the outline of a grid's free space (lds_grid_mesh.h):
** pieces by 4-connected labelling, the unit boundary edges with the free
** cell on their right (on screen, y down), linked into rings; at a pinch
** vertex a ring turns with the cell it came along, so rings touch there and
** never cross.
*/
#include "lds_grid_internal.h"
#include "lds_grid_mesh.h"

#include <string.h>

#define NONE 0xFFFFFFFFu

static bool free_at(const lds_Grid *g, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < g->w && y < g->h && !g->blocked[ldsi_grid_pidx(g, x, y)];
}

/* 4-connected labels of the passable cells (NONE for blocked), pieces
** numbered in row-major order of their first cell; cell counts appended to
** *cells (n_pieces of them). Returns the piece count or -1 (no memory). */
static long label_pieces(const ldsi_Env *e, const lds_Grid *g, uint32_t *lab, uint32_t **cells,
                         size_t *cells_cap) {
  size_t n = (size_t)g->w * (size_t)g->h, i, head, tail;
  uint32_t *queue = (uint32_t *)ldsi_alloc(e, (n ? n : 1) * sizeof(uint32_t));
  long np = 0;
  if (!queue) return -1;
  for (i = 0; i < n; i++) lab[i] = NONE;
  for (i = 0; i < n; i++) {
    int32_t x = (int32_t)(i % (size_t)g->w), y = (int32_t)(i / (size_t)g->w);
    uint32_t count = 0;
    if (lab[i] != NONE || !free_at(g, x, y)) continue;
    if ((size_t)np == *cells_cap) {
      size_t nc = *cells_cap ? 2 * *cells_cap : 16;
      uint32_t *c = (uint32_t *)ldsi_realloc(e, *cells, *cells_cap * sizeof(uint32_t),
                                             nc * sizeof(uint32_t));
      if (!c) {
        ldsi_free(e, queue, (n ? n : 1) * sizeof(uint32_t));
        return -1;
      }
      *cells = c;
      *cells_cap = nc;
    }
    head = tail = 0;
    lab[i] = (uint32_t)np;
    queue[tail++] = (uint32_t)i;
    while (head < tail) {
      uint32_t c = queue[head++];
      int32_t cx = (int32_t)(c % (uint32_t)g->w), cy = (int32_t)(c / (uint32_t)g->w);
      static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
      int d;
      count++;
      for (d = 0; d < 4; d++) {
        int32_t nx = cx + dx[d], ny = cy + dy[d];
        size_t k;
        if (!free_at(g, nx, ny)) continue;
        k = (size_t)ny * (size_t)g->w + (size_t)nx;
        if (lab[k] != NONE) continue;
        lab[k] = (uint32_t)np;
        queue[tail++] = (uint32_t)k;
      }
    }
    (*cells)[np++] = count;
  }
  ldsi_free(e, queue, (n ? n : 1) * sizeof(uint32_t));
  return np;
}

/* A boundary unit edge: from point a to point b (ids y*(w+1)+x), along the
** side of cell `cell` (id y*w+x), the cell on its right on screen. */
typedef struct Edge {
  uint32_t a, b, cell;
} Edge;

/* Growable output arrays. */
typedef struct Out {
  const ldsi_Env *e;
  int32_t *xy;
  size_t n, cap; /* points */
  uint32_t *start, *piece;
  uint8_t *hole;
  size_t nr, rcap; /* rings */
} Out;

static bool out_point(Out *o, int32_t x, int32_t y) {
  if (o->n == o->cap) {
    size_t nc = o->cap ? 2 * o->cap : 256;
    int32_t *p = (int32_t *)ldsi_realloc(o->e, o->xy, 2 * o->cap * sizeof(int32_t),
                                         2 * nc * sizeof(int32_t));
    if (!p) return false;
    o->xy = p;
    o->cap = nc;
  }
  o->xy[2 * o->n] = x;
  o->xy[2 * o->n + 1] = y;
  o->n++;
  return true;
}

static bool out_ring(Out *o, uint32_t start, uint32_t piece, bool hole) {
  if (o->nr + 1 >= o->rcap) {
    size_t nc = o->rcap ? 2 * o->rcap : 16;
    uint32_t *s = (uint32_t *)ldsi_realloc(o->e, o->start, o->rcap * sizeof(uint32_t),
                                           nc * sizeof(uint32_t));
    uint32_t *p;
    uint8_t *h;
    if (!s) return false;
    o->start = s;
    p = (uint32_t *)ldsi_realloc(o->e, o->piece, o->rcap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!p) return false;
    o->piece = p;
    h = (uint8_t *)ldsi_realloc(o->e, o->hole, o->rcap, nc);
    if (!h) return false;
    o->hole = h;
    o->rcap = nc;
  }
  o->start[o->nr] = start;
  o->piece[o->nr] = piece;
  o->hole[o->nr] = hole ? 1 : 0;
  o->nr++;
  return true;
}

void lds_grid_outline_free(lds_GridOutline *o) {
  ldsi_Env e;
  if (!o) return;
  ldsi_env_resolve(&e, &o->env);
  /* sizes are not kept: the default and most allocators ignore them; ours
  ** pass the true sizes, recomputed here */
  if (o->xy) ldsi_free(&e, o->xy, 2 * (o->ring_start ? o->ring_start[o->n_rings] : 0) * sizeof(int32_t));
  if (o->ring_start) ldsi_free(&e, o->ring_start, (o->n_rings + 1) * sizeof(uint32_t));
  if (o->ring_piece) ldsi_free(&e, o->ring_piece, (o->n_rings ? o->n_rings : 1) * sizeof(uint32_t));
  if (o->ring_hole) ldsi_free(&e, o->ring_hole, o->n_rings ? o->n_rings : 1);
  if (o->piece_cells) ldsi_free(&e, o->piece_cells, (o->n_pieces ? o->n_pieces : 1) * sizeof(uint32_t));
  memset(o, 0, sizeof *o);
}

lds_Status lds_grid_outline(const lds_Env *env, const lds_Grid *g, lds_GridOutline *out,
                            lds_Error *err) {
  static const char fn[] = "lds_grid_outline";
  ldsi_Env e;
  size_t ncell, npt, ne = 0, i;
  uint32_t *lab = NULL, *outs = NULL, *pieces = NULL;
  Edge *edges = NULL;
  uint8_t *seen = NULL;
  size_t pieces_cap = 0;
  long np;
  Out o;
  int32_t W, H, x, y;
  uint32_t p;
  lds_Status st = LDS_E_NOMEM;
  ldsi_env_resolve(&e, env);
  if (!g || !out) return ldsi_error(err, LDS_E_ARG, "%s: NULL grid or output", fn);
  memset(out, 0, sizeof *out);
  memset(&o, 0, sizeof o);
  o.e = &e;
  W = g->w;
  H = g->h;
  ncell = (size_t)W * (size_t)H;
  npt = (size_t)(W + 1) * (size_t)(H + 1);
  lab = (uint32_t *)ldsi_alloc(&e, ncell * sizeof(uint32_t));
  edges = (Edge *)ldsi_alloc(&e, 4 * ncell * sizeof(Edge));
  outs = (uint32_t *)ldsi_alloc(&e, 2 * npt * sizeof(uint32_t)); /* two out-edges per point */
  seen = (uint8_t *)ldsi_calloc(&e, 4 * ncell, 1);
  if (!lab || !edges || !outs || !seen) goto fail;
  np = label_pieces(&e, g, lab, &pieces, &pieces_cap);
  if (np < 0) goto fail;
  for (i = 0; i < 2 * npt; i++) outs[i] = NONE;
  /* the boundary edges, free cell on the right on screen (y down): top
  ** side eastwards, right side southwards, bottom westwards, left northwards;
  ** found in row-major order of their cell, sides in that order */
  for (y = 0; y < H; y++)
    for (x = 0; x < W; x++) {
      uint32_t c = (uint32_t)y * (uint32_t)W + (uint32_t)x, P = (uint32_t)(W + 1);
      uint32_t tl = (uint32_t)y * P + (uint32_t)x, tr = tl + 1, bl = tl + P, br = bl + 1;
      Edge s[4];
      int k, ns = 0;
      if (!free_at(g, x, y)) continue;
      if (!free_at(g, x, y - 1)) s[ns++] = (Edge){tl, tr, c};
      if (!free_at(g, x + 1, y)) s[ns++] = (Edge){tr, br, c};
      if (!free_at(g, x, y + 1)) s[ns++] = (Edge){br, bl, c};
      if (!free_at(g, x - 1, y)) s[ns++] = (Edge){bl, tl, c};
      for (k = 0; k < ns; k++) {
        uint32_t *slot = &outs[2 * s[k].a];
        edges[ne] = s[k];
        if (slot[0] == NONE) slot[0] = (uint32_t)ne;
        else slot[1] = (uint32_t)ne;
        ne++;
      }
    }
  /* rings, piece by piece: the outer ring of a piece is the one through
  ** the top side of its first cell (found first in row-major order) */
  for (p = 0; p < (uint32_t)np; p++) {
    size_t k;
    for (k = 0; k < ne; k++) {
      size_t cur = k, first_pt;
      long area2 = 0;
      int32_t dx0 = 0, dy0 = 0;
      bool have_dir = false;
      if (seen[k] || lab[edges[k].cell] != p) continue;
      first_pt = o.n;
      /* walk the ring, keeping only corners */
      do {
        const Edge *ed = &edges[cur];
        uint32_t *slot = &outs[2 * ed->b];
        size_t next;
        int32_t ax = (int32_t)(ed->a % (uint32_t)(W + 1)), ay = (int32_t)(ed->a / (uint32_t)(W + 1));
        int32_t bx = (int32_t)(ed->b % (uint32_t)(W + 1)), by = (int32_t)(ed->b / (uint32_t)(W + 1));
        int32_t dx = bx - ax, dy = by - ay;
        seen[cur] = 1;
        area2 += (long)ax * by - (long)bx * ay;
        if (!have_dir || dx != dx0 || dy != dy0) {
          if (!out_point(&o, ax, ay)) goto fail;
          have_dir = true;
          dx0 = dx;
          dy0 = dy;
        }
        /* the next edge: the only one from b, or at a pinch the one along
        ** the same cell */
        next = slot[0];
        if (slot[1] != NONE && edges[slot[1]].cell == ed->cell) next = slot[1];
        cur = next;
      } while (cur != k && cur != NONE && !seen[cur]);
      /* the first point is a corner unless the ring comes back straight */
      if (o.n - first_pt >= 2) {
        {
          const Edge *ed = &edges[k];
          int32_t ax = (int32_t)(ed->a % (uint32_t)(W + 1)), ay = (int32_t)(ed->a / (uint32_t)(W + 1));
          int32_t bx = (int32_t)(ed->b % (uint32_t)(W + 1)), by = (int32_t)(ed->b / (uint32_t)(W + 1));
          if (bx - ax == dx0 && by - ay == dy0) { /* the last run continues into the first */
            memmove(&o.xy[2 * first_pt], &o.xy[2 * first_pt + 2],
                    2 * (o.n - first_pt - 1) * sizeof(int32_t));
            o.n--;
          }
        }
      }
      if (!out_ring(&o, (uint32_t)first_pt, p, area2 < 0)) goto fail;
    }
  }
  if (!out_ring(&o, (uint32_t)o.n, 0, false)) goto fail; /* the end offset */
  o.nr--;
  /* trim to the exact sizes lds_grid_outline_free passes */
  {
    size_t rc = o.rcap, pn = np ? (size_t)np : 1, rn = o.nr ? o.nr : 1;
    int32_t *xy = (int32_t *)ldsi_realloc(&e, o.xy, 2 * o.cap * sizeof(int32_t),
                                          2 * (o.n ? o.n : 1) * sizeof(int32_t));
    uint32_t *rs, *rp, *pc;
    uint8_t *rh;
    if (!xy) goto fail;
    o.xy = xy;
    o.cap = o.n ? o.n : 1;
    if (!o.n) { /* no point: the free size is 2 * 0 */
      ldsi_free(&e, o.xy, 2 * sizeof(int32_t));
      o.xy = NULL;
      o.cap = 0;
    }
    rs = (uint32_t *)ldsi_realloc(&e, o.start, rc * sizeof(uint32_t), (o.nr + 1) * sizeof(uint32_t));
    if (!rs) goto fail;
    o.start = rs;
    rp = (uint32_t *)ldsi_realloc(&e, o.piece, rc * sizeof(uint32_t), rn * sizeof(uint32_t));
    if (rp) o.piece = rp;
    rh = (uint8_t *)ldsi_realloc(&e, o.hole, rc, rn);
    if (rh) o.hole = rh;
    if (!rp || !rh) goto fail;
    o.rcap = 0; /* sizes are now exact: see below */
    pc = (uint32_t *)ldsi_realloc(&e, pieces, pieces_cap * sizeof(uint32_t), pn * sizeof(uint32_t));
    if (!pc) goto fail_exact;
    pieces = pc;
    pieces_cap = pn;
  }
  out->n_pieces = (uint32_t)np;
  out->n_rings = (uint32_t)o.nr;
  out->ring_start = o.start;
  out->xy = o.xy;
  out->ring_piece = o.piece;
  out->ring_hole = o.hole;
  out->piece_cells = pieces;
  out->env = ldsi_env_public(&e);
  ldsi_free(&e, lab, ncell * sizeof(uint32_t));
  ldsi_free(&e, edges, 4 * ncell * sizeof(Edge));
  ldsi_free(&e, outs, 2 * npt * sizeof(uint32_t));
  ldsi_free(&e, seen, 4 * ncell);
  ldsi_error_clear(err);
  return LDS_OK;
fail_exact: /* the ring arrays have their final sizes */
  out->n_rings = (uint32_t)o.nr;
  out->ring_start = o.start;
  out->xy = o.xy;
  out->ring_piece = o.piece;
  out->ring_hole = o.hole;
  out->env = ldsi_env_public(&e);
  lds_grid_outline_free(out);
  o.xy = NULL;
  o.start = o.piece = NULL;
  o.hole = NULL;
fail:
  if (lab) ldsi_free(&e, lab, ncell * sizeof(uint32_t));
  if (edges) ldsi_free(&e, edges, 4 * ncell * sizeof(Edge));
  if (outs) ldsi_free(&e, outs, 2 * npt * sizeof(uint32_t));
  if (seen) ldsi_free(&e, seen, 4 * ncell);
  if (pieces) ldsi_free(&e, pieces, pieces_cap * sizeof(uint32_t));
  if (o.xy) ldsi_free(&e, o.xy, 2 * o.cap * sizeof(int32_t));
  if (o.start) ldsi_free(&e, o.start, o.rcap * sizeof(uint32_t));
  if (o.piece) ldsi_free(&e, o.piece, o.rcap * sizeof(uint32_t));
  if (o.hole) ldsi_free(&e, o.hole, o.rcap);
  return ldsi_error(err, st, "%s: out of memory for a %ldx%ld grid", fn, (long)W, (long)H);
}
